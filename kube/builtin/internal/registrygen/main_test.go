package main

import (
	"bytes"
	"os"
	"os/exec"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/kube/builtin"

	"github.com/structmerge/structmerge/kube/internal/strategies"
)

// TestGeneratedFileIsCurrent fails when the committed table is not what
// the generator writes from the strategies it calls: after a change of
// the generator or of the Kubernetes version, run `go generate` in
// kube/builtin.
func TestGeneratedFileIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../registry_generated.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("kube/builtin/registry_generated.go is not what registrygen writes; run `go generate` in kube/builtin. Lines that differ:\n%s", lineDiff(got, want))
	}
}

// lineDiff lists the lines only in a (-) and only in b (+).
func lineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	var out strings.Builder
	for _, l := range al {
		if !slices.Contains(bl, l) {
			out.WriteString("- " + l + "\n")
		}
	}
	for _, l := range bl {
		if !slices.Contains(al, l) {
			out.WriteString("+ " + l + "\n")
		}
	}
	return out.String()
}

// TestKubernetesVersion checks that the strategies called are those of
// the release whose schema package builtin embeds.
func TestKubernetesVersion(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	for _, m := range info.Deps {
		if m.Path == "k8s.io/kubernetes" {
			if m.Version != builtin.KubernetesVersion {
				t.Errorf("k8s.io/kubernetes is %s, builtin.KubernetesVersion %s", m.Version, builtin.KubernetesVersion)
			}
			return
		}
	}
	t.Error("k8s.io/kubernetes is not a dependency")
}

// notStrategies are the packages under k8s.io/kubernetes/pkg/registry
// with a strategy.go that serve no kind of their own.
var notStrategies = map[string]string{
	"k8s.io/kubernetes/pkg/registry/flowcontrol/ensurer": "keeps the suggested flow-control objects in place; not a storage strategy",
	"k8s.io/kubernetes/pkg/registry/testapigroup/carp":   "a test API group, not served",
}

// TestEveryStrategyPackageIsListed holds strategies.Kinds to the packages of
// k8s.io/kubernetes/pkg/registry: every package with a strategy.go serves
// a kind listed there (by the package of its main strategy), so a new
// kind in a new Kubernetes release cannot be left out silently.
func TestEveryStrategyPackageIsListed(t *testing.T) {
	// -e: the pattern also matches packages whose dependencies this
	// module does not need (storages' REST handlers); their file lists
	// are still read.
	out, err := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}} {{.GoFiles}}", "k8s.io/kubernetes/pkg/registry/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	listed := map[string]bool{}
	for _, k := range strategies.Kinds() {
		typ := reflect.TypeOf(k.Main)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		listed[typ.PkgPath()] = true
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		pkg, files, _ := strings.Cut(line, " ")
		if !strings.Contains(files, "strategy.go") || notStrategies[pkg] != "" {
			continue
		}
		if !listed[pkg] {
			t.Errorf("%s has a strategy.go but no kind in strategies.Kinds() uses its strategy", pkg)
		}
		delete(listed, pkg)
	}
	for pkg := range listed {
		t.Errorf("strategies.Kinds() uses the strategy of %s, which has no strategy.go", pkg)
	}
}

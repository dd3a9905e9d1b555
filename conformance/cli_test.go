package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/internal/cli"
	"github.com/structmerge/structmerge/internal/scenario"
)

// The command's reference is the real API server: each case stores a live
// object on the reference kube-apiserver, runs `structmerge apply` with
// that stored object as --live, sends the same apply to the server, and
// compares the results (objects and managedFields, leaving out what only
// a server assigns) or the conflicts (the server's message is the
// command's).

// cliCase is one apply of the command against the server.
type cliCase struct {
	name           string
	live, manifest string // YAML
	crd            string // a CRD file for --crd, or ""
	force          bool
	wantConflict   bool
	wantWarning    string // a warning the command must print
}

func runCLICase(t *testing.T, r *refServer, c cliCase, ns string) {
	t.Helper()
	ctx := context.Background()
	var crds []scenario.Source
	if c.crd != "" {
		text, err := os.ReadFile(c.crd)
		if err != nil {
			t.Fatal(err)
		}
		crds = []scenario.Source{{File: c.crd, Text: text}}
		if err := r.installCRDs(ctx, crds); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.ensureNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	var liveObj, manifest map[string]any
	if err := yaml.Unmarshal([]byte(c.live), &liveObj); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(c.manifest), &manifest); err != nil {
		t.Fatal(err)
	}
	liveU := &unstructured.Unstructured{Object: withoutServerAssigned(liveObj)}
	liveU.SetNamespace(ns)
	manifestU := &unstructured.Unstructured{Object: manifest}
	manifestU.SetNamespace(ns)
	stored, err := r.store(ctx, liveU.Object, liveU)
	if err != nil {
		t.Fatalf("storing the live object: %v", err)
	}

	op := scenario.OpApply
	if c.force {
		op = scenario.OpForceApply
	}
	want, werr := r.do(ctx, refOp{op: op, manager: "kubectl", object: manifest}, manifestU)

	dir := t.TempDir()
	liveFile, manifestFile := filepath.Join(dir, "live.json"), filepath.Join(dir, "manifest.json")
	for file, obj := range map[string]map[string]any{liveFile: stored, manifestFile: manifest} {
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"apply", "-f", manifestFile, "--live", liveFile, "-o", "json"}
	if c.force {
		args = append(args, "--force-conflicts")
	}
	if c.crd != "" {
		args = append(args, "--crd", c.crd)
	}
	// The command's clock is the server's, so that entries come in the
	// same order.
	t.Setenv("STRUCTMERGE_NOW", latestEntryTime(want).UTC().Format(time.RFC3339))
	var stdout, stderr bytes.Buffer
	code := cli.Main(args, nil, &stdout, &stderr)

	if c.wantWarning != "" && !strings.Contains(stderr.String(), c.wantWarning) {
		t.Errorf("no warning %q; stderr:\n%s", c.wantWarning, stderr.String())
	}
	if c.wantConflict {
		if werr == nil {
			t.Fatalf("the server applied it, want a conflict")
		}
		if code != 1 || !strings.Contains(stderr.String(), errText(werr)) {
			t.Errorf("the server refuses the apply with %q; structmerge exits %d with:\n%s", errText(werr), code, stderr.String())
		}
		return
	}
	if werr != nil {
		t.Fatalf("the server refuses the apply: %v", werr)
	}
	if code != 0 {
		t.Fatalf("structmerge apply exits %d:\n%s", code, stderr.String())
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	cidrs, err := r.serviceCIDRs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got = excuseServiceAllocation(want, got, manifest, cidrs)
	if d := cmp.Diff(withoutServerAssigned(want), withoutServerAssigned(got)); d != "" {
		t.Errorf("structmerge apply differs from the server (-server +structmerge):\n%s", d)
	}
}

// TestRealServerCLIExamples runs the README's applies of examples/.
func TestRealServerCLIExamples(t *testing.T) {
	r := newRefServer(t)
	read := func(p string) string {
		data, err := os.ReadFile(filepath.Join("..", "examples", p))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	cases := []cliCase{
		{name: "deployment", manifest: read("deployment.yaml"), live: read("live/deployment.yaml")},
		{name: "service", manifest: read("service.yaml"), live: read("live/service.yaml")},
		{name: "conflict", manifest: read("conflict/deployment.yaml"), live: read("live/deployment.yaml"), wantConflict: true},
		{name: "forced", manifest: read("conflict/deployment.yaml"), live: read("live/deployment.yaml"), force: true},
	}
	run := strconv.FormatInt(time.Now().UnixNano()%(36*36*36*36*36), 36)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) { runCLICase(t, r, c, fmt.Sprintf("cli%d-%s", i, run)) })
	}
}

// routeLive is a Route stored at v1, with a field only v1 declares
// (spec.timeouts) when timeouts is set.
func routeLive(timeouts bool) string {
	s := `apiVersion: gateway.example.com/v1
kind: Route
metadata:
  name: web
  namespace: default
  managedFields:
  - apiVersion: gateway.example.com/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:hostnames:
          v:"example.com": {}
        f:rules:
          k:{"name":"main"}: {".": {}, "f:backend": {}, "f:name": {}, "f:weight": {}}
    manager: kubectl
    operation: Apply
    time: "2019-01-01T00:00:00Z"
  - apiVersion: gateway.example.com/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:rules:
          k:{"name":"canary"}: {".": {}, "f:backend": {}, "f:name": {}, "f:weight": {}}
        f:timeouts:
          f:request: {}
    manager: canary-controller
    operation: Update
    time: "2019-01-02T00:00:00Z"
spec:
  hostnames: [example.com]
  rules:
  - {name: main, backend: web, weight: 90}
  - {name: canary, backend: web-canary, weight: 10}
`
	if timeouts {
		s += "  timeouts: {request: 5s}\n"
	}
	return s
}

// TestRealServerCLICRDVersions runs `structmerge apply --crd` with a
// manifest at v1beta1 on a custom resource stored at v1 (conversion
// None), as the server serves it at the request's version (a field only
// v1 declares is pruned, with a warning).
func TestRealServerCLICRDVersions(t *testing.T) {
	r := newRefServer(t)
	crd := filepath.Join(scenarioRoot, "kubernetes", "crds", "route.yaml")
	const pruned = ".spec.timeouts: gateway.example.com/v1beta1 does not declare this field"
	cases := []cliCase{
		{name: "v1beta1", crd: crd, live: routeLive(false), manifest: "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {hostnames: [example.com, www.example.com], rules: [{name: main, backend: web, weight: 90}]}\n"},
		{name: "v1beta1 pruned", crd: crd, live: routeLive(true), wantWarning: pruned, manifest: "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {hostnames: [example.com, www.example.com], rules: [{name: main, backend: web, weight: 90}]}\n"},
		{name: "v1beta1 conflict", crd: crd, live: routeLive(false), wantConflict: true, manifest: "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {rules: [{name: canary, weight: 50}]}\n"},
		{name: "v1", crd: crd, live: routeLive(true), manifest: "apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {hostnames: [example.com], rules: [{name: main, backend: web, weight: 80}]}\n"},
	}
	run := strconv.FormatInt(time.Now().UnixNano()%(36*36*36*36*36), 36)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) { runCLICase(t, r, c, fmt.Sprintf("crd%d-%s", i, run)) })
	}
}

package merge_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestWriterFieldsNamed: outside the package, a Writer whose two strings
// are not named does not compile, so a version and a manager cannot be
// swapped silently; the named form compiles.
func TestWriterFieldsNamed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sum))
	write("go.mod", "module example.com/outside\n\ngo 1.26\n\nrequire github.com/structmerge/structmerge v0.0.0\n\nreplace github.com/structmerge/structmerge => "+root+"\n")
	for _, tc := range []struct {
		name, literal string
		compiles      bool
	}{
		{"named", `merge.Writer{Manager: "kubectl", APIVersion: "v1"}`, true},
		{"unnamed", `merge.Writer{"v1", "kubectl"}`, false},
		{"unnamed with the blank field", `merge.Writer{struct{}{}, "v1", "kubectl"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write("outside.go", "package outside\n\nimport \"github.com/structmerge/structmerge/merge\"\n\nvar W = "+tc.literal+"\n")
			cmd := exec.Command("go", "build", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
			out, err := cmd.CombinedOutput()
			if tc.compiles && err != nil {
				t.Fatalf("%s does not compile:\n%s", tc.literal, out)
			}
			if !tc.compiles && err == nil {
				t.Fatalf("%s compiles", tc.literal)
			}
		})
	}
}

// Package outside builds Go source as a package of another module would
// see this one: the tests that check what an outside caller cannot compile
// (a sealed operation, an unkeyed literal) use it.
//
// Concurrency: Build uses its own temporary directory per call.
package outside

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Build writes src (a file of package outside, from its imports on) into a
// new module that requires this one through a replace onto root (the
// directory of this module's go.mod), builds it offline and returns the
// compiler's output, with an error when the build fails. Setup problems
// fail t.
func Build(t testing.TB, root, src string) ([]byte, error) {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.sum":     string(sum),
		"go.mod":     "module example.com/outside\n\ngo 1.26\n\nrequire github.com/structmerge/structmerge v0.0.0\n\nreplace github.com/structmerge/structmerge => " + root + "\n",
		"outside.go": "package outside\n\n" + src,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	return cmd.CombinedOutput()
}

// Refused builds each of files as Build does, in a subtest of its own,
// and fails unless the build fails with the text given. Each file is
// {subtest name, the file of package outside from its imports on, a text
// of the compiler's refusal}. It skips in -short mode, since every file
// builds a module.
func Refused(t *testing.T, root string, files [][3]string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds other modules")
	}
	for _, f := range files {
		name, body, want := f[0], f[1], f[2]
		t.Run(name, func(t *testing.T) {
			out, err := Build(t, root, body)
			if err == nil {
				t.Fatal("an outside package compiled it")
			}
			if !strings.Contains(string(out), want) {
				t.Fatalf("the build failed, but not as expected (%q):\n%s", want, out)
			}
		})
	}
}

package scenario

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const passing = fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\nexpect:\n  object: {x: 1}\n"
const failing = fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\nexpect:\n  object: {x: 2}\n"

// tree writes files (path -> content) under a new temporary directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFiles(t *testing.T) {
	dir := tree(t, map[string]string{
		"b.yaml":             passing,
		"a.yml":              passing,
		"sub/c.yaml":         passing,
		"sub/schema.yaml":    "types:\n- name: widget\n",
		"sub/crd.yaml":       "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n",
		"sub/notes.txt":      "not yaml",
		"sub/broken.yaml":    "a: [\n",
		"a/deeper/d.YAML":    passing,
		"sub/list.yaml":      "- a\n",
		"sub/empty.yaml":     "",
		"sub/twodocs.yaml":   "types: []\n---\nkind: x\n",
		"sub/nested-types.y": "types: []",
	})
	got, err := Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.ToSlash(strings.TrimPrefix(got[i], dir+string(filepath.Separator)))
	}
	want := []string{"a/deeper/d.YAML", "a.yml", "b.yaml", "sub/broken.yaml", "sub/c.yaml", "sub/empty.yaml", "sub/list.yaml", "sub/twodocs.yaml"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Files = %v, want %v", got, want)
	}
	// A file named explicitly is kept even if it looks like a schema.
	schema := filepath.Join(dir, "sub", "schema.yaml")
	got, err = Files([]string{schema, filepath.Join(dir, "nope")})
	if len(got) != 1 || got[0] != schema || err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Files = %v, %v", got, err)
	}
}

func TestRunPaths(t *testing.T) {
	dir := tree(t, map[string]string{
		"1-pass.yaml":        passing,
		"2-fail.yaml":        failing,
		"sub/3-pass.yaml":    passing,
		"sub/schema.yaml":    "types:\n- name: widget\n",
		"sub/crd.yaml":       "kind: CustomResourceDefinition\n",
		"bad/4-broken.yaml":  fakeHead + "steps:\n- {op: apply, manager: a, objekt: {}}\n",
		"only-pass/ok.yaml":  passing,
		"only-fail/no.yaml":  failing,
		"only-fail/ok2.yaml": passing,
	})
	run := func(paths ...string) (string, int) {
		var b bytes.Buffer
		code := RunPaths(&b, fakeEngine{}, paths)
		return strings.ReplaceAll(b.String(), dir+string(filepath.Separator), ""), code
	}

	out, code := run(filepath.Join(dir, "only-pass"))
	if code != 0 || out != "ok   only-pass/ok.yaml\n1 passed, 0 failed\n" {
		t.Errorf("exit %d, output:\n%s", code, out)
	}

	out, code = run(filepath.Join(dir, "only-fail"))
	wantFail := "FAIL only-fail/no.yaml\n    final expectations (line 9):\n        object differs (-expected +actual):\n"
	if code != 1 || !strings.HasPrefix(out, wantFail) || !strings.HasSuffix(out, "ok   only-fail/ok2.yaml\n1 passed, 1 failed\n") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}

	out, code = run(dir)
	lines := strings.Split(out, "\n")
	var heads []string
	for _, l := range lines {
		if strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "FAIL ") || strings.Contains(l, "passed, ") {
			heads = append(heads, l)
		}
	}
	want := []string{
		"ok   1-pass.yaml",
		"FAIL 2-fail.yaml",
		"FAIL bad/4-broken.yaml",
		"FAIL only-fail/no.yaml",
		"ok   only-fail/ok2.yaml",
		"ok   only-pass/ok.yaml",
		"ok   sub/3-pass.yaml",
		"4 passed, 3 failed",
	}
	if code != 2 || strings.Join(heads, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	if !strings.Contains(out, "bad/4-broken.yaml:8: steps[0]: unknown key \"objekt\"") {
		t.Errorf("the parse error must name the file, line and reason:\n%s", out)
	}

	out, code = run(filepath.Join(dir, "missing.yaml"), filepath.Join(dir, "1-pass.yaml"))
	if code != 2 || !strings.HasPrefix(out, "FAIL missing.yaml\n") || !strings.HasSuffix(out, "ok   1-pass.yaml\n1 passed, 1 failed\n") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}

	out, code = run()
	if code != 0 || out != "0 passed, 0 failed\n" {
		t.Errorf("no paths: exit %d, output %q", code, out)
	}
}

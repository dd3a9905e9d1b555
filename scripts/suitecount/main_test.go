package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ev writes one go test -json event.
func ev(action, pkg, test string) string {
	s := `{"Action":"` + action + `","Package":"` + pkg + `"`
	if test != "" {
		s += `,"Test":"` + test + `"`
	}
	return s + "}\n"
}

// passing is a package in which two tests and a subtest pass.
var passing = ev("start", "p/a", "") + ev("run", "p/a", "TestA") + ev("pass", "p/a", "TestA") +
	ev("run", "p/a", "TestB") + ev("run", "p/a", "TestB/x") + ev("pass", "p/a", "TestB/x") +
	ev("pass", "p/a", "TestB") + ev("pass", "p/a", "")

func TestVerdicts(t *testing.T) {
	known := filepath.Join(t.TempDir(), "known")
	if err := os.WriteFile(known, []byte("# comment\np/k TestKnown a documented fix\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mins := filepath.Join(t.TempDir(), "min")
	if err := os.WriteFile(mins, []byte("# package minimum\np/a 3\np/b 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badMins := filepath.Join(t.TempDir(), "badmin")
	if err := os.WriteFile(badMins, []byte("p/a three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		input  string
		args   []string
		code   int
		output []string // substrings of the report
	}{
		{"all pass", passing, nil, 0, []string{"p/a        3 passed, 0 failed, 0 known deviations, 0 skipped (top-level tests: 2 passed, 0 failed)", "total      3 passed"}},
		{"all pass, go test exit 0, minimum met", passing, []string{"-exit", "0", "-min", "3"}, 0, nil},
		{"a test fails", passing + ev("start", "p/b", "") + ev("run", "p/b", "TestF") + ev("fail", "p/b", "TestF") + ev("fail", "p/b", ""),
			[]string{"-exit", "1"}, 1, []string{"FAIL TestF", "1 test(s) failed"}},
		{"a known deviation fails, with its subtest", ev("start", "p/k", "") + ev("run", "p/k", "TestKnown") + ev("run", "p/k", "TestKnown/s") +
			ev("fail", "p/k", "TestKnown/s") + ev("fail", "p/k", "TestKnown") + ev("fail", "p/k", ""),
			[]string{"-exit", "1", "-known", known}, 0, []string{"0 passed, 0 failed, 2 known deviations"}},
		{"the package fails at package level", passing + ev("start", "p/m", "") + ev("run", "p/m", "TestA") + ev("pass", "p/m", "TestA") + ev("fail", "p/m", ""),
			[]string{"-exit", "1"}, 1, []string{"p/m: failed outside any test"}},
		{"a known failure does not excuse a package-level failure elsewhere",
			ev("start", "p/k", "") + ev("run", "p/k", "TestKnown") + ev("fail", "p/k", "TestKnown") + ev("fail", "p/k", "") +
				ev("start", "p/m", "") + ev("fail", "p/m", ""),
			[]string{"-exit", "1", "-known", known}, 1, []string{"p/m: failed outside any test"}},
		{"the package does not build", `{"ImportPath":"p/c [p/c.test]","Action":"build-output","Output":"c_test.go:3: undefined: x\n"}` + "\n" +
			`{"ImportPath":"p/c [p/c.test]","Action":"build-fail"}` + "\n" + ev("start", "p/c", "") +
			`{"Action":"fail","Package":"p/c","FailedBuild":"p/c [p/c.test]"}` + "\n",
			[]string{"-exit", "1"}, 1, []string{"undefined: x", "p/c: did not build"}},
		{"a test starts and never reports (timeout)", passing + ev("start", "p/h", "") + ev("run", "p/h", "TestHang") + ev("fail", "p/h", ""),
			[]string{"-exit", "1"}, 1, []string{"NO RESULT TestHang", "started and never reported"}},
		{"a test starts and the binary exits 0 under it", ev("start", "p/e", "") + ev("run", "p/e", "TestA") + ev("pass", "p/e", "TestA") +
			ev("run", "p/e", "TestB") + ev("pass", "p/e", ""),
			[]string{"-exit", "0"}, 1, []string{"NO RESULT TestB"}},
		{"a package starts and never ends", ev("start", "p/x", "") + ev("run", "p/x", "TestA") + ev("pass", "p/x", "TestA"),
			nil, 1, []string{"p/x: started and never ended"}},
		{"go test fails with no JSON", "", []string{"-exit", "1"}, 1, []string{"go test wrote no JSON (exit status 1"}},
		{"go test writes only text", "FAIL\tsomething\n", []string{"-exit", "2"}, 1, []string{"go test wrote no JSON (exit status 2, 1 other lines)"}},
		{"go test exits non-zero and the JSON shows no failure", passing, []string{"-exit", "1"}, 1, []string{"exited with status 1 but its JSON shows no failure"}},
		{"the total falls below the minimum", passing, []string{"-min", "4"}, 1, []string{"only 3 tests reported a result, fewer than the minimum 4"}},
		{"per-package minimums met (p/b absent)", passing, []string{"-min-file", mins}, 0, nil},
		{"a package falls below its minimum", passing + ev("start", "p/b", "") + ev("run", "p/b", "TestA") + ev("pass", "p/b", "TestA") + ev("pass", "p/b", ""),
			[]string{"-min-file", mins}, 1, []string{"p/b: only 1 tests reported a result, fewer than the minimum 9"}},
		{"a bad minimums file", passing, []string{"-min-file", badMins}, 2, nil},
		{"trimmed package names", passing, []string{"-trim", "p/"}, 0, []string{"a          3 passed"}},
		{"bad argument", passing, []string{"-min", "x"}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, strings.NewReader(tc.input), &out, &errOut)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out.String(), errOut.String())
			}
			for _, s := range tc.output {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
		})
	}
}

// TestRealGoTest runs go test -json on a module whose tests exit, hang and
// fail to build, and checks that every one of them fails the verdict.
func TestRealGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.26\n",
		"ok/ok_test.go":   "package ok\nimport \"testing\"\nfunc TestOK(t *testing.T) {}\n",
		"exit/e_test.go":  "package e\nimport (\"os\";\"testing\";\"time\")\nfunc init() { go func() { time.Sleep(200*time.Millisecond); os.Exit(0) }() }\nfunc TestOK(t *testing.T) {}\nfunc TestSlow(t *testing.T) { time.Sleep(5*time.Second) }\n",
		"hang/h_test.go":  "package h\nimport (\"testing\";\"time\")\nfunc TestHang(t *testing.T) { time.Sleep(time.Hour) }\n",
		"build/b_test.go": "package b\nimport \"testing\"\nfunc TestB(t *testing.T) { undefined() }\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pkg := range []string{"./ok", "./exit", "./hang", "./build"} {
		t.Run(pkg, func(t *testing.T) {
			cmd := exec.Command("go", "test", "-json", "-count=1", "-timeout=2s", pkg)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
			out, err := cmd.Output()
			exit := 0
			if ee, ok := err.(*exec.ExitError); ok {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			var report bytes.Buffer
			code := run([]string{"-exit", strconv.Itoa(exit)}, bytes.NewReader(out), &report, &report)
			want := 1
			if pkg == "./ok" {
				want = 0
			}
			if code != want {
				t.Errorf("verdict %d, want %d:\n%s", code, want, report.String())
			}
		})
	}
}

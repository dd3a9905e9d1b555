package scenario_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
)

var rewrite = flag.Bool("rewrite", false, "write the final expect block (object and managers) of each scenario whose final expectations are missing or fail, from what the engine does; review the diff before committing")

const corpus = "../../testdata/scenarios"

// TestCorpus runs every scenario file of the corpus, both flavours, on
// structmerge, each as a subtest named by its path. The conformance module
// runs the same files on the reference.
//
// With -rewrite, a file whose steps behave as expected but whose final
// expectations are missing or do not hold gets them written from the
// engine's final state (scenario.RewriteExpect), and the subtest reports
// that it rewrote the file.
func TestCorpus(t *testing.T) {
	paths, err := scenario.Files([]string{corpus})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[bool]int{}
	for _, p := range paths {
		f, err := scenario.LoadFile(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		counts[f.Kubernetes]++
		name, _ := filepath.Rel(corpus, p)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			if !*rewrite {
				t.Parallel()
			}
			r := scenario.Run(native.Engine{}, f)
			if r.Passed && r.FinalOK {
				// What -rewrite would write must parse and pass too.
				rewritten(t, f, r)
			}
			if r.Passed && f.Expect != nil {
				return
			}
			if *rewrite && r.FinalOK {
				rewriteFile(t, f, r)
				return
			}
			if !r.Passed {
				t.Errorf("\n%s", r)
			}
		})
	}
	// The corpus must not silently shrink (a bad path would run nothing).
	if counts[false] < 80 || counts[true] < 40 {
		t.Errorf("%d structured and %d Kubernetes scenarios, want at least 80 and 40", counts[false], counts[true])
	}
}

func rewriteFile(t *testing.T, f *scenario.File, r scenario.Result) {
	t.Helper()
	data, out := rewritten(t, f, r)
	if bytes.Equal(out, data) {
		return
	}
	if err := os.WriteFile(f.Path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote the final expectations of %s", f.Path)
}

// rewritten returns the file's data and what RewriteExpect makes of it from
// r's final state, after checking that the result parses, states a final
// object (and managers, for a structured scenario) and passes.
func rewritten(t *testing.T, f *scenario.File, r scenario.Result) (data, out []byte) {
	t.Helper()
	data, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	out, err = scenario.RewriteExpect(data, r.Final, f.Kubernetes)
	if err != nil {
		t.Fatalf("RewriteExpect: %v", err)
	}
	g, err := scenario.Parse(f.Path, out)
	if err != nil {
		t.Fatalf("the rewritten file does not parse: %v\n%s", err, out)
	}
	if g.Expect == nil || !g.Expect.HasObject || (!f.Kubernetes && !g.Expect.HasManagers) {
		t.Fatalf("the rewritten file has no final object or managers:\n%s", out)
	}
	if r2 := scenario.Run(native.Engine{}, g); !r2.Passed {
		t.Fatalf("the rewritten expectations do not pass:\n%s\n%s", r2, out)
	}
	return data, out
}

// TestRewriteNewScenario: -rewrite fills in a new file's final
// expectations, keeps the rest of it, and the result passes; a stale
// expectation is replaced.
func TestRewriteNewScenario(t *testing.T) {
	schemaFile, err := filepath.Abs(filepath.Join(corpus, "schemas", "basic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	head := "description: new\n# a comment that stays\nschema:\n  file: " + schemaFile + "\ntype: widget\nsteps:\n" +
		"- op: apply\n  manager: a\n  object: {name: web, replicas: 1}\n" +
		"- op: update\n  manager: b\n  object: {name: web, replicas: 2}\n"
	for name, src := range map[string]string{
		"missing": head,
		"stale":   head + "expect:\n  object: {name: old}\n  managers: {}\n",
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "new.yaml")
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := scenario.LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			r := scenario.Run(native.Engine{}, f)
			if !r.FinalOK {
				t.Fatalf("steps failed: %s", r)
			}
			rewriteFile(t, f, r)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(data, []byte(head)) {
				t.Errorf("the rest of the file changed:\n%s", data)
			}
			g, err := scenario.LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if g.Expect == nil || !g.Expect.HasManagers || len(g.Expect.Managers) != 2 {
				t.Fatalf("expectations not written:\n%s", data)
			}
			if r := scenario.Run(native.Engine{}, g); !r.Passed {
				t.Errorf("rewritten file fails:\n%s\n%s", r, data)
			}
		})
	}
}

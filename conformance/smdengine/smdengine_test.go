package smdengine

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/internal/scenario"
)

const schema = `types:
- name: root
  map:
    fields:
    - name: a
      type: {scalar: numeric}
    - name: b
      type: {scalar: string}
`

func compile(t *testing.T) scenario.Typed {
	t.Helper()
	ty, err := Engine{}.Compile([]byte(schema), "root")
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

func TestCompileErrors(t *testing.T) {
	if _, err := (Engine{}).Compile([]byte(schema), "nope"); err == nil || !strings.Contains(err.Error(), `type "nope" is not defined`) {
		t.Errorf("unknown type: %v", err)
	}
	if _, err := (Engine{}).Compile([]byte("types: 3\n"), "root"); err == nil {
		t.Errorf("invalid schema accepted")
	}
}

func TestDo(t *testing.T) {
	ty := compile(t)
	st, err := ty.Do(scenario.State{}, scenario.Operation{Op: scenario.OpApply, Manager: "x", APIVersion: "v1", Object: map[string]any{"a": int64(1), "b": "s"}})
	if err != nil {
		t.Fatal(err)
	}
	if !st.HasObject || len(st.Managers) != 1 || string(st.Managers["x"].FieldsV1) != `{"f:a":{},"f:b":{}}` || !st.Managers["x"].Applied {
		t.Fatalf("after apply: %+v", st)
	}
	// A conflicting apply returns *ConflictsError with sorted conflicts and
	// the input state.
	out, err := ty.Do(st, scenario.Operation{Op: scenario.OpApply, Manager: "y", APIVersion: "v1", Object: map[string]any{"a": int64(2), "b": "t"}})
	var ce *scenario.ConflictsError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want conflicts", err)
	}
	want := []scenario.Conflict{{Manager: "x", Path: ".a"}, {Manager: "x", Path: ".b"}}
	if len(ce.Conflicts) != 2 || ce.Conflicts[0] != want[0] || ce.Conflicts[1] != want[1] {
		t.Errorf("conflicts %v, want %v", ce.Conflicts, want)
	}
	if !strings.Contains(ce.Error(), `conflicts with "x"`) {
		t.Errorf("message %q", ce.Error())
	}
	if len(out.Managers) != 1 || out.Object.(map[string]any)["a"] != int64(1) {
		t.Errorf("a failed apply must return the input state, got %+v", out)
	}
	// An invalid object is a plain error.
	if _, err := ty.Do(st, scenario.Operation{Op: scenario.OpUpdate, Manager: "y", APIVersion: "v1", Object: map[string]any{"a": "x"}}); err == nil || errors.As(err, &ce) {
		t.Errorf("got %v", err)
	}
	if _, err := ty.Do(st, scenario.Operation{Op: "patch", Manager: "y", APIVersion: "v1"}); err == nil {
		t.Errorf("unknown op accepted")
	}
}

func TestCanonicalFields(t *testing.T) {
	ty := compile(t)
	got, err := ty.CanonicalFields([]byte(`{"f:b":{}, "f:a":{".":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"f:a":{},"f:b":{}}` {
		t.Errorf("got %s", got)
	}
	if _, err := ty.CanonicalFields([]byte(`{"x":1}`)); err == nil {
		t.Errorf("invalid fields accepted")
	}
}

// TestReferenceQuirks runs the shared reference quirks: their expectations
// record what SMD does, so they must pass here. docs/compatibility.md
// quotes them.
func TestReferenceQuirks(t *testing.T) {
	paths, err := scenario.Files([]string{filepath.Join("testdata", "reference-quirks")})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 3 {
		t.Fatalf("found %d quirk files", len(paths))
	}
	for _, p := range paths {
		f, err := scenario.LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if r := scenario.Run(Engine{}, f); !r.Passed {
			t.Errorf("%s no longer describes SMD:\n%s", p, r)
		}
	}
}

// TestConcurrentRuns runs one scenario on one engine from 8 goroutines.
func TestConcurrentRuns(t *testing.T) {
	f, err := scenario.LoadFile(filepath.Join("..", "..", "testdata", "scenarios", "lists", "nested-two-managers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := scenario.Run(Engine{}, f); !r.Passed {
				t.Errorf("\n%s", r)
			}
		}()
	}
	wg.Wait()
}

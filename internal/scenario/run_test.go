package scenario

import (
	"strings"
	"sync"
	"testing"
	"time"
)

const fakeHead = `description: test
schema:
  inline: |
    types:
    - name: widget
type: widget
`

// mustParse parses a scenario for the runner tests.
func mustParse(t testing.TB, text string) *File {
	t.Helper()
	f, err := Parse("t.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// twoManagers is a scenario that passes on the fake engine: a creates, b
// conflicts then forces, the final state is checked.
const twoManagers = fakeHead + `steps:
- op: apply
  manager: a
  object: {name: web, replicas: 1}
- op: apply
  manager: b
  object: {replicas: 2}
  expect:
    conflicts:
    - {manager: a, path: .replicas}
    error: 'conflict with "a"'
    object: {name: web, replicas: 1.0}
    managers:
      a: {applied: true, fields: {"f:name": {}, "f:replicas": {}}}
- op: forceApply
  manager: b
  apiVersion: v2
  object: {replicas: 2}
- op: update
  manager: c
  object: {name: web, replicas: 2, tags: [x, y]}
expect:
  object: {name: web, replicas: 2, tags: [x, y]}
  managers:
    a: {applied: true, fields: {"f:name": {}}}
    b: {apiVersion: v2, applied: true, fields: {"f:replicas": {}}}
    c: {fields: {"f:tags": {}}}
`

func TestRunPasses(t *testing.T) {
	r := Run(fakeEngine{}, mustParse(t, twoManagers))
	if !r.Passed {
		t.Fatalf("expected a pass:\n%s", r)
	}
	if r.String() != "ok   t.yaml" {
		t.Errorf("String() = %q", r.String())
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		step  int
		where string
		want  []string
	}{
		{
			name: "object differs",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1, y: [1, 2]}}\nexpect:\n  object: {x: 1, y: [2, 1]}\n",
			step: 0, where: "final expectations (line 9)",
			want: []string{"object differs (-expected +actual)", "-", "+"},
		},
		{
			name: "numbers by value",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\nexpect:\n  object: {x: 1.5}\n",
			step: 0, where: "final expectations",
			want: []string{"float64(1.5)", "int64(1)"},
		},
		{
			name: "null is not empty",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: null}}\nexpect:\n  object: {x: {}}\n",
			step: 0, where: "final expectations",
			want: []string{"object differs"},
		},
		{
			name: "extra manager",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\nexpect:\n  managers: {}\n",
			step: 0, where: "final expectations",
			want: []string{"managers differ", `-`, `"a"`},
		},
		{
			name: "applied flag",
			text: fakeHead + "steps:\n- {op: update, manager: a, object: {x: 1}}\nexpect:\n  managers: {a: {applied: true, fields: {\"f:x\": {}}}}\n",
			step: 0, where: "final expectations",
			want: []string{"Applied:", "true", "false"},
		},
		{
			name: "apiVersion defaults to v1",
			text: fakeHead + "steps:\n- {op: update, manager: a, apiVersion: v2, object: {x: 1}}\nexpect:\n  managers: {a: {fields: {\"f:x\": {}}}}\n",
			step: 0, where: "final expectations",
			want: []string{`APIVersion: "v1"`, `APIVersion: "v2"`},
		},
		{
			name: "fields differ",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1, y: 2}}\nexpect:\n  managers: {a: {applied: true, fields: {\"f:x\": {}}}}\n",
			step: 0, where: "final expectations",
			want: []string{`"f:y"`},
		},
		{
			name: "expected fields unreadable",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\nexpect:\n  managers: {a: {applied: true, fields: {\"k:x\": {}}}}\n",
			step: 0, where: "final expectations",
			want: []string{"expected managers: fields of manager \"a\"", "unsupported path element"},
		},
		{
			name: "expected conflicts, succeeded",
			text: fakeHead + "steps:\n- op: apply\n  manager: a\n  object: {x: 1}\n  expect:\n    conflicts: [{manager: b, path: .x}]\n",
			step: 1, where: `step 1 (apply by "a", line 8)`,
			want: []string{"the step succeeded, but it should have failed with conflicts:", `"b" at .x`},
		},
		{
			name: "expected error, succeeded",
			text: fakeHead + "steps:\n- op: apply\n  manager: a\n  object: {x: 1}\n  expect:\n    error: boom\n",
			step: 1, where: "step 1",
			want: []string{`should have failed with an error containing "boom"`},
		},
		{
			name: "unexpected conflict",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\n- {op: apply, manager: b, object: {x: 2}}\n",
			step: 2, where: `step 2 (apply by "b", line 9)`,
			want: []string{"the step failed with conflicts:", `"a" at .x`, `message: conflict with "a": .x`},
		},
		{
			name: "unexpected error",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: INVALID}}\n",
			step: 1, where: "step 1",
			want: []string{"the step failed: .x: invalid value"},
		},
		{
			name: "conflict set differs",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1, y: 1}}\n- op: apply\n  manager: b\n  object: {x: 2, y: 2}\n  expect:\n    conflicts: [{manager: a, path: .x}, {manager: a, path: .z}]\n",
			step: 2, where: "step 2",
			want: []string{"conflicts differ (-expected +actual)", `-`, `"a" at .z`, `+`, `"a" at .y`},
		},
		{
			name: "conflicts expected, other error",
			text: fakeHead + "steps:\n- op: apply\n  manager: b\n  object: {x: INVALID}\n  expect:\n    conflicts: [{manager: a, path: .x}]\n",
			step: 1, where: "step 1",
			want: []string{"but the step failed with another error: .x: invalid value"},
		},
		{
			name: "error text differs",
			text: fakeHead + "steps:\n- op: apply\n  manager: b\n  object: {x: INVALID}\n  expect:\n    error: not valid\n",
			step: 1, where: "step 1",
			want: []string{"expected an error containing:", `"not valid"`, `".x: invalid value"`},
		},
		{
			name: "step expectations after failure see the unchanged state",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\n- op: apply\n  manager: b\n  object: {x: 2}\n  expect:\n    conflicts: [{manager: a, path: .x}]\n    object: {x: 2}\n",
			step: 2, where: "step 2",
			want: []string{"object differs", "-", "int64(2)", "+", "int64(1)"},
		},
		{
			name: "schema does not compile",
			text: "schema: {inline: nothing}\ntype: widget\nsteps:\n- {op: apply, manager: a, object: {}}\n",
			step: 0, where: "setup",
			want: []string{"cannot compile the schema (inline, line 1)", "not a schema"},
		},
		{
			name: "step schema does not compile",
			text: fakeHead + "steps:\n- {op: apply, manager: a, object: {}, schema: {inline: 'types: []'}}\n",
			step: 1, where: "step 1",
			want: []string{"cannot compile the step's schema", `type "widget" not found`},
		},
		{
			name: "kubernetes without support",
			text: "kubernetes: true\nsteps:\n- {op: apply, manager: a, object: {}}\n",
			step: 0, where: "setup",
			want: []string{"kubernetes flavour not supported by this engine"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run(fakeEngine{}, mustParse(t, tt.text))
			if r.Passed {
				t.Fatalf("expected a failure")
			}
			if r.Step != tt.step || !strings.HasPrefix(r.Where, tt.where) {
				t.Errorf("failed at step %d %q, want step %d %q", r.Step, r.Where, tt.step, tt.where)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.Detail, w) {
					t.Errorf("detail does not contain %q:\n%s", w, r.Detail)
				}
			}
			s := r.String()
			if !strings.HasPrefix(s, "FAIL t.yaml\n    "+r.Where+":\n        ") {
				t.Errorf("String() = %q", s)
			}
		})
	}
}

func TestRunStepSchema(t *testing.T) {
	// The fake engine fails every write under a schema that says readonly:
	// the step schema must be in force for its step and the following ones.
	text := fakeHead + `steps:
- {op: apply, manager: a, object: {x: 1}}
- op: apply
  manager: a
  object: {x: 2}
  schema:
    inline: |
      types: # readonly
      - name: widget
  expect:
    error: read-only schema
- op: update
  manager: b
  object: {x: 3}
  expect:
    error: read-only schema
expect:
  object: {x: 1}
`
	if r := Run(fakeEngine{}, mustParse(t, text)); !r.Passed {
		t.Fatalf("expected a pass:\n%s", r)
	}
	// Without the step schema the same steps succeed, so the file fails.
	plain := strings.Replace(text, "readonly", "writable", 1)
	if r := Run(fakeEngine{}, mustParse(t, plain)); r.Passed || r.Step != 2 {
		t.Fatalf("expected a failure at step 2:\n%s", r)
	}
}

func TestRunDetectsEngineMisbehaviour(t *testing.T) {
	const simple = fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}}\n- {op: apply, manager: a, object: {x: 2}}\n"
	if r := Run(mutatingEngine{}, mustParse(t, simple)); r.Passed || r.Step != 2 || !strings.Contains(r.Detail, "the engine modified the state it was given") {
		t.Errorf("state mutation not detected:\n%s", r)
	}
	if r := Run(mutatingEngine{object: true}, mustParse(t, simple)); r.Passed || r.Step != 1 || !strings.Contains(r.Detail, "the engine modified the object it was given") {
		t.Errorf("object mutation not detected:\n%s", r)
	}
	const conflicting = fakeHead + `steps:
- {op: apply, manager: a, object: {x: 1}}
- op: apply
  manager: b
  object: {x: 2}
  expect:
    conflicts: [{manager: a, path: .x}]
`
	if r := Run(fakeEngine{}, mustParse(t, conflicting)); !r.Passed {
		t.Fatalf("the honest engine must pass:\n%s", r)
	}
	r := Run(leakyEngine{}, mustParse(t, conflicting))
	if r.Passed || r.Step != 2 || !strings.Contains(r.Detail, "a failed step must leave the object and managers unchanged") ||
		!strings.Contains(r.Detail, "int64(2)") {
		t.Errorf("changed state after a failure not detected:\n%s", r)
	}
}

func TestRunDoesNotModifyFile(t *testing.T) {
	f := mustParse(t, twoManagers)
	before := mustParse(t, twoManagers)
	Run(mutatingEngine{}, f)
	Run(mutatingEngine{object: true}, f)
	for i := range f.Steps {
		if !identical(f.Steps[i].Object, before.Steps[i].Object) {
			t.Errorf("step %d object changed", i+1)
		}
	}
	if !identicalState(f.Live, before.Live) {
		t.Errorf("live changed")
	}
}

const kubeScenario = `description: k
kubernetes: true
steps:
- op: apply
  manager: kubectl
  object:
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: a}
- op: update
  manager: kcm
  subresource: status
  object: {kind: ConfigMap}
  expect:
    error: status is not supported
expect:
  object:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: a
      managedFields:
      - {manager: kubectl, operation: Apply, time: "1999-01-01T00:00:00Z"}
`

func TestRunKubernetes(t *testing.T) {
	if r := Run(fakeKube{}, mustParse(t, kubeScenario)); !r.Passed {
		t.Fatalf("expected a pass (resourceVersion and time ignored):\n%s", r)
	}
	named := strings.Replace(kubeScenario, "      name: a\n", "      name: a\n      resourceVersion: \"7\"\n", 1)
	if r := Run(fakeKube{}, mustParse(t, named)); r.Passed || !strings.Contains(r.Detail, `"42"`) {
		t.Errorf("a named resourceVersion must be compared:\n%s", r)
	}
	wrongManager := strings.Replace(kubeScenario, "manager: kubectl, operation: Apply", "manager: kubectl, operation: Update", 1)
	if r := Run(fakeKube{}, mustParse(t, wrongManager)); r.Passed || !strings.Contains(r.Detail, "Update") {
		t.Errorf("managedFields must be compared:\n%s", r)
	}
	if r := Run(fakeEngine{}, mustParse(t, kubeScenario)); r.Passed || r.Detail != "kubernetes flavour not supported by this engine" {
		t.Errorf("got %s", r)
	}
}

func TestStepTime(t *testing.T) {
	if got, want := StepTime(0), time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("StepTime(0) = %v", got)
	}
	if d := StepTime(3).Sub(StepTime(2)); d != time.Second {
		t.Errorf("steps are %v apart", d)
	}
}

func TestSemantic(t *testing.T) {
	tests := []struct {
		a, b any
		same bool
	}{
		{int64(1), 1.0, true},
		{int64(1), 1.5, false},
		{map[string]any{"a": []any{1.0, "x"}}, map[string]any{"a": []any{int64(1), "x"}}, true},
		{[]any{int64(1), int64(2)}, []any{int64(2), int64(1)}, false},
		{float64(1 << 60), int64(1 << 60), false},
		{nil, map[string]any{}, false},
		{[]any{}, nil, false},
	}
	for _, tt := range tests {
		if got := identical(semantic(tt.a), semantic(tt.b)); got != tt.same {
			t.Errorf("semantic(%#v) == semantic(%#v): %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}

func TestConcurrentRuns(t *testing.T) {
	f := mustParse(t, twoManagers)
	var wg sync.WaitGroup
	results := make([]Result, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = Run(fakeEngine{}, f)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if !r.Passed {
			t.Errorf("goroutine %d:\n%s", i, r)
		}
	}
}

package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Result is the outcome of running one scenario.
type Result struct {
	// File is the scenario's path.
	File string
	// Passed is true when every step behaved as expected.
	Passed bool
	// Step is the 1-based number of the step that failed; 0 when the
	// failure is in the setup or in the final expectations.
	Step int
	// Where names the failing part for a person: `step 2 (apply by "b",
	// line 14)`, `final expectations (line 30)` or `setup`.
	Where string
	// Detail says what was expected and what happened, with diffs.
	Detail string
	// Final is the state after the last step when every step behaved as
	// expected (the final expectations aside), so that a runner can
	// write those expectations for a new scenario; FinalOK says it is set.
	Final   State
	FinalOK bool
}

// String formats the result the way RunPaths prints it: an `ok` line, or a
// `FAIL` line followed by the indented details.
func (r Result) String() string {
	if r.Passed {
		return "ok   " + r.File
	}
	var b strings.Builder
	b.WriteString("FAIL " + r.File + "\n")
	b.WriteString("    " + r.Where + ":")
	for _, line := range strings.Split(strings.TrimRight(r.Detail, "\n"), "\n") {
		b.WriteString("\n        " + line)
	}
	return b.String()
}

// Run runs the scenario f on e and reports whether it behaved as expected.
// It stops at the first step that does not.
func Run(e Engine, f *File) Result {
	if f.Kubernetes {
		return runKubernetes(e, f)
	}
	r := Result{File: f.Path}
	if f.Schema == nil {
		return r.fail(0, "setup", "the scenario has no schema")
	}
	t, err := e.Compile(f.Schema.Text, f.Type)
	if err != nil {
		return r.fail(0, "setup", "cannot compile the schema%s with root type %q: %v", sourceName(f.Schema), f.Type, err)
	}
	state := cloneState(f.Live)
	for i := range f.Steps {
		st := &f.Steps[i]
		where := stepName(i, st)
		if st.Schema != nil {
			if t, err = e.Compile(st.Schema.Text, f.Type); err != nil {
				return r.fail(i+1, where, "cannot compile the step's schema%s with root type %q: %v", sourceName(st.Schema), f.Type, err)
			}
		}
		op := Operation{Op: st.Op, Manager: st.Manager, APIVersion: st.APIVersion, Object: cloneValue(st.Object)}
		in := cloneState(state)
		out, err := t.Do(in, op)
		var problems []string
		if !identicalState(in, state) {
			problems = append(problems, "the engine modified the state it was given")
		}
		if !identical(op.Object, st.Object) {
			problems = append(problems, "the engine modified the object it was given")
		}
		problems = append(problems, checkOutcome(st.Expect, err)...)
		if err != nil {
			if d := stateDiff(t.CanonicalFields, state, out); d != "" {
				problems = append(problems, "the step failed, but the engine returned a changed state; a failed step must leave the object and managers unchanged (-before +returned):\n"+d)
			}
			out = state
		}
		if st.Expect != nil {
			problems = append(problems, checkState(t.CanonicalFields, st.Expect, out, false)...)
		}
		if len(problems) > 0 {
			return r.fail(i+1, where, "%s", strings.Join(problems, "\n"))
		}
		state = out
	}
	r.Final, r.FinalOK = state, true
	if f.Expect != nil {
		if problems := checkState(t.CanonicalFields, f.Expect, state, false); len(problems) > 0 {
			return r.fail(0, fmt.Sprintf("final expectations (line %d)", f.Expect.Line), "%s", strings.Join(problems, "\n"))
		}
	}
	r.Passed = true
	return r
}

func runKubernetes(e Engine, f *File) Result {
	r := Result{File: f.Path}
	ke, ok := e.(KubernetesEngine)
	if !ok {
		return r.fail(0, "setup", "kubernetes flavour not supported by this engine")
	}
	t, err := ke.CompileKubernetes(f.CRDs)
	if err != nil {
		return r.fail(0, "setup", "cannot prepare the Kubernetes schema: %v", err)
	}
	state := State{Object: cloneValue(f.Live.Object), HasObject: f.Live.HasObject}
	for i := range f.Steps {
		st := &f.Steps[i]
		where := stepName(i, st)
		op := KubernetesOperation{Op: st.Op, Manager: st.Manager, Subresource: st.Subresource, Object: cloneValue(st.Object), Time: StepTime(i)}
		in := cloneState(state)
		out, err := t.Do(in, op)
		var problems []string
		if !identicalState(in, state) {
			problems = append(problems, "the engine modified the object it was given as live")
		}
		if !identical(op.Object, st.Object) {
			problems = append(problems, "the engine modified the object it was given")
		}
		problems = append(problems, checkOutcome(st.Expect, err)...)
		if err != nil {
			if out.HasObject != state.HasObject || !identical(semantic(out.Object), semantic(state.Object)) {
				d := cmp.Diff(semantic(state.Object), semantic(out.Object), cmpopts.EquateNaNs())
				problems = append(problems, "the step failed, but the engine returned a changed object; a failed step must leave it unchanged (-before +returned):\n"+d)
			}
			out = state
		}
		if st.Expect != nil {
			problems = append(problems, checkState(nil, st.Expect, out, true)...)
		}
		if len(problems) > 0 {
			return r.fail(i+1, where, "%s", strings.Join(problems, "\n"))
		}
		state = out
	}
	r.Final, r.FinalOK = state, true
	if f.Expect != nil {
		if problems := checkState(nil, f.Expect, state, true); len(problems) > 0 {
			return r.fail(0, fmt.Sprintf("final expectations (line %d)", f.Expect.Line), "%s", strings.Join(problems, "\n"))
		}
	}
	r.Passed = true
	return r
}

func (r Result) fail(step int, where, format string, args ...any) Result {
	r.Passed = false
	r.Step = step
	r.Where = where
	r.Detail = fmt.Sprintf(format, args...)
	return r
}

func stepName(i int, st *Step) string {
	op := st.Op
	if st.Subresource != "" {
		op += " of " + st.Subresource
	}
	return fmt.Sprintf("step %d (%s by %q, line %d)", i+1, op, st.Manager, st.Line)
}

func sourceName(s *Source) string {
	if s.File != "" {
		return " " + s.File
	}
	return fmt.Sprintf(" (inline, line %d)", s.Line)
}

// checkOutcome compares the error of a step with what it expects.
func checkOutcome(x *Expect, err error) []string {
	var ce *ConflictsError
	isConflicts := errors.As(err, &ce)
	wantConflicts := x != nil && len(x.Conflicts) > 0
	wantError := x != nil && x.HasError
	if !wantConflicts && !wantError {
		if err == nil {
			return nil
		}
		if isConflicts {
			return []string{"the step failed with conflicts:\n" + indent(strings.Join(conflictLines(ce.Conflicts), "\n")) + "\nmessage: " + err.Error()}
		}
		return []string{"the step failed: " + err.Error()}
	}
	if err == nil {
		var want []string
		if wantConflicts {
			want = append(want, "conflicts:\n"+indent(strings.Join(conflictLines(x.Conflicts), "\n")))
		}
		if wantError {
			want = append(want, "an error containing "+strconv.Quote(x.Error))
		}
		return []string{"the step succeeded, but it should have failed with " + strings.Join(want, "\nand ")}
	}
	var problems []string
	if wantConflicts {
		if !isConflicts {
			problems = append(problems, "expected conflicts:\n"+indent(strings.Join(conflictLines(x.Conflicts), "\n"))+"\nbut the step failed with another error: "+err.Error())
		} else if d := cmp.Diff(conflictLines(x.Conflicts), conflictLines(ce.Conflicts)); d != "" {
			problems = append(problems, "conflicts differ (-expected +actual):\n"+d)
		}
	}
	if wantError && !strings.Contains(err.Error(), x.Error) {
		problems = append(problems, fmt.Sprintf("expected an error containing:\n    %s\ngot:\n    %s", strconv.Quote(x.Error), strconv.Quote(err.Error())))
	}
	return problems
}

// conflictLines formats conflicts one per line, sorted and without
// duplicates, so that they compare as a set.
func conflictLines(cs []Conflict) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, strconv.Quote(c.Manager)+" at "+c.Path)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// checkState compares a state with expectations. canon is nil for the
// Kubernetes flavour (no managers to compare).
func checkState(canon func([]byte) ([]byte, error), x *Expect, st State, kube bool) []string {
	var problems []string
	if x.HasObject {
		var want, got any
		if kube {
			want, got = kubernetesView(x.Object, st.Object)
		} else {
			want, got = semantic(x.Object), semantic(st.Object)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateNaNs()); d != "" {
			problems = append(problems, "object differs (-expected +actual):\n"+d)
		}
	}
	if x.HasManagers && canon != nil {
		want, err := managersView(canon, x.Managers)
		if err != nil {
			return append(problems, "expected managers: "+err.Error())
		}
		got, err := managersView(canon, st.Managers)
		if err != nil {
			return append(problems, "the engine returned managers that cannot be read: "+err.Error())
		}
		if d := cmp.Diff(want, got); d != "" {
			problems = append(problems, "managers differ (-expected +actual):\n"+d)
		}
	}
	return problems
}

// managerView is a manager in a form that compares and diffs well: the field
// set is canonicalized by the engine and decoded into a tree.
type managerView struct {
	APIVersion string
	Applied    bool
	Fields     any
}

func managersView(canon func([]byte) ([]byte, error), ms map[string]Manager) (map[string]managerView, error) {
	out := make(map[string]managerView, len(ms))
	names := make([]string, 0, len(ms))
	for name := range ms {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		m := ms[name]
		c, err := canon(m.FieldsV1)
		if err != nil {
			return nil, fmt.Errorf("fields of manager %q: %w", name, err)
		}
		var tree any
		if err := json.Unmarshal(c, &tree); err != nil {
			return nil, fmt.Errorf("fields of manager %q: canonical form is not JSON: %w", name, err)
		}
		out[name] = managerView{APIVersion: m.APIVersion, Applied: m.Applied, Fields: tree}
	}
	return out, nil
}

// stateDiff returns a readable difference between two states, "" when
// they hold the same object and the same managers.
func stateDiff(canon func([]byte) ([]byte, error), before, after State) string {
	var parts []string
	if before.HasObject != after.HasObject {
		parts = append(parts, fmt.Sprintf("has object: %v -> %v", before.HasObject, after.HasObject))
	}
	if d := cmp.Diff(semantic(before.Object), semantic(after.Object), cmpopts.EquateNaNs()); d != "" {
		parts = append(parts, "object:\n"+d)
	}
	b, errB := managersView(canon, before.Managers)
	a, errA := managersView(canon, after.Managers)
	switch {
	case errB != nil || errA != nil:
		if d := cmp.Diff(before.Managers, after.Managers); d != "" {
			parts = append(parts, "managers:\n"+d)
		}
	default:
		if d := cmp.Diff(b, a); d != "" {
			parts = append(parts, "managers:\n"+d)
		}
	}
	return strings.Join(parts, "\n")
}

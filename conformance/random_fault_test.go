package conformance

import (
	"bytes"
	"errors"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/gen"
	"github.com/structmerge/structmerge/value"
)

// The tests of the test: faults injected into structmerge's results (in
// this harness only) must make the random differential fail. A fault that
// the comparison lets through, or that the deviation classifier explains
// away as SMD's documented pruning deviation, is a bug of the test.

// rndFaults are the faults, each a change of structmerge's result of one
// operation.
var rndFaults = []string{
	"defaulted keys",      // after an apply, absent key fields with a default spelled out
	"dropped field",       // one field of a list item (else of the root) removed
	"list order",          // every list reversed
	"conflict to success", // an apply that conflicts is forced instead
	"error kind",          // a rejected request rejected for another reason
	"applied flag",        // the applier's applied flag flipped
	"lost manager",        // another manager's entry dropped
	"fields",              // the applier's field set replaced
	"conflict message",    // a conflict message reworded
}

// rndFaulty is structmerge with a fault injected into its results.
type rndFaulty struct {
	scenario.Typed
	s     *gen.Schema
	fault string
}

func (f rndFaulty) Do(st scenario.State, op scenario.Operation) (scenario.State, error) {
	out, err := f.Typed.Do(rndCloneState(st), op)
	if err != nil {
		var ce *scenario.ConflictsError
		switch {
		case f.fault == "conflict message" && errors.As(err, &ce):
			return out, &scenario.ConflictsError{Conflicts: ce.Conflicts, Message: strings.ToUpper(ce.Message)}
		case f.fault == "conflict to success" && op.Op == scenario.OpApply && errors.As(err, &ce):
			op.Op = scenario.OpForceApply
			return f.Typed.Do(st, op)
		case f.fault == "error kind" && !errors.As(err, &ce):
			return out, rndOtherKindOfError(err)
		}
		return out, err
	}
	out = rndCloneState(out)
	switch f.fault {
	case "defaulted keys":
		if op.Op != scenario.OpUpdate && out.HasObject {
			out.Object = rndSpellOutDefaultKeys(f.s, f.s.RootType(), out.Object)
		}
	case "dropped field":
		if out.HasObject {
			out.Object = rndDropOneField(f.s, out.Object)
		}
	case "list order":
		out.Object = rndReverseLists(out.Object)
	case "applied flag":
		if m, ok := out.Managers[op.Manager]; ok {
			m.Applied = !m.Applied
			out.Managers[op.Manager] = m
		}
	case "lost manager":
		for _, name := range gen.SortedKeys(out.Managers) {
			if name != op.Manager {
				delete(out.Managers, name)
				break
			}
		}
	case "fields":
		if m, ok := out.Managers[op.Manager]; ok {
			m.FieldsV1 = []byte(`{"f:bogus":{}}`)
			out.Managers[op.Manager] = m
		}
	}
	return out, nil
}

// rndOtherKindOfError returns an error that names the same places as err
// but another problem at each.
func rndOtherKindOfError(err error) error {
	var lines []string
	for _, k := range rndErrorKinds(err) {
		path, kind, ok := strings.Cut(k, ": ")
		switch {
		case !ok || strings.HasPrefix(k, "other: "):
			lines = append(lines, "internal error")
		case kind == "undeclared field":
			lines = append(lines, path+": expected map, got list")
		default:
			lines = append(lines, path+": field not declared in schema")
		}
	}
	if len(lines) == 1 {
		return errors.New(lines[0])
	}
	return errors.New("errors:\n  " + strings.Join(lines, "\n  "))
}

// rndDropOneField returns obj without one field: the first (in path order)
// field of a list item that is not a key field, else the first field of the
// root.
func rndDropOneField(s *gen.Schema, obj any) any {
	// drop removes the first field it can at or below v; item is true for a
	// list item, keys its key fields (kept: they are its identity).
	var drop func(t *gen.Type, v any, item bool, keys []string) (any, bool)
	drop = func(t *gen.Type, v any, item bool, keys []string) (any, bool) {
		e := s.Resolve(t)
		if e == nil {
			return v, false
		}
		switch x := v.(type) {
		case map[string]any:
			if e.Kind != gen.KindStruct {
				return v, false
			}
			for _, k := range gen.SortedKeys(x) {
				ft, ok := e.FieldType(k)
				if !ok {
					continue
				}
				if sub, ok := drop(ft, x[k], false, nil); ok {
					out := maps.Clone(x)
					out[k] = sub
					return out, true
				}
			}
			if item {
				for _, k := range gen.SortedKeys(x) {
					if !slices.Contains(keys, k) {
						out := maps.Clone(x)
						delete(out, k)
						return out, true
					}
				}
			}
		case []any:
			if e.Kind != gen.KindList || e.Elem == nil {
				return v, false
			}
			for i := range x {
				if sub, ok := drop(e.Elem, x[i], true, e.Keys); ok {
					out := slices.Clone(x)
					out[i] = sub
					return out, true
				}
			}
		}
		return v, false
	}
	if out, ok := drop(s.RootType(), obj, false, nil); ok {
		return out
	}
	if m, ok := obj.(map[string]any); ok && len(m) > 0 {
		out := maps.Clone(m)
		delete(out, gen.SortedKeys(m)[0])
		return out
	}
	return obj
}

func rndReverseLists(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = rndReverseLists(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[len(x)-1-i] = rndReverseLists(e)
		}
		return out
	}
	return v
}

// rndRunSelected runs the given cases of seed (in index order) on all
// CPUs, structmerge wrapped by wrap; each schema group is compiled once.
func rndRunSelected(seed uint64, cases []int, wrap rndWrap) []rndCaseResult {
	var groups [][]int
	for k, i := range cases {
		if k == 0 || i/rndSchemaGroup != cases[k-1]/rndSchemaGroup {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], k)
	}
	results := make([]rndCaseResult, len(cases))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g := int(next.Add(1) - 1)
				if g >= len(groups) {
					return
				}
				c := rndCompileWith(seed, cases[groups[g][0]]/rndSchemaGroup, wrap)
				for _, k := range groups[g] {
					results[k] = rndRunCaseWith(seed, cases[k], c, wrap)
				}
			}
		}()
	}
	wg.Wait()
	return results
}

// rndSameResult reports whether two results of one operation are the same.
func rndSameResult(a, b rndOpResult) bool {
	if (a.err == nil) != (b.err == nil) {
		return false
	}
	if a.err != nil {
		return a.err.Error() == b.err.Error()
	}
	if a.out.HasObject != b.out.HasObject || len(a.out.Managers) != len(b.out.Managers) {
		return false
	}
	av, err1 := value.FromUnstructured(a.out.Object)
	bv, err2 := value.FromUnstructured(b.out.Object)
	if err1 != nil || err2 != nil || !value.Equal(av, bv) {
		return false
	}
	for name, m := range a.out.Managers {
		n, ok := b.out.Managers[name]
		if !ok || m.APIVersion != n.APIVersion || m.Applied != n.Applied || !bytes.Equal(m.FieldsV1, n.FieldsV1) {
			return false
		}
	}
	return true
}

// rndFaultCount is what one fault did over the cases of the test.
type rndFaultCount struct {
	active     int // operations whose result the fault changed
	atDev      int // ... of which the run without the fault calls a deviation
	mismatches int // cases that fail the differential
	absorbed   int // operations the fault changed that did not fail it
	// deviations counts the operations classified as a deviation, with and
	// without the fault, over the operations both runs made.
	deviations, deviationsClean int
}

// rndFaultCases is how many cases the fault test draws its cases from:
// the first rndFaultPlain cases, and every other case in which the run
// without a fault finds a deviation (where a fault hides best).
const (
	rndFaultCases = 1000
	rndFaultPlain = 80
)

// TestRandomDetectsFaults injects each fault of rndFaults into
// structmerge's results and runs the random differential: every operation
// whose result a fault changes must fail it (none may be absorbed as the
// same result or as a documented deviation), each fault must make cases
// fail, and no fault may add deviations.
func TestRandomDetectsFaults(t *testing.T) {
	seed := rndSeed(t)
	n := min(rndFaultCases, *rndCasesFlag)
	clean := rndRunCases(seed, n)
	var cases []int
	deviating := 0
	for _, r := range clean {
		if r.failed >= 0 || r.setupErr != nil {
			t.Fatalf("case %d fails without a fault: run TestRandomDifferential", r.index)
		}
		dev := slices.ContainsFunc(r.steps, func(st rndCaseStep) bool { return st.v.class == rndOutcomeDeviation })
		if dev {
			deviating++
		}
		if r.index < rndFaultPlain || dev {
			cases = append(cases, r.index)
		}
	}
	t.Logf("%d cases: the first %d and %d of the first %d in which the run without a fault finds a deviation", len(cases), rndFaultPlain, deviating, n)
	for _, fault := range rndFaults {
		results := rndRunSelected(seed, cases, func(s *gen.Schema, t scenario.Typed) scenario.Typed {
			return rndFaulty{Typed: t, s: s, fault: fault}
		})
		var c rndFaultCount
		for k, r := range results {
			ref := clean[cases[k]]
			if r.failed >= 0 {
				if c.mismatches++; c.mismatches == 1 {
					rndCheckReport(t, seed, fault, r)
				}
			}
			for j, st := range r.steps {
				if j >= len(ref.steps) || st.op.Op != ref.steps[j].op.Op || gen.FormatValue(st.op.Object) != gen.FormatValue(ref.steps[j].op.Object) {
					t.Fatalf("fault %q: case %d step %d is not the step of the run without a fault", fault, r.index, j+1)
				}
				if st.v.class == rndOutcomeDeviation {
					c.deviations++
				}
				if ref.steps[j].v.class == rndOutcomeDeviation {
					c.deviationsClean++
				}
				if !rndSameResult(st.sm, ref.steps[j].sm) {
					c.active++
					if ref.steps[j].v.class == rndOutcomeDeviation {
						c.atDev++
					}
					if st.v.class != rndOutcomeMismatch {
						if c.absorbed++; c.absorbed <= 2 {
							t.Errorf("fault %q absorbed (verdict %d %q): seed %#x case %d step %d\n%s", fault, st.v.class, st.v.name, seed, r.index, j+1, rndCaseText(rndCaseResult{schema: r.schema, steps: []rndCaseStep{st}}))
						}
					}
				}
			}
		}
		t.Logf("fault %q: %d operations changed (%d of them deviations without the fault), %d cases mismatch, %d operations absorbed; deviations: %d with the fault, %d without (same operations)",
			fault, c.active, c.atDev, c.mismatches, c.absorbed, c.deviations, c.deviationsClean)
		if c.active == 0 || c.mismatches == 0 {
			t.Errorf("fault %q: changed %d operations, %d cases mismatch: the fault is not exercised", fault, c.active, c.mismatches)
		}
		if c.absorbed > 0 {
			t.Errorf("fault %q: %d operations the fault changed do not fail the differential", fault, c.absorbed)
		}
		if c.deviations > c.deviationsClean {
			t.Errorf("fault %q: %d operations classified as deviations, %d without the fault", fault, c.deviations, c.deviationsClean)
		}
	}
}

// rndCheckReport checks that the report of a mismatching case reads and
// holds a scenario.
func rndCheckReport(t *testing.T, seed uint64, fault string, r rndCaseResult) {
	t.Helper()
	report := rndFailureReport(t, seed, r)
	for _, want := range []string{"MISMATCH: seed", "RANDOM_CASE=", "steps:\n- op: ", "minimised ("} {
		if !strings.Contains(report, want) {
			t.Errorf("fault %q: the report lacks %q:\n%s", fault, want, report)
		}
	}
	if strings.Contains(report, "does not parse") || strings.Contains(report, "does not pass on SMD") {
		t.Errorf("fault %q: the report's scenario is broken:\n%s", fault, report)
	}
}

// TestRandomErrorKinds checks the classification of rejected requests:
// the two engines' wordings of one problem agree, other problems or places
// do not.
func TestRandomErrorKinds(t *testing.T) {
	same := [][2]string{
		{".set[=7]: expected string, got &value.valueUnstructured{Value:7}", ".set[=7]: expected string, got int"},
		{".llist[0]: expected map, got &{[x]}", ".llist[0]: expected map, got list"},
		{"errors:\n  .a: field not declared in schema\n  .b: expected list, got &{map[k1:x]}", "errors:\n  .b: expected list, got map\n  .a: field not declared in schema"},
	}
	for _, p := range same {
		if x, y := rndErrorKinds(errors.New(p[0])), rndErrorKinds(errors.New(p[1])); !slices.Equal(x, y) {
			t.Errorf("%q and %q: %v and %v, want the same kinds", p[0], p[1], x, y)
		}
	}
	different := [][2]string{
		{".set[=7]: expected string, got int", ".set[=7]: expected numeric (int or float), got string"},
		{".list: duplicate entries for key [port=2]", ".list: duplicate entries for key [port=3]"},
		{".list: element 0: associative list with keys may not have a null element", ".list: element 1: associative list with keys may not have a null element"},
		{".list: element 0: associative list with keys may not have a null element", ".list: element 0: associative list with keys has an element that omits all key fields [\"name\"]"},
		{".a: field not declared in schema", ".b: field not declared in schema"},
		{"errors:\n  .a: field not declared in schema\n  .a: field not declared in schema", ".a: field not declared in schema"},
		{"panic: boom", "panic: bang"},
	}
	for _, p := range different {
		if x, y := rndErrorKinds(errors.New(p[0])), rndErrorKinds(errors.New(p[1])); slices.Equal(x, y) {
			t.Errorf("%q and %q: both %v, want different kinds", p[0], p[1], x)
		}
	}
}

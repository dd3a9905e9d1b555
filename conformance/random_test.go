package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/structmerge/structmerge/conformance/smdengine"
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/gen"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/value"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The randomized differential test. Each case draws a schema (shared by
// rndSchemaGroup consecutive cases), a starting state (nothing, an object
// nobody owns, or an object whose managers own random parts of it) and 2 to
// 11 writes (apply, forceApply or update by a random manager at v1 or v2,
// of a fresh object or a mutation of the live object or of what the
// manager applied last; sometimes invalid, sometimes with repeated items,
// sometimes after a schema change) from a generator seeded by (seed, case
// index). Every write runs on SMD and on structmerge from the same state
// (SMD's result is the next state), and the outcomes must be the same:
// the same error class (conflicts: same set and message; other errors: the
// same kinds of problem at the same places), the same object and the same
// managers, byte for byte.
//
// A mismatch is SMD's documented pruning deviation (docs/compatibility.md:
// SMD removes the key fields of an item that survives pruning, or empties
// it to null, then rejects, nulls or loses the item) only when replaying
// the step on SMD with structmerge's pruning rules gives exactly
// structmerge's result (rndKeepKeysReplay); those are counted as
// deviations, each under a name. random_fault_test.go checks that faults
// injected into structmerge's results are never absorbed that way. Known
// structmerge bugs are skipped by
// the predicates in rndKnownBugs; anything else fails the test with the
// seed, the case index, a readable description and the case as a scenario
// file (expectations: SMD's behaviour), also minimised.
//
//	go test -run TestRandomDifferential -seed 42 -cases 20000
//	SEED=42 go test -run TestRandomDifferential
//	RANDOM_CASE=17 go test -run 'TestRandomDifferential$' -v        # one case, every step
//	RANDOM_CASE=17 RANDOM_MINIMIZE=1 go test -run 'TestRandomDifferential$' -v   # ... and minimise what differs
//	RANDOM_SCENARIO_DIR=/tmp/out go test -run TestRandomDifferential  # also write failing cases there
//	RANDOM_REPLAY=f.yaml [RANDOM_MINIMIZE=1] go test -run TestRandomReplay -v  # run a scenario on both engines
var (
	rndSeedFlag  = flag.Uint64("seed", 0, "seed of TestRandomDifferential (0: $SEED, else a fixed default)")
	rndCasesFlag = flag.Int("cases", 5000, "number of cases TestRandomDifferential generates")
)

// rndDefaultSeed keeps CI deterministic.
const rndDefaultSeed = 0x5eed2026

func rndSeed(t *testing.T) uint64 {
	t.Helper()
	if *rndSeedFlag != 0 {
		return *rndSeedFlag
	}
	if s := os.Getenv("SEED"); s != "" {
		n, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("SEED=%q: %v", s, err)
		}
		return n
	}
	return rndDefaultSeed
}

// Outcome classes of one operation.
const (
	rndOutcomeSame      = iota // identical results
	rndOutcomeDeviation        // a documented deviation, seen on SMD's side
	rndOutcomeSkipped          // a known structmerge bug (see the predicates)
	rndOutcomeMismatch         // anything else: the test fails
)

type rndVerdict struct {
	class  int
	name   string // deviation or bug name
	detail string // what differs (mismatches)
}

// rndOpResult is what one engine did with one operation.
type rndOpResult struct {
	out scenario.State
	err error
}

// rndCaseStep is one operation of a case with both engines' results.
type rndCaseStep struct {
	// changed, when non-nil, is the schema this step runs with instead of
	// the case's (a schema change).
	changed *gen.Schema
	before  scenario.State
	op      scenario.Operation
	smd     rndOpResult
	sm      rndOpResult
	v       rndVerdict
}

// rndCaseResult is the outcome of one generated case.
type rndCaseResult struct {
	index  int
	schema *gen.Schema
	steps  []rndCaseStep
	// failed is the index in steps of the mismatch, -1 when none.
	failed int
	// setupErr is a generator problem (the schema does not compile on SMD).
	setupErr error
}

var rndManagerPool = []string{"a", "b", "c"}

// rndSchemaGroup is how many consecutive cases share a schema: compiling
// the schema (SMD parses and validates its YAML) costs more than running a
// case.
const rndSchemaGroup = 5

// rndCompiled is the schema of a group of cases, compiled by both engines.
type rndCompiled struct {
	schema   *gen.Schema
	smd, sm  scenario.Typed
	setupErr error  // the schema does not compile on SMD (a generator bug)
	smErr    string // the schema does not compile on structmerge
}

// rndCompile generates and compiles the schema of the given group of seed.
func rndCompile(seed uint64, group int) *rndCompiled {
	return rndCompileWith(seed, group, nil)
}

// rndWrap wraps structmerge's compiled type of a schema (the tests of the
// test inject faults with it).
type rndWrap func(*gen.Schema, scenario.Typed) scenario.Typed

// rndCompileWith is rndCompile with structmerge's compiled type wrapped by
// wrap (nil: not wrapped); the tests of the test use it to inject faults.
func rndCompileWith(seed uint64, group int, wrap rndWrap) *rndCompiled {
	r := rand.New(rand.NewPCG(seed, 1<<63|uint64(group)))
	return rndCompileSchema(gen.Generate(r, gen.Options{}), wrap)
}

// rndCompileSchema compiles a generated schema with both engines.
func rndCompileSchema(schema *gen.Schema, wrap rndWrap) *rndCompiled {
	c := &rndCompiled{schema: schema}
	text := c.schema.YAML()
	var err error
	if c.smd, err = (smdengine.Engine{}).Compile(text, c.schema.Root); err != nil {
		c.setupErr = fmt.Errorf("the generated schema does not compile on SMD: %w", err)
		return c
	}
	if c.sm, err = (native.Engine{}).Compile(text, c.schema.Root); err != nil {
		c.smErr = "the schema compiles on SMD but not on structmerge: " + err.Error()
	} else if wrap != nil {
		c.sm = wrap(c.schema, c.sm)
	}
	return c
}

// rndRunCase generates and runs case i of seed; c is the compiled schema of
// its group (nil: compile it).
func rndRunCase(seed uint64, i int, c *rndCompiled) rndCaseResult {
	return rndRunCaseWith(seed, i, c, nil)
}

// rndRunCaseWith is rndRunCase with structmerge's compiled types wrapped by
// wrap.
func rndRunCaseWith(seed uint64, i int, c *rndCompiled, wrap rndWrap) rndCaseResult {
	if c == nil {
		c = rndCompileWith(seed, i/rndSchemaGroup, wrap)
	}
	s := c.schema
	res := rndCaseResult{index: i, schema: s, failed: -1}
	if c.setupErr != nil {
		res.setupErr = c.setupErr
		return res
	}
	if c.smErr != "" {
		res.steps = append(res.steps, rndCaseStep{v: rndVerdict{class: rndOutcomeMismatch, detail: c.smErr}})
		res.failed = 0
		return res
	}
	smdT, smT := c.smd, c.sm
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	vals := &gen.Values{S: s, R: r}
	managers := rndManagerPool[:1+r.IntN(len(rndManagerPool))]
	state := rndStartState(r, vals, smdT, managers)
	lastApplied := map[string]any{}
	nOps := 2 + r.IntN(4)
	if r.IntN(10) == 0 {
		nOps = 6 + r.IntN(6) // a longer history
	}
	// Sometimes the schema changes before one of the later writes; the
	// writes from then on use the changed schema.
	changeAt := -1
	if r.IntN(100) < 10 {
		changeAt = 1 + r.IntN(nOps-1)
	}
	var prev *scenario.Operation
	for k := range nOps {
		op := rndOp(r, vals, state, managers, lastApplied, k == nOps-1)
		if prev != nil && r.IntN(10) == 0 {
			op = *prev // the same write again (an apply twice is a no-op)
		}
		prev = &op
		st := rndCaseStep{before: state, op: op}
		if k == changeAt {
			if changed, ok := s.Changed(r); ok {
				cc := rndCompileSchema(changed, wrap)
				if cc.setupErr != nil || cc.smErr != "" {
					res.setupErr = cc.setupErr
					if cc.smErr != "" {
						st.changed = changed
						st.v = rndVerdict{class: rndOutcomeMismatch, detail: cc.smErr}
						res.steps = append(res.steps, st)
						res.failed = len(res.steps) - 1
					}
					return res
				}
				s, smdT, smT = changed, cc.smd, cc.sm
				vals.S = changed
			}
		}
		if s != c.schema {
			st.changed = s
		}
		st.smd = rndDoSafely(smdT, state, op)
		st.sm = rndDoSafely(smT, state, op)
		st.v = rndJudge(s, st)
		res.steps = append(res.steps, st)
		if st.v.class == rndOutcomeMismatch {
			res.failed = len(res.steps) - 1
			return res
		}
		if st.smd.err == nil {
			state = st.smd.out
			if op.Op != scenario.OpUpdate {
				lastApplied[op.Manager] = op.Object
			}
		}
	}
	return res
}

// rndDoSafely runs one operation on a copy of the state and turns a panic into
// an error.
func rndDoSafely(t scenario.Typed, st scenario.State, op scenario.Operation) (res rndOpResult) {
	defer func() {
		if p := recover(); p != nil {
			res = rndOpResult{out: st, err: fmt.Errorf("panic: %v", p)}
		}
	}()
	out, err := t.Do(rndCloneState(st), scenario.Operation{Op: op.Op, Manager: op.Manager, APIVersion: op.APIVersion, Object: rndCloneValue(op.Object)})
	return rndOpResult{out: out, err: err}
}

// rndStartState draws the state a case starts from: nothing; an object nobody
// owns; or an object with managers owning random parts of it.
func rndStartState(r *rand.Rand, vals *gen.Values, smdT scenario.Typed, managers []string) scenario.State {
	switch k := r.IntN(10); {
	case k < 7:
		return scenario.State{}
	case k == 7:
		return scenario.State{Object: vals.Object(), HasObject: true}
	}
	obj := vals.Object()
	all, err := smdT.Do(scenario.State{}, scenario.Operation{Op: scenario.OpUpdate, Manager: "all", APIVersion: "v1", Object: obj})
	if err != nil {
		return scenario.State{}
	}
	st := scenario.State{Object: all.Object, HasObject: true, Managers: map[string]scenario.Manager{}}
	full, ok := all.Managers["all"]
	if !ok {
		return st
	}
	for _, name := range managers {
		sub, ok := rndSubsetFields(r, full.FieldsV1)
		if !ok {
			if r.IntN(4) > 0 {
				continue
			}
			sub = []byte("{}") // a manager that owns nothing
		}
		st.Managers[name] = scenario.Manager{APIVersion: rndVersion(r), Applied: r.IntN(2) == 0, FieldsV1: sub}
	}
	return st
}

// rndSubsetFields returns a random part of a FieldsV1 set; ok is false when
// nothing is left.
func rndSubsetFields(r *rand.Rand, fieldsV1 []byte) ([]byte, bool) {
	var tree map[string]any
	if err := json.Unmarshal(fieldsV1, &tree); err != nil {
		return nil, false
	}
	var prune func(m map[string]any) map[string]any
	prune = func(m map[string]any) map[string]any {
		out := map[string]any{}
		for _, k := range gen.SortedKeys(m) {
			if r.Float64() < 0.35 {
				continue
			}
			child, _ := m[k].(map[string]any)
			if len(child) == 0 {
				out[k] = map[string]any{}
				continue
			}
			c := prune(child)
			if len(c) == 0 && r.Float64() < 0.7 {
				continue // rather drop it than own the field as a whole
			}
			out[k] = c
		}
		return out
	}
	sub := prune(tree)
	if len(sub) == 0 {
		return nil, false
	}
	out, err := json.Marshal(sub)
	if err != nil {
		return nil, false
	}
	return out, true
}

func rndVersion(r *rand.Rand) string {
	if r.IntN(100) < 85 {
		return "v1"
	}
	return "v2"
}

// rndOp draws the next operation: its kind, manager, version and object
// (a fresh object, or a mutation of the live object or of what the manager
// applied last).
func rndOp(r *rand.Rand, vals *gen.Values, st scenario.State, managers []string, lastApplied map[string]any, final bool) scenario.Operation {
	op := scenario.Operation{APIVersion: rndVersion(r)}
	switch k := r.IntN(100); {
	case k < 40:
		op.Op = scenario.OpApply
	case k < 65:
		op.Op = scenario.OpForceApply
	default:
		op.Op = scenario.OpUpdate
	}
	op.Manager = managers[r.IntN(len(managers))]
	if final && r.IntN(100) < 15 {
		op.Manager = "new"
	}
	root := vals.S.RootType()
	live := st.Object
	last, hasLast := lastApplied[op.Manager]
	switch k := r.IntN(100); {
	case !st.HasObject || live == nil || k < 15:
		op.Object = vals.Object()
	case op.Op != scenario.OpUpdate && hasLast && last != nil && k < 55:
		op.Object = vals.Mutate(root, last)
	default:
		op.Object = vals.Mutate(root, live)
	}
	switch k := r.IntN(1000); {
	case k < 10:
		op.Object = nil
	case k < 50:
		op.Object = vals.Invalidate(root, op.Object)
	case k < 130 && op.Op == scenario.OpUpdate:
		// Updates may repeat items (the live object then has duplicates).
		op.Object, _ = vals.Duplicate(root, op.Object)
	}
	return op
}

// rndErrorPhrases are the kinds of problem an engine reports for a
// request it rejects (other than conflicts), each with the phrase both
// engines' messages use for it. A problem is written "PATH: PHRASE ..."; the
// rest of the line words the offending value, differently in each engine.
var rndErrorPhrases = []struct{ phrase, kind string }{
	{"field not declared in schema", "undeclared field"},
	{"expected numeric (int or float), got", "wrong type: expected numeric"},
	{"expected string, got", "wrong type: expected string"},
	{"expected boolean, got", "wrong type: expected boolean"},
	{"expected map, got", "wrong type: expected map"},
	{"expected list, got", "wrong type: expected list"},
	{"associative list with keys may not have non-map elements", "keyed list: item not a map"},
	{"associative list with keys may not have a null element", "keyed list: null item"},
	{"associative list with keys has an element that omits all key fields", "keyed list: item without a key"},
	{"associative list without keys has an element that's an explicit null", "set: null item"},
	{"associative list without keys has an element that's a map type", "set: map item"},
	{"duplicate entries for key", "duplicate key"},
}

// rndErrorKinds classifies the problems a (non-conflict) error reports:
// one "PATH: KIND" per problem, sorted, where PATH is the place the message
// names and KIND one of rndErrorPhrases. A problem of no known kind (a
// panic, a schema error, a phase of SMD's apply, anything new) is kept
// whole, so it only matches the same message.
func rndErrorKinds(err error) []string {
	msg := err.Error()
	lines := []string{msg}
	if rest, ok := strings.CutPrefix(msg, "errors:\n"); ok {
		lines = strings.Split(rest, "\n")
	}
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		line = strings.TrimSpace(line)
		kind := "other: " + line
		for _, p := range rndErrorPhrases {
			i := strings.Index(line, p.phrase)
			if i < 0 {
				continue
			}
			path := strings.TrimSuffix(strings.TrimSpace(line[:i]), ":")
			if m := rndElementPattern.FindStringSubmatch(path); m != nil {
				path = m[1] + "[" + m[2] + "]" // ".list: element 2" names item 2
			}
			kind = path + ": " + p.kind
			if p.kind == "duplicate key" {
				kind += " " + strings.TrimSpace(line[i+len(p.phrase):])
			}
			break
		}
		out = append(out, kind)
	}
	slices.Sort(out)
	return out
}

// rndElementPattern matches the place "PATH: element N" of a list item.
var rndElementPattern = regexp.MustCompile(`^(.*): element ([0-9]+)$`)

func rndIsConflicts(err error) bool {
	var ce *scenario.ConflictsError
	return errors.As(err, &ce)
}

// rndJudge compares both engines' results of one operation.
func rndJudge(s *gen.Schema, st rndCaseStep) rndVerdict {
	v := rndCompareResults(s, st)
	if v.class == rndOutcomeMismatch {
		for _, b := range rndKnownBugs {
			if b.matches(s, st) {
				return rndVerdict{class: rndOutcomeSkipped, name: b.name, detail: v.detail}
			}
		}
	}
	return v
}

// rndCompareResults compares both engines' results of one operation. A
// difference is SMD's documented pruning deviation only when replaying the
// step on SMD with structmerge's rule for pruning (rndKeepKeysReplay) gives
// exactly structmerge's result.
func rndCompareResults(s *gen.Schema, st rndCaseStep) rndVerdict {
	v := rndCompareOutcomes(s, st.smd, st.sm)
	if v.class != rndOutcomeMismatch {
		return v
	}
	if alt, ok := rndKeepKeysReplay(s, st); ok && rndCompareOutcomes(s, alt, st.sm).class == rndOutcomeSame {
		var name string
		switch {
		case st.smd.err == nil:
			name = "other result"
		case rndIsConflicts(st.smd.err):
			name = "other conflicts"
		default:
			name = "SMD rejects the item"
		}
		return rndVerdict{class: rndOutcomeDeviation, name: "SMD's pruning strips the key of an item that stays: " + name}
	}
	return v
}

// rndCompareOutcomes compares two results of one operation: the same
// error class (conflicts: the same set and message; other errors: the same
// kinds of problem at the same places), else the same object and the same
// managers. s (nil: none) makes the report of differing objects finer.
func rndCompareOutcomes(s *gen.Schema, x, y rndOpResult) rndVerdict {
	smdErr, smErr := x.err, y.err
	var a, b *scenario.ConflictsError
	ac, bc := errors.As(smdErr, &a), errors.As(smErr, &b)
	switch {
	case smdErr != nil && smErr != nil:
		switch {
		case ac && bc:
			x, y := rndConflictSet(a.Conflicts), rndConflictSet(b.Conflicts)
			if !slices.Equal(x, y) {
				return rndMismatch("different conflicts:\n  SMD:         %s\n  structmerge: %s", strings.Join(x, "; "), strings.Join(y, "; "))
			}
			if a.Message != b.Message {
				return rndMismatch("same conflicts, different messages:\n  SMD:\n%s\n  structmerge:\n%s", rndIndentText(a.Message), rndIndentText(b.Message))
			}
			return rndVerdict{class: rndOutcomeSame, name: "conflicts"}
		case ac != bc:
			return rndMismatch("one engine reports conflicts, the other another error:\n  SMD:         %v\n  structmerge: %v", smdErr, smErr)
		}
		// Both reject the request: for the same reasons, at the same places
		// (the wording of a value in the message may differ).
		if x, y := rndErrorKinds(smdErr), rndErrorKinds(smErr); !slices.Equal(x, y) {
			return rndMismatch("both engines fail, with different kinds of error:\n  SMD:         %s\n  structmerge: %s", strings.Join(x, "; "), strings.Join(y, "; "))
		}
		return rndVerdict{class: rndOutcomeSame, name: "errors"}
	case smdErr != nil:
		return rndMismatch("SMD fails, structmerge succeeds:\n  SMD: %v", smdErr)
	case smErr != nil:
		return rndMismatch("structmerge fails, SMD succeeds:\n  structmerge: %v", smErr)
	}
	av, errA := value.FromUnstructured(x.out.Object)
	bv, errB := value.FromUnstructured(y.out.Object)
	if errA != nil || errB != nil {
		return rndMismatch("results are not values: SMD %v, structmerge %v", errA, errB)
	}
	objectsEqual := value.Equal(av, bv) && x.out.HasObject == y.out.HasObject
	mgrDiff := rndManagerDifferences(x.out.Managers, y.out.Managers)
	if objectsEqual && len(mgrDiff) == 0 {
		return rndVerdict{class: rndOutcomeSame, name: "success"}
	}
	if objectsEqual {
		return rndMismatch("same object, different managers:\n  %s", strings.Join(mgrDiff, "\n  "))
	}
	if s == nil {
		return rndMismatch("results differ:\n  object: SMD %s\n  structmerge %s\n  %s", gen.FormatValue(x.out.Object), gen.FormatValue(y.out.Object), strings.Join(mgrDiff, "\n  "))
	}
	var lines []string
	for _, d := range s.Diff(x.out.Object, y.out.Object) {
		lines = append(lines, fmt.Sprintf("%s: SMD %s, structmerge %s", rndPathString(d.Path), rndPresent(d.A, d.HasA), rndPresent(d.B, d.HasB)))
	}
	lines = append(lines, mgrDiff...)
	return rndMismatch("results differ:\n  %s", strings.Join(lines, "\n  "))
}

func rndMismatch(format string, args ...any) rndVerdict {
	return rndVerdict{class: rndOutcomeMismatch, detail: fmt.Sprintf(format, args...)}
}

func rndPresent(v any, has bool) string {
	if !has {
		return "(absent)"
	}
	return gen.FormatValue(v)
}

func rndPathString(p fieldpath.Path) string {
	if len(p) == 0 {
		return "(root)"
	}
	return p.String()
}

func rndIndentText(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

func rndConflictSet(cs []scenario.Conflict) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, strconv.Quote(c.Manager)+" at "+c.Path)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// rndManagerDifferences describes how two sets of managers differ, one
// line per manager (none: they are the same).
func rndManagerDifferences(a, b map[string]scenario.Manager) []string {
	var lines []string
	names := map[string]bool{}
	for n := range a {
		names[n] = true
	}
	for n := range b {
		names[n] = true
	}
	for _, name := range gen.SortedKeys(names) {
		x, hx := a[name]
		y, hy := b[name]
		if hx && hy && x.APIVersion == y.APIVersion && x.Applied == y.Applied && bytes.Equal(x.FieldsV1, y.FieldsV1) {
			continue
		}
		lines = append(lines, fmt.Sprintf("manager %q: SMD %s, structmerge %s", name, rndManagerText(x, hx), rndManagerText(y, hy)))
	}
	return lines
}

func rndManagerText(m scenario.Manager, has bool) string {
	if !has {
		return "(none)"
	}
	return fmt.Sprintf("{apiVersion: %s, applied: %v, fields: %s}", m.APIVersion, m.Applied, m.FieldsV1)
}

// rndKnownBug is a structmerge bug found by this test, written up as a
// scenario under testdata/scenarios/random/ and skipped here until the
// engine is fixed. Each predicate is as narrow as the bug.
type rndKnownBug struct {
	name    string
	matches func(s *gen.Schema, st rndCaseStep) bool
}

// rndKnownBugs is empty: the runs so far (the default seed and about 70
// other seeds, 5,000 cases each) found no mismatch outside the documented
// deviation. Add an entry with a narrow predicate when one is found, and
// remove it with the fix.
var rndKnownBugs = []rndKnownBug{}

// rndStats counts outcomes over a run.
type rndStats struct {
	cases, ops                  int
	same, conflicts, errorsBoth int
	deviations, skipped         map[string]int
	// examples holds the first case indexes of each deviation and bug.
	examples    map[string][]int
	mismatches  []rndCaseResult
	setupErrors []rndCaseResult
	successes   int
	// errorsWorded counts the operations both engines reject with
	// different messages (allowed); wordings keeps a few examples.
	errorsWorded int
	wordings     []string
	// schemaChanges counts the operations run after a schema change.
	schemaChanges int
}

func (s *rndStats) add(r rndCaseResult) {
	s.cases++
	if r.setupErr != nil {
		s.setupErrors = append(s.setupErrors, r)
		return
	}
	for _, st := range r.steps {
		s.ops++
		if st.changed != nil {
			s.schemaChanges++
		}
		switch st.v.class {
		case rndOutcomeSame:
			s.same++
			switch st.v.name {
			case "conflicts":
				s.conflicts++
			case "errors":
				s.errorsBoth++
				if a, b := st.smd.err.Error(), st.sm.err.Error(); a != b {
					s.errorsWorded++
					if len(s.wordings) < 3 {
						s.wordings = append(s.wordings, fmt.Sprintf("SMD: %s\n    structmerge: %s", a, b))
					}
				}
			case "success":
				s.successes++
			}
		case rndOutcomeDeviation:
			s.deviations[st.v.name]++
			s.example(st.v.name, r.index)
		case rndOutcomeSkipped:
			s.skipped[st.v.name]++
			s.example(st.v.name, r.index)
		}
	}
	if r.failed >= 0 {
		s.mismatches = append(s.mismatches, r)
	}
}

func (s *rndStats) example(name string, index int) {
	if ex := s.examples[name]; len(ex) < 5 && !slices.Contains(ex, index) {
		s.examples[name] = append(ex, index)
	}
}

// rndRunCases runs cases [0, n) of seed on all CPUs; results are in index
// order whatever the scheduling.
func rndRunCases(seed uint64, n int) []rndCaseResult {
	return rndRunCasesWith(seed, n, nil)
}

// rndRunCasesWith is rndRunCases with structmerge's compiled types wrapped
// by wrap.
func rndRunCasesWith(seed uint64, n int, wrap rndWrap) []rndCaseResult {
	results := make([]rndCaseResult, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g := int(next.Add(1) - 1)
				if g*rndSchemaGroup >= n {
					return
				}
				c := rndCompileWith(seed, g, wrap)
				for i := g * rndSchemaGroup; i < min(n, (g+1)*rndSchemaGroup); i++ {
					results[i] = rndRunCaseWith(seed, i, c, wrap)
				}
			}
		}()
	}
	wg.Wait()
	return results
}

// TestRandomDifferential is the randomized differential test: every case
// must behave the same on SMD and structmerge, except for documented
// deviations (counted) and known bugs (skipped by name, counted).
func TestRandomDifferential(t *testing.T) {
	seed := rndSeed(t)
	n := *rndCasesFlag
	var results []rndCaseResult
	if one := os.Getenv("RANDOM_CASE"); one != "" {
		i, err := strconv.Atoi(one)
		if err != nil || i < 0 {
			t.Fatalf("RANDOM_CASE=%q: not a case index", one)
		}
		r := rndRunCase(seed, i, nil)
		t.Logf("seed %#x case %d:\n%s", seed, i, rndCaseText(r))
		if os.Getenv("RANDOM_MINIMIZE") != "" {
			// Minimise every step that is not the same on both engines.
			for k, st := range r.steps {
				if st.v.class == rndOutcomeSame || st.op.Op == "" {
					continue
				}
				sch := r.schema
				if st.changed != nil {
					sch = st.changed
				}
				c := rndCompileSchema(sch, nil)
				if c.setupErr != nil || c.smErr != "" {
					continue
				}
				m := rndMinimize(sch, c.smd, c.sm, st)
				m.changed = nil
				small := rndPruneSchema(sch, m)
				desc := fmt.Sprintf("Randomized differential case (seed %#x, case %d, step %d), minimised: %s. Expectations are SMD's behaviour.", seed, i, k+1, m.v.name)
				t.Logf("step %d minimised:\n%s", k+1, rndScenario(desc, small.YAML(), small.Root, []rndCaseStep{m}).YAML())
			}
		}
		results = []rndCaseResult{r}
	} else {
		results = rndRunCases(seed, n)
	}
	st := rndStats{deviations: map[string]int{}, skipped: map[string]int{}, examples: map[string][]int{}}
	for _, r := range results {
		st.add(r)
	}
	t.Logf("seed %#x: %d cases, %d operations: %d same (%d succeeded, %d conflicted, %d failed on both), %d deviations, %d skipped as known bugs, %d mismatching cases",
		seed, st.cases, st.ops, st.same, st.successes, st.conflicts, st.errorsBoth, rndSum(st.deviations), rndSum(st.skipped), len(st.mismatches))
	for _, name := range gen.SortedKeys(st.deviations) {
		t.Logf("  deviation %q: %d (cases %v; RANDOM_CASE=N shows one)", name, st.deviations[name], st.examples[name])
	}
	t.Logf("  %d operations ran after a schema change", st.schemaChanges)
	t.Logf("  %d of the %d operations both engines reject have differently worded errors, for example:", st.errorsWorded, st.errorsBoth)
	for _, w := range st.wordings {
		t.Logf("    %s", w)
	}
	for _, name := range gen.SortedKeys(st.skipped) {
		t.Logf("  known bug %q: %d (cases %v)", name, st.skipped[name], st.examples[name])
	}
	for _, r := range st.setupErrors {
		t.Errorf("seed %#x case %d: %v\nschema:\n%s", seed, r.index, r.setupErr, r.schema.YAML())
	}
	if st.successes < st.ops/4 {
		t.Errorf("only %d of %d operations succeeded on both engines: the generator is too hostile", st.successes, st.ops)
	}
	const shown = 5
	for i, r := range st.mismatches {
		if i == shown {
			t.Errorf("... and %d more mismatching cases", len(st.mismatches)-shown)
			break
		}
		t.Errorf("%s", rndFailureReport(t, seed, r))
	}
}

func rndSum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// rndFailureReport describes a mismatching case for a person and as a
// scenario file (expectations: SMD's behaviour).
func rndFailureReport(t *testing.T, seed uint64, r rndCaseResult) string {
	st := r.steps[r.failed]
	var b strings.Builder
	fmt.Fprintf(&b, "MISMATCH: seed %#x, case %d, step %d of %d (reproduce: RANDOM_CASE=%d go test -run 'TestRandomDifferential$' -v -seed %#x)\n", seed, r.index, r.failed+1, len(r.steps), r.index, seed)
	fmt.Fprintf(&b, "%s\n", st.v.detail)
	if st.op.Op == "" { // the schema did not compile
		fmt.Fprintf(&b, "schema:\n%s", r.schema.YAML())
		return b.String()
	}
	fmt.Fprintf(&b, "operation: %s by %q at %s\n  object: %s\n", st.op.Op, st.op.Manager, st.op.APIVersion, gen.FormatValue(st.op.Object))
	fmt.Fprintf(&b, "live:\n%s", rndStateText(st.before, st.before.HasObject))
	fmt.Fprintf(&b, "SMD:\n%s", rndResultText(st.smd))
	fmt.Fprintf(&b, "structmerge:\n%s", rndResultText(st.sm))
	sc := rndScenarioOf(seed, r, r.failed, r.failed)
	text := sc.YAML()
	fmt.Fprintf(&b, "scenario (expectations are SMD's behaviour):\n%s", text)
	if dir := os.Getenv("RANDOM_SCENARIO_DIR"); dir != "" {
		p := filepath.Join(dir, fmt.Sprintf("random-%x-%d.yaml", seed, r.index))
		if err := os.WriteFile(p, text, 0o644); err != nil {
			fmt.Fprintf(&b, "cannot write %s: %v\n", p, err)
		} else {
			fmt.Fprintf(&b, "written to %s\n", p)
		}
	}
	// The scenario must pass on SMD and fail on structmerge.
	f, err := scenario.Parse("random.yaml", text)
	if err != nil {
		fmt.Fprintf(&b, "the scenario does not parse: %v\n", err)
		return b.String()
	}
	if res := scenario.Run(smdengine.Engine{}, f); !res.Passed {
		fmt.Fprintf(&b, "note: the scenario does not pass on SMD:\n%s\n", res)
	}
	if res := scenario.Run(native.Engine{}, f); res.Passed {
		fmt.Fprintf(&b, "note: the scenario passes on structmerge (the difference is in what the scenario format does not compare)\n")
	}
	stepSchema := r.schema
	if st.changed != nil {
		stepSchema = st.changed
	}
	if c := rndCompileSchema(stepSchema, nil); c.setupErr == nil && c.smErr == "" && st.op.Op != "" {
		m := rndMinimize(stepSchema, c.smd, c.sm, st)
		m.changed = nil // the minimised case starts with the step's schema
		small := rndPruneSchema(stepSchema, m)
		desc := fmt.Sprintf("Randomized differential case (seed %#x, case %d), minimised. Expectations are SMD's behaviour.", seed, r.index)
		fmt.Fprintf(&b, "minimised (%s):\n%s", strings.ReplaceAll(m.v.detail, "\n", "\n  "), rndScenario(desc, small.YAML(), small.Root, []rndCaseStep{m}).YAML())
	}
	return b.String()
}

// rndCaseText describes every step of a case.
func rndCaseText(r rndCaseResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "schema:\n%s", r.schema.YAML())
	for k, st := range r.steps {
		if st.op.Op == "" {
			fmt.Fprintf(&b, "%s\n", st.v.detail)
			continue
		}
		fmt.Fprintf(&b, "step %d: %s by %q at %s\n  object: %s\n", k+1, st.op.Op, st.op.Manager, st.op.APIVersion, gen.FormatValue(st.op.Object))
		fmt.Fprintf(&b, "live:\n%s", rndStateText(st.before, st.before.HasObject))
		fmt.Fprintf(&b, "SMD:\n%s", rndResultText(st.smd))
		fmt.Fprintf(&b, "structmerge:\n%s", rndResultText(st.sm))
		fmt.Fprintf(&b, "verdict: %d %s %s\n", st.v.class, st.v.name, st.v.detail)
	}
	return b.String()
}

func rndStateText(s scenario.State, hasObject bool) string {
	var b strings.Builder
	if hasObject {
		fmt.Fprintf(&b, "  object: %s\n", gen.FormatValue(s.Object))
	} else {
		b.WriteString("  (no object)\n")
	}
	for _, name := range gen.SortedKeys(s.Managers) {
		m := s.Managers[name]
		fmt.Fprintf(&b, "  manager %q: %s\n", name, rndManagerText(m, true))
	}
	return b.String()
}

func rndResultText(r rndOpResult) string {
	if r.err != nil {
		return "  error: " + strings.ReplaceAll(r.err.Error(), "\n", "\n    ") + "\n"
	}
	return rndStateText(r.out, true)
}

// rndScenarioOf writes steps [from, to] of a case as a scenario whose
// expectations are SMD's results.
func rndScenarioOf(seed uint64, r rndCaseResult, from, to int) *gen.Scenario {
	desc := fmt.Sprintf("Randomized differential case: seed %#x, case %d, steps %d-%d. Expectations are SMD's behaviour.", seed, r.index, from+1, to+1)
	return rndScenario(desc, r.schema.YAML(), r.schema.Root, r.steps[from:to+1])
}

// rndScenario writes steps as a scenario whose expectations are SMD's
// results; it starts from the state before the first step.
func rndScenario(desc string, schemaText []byte, root string, steps []rndCaseStep) *gen.Scenario {
	sc := &gen.Scenario{Description: desc, Schema: schemaText, Type: root, Live: steps[0].before}
	var current *gen.Schema
	for _, st := range steps {
		step := gen.Step{Op: st.op}
		if st.changed != nil && st.changed != current {
			step.Schema = st.changed.YAML()
		}
		current = st.changed
		var ce *scenario.ConflictsError
		switch {
		case errors.As(st.smd.err, &ce) && st.op.Op == scenario.OpApply:
			step.Conflicts = ce.Conflicts
		case st.smd.err != nil:
			step.Error, step.HasError = st.smd.err.Error(), true
		default:
			out := st.smd.out
			step.After = &out
		}
		sc.Steps = append(sc.Steps, step)
	}
	return sc
}

// TestRandomCasesAsScenarios writes the first cases as scenario files
// (expectations: SMD's results) and runs them on SMD: they must pass, which
// checks the scenario writer and that SMD behaves the same when replayed.
func TestRandomCasesAsScenarios(t *testing.T) {
	seed := rndSeed(t)
	n := min(100, *rndCasesFlag)
	for _, r := range rndRunCases(seed, n) {
		if r.setupErr != nil || len(r.steps) == 0 || r.steps[0].op.Op == "" {
			continue
		}
		sc := rndScenarioOf(seed, r, 0, len(r.steps)-1)
		text := sc.YAML()
		f, err := scenario.Parse(fmt.Sprintf("case-%d.yaml", r.index), text)
		if err != nil {
			t.Errorf("case %d: the scenario does not parse: %v\n%s", r.index, err, text)
			continue
		}
		if res := scenario.Run(smdengine.Engine{}, f); !res.Passed {
			t.Errorf("case %d: the scenario does not pass on SMD:\n%s\n%s", r.index, res, text)
		}
	}
}

// TestRandomDeterministic checks that a case depends only on its seed and
// index.
func TestRandomDeterministic(t *testing.T) {
	for i := range 20 {
		a, b := rndRunCase(7, i, nil), rndRunCase(7, i, nil)
		if !bytes.Equal(a.schema.YAML(), b.schema.YAML()) || len(a.steps) != len(b.steps) {
			t.Fatalf("case %d differs between two runs", i)
		}
		for k := range a.steps {
			if gen.FormatValue(a.steps[k].op.Object) != gen.FormatValue(b.steps[k].op.Object) || a.steps[k].v != b.steps[k].v {
				t.Fatalf("case %d step %d differs between two runs", i, k)
			}
		}
	}
}

// rndCloneState returns a deep copy of a state.
func rndCloneState(s scenario.State) scenario.State {
	out := scenario.State{Object: rndCloneValue(s.Object), HasObject: s.HasObject}
	if s.Managers != nil {
		out.Managers = make(map[string]scenario.Manager, len(s.Managers))
		for name, m := range s.Managers {
			m.FieldsV1 = bytes.Clone(m.FieldsV1)
			out.Managers[name] = m
		}
	}
	return out
}

func rndCloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = rndCloneValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rndCloneValue(e)
		}
		return out
	}
	return v
}

// TestRandomReplay runs the scenario file named by $RANDOM_REPLAY on both
// engines and prints what each step does on each (a tool for minimising a
// failing case; skipped when the variable is unset). It fails when the
// scenario does not pass on SMD.
func TestRandomReplay(t *testing.T) {
	p := os.Getenv("RANDOM_REPLAY")
	if p == "" {
		t.Skip("set RANDOM_REPLAY to a scenario file")
	}
	f, err := scenario.LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kubernetes {
		t.Fatal("only structured scenarios can be replayed")
	}
	engines := []struct {
		name string
		e    scenario.Engine
	}{{"SMD", smdengine.Engine{}}, {"structmerge", native.Engine{}}}
	for _, e := range engines {
		typed, err := e.e.Compile(f.Schema.Text, f.Type)
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		state := f.Live
		var b strings.Builder
		for i, s := range f.Steps {
			if s.Schema != nil {
				if typed, err = e.e.Compile(s.Schema.Text, f.Type); err != nil {
					t.Fatalf("%s: step %d: %v", e.name, i+1, err)
				}
			}
			res := rndDoSafely(typed, state, scenario.Operation{Op: s.Op, Manager: s.Manager, APIVersion: s.APIVersion, Object: s.Object})
			fmt.Fprintf(&b, "step %d: %s by %q\n%s", i+1, s.Op, s.Manager, rndResultText(res))
			if res.err == nil {
				state = res.out
			}
		}
		t.Logf("%s:\n%s", e.name, b.String())
	}
	if res := scenario.Run(smdengine.Engine{}, f); !res.Passed {
		t.Errorf("the scenario does not pass on SMD:\n%s", res)
	}
	if res := scenario.Run(native.Engine{}, f); !res.Passed {
		t.Logf("the scenario fails on structmerge:\n%s", res)
	}
	if os.Getenv("RANDOM_MINIMIZE") != "" {
		rndReplayMinimize(t, f)
	}
}

// rndReplayMinimize shrinks the last step of a scenario that differs
// between the engines (starting from the state SMD reaches before it) and
// prints the result as a scenario.
func rndReplayMinimize(t *testing.T, f *scenario.File) {
	smdT, err1 := smdengine.Engine{}.Compile(f.Schema.Text, f.Type)
	smT, err2 := native.Engine{}.Compile(f.Schema.Text, f.Type)
	if err1 != nil || err2 != nil {
		t.Fatalf("compile: SMD %v, structmerge %v", err1, err2)
	}
	state := f.Live
	for _, s := range f.Steps[:len(f.Steps)-1] {
		if res := rndDoSafely(smdT, state, scenario.Operation{Op: s.Op, Manager: s.Manager, APIVersion: s.APIVersion, Object: s.Object}); res.err == nil {
			state = res.out
		}
	}
	last := f.Steps[len(f.Steps)-1]
	st := rndCaseStep{before: state, op: scenario.Operation{Op: last.Op, Manager: last.Manager, APIVersion: last.APIVersion, Object: last.Object}}
	st.smd = rndDoSafely(smdT, st.before, st.op)
	st.sm = rndDoSafely(smT, st.before, st.op)
	if st.v = rndCompareResults(nil, st); st.v.class != rndOutcomeMismatch {
		t.Logf("the last step behaves the same on both engines: nothing to minimise")
		return
	}
	m := rndMinimize(nil, smdT, smT, st)
	desc := "Minimised from " + f.Path + ". Expectations are SMD's behaviour."
	t.Logf("minimised (%s):\n%s", m.v.detail, rndScenario(desc, f.Schema.Text, f.Type, []rndCaseStep{m}).YAML())
}

// rndMinimize shrinks a step greedily: it removes parts of the live object,
// of the object sent and of the managers' field sets for as long as the
// step keeps its verdict (the same deviation, or a mismatch of the same
// kind: the first line of the verdict's detail). s may be nil (a scenario file): then
// any difference in the results counts, documented deviations included.
func rndMinimize(s *gen.Schema, smdT, smT scenario.Typed, st rndCaseStep) rndCaseStep {
	kind := rndKind(st.v)
	run := func(c *gen.Scenario) rndCaseStep {
		n := rndCaseStep{before: c.Live, op: c.Steps[0].Op}
		n.smd = rndDoSafely(smdT, n.before, n.op)
		n.sm = rndDoSafely(smT, n.before, n.op)
		n.v = rndCompareResults(s, n)
		return n
	}
	one := &gen.Scenario{Live: st.before, Steps: []gen.Step{{Op: st.op}}}
	small := gen.Minimize(one, func(c *gen.Scenario) bool { return rndKind(run(c).v) == kind }, 3000)
	if small == one {
		return st
	}
	return run(small)
}

// rndKind is the kind of a verdict: its class and name, and for a
// mismatch the first line of its detail.
func rndKind(v rndVerdict) string {
	kind, _, _ := strings.Cut(v.detail, "\n")
	return fmt.Sprint(v.class, v.name, kind)
}

// rndPruneSchema returns the schema of a minimised step without the fields
// its objects and field sets do not name, when the step keeps its verdict
// with it (else the schema as it is).
func rndPruneSchema(s *gen.Schema, st rndCaseStep) *gen.Schema {
	names := map[string]bool{}
	var collect func(v any)
	collect = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				names[k] = true
				names[strings.TrimPrefix(k, "f:")] = true
				collect(e)
			}
		case []any:
			for _, e := range x {
				collect(e)
			}
		}
	}
	collect(st.before.Object)
	collect(st.op.Object)
	for _, m := range st.before.Managers {
		var tree any
		if json.Unmarshal(m.FieldsV1, &tree) == nil {
			collect(tree)
		}
	}
	pruned := s.Pruned(func(f string) bool { return names[f] })
	c := rndCompileSchema(pruned, nil)
	if c.setupErr != nil || c.smErr != "" {
		return s
	}
	n := rndCaseStep{before: st.before, op: st.op}
	n.smd = rndDoSafely(c.smd, st.before, st.op)
	n.sm = rndDoSafely(c.sm, st.before, st.op)
	if n.v = rndCompareResults(pruned, n); rndKind(n.v) != rndKind(st.v) {
		return s
	}
	return pruned
}

// rndKeepKeysReplay runs a step again on SMD as structmerge's rules for
// pruning (docs/compatibility.md) would have it: the key fields of a list
// item that remains are never removed, and an item that remains stays a
// mapping. It uses SMD's own Updater with three changes to what its pruning
// reads, and undoes them in the result:
//
//   - the applier's previous set (what SMD removes) holds no key field;
//   - every other manager's set also holds the key fields of each item it
//     owns a part of (what SMD adds back after removing);
//   - the live object and the configuration spell out the key fields that
//     have a default, so that an item whose key is all defaults is never
//     emptied (SMD turns an emptied item into null);
//
// then it removes the spelled-out key fields from the result (where
// neither input spelled them out), from the applier's set (where the
// configuration did not) and the added key fields from the other
// managers' sets. ok is false where SMD's pruning has nothing to do: the
// step is not an apply, or the applier owned nothing before (SMD removes
// what the applier owned before, then adds back what any manager, the
// applier included, owns now). Pruning is the only step of an apply that
// removes fields, so the changes matter nowhere else.
func rndKeepKeysReplay(s *gen.Schema, st rndCaseStep) (res rndOpResult, ok bool) {
	if s == nil || st.op.Op == scenario.OpUpdate {
		return res, false
	}
	last, has := st.before.Managers[st.op.Manager]
	if !has {
		return res, false
	}
	parse := func(m scenario.Manager) *smdfieldpath.Set {
		set := &smdfieldpath.Set{}
		if err := set.FromJSON(bytes.NewReader(m.FieldsV1)); err != nil {
			return nil
		}
		return set
	}
	lastSet := parse(last)
	if lastSet == nil || lastSet.Empty() {
		return res, false
	}
	before := rndCloneState(st.before)
	changed := false
	// The applier's previous set without the key fields of the items it
	// does not hold whole.
	keep := &smdfieldpath.Set{}
	rndItemKeyFields(lastSet, func(item, key smdfieldpath.Path) {
		if lastSet.Has(key) {
			keep.Insert(key)
		}
	})
	if !keep.Empty() {
		changed = true
		js, err := lastSet.Difference(keep).ToJSON()
		if err != nil {
			return res, false
		}
		m := before.Managers[st.op.Manager]
		m.FieldsV1 = js
		before.Managers[st.op.Manager] = m
	}
	// The other managers' sets with the key fields of the items they own
	// parts of.
	added := map[string]*smdfieldpath.Set{}
	for _, name := range gen.SortedKeys(st.before.Managers) {
		if name == st.op.Manager {
			continue
		}
		set := parse(st.before.Managers[name])
		if set == nil {
			return res, false
		}
		add := &smdfieldpath.Set{}
		rndItemKeyFields(set, func(item, key smdfieldpath.Path) {
			if !set.Has(key) {
				add.Insert(key)
			}
		})
		if add.Empty() {
			continue
		}
		changed = true
		added[name] = add
		js, err := set.Union(add).ToJSON()
		if err != nil {
			return res, false
		}
		m := before.Managers[name]
		m.FieldsV1 = js
		before.Managers[name] = m
	}
	// The objects with the key fields that have a default spelled out, so
	// that keeping key fields also keeps an item whose key is all defaults
	// (structmerge's second rule: such an item, emptied, stays as {}).
	var liveObj any
	var spelledLive, spelledConfig []string
	if st.before.HasObject {
		liveObj = st.before.Object
		before.Object = rndSpellOutDefaultKeysAt(s, s.RootType(), before.Object, nil, &spelledLive)
	}
	op := st.op
	op.Object = rndSpellOutDefaultKeysAt(s, s.RootType(), op.Object, nil, &spelledConfig)
	if !changed && len(spelledLive) == 0 && len(spelledConfig) == 0 {
		return res, false
	}
	smdT, err := smdengine.Engine{}.Compile(s.YAML(), s.Root)
	if err != nil {
		return res, false
	}
	res = rndDoSafely(smdT, before, op)
	if res.err != nil {
		return res, true
	}
	// Undo both changes in the result: the key fields spelled out, in the
	// object and in every set that did not hold them, and the key fields
	// added to the other managers' sets.
	var unspelled []string
	res.out.Object = rndUnspellKeys(s, s.RootType(), res.out.Object, liveObj, st.op.Object, nil, &unspelled)
	for _, name := range gen.SortedKeys(res.out.Managers) {
		m := res.out.Managers[name]
		set := parse(m)
		if set == nil {
			return res, false
		}
		var orig *smdfieldpath.Set
		if name != st.op.Manager {
			if o, has := st.before.Managers[name]; has {
				orig = parse(o)
			}
		}
		drop := &smdfieldpath.Set{}
		set.Iterate(func(p smdfieldpath.Path) {
			if orig != nil && orig.Has(p) {
				return
			}
			switch ps := p.String(); {
			case name == st.op.Manager && slices.Contains(spelledConfig, ps),
				added[name] != nil && added[name].Has(p),
				slices.Contains(unspelled, ps):
				drop.Insert(p)
			}
		})
		if drop.Empty() {
			continue
		}
		set = set.Difference(drop)
		if set.Empty() {
			delete(res.out.Managers, name)
			continue
		}
		if m.FieldsV1, err = set.ToJSON(); err != nil {
			return res, false
		}
		res.out.Managers[name] = m
	}
	return res, true
}

// rndItemKeyFields calls f with the path of every keyed list item that a
// path of set goes through (or is) and the path of each of its key fields.
func rndItemKeyFields(set *smdfieldpath.Set, f func(item, key smdfieldpath.Path)) {
	seen := map[string]bool{}
	set.Iterate(func(p smdfieldpath.Path) {
		for i, pe := range p {
			if pe.Key == nil {
				continue
			}
			item := p[:i+1].Copy()
			if id := item.String(); seen[id] {
				continue
			} else {
				seen[id] = true
			}
			for _, kf := range *pe.Key {
				name := kf.Name
				key := append(item.Copy(), smdfieldpath.PathElement{FieldName: &name})
				f(item, key)
			}
		}
	})
}

// rndSpellOutDefaultKeys returns v (of type t) with the absent key fields
// that have a default spelled out in every item of a keyed list (atomic
// values are left as they are).
func rndSpellOutDefaultKeys(s *gen.Schema, t *gen.Type, v any) any {
	return rndSpellOutDefaultKeysAt(s, t, v, nil, nil)
}

// rndSpellOutDefaultKeysAt is rndSpellOutDefaultKeys for the value at
// path; when added is not nil, it appends the paths (as strings) of the key
// fields it spells out.
func rndSpellOutDefaultKeysAt(s *gen.Schema, t *gen.Type, v any, path fieldpath.Path, added *[]string) any {
	e := s.Resolve(t)
	if e == nil || e.Atomic {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			ft := e.Elem
			if e.Kind == gen.KindStruct {
				var ok bool
				if ft, ok = e.FieldType(k); !ok {
					out[k] = val
					continue
				}
			}
			if ft == nil {
				out[k] = val
				continue
			}
			out[k] = rndSpellOutDefaultKeysAt(s, ft, val, append(path[:len(path):len(path)], fieldpath.FieldName(k)), added)
		}
		return out
	case []any:
		if e.Kind != gen.KindList || e.Elem == nil {
			return v
		}
		it := s.Resolve(e.Elem)
		out := make([]any, len(x))
		for i, item := range x {
			m, ok := item.(map[string]any)
			if !ok || !e.IsKeyed() || it == nil || it.Kind != gen.KindStruct {
				out[i] = rndSpellOutDefaultKeysAt(s, e.Elem, item, path, added)
				continue
			}
			pe, hasKey := gen.KeyElement(it, e.Keys, m)
			itemPath := append(path[:len(path):len(path)], pe)
			m, _ = rndSpellOutDefaultKeysAt(s, e.Elem, m, itemPath, added).(map[string]any)
			for _, k := range e.Keys {
				if f := it.Field(k); f != nil && f.Default != nil {
					if _, has := m[k]; !has {
						m[k] = f.Default
						if added != nil && hasKey {
							*added = append(*added, append(itemPath[:len(itemPath):len(itemPath)], fieldpath.FieldName(k)).String())
						}
					}
				}
			}
			out[i] = m
		}
		return out
	}
	return v
}

// rndUnspellKeys removes from out (a value of type t derived from live and
// config) the key fields with a default that neither the item of live nor
// the item of config with the same key spells out, and appends their
// paths (as strings) to removed: it undoes rndSpellOutDefaultKeys on a
// result.
func rndUnspellKeys(s *gen.Schema, t *gen.Type, out, live, config any, path fieldpath.Path, removed *[]string) any {
	e := s.Resolve(t)
	if e == nil || e.Atomic {
		return out
	}
	switch x := out.(type) {
	case map[string]any:
		lm, _ := live.(map[string]any)
		cm, _ := config.(map[string]any)
		res := make(map[string]any, len(x))
		for _, k := range gen.SortedKeys(x) {
			ft := e.Elem
			if e.Kind == gen.KindStruct {
				var ok bool
				if ft, ok = e.FieldType(k); !ok {
					res[k] = x[k]
					continue
				}
			}
			if ft == nil {
				res[k] = x[k]
				continue
			}
			res[k] = rndUnspellKeys(s, ft, x[k], lm[k], cm[k], append(path[:len(path):len(path)], fieldpath.FieldName(k)), removed)
		}
		return res
	case []any:
		if !e.IsKeyed() {
			return out
		}
		it := s.Resolve(e.Elem)
		if it == nil || it.Kind != gen.KindStruct {
			return out
		}
		find := func(list any, pe fieldpath.PathElement) map[string]any {
			l, _ := list.([]any)
			for _, item := range l {
				if m, ok := item.(map[string]any); ok {
					if q, ok := gen.KeyElement(it, e.Keys, m); ok && q.Equal(pe) {
						return m
					}
				}
			}
			return nil
		}
		res := make([]any, len(x))
		for i, item := range x {
			m, ok := item.(map[string]any)
			pe, hasKey := gen.KeyElement(it, e.Keys, m)
			if !ok || !hasKey {
				res[i] = item
				continue
			}
			lItem, cItem := find(live, pe), find(config, pe)
			itemPath := append(path[:len(path):len(path)], pe)
			u, _ := rndUnspellKeys(s, e.Elem, m, lItem, cItem, itemPath, removed).(map[string]any)
			for _, k := range e.Keys {
				f := it.Field(k)
				if f == nil || f.Default == nil {
					continue
				}
				if _, has := u[k]; !has {
					continue
				}
				_, inLive := lItem[k]
				_, inConfig := cItem[k]
				if !inLive && !inConfig {
					delete(u, k)
					*removed = append(*removed, append(itemPath[:len(itemPath):len(itemPath)], fieldpath.FieldName(k)).String())
				}
			}
			res[i] = u
		}
		return res
	}
	return out
}

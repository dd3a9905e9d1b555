package merge_test

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/gen"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// FuzzApply drives the merge engine with random operations: applies
// (forced or not) and updates by a few managers at two API versions, on a
// random schema and random live objects, all drawn by the scenario
// generator (internal/scenario/gen). Its input is a program (bytes the
// generator's random source reads, continued by a generator seeded from
// the input once they run out) and a YAML stream of documents the program
// can pick objects from; the same input always runs the same operations.
//
// After every operation it checks:
//   - nothing panics, the inputs are unchanged and the result validates;
//   - an apply either succeeds or fails with Conflicts (never when forced),
//     and conflicts name fields the named manager owns;
//   - after a forced apply no manager owns a field the apply without force
//     conflicted on;
//   - after a successful apply the applier owns exactly the configuration's
//     field set, and merging the configuration again changes nothing;
//   - applying the same configuration again by the same manager is a no-op:
//     object and managers unchanged;
//   - updating to the same object again by the same manager is a no-op;
//   - no manager but the writer gains fields, and every field another
//     manager loses is one the operation added, modified or removed;
//   - after an update the writer owns what it added or modified;
//   - objects survive JSON and YAML round trips, and managers' sets a
//     FieldsV1 round trip.
//
// A failure prints the operations as a scenario file, minimised: steps and
// parts of objects are dropped for as long as the scenario still fails.
func FuzzApply(f *testing.F) {
	for _, s := range feSeeds() {
		f.Add(s.program, s.docs)
	}
	f.Fuzz(func(t *testing.T, program []byte, docs string) {
		feRun(t, program, docs)
	})
}

// TestApplyFuzzSeeds runs FuzzApply's seeds as a plain test, with a log of
// what they did, so that `go test -run ApplyFuzzSeeds -v` shows the harness
// at work.
func TestApplyFuzzSeeds(t *testing.T) {
	seeds := feSeeds()
	committed := feCommittedSeeds(t)
	if len(committed) == 0 {
		t.Fatal("no committed seeds in testdata/fuzz/FuzzApply")
	}
	seeds = append(seeds, committed...)
	var total feStats
	for _, s := range seeds {
		total.add(feRun(t, s.program, s.docs))
	}
	t.Logf("%d seeds: %+v", len(seeds), total)
	// The seeds must exercise every kind of operation and the one quirk
	// the harness tolerates, or the harness is not doing what it claims.
	if total.applied == 0 || total.forced == 0 || total.updated == 0 || total.conflicts == 0 || total.retried == 0 || total.quirks == 0 || total.fromDoc == 0 {
		t.Errorf("seeds do not cover every operation: %+v", total)
	}
}

// feCommittedSeeds reads the corpus committed under testdata/fuzz/FuzzApply
// (files in go test's corpus format: a []byte and a string line).
func feCommittedSeeds(t *testing.T) []feSeed {
	t.Helper()
	files, err := filepath.Glob("testdata/fuzz/FuzzApply/*")
	if err != nil {
		t.Fatal(err)
	}
	var seeds []feSeed
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) != 3 || lines[0] != "go test fuzz v1" ||
			!strings.HasPrefix(lines[1], "[]byte(") || !strings.HasPrefix(lines[2], "string(") {
			t.Fatalf("%s: not a FuzzApply corpus file", name)
		}
		program, err1 := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		docs, err2 := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[2], "string("), ")"))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", name, err1, err2)
		}
		seeds = append(seeds, feSeed{[]byte(program), docs})
	}
	return seeds
}

// TestApplyRandomPrograms runs random programs through FuzzApply's
// harness: a property test that needs no fuzzing engine. It logs its seed;
// FE_SEED=n reruns one seed and FE_PROGRAMS=n changes how many programs run.
func TestApplyRandomPrograms(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	if v, err := strconv.Atoi(os.Getenv("FE_PROGRAMS")); err == nil {
		n = v
	}
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("FE_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("FE_SEED=%d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	var total feStats
	for i := range n {
		program := make([]byte, 2+r.IntN(120))
		for j := range program {
			program[j] = byte(r.Uint32())
		}
		total.add(feRun(t, program, ""))
		if t.Failed() {
			t.Fatalf("program %d: %x", i, program)
		}
	}
	t.Logf("%d programs: %+v", n, total)
}

// TestFuzzQuirkScenarios runs the scenarios of testdata/fuzz/quirks on
// structmerge. Each shows where an invariant of FuzzApply holds only up to
// null against an empty list or map (or, for the deduced type, only for map
// roots), which FuzzApply accepts; conformance's TestReliabilityQuirksOnSMD
// checks that the reference does the same.
func TestFuzzQuirkScenarios(t *testing.T) {
	var out strings.Builder
	if code := scenario.RunPaths(&out, native.Engine{}, []string{"../testdata/fuzz/quirks"}); code != 0 {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), " passed, 0 failed") || strings.Contains(out.String(), "\n0 passed") {
		t.Errorf("unexpected report:\n%s", out.String())
	}
}

// TestMinimizedOnFailure breaks one invariant on purpose (an update whose
// result is said to differ from its object when the object sets a field
// named like the schema's first) and checks that the report is a scenario
// file, minimised down to one step that still fails, which runs as a
// scenario.
func TestMinimizedOnFailure(t *testing.T) {
	for i := range 200 {
		program := []byte(fmt.Sprint("minimise", i))
		p := feProgram(program, "")
		fails := func(sc *gen.Scenario) bool { return feBroken(p.typ, sc) != nil }
		sc := p.record(20)
		if !fails(sc) {
			continue
		}
		small := gen.Minimize(sc, fails, 2000)
		if len(small.Steps) != 1 || small.Steps[0].Op.Op != scenario.OpUpdate {
			t.Fatalf("minimised to %d steps, not to the one failing update:\n%s", len(small.Steps), small.YAML())
		}
		if obj, _ := small.Steps[0].Op.Object.(map[string]any); len(obj) != 1 {
			t.Fatalf("the failing object was not minimised to one field:\n%s", small.YAML())
		}
		f, err := scenario.Parse("minimised.yaml", small.YAML())
		if err != nil {
			t.Fatalf("the minimised scenario does not parse: %v\n%s", err, small.YAML())
		}
		if _, err := (native.Engine{}).Compile(f.Schema.Text, f.Type); err != nil {
			t.Fatalf("the minimised scenario's schema does not compile: %v", err)
		}
		return
	}
	t.Fatal("no program made an update that sets the first field")
}

// feBroken replays sc with a deliberately wrong invariant: an update must
// not set the first field of the root type.
func feBroken(typ *schema.Type, sc *gen.Scenario) error {
	first := typ.Map().Fields()[0].Name()
	for _, st := range sc.Steps {
		if obj, ok := st.Op.Object.(map[string]any); ok && st.Op.Op == scenario.OpUpdate {
			if _, set := obj[first]; set {
				return fmt.Errorf("update sets %s", first)
			}
		}
	}
	return nil
}

// The program's random source.

// feBytes is a random source that reads a program eight bytes at a time
// (a short read is padded with zeros). Past its end it goes on with a
// generator seeded by a hash of the program, so that every input runs
// feMaxSteps operations however short it is (the fuzzing engine keeps its
// inputs short), and the same program always makes the same choices (and
// draws the same schema, whatever the documents).
type feBytes struct {
	b    []byte
	seed uint64
	rng  *rand.PCG
}

func newFeBytes(program []byte) *feBytes {
	h := fnv.New64a()
	h.Write(program)
	return &feBytes{b: program, seed: h.Sum64()}
}

// Uint64 implements rand.Source.
func (s *feBytes) Uint64() uint64 {
	if len(s.b) > 0 {
		var x uint64
		for i := range 8 {
			if i < len(s.b) {
				x |= uint64(s.b[i]) << (8 * i)
			}
		}
		s.b = s.b[min(8, len(s.b)):]
		return x
	}
	if s.rng == nil {
		s.rng = rand.NewPCG(s.seed, 0x5eed)
	}
	return s.rng.Uint64()
}

// Running a program.

var (
	feManagers = []string{"kubectl", "controller", "hpa", "ops"}
	feVersions = []string{"v1", "v2"}
)

// Operation kinds.
const (
	feApply = iota
	feForceApply
	feUpdate
	feApplyRetry // apply; on conflict, apply again with Force
)

// Where an operation's object comes from.
const (
	feFromDoc    = iota // a document of the stream
	feFromFresh         // generated from the schema
	feFromEvolve        // the manager's last configuration (for an update, the live object) changed by the generator
	feFromLive          // a few fields of the live object (for an update, the live object minus a few fields)
	feFromOther         // another manager's last configuration
	feFromEmpty         // an empty object
	feNumSources
)

const (
	feMaxSteps = 12
	feMaxDocs  = 16
)

type feStats struct {
	applied, forced, updated, conflicts, retried, skipped, fromDoc int
	quirks                                                         int // second applies that conflicted over null against {} (feCheckReapply)
}

func (s *feStats) add(o feStats) {
	s.applied += o.applied
	s.forced += o.forced
	s.updated += o.updated
	s.conflicts += o.conflicts
	s.retried += o.retried
	s.skipped += o.skipped
	s.fromDoc += o.fromDoc
	s.quirks += o.quirks
}

// feProg is a program being run: the generator, the schema it drew and
// the documents of the stream that fit it.
type feProg struct {
	r    *rand.Rand
	s    *gen.Schema
	vals *gen.Values
	typ  *schema.Type
	pool []feDoc
}

// feProgram draws a program's schema and reads its documents.
func feProgram(program []byte, docs string) *feProg {
	r := rand.New(newFeBytes(program))
	s := gen.Generate(r, gen.Options{MaxTypes: 6})
	compiled, err := schema.CompileYAML(s.YAML())
	if err != nil {
		panic(fmt.Sprintf("a generated schema does not compile: %v\n%s", err, s.YAML()))
	}
	typ, _ := compiled.Type(s.Root)
	p := &feProg{r: r, s: s, vals: &gen.Values{S: s, R: r, MaxDepth: 5}, typ: typ}
	// The documents: those that fit the type strictly (duplicates in a
	// keyed list are a different story, not this one's).
	if ds, err := value.FromYAMLDocuments([]byte(docs), value.MaxDepth(32), value.MaxBytes(1<<16)); err == nil {
		for i, d := range ds {
			if i == feMaxDocs {
				break
			}
			k := d.Value.Kind()
			ok := (k == value.Map || k == value.Null) && typed.Validate(typ, d.Value) == nil
			p.pool = append(p.pool, feDoc{d.Value, ok})
		}
	}
	return p
}

// object converts a generated value.
func (p *feProg) object(x any) value.Value {
	v, err := value.FromUnstructured(x)
	if err != nil {
		panic(fmt.Sprintf("a generated value does not convert: %v", err))
	}
	return v
}

// record draws a program of at most n operations without running them
// (every object is fresh or a change of the last one): the input of
// TestMinimizedOnFailure.
func (p *feProg) record(n int) *gen.Scenario {
	sc := &gen.Scenario{Schema: p.s.YAML(), Type: p.s.Root}
	var last any = map[string]any{}
	for range n {
		obj := p.vals.Object()
		if p.r.IntN(2) == 0 {
			obj = p.vals.Mutate(p.s.RootType(), last)
		}
		last = obj
		op := [...]string{scenario.OpApply, scenario.OpForceApply, scenario.OpUpdate}[p.r.IntN(3)]
		sc.Steps = append(sc.Steps, gen.Step{Op: scenario.Operation{Op: op, Manager: feManagers[p.r.IntN(len(feManagers))], APIVersion: feVersions[p.r.IntN(len(feVersions))], Object: obj}})
	}
	return sc
}

// feState is the live object and its managers between operations.
type feState struct {
	live     value.Value
	managers fieldpath.Managers
}

// feRun runs one program (see FuzzApply) and checks the invariants after
// every operation. On a failure it prints the operations so far as a
// scenario file, minimised.
func feRun(t *testing.T, program []byte, docs string) feStats {
	t.Helper()
	var st feStats
	p := feProgram(program, docs)
	typ := p.typ
	u, err := merge.NewUpdater()
	if err != nil {
		t.Fatal(err)
	}
	live := value.NewNull()
	switch p.r.IntN(3) {
	case 1:
		if len(p.pool) > 0 && p.pool[0].ok {
			live = p.pool[0].v
		}
	case 2:
		live = p.object(p.vals.Object())
	}
	sc := &gen.Scenario{
		Description: fmt.Sprintf("FuzzApply program %x, documents %q.", program, docs),
		Schema:      p.s.YAML(), Type: p.s.Root,
	}
	state := feState{live: value.NewNull()}
	if live.Kind() != value.Null {
		// The starting object is created by an update, as an object is on
		// an API server, so that every field of it has an owner. (An
		// object with fields nobody owns loses them to the next applies
		// in ways the reference shares; Kubernetes never stores one.)
		sc.Steps = append(sc.Steps, gen.Step{Op: scenario.Operation{Op: scenario.OpUpdate, Manager: "creator", APIVersion: "v1", Object: live.Unstructured()}})
		if _, err := feStep(u, typ, &state, sc.Steps[0].Op, live, &st); err != nil {
			feReport(t, typ, sc, err)
		}
	}
	last := map[string]value.Value{}
	for range feMaxSteps {
		kind := p.r.IntN(4)
		name := feManagers[p.r.IntN(len(feManagers))]
		version := feVersions[p.r.IntN(len(feVersions))]
		obj, src, ok, err := p.source(kind == feUpdate, state.live, last[name], last)
		if err != nil {
			t.Fatalf("making the object of the next operation: %v", err)
		}
		if !ok {
			st.skipped++
			continue
		}
		if src == "doc" {
			st.fromDoc++
		}
		ops := []string{[...]string{scenario.OpApply, scenario.OpForceApply, scenario.OpUpdate, scenario.OpApply}[kind]}
		for _, op := range ops {
			sc.Steps = append(sc.Steps, gen.Step{Op: scenario.Operation{Op: op, Manager: name, APIVersion: version, Object: obj.Unstructured()}})
			conflicted, err := feStep(u, typ, &state, sc.Steps[len(sc.Steps)-1].Op, obj, &st)
			if err != nil {
				feReport(t, typ, sc, err)
			}
			if conflicted && kind == feApplyRetry && len(ops) == 1 {
				st.retried++
				ops = append(ops, scenario.OpForceApply)
			}
		}
		if kind != feUpdate {
			last[name] = obj
		}
	}
	return st
}

// feReport fails the test with err and the scenario that led to it,
// minimised as long as replaying it still fails.
func feReport(t *testing.T, typ *schema.Type, sc *gen.Scenario, err error) {
	t.Helper()
	fails := func(c *gen.Scenario) bool { return feReplay(typ, c) != nil }
	if !fails(sc) {
		t.Fatalf("%v\n(the failure does not replay from the scenario file; the operations were:)\n%s", err, sc.YAML())
	}
	small := gen.Minimize(sc, fails, 2000)
	small.Description = sc.Description + " Minimised; it fails with: " + strings.ReplaceAll(feReplay(typ, small).Error(), "\n", " ")
	t.Fatalf("%v\nminimised scenario (the failure is the last step's):\n%s", err, small.YAML())
}

// feReplay runs the steps of sc, checking the invariants, and returns the
// first failure.
func feReplay(typ *schema.Type, sc *gen.Scenario) error {
	u, err := merge.NewUpdater()
	if err != nil {
		return err
	}
	state := feState{live: value.NewNull()}
	if sc.Live.HasObject {
		if state.live, err = value.FromUnstructured(sc.Live.Object); err != nil {
			return err
		}
	}
	var st feStats
	for _, step := range sc.Steps {
		obj, err := value.FromUnstructured(step.Op.Object)
		if err != nil {
			return err
		}
		if typed.Validate(typ, obj) != nil {
			// A shrunk object may no longer fit (a list item without its key).
			return nil
		}
		if _, err := feStep(u, typ, &state, step.Op, obj, &st); err != nil {
			return err
		}
	}
	return nil
}

// feFailure is how a check inside feStep stops it.
type feFailure struct{ msg string }

// feStep runs one operation on state, checks the invariants and moves
// state on. conflicted says that an apply failed with conflicts (state is
// then unchanged).
func feStep(u *merge.Updater, typ *schema.Type, state *feState, op scenario.Operation, obj value.Value, st *feStats) (conflicted bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(feFailure); ok {
				err = errors.New(f.msg)
				return
			}
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	fail := func(format string, args ...any) {
		panic(feFailure{fmt.Sprintf("%s by %s@%s of %s: ", op.Op, op.Manager, op.APIVersion, value.ToJSON(obj)) + fmt.Sprintf(format, args...)})
	}
	live, managers := state.live, state.managers
	name, version := op.Manager, op.APIVersion
	by := merge.Writer{Manager: name, APIVersion: version}
	if err := typed.Validate(typ, obj); err != nil {
		// Generated and derived objects are built to fit; one that does
		// not is a bug in the generator or in a typed operation.
		fail("the object does not validate: %v", err)
	}
	liveJSON := value.ToJSON(live)
	objJSON := value.ToJSON(obj)
	before := managers.Copy()
	liveT := typed.NewUnvalidated(typ, live)
	objT := typed.NewUnvalidated(typ, obj)

	var res typed.Value
	var after fieldpath.Managers
	switch op.Op {
	case scenario.OpUpdate:
		st.updated++
		res, after, err = u.Update(liveT, objT, managers, by)
		if err != nil {
			fail("update failed: %v", err)
		}
	case scenario.OpForceApply:
		st.forced++
		// What an apply without force conflicts on is what the forced one
		// takes.
		_, _, plain := u.Apply(liveT, objT, managers, by)
		res, after, err = u.Apply(liveT, objT, managers, by, merge.Force())
		if err != nil {
			fail("forced apply failed: %v", err)
		}
		var cs merge.Conflicts
		if errors.As(plain, &cs) {
			for _, cf := range cs {
				if after[cf.Manager].Set.Has(cf.Path) {
					fail("after forcing, %s still owns its conflicting field %v", cf.Manager, cf.Path)
				}
			}
		}
	default:
		st.applied++
		res, after, err = u.Apply(liveT, objT, managers, by)
		if err != nil {
			var cs merge.Conflicts
			if !errors.As(err, &cs) {
				fail("apply failed: %v", err)
			}
			st.conflicts++
			feCheckConflicts(fail, cs, managers, name)
			feCheckUnchanged(fail, live, liveJSON, obj, objJSON, managers, before)
			return true, nil
		}
	}
	feCheckUnchanged(fail, live, liveJSON, obj, objJSON, managers, before)
	result := res.Value()
	if res.Type() != typ {
		fail("the result has another type")
	}
	if err := typed.Validate(typ, result); err != nil {
		fail("the result does not validate: %v\n%s", err, value.ToJSON(result))
	}
	cmp, err := typed.Compare(typ, live, result)
	if err != nil {
		fail("compare live and result: %v", err)
	}
	changed := cmp.Added.Union(cmp.Modified).Union(cmp.Removed)
	for _, m := range managers.Names() {
		if m == name {
			continue
		}
		was, now := managers[m].Set, after[m].Set
		if gained := now.Difference(was); !gained.Empty() {
			fail("%s gained fields it did not write:\n%v", m, gained)
		}
		if lost := was.Difference(now).Difference(changed); !lost.Empty() {
			fail("%s lost fields the %s did not change:\n%v\nchanges:\n%v", m, op.Op, lost, cmp)
		}
		if _, ok := after[m]; ok && (after[m].APIVersion != managers[m].APIVersion || after[m].Applied != managers[m].Applied) {
			fail("%s changed version or operation: %+v -> %+v", m, managers[m], after[m])
		}
	}
	for _, m := range after.Names() {
		if after[m].Set.Empty() {
			fail("manager %s is listed with an empty set", m)
		}
	}

	if op.Op == scenario.OpUpdate {
		if !value.Equal(result, obj) {
			fail("update stored %s, not the object", value.ToJSON(result))
		}
		mine := after[name]
		if wrote := cmp.Added.Union(cmp.Modified); !wrote.Difference(mine.Set).Empty() {
			fail("after the update %s does not own what it wrote:\n%v", name, wrote.Difference(mine.Set))
		}
		if !mine.Set.Empty() && (mine.Applied || mine.APIVersion != version) {
			fail("updater entry %+v", mine)
		}
		again, after2, err := u.Update(res, objT, after, by)
		if err != nil {
			fail("second identical update failed: %v", err)
		}
		if !value.Equal(again.Value(), result) || !after2.Equal(after) {
			fail("second identical update was not a no-op:\nmanagers %v\nthen     %v", feManagersString(after), feManagersString(after2))
		}
	} else {
		want, err := typed.FieldSet(typ, obj)
		if err != nil {
			fail("field set of the configuration: %v", err)
		}
		mine := after[name]
		if !mine.Set.Equal(want) {
			fail("after the apply %s owns\n%v\nnot its configuration's fields\n%v", name, mine.Set, want)
		}
		if !mine.Set.Empty() && (!mine.Applied || mine.APIVersion != version) {
			fail("applier entry %+v", mine)
		}
		remergedT, err := typed.NewUnvalidated(typ, result).Merge(typed.NewUnvalidated(typ, obj))
		if err != nil {
			fail("merging the configuration into the result: %v", err)
		}
		remerged := remergedT.Value()
		// Only the configuration's fields count: an apply that prunes a
		// list or map down to nothing leaves null where the configuration
		// says [] or {}, which is no field of anyone's.
		d, err := typed.Compare(typ, result, remerged)
		if err != nil {
			fail("compare the result with the configuration merged again: %v", err)
		}
		if diff := feRealChanges(typ, d.Added.Union(d.Modified).Union(d.Removed).Intersection(want), result, remerged); !diff.Empty() {
			fail("the result does not hold the configuration: merging it again gives\n%s\nnot\n%s\nchanging\n%v", value.ToJSON(remerged), value.ToJSON(result), diff)
		}
		if feCheckReapply(fail, u, typ, res, objT, version, after, name, remerged) {
			st.quirks++
		}
	}
	feCheckRoundTrips(fail, result, after)
	state.live, state.managers = result, after
	return false, nil
}

// feCheckReapply applies the configuration obj again, twice, by the same
// manager, after an apply that gave res and managers. The second apply must
// be a no-op up to null standing for an empty list or map, the third an
// exact one.
//
// There is one exception, which the reference shares (docs/reliability.md):
// when the first apply pruned an empty list or map of the configuration
// down to null, and another manager owns that field too, the second apply
// conflicts with it over null against {}. feCheckReapply accepts a conflict
// whose every field differs that way only, and reports that it did.
func feCheckReapply(fail func(string, ...any), u *merge.Updater, typ *schema.Type, res, obj typed.Value, version string, managers fieldpath.Managers, name string, remerged value.Value) (quirk bool) {
	result := res.Value()
	again, after2, err := u.Apply(res, obj, managers, merge.Writer{Manager: name, APIVersion: version})
	if err != nil {
		var cs merge.Conflicts
		if !errors.As(err, &cs) || !feRealChanges(typ, cs.Set(), result, remerged).Empty() {
			fail("second identical apply failed: %v", err)
		}
		return true
	}
	if !feSameUpToEmpty(again.Value(), result) {
		fail("second identical apply changed the object:\n%s\nthen\n%s", value.ToJSON(result), value.ToJSON(again.Value()))
	}
	if d, err := typed.Compare(typ, result, again.Value()); err != nil {
		fail("compare the results of two identical applies: %v", err)
	} else if diff := feRealChanges(typ, d.Added.Union(d.Modified).Union(d.Removed).Intersection(feOwned(managers)), result, again.Value()); !diff.Empty() {
		fail("second identical apply changed owned fields:\n%v", diff)
	}
	if !after2.Equal(managers) {
		fail("second identical apply changed the managers:\n%v\nthen\n%v", feManagersString(managers), feManagersString(after2))
	}
	third, after3, err := u.Apply(again, obj, after2, merge.Writer{Manager: name, APIVersion: version})
	if err != nil {
		fail("third identical apply failed: %v", err)
	}
	if !value.Equal(third.Value(), again.Value()) || !after3.Equal(after2) {
		fail("third identical apply was not a no-op:\n%s\nthen\n%s\nmanagers\n%v\nthen\n%v", value.ToJSON(again.Value()), value.ToJSON(third.Value()), feManagersString(after2), feManagersString(after3))
	}
	return false
}

// source makes the object of one operation and says where it came from.
// It returns ok false when the program picks a document that is not there
// or does not fit the type, and an error when a typed operation fails on
// valid values.
func (p *feProg) source(update bool, live, mine value.Value, last map[string]value.Value) (v value.Value, src string, ok bool, err error) {
	typ := p.typ
	switch p.r.IntN(feNumSources) {
	case feFromDoc:
		i := p.r.IntN(max(len(p.pool), 1))
		if i >= len(p.pool) || !p.pool[i].ok {
			return value.Value{}, "", false, nil
		}
		return p.pool[i].v, "doc", true, nil
	case feFromFresh:
		return p.object(p.vals.Object()), "fresh", true, nil
	case feFromEvolve:
		base := mine
		if update {
			base = live
		}
		if base.Kind() == value.Null {
			base = value.NewMap(nil)
		}
		v := feOrEmpty(typ, p.object(p.vals.Mutate(p.s.RootType(), base.Unstructured())))
		if typed.Validate(typ, v) != nil {
			// A change can repeat a key of a keyed list (configurations
			// must not; the conformance tests send such ones on purpose).
			return value.Value{}, "", false, nil
		}
		return v, "evolved", true, nil
	case feFromLive:
		set, err := typed.FieldSet(typ, live)
		if err != nil {
			return value.Value{}, "", false, fmt.Errorf("field set of the live object: %w", err)
		}
		subset := p.pickPaths(set)
		if update {
			return feOrEmpty(typ, typed.RemoveItems(typ, live, subset)), "live minus some", true, nil
		}
		return feOrEmpty(typ, typed.ExtractItems(typ, live, subset, typed.WithKeyFields())), "part of live", true, nil
	case feFromOther:
		other := feManagers[p.r.IntN(len(feManagers))]
		if v, ok := last[other]; ok {
			return v, "config of " + other, true, nil
		}
	}
	return feOrEmpty(typ, value.NewNull()), "empty", true, nil
}

// pickPaths returns a few paths of s chosen by the program.
func (p *feProg) pickPaths(s *fieldpath.Set) *fieldpath.Set {
	size := s.Size()
	if size == 0 {
		return nil
	}
	var picked []fieldpath.Path
	for n := p.r.IntN(4); n > 0; n-- {
		want, i := p.r.IntN(size), 0
		for path := range s.All() {
			if i == want {
				picked = append(picked, path.Copy())
				break
			}
			i++
		}
	}
	return fieldpath.NewSet(picked...)
}

// feDoc is a document of the input stream and whether it fits the type.
type feDoc struct {
	v  value.Value
	ok bool
}

func feOrEmpty(typ *schema.Type, v value.Value) value.Value {
	if v.Kind() == value.Null && typ.Map() != nil {
		return value.NewMap(nil)
	}
	return v
}

func feCheckConflicts(fail func(string, ...any), cs merge.Conflicts, managers fieldpath.Managers, applier string) {
	if len(cs) == 0 {
		fail("empty Conflicts error")
	}
	for _, cf := range cs {
		if cf.Manager == applier {
			fail("conflict with the applier itself: %v", cf)
		}
		if !managers[cf.Manager].Set.Has(cf.Path) {
			fail("conflict %v names a field the manager does not own", cf)
		}
	}
}

func feCheckUnchanged(fail func(string, ...any), live value.Value, liveJSON []byte, obj value.Value, objJSON []byte, managers, before fieldpath.Managers) {
	if !bytes.Equal(value.ToJSON(live), liveJSON) || !bytes.Equal(value.ToJSON(obj), objJSON) {
		fail("the operation modified its object arguments")
	}
	if !managers.Equal(before) {
		fail("the operation modified the managers it was given")
	}
}

func feCheckRoundTrips(fail func(string, ...any), v value.Value, managers fieldpath.Managers) {
	if feValidUTF8(v) {
		enc := value.ToJSON(v)
		back, err := value.FromJSON(enc)
		if err != nil || !value.Equal(back, v) {
			fail("JSON round trip of %s: %s, %v", enc, value.ToJSON(back), err)
		}
		y := value.ToYAML(v)
		back, err = value.FromYAML(y)
		if err != nil || !value.Equal(back, v) {
			fail("YAML round trip of\n%s: %s, %v", y, value.ToJSON(back), err)
		}
	}
	for _, m := range managers.Names() {
		s := managers[m].Set
		enc := s.MarshalFieldsV1()
		back, err := fieldpath.ParseFieldsV1(enc)
		if err != nil || !back.Equal(s) {
			fail("FieldsV1 round trip of %s's set %s: %v\n%v", m, enc, err, back)
		}
		if again := back.MarshalFieldsV1(); !bytes.Equal(again, enc) {
			fail("FieldsV1 encoding not stable: %s then %s", enc, again)
		}
	}
}

// feSameUpToEmpty reports whether a and b are equal once empty lists and
// maps, and map fields left holding nothing but null, are dropped. Pruning
// leaves null where the last field of a map or the last item of a list was
// removed (the root included), and a later apply of the same configuration
// merges the configuration's {} or [] back in: the reference does the same
// (checked with conformance/reliability_oracle_test.go, see
// docs/reliability.md), so the second apply of a configuration is a no-op up
// to that, and the third an exact one.
func feSameUpToEmpty(a, b value.Value) bool {
	return value.Equal(feDropEmpty(a), feDropEmpty(b))
}

// feDropEmpty returns v without empty lists and maps and without map
// fields that are (or become) null; a list or map left empty is null.
func feDropEmpty(v value.Value) value.Value {
	switch v.Kind() {
	case value.Map:
		var fs []value.Field
		for _, f := range v.Fields() {
			if fv := feDropEmpty(f.Value); fv.Kind() != value.Null {
				fs = append(fs, value.Field{Name: f.Name, Value: fv})
			}
		}
		if len(fs) == 0 {
			return value.NewNull()
		}
		return value.NewMap(fs)
	case value.List:
		if len(own.Value.Items(v)) == 0 {
			return value.NewNull()
		}
		items := make([]value.Value, len(own.Value.Items(v)))
		for i, it := range v.Items() {
			items[i] = feDropEmpty(it)
		}
		return value.NewList(items)
	}
	return v
}

// feRealChanges returns the paths of diff at which a and b differ by more
// than null against an empty list or map: pruning leaves null where the
// configuration has an empty {} or [] (an owned field included), as the
// reference does.
func feRealChanges(typ *schema.Type, diff *fieldpath.Set, a, b value.Value) *fieldpath.Set {
	return diff.Filter(func(p fieldpath.Path) bool {
		return !value.Equal(feEmptyToNull(feAt(a, p)), feEmptyToNull(feAt(b, p)))
	})
}

// feAt returns the value at p in v, or null where there is none (an
// absent field and a null one are the same here).
func feAt(v value.Value, p fieldpath.Path) value.Value {
	for _, e := range p {
		var next value.Value
		found := false
		switch e.Kind() {
		case fieldpath.FieldNameKind:
			next, found = v.Get(e.FieldName())
		case fieldpath.IndexKind:
			if items := own.Value.Items(v); e.Index() < len(items) {
				next, found = items[e.Index()], true
			}
		case fieldpath.ValueKind:
			for _, it := range v.Items() {
				if value.Equal(it, e.Value()) {
					next, found = it, true
					break
				}
			}
		case fieldpath.KeyKind:
			for _, it := range v.Items() {
				match := true
				for _, k := range e.Key() {
					if x, ok := it.Get(k.Name); !ok || !value.Equal(x, k.Value) {
						match = false
						break
					}
				}
				if match {
					next, found = it, true
					break
				}
			}
		}
		if !found {
			return value.NewNull()
		}
		v = next
	}
	return v
}

// feEmptyToNull returns v with every empty list and map replaced by null,
// and every field whose value becomes null dropped: pruning that empties a
// map leaves null, up to the root (see the quirks in docs/reliability.md).
func feEmptyToNull(v value.Value) value.Value {
	switch v.Kind() {
	case value.Map:
		var fs []value.Field
		for _, f := range v.Fields() {
			if x := feEmptyToNull(f.Value); x.Kind() != value.Null {
				fs = append(fs, value.Field{Name: f.Name, Value: x})
			}
		}
		if len(fs) == 0 {
			return value.NewNull()
		}
		return value.NewMap(fs)
	case value.List:
		if len(own.Value.Items(v)) == 0 {
			return value.NewNull()
		}
		items := make([]value.Value, len(own.Value.Items(v)))
		for i, it := range v.Items() {
			items[i] = feEmptyToNull(it)
		}
		return value.NewList(items)
	}
	return v
}

// feOwned returns every field some manager owns.
func feOwned(ms fieldpath.Managers) *fieldpath.Set {
	var s *fieldpath.Set
	for _, n := range ms.Names() {
		s = s.Union(ms[n].Set)
	}
	return s
}

func feValidUTF8(v value.Value) bool {
	switch v.Kind() {
	case value.String:
		return utf8.ValidString(v.AsString())
	case value.List:
		for _, it := range v.Items() {
			if !feValidUTF8(it) {
				return false
			}
		}
	case value.Map:
		for _, f := range v.Fields() {
			if !utf8.ValidString(f.Name) || !feValidUTF8(f.Value) {
				return false
			}
		}
	}
	return true
}

func feManagersString(ms fieldpath.Managers) string {
	var b strings.Builder
	for _, n := range ms.Names() {
		fmt.Fprintf(&b, "%s@%s applied=%v %s\n", n, ms[n].APIVersion, ms[n].Applied, ms[n].Set.MarshalFieldsV1())
	}
	return b.String()
}

// Seeds.

type feSeed struct {
	program []byte
	docs    string
}

// feSeeds returns generated programs, with and without a stream of
// documents (objects of the schema their first bytes draw, written by the
// generator).
func feSeeds() []feSeed {
	var seeds []feSeed
	for k := range 48 {
		r := rand.New(rand.NewPCG(uint64(k), 0xfe))
		program := make([]byte, 8+r.IntN(56))
		for i := range program {
			program[i] = byte(r.Uint32())
		}
		docs := ""
		if k%2 == 1 {
			p := feProgram(program, "")
			texts := make([]string, 1+r.IntN(6))
			for i := range texts {
				texts[i] = gen.FormatValue(p.vals.Object())
			}
			docs = strings.Join(texts, "\n---\n")
		}
		seeds = append(seeds, feSeed{program, docs})
	}
	return seeds
}

package merge_test

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// FuzzApply drives the merge engine with random operations: applies
// (forced or not) and updates by a few managers at two API versions, on
// random live objects, for one of a few fixed schemas. Its input is a
// program (bytes read as a sequence of choices, see feRun, continued by a
// generator seeded from the input once they run out) and a YAML stream of
// documents the program can pick objects from; everything else is generated
// from the program's choices, so the same input always runs the same
// operations.
//
// After every operation it checks:
//   - nothing panics, the inputs are unchanged and the result validates;
//   - an apply either succeeds or fails with Conflicts (never when forced),
//     and conflicts name fields the named manager owns;
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
func FuzzApply(f *testing.F) {
	for _, s := range feSeeds(f) {
		f.Add(s.program, s.docs)
	}
	schemas := feLoadSchemas(f)
	f.Fuzz(func(t *testing.T, program []byte, docs string) {
		feRun(t, schemas, program, docs)
	})
}

// TestApplyFuzzSeeds runs FuzzApply's seeds as a plain test, with a log of
// what each one did, so that `go test -run ApplyFuzzSeeds -v` shows the
// harness at work.
func TestApplyFuzzSeeds(t *testing.T) {
	schemas := feLoadSchemas(t)
	seeds := feSeeds(t)
	if len(seeds) < 50 {
		t.Fatalf("only %d seeds; the scenario corpus was not found", len(seeds))
	}
	committed := feCommittedSeeds(t)
	if len(committed) == 0 {
		t.Fatal("no committed seeds in testdata/fuzz/FuzzApply")
	}
	seeds = append(seeds, committed...)
	var total feStats
	for _, s := range seeds {
		st := feRun(t, schemas, s.program, s.docs)
		total.add(st)
	}
	t.Logf("%d seeds: %+v", len(seeds), total)
	// The seeds must exercise every kind of operation and the one quirk
	// the harness tolerates, or the harness is not doing what it claims.
	if total.applied == 0 || total.forced == 0 || total.updated == 0 || total.conflicts == 0 || total.retried == 0 || total.quirks == 0 {
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
	schemas := feLoadSchemas(t)
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
		total.add(feRun(t, schemas, program, ""))
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

// Schemas.

type feSchema struct {
	name string
	typ  *schema.Type
}

// feTreeSchema is a recursive type with a keyed list and a map of itself, an
// atomic override of itself, a set of numbers and a deduced field.
const feTreeSchema = `types:
- name: node
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: size
      type: {scalar: numeric}
    - name: children
      type:
        list:
          elementType: {namedType: node}
          elementRelationship: associative
          keys: [name]
    - name: byName
      type:
        map:
          elementType: {namedType: node}
    - name: frozen
      type: {namedType: node, elementRelationship: atomic}
    - name: numbers
      type:
        list:
          elementType: {scalar: numeric}
          elementRelationship: associative
    - name: anything
      type: {namedType: __untyped_deduced_}
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_deduced_}
    elementRelationship: separable
`

// The schemas a program chooses from, by its first byte.
const (
	feWidget = iota
	feDeduced
	feTree
	feNumSchemas
)

func feLoadSchemas(tb testing.TB) []feSchema {
	tb.Helper()
	data, err := os.ReadFile("testdata/basic.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	basic, err := schema.CompileYAML(data)
	if err != nil {
		tb.Fatal(err)
	}
	w, ok := basic.Type("widget")
	if !ok {
		tb.Fatal("basic.yaml has no widget type")
	}
	tree, err := schema.CompileYAML([]byte(feTreeSchema))
	if err != nil {
		tb.Fatal(err)
	}
	node, _ := tree.Type("node")
	out := make([]feSchema, feNumSchemas)
	out[feWidget] = feSchema{"widget", w}
	out[feDeduced] = feSchema{"deduced", schema.Deduced()}
	out[feTree] = feSchema{"tree", node}
	return out
}

// Reading choices.

// feChoices reads a program one byte at a time. Past its end it goes on
// with bytes drawn from a generator seeded by a hash of the whole input
// (program and documents), so that every input runs feMaxSteps operations
// however short it is (the fuzzing engine keeps its inputs short), and the
// same input always makes the same choices.
type feChoices struct {
	b    []byte
	i    int
	seed uint64
	rng  *rand.Rand
}

func newFeChoices(program []byte, docs string) *feChoices {
	h := fnv.New64a()
	h.Write(program)
	h.Write([]byte{0})
	h.Write([]byte(docs))
	return &feChoices{b: program, seed: h.Sum64()}
}

func (c *feChoices) next() byte {
	if c.i < len(c.b) {
		c.i++
		return c.b[c.i-1]
	}
	if c.rng == nil {
		c.rng = rand.New(rand.NewPCG(c.seed, 0x5eed))
	}
	return byte(c.rng.Uint32())
}

func (c *feChoices) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(c.next()) % n
}

// Generating values that fit a type.

// Pools of scalars: small, so that generated values collide on keys and
// values, with a few that are hard to encode or compare.
var (
	feStrings = []value.Value{
		value.NewString("a"), value.NewString("b"), value.NewString("c"), value.NewString(""),
		value.NewString("x"), value.NewString("TCP"), value.NewString("yes"), value.NewString("null"),
		value.NewString("1"), value.NewString("a.b"), value.NewString("[x]"), value.NewString("é"),
		value.NewString("with space"), value.NewString("line\nbreak"), value.NewString(`"q"`), value.NewString("<&>"),
	}
	feNumbers = []value.Value{
		value.NewInt(0), value.NewInt(1), value.NewInt(2), value.NewInt(80), value.NewInt(-1),
		value.NewFloat(0.5), value.NewFloat(1), value.NewFloat(2.5), value.NewFloat(1e20), value.NewInt(math.MaxInt64),
		value.NewInt(math.MinInt64), value.NewFloat(-0.25), value.NewInt(443), value.NewFloat(1e-7), value.NewInt(3), value.NewFloat(80),
	}
	feKeyStrings = []value.Value{value.NewString("a"), value.NewString("b"), value.NewString("c"), value.NewString("TCP"), value.NewString("UDP")}
	feKeyNumbers = []value.Value{value.NewInt(80), value.NewInt(443), value.NewInt(1), value.NewFloat(8080)}
	feMapKeys    = []string{"k1", "k2", "k3", "a", "x", "a.b", "é", ""}
)

const (
	feMaxDepth = 5
	feBudget   = 48 // nodes per generated value
)

type feGen struct {
	c      *feChoices
	budget int
}

// root returns an object of type t: always a map, as Kubernetes objects
// are. (On both engines, an apply that turns a map root of the deduced type
// into a list prunes the list away: see docs/reliability.md.)
func (g *feGen) root(t *schema.Type) value.Value {
	g.budget = feBudget
	if t.Map() == nil {
		return g.value(t, 0)
	}
	return g.mapValue(t.Map(), 0, nil)
}

func (g *feGen) scalar(k schema.ScalarKind) value.Value {
	switch k {
	case schema.String:
		return feStrings[g.c.intn(len(feStrings))]
	case schema.Numeric:
		return feNumbers[g.c.intn(len(feNumbers))]
	case schema.Boolean:
		return value.NewBool(g.c.next()&1 == 1)
	case schema.Untyped:
		switch g.c.intn(3) {
		case 0:
			return g.scalar(schema.String)
		case 1:
			return g.scalar(schema.Numeric)
		}
		return g.scalar(schema.Boolean)
	}
	return value.NewNull()
}

// value returns a value of type t (never null unless t accepts nothing
// else and the choice says so).
func (g *feGen) value(t *schema.Type, depth int) value.Value {
	g.budget--
	var kinds []value.Kind
	if t.Scalar() != schema.NoScalar {
		kinds = append(kinds, value.String)
	}
	if t.List() != nil {
		kinds = append(kinds, value.List)
	}
	if t.Map() != nil {
		kinds = append(kinds, value.Map)
	}
	if len(kinds) == 0 {
		return value.NewNull()
	}
	k := kinds[g.c.intn(len(kinds))]
	if depth >= feMaxDepth || g.budget <= 0 {
		if t.Scalar() != schema.NoScalar {
			k = value.String
		}
	}
	switch k {
	case value.List:
		return g.list(t.List(), depth)
	case value.Map:
		return g.mapValue(t.Map(), depth, nil)
	}
	return g.scalar(t.Scalar())
}

func (g *feGen) full(depth int) bool { return depth >= feMaxDepth || g.budget <= 0 }

// mapValue fills a map of type m. The fields in preset are set first (the
// key fields of a list item) and, like those named in skip (key fields left
// to their defaults), not generated.
func (g *feGen) mapValue(m *schema.Map, depth int, preset []value.Field, skip ...string) value.Value {
	fields := preset
	has := func(name string) bool {
		for _, f := range fields {
			if f.Name == name {
				return true
			}
		}
		return slices.Contains(skip, name)
	}
	for _, f := range m.Fields() {
		if g.full(depth) {
			break
		}
		if has(f.Name()) {
			continue
		}
		switch b := g.c.next() % 8; {
		case b < 4:
			continue // omitted
		case b == 7:
			fields = append(fields, value.Field{Name: f.Name(), Value: value.NewNull()})
		default:
			fields = append(fields, value.Field{Name: f.Name(), Value: g.value(f.Type(), depth+1)})
		}
	}
	if et := m.ElementType(); et != nil {
		for n := g.c.intn(4); n > 0 && !g.full(depth); n-- {
			name := feMapKeys[g.c.intn(len(feMapKeys))]
			if _, declared := m.Field(name); declared || has(name) {
				continue
			}
			fields = append(fields, value.Field{Name: name, Value: g.value(et, depth+1)})
		}
	}
	return value.NewMap(fields)
}

func (g *feGen) list(l *schema.List, depth int) value.Value {
	n := g.c.intn(5)
	var items []value.Value
	et := l.ElementType()
	switch {
	case l.Relationship() != schema.Associative:
		for ; n > 0 && !g.full(depth); n-- {
			items = append(items, g.value(et, depth+1))
		}
	case len(l.Keys()) == 0: // a set of scalars
		for ; n > 0 && !g.full(depth); n-- {
			v := g.scalar(et.Scalar())
			if !feContains(items, v) {
				items = append(items, v)
			}
		}
	default:
		em := et.Map()
		if em == nil {
			break
		}
		var keys []value.Value // each item's key fields, defaults applied, as a list
		for ; n > 0 && !g.full(depth); n-- {
			var preset []value.Field
			var key []value.Value
			var defaulted []string
			for i, k := range l.Keys() {
				f, ok := em.Field(k)
				if !ok {
					continue
				}
				def, hasDef := l.KeyDefault(i)
				if hasDef && g.c.next()&1 == 0 {
					key = append(key, def)
					defaulted = append(defaulted, k)
					continue
				}
				var kv value.Value
				if f.Type().Scalar() == schema.Numeric {
					kv = feKeyNumbers[g.c.intn(len(feKeyNumbers))]
				} else {
					kv = feKeyStrings[g.c.intn(len(feKeyStrings))]
				}
				preset = append(preset, value.Field{Name: k, Value: kv})
				key = append(key, kv)
			}
			kl := value.NewList(key)
			if feContains(keys, kl) {
				continue
			}
			keys = append(keys, kl)
			g.budget--
			items = append(items, g.mapValue(em, depth+1, preset, defaulted...))
		}
	}
	return value.NewList(items)
}

func feContains(items []value.Value, v value.Value) bool {
	for _, it := range items {
		if value.Equal(it, v) {
			return true
		}
	}
	return false
}

// pickPaths returns a few paths of s chosen by the program.
func (g *feGen) pickPaths(s *fieldpath.Set) *fieldpath.Set {
	size := s.Size()
	if size == 0 {
		return nil
	}
	var picked []fieldpath.Path
	for n := g.c.intn(4); n > 0; n-- {
		want, i := g.c.intn(size), 0
		for p := range s.All() {
			if i == want {
				picked = append(picked, p.Copy())
				break
			}
			i++
		}
	}
	return fieldpath.NewSet(picked...)
}

// Running a program.

var (
	feManagers = []string{"kubectl", "controller", "hpa", "ops"}
	feVersions = []string{"v1", "v2"}
)

// Operation kinds: the low two bits of an operation byte. The next two
// bits pick the manager and the one after the version.
const (
	feApply = iota
	feForceApply
	feUpdate
	feApplyRetry // apply; on conflict, apply again with Force
)

// Where an operation's object comes from: the byte after the operation.
const (
	feFromDoc    = iota // the next byte picks a document of the stream
	feFromFresh         // generated from the schema
	feFromEvolve        // the manager's last configuration (for an update, the live object) merged with a generated one, minus a few fields
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
	applied, forced, updated, conflicts, retried, skipped int
	quirks                                                int // second applies that conflicted over null against {} (feCheckReapply)
}

func (s *feStats) add(o feStats) {
	s.applied += o.applied
	s.forced += o.forced
	s.updated += o.updated
	s.conflicts += o.conflicts
	s.retried += o.retried
	s.skipped += o.skipped
	s.quirks += o.quirks
}

// feRun runs one program (see FuzzApply) and checks the invariants after
// every operation. Program layout: schema byte, live-object byte (0 null,
// 1 the first document, 2 generated), then per operation an operation
// byte, a source byte and, for feFromDoc, a document byte; generated values
// take their choices from the bytes that follow. Past the end of the
// program, the choices come from a generator seeded by the input (see
// feChoices), up to feMaxSteps operations.
func feRun(t *testing.T, schemas []feSchema, program []byte, docs string) feStats {
	t.Helper()
	var st feStats
	c := newFeChoices(program, docs)
	sc := schemas[c.intn(len(schemas))]
	typ := sc.typ
	g := &feGen{c: c}

	// The documents: those that fit the type strictly (duplicates in a
	// keyed list are a different story, not this one's).
	var pool []feDoc
	if ds, err := value.FromYAMLDocuments([]byte(docs), value.MaxDepth(32), value.MaxBytes(1<<16)); err == nil {
		for i, d := range ds {
			if i == feMaxDocs {
				break
			}
			k := d.Value.Kind()
			ok := (k == value.Map || k == value.Null) && typed.Validate(typ, d.Value) == nil
			pool = append(pool, feDoc{d.Value, ok})
		}
	}
	u, err := merge.NewUpdater()
	if err != nil {
		t.Fatal(err)
	}

	live := value.NewNull()
	switch c.intn(3) {
	case 1:
		if len(pool) > 0 && pool[0].ok {
			live = pool[0].v
		}
	case 2:
		live = g.root(typ)
	}
	var managers fieldpath.Managers
	last := map[string]value.Value{}
	var log []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("schema %s, after:\n%s\n%s", sc.name, strings.Join(log, "\n"), fmt.Sprintf(format, args...))
	}

	for range feMaxSteps {
		op := c.next()
		kind := int(op & 3)
		name := feManagers[(op>>2)&3]
		version := feVersions[(op>>4)&1]
		obj, src, ok, err := feSource(c, g, typ, kind == feUpdate, pool, live, last[name], last)
		if err != nil {
			fail("making the object of the next operation: %v", err)
		}
		if !ok {
			st.skipped++
			continue
		}
		if err := typed.Validate(typ, obj); err != nil {
			// Generated and derived objects are built to fit; one that does
			// not is a bug in the generator or in a typed operation.
			fail("%s object for %s does not validate: %v\n%s", src, name, err, value.ToJSON(obj))
		}
		what := [...]string{"apply", "forceApply", "update", "apply(retry)"}[kind]
		log = append(log, fmt.Sprintf("  %s %s@%s (%s): %s", what, name, version, src, value.ToJSON(obj)))

		liveJSON := value.ToJSON(live)
		objJSON := value.ToJSON(obj)
		before := managers.Copy()
		liveT := typed.NewUnvalidated(typ, live)
		objT := typed.NewUnvalidated(typ, obj)

		var res typed.Value
		var after fieldpath.Managers
		switch kind {
		case feUpdate:
			st.updated++
			res, after, err = u.Update(liveT, objT, managers, merge.Writer{Manager: name, APIVersion: version})
			if err != nil {
				fail("update failed: %v", err)
			}
		default:
			var opts []merge.ApplyOption
			if kind == feForceApply {
				opts = append(opts, merge.Force())
				st.forced++
			}
			st.applied++
			res, after, err = u.Apply(liveT, objT, managers, merge.Writer{Manager: name, APIVersion: version}, opts...)
			var cs merge.Conflicts
			if err != nil {
				if kind == feForceApply || !errors.As(err, &cs) {
					fail("apply failed: %v", err)
				}
				st.conflicts++
				feCheckConflicts(fail, cs, managers, name)
				feCheckUnchanged(fail, live, liveJSON, obj, objJSON, managers, before)
				if kind != feApplyRetry {
					log = append(log, "    conflicts: "+strings.ReplaceAll(err.Error(), "\n", " "))
					continue
				}
				st.retried++
				res, after, err = u.Apply(liveT, objT, managers, merge.Writer{Manager: name, APIVersion: version}, merge.Force())
				if err != nil {
					fail("forced apply after conflicts failed: %v", err)
				}
				for _, cf := range cs {
					if after[cf.Manager].Set.Has(cf.Path) {
						fail("after forcing, %s still owns its conflicting field %v", cf.Manager, cf.Path)
					}
				}
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
				fail("%s lost fields the %s did not change:\n%v\nchanges:\n%v", m, what, lost, cmp)
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

		if kind == feUpdate {
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
			again, after2, err := u.Update(res, objT, after, merge.Writer{Manager: name, APIVersion: version})
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
			remerged := remergedT.Value()
			if err != nil {
				fail("merging the configuration into the result: %v", err)
			}
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
			last[name] = obj
		}
		feCheckRoundTrips(fail, result, after)
		live, managers = result, after
	}
	return st
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

// feSource makes the object of one operation and says where it came from.
// It returns ok false when the program picks a document that is not there
// or does not fit the type, and an error when a typed operation fails on
// valid values.
func feSource(c *feChoices, g *feGen, typ *schema.Type, update bool, pool []feDoc, live, mine value.Value, last map[string]value.Value) (v value.Value, src string, ok bool, err error) {
	switch c.intn(feNumSources) {
	case feFromDoc:
		i := c.intn(len(pool))
		if i >= len(pool) || !pool[i].ok {
			return value.Value{}, "", false, nil
		}
		return pool[i].v, fmt.Sprintf("doc %d", i), true, nil
	case feFromFresh:
		return g.root(typ), "fresh", true, nil
	case feFromEvolve:
		base := mine
		if update {
			base = live
		}
		fresh := g.root(typ)
		mergedT, err := typed.NewUnvalidated(typ, base).Merge(typed.NewUnvalidated(typ, fresh))
		merged := mergedT.Value()
		if err != nil {
			return value.Value{}, "", false, fmt.Errorf("merging %s into %s: %w", value.ToJSON(fresh), value.ToJSON(base), err)
		}
		set, err := typed.FieldSet(typ, merged)
		if err != nil {
			return value.Value{}, "", false, fmt.Errorf("field set of %s: %w", value.ToJSON(merged), err)
		}
		return feOrEmpty(typ, typed.RemoveItems(typ, merged, g.pickPaths(set))), "evolved", true, nil
	case feFromLive:
		set, err := typed.FieldSet(typ, live)
		if err != nil {
			return value.Value{}, "", false, fmt.Errorf("field set of the live object: %w", err)
		}
		subset := g.pickPaths(set)
		if update {
			return feOrEmpty(typ, typed.RemoveItems(typ, live, subset)), "live minus some", true, nil
		}
		return feOrEmpty(typ, typed.ExtractItems(typ, live, subset, typed.WithKeyFields())), "part of live", true, nil
	case feFromOther:
		other := feManagers[c.intn(len(feManagers))]
		if v, ok := last[other]; ok {
			return v, "config of " + other, true, nil
		}
	}
	return feOrEmpty(typ, value.NewNull()), "empty", true, nil
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
		if len(v.Items()) == 0 {
			return value.NewNull()
		}
		items := make([]value.Value, len(v.Items()))
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
		one := fieldpath.NewSet(p)
		x := typed.ExtractItems(typ, a, one)
		y := typed.ExtractItems(typ, b, one)
		return !value.Equal(feEmptyToNull(x), feEmptyToNull(y))
	})
}

// feEmptyToNull returns v with every empty list and map replaced by null.
func feEmptyToNull(v value.Value) value.Value {
	switch v.Kind() {
	case value.Map:
		if len(v.Fields()) == 0 {
			return value.NewNull()
		}
		fs := make([]value.Field, len(v.Fields()))
		for i, f := range v.Fields() {
			fs[i] = value.Field{Name: f.Name, Value: feEmptyToNull(f.Value)}
		}
		return value.NewMap(fs)
	case value.List:
		if len(v.Items()) == 0 {
			return value.NewNull()
		}
		items := make([]value.Value, len(v.Items()))
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

// feOp encodes one operation that takes document doc of the stream.
func feOp(kind, manager, version, doc int) []byte {
	return []byte{byte(kind | manager<<2 | version<<4), feFromDoc, byte(doc)}
}

// feSeeds returns the seeds: the merge package's table tests, every
// scenario of the corpus written for basic.yaml's widget or the deduced
// schema (its steps become operations on the documents of the stream), and
// a few generated programs.
func feSeeds(tb testing.TB) []feSeed {
	tb.Helper()
	join := func(docs ...string) string { return strings.Join(docs, "\n---\n") }
	prog := func(sch, live int, ops ...[]byte) []byte {
		p := []byte{byte(sch), byte(live)}
		for _, op := range ops {
			p = append(p, op...)
		}
		return p
	}
	seeds := []feSeed{
		// TestApplyConflictsAndForce
		{prog(feWidget, 0,
			feOp(feApply, 0, 0, 1), feOp(feApply, 2, 0, 2), feOp(feApply, 2, 0, 3), feOp(feApply, 2, 0, 4), feOp(feForceApply, 2, 0, 3)),
			join(`null`, `{name: a, replicas: 1, labels: {x: y}}`, `{replicas: 2, name: b}`, `{replicas: 2}`, `{replicas: 1}`)},
		// TestApplyPrunesAndNoop
		{prog(feWidget, 0,
			feOp(feApply, 0, 0, 1), feOp(feApply, 0, 0, 1), feOp(feUpdate, 3, 0, 3), feOp(feApply, 0, 0, 2)),
			join(`null`, `{name: a, labels: {x: y, z: q}}`, `{name: a, labels: {x: y}}`, `{name: a, labels: {x: y, z: r}}`)},
		// TestUpdateNeverConflicts
		{prog(feWidget, 0,
			feOp(feApply, 0, 0, 1), feOp(feUpdate, 2, 1, 2), feOp(feUpdate, 3, 0, 3)),
			join(`null`, `{name: a, replicas: 1}`, `{name: a, replicas: 5}`, `{replicas: 5}`)},
		// Keyed lists, sets, defaults and atomic parts.
		{prog(feWidget, 1,
			feOp(feApply, 0, 0, 1), feOp(feApplyRetry, 1, 1, 2), feOp(feApply, 0, 0, 3), feOp(feUpdate, 3, 0, 4)),
			join(`{containers: [{name: a, image: x}, {name: b}], tags: [a, b], ports: [{port: 80}]}`,
				`{containers: [{name: b, image: y}, {name: a}], tags: [c, a], ports: [{port: 80, protocol: UDP}]}`,
				`{containers: [{name: c, env: [{name: e, value: v}]}], args: [z], config: {a: b}}`,
				`{containers: [{name: a}], owner: {kind: k, name: n}, extra: {a: {b: 1}}}`,
				`{ports: [{port: 80}, {port: 80, protocol: TCP}], blob: [1, {a: 2}]}`)},
		// The deduced schema.
		{prog(feDeduced, 0,
			feOp(feApply, 0, 0, 1), feOp(feApply, 1, 0, 2), feOp(feApplyRetry, 1, 0, 2), feOp(feUpdate, 2, 1, 3)),
			join(`null`, `{spec: {size: 3, color: red}, kind: Thing}`, `{spec: {size: 4}}`, `{spec: "flat"}`)},
		// The recursive schema.
		{prog(feTree, 0,
			feOp(feApply, 0, 0, 1), feOp(feApply, 1, 0, 2), feOp(feForceApply, 1, 1, 3), feOp(feUpdate, 3, 0, 1)),
			join(`null`, `{name: r, children: [{name: a, size: 1, children: [{name: b}]}], numbers: [1, 2.5]}`,
				`{children: [{name: a, byName: {k1: {size: 2}}}], frozen: {name: f, children: [{name: g}]}}`,
				`{children: [{name: a, size: 2}], numbers: [2.5, 3], anything: {a: [1]}}`)},
	}
	seeds = append(seeds, feScenarioSeeds(tb)...)
	// Generated programs of each schema: every choice byte pattern below
	// gives a different mix of operations and sources.
	for sch := range feNumSchemas {
		for k := range 8 {
			p := []byte{byte(sch), byte(k % 3)}
			for i := range 40 {
				p = append(p, byte(i*37+k*101+sch*13))
			}
			seeds = append(seeds, feSeed{p, ""})
		}
	}
	return seeds
}

// feScenarioSeeds turns scenario files into seeds: the live object becomes
// the first document, each step's object the next, and each step an
// operation on its document; managers and versions are numbered in order of
// appearance. Scenarios with other schemas, or with a schema change, are
// left out; so are the managers of the starting state.
func feScenarioSeeds(tb testing.TB) []feSeed {
	tb.Helper()
	files, err := scenario.Files([]string{"../testdata/scenarios"})
	if err != nil {
		tb.Fatalf("scenario corpus: %v", err)
	}
	var seeds []feSeed
	for _, path := range files {
		f, err := scenario.LoadFile(path)
		if err != nil || f.Kubernetes || f.Schema == nil {
			continue
		}
		var sch int
		switch {
		case filepath.Base(f.Schema.File) == "basic.yaml" && f.Type == "widget":
			sch = feWidget
		case filepath.Base(f.Schema.File) == "deduced.yaml" && f.Type == "__untyped_deduced_":
			sch = feDeduced
		default:
			continue
		}
		docs := []value.Value{value.NewNull()}
		liveByte := 0
		if f.Live.HasObject {
			v, err := value.FromUnstructured(f.Live.Object)
			if err != nil {
				continue
			}
			docs[0], liveByte = v, 1
		}
		program := []byte{byte(sch), byte(liveByte)}
		managers, versions := map[string]int{}, map[string]int{}
		ok := true
		for _, s := range f.Steps {
			if s.Schema != nil {
				ok = false
				break
			}
			v, err := value.FromUnstructured(s.Object)
			if err != nil {
				ok = false
				break
			}
			if _, seen := managers[s.Manager]; !seen {
				managers[s.Manager] = len(managers) % len(feManagers)
			}
			if _, seen := versions[s.APIVersion]; !seen {
				versions[s.APIVersion] = len(versions) % len(feVersions)
			}
			kind := feApply
			switch s.Op {
			case scenario.OpForceApply:
				kind = feForceApply
			case scenario.OpUpdate:
				kind = feUpdate
			}
			program = append(program, feOp(kind, managers[s.Manager], versions[s.APIVersion], len(docs))...)
			docs = append(docs, v)
		}
		if !ok || len(docs) > feMaxDocs {
			continue
		}
		texts := make([]string, len(docs))
		for i, d := range docs {
			texts[i] = string(value.ToYAML(d))
		}
		seeds = append(seeds, feSeed{program, strings.Join(texts, "---\n")})
	}
	return seeds
}

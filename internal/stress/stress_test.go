package stress_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/fieldpath/fieldpathtest"
	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// Objects of basic.yaml's widget type, each using a different part of the
// schema, and overlapping so that merges and set operations are not
// trivial.
var widgetDocs = []string{
	`{name: a, replicas: 1, labels: {x: y}}`,
	`{name: b, replicas: 2, labels: {x: z, w: v}, tags: [a, b]}`,
	`{containers: [{name: web, image: nginx, env: [{name: A, value: "1"}]}, {name: side, args: [x]}]}`,
	`{containers: [{name: web, image: httpd}, {name: db}], ports: [{port: 80}, {port: 443, protocol: UDP}]}`,
	`{spec: {image: i, limits: {cpu: "1", memory: 2Gi}}, config: {a: b}, owner: {kind: K, name: n}}`,
	`{spec: {paused: true, limits: {cpu: "2"}}, config: {c: d}, args: [p, q]}`,
	`{volumes: {data: {path: /d, readOnly: true}}, extra: {a: {b: 1}, l: [1, 2]}, blob: [1, {x: 2}]}`,
	`{volumes: {data: {path: /e}, logs: {path: /l}}, extra: {a: {c: 2}}, enabled: false}`,
	`{tags: [c, a], ports: [{port: 80, name: http}], labels: {}}`,
	`{name: null, spec: {}, containers: [{name: web, env: [{name: B}]}]}`,
}

type fixture struct {
	w *schema.Type

	sets   []*fieldpath.Set
	setEnc [][]byte
	// For each ordered pair of sets: the FieldsV1 of their union,
	// intersection, difference and recursive difference.
	union, inter, diff, rdiff [][][]byte
	leaves                    [][]byte

	values           []value.Value
	valJSON, valYAML [][]byte
	fieldSets        [][]byte // FieldSet of each value
	// For each ordered pair of values: Merge(w, a, b) as JSON, the FieldsV1
	// of its field set, and Compare(w, a, b) as text.
	merged, mergedSet [][][]byte
	compared          [][]string

	// live[i] and managers[i]: value i applied to nothing by "a". applied
	// and appliedManagers: then value j applied by "b" with Force.
	updater         *merge.Updater
	live            []typed.Value
	managers        []fieldpath.Managers
	applied         [][][]byte
	appliedManagers [][]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{w: testfixture.Widget(t)}
	var err error
	if f.updater, err = merge.NewUpdater(); err != nil {
		t.Fatal(err)
	}

	for _, doc := range widgetDocs {
		v, err := value.FromYAML([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := typed.Validate(f.w, v); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		f.values = append(f.values, v)
		f.valJSON = append(f.valJSON, value.ToJSON(v))
		f.valYAML = append(f.valYAML, value.ToYAML(v))
		fs, err := typed.FieldSet(f.w, v)
		if err != nil {
			t.Fatal(err)
		}
		f.fieldSets = append(f.fieldSets, fs.MarshalFieldsV1())
		f.sets = append(f.sets, fs)
	}
	r := rand.New(rand.NewPCG(7, 11))
	for range 8 {
		f.sets = append(f.sets, fieldpathtest.RandomSet(r, 16))
	}
	for _, s := range f.sets {
		f.setEnc = append(f.setEnc, s.MarshalFieldsV1())
		f.leaves = append(f.leaves, s.Leaves().MarshalFieldsV1())
	}
	n := len(f.sets)
	f.union, f.inter, f.diff, f.rdiff = grid(n), grid(n), grid(n), grid(n)
	for i, a := range f.sets {
		for j, b := range f.sets {
			f.union[i][j] = a.Union(b).MarshalFieldsV1()
			f.inter[i][j] = a.Intersection(b).MarshalFieldsV1()
			f.diff[i][j] = a.Difference(b).MarshalFieldsV1()
			f.rdiff[i][j] = a.RecursiveDifference(b).MarshalFieldsV1()
		}
	}

	m := len(f.values)
	f.merged, f.mergedSet, f.applied = grid(m), grid(m), grid(m)
	f.compared = make([][]string, m)
	f.appliedManagers = make([][]string, m)
	for i, a := range f.values {
		live, managers, err := f.updater.Apply(typed.NewUnvalidated(f.w, value.NewNull()), typed.NewUnvalidated(f.w, a), nil, merge.Writer{Manager: "a", APIVersion: "v1"})
		if err != nil {
			t.Fatal(err)
		}
		f.live = append(f.live, live)
		f.managers = append(f.managers, managers)
		f.compared[i] = make([]string, m)
		f.appliedManagers[i] = make([]string, m)
		for j, b := range f.values {
			mvT, err := typed.NewUnvalidated(f.w, a).Merge(typed.NewUnvalidated(f.w, b))
			mv := mvT.Value()
			if err != nil {
				t.Fatal(err)
			}
			f.merged[i][j] = value.ToJSON(mv)
			ms, err := typed.FieldSet(f.w, mv)
			if err != nil {
				t.Fatal(err)
			}
			f.mergedSet[i][j] = ms.MarshalFieldsV1()
			c, err := typed.Compare(f.w, a, b)
			if err != nil {
				t.Fatal(err)
			}
			f.compared[i][j] = c.String()
			res, after, err := f.updater.Apply(live, typed.NewUnvalidated(f.w, b), managers, merge.Writer{Manager: "b", APIVersion: "v1"}, merge.Force())
			if err != nil {
				t.Fatal(err)
			}
			f.applied[i][j] = value.ToJSON(res.Value())
			f.appliedManagers[i][j] = managersText(after)
		}
	}
	return f
}

func grid(n int) [][][]byte {
	g := make([][][]byte, n)
	for i := range g {
		g[i] = make([][]byte, n)
	}
	return g
}

func managersText(ms fieldpath.Managers) string {
	var b bytes.Buffer
	for _, n := range ms.Names() {
		fmt.Fprintf(&b, "%s %s %v %s\n", n, ms[n].APIVersion, ms[n].Applied, ms[n].Set.MarshalFieldsV1())
	}
	return b.String()
}

// A published set or value: built by one goroutine from shared inputs
// (sharing their subtrees), then read by others.
type derivedSet struct {
	set  *fieldpath.Set // sets[i] ∪ sets[j], built path by path
	i, j int
}

type derivedValue struct {
	pair   value.Value // {a: values[i], b: values[j]}
	merged value.Value // Merge(w, values[i], values[j])
	i, j   int
}

type board struct {
	mu     sync.Mutex
	sets   []derivedSet
	values []derivedValue
}

func (b *board) addSet(d derivedSet) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.sets) < 64 {
		b.sets = append(b.sets, d)
	} else {
		b.sets[len(b.sets)%64] = d
	}
}

func (b *board) addValue(d derivedValue) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.values) < 64 {
		b.values = append(b.values, d)
	} else {
		b.values[len(b.values)%64] = d
	}
}

func (b *board) pick(r *rand.Rand) (derivedSet, derivedValue, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.sets) == 0 || len(b.values) == 0 {
		return derivedSet{}, derivedValue{}, false
	}
	return b.sets[r.IntN(len(b.sets))], b.values[r.IntN(len(b.values))], true
}

// TestStressSharedSetsAndValues runs readers and writers on shared sets and
// values from many goroutines and checks every result against the serially
// computed one. Readers compute set algebra, encodings, field sets,
// comparisons, merges and applies of the shared inputs and of what writers
// publish; writers build new sets (path by path, with a Builder and with
// Insert) and new values (maps holding shared values, merges) from the
// shared inputs. Run it with -race; scripts/stress.sh runs it many times.
func TestStressSharedSetsAndValues(t *testing.T) {
	f := newFixture(t)
	goroutines, rounds := 12, 250
	if testing.Short() {
		rounds = 50
	}
	var b board
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 99))
			<-start
			for range rounds {
				var err error
				if g%3 == 0 {
					err = f.write(r, &b)
				} else {
					err = f.read(r, &b)
				}
				if err != nil {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()

	// The shared inputs are as they were.
	for i, s := range f.sets {
		if !bytes.Equal(s.MarshalFieldsV1(), f.setEnc[i]) {
			t.Errorf("set %d changed", i)
		}
	}
	for i, v := range f.values {
		if !bytes.Equal(value.ToJSON(v), f.valJSON[i]) {
			t.Errorf("value %d changed", i)
		}
	}
	if len(b.sets) == 0 || len(b.values) == 0 {
		t.Error("the writers published nothing")
	}
}

func (f *fixture) write(r *rand.Rand, b *board) error {
	i, j := r.IntN(len(f.sets)), r.IntN(len(f.sets))
	// A union built path by path, two ways.
	var bl fieldpath.Builder
	for p := range f.sets[i].All() {
		bl.Insert(p)
	}
	for p := range f.sets[j].All() {
		bl.Insert(p)
	}
	built := bl.Build()
	if got := built.MarshalFieldsV1(); !bytes.Equal(got, f.union[i][j]) {
		return fmt.Errorf("Builder union of sets %d and %d:\n%s\nwant\n%s", i, j, got, f.union[i][j])
	}
	inserted := f.sets[i]
	for p := range f.sets[j].All() {
		inserted = inserted.Insert(p.Copy())
	}
	if got := inserted.MarshalFieldsV1(); !bytes.Equal(got, f.union[i][j]) {
		return fmt.Errorf("Insert union of sets %d and %d:\n%s\nwant\n%s", i, j, got, f.union[i][j])
	}
	if r.IntN(2) == 0 {
		b.addSet(derivedSet{built, i, j})
	} else {
		b.addSet(derivedSet{inserted, i, j})
	}

	vi, vj := r.IntN(len(f.values)), r.IntN(len(f.values))
	pair := value.NewMap([]value.Field{{Name: "a", Value: f.values[vi]}, {Name: "b", Value: f.values[vj]}})
	want := `{"a":` + string(f.valJSON[vi]) + `,"b":` + string(f.valJSON[vj]) + `}`
	if got := value.ToJSON(pair); string(got) != want {
		return fmt.Errorf("a map of values %d and %d encodes as\n%s\nwant\n%s", vi, vj, got, want)
	}
	mergedT, err := typed.NewUnvalidated(f.w, f.values[vi]).Merge(typed.NewUnvalidated(f.w, f.values[vj]))
	merged := mergedT.Value()
	if err != nil {
		return err
	}
	if got := value.ToJSON(merged); !bytes.Equal(got, f.merged[vi][vj]) {
		return fmt.Errorf("Merge of values %d and %d:\n%s\nwant\n%s", vi, vj, got, f.merged[vi][vj])
	}
	b.addValue(derivedValue{pair, merged, vi, vj})
	return nil
}

func (f *fixture) read(r *rand.Rand, b *board) error {
	switch r.IntN(4) {
	case 0: // set algebra and encodings on shared sets
		i, j := r.IntN(len(f.sets)), r.IntN(len(f.sets))
		a, c := f.sets[i], f.sets[j]
		for _, x := range []struct {
			what string
			got  *fieldpath.Set
			want []byte
		}{
			{"union", a.Union(c), f.union[i][j]},
			{"intersection", a.Intersection(c), f.inter[i][j]},
			{"difference", a.Difference(c), f.diff[i][j]},
			{"recursive difference", a.RecursiveDifference(c), f.rdiff[i][j]},
			{"leaves", a.Leaves(), f.leaves[i]},
		} {
			if enc := x.got.MarshalFieldsV1(); !bytes.Equal(enc, x.want) {
				return fmt.Errorf("%s of sets %d and %d:\n%s\nwant\n%s", x.what, i, j, enc, x.want)
			}
		}
		back, err := fieldpath.ParseFieldsV1(f.setEnc[i])
		if err != nil || !back.Equal(a) {
			return fmt.Errorf("FieldsV1 round trip of set %d: %v", i, err)
		}
	case 1: // encodings, field sets and comparisons of shared values
		i, j := r.IntN(len(f.values)), r.IntN(len(f.values))
		v := f.values[i]
		if got := value.ToJSON(v); !bytes.Equal(got, f.valJSON[i]) {
			return fmt.Errorf("ToJSON of value %d: %s", i, got)
		}
		if got := value.ToYAML(v); !bytes.Equal(got, f.valYAML[i]) {
			return fmt.Errorf("ToYAML of value %d: %s", i, got)
		}
		fs, err := typed.FieldSet(f.w, v)
		if err != nil || !bytes.Equal(fs.MarshalFieldsV1(), f.fieldSets[i]) {
			return fmt.Errorf("FieldSet of value %d: %s %v", i, fs.MarshalFieldsV1(), err)
		}
		c, err := typed.Compare(f.w, v, f.values[j])
		if err != nil || c.String() != f.compared[i][j] {
			return fmt.Errorf("Compare of values %d and %d:\n%v\nwant\n%s (%v)", i, j, c, f.compared[i][j], err)
		}
		if err := typed.Validate(f.w, v); err != nil {
			return fmt.Errorf("Validate of value %d: %v", i, err)
		}
	case 2: // applies on shared live objects and managers
		i, j := r.IntN(len(f.values)), r.IntN(len(f.values))
		res, after, err := f.updater.Apply(f.live[i], typed.NewUnvalidated(f.w, f.values[j]), f.managers[i], merge.Writer{Manager: "b", APIVersion: "v1"}, merge.Force())
		if err != nil {
			return err
		}
		if got := value.ToJSON(res.Value()); !bytes.Equal(got, f.applied[i][j]) {
			return fmt.Errorf("Apply of value %d onto %d:\n%s\nwant\n%s", j, i, got, f.applied[i][j])
		}
		if got := managersText(after); got != f.appliedManagers[i][j] {
			return fmt.Errorf("managers after applying value %d onto %d:\n%s\nwant\n%s", j, i, got, f.appliedManagers[i][j])
		}
	case 3: // what writers built from the shared inputs
		ds, dv, ok := b.pick(r)
		if !ok {
			return nil
		}
		// ds.set is sets[i] ∪ sets[j].
		if got := ds.set.Difference(f.sets[ds.i]).MarshalFieldsV1(); !bytes.Equal(got, f.diff[ds.j][ds.i]) {
			return fmt.Errorf("(sets %d ∪ %d) \\ set %d:\n%s\nwant\n%s", ds.i, ds.j, ds.i, got, f.diff[ds.j][ds.i])
		}
		if got := ds.set.Intersection(f.sets[ds.j]).MarshalFieldsV1(); !bytes.Equal(got, f.setEnc[ds.j]) {
			return fmt.Errorf("(sets %d ∪ %d) ∩ set %d:\n%s", ds.i, ds.j, ds.j, got)
		}
		if got := ds.set.MarshalFieldsV1(); !bytes.Equal(got, f.union[ds.i][ds.j]) {
			return fmt.Errorf("published union of sets %d and %d changed:\n%s", ds.i, ds.j, got)
		}
		a, _ := dv.pair.Get("a")
		if got := value.ToJSON(a); !bytes.Equal(got, f.valJSON[dv.i]) {
			return fmt.Errorf("value %d inside a published map: %s", dv.i, got)
		}
		if bv, _ := dv.pair.Get("b"); !value.Equal(bv, f.values[dv.j]) {
			return fmt.Errorf("value %d inside a published map differs", dv.j)
		}
		fs, err := typed.FieldSet(f.w, dv.merged)
		if err != nil || !bytes.Equal(fs.MarshalFieldsV1(), f.mergedSet[dv.i][dv.j]) {
			return fmt.Errorf("FieldSet of the published merge of %d and %d: %s %v", dv.i, dv.j, fs.MarshalFieldsV1(), err)
		}
		againT, err := typed.NewUnvalidated(f.w, dv.merged).Merge(typed.NewUnvalidated(f.w, f.values[dv.j]))
		again := againT.Value()
		if err != nil || !bytes.Equal(value.ToJSON(again), f.merged[dv.i][dv.j]) {
			return fmt.Errorf("merging value %d again into the published merge: %s %v", dv.j, value.ToJSON(again), err)
		}
	}
	return nil
}

package fieldpath_test

import (
	"bytes"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/fieldpath/fieldpathtest"
)

// set builds a set from paths in String form.
func set(t testing.TB, paths ...string) *fieldpath.Set {
	t.Helper()
	var b fieldpath.Builder
	for _, s := range paths {
		p, err := fieldpath.ParsePath(s)
		if err != nil {
			t.Fatalf("ParsePath(%q): %v", s, err)
		}
		b.Insert(p)
	}
	return b.Build()
}

// lines returns the member paths of s in String form, sorted.
func lines(s *fieldpath.Set) []string {
	var out []string
	for p := range s.All() {
		out = append(out, p.String())
	}
	slices.Sort(out)
	return out
}

func checkSet(t *testing.T, what string, got *fieldpath.Set, want ...string) {
	t.Helper()
	slices.Sort(want)
	if g := lines(got); !slices.Equal(g, want) {
		t.Errorf("%s = %q, want %q", what, g, want)
	}
	if got.Size() != len(want) || got.Empty() != (len(want) == 0) {
		t.Errorf("%s: Size %d Empty %v, want %d", what, got.Size(), got.Empty(), len(want))
	}
}

func TestSetOperationsTable(t *testing.T) {
	tests := []struct {
		name                                   string
		a, b                                   []string
		union, inter, diff, recDiff, leavesOfA []string
	}{
		{
			name: "empty",
		},
		{
			name:      "disjoint",
			a:         []string{".a", ".b.c"},
			b:         []string{".b.d"},
			union:     []string{".a", ".b.c", ".b.d"},
			diff:      []string{".a", ".b.c"},
			recDiff:   []string{".a", ".b.c"},
			leavesOfA: []string{".a", ".b.c"},
		},
		{
			name:      "parent minus child keeps the parent",
			a:         []string{".a"},
			b:         []string{".a.b"},
			union:     []string{".a", ".a.b"},
			diff:      []string{".a"},
			recDiff:   []string{".a"},
			leavesOfA: []string{".a"},
		},
		{
			name:      "child minus parent",
			a:         []string{".a.b", ".a.c.d"},
			b:         []string{".a"},
			union:     []string{".a", ".a.b", ".a.c.d"},
			diff:      []string{".a.b", ".a.c.d"},
			recDiff:   nil,
			leavesOfA: []string{".a.b", ".a.c.d"},
		},
		{
			name:      "recursive difference removes a subtree",
			a:         []string{".a.b.c", ".a.d", ".a.b"},
			b:         []string{".a.b"},
			union:     []string{".a.b.c", ".a.d", ".a.b"},
			inter:     []string{".a.b"},
			diff:      []string{".a.b.c", ".a.d"},
			recDiff:   []string{".a.d"},
			leavesOfA: []string{".a.b.c", ".a.d"},
		},
		{
			name: "all kinds",
			a: []string{`.spec.containers[name="web"]`, `.spec.containers[name="web"].image`,
				`.spec.finalizers[="x"]`, `.spec.args[0]`, `.spec.args[1]`},
			b: []string{`.spec.containers[name="web"].image`, `.spec.finalizers[="y"]`, `.spec.args`},
			union: []string{`.spec.containers[name="web"]`, `.spec.containers[name="web"].image`,
				`.spec.finalizers[="x"]`, `.spec.finalizers[="y"]`, `.spec.args[0]`, `.spec.args[1]`, `.spec.args`},
			inter:     []string{`.spec.containers[name="web"].image`},
			diff:      []string{`.spec.containers[name="web"]`, `.spec.finalizers[="x"]`, `.spec.args[0]`, `.spec.args[1]`},
			recDiff:   []string{`.spec.containers[name="web"]`, `.spec.finalizers[="x"]`},
			leavesOfA: []string{`.spec.containers[name="web"].image`, `.spec.finalizers[="x"]`, `.spec.args[0]`, `.spec.args[1]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := set(t, tt.a...), set(t, tt.b...)
			checkSet(t, "Union", a.Union(b), tt.union...)
			checkSet(t, "Union reversed", b.Union(a), tt.union...)
			checkSet(t, "Intersection", a.Intersection(b), tt.inter...)
			checkSet(t, "Difference", a.Difference(b), tt.diff...)
			checkSet(t, "RecursiveDifference", a.RecursiveDifference(b), tt.recDiff...)
			checkSet(t, "Leaves", a.Leaves(), tt.leavesOfA...)
		})
	}
}

func TestSetString(t *testing.T) {
	s := set(t, ".b", ".a.x", ".a", `.a.y[="v"]`, ".c[0]")
	// Members of a node come first, then each child's paths.
	want := ".a\n.b\n.a.x\n.a.y[=\"v\"]\n.c[0]"
	if got := s.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	if (*fieldpath.Set)(nil).String() != "" {
		t.Error("nil set String not empty")
	}
}

func TestNilAndEmptySets(t *testing.T) {
	var n *fieldpath.Set
	e := fieldpath.NewSet()
	z := &fieldpath.Set{}
	a := set(t, ".a")
	for _, s := range []*fieldpath.Set{n, e, z} {
		if !s.Empty() || s.Size() != 0 || s.Has(fieldpath.Path{fieldpath.FieldName("a")}) || s.HasMember(fieldpath.FieldName("a")) {
			t.Error("empty set has something")
		}
		if s.MembersLen() != 0 || s.ChildrenLen() != 0 || len(values(s.Members())) != 0 || len(values(s.Children())) != 0 || s.WithPrefix(fieldpath.FieldName("a")) != nil {
			t.Error("empty set has members or children")
		}
		if !s.Equal(n) || !s.Equal(z) || s.Equal(a) || a.Equal(s) {
			t.Error("Equal with empty sets wrong")
		}
		if s.Union(a) != a || a.Union(s) != a {
			t.Error("union with empty does not return the other set")
		}
		if !s.Intersection(a).Empty() || !a.Intersection(s).Empty() || !s.Difference(a).Empty() || !s.RecursiveDifference(a).Empty() || !s.Leaves().Empty() {
			t.Error("operations on empty sets are not empty")
		}
		if a.Difference(s) != a || a.RecursiveDifference(s) != a {
			t.Error("difference with empty does not return the set")
		}
		if got := string(s.MarshalFieldsV1()); got != "{}" {
			t.Errorf("empty set encodes as %s", got)
		}
		for range s.All() {
			t.Error("empty set yields a path")
		}
	}
	if a.Has(nil) || fieldpath.NewSet(nil, fieldpath.Path{}).Size() != 0 {
		t.Error("the empty path is a member")
	}
}

func TestHasAndWithPrefix(t *testing.T) {
	s := set(t, ".a.b", `.a.c[name="x"]`, ".d")
	for _, tt := range []struct {
		p    string
		want bool
	}{{".a.b", true}, {".a", false}, {".d", true}, {`.a.c[name="x"]`, true}, {`.a.c[name="y"]`, false}, {".a.b.c", false}, {".e", false}} {
		p, _ := fieldpath.ParsePath(tt.p)
		if got := s.Has(p); got != tt.want {
			t.Errorf("Has(%s) = %v", tt.p, got)
		}
	}
	checkSet(t, "WithPrefix(.a)", s.WithPrefix(fieldpath.FieldName("a")), ".b", `.c[name="x"]`)
	checkSet(t, "WithPrefix(.d)", s.WithPrefix(fieldpath.FieldName("d")))
	if !s.HasMember(fieldpath.FieldName("d")) || s.HasMember(fieldpath.FieldName("a")) {
		t.Error("HasMember wrong")
	}
	if m := values(s.Members()); len(m) != 1 || m[0].FieldName() != "d" {
		t.Errorf("Members = %v", m)
	}
	if c := values(s.Children()); len(c) != 1 || c[0].Element.FieldName() != "a" || c[0].Set.Size() != 2 {
		t.Errorf("Children = %v", c)
	}
}

func TestInsertIsPersistent(t *testing.T) {
	s := set(t, ".a.b", ".x.y")
	before := string(s.MarshalFieldsV1())
	p, _ := fieldpath.ParsePath(".a.c")
	s2 := s.Insert(p)
	if string(s.MarshalFieldsV1()) != before {
		t.Fatal("Insert modified its receiver")
	}
	checkSet(t, "Insert", s2, ".a.b", ".a.c", ".x.y")
	if s2.WithPrefix(fieldpath.FieldName("x")) != s.WithPrefix(fieldpath.FieldName("x")) {
		t.Error("Insert did not share the untouched subtree")
	}
	if s2.Insert(p) != s2 {
		t.Error("inserting a member again did not return the set itself")
	}
	if s.Insert(nil) != s {
		t.Error("inserting the empty path changed the set")
	}
	checkSet(t, "Insert into nil", (*fieldpath.Set)(nil).Insert(p), ".a.c")
	checkSet(t, "Insert member", s2.Insert(fieldpath.Path{fieldpath.FieldName("a")}), ".a", ".a.b", ".a.c", ".x.y")
}

func TestBuilderUnsortedAndDuplicates(t *testing.T) {
	paths := []string{".z", ".a.b", ".m", ".a.b", ".a", ".a.a", ".z.q", ".b[1]", ".b[0]", ".a.b.c", ".z"}
	var b fieldpath.Builder
	for _, s := range paths {
		p, _ := fieldpath.ParsePath(s)
		b.Insert(p)
	}
	s := b.Build()
	checkSet(t, "Build", s, ".z", ".a.b", ".m", ".a", ".a.a", ".z.q", ".b[1]", ".b[0]", ".a.b.c")
	// The builder is reset by Build.
	if again := b.Build(); !again.Empty() {
		t.Errorf("second Build = %v", again)
	}
	// Every order of insertion gives an equal set.
	r := rand.New(rand.NewPCG(7, 7))
	for range 50 {
		r.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
		if o := set(t, paths...); !o.Equal(s) {
			t.Fatalf("order %q gives %v", paths, o)
		}
	}
}

func TestFilter(t *testing.T) {
	s := set(t, ".a.b", ".a.c", ".d", ".e.f")
	got := s.Filter(func(p fieldpath.Path) bool { return p[len(p)-1].FieldName() != "c" })
	checkSet(t, "Filter", got, ".a.b", ".d", ".e.f")
	if got.WithPrefix(fieldpath.FieldName("e")) != s.WithPrefix(fieldpath.FieldName("e")) {
		t.Error("Filter did not share the unchanged subtree")
	}
	if s.Filter(func(fieldpath.Path) bool { return true }) != s {
		t.Error("Filter keeping everything did not return the set")
	}
	if !s.Filter(func(fieldpath.Path) bool { return false }).Empty() {
		t.Error("Filter keeping nothing is not empty")
	}
}

func TestAllStopsEarly(t *testing.T) {
	s := set(t, ".a", ".b.c", ".b.d", ".e")
	n := 0
	for range s.All() {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("iterated %d times", n)
	}
}

// TestStructuralSharing checks that results which equal an input are that
// input, that unchanged subtrees are shared, and that these cases allocate
// nothing.
func TestStructuralSharing(t *testing.T) {
	a := set(t, ".a.b.c", ".a.b.d", ".x.y", ".x", ".m[0]")
	sub := set(t, ".a.b.c", ".x")
	disjoint := set(t, ".q.r", ".a.z")
	checks := []struct {
		name string
		got  func() *fieldpath.Set
		want *fieldpath.Set
	}{
		{"a ∪ a", func() *fieldpath.Set { return a.Union(a) }, a},
		{"a ∪ sub", func() *fieldpath.Set { return a.Union(sub) }, a},
		{"sub ∪ a", func() *fieldpath.Set { return sub.Union(a) }, a},
		{"a ∩ a", func() *fieldpath.Set { return a.Intersection(a) }, a},
		{"sub ∩ a", func() *fieldpath.Set { return sub.Intersection(a) }, sub},
		{"a ∩ sub", func() *fieldpath.Set { return a.Intersection(sub) }, sub},
		{"a \\ disjoint", func() *fieldpath.Set { return a.Difference(disjoint) }, a},
		{"a rec\\ disjoint", func() *fieldpath.Set { return a.RecursiveDifference(disjoint) }, a},
		{"leaves of leaves", func() *fieldpath.Set { return disjoint.Leaves() }, disjoint},
	}
	for _, c := range checks {
		if got := c.got(); got != c.want {
			t.Errorf("%s: got a new set %v", c.name, got)
		}
		if allocs := testing.AllocsPerRun(20, func() { c.got() }); allocs != 0 {
			t.Errorf("%s: %v allocations", c.name, allocs)
		}
	}
	u := a.Union(disjoint)
	if u.WithPrefix(fieldpath.FieldName("x")) != a.WithPrefix(fieldpath.FieldName("x")) ||
		u.WithPrefix(fieldpath.FieldName("q")) != disjoint.WithPrefix(fieldpath.FieldName("q")) ||
		u.WithPrefix(fieldpath.FieldName("a")).WithPrefix(fieldpath.FieldName("b")) != a.WithPrefix(fieldpath.FieldName("a")).WithPrefix(fieldpath.FieldName("b")) {
		t.Error("Union did not share unchanged subtrees")
	}
	d := a.Difference(set(t, ".a.b.c"))
	if d.WithPrefix(fieldpath.FieldName("x")) != a.WithPrefix(fieldpath.FieldName("x")) {
		t.Error("Difference did not share an unchanged subtree")
	}
}

// model is the naive reference: a sorted list of distinct paths.
type model []fieldpath.Path

func toModel(s *fieldpath.Set) model {
	var m model
	for p := range s.All() {
		m = append(m, p.Copy())
	}
	slices.SortFunc(m, fieldpath.Path.Compare)
	return m
}

func (m model) has(p fieldpath.Path) bool {
	_, ok := slices.BinarySearchFunc(m, p, fieldpath.Path.Compare)
	return ok
}

func (m model) filter(keep func(fieldpath.Path) bool) model {
	var out model
	for _, p := range m {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

func union(a, b model) model {
	out := append(slices.Clone(a), b...)
	slices.SortFunc(out, fieldpath.Path.Compare)
	return slices.CompactFunc(out, fieldpath.Path.Equal)
}

func hasPrefixIn(m model, p fieldpath.Path) bool {
	for i := 1; i <= len(p); i++ {
		if m.has(p[:i]) {
			return true
		}
	}
	return false
}

func isProperPrefixOfAny(m model, p fieldpath.Path) bool {
	for _, q := range m {
		if len(q) > len(p) && q[:len(p)].Equal(p) {
			return true
		}
	}
	return false
}

func equalModel(t *testing.T, what string, got *fieldpath.Set, want model) {
	t.Helper()
	g := toModel(got)
	if !slices.EqualFunc(g, want, fieldpath.Path.Equal) {
		t.Fatalf("%s:\ngot  %v\nwant %v", what, g, want)
	}
	if got.Size() != len(want) || got.Empty() != (len(want) == 0) {
		t.Fatalf("%s: Size %d, Empty %v; model has %d", what, got.Size(), got.Empty(), len(want))
	}
}

func randomPair(r *rand.Rand) (*fieldpath.Set, *fieldpath.Set) {
	a := fieldpathtest.RandomSet(r, r.IntN(12))
	if r.IntN(3) == 0 {
		return a, fieldpathtest.RandomSet(r, r.IntN(12))
	}
	return a, fieldpathtest.RandomRelatedSet(r, a, r.IntN(12))
}

func TestSetAlgebraAgainstModel(t *testing.T) {
	seed := uint64(20250101)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	nonTrivial := 0
	for range 3000 {
		a, b := randomPair(r)
		ma, mb := toModel(a), toModel(b)
		aJSON, bJSON := a.MarshalFieldsV1(), b.MarshalFieldsV1()

		equalModel(t, "a", a, ma)
		equalModel(t, "Union", a.Union(b), union(ma, mb))
		equalModel(t, "Intersection", a.Intersection(b), ma.filter(mb.has))
		equalModel(t, "Difference", a.Difference(b), ma.filter(func(p fieldpath.Path) bool { return !mb.has(p) }))
		equalModel(t, "RecursiveDifference", a.RecursiveDifference(b), ma.filter(func(p fieldpath.Path) bool { return !hasPrefixIn(mb, p) }))
		equalModel(t, "Leaves", a.Leaves(), ma.filter(func(p fieldpath.Path) bool { return !isProperPrefixOfAny(ma, p) }))
		if !a.Intersection(b).Empty() && !a.RecursiveDifference(b).Equal(a.Difference(b)) {
			nonTrivial++
		}

		for _, p := range append(slices.Clone(mb), fieldpathtest.RandomPath(r, 3)) {
			if a.Has(p) != ma.has(p) {
				t.Fatalf("Has(%v) = %v on\n%v", p, a.Has(p), a)
			}
		}
		if a.Equal(b) != slices.EqualFunc(ma, mb, fieldpath.Path.Equal) {
			t.Fatalf("Equal wrong for\n%v\nand\n%v", a, b)
		}

		// Inputs are never modified.
		if !bytes.Equal(aJSON, a.MarshalFieldsV1()) || !bytes.Equal(bJSON, b.MarshalFieldsV1()) {
			t.Fatal("an operation modified its input")
		}
	}
	if nonTrivial < 100 {
		t.Errorf("only %d pairs exercised the difference between Difference and RecursiveDifference", nonTrivial)
	}
}

func TestSetAlgebraLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 1))
	for range 2000 {
		a, b := randomPair(r)
		c := fieldpathtest.RandomRelatedSet(r, b, r.IntN(8))
		if !a.Union(b).Equal(b.Union(a)) {
			t.Fatalf("union not commutative:\n%v\n--\n%v", a, b)
		}
		if !a.Intersection(b).Equal(b.Intersection(a)) {
			t.Fatalf("intersection not commutative")
		}
		if !a.Union(b).Union(c).Equal(a.Union(b.Union(c))) {
			t.Fatalf("union not associative")
		}
		if !a.Intersection(b).Intersection(c).Equal(a.Intersection(b.Intersection(c))) {
			t.Fatalf("intersection not associative")
		}
		if !a.Union(b).Difference(b).Difference(a).Empty() {
			t.Fatalf("(a∪b)\\b ⊄ a")
		}
		if !a.Difference(b).Union(a.Intersection(b)).Equal(a) {
			t.Fatalf("(a\\b) ∪ (a∩b) != a")
		}
		if !a.RecursiveDifference(b).Difference(a.Difference(b)).Empty() {
			t.Fatalf("a rec\\ b ⊄ a \\ b")
		}
		if !a.Leaves().Leaves().Equal(a.Leaves()) || !a.Leaves().Difference(a).Empty() {
			t.Fatalf("Leaves not idempotent or not a subset")
		}
		if a.Union(b).Size() != a.Size()+b.Size()-a.Intersection(b).Size() {
			t.Fatalf("|a∪b| != |a|+|b|-|a∩b|")
		}
		// Insert agrees with Union of a singleton.
		for p := range b.All() {
			if !a.Insert(p).Equal(a.Union(fieldpath.NewSet(p))) {
				t.Fatalf("Insert(%v) differs from Union", p)
			}
		}
	}
}

func TestSetStringIsOnePathPerLine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		s := fieldpathtest.RandomSet(r, r.IntN(6))
		var want []string
		for p := range s.All() {
			want = append(want, p.String())
		}
		if got := s.String(); got != strings.Join(want, "\n") {
			t.Fatalf("String() = %q, want %q", got, want)
		}
	}
}

// TestBuilderAgainstModel builds sets from random path lists (with repeats,
// prefixes and any order) and compares them with the sorted, distinct list
// and with repeated persistent Insert.
func TestBuilderAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for range 2000 {
		var paths []fieldpath.Path
		for range r.IntN(20) {
			switch {
			case len(paths) > 0 && r.IntN(4) == 0:
				paths = append(paths, paths[r.IntN(len(paths))]) // repeat
			case len(paths) > 0 && r.IntN(3) == 0:
				p := paths[r.IntN(len(paths))]
				paths = append(paths, append(p.Copy(), fieldpathtest.RandomPath(r, 2)...)) // extend
			default:
				paths = append(paths, fieldpathtest.RandomPath(r, 4))
			}
		}
		if r.IntN(2) == 0 {
			slices.SortFunc(paths, fieldpath.Path.Compare)
		}
		want := union(nil, model(paths))
		var b fieldpath.Builder
		var inserted *fieldpath.Set
		for _, p := range paths {
			b.Insert(p)
			inserted = inserted.Insert(p)
		}
		built := b.Build()
		equalModel(t, "Build", built, want)
		equalModel(t, "Insert", inserted, want)
		if !built.Equal(inserted) {
			t.Fatal("Build and Insert differ")
		}
	}
}

// values collects the values of seq.
func values[K, V any](seq iter.Seq2[K, V]) []V {
	var out []V
	for _, v := range seq {
		out = append(out, v)
	}
	return out
}

package schema

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/structmerge/structmerge/value"
)

// ignoreLines makes go-cmp skip the Line fields of the source structs.
var ignoreLines = cmp.FilterPath(func(p cmp.Path) bool {
	sf, ok := p.Last().(cmp.StructField)
	return ok && sf.Name() == "Line"
}, cmp.Ignore())

// checkRoundTrip marshals doc, parses the output and checks it gives doc
// back (deep: also compared field by field); when doc compiles, the reparsed one compiles to equal types.
func checkRoundTrip(t testing.TB, doc *Document, deep bool) {
	t.Helper()
	out, err := Marshal(doc)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(Marshal(doc)): %v\n%s", err, out)
	}
	// Marshal writes everything but lines, so equal output means equal
	// documents; go-cmp (slow on large documents) explains a difference.
	again, err := Marshal(back)
	if err != nil {
		t.Fatalf("Marshal(reparsed): %v", err)
	}
	if string(again) != string(out) || deep {
		if diff := cmp.Diff(doc, back, cmpValues, ignoreLines, cmp.Comparer(func(a, b []string) bool {
			return len(a) == len(b) && (len(a) == 0 || cmp.Equal(a, b))
		})); diff != "" || string(again) != string(out) {
			t.Fatalf("round trip (-doc +reparsed):\n%s\n%s", diff, out)
		}
	}
	s1, err1 := Compile(doc)
	s2, err2 := Compile(back)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("Compile: %v vs %v", err1, err2)
	}
	if err1 != nil {
		return
	}
	if !EqualSchemas(s1, s2) {
		t.Fatal("schema differs after a round trip")
	}
}

func TestMarshalRoundTripCorpus(t *testing.T) {
	valid, _ := corpus(t)
	for _, name := range valid {
		if name == "smd/k8s-schema.yaml" || name == "smd/k8s-schema-10pct-fieldoverride.yaml" {
			continue // the 100pct variant has the same types and more overrides
		}
		doc, err := Parse(readSchema(t, name))
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, doc, false)
	}
}

func TestMarshalNil(t *testing.T) {
	if _, err := Marshal(nil); err == nil {
		t.Error("Marshal(nil) succeeded")
	}
}

// TestMarshalRoundTripRandom is a property test: random documents survive
// Marshal and Parse, and compile (or fail) the same way afterwards.
func TestMarshalRoundTripRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < 200; i++ {
		doc := randomDocument(r)
		checkRoundTrip(t, doc, i%4 == 0)
		// Compiling is deterministic.
		s1, err1 := Compile(doc)
		s2, err2 := Compile(doc)
		switch {
		case (err1 == nil) != (err2 == nil):
			t.Fatalf("seed %d: Compile not deterministic", seed)
		case err1 != nil:
			if err1.Error() != err2.Error() {
				t.Fatalf("seed %d: errors differ:\n%v\n%v", seed, err1, err2)
			}
		default:
			checkInvariants(t, s1)
			if !EqualSchemas(s1, s2) {
				t.Fatalf("seed %d: compiled twice, schemas differ", seed)
			}
		}
	}
}

var (
	randScalars  = []string{"", "", "numeric", "string", "boolean", "untyped"}
	randListRels = []string{"", "atomic", "associative"}
	randMapRels  = []string{"", "separable", "atomic", "granular"}
	randNames    = []string{"a", "b", "c", "d", "e", "name", "port", "protocol", "x y", "yes", "123", ""}
)

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func randomDocument(r *rand.Rand) *Document {
	n := 1 + r.IntN(5)
	doc := &Document{}
	for i := 0; i < n; i++ {
		doc.Types = append(doc.Types, NamedType{Name: "t" + strconv.Itoa(i), Atom: randomAtom(r, n, 0)})
	}
	return doc
}

func randomAtom(r *rand.Rand, ntypes, depth int) Atom {
	var a Atom
	a.Scalar = pick(r, randScalars)
	if depth < 3 && r.IntN(3) == 0 {
		l := &ListDef{ElementType: randomRef(r, ntypes, depth+1), ElementRelationship: pick(r, randListRels)}
		for k := r.IntN(3); k > 0; k-- {
			l.Keys = append(l.Keys, pick(r, randNames))
		}
		a.List = l
	}
	if depth < 3 && r.IntN(2) == 0 {
		m := &MapDef{ElementRelationship: pick(r, randMapRels)}
		used := map[string]bool{}
		for k := r.IntN(6); k > 0; k-- {
			name := pick(r, randNames)
			if used[name] {
				continue
			}
			used[name] = true
			f := FieldDef{Name: name, Type: randomRef(r, ntypes, depth+1)}
			if r.IntN(3) == 0 {
				f.Default = randomValue(r, 0)
			}
			m.Fields = append(m.Fields, f)
		}
		if r.IntN(2) == 0 {
			m.ElementType = randomRef(r, ntypes, depth+1)
		}
		if r.IntN(4) == 0 {
			u := UnionDef{DeduceInvalidDiscriminator: r.IntN(2) == 0}
			if r.IntN(2) == 0 {
				u.Discriminator, u.HasDiscriminator = pick(r, randNames), true
			}
			u.Fields = append(u.Fields, UnionFieldDef{FieldName: "a", DiscriminatorValue: "A"})
			m.Unions = append(m.Unions, u)
		}
		a.Map = m
	}
	return a
}

func randomRef(r *rand.Rand, ntypes, depth int) TypeRef {
	var ref TypeRef
	if r.IntN(2) == 0 {
		ref.NamedType = "t" + strconv.Itoa(r.IntN(ntypes))
	} else {
		ref.Atom = randomAtom(r, ntypes, depth)
	}
	if r.IntN(4) == 0 {
		ref.ElementRelationship = pick(r, []string{"atomic", "separable", "associative", "granular"})
	}
	ref.Nullable = r.IntN(8) == 0
	return ref
}

func randomValue(r *rand.Rand, depth int) value.Value {
	switch k := r.IntN(8); {
	case k == 0:
		return value.NewBool(r.IntN(2) == 0)
	case k == 1:
		return value.NewInt(r.Int64N(2000) - 1000)
	case k == 2:
		return value.NewFloat(float64(r.IntN(1000)) / 8)
	case k == 3 && depth < 3:
		items := make([]value.Value, r.IntN(3))
		for i := range items {
			items[i] = randomValue(r, depth+1)
		}
		return value.NewList(items)
	case k == 4 && depth < 3:
		var fields []value.Field
		for i := r.IntN(3); i > 0; i-- {
			fields = append(fields, value.Field{Name: pick(r, randNames), Value: randomValue(r, depth+1)})
		}
		return value.NewMap(fields)
	}
	return value.NewString(pick(r, append(randNames, "TCP", "true", "null", "1.5", "~", "- x", "a: b")))
}

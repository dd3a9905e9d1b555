package value_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
)

// closeValues returns n values in which many are equal or nearly equal to
// others, so that comparisons reach deep into the trees.
func closeValues(r *rand.Rand, n int) []value.Value {
	out := make([]value.Value, 0, n)
	for len(out) < n {
		if len(out) > 0 && r.IntN(3) > 0 {
			out = append(out, valuetest.Mutate(r, out[r.IntN(len(out))]))
			continue
		}
		out = append(out, valuetest.Random(r, 3))
	}
	return out
}

// exactNumbers reports whether every integer in v converts to a float64
// exactly. Compare, like structured-merge-diff's, compares an int with a float
// through float64, so it is transitive only among such values.
func exactNumbers(v value.Value) bool {
	switch v.Kind() {
	case value.Int:
		i := v.AsInt()
		return i >= -(1<<53) && i <= 1<<53
	case value.List:
		for _, it := range v.Items() {
			if !exactNumbers(it) {
				return false
			}
		}
	case value.Map:
		for _, f := range v.Fields() {
			if !exactNumbers(f.Value) {
				return false
			}
		}
	}
	return true
}

func TestCompareIsATotalOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	vals := slices.DeleteFunc(closeValues(r, 400), func(v value.Value) bool { return !exactNumbers(v) })
	equalPairs := 0
	for _, a := range vals {
		if c := value.Compare(a, a); c != 0 {
			t.Fatalf("Compare(a, a) = %d for %v", c, a)
		}
		for _, b := range vals {
			ab, ba := value.Compare(a, b), value.Compare(b, a)
			if ab != -ba || ab < -1 || ab > 1 {
				t.Fatalf("Compare(a, b) = %d, Compare(b, a) = %d\n a = %v\n b = %v", ab, ba, a, b)
			}
			if eq := value.Equal(a, b); eq != (ab == 0) {
				t.Fatalf("Equal = %v but Compare = %d\n a = %v\n b = %v", eq, ab, a, b)
			}
			if value.Less(a, b) != (ab < 0) {
				t.Fatalf("Less disagrees with Compare for %v, %v", a, b)
			}
			if ab == 0 {
				equalPairs++
			}
		}
	}
	if equalPairs <= len(vals) {
		t.Fatalf("only %d equal pairs among %d values: the generator does not make close values", equalPairs, len(vals))
	}
	// Transitivity: sorting with Compare gives a sequence in which every
	// pair is in order, which fails if any triple is not transitive.
	sorted := slices.Clone(vals)
	slices.SortFunc(sorted, value.Compare)
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if value.Compare(sorted[i], sorted[j]) > 0 {
				t.Fatalf("not transitive: after sorting, item %d > item %d\n %v\n %v", i, j, sorted[i], sorted[j])
			}
		}
	}
	// And on random triples directly.
	for range 200000 {
		a, b, c := vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
		if value.Compare(a, b) <= 0 && value.Compare(b, c) <= 0 && value.Compare(a, c) > 0 {
			t.Fatalf("not transitive:\n a = %v\n b = %v\n c = %v", a, b, c)
		}
	}
}

func TestCompareTable(t *testing.T) {
	// In increasing order; items in one group are equal.
	groups := [][]value.Value{
		{vFlt(math.Inf(-1))},
		{vInt(-5), vFlt(-5)},
		{vFlt(-0.5)},
		{vInt(0), vFlt(0), vFlt(math.Copysign(0, -1))},
		{vFlt(0.5)},
		{vInt(1), vFlt(1)},
		{vInt(math.MaxInt64)},
		{vStr("")},
		{vStr("a")},
		{vStr("b")},
		{vBool(false)},
		{vBool(true)},
		{listOf()},
		{listOf(vInt(1)), listOf(vFlt(1))},
		{listOf(vInt(1), vStr("x"))},
		{listOf(vInt(2))},
		{listOf(vStr("a"))},
		{valuetest.Map()},
		{valuetest.Map("a", vInt(1)), valuetest.Map("a", vFlt(1))},
		{valuetest.Map("a", vInt(1), "b", vInt(0))},
		{valuetest.Map("a", vInt(2))},
		{valuetest.Map("b", vInt(0))},
		{vNull},
	}
	for i, gi := range groups {
		for j, gj := range groups {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			for _, a := range gi {
				for _, b := range gj {
					if got := value.Compare(a, b); got != want {
						t.Errorf("Compare(%v, %v) = %d, want %d", a, b, got, want)
					}
					if got := value.Equal(a, b); got != (want == 0) {
						t.Errorf("Equal(%v, %v) = %v", a, b, got)
					}
				}
			}
		}
	}
}

// TestCompareLargeIntegers pins down a property inherited from
// structured-merge-diff: an int and a float compare through float64, so
// integers beyond 2^53 can equal a float that equals a different integer.
func TestCompareLargeIntegers(t *testing.T) {
	a, b, c := vInt(1<<53+1), vFlt(1<<53), vInt(1<<53)
	if value.Compare(a, b) != 0 || value.Compare(b, c) != 0 || value.Compare(a, c) != 1 {
		t.Fatalf("Compare: a~b %d, b~c %d, a~c %d; want 0, 0, 1", value.Compare(a, b), value.Compare(b, c), value.Compare(a, c))
	}
	if !value.Equal(a, b) || value.Equal(a, c) {
		t.Fatal("Equal disagrees with structured-merge-diff on large integers")
	}
}

// TestValueSize guards the compact representation: a Value is a kind, a
// payload and one pointer.
func TestValueSize(t *testing.T) {
	if size := unsafe.Sizeof(value.Value{}); size != 24 {
		t.Fatalf("a Value takes %d bytes, want 24", size)
	}
}

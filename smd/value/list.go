package value

// List is an ordered list of values.
type List interface {
	// Length returns the number of items.
	Length() int
	// At returns item i; it panics if i is out of range.
	At(int) Value
	// AtUsing is At with an allocator.
	AtUsing(Allocator, int) Value
	// Range returns an iterator over the items.
	Range() ListRange
	// RangeUsing is Range with an allocator.
	RangeUsing(Allocator) ListRange
	// Equals reports whether the lists have equal items in the same order.
	Equals(List) bool
	// EqualsUsing is Equals with an allocator.
	EqualsUsing(Allocator, List) bool
}

// ListRange iterates over a list: call Next, and while it returns true,
// Item returns the current index and item.
type ListRange interface {
	// Next advances to the next item and reports whether there is one.
	Next() bool
	// Item returns the current index and item.
	Item() (index int, value Value)
}

// EmptyRange is a ListRange with no items.
var EmptyRange = &emptyRange{}

type emptyRange struct{}

func (*emptyRange) Next() bool         { return false }
func (*emptyRange) Item() (int, Value) { panic("value: Item of an empty range") }

// ListEquals reports whether the lists have equal items in the same order.
func ListEquals(lhs, rhs List) bool { return ListEqualsUsing(HeapAllocator, lhs, rhs) }

// ListEqualsUsing is ListEquals with an allocator.
func ListEqualsUsing(a Allocator, lhs, rhs List) bool {
	if lhs.Length() != rhs.Length() {
		return false
	}
	for i := range lhs.Length() {
		if !EqualsUsing(a, lhs.AtUsing(a, i), rhs.AtUsing(a, i)) {
			return false
		}
	}
	return true
}

// ListLess reports whether lhs sorts before rhs in ListCompare's order.
func ListLess(lhs, rhs List) bool { return ListCompare(lhs, rhs) == -1 }

// ListCompare orders lists item by item; a list that is a prefix of the
// other comes first.
func ListCompare(lhs, rhs List) int { return ListCompareUsing(HeapAllocator, lhs, rhs) }

// ListCompareUsing is ListCompare with an allocator.
func ListCompareUsing(a Allocator, lhs, rhs List) int {
	n, m := lhs.Length(), rhs.Length()
	for i := 0; ; i++ {
		switch {
		case i == n && i == m:
			return 0
		case i == n:
			return -1
		case i == m:
			return 1
		}
		if c := CompareUsing(a, lhs.AtUsing(a, i), rhs.AtUsing(a, i)); c != 0 {
			return c
		}
	}
}

// anyList is a List over []interface{}.
type anyList []interface{}

func (l anyList) Length() int                      { return len(l) }
func (l anyList) At(i int) Value                   { return anyValue{l[i]} }
func (l anyList) AtUsing(_ Allocator, i int) Value { return anyValue{l[i]} }
func (l anyList) Range() ListRange {
	if len(l) == 0 {
		return EmptyRange
	}
	return &anyListRange{list: l, i: -1}
}
func (l anyList) RangeUsing(Allocator) ListRange       { return l.Range() }
func (l anyList) Equals(o List) bool                   { return ListEquals(l, o) }
func (l anyList) EqualsUsing(a Allocator, o List) bool { return ListEqualsUsing(a, l, o) }

type anyListRange struct {
	list anyList
	i    int
}

func (r *anyListRange) Next() bool {
	r.i++
	return r.i < len(r.list)
}

func (r *anyListRange) Item() (int, Value) {
	if r.i < 0 || r.i >= len(r.list) {
		panic("value: Item called without a successful Next")
	}
	return r.i, anyValue{r.list[r.i]}
}

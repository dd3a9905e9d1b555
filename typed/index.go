package typed

import (
	"slices"
	"strings"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// itemIndex finds the items of an associative list by path element. It is
// built once per list per walk by sorting positions, so lookups cost
// O(log n), duplicates are known in O(1), and nothing is hashed.
type itemIndex struct {
	pes   []fieldpath.PathElement // by position; zero element where ok[i] is false
	ok    []bool
	order []int32 // positions with ok, sorted by (element, position)
	// first[i] is the position of the first item with the same element as
	// item i; count[i] how many items have it (both set where ok[i]).
	first, count []int32
	// dups is whether some element is that of more than one item.
	dups bool
	// When every item's key is one field, keyName, holding a string, strs
	// holds the strings by position, and sorting and searching compare
	// them directly (the common case: lists keyed by name).
	keyName string
	strs    []string
}

// stringKey returns the key of pe when it is one field holding a string.
func stringKey(pe fieldpath.PathElement) (name, s string, ok bool) {
	k := own.Set.KeyFields(pe)
	if len(k) != 1 || k[0].Value.Kind() != value.String {
		return "", "", false
	}
	return k[0].Name, k[0].Value.AsString(), true
}

// scratch is a walk's reusable memory for the indexes of its lists. Lists
// nest, so it is used as a stack: a list takes what it needs with index and
// gives it back with release, after the lists inside it have given back
// theirs. Key fields are handed out from blocks and never given back, since
// the path elements that point to them may end up in a result set.
type scratch struct {
	pes   []fieldpath.PathElement
	flags []bool
	ints  []int32
	strs  []string
	keys  []value.Field
	sets  []*fieldpath.Set
	// Memory for sorting one list's positions by key strings, used and
	// given back within index.
	words  []uint64
	sorted []int32
}

// sortMemory returns room for sortByStrings on n positions out of
// positions.
func (s *scratch) sortMemory(n, positions int) (keys, tmpKeys, next []uint64, tmpPos []int32) {
	if cap(s.words) < 2*n+positions {
		s.words = make([]uint64, 2*n+positions)
	}
	if cap(s.sorted) < n {
		s.sorted = make([]int32, n)
	}
	w := s.words[:2*n+positions]
	return w[:n], w[n : 2*n], w[2*n:], s.sorted[:n]
}

// scratchMark is the state of a scratch to go back to.
type scratchMark struct{ pes, flags, ints, strs, sets int }

func (s *scratch) mark() scratchMark {
	return scratchMark{len(s.pes), len(s.flags), len(s.ints), len(s.strs), len(s.sets)}
}

// release gives back everything taken since m.
func (s *scratch) release(m scratchMark) {
	clear(s.pes[m.pes:]) // they point into values: let those go
	clear(s.strs[m.strs:])
	clear(s.sets[m.sets:])
	s.pes, s.flags, s.ints, s.strs = s.pes[:m.pes], s.flags[:m.flags], s.ints[:m.ints], s.strs[:m.strs]
	s.sets = s.sets[:m.sets]
}

// itemSets returns room for the sets of n items, given back by release.
func (s *scratch) itemSets(n int) []*fieldpath.Set { return take(&s.sets, n) }

// take returns n zeroed entries from the top of *stack. When the stack has
// no room, it continues in a new array of the same length (what was taken
// stays in the old one), so marks stay valid.
func take[T any](stack *[]T, n int) []T {
	out, fresh := takeDirty(stack, n)
	if !fresh {
		clear(out)
	}
	return out
}

// takeDirty is take without the zeroing, for int scratch whose entries are
// all written before they are read; fresh reports new (zeroed) memory.
func takeDirty[T any](stack *[]T, n int) (out []T, fresh bool) {
	st := *stack
	if cap(st)-len(st) < n {
		st = make([]T, len(st), max(2*cap(st), len(st)+n, 32))
		fresh = true
	}
	out = st[len(st) : len(st)+n : len(st)+n]
	*stack = st[:len(st)+n]
	return out, fresh
}

// dirtyInts returns n entries of int scratch, not zeroed.
func (s *scratch) dirtyInts(n int) []int32 {
	out, _ := takeDirty(&s.ints, n)
	return out
}

// keyBlock returns room for n key fields.
func (s *scratch) keyBlock(n int) []value.Field {
	if cap(s.keys)-len(s.keys) < n {
		s.keys = make([]value.Field, 0, max(n, 16))
	}
	out := s.keys[len(s.keys) : len(s.keys) : len(s.keys)+n]
	s.keys = s.keys[:len(s.keys)+n]
	return out
}

// index computes the path elements of the items of an associative list and
// indexes them, in memory taken from s (give it back with release); report
// is called for each item that has none.
func (s *scratch) index(l *schema.List, items []value.Value, report func(i int, err error)) itemIndex {
	pes := take(&s.pes, len(items))
	ok := take(&s.flags, len(items))
	var keyBuf []value.Field
	if n := len(l.Keys()); n > 1 {
		// (A single key is the item's own field; see itemElementIn.)
		keyBuf = s.keyBlock(n * len(items))
	}
	for i := range items {
		pe, err := itemElementIn(l, &items[i], &keyBuf)
		if err != nil {
			report(i, err)
			continue
		}
		pes[i], ok[i] = pe, true
	}
	order := s.dirtyInts(len(pes))[:0]
	for i := range pes {
		if ok[i] {
			order = append(order, int32(i))
		}
	}
	x := itemIndex{pes: pes, ok: ok, order: order}
	x.keyName, x.strs = s.stringKeys(pes, order)
	// same(i) reports whether order[i] has the element of order[i-1].
	same := func(i int) bool { return x.same(order[i], order[i-1]) }
	if x.strs != nil {
		if sortedUniqueStrings(x.strs, order) {
			same = func(int) bool { return false }
		} else {
			// The sort tells equal strings apart from its words, without
			// visiting the strings again in sorted order.
			keys, tmpKeys, next, tmpPos := s.sortMemory(len(order), len(x.strs))
			eq := take(&s.flags, len(order))
			sortByStrings(order, x.strs, keys, tmpKeys, next, tmpPos, eq)
			same = func(i int) bool { return eq[i] }
		}
	} else if !sortedUnique(pes, order) {
		slices.SortFunc(order, func(a, b int32) int {
			if c := pes[a].Compare(pes[b]); c != 0 {
				return c
			}
			return int(a - b)
		})
	}
	meta := s.dirtyInts(2 * len(pes))
	x.first, x.count = meta[:len(pes)], meta[len(pes):]
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && same(hi) {
			hi++
		}
		x.dups = x.dups || hi-lo > 1
		for _, p := range order[lo:hi] {
			x.first[p], x.count[p] = order[lo], int32(hi-lo)
		}
		lo = hi
	}
	return x
}

// stringKeys returns the key name and the key strings by position when the
// items at the positions in order all have a key of one field, of the same
// name, holding a string; else "", nil.
func (s *scratch) stringKeys(pes []fieldpath.PathElement, order []int32) (string, []string) {
	if len(order) < 2 {
		return "", nil
	}
	name, _, ok := stringKey(pes[order[0]])
	if !ok {
		return "", nil
	}
	m := s.mark()
	strs := take(&s.strs, len(pes))
	for _, p := range order {
		n, str, ok := stringKey(pes[p])
		if !ok || n != name {
			s.release(m)
			return "", nil
		}
		strs[p] = str
	}
	return name, strs
}

// same reports whether the items at positions a and b have the same element.
func (x *itemIndex) same(a, b int32) bool {
	if x.strs != nil {
		return x.strs[a] == x.strs[b]
	}
	return x.pes[a].Equal(x.pes[b])
}

// compareItems compares the element of item a of x with that of item b of y.
func compareItems(x *itemIndex, a int32, y *itemIndex, b int32) int {
	if x.strs != nil && y.strs != nil && x.keyName == y.keyName {
		return strings.Compare(x.strs[a], y.strs[b])
	}
	return x.pes[a].Compare(y.pes[b])
}

func sortedUniqueStrings(strs []string, order []int32) bool {
	for i := 1; i < len(order); i++ {
		if strs[order[i-1]] >= strs[order[i]] {
			return false
		}
	}
	return true
}

func sortedUnique(pes []fieldpath.PathElement, order []int32) bool {
	for i := 1; i < len(order); i++ {
		if pes[order[i-1]].Compare(pes[order[i]]) >= 0 {
			return false
		}
	}
	return true
}

// search returns the index in order of the first position holding pe, or -1.
func (x *itemIndex) search(pe fieldpath.PathElement) int {
	if x.strs != nil {
		if name, str, ok := stringKey(pe); ok && name == x.keyName {
			return x.searchString(str)
		}
	}
	lo, hi := 0, len(x.order)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.pes[x.order[m]].Compare(pe) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(x.order) && x.pes[x.order[lo]].Equal(pe) {
		return lo
	}
	return -1
}

// searchString is search for the element whose key string is str.
func (x *itemIndex) searchString(str string) int {
	lo, hi := 0, len(x.order)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.strs[x.order[m]] < str {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(x.order) && x.strs[x.order[lo]] == str {
		return lo
	}
	return -1
}

// lookup returns the first position holding pe and how many positions hold it.
func (x *itemIndex) lookup(pe fieldpath.PathElement) (first int, count int) {
	j := x.search(pe)
	if j < 0 {
		return -1, 0
	}
	p := x.order[j]
	return int(p), int(x.count[p])
}

// find is lookup trying position hint first: lists whose items come in the
// same order find each item where the walk expects it, with no search.
func (x *itemIndex) find(pe fieldpath.PathElement, hint int) (first int, count int) {
	if hint >= 0 && hint < len(x.pes) && x.ok[hint] && x.pes[hint].Equal(pe) {
		return int(x.first[hint]), int(x.count[hint])
	}
	return x.lookup(pe)
}

// positions returns every position holding pe, in list order.
func (x *itemIndex) positions(pe fieldpath.PathElement) []int32 {
	j := x.search(pe)
	if j < 0 {
		return nil
	}
	return x.order[j : j+int(x.count[x.order[j]])]
}

// isDuplicate reports whether the item at position i repeats an earlier one.
func (x *itemIndex) isDuplicate(i int) bool { return x.ok[i] && int(x.first[i]) != i }

// hasDuplicates reports whether the item at position i shares its element
// with another item.
func (x *itemIndex) hasDuplicates(i int) bool { return x.ok[i] && x.count[i] > 1 }

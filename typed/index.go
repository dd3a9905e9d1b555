package typed

import (
	"slices"

	"github.com/structmerge/structmerge/fieldpath"
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
}

// indexItems computes the path elements of the items of an associative
// list and indexes them; report is called for each item that has none.
func indexItems(l *schema.List, items []value.Value, report func(i int, err error)) itemIndex {
	pes := make([]fieldpath.PathElement, len(items))
	ok := make([]bool, len(items))
	var keyBuf []value.Field
	if n := len(l.Keys()); n > 0 {
		keyBuf = make([]value.Field, 0, n*len(items))
	}
	for i, item := range items {
		pe, err := itemElementIn(l, item, &keyBuf)
		if err != nil {
			report(i, err)
			continue
		}
		pes[i], ok[i] = pe, true
	}
	return newItemIndex(pes, ok)
}

func newItemIndex(pes []fieldpath.PathElement, ok []bool) itemIndex {
	order := make([]int32, 0, len(pes))
	for i := range pes {
		if ok[i] {
			order = append(order, int32(i))
		}
	}
	if !sortedUnique(pes, order) {
		slices.SortFunc(order, func(a, b int32) int {
			if c := pes[a].Compare(pes[b]); c != 0 {
				return c
			}
			return int(a - b)
		})
	}
	meta := make([]int32, 2*len(pes))
	first, count := meta[:len(pes)], meta[len(pes):]
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && pes[order[hi]].Equal(pes[order[lo]]) {
			hi++
		}
		for _, p := range order[lo:hi] {
			first[p], count[p] = order[lo], int32(hi-lo)
		}
		lo = hi
	}
	return itemIndex{pes: pes, ok: ok, order: order, first: first, count: count}
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

// lookup returns the first position holding pe and how many positions hold it.
func (x *itemIndex) lookup(pe fieldpath.PathElement) (first int, count int) {
	j := x.search(pe)
	if j < 0 {
		return -1, 0
	}
	p := x.order[j]
	return int(p), int(x.count[p])
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

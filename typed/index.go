package typed

import (
	"slices"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// itemIndex finds the items of an associative list by path element. It is
// built once per list per walk by sorting positions, so lookups cost
// O(log n) and nothing is hashed or allocated per item.
type itemIndex struct {
	pes   []fieldpath.PathElement // by position; zero element where ok[i] is false
	ok    []bool
	order []int32 // positions with ok, sorted by (element, position)
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
	return itemIndex{pes: pes, ok: ok, order: order}
}

func sortedUnique(pes []fieldpath.PathElement, order []int32) bool {
	for i := 1; i < len(order); i++ {
		if pes[order[i-1]].Compare(pes[order[i]]) >= 0 {
			return false
		}
	}
	return true
}

// lookup returns the first position holding pe and how many positions hold it.
func (x *itemIndex) lookup(pe fieldpath.PathElement) (first int, count int) {
	lo, hi := 0, len(x.order)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.pes[x.order[m]].Compare(pe) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	n := 0
	for j := lo; j < len(x.order) && x.pes[x.order[j]].Equal(pe); j++ {
		n++
	}
	if n == 0 {
		return -1, 0
	}
	return int(x.order[lo]), n
}

// positions returns every position holding pe, in list order.
func (x *itemIndex) positions(pe fieldpath.PathElement) []int32 {
	lo, hi := 0, len(x.order)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.pes[x.order[m]].Compare(pe) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	end := lo
	for end < len(x.order) && x.pes[x.order[end]].Equal(pe) {
		end++
	}
	return x.order[lo:end]
}

// isDuplicate reports whether the item at position i repeats an earlier one.
func (x *itemIndex) isDuplicate(i int) bool {
	first, _ := x.lookup(x.pes[i])
	return first != i
}

// hasDuplicates reports whether any element occurs twice.
func (x *itemIndex) hasDuplicates(pe fieldpath.PathElement) bool {
	_, n := x.lookup(pe)
	return n > 1
}

package gostruct

import (
	"slices"
	"strings"

	"github.com/structmerge/structmerge/internal/valueown"
	"github.com/structmerge/structmerge/value"
)

// The operations of package value that the codec builds on without a
// copy, registered by value when it is initialised (see package
// valueown). Set during initialisation and never written again.
var (
	own   = valueown.Of[value.Value, value.Field]()
	codec = valueown.DecodeOf[value.Value, value.Field]()
)

// options resolves the options of a conversion.
func options(opts []value.DecodeOption) (valueown.DecodeConfig[value.Origin], error) {
	return valueown.Resolve(opts, value.DefaultMaxDepth, value.DefaultMaxBytes)
}

// chunks is the allocator of the slices of the maps and lists a
// conversion builds; it is lent to value's JSON decoder for the types
// that marshal themselves.
type chunks = valueown.Chunks[value.Field, value.Value]

// emptyList and emptyMap are the values of an empty list and map.
var (
	emptyList = value.NewList(nil)
	emptyMap  = value.NewMap(nil)
)

// smallMap is the number of entries up to which a map is sorted on the
// stack.
const smallMap = 12

// sortFields sorts fields by name.
func sortFields(fields []value.Field) {
	slices.SortFunc(fields, func(a, b value.Field) int { return strings.Compare(a.Name, b.Name) })
}

// smallOrder returns the indexes of fields, at most smallMap of them, in
// name order, sorted by insertion: the sort moves no fields. It is
// value's, written again: reached through a registered function, or as a
// generic function taking the name's accessor, the stack array of fields
// escapes to the heap (one to three allocations more per conversion,
// measured on the KubeBoundary rows).
func smallOrder(fields []value.Field) (order [smallMap]uint8) {
	for i := range fields {
		order[i] = uint8(i)
		for j := i; j > 0 && nameLess(fields[i].Name, fields[order[j-1]].Name); j-- {
			order[j], order[j-1] = order[j-1], uint8(i)
		}
	}
	return order
}

// nameLess is a < b, deciding by the first bytes inline when they differ
// (the names of a map mostly do), where the string comparison is a call.
func nameLess(a, b string) bool {
	if a != "" && b != "" && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}

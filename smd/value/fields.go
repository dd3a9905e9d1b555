package value

import (
	"slices"
	"strings"
)

// Field is a named value, an entry of a FieldList.
type Field struct {
	Name  string
	Value Value
}

// FieldList is a list of fields, as in the key of an associative-list item.
// It is kept sorted by name (Sort) for comparison.
type FieldList []Field

// Copy returns a copy of the list (the values are shared).
func (f FieldList) Copy() FieldList { return slices.Clone(f) }

// Sort sorts the list by name, in place.
func (f FieldList) Sort() {
	slices.SortStableFunc(f, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
}

// Less reports whether f sorts before rhs in Compare's order.
func (f FieldList) Less(rhs FieldList) bool { return f.Compare(rhs) == -1 }

// Compare orders field lists field by field (name, then value); a list that
// is a prefix of the other comes first. Both lists must be sorted.
func (f FieldList) Compare(rhs FieldList) int {
	for i := 0; ; i++ {
		switch {
		case i == len(f) && i == len(rhs):
			return 0
		case i == len(f):
			return -1
		case i == len(rhs):
			return 1
		}
		if c := strings.Compare(f[i].Name, rhs[i].Name); c != 0 {
			return c
		}
		if c := Compare(f[i].Value, rhs[i].Value); c != 0 {
			return c
		}
	}
}

// Equals reports whether the lists have the same names with equal values in
// the same order.
func (f FieldList) Equals(rhs FieldList) bool {
	if len(f) != len(rhs) {
		return false
	}
	for i := range f {
		if f[i].Name != rhs[i].Name || !Equals(f[i].Value, rhs[i].Value) {
			return false
		}
	}
	return true
}

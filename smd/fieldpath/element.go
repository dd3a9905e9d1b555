package fieldpath

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// PathElement is one step of a path. Exactly one field is set: a field
// name, the key fields of an associative-list item, the value of a set item,
// or a list index.
type PathElement struct {
	// FieldName names a field of a map.
	FieldName *string

	// Key holds the key fields of an item of an associative list, sorted by
	// name.
	Key *value.FieldList

	// Value is an item of a list of scalars treated as a set.
	Value *value.Value

	// Index is the position of an item in an atomic list.
	Index *int
}

// FieldNameElement returns the element for a field name.
func FieldNameElement(name string) PathElement { return PathElement{FieldName: &name} }

// KeyElement returns the element for an associative-list key; fields must be
// sorted by name.
func KeyElement(fields ...value.Field) PathElement {
	l := value.FieldList(fields)
	return PathElement{Key: &l}
}

// KeyElementByFields is KeyElement from alternating names and values (see
// KeyByFields).
func KeyElementByFields(nameValues ...any) PathElement {
	return PathElement{Key: KeyByFields(nameValues...)}
}

// ValueElement returns the element for a set item.
func ValueElement(value value.Value) PathElement { return PathElement{Value: &value} }

// IndexElement returns the element for a list index.
func IndexElement(index int) PathElement { return PathElement{Index: &index} }

// kindRank orders the kinds of elements: field names, keys, values, indexes,
// then the invalid element.
func (e PathElement) kindRank() int {
	switch {
	case e.FieldName != nil:
		return 0
	case e.Key != nil:
		return 1
	case e.Value != nil:
		return 2
	case e.Index != nil:
		return 3
	}
	return 4
}

// Less reports whether e sorts before rhs.
func (e PathElement) Less(rhs PathElement) bool { return e.Compare(rhs) < 0 }

// Compare orders elements: field names, then keys, values and indexes, each
// kind by its content. It returns -1, 0 or 1.
func (e PathElement) Compare(rhs PathElement) int {
	a, b := e.kindRank(), rhs.kindRank()
	if a != b {
		if a < b {
			return -1
		}
		return 1
	}
	switch a {
	case 0:
		return strings.Compare(*e.FieldName, *rhs.FieldName)
	case 1:
		return e.Key.Compare(*rhs.Key)
	case 2:
		return value.Compare(*e.Value, *rhs.Value)
	case 3:
		return value.IntCompare(int64(*e.Index), int64(*rhs.Index))
	}
	return 0
}

// Equals reports whether the elements are the same.
func (e PathElement) Equals(rhs PathElement) bool {
	a, b := e.kindRank(), rhs.kindRank()
	if a != b {
		return false
	}
	switch a {
	case 0:
		return *e.FieldName == *rhs.FieldName
	case 1:
		return e.Key.Equals(*rhs.Key)
	case 2:
		return value.Equals(*e.Value, *rhs.Value)
	case 3:
		return *e.Index == *rhs.Index
	}
	return true
}

// String renders the element as in SMD's paths: .name, [k=v,...], [=v] or
// [i].
func (e PathElement) String() string {
	switch {
	case e.FieldName != nil:
		return "." + *e.FieldName
	case e.Key != nil:
		var b strings.Builder
		b.WriteByte('[')
		for i, f := range *e.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.Name)
			b.WriteByte('=')
			b.WriteString(value.ToString(f.Value))
		}
		b.WriteByte(']')
		return b.String()
	case e.Value != nil:
		return "[=" + value.ToString(*e.Value) + "]"
	case e.Index != nil:
		return fmt.Sprintf("[%d]", *e.Index)
	}
	return "{{invalid path element}}"
}

// Copy returns the element with its key list copied; the other fields are
// shared, as they are never modified.
func (e PathElement) Copy() PathElement {
	switch {
	case e.FieldName != nil:
		return PathElement{FieldName: e.FieldName}
	case e.Key != nil:
		k := e.Key.Copy()
		return PathElement{Key: &k}
	case e.Value != nil:
		return PathElement{Value: e.Value}
	case e.Index != nil:
		return PathElement{Index: e.Index}
	}
	return e
}

// KeyByFields builds a sorted key from alternating names (strings) and
// values (unstructured Go data). It panics if a value is missing.
func KeyByFields(nameValues ...interface{}) *value.FieldList {
	if len(nameValues)%2 != 0 {
		panic("must have a value for every name")
	}
	out := make(value.FieldList, 0, len(nameValues)/2)
	for i := 0; i+1 < len(nameValues); i += 2 {
		out = append(out, value.Field{Name: nameValues[i].(string), Value: value.NewValueInterface(nameValues[i+1])})
	}
	out.Sort()
	return &out
}

// PathElementSet is a sorted set of path elements.
type PathElementSet struct {
	members []PathElement
}

// MakePathElementSet returns an empty set with room for size elements.
func MakePathElementSet(size int) PathElementSet {
	return PathElementSet{members: make([]PathElement, 0, size)}
}

func (s *PathElementSet) find(pe PathElement) (int, bool) {
	return slices.BinarySearchFunc(s.members, pe, PathElement.Compare)
}

// Copy returns a copy of the set.
func (s PathElementSet) Copy() PathElementSet {
	out := make([]PathElement, len(s.members))
	for i, pe := range s.members {
		out[i] = pe.Copy()
	}
	return PathElementSet{members: out}
}

// Insert adds pe to the set.
func (s *PathElementSet) Insert(pe PathElement) {
	if i, found := s.find(pe); !found {
		s.members = slices.Insert(s.members, i, pe)
	}
}

// Union returns the elements in s or s2.
func (s *PathElementSet) Union(s2 *PathElementSet) *PathElementSet {
	out := &PathElementSet{}
	walk(s.members, s2.members, PathElement.Compare,
		func(a PathElement) { out.members = append(out.members, a) },
		func(b PathElement) { out.members = append(out.members, b) },
		func(a, _ PathElement) { out.members = append(out.members, a) })
	return out
}

// Intersection returns the elements in both s and s2.
func (s *PathElementSet) Intersection(s2 *PathElementSet) *PathElementSet {
	out := &PathElementSet{}
	walk(s.members, s2.members, PathElement.Compare, nil, nil,
		func(a, _ PathElement) { out.members = append(out.members, a) })
	return out
}

// Difference returns the elements in s but not in s2.
func (s *PathElementSet) Difference(s2 *PathElementSet) *PathElementSet {
	out := &PathElementSet{}
	walk(s.members, s2.members, PathElement.Compare,
		func(a PathElement) { out.members = append(out.members, a) }, nil, nil)
	return out
}

// Size returns the number of elements.
func (s *PathElementSet) Size() int { return len(s.members) }

// Has reports whether pe is in the set.
func (s *PathElementSet) Has(pe PathElement) bool {
	_, found := s.find(pe)
	return found
}

// Equals reports whether the sets have the same elements.
func (s *PathElementSet) Equals(s2 *PathElementSet) bool {
	return slices.EqualFunc(s.members, s2.members, PathElement.Equals)
}

// Iterate calls f for each element, in order.
func (s *PathElementSet) Iterate(f func(PathElement)) {
	for _, pe := range s.members {
		f(pe)
	}
}

// All returns the elements, in order.
func (s *PathElementSet) All() iter.Seq[PathElement] {
	return func(yield func(PathElement) bool) {
		for _, pe := range s.members {
			if !yield(pe) {
				return
			}
		}
	}
}

// walk visits two sorted slices together: onlyA for items of a alone, onlyB
// for items of b alone, both for items in both. A nil callback is skipped.
func walk[A, B any](a []A, b []B, cmp func(A, B) int, onlyA func(A), onlyB func(B), both func(A, B)) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := cmp(a[i], b[j]); {
		case c < 0:
			if onlyA != nil {
				onlyA(a[i])
			}
			i++
		case c > 0:
			if onlyB != nil {
				onlyB(b[j])
			}
			j++
		default:
			if both != nil {
				both(a[i], b[j])
			}
			i++
			j++
		}
	}
	if onlyA != nil {
		for ; i < len(a); i++ {
			onlyA(a[i])
		}
	}
	if onlyB != nil {
		for ; j < len(b); j++ {
			onlyB(b[j])
		}
	}
}

package fieldpath

import (
	"math"
	"unsafe"

	"github.com/structmerge/structmerge/value"
)

// This file holds every use of package unsafe in fieldpath. Each one keeps
// the representation small: a path element is two words instead of a
// struct of a string, a slice and two pointers, and a set node is 32 bytes
// instead of 56 (set_arena.go; docs/performance.md gives the measurements).
// Nothing here is written after construction: the pointers only ever point
// into immutable strings, slices and values.

// PathElement is one step of a Path: a field name, an associative-list key,
// a set member value or a list index.
//
// PathElement is immutable; safe for concurrent use. It is a small value type
// (16 bytes: a pointer and a tagged word; a field name costs nothing beyond
// its string) and is compared
// with Equal or Compare, not with ==. The zero PathElement is invalid; it
// sorts after every valid element and prints as "{{invalid path element}}".
type PathElement struct {
	// The kind is in the low two bits of n (the tag), the rest of n is a
	// length or an index:
	//   field name: tag fieldTag, ptr is the name's bytes, n>>2 its length
	//   key:        tag keyTag, ptr is the first of n>>2 key fields
	//               (emptyKey when there are none)
	//   value:      tag valueTag, ptr is a *value.Value
	//   index:      tag 0, ptr == indexTag(), n>>2 is the index; an index
	//               that does not fit in n>>2 (beyond ±2^61) is boxed:
	//               ptr is an *int, n == 0
	//   invalid:    ptr == nil, n == 0
	// A pointer into a string or a slice keeps all of it alive.
	_   [0]func() // not comparable with ==, which would compare pointers: use Equal or Compare
	ptr unsafe.Pointer
	n   int
}

// indexTag is the pointer that tags an index element.
func indexTag() unsafe.Pointer { return unsafe.Pointer(&indexSentinel) }

// fieldElement points at the bytes of name, which strings keep immutable.
func fieldElement(name string) PathElement {
	return PathElement{ptr: unsafe.Pointer(unsafe.StringData(name)), n: len(name)<<tagBits | fieldTag}
}

// name returns the name of a field element.
func (e PathElement) name() string {
	return unsafe.String((*byte)(e.ptr), e.n>>tagBits)
}

// keyFieldsElement points at the first of fields, which are sorted by name
// and never modified afterwards.
func keyFieldsElement(fields []value.Field) PathElement {
	if len(fields) == 0 {
		return PathElement{ptr: unsafe.Pointer(&emptyKey[0]), n: keyTag}
	}
	return PathElement{ptr: unsafe.Pointer(unsafe.SliceData(fields)), n: len(fields)<<tagBits | keyTag}
}

// key returns the fields of a KeyKind element.
func (e PathElement) key() []value.Field {
	return unsafe.Slice((*value.Field)(e.ptr), e.n>>tagBits)
}

// valueElement points at a value nobody modifies.
func valueElement(p *value.Value) PathElement {
	return PathElement{ptr: unsafe.Pointer(p), n: valueTag}
}

// boxedIndex is an index too large for the tagged word.
func boxedIndex(p *int) PathElement {
	return PathElement{ptr: unsafe.Pointer(p)}
}

// ms returns the members of a non-nil s.
func (s *Set) ms() []PathElement { return unsafe.Slice(s.mem, s.nm) }

// cs returns the children of a non-nil s.
func (s *Set) cs() []Child { return unsafe.Slice(s.kid, s.nk) }

// setEntries stores members and children in s; their lengths are far below
// 2^31, since no set fits in memory otherwise.
func (s *Set) setEntries(members []PathElement, children []Child) {
	if len(members) > math.MaxInt32 || len(children) > math.MaxInt32 {
		panic("fieldpath: a set node with more than 2^31 entries")
	}
	s.mem, s.nm = unsafe.SliceData(members), int32(len(members))
	s.kid, s.nk = unsafe.SliceData(children), int32(len(children))
}

// words returns the machine words of the path elements or children in a
// (both are made of pointers and ints, so they are whole words), for the
// FieldsV1 decoder's intern tables to hash and compare.
func words[T PathElement | Child](a []T) []uintptr {
	if len(a) == 0 {
		return nil
	}
	return unsafe.Slice((*uintptr)(unsafe.Pointer(&a[0])), len(a)*int(unsafe.Sizeof(a[0])/unsafe.Sizeof(uintptr(0))))
}

// stringAt is the string of the n bytes at p, which the caller never
// modifies afterwards (the FieldsV1 decoder's names arena is append-only).
func stringAt(p *byte, n int) string { return unsafe.String(p, n) }

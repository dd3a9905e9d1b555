package fieldpath

import (
	"slices"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// PathElementMap maps path elements to arbitrary values.
type PathElementMap struct {
	entries []pathElementEntry
}

type pathElementEntry struct {
	pe PathElement
	v  interface{}
}

// MakePathElementMap returns an empty map with room for size entries.
func MakePathElementMap(size int) PathElementMap {
	return PathElementMap{entries: make([]pathElementEntry, 0, size)}
}

func (s *PathElementMap) find(pe PathElement) (int, bool) {
	return slices.BinarySearchFunc(s.entries, pe, func(e pathElementEntry, pe PathElement) int {
		return e.pe.Compare(pe)
	})
}

// Insert sets the value of pe, replacing any it had.
func (s *PathElementMap) Insert(pe PathElement, v interface{}) {
	i, found := s.find(pe)
	if found {
		s.entries[i].v = v
		return
	}
	s.entries = slices.Insert(s.entries, i, pathElementEntry{pe, v})
}

// Get returns the value of pe.
func (s *PathElementMap) Get(pe PathElement) (interface{}, bool) {
	if i, found := s.find(pe); found {
		return s.entries[i].v, true
	}
	return nil, false
}

// PathElementValueMap maps path elements to values.
type PathElementValueMap struct {
	m PathElementMap
}

// MakePathElementValueMap returns an empty map with room for size entries.
func MakePathElementValueMap(size int) PathElementValueMap {
	return PathElementValueMap{m: MakePathElementMap(size)}
}

// Insert sets the value of pe, replacing any it had.
func (s *PathElementValueMap) Insert(pe PathElement, v value.Value) { s.m.Insert(pe, v) }

// Get returns the value of pe.
func (s *PathElementValueMap) Get(pe PathElement) (value.Value, bool) {
	v, ok := s.m.Get(pe)
	if !ok {
		return nil, false
	}
	return v.(value.Value), true
}

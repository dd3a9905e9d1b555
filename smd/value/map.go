package value

import (
	"fmt"
	"slices"
)

// Map is a map from strings to values. Set and Delete modify the data the
// map views.
type Map interface {
	// Set sets key to val.
	Set(key string, val Value)
	// Get returns the value of key and whether it is present.
	Get(key string) (Value, bool)
	// GetUsing is Get with an allocator.
	GetUsing(a Allocator, key string) (Value, bool)
	// Has reports whether key is present.
	Has(key string) bool
	// Delete removes key.
	Delete(key string)
	// Equals reports whether the two maps hold equal values under the same
	// keys.
	Equals(other Map) bool
	// EqualsUsing is Equals with an allocator.
	EqualsUsing(a Allocator, other Map) bool
	// Iterate calls fn for each entry, in no particular order, until fn
	// returns false; it returns false exactly when fn did.
	Iterate(func(key string, value Value) bool) bool
	// IterateUsing is Iterate with an allocator.
	IterateUsing(Allocator, func(key string, value Value) bool) bool
	// Length returns the number of entries.
	Length() int
	// Empty reports whether the map has no entries.
	Empty() bool
	// Zip calls fn for every key of either map, with the two values (nil
	// where a map lacks the key), in the given order, until fn returns
	// false; it returns false exactly when fn did.
	Zip(other Map, order MapTraverseOrder, fn func(key string, lhs, rhs Value) bool) bool
	// ZipUsing is Zip with an allocator.
	ZipUsing(a Allocator, other Map, order MapTraverseOrder, fn func(key string, lhs, rhs Value) bool) bool
}

// MapTraverseOrder is the order in which Zip visits keys.
type MapTraverseOrder int

const (
	// Unordered lets Zip visit keys in any order.
	Unordered = iota
	// LexicalKeyOrder makes Zip visit keys in increasing byte order.
	LexicalKeyOrder
)

// MapZip is Zip for maps either of which may be nil (absent).
func MapZip(lhs, rhs Map, order MapTraverseOrder, fn func(key string, lhs, rhs Value) bool) bool {
	return MapZipUsing(HeapAllocator, lhs, rhs, order, fn)
}

// MapZipUsing is MapZip with an allocator. This implementation always
// visits keys in lexical order, which is one of the orders Unordered allows.
func MapZipUsing(a Allocator, lhs, rhs Map, order MapTraverseOrder, fn func(key string, lhs, rhs Value) bool) bool {
	keys := mapKeys(lhs)
	keys = append(keys, mapKeys(rhs)...)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	for _, k := range keys {
		var l, r Value
		if lhs != nil {
			if v, ok := lhs.Get(k); ok {
				l = v
			}
		}
		if rhs != nil {
			if v, ok := rhs.Get(k); ok {
				r = v
			}
		}
		if !fn(k, l, r) {
			return false
		}
	}
	return true
}

func mapKeys(m Map) []string {
	if m == nil {
		return nil
	}
	keys := make([]string, 0, m.Length())
	m.Iterate(func(k string, _ Value) bool {
		keys = append(keys, k)
		return true
	})
	return keys
}

// MapLess reports whether lhs sorts before rhs in MapCompare's order.
func MapLess(lhs, rhs Map) bool { return MapCompare(lhs, rhs) == -1 }

// MapCompare orders maps by their entries sorted by key, compared pairwise
// (key first, then value); a map whose entries are a prefix of the other's
// comes first. A nil map is empty.
func MapCompare(lhs, rhs Map) int { return MapCompareUsing(HeapAllocator, lhs, rhs) }

// MapCompareUsing is MapCompare with an allocator.
func MapCompareUsing(a Allocator, lhs, rhs Map) int {
	lk, rk := sortedKeys(lhs), sortedKeys(rhs)
	for i := 0; ; i++ {
		switch {
		case i == len(lk) && i == len(rk):
			return 0
		case i == len(lk):
			return -1
		case i == len(rk):
			return 1
		case lk[i] < rk[i]:
			return -1
		case lk[i] > rk[i]:
			return 1
		}
		l, _ := lhs.GetUsing(a, lk[i])
		r, _ := rhs.GetUsing(a, rk[i])
		if c := CompareUsing(a, l, r); c != 0 {
			return c
		}
	}
}

func sortedKeys(m Map) []string {
	keys := mapKeys(m)
	slices.Sort(keys)
	return keys
}

func lenOf(m Map) int {
	if m == nil {
		return 0
	}
	return m.Length()
}

// MapEquals reports whether the maps hold equal values under the same keys.
func MapEquals(lhs, rhs Map) bool { return MapEqualsUsing(HeapAllocator, lhs, rhs) }

// MapEqualsUsing is MapEquals with an allocator.
func MapEqualsUsing(a Allocator, lhs, rhs Map) bool {
	if lenOf(lhs) != lenOf(rhs) {
		return false
	}
	if lenOf(lhs) == 0 {
		return true
	}
	return lhs.Iterate(func(k string, l Value) bool {
		r, ok := rhs.Get(k)
		return ok && EqualsUsing(a, l, r)
	})
}

// stringMap is a Map over map[string]interface{}.
type stringMap map[string]interface{}

func (m stringMap) Set(key string, val Value) { m[key] = val.Unstructured() }
func (m stringMap) Get(key string) (Value, bool) {
	v, ok := m[key]
	if !ok {
		return nil, false
	}
	return anyValue{v}, true
}
func (m stringMap) GetUsing(_ Allocator, key string) (Value, bool) { return m.Get(key) }
func (m stringMap) Has(key string) bool {
	_, ok := m[key]
	return ok
}
func (m stringMap) Delete(key string)                       { delete(m, key) }
func (m stringMap) Equals(other Map) bool                   { return MapEquals(m, other) }
func (m stringMap) EqualsUsing(a Allocator, other Map) bool { return MapEqualsUsing(a, m, other) }
func (m stringMap) Iterate(fn func(string, Value) bool) bool {
	for k, v := range m {
		if !fn(k, anyValue{v}) {
			return false
		}
	}
	return true
}
func (m stringMap) IterateUsing(_ Allocator, fn func(string, Value) bool) bool {
	return m.Iterate(fn)
}
func (m stringMap) Length() int { return len(m) }
func (m stringMap) Empty() bool { return len(m) == 0 }
func (m stringMap) Zip(other Map, order MapTraverseOrder, fn func(string, Value, Value) bool) bool {
	return MapZip(m, other, order, fn)
}
func (m stringMap) ZipUsing(a Allocator, other Map, order MapTraverseOrder, fn func(string, Value, Value) bool) bool {
	return MapZipUsing(a, m, other, order, fn)
}

// anyMap is a Map over map[interface{}]interface{} (as YAML decoders make);
// keys that are not strings are rendered with %v.
type anyMap map[interface{}]interface{}

func (m anyMap) Set(key string, val Value) { m[key] = val.Unstructured() }
func (m anyMap) Get(key string) (Value, bool) {
	v, ok := m[key]
	if !ok {
		return nil, false
	}
	return anyValue{v}, true
}
func (m anyMap) GetUsing(_ Allocator, key string) (Value, bool) { return m.Get(key) }
func (m anyMap) Has(key string) bool {
	_, ok := m[key]
	return ok
}
func (m anyMap) Delete(key string)                       { delete(m, key) }
func (m anyMap) Equals(other Map) bool                   { return MapEquals(m, other) }
func (m anyMap) EqualsUsing(a Allocator, other Map) bool { return MapEqualsUsing(a, m, other) }
func (m anyMap) Iterate(fn func(string, Value) bool) bool {
	for k, v := range m {
		s, ok := k.(string)
		if !ok {
			s = fmt.Sprintf("%v", k)
		}
		if !fn(s, anyValue{v}) {
			return false
		}
	}
	return true
}
func (m anyMap) IterateUsing(_ Allocator, fn func(string, Value) bool) bool {
	return m.Iterate(fn)
}
func (m anyMap) Length() int { return len(m) }
func (m anyMap) Empty() bool { return len(m) == 0 }
func (m anyMap) Zip(other Map, order MapTraverseOrder, fn func(string, Value, Value) bool) bool {
	return MapZip(m, other, order, fn)
}
func (m anyMap) ZipUsing(a Allocator, other Map, order MapTraverseOrder, fn func(string, Value, Value) bool) bool {
	return MapZipUsing(a, m, other, order, fn)
}

package valueown

// SetFuncs are the operations of package fieldpath that lend or take
// slices, for the packages of this module: S is *fieldpath.Set, E its
// PathElement, C its Child, F value's Field and V value's Value.
type SetFuncs[S, E, C, F, V any] struct {
	// Members returns the members of a set, sorted; the caller must not
	// modify the slice.
	Members func(s S) []E
	// Children returns the child sets of a set, sorted by element; the
	// caller must not modify the slice.
	Children func(s S) []C
	// KeyFields returns the key fields of a key element, sorted by name
	// (nil for other kinds); the caller must not modify the slice.
	KeyFields func(e E) []F
	// Key returns the key element of fields, which it takes: it sorts them
	// by name in place, and the caller never modifies the slice again.
	Key func(fields []F) E
	// ValueOf returns the element of the value *p without copying it: p
	// points to a value nobody modifies (the item of a list, say).
	ValueOf func(p *V) E
}

var registeredSet any

// RegisterSet is called by package fieldpath only.
func RegisterSet[S, E, C, F, V any](f SetFuncs[S, E, C, F, V]) {
	register(&registeredSet, f, "fieldpath")
}

// SetOf returns the functions package fieldpath registered.
func SetOf[S, E, C, F, V any]() SetFuncs[S, E, C, F, V] {
	return lookup[SetFuncs[S, E, C, F, V]](registeredSet, "fieldpath")
}

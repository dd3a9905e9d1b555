package valueown

// NodeFuncs are the operations of package fieldpath with which the
// Assembler of package setasm makes sets in the memory of its arena: S is
// *fieldpath.Set, E its PathElement and C its Child.
type NodeFuncs[S, E, C any] struct {
	// Init makes the zero node s (handed out by the arena) the set of
	// members and children, which must be sorted, without repeats or
	// empty children; s keeps both slices, which must not be changed
	// afterwards. Wrong entries would make a set whose lookups and
	// operations are wrong.
	Init func(s S, members []E, children []C)
	// Same reports whether the set s has the members and the children
	// given (equal members, and the same sets under equal elements), so
	// that s can stand for a new set with these entries.
	Same func(s S, members []E, children []C) bool
	// SortMembers sorts members in place and drops repeats.
	SortMembers func(members []E) []E
	// SortChildren sorts children in place by element and unites the sets
	// of repeated elements.
	SortChildren func(children []C) []C
	// Check panics when members and children would make a broken set. It
	// is nil unless the build checks invariants (the race detector's, or
	// the invariants tag).
	Check func(members []E, children []C)
}

var registeredNodes any

// RegisterNodes is called by package fieldpath only.
func RegisterNodes[S, E, C any](f NodeFuncs[S, E, C]) {
	register(&registeredNodes, f, "fieldpath")
}

// NodesOf returns the functions package fieldpath registered.
func NodesOf[S, E, C any]() NodeFuncs[S, E, C] {
	return lookup[NodeFuncs[S, E, C]](registeredNodes, "fieldpath")
}

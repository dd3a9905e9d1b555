package valueown

// AssemblerFuncs are the operations of fieldpath's Assembler that trust
// their caller, for typed's walks: A is *fieldpath.Assembler, L its Level,
// S *fieldpath.Set, E its PathElement and C its Child. They skip the
// checks Close makes, which is what makes a keyed list of 100,000 items
// cheap; wrong entries would make a set whose lookups and operations are
// wrong. In a build with the race detector or the invariants tag, every
// set they make is checked and a broken one panics.
type AssemblerFuncs[A, L, S, E, C any] struct {
	// CloseInOrder is Close for a node whose entries were added in order
	// and without repeats (members sorted by Compare, children by
	// element, as a walk over a map's fields or a list's sorted items adds
	// them): it does not sort them.
	CloseInOrder func(a A, l L) S
	// CloseInOrderLike is CloseInOrder returning prev instead of a new set
	// when the node's entries are prev's (see Assembler.CloseLike).
	CloseInOrderLike func(a A, l L, prev S) S
	// Room returns empty slices with room for the given numbers of members
	// and children, in the memory a set is made of: a walk that knows a
	// node's entries in advance appends them there, in order and without
	// repeats, and makes the set with SetOf. Nodes may be opened and
	// closed in between.
	Room func(a A, members, children int) ([]E, []C)
	// SetOf returns the set whose entries are members and children (nil
	// when there are none), in order, without repeats or empty children.
	// The set keeps both slices: they must not be changed afterwards.
	SetOf func(a A, members []E, children []C) S
	// Stacks returns the Assembler's stacks as they are, empty when every
	// node is closed, with their spare capacity, where closed nodes leave
	// entries until Reset clears them (for tests that check that pooled
	// memory keeps nothing alive).
	Stacks func(a A) ([]E, []C)
}

var registeredAssembler any

// RegisterAssembler is called by package fieldpath only.
func RegisterAssembler[A, L, S, E, C any](f AssemblerFuncs[A, L, S, E, C]) {
	register(&registeredAssembler, f, "fieldpath")
}

// AssemblerOf returns the functions package fieldpath registered.
func AssemblerOf[A, L, S, E, C any]() AssemblerFuncs[A, L, S, E, C] {
	return lookup[AssemblerFuncs[A, L, S, E, C]](registeredAssembler, "fieldpath")
}

package fieldpath

import "github.com/structmerge/structmerge/internal/seal"

// Unchecked gives the packages of this module (typed's walks) the
// Assembler operations that trust their caller: entries added in order and
// without repeats, and sets made from memory the walk filled itself. They
// skip the checks Close makes, which is what makes a keyed list of 100,000
// items cheap, and wrong entries would make a set whose lookups and
// operations are wrong, so they are not public API: each takes a
// seal.Token, which only this module can name. In a build with the race
// detector or the invariants tag, every set they make is checked and a
// broken one panics.
var Unchecked unchecked

type unchecked struct{}

// CloseInOrder is Assembler.Close for a node whose entries were added in
// order and without repeats (members sorted by Compare, children by
// element, as a walk over a map's fields or a list's sorted items adds
// them): it does not sort them.
func (unchecked) CloseInOrder(t seal.Token, a *Assembler, l Level) *Set {
	seal.Check(t)
	return a.closeInOrder(l)
}

// CloseInOrderLike is CloseInOrder returning prev instead of a new set
// when the node's entries are prev's (see Assembler.CloseLike).
func (unchecked) CloseInOrderLike(t seal.Token, a *Assembler, l Level, prev *Set) *Set {
	seal.Check(t)
	return a.closeInOrderLike(l, prev)
}

// Room returns empty slices with room for the given numbers of members and
// children, in the memory a set is made of: a walk that knows a node's
// entries in advance (the items of a list, once they are sorted) appends
// them there, in order and without repeats, and makes the set with SetOf,
// instead of adding them to the stacks, which Close would copy them out
// of. Nodes may be opened and closed in between.
func (unchecked) Room(t seal.Token, a *Assembler, members, children int) ([]PathElement, []Child) {
	seal.Check(t)
	return a.arena.room(members, children)
}

// SetOf returns the set whose entries are members and children (nil when
// there are none), which must be in order and without repeats, with no
// empty child. The set keeps both slices (from Room or elsewhere): they
// must not be changed afterwards.
func (unchecked) SetOf(t seal.Token, a *Assembler, members []PathElement, children []Child) *Set {
	seal.Check(t)
	return a.setOf(members, children)
}

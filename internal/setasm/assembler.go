package setasm

import (
	"slices"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/setarena"
	"github.com/structmerge/structmerge/internal/valueown"
)

// nodes are fieldpath's operations on set nodes, registered when it was
// initialised (before this package).
var nodes = valueown.NodesOf[*fieldpath.Set, fieldpath.PathElement, fieldpath.Child]()

// Assembler builds sets bottom up, for walks over trees, which know where
// they are and so need not hand over whole paths as fieldpath.Builder does.
// A walk opens a node with Open, adds the node's members (AddMember) and
// the sets of its subtrees (AddChild), and closes it with Close, which
// returns the node's set; the walk then adds that set as a child of the
// enclosing node. Nodes nest: the entries of the open nodes are kept on two
// stacks, and closing a node pops its entries. Entries may come in any
// order and may repeat (repeated children are united); entries already in
// order, as a walk over a map's sorted fields gives them, are the cheapest.
//
// The sets returned by Close are immutable and share blocks of memory
// allocated by the Assembler, so the sets of one walk cost a few
// allocations in all. An Assembler is for use by one goroutine. The zero
// Assembler is ready to use; Reset makes it forget the blocks, so that the
// sets already returned are not shared with later ones.
//
// Closing a node leaves its entries in the stacks' spare capacity, where
// they keep what they point to alive until later entries overwrite them,
// or until Reset clears the stacks: clearing once up to the deepest point
// reached costs less than clearing each node as it closes (a list of many
// items closes one small node per item, at the same depth).
type Assembler struct {
	members  []fieldpath.PathElement
	children []fieldpath.Child
	// How far into each stack entries were written since it was last
	// cleared.
	usedMembers, usedChildren int
	arena                     setarena.Arena[fieldpath.PathElement, fieldpath.Child, fieldpath.Set]
}

// Level marks the start of an open node's entries; Open returns it and
// Close takes it.
type Level struct{ m, c int32 }

// Reserve sizes the first blocks the sets will be allocated from, for sets
// of about the given numbers of members and nodes (each node but the top
// one is a child). It has no effect once a set was closed, nor for zeros.
func (a *Assembler) Reserve(members, nodes int) {
	a.arena.Reserve(members, nodes)
}

// Grow makes room on the stacks for members and children more entries, so
// that a walk that knows how many entries a node will get (the items of a
// list) grows the stacks once.
func (a *Assembler) Grow(members, children int) {
	a.members = slices.Grow(a.members, members)
	a.children = slices.Grow(a.children, children)
}

// Open opens a node inside the current one.
func (a *Assembler) Open() Level {
	return Level{int32(len(a.members)), int32(len(a.children))}
}

// AddMember adds the path made of pe alone to the open node.
func (a *Assembler) AddMember(pe fieldpath.PathElement) {
	a.members = append(a.members, pe)
}

// AddChild adds the paths of s, each under pe, to the open node. An empty
// s adds nothing.
func (a *Assembler) AddChild(pe fieldpath.PathElement, s *fieldpath.Set) {
	if !s.Empty() {
		a.children = append(a.children, fieldpath.Child{Element: pe, Set: s})
	}
}

// Close closes the node opened at l and returns its set (nil when it has
// no entries).
func (a *Assembler) Close(l Level) *fieldpath.Set {
	ms, cs := a.sorted(l)
	return a.pop(l, ms, cs)
}

// CloseLike is Close returning prev instead of a new set when the node's
// entries are prev's: equal members, and children with equal elements and
// the same sets (sets are immutable, so one can stand for many). A walk
// over a list passes the set of the item before, so that items with the
// same fields share one set. prev may be nil.
func (a *Assembler) CloseLike(l Level, prev *fieldpath.Set) *fieldpath.Set {
	ms, cs := a.sorted(l)
	return a.popLike(l, ms, cs, prev)
}

// CloseInOrder is Close for a node whose entries were added in order and
// without repeats (members sorted by Compare, children by element, as a
// walk over a map's fields or a list's sorted items adds them): it does
// not sort them, and wrong entries make a broken set.
func (a *Assembler) CloseInOrder(l Level) *fieldpath.Set {
	ms, cs := a.members[l.m:], a.children[l.c:]
	check(ms, cs)
	return a.pop(l, ms, cs)
}

// CloseInOrderLike is CloseInOrder returning prev instead of a new set
// when the node's entries are prev's (see CloseLike).
func (a *Assembler) CloseInOrderLike(l Level, prev *fieldpath.Set) *fieldpath.Set {
	ms, cs := a.members[l.m:], a.children[l.c:]
	check(ms, cs)
	return a.popLike(l, ms, cs, prev)
}

// Room returns empty slices with room for the given numbers of members and
// children, in the memory the sets are made of: a walk that knows a node's
// entries in advance appends them there, in order and without repeats, and
// makes the set with SetOf. Nodes may be opened and closed in between.
func (a *Assembler) Room(members, children int) ([]fieldpath.PathElement, []fieldpath.Child) {
	return a.arena.Room(members, children)
}

// SetOf returns the set whose entries are members and children (nil when
// there are none), which must be in order, without repeats or empty
// children. The set keeps both slices: they must not be changed
// afterwards.
func (a *Assembler) SetOf(members []fieldpath.PathElement, children []fieldpath.Child) *fieldpath.Set {
	if len(members) == 0 && len(children) == 0 {
		return nil
	}
	check(members, children)
	s := a.arena.Node()
	nodes.Init(s, members, children)
	return s
}

// Stacks returns the Assembler's stacks as they are, empty when every node
// is closed, with their spare capacity, where closed nodes leave entries
// until Reset clears them (for tests that check that pooled memory keeps
// nothing alive). The caller must not modify them.
func (a *Assembler) Stacks() ([]fieldpath.PathElement, []fieldpath.Child) {
	return a.members[:0], a.children[:0]
}

// Reset makes the Assembler allocate new blocks for the sets that follow;
// it keeps its stacks, which must be empty (every node closed).
func (a *Assembler) Reset() {
	a.clearStacks()
	a.arena = setarena.Arena[fieldpath.PathElement, fieldpath.Child, fieldpath.Set]{}
}

// check hands entries that an operation trusts to be in order to
// fieldpath's check, in a build that checks invariants.
func check(ms []fieldpath.PathElement, cs []fieldpath.Child) {
	if nodes.Check != nil {
		nodes.Check(ms, cs)
	}
}

// sorted returns the entries of the node opened at l, sorted in place
// without repeats when they are not in order.
func (a *Assembler) sorted(l Level) ([]fieldpath.PathElement, []fieldpath.Child) {
	ms, cs := a.members[l.m:], a.children[l.c:]
	if !membersInOrder(ms) {
		ms = nodes.SortMembers(ms)
	}
	if !childrenInOrder(cs) {
		cs = nodes.SortChildren(cs)
	}
	return ms, cs
}

// popLike is pop returning prev when its entries are ms and cs.
func (a *Assembler) popLike(l Level, ms []fieldpath.PathElement, cs []fieldpath.Child, prev *fieldpath.Set) *fieldpath.Set {
	if prev == nil || !nodes.Same(prev, ms, cs) {
		return a.pop(l, ms, cs)
	}
	a.truncate(l)
	return prev
}

// pop makes the set of the node opened at l from its entries ms and cs (in
// order) and takes the node's entries off the stacks.
func (a *Assembler) pop(l Level, ms []fieldpath.PathElement, cs []fieldpath.Child) *fieldpath.Set {
	if len(ms) == 0 && len(cs) == 0 {
		return nil
	}
	m, c := a.arena.Room(len(ms), len(cs))
	s := a.arena.Node()
	nodes.Init(s, append(m, ms...), append(c, cs...))
	a.truncate(l)
	return s
}

// truncate takes the entries of the node opened at l off the stacks,
// noting how far the stacks were used.
func (a *Assembler) truncate(l Level) {
	a.usedMembers = max(a.usedMembers, len(a.members))
	a.usedChildren = max(a.usedChildren, len(a.children))
	a.members, a.children = a.members[:l.m], a.children[:l.c]
}

// clearStacks clears the stacks' entries beyond their length, as far as
// they were used, so that they no longer hold on to the values and sets
// their entries pointed to.
func (a *Assembler) clearStacks() {
	m, c := len(a.members), len(a.children)
	clear(a.members[m:max(m, min(a.usedMembers, cap(a.members)))])
	clear(a.children[c:max(c, min(a.usedChildren, cap(a.children)))])
	a.usedMembers, a.usedChildren = 0, 0
}

// membersInOrder reports whether ms is sorted without repeats.
func membersInOrder(ms []fieldpath.PathElement) bool {
	for i := 1; i < len(ms); i++ {
		if ms[i-1].Compare(ms[i]) >= 0 {
			return false
		}
	}
	return true
}

// childrenInOrder reports whether cs is sorted by element without repeats.
func childrenInOrder(cs []fieldpath.Child) bool {
	for i := 1; i < len(cs); i++ {
		if cs[i-1].Element.Compare(cs[i].Element) >= 0 {
			return false
		}
	}
	return true
}

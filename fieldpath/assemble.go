package fieldpath

import (
	"slices"
)

// Assembler builds sets bottom up, for walks over trees, which know where
// they are and so need not hand over whole paths as Builder does. A walk
// opens a node with Open, adds the node's members (AddMember) and the sets
// of its subtrees (AddChild), and closes it with Close, which returns the
// node's set; the walk then adds that set as a child of the enclosing node.
// Nodes nest: the entries of the open nodes are kept on two stacks, and
// closing a node pops its entries. Entries may come in any order and may
// repeat (repeated children are united); entries already in order, as a
// walk over a map's sorted fields gives them, are the cheapest.
//
// The sets returned by Close are immutable and share blocks of memory
// allocated by the Assembler, so the sets of one walk cost a few
// allocations in all. An Assembler is for use by one goroutine. The zero
// Assembler is ready to use; Reset makes it forget the blocks, so that the
// sets already returned are not shared with later ones.
//
// Closing a node leaves its entries in the stacks' spare capacity, where they
// keep what they point to alive until later entries overwrite them, or until
// Reset clears the stacks: clearing once up to the deepest
// point reached costs less than clearing each node as it closes (a list of
// many items closes one small node per item, at the same depth).
type Assembler struct {
	members  []PathElement
	children []Child
	// How far into each stack entries were written since it was last
	// cleared.
	usedMembers, usedChildren int
	arena                     arena
}

// Level marks the start of an open node's entries; Open returns it and
// Close takes it.
type Level struct{ m, c int32 }

// Reserve sizes the first blocks the sets will be allocated from, for sets
// of about the given numbers of members and nodes (each node but the top one
// is a child). It has no effect once a set was closed, nor for zeros.
func (a *Assembler) Reserve(members, nodes int) {
	a.arena.reserve(members, nodes)
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
func (a *Assembler) AddMember(pe PathElement) {
	a.members = append(a.members, pe)
}

// AddChild adds the paths of s, each under pe, to the open node. An empty
// s adds nothing.
func (a *Assembler) AddChild(pe PathElement, s *Set) {
	if !s.Empty() {
		a.children = append(a.children, Child{Element: pe, Set: s})
	}
}

// Close closes the node opened at l and returns its set (nil when it has no
// entries).
func (a *Assembler) Close(l Level) *Set {
	ms, cs := a.members[l.m:], a.children[l.c:]
	if !membersInOrder(ms) {
		ms = sortMembers(ms)
	}
	if !childrenInOrder(cs) {
		cs = sortChildren(cs)
	}
	return a.pop(l, ms, cs)
}

// closeInOrder is Close for a node whose entries are in order and without
// repeats (CloseInOrder of valueown.AssemblerFuncs).
func (a *Assembler) closeInOrder(l Level) *Set {
	ms, cs := a.members[l.m:], a.children[l.c:]
	checkEntries(ms, cs)
	return a.pop(l, ms, cs)
}

// setOf makes a set of entries in order (SetOf of valueown.AssemblerFuncs).
func (a *Assembler) setOf(members []PathElement, children []Child) *Set {
	if len(members) == 0 && len(children) == 0 {
		return nil
	}
	checkEntries(members, children)
	return a.arena.owning(members, children)
}

// closeInOrderLike is closeInOrder returning prev when the entries are
// prev's (CloseInOrderLike of valueown.AssemblerFuncs).
func (a *Assembler) closeInOrderLike(l Level, prev *Set) *Set {
	ms, cs := a.members[l.m:], a.children[l.c:]
	checkEntries(ms, cs)
	return a.popLike(l, ms, cs, prev)
}

// CloseLike is Close returning prev instead of a new set when the node's
// entries are prev's: equal members, and children with equal elements and
// the same sets (sets are immutable, so one can stand for many). A walk
// over a list passes the set of the item before, so that items with the
// same fields share one set. prev may be nil.
func (a *Assembler) CloseLike(l Level, prev *Set) *Set {
	ms, cs := a.members[l.m:], a.children[l.c:]
	if !membersInOrder(ms) {
		ms = sortMembers(ms)
	}
	if !childrenInOrder(cs) {
		cs = sortChildren(cs)
	}
	return a.popLike(l, ms, cs, prev)
}

// popLike is pop returning prev when its entries are ms and cs.
func (a *Assembler) popLike(l Level, ms []PathElement, cs []Child, prev *Set) *Set {
	if prev == nil || !sameEntries(prev, ms, cs) {
		return a.pop(l, ms, cs)
	}
	a.truncate(l)
	return prev
}

// sameEntries reports whether s has the members ms and the children cs (the
// same sets under equal elements).
func sameEntries(s *Set, ms []PathElement, cs []Child) bool {
	sm, sc := s.ms(), s.cs()
	if len(sm) != len(ms) || len(sc) != len(cs) {
		return false
	}
	for i := range ms {
		if !ms[i].Equal(sm[i]) {
			return false
		}
	}
	for i := range cs {
		if cs[i].Set != sc[i].Set || !cs[i].Element.Equal(sc[i].Element) {
			return false
		}
	}
	return true
}

// pop makes the set of the node opened at l from its entries ms and cs (in
// order) and takes the node's entries off the stacks.
func (a *Assembler) pop(l Level, ms []PathElement, cs []Child) *Set {
	if len(ms) == 0 && len(cs) == 0 {
		return nil
	}
	s := a.arena.node(ms, cs)
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

// Reset makes the Assembler allocate new blocks for the sets that follow;
// it keeps its stacks, which must be empty (every node closed).
func (a *Assembler) Reset() {
	a.clearStacks()
	a.arena = arena{}
}

func membersInOrder(ms []PathElement) bool {
	for i := 1; i < len(ms); i++ {
		if ms[i-1].Compare(ms[i]) >= 0 {
			return false
		}
	}
	return true
}

func childrenInOrder(cs []Child) bool {
	for i := 1; i < len(cs); i++ {
		if cs[i-1].Element.Compare(cs[i].Element) >= 0 {
			return false
		}
	}
	return true
}

// sortMembers sorts ms in place and drops repeats.
func sortMembers(ms []PathElement) []PathElement {
	slices.SortFunc(ms, PathElement.Compare)
	return slices.CompactFunc(ms, func(x, y PathElement) bool { return x.Compare(y) == 0 })
}

// sortChildren sorts cs in place by element and unites the sets of repeated
// elements.
func sortChildren(cs []Child) []Child {
	slices.SortStableFunc(cs, func(x, y Child) int { return x.Element.Compare(y.Element) })
	out := cs[:0]
	for _, c := range cs {
		if n := len(out); n > 0 && out[n-1].Element.Compare(c.Element) == 0 {
			out[n-1].Set = out[n-1].Set.Union(c.Set)
			continue
		}
		out = append(out, c)
	}
	return out
}

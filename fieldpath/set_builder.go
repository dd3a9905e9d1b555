package fieldpath

import "slices"

// Builder builds a Set from paths inserted one at a time. It is much faster
// than repeated Set.Insert and allocates the nodes of the result in a few
// blocks. It accepts paths in any order; input sorted by Path.Compare, or in
// the pre-order of a walk over an object, is the cheapest.
//
// A Builder is for use by one goroutine. Build freezes the inserted paths into
// an immutable Set; the Builder must not be used after Build. The zero
// Builder is ready to use.
type Builder struct {
	// The nodes on the way to the last inserted path are open: frames[k]
	// is the node of cur[:k]. The members and children of the open nodes
	// are on two stacks, each node's above its parent's.
	cur      Path
	frames   []frame
	members  []PathElement
	children []Child
	arena    arena
}

type frame struct {
	mBase, cBase int  // where the node's members and children start
	unsorted     bool // they were added out of order or repeated
}

// Insert adds p. An empty p is ignored. The Builder keeps the elements of p
// (which are immutable) but not the slice.
func (b *Builder) Insert(p Path) {
	if len(p) == 0 {
		return
	}
	if len(b.frames) == 0 {
		b.frames = append(b.frames, frame{})
	}
	// Keep the open nodes that are prefixes of p, close the others.
	keep, lim := 0, min(len(b.frames)-1, len(p)-1)
	for keep < lim && b.cur[keep].Compare(p[keep]) == 0 {
		keep++
	}
	b.closeTo(keep)
	b.cur = append(b.cur[:0], p...)
	for k := keep + 1; k < len(p); k++ {
		b.frames = append(b.frames, frame{mBase: len(b.members), cBase: len(b.children)})
	}
	f := &b.frames[len(b.frames)-1]
	if n := len(b.members); n > f.mBase && b.members[n-1].Compare(p[len(p)-1]) >= 0 {
		f.unsorted = true
	}
	b.members = append(b.members, p[len(p)-1])
}

// closeTo closes the open nodes deeper than depth, adding each to its parent
// as a child.
func (b *Builder) closeTo(depth int) {
	for k := len(b.frames) - 1; k > depth; k-- {
		s := b.finish(b.frames[k])
		b.frames = b.frames[:k]
		e := b.cur[k-1]
		parent := &b.frames[k-1]
		if n := len(b.children); n > parent.cBase && b.children[n-1].Element.Compare(e) >= 0 {
			parent.unsorted = true
		}
		b.children = append(b.children, Child{e, s})
	}
}

// finish freezes the top open node f and pops its entries off the stacks.
func (b *Builder) finish(f frame) *Set {
	ms, cs := b.members[f.mBase:], b.children[f.cBase:]
	if f.unsorted {
		ms, cs = sortMembers(ms), sortChildren(cs)
	}
	s := arenaNode(&b.arena, ms, cs)
	clear(b.members[f.mBase:])
	clear(b.children[f.cBase:])
	b.members, b.children = b.members[:f.mBase], b.children[:f.cBase]
	return s
}

// Build returns the set of the inserted paths (nil when there are none) and
// resets the Builder.
func (b *Builder) Build() *Set {
	if len(b.frames) == 0 {
		return nil
	}
	b.closeTo(0)
	s := b.finish(b.frames[0])
	*b = Builder{}
	return s
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

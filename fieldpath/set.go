package fieldpath

import (
	"iter"
	"math"
	"unsafe"
)

// Set is a set of paths, stored as a trie: the paths of length one are the
// node's members, and the longer paths are grouped under child sets by their
// first element. Every child set is non-empty, so two sets hold the same
// paths exactly when they have the same shape (see Equal).
//
// Set is immutable; safe for concurrent use. Operations never modify their
// receiver or arguments and return sets that share unchanged subtrees with
// them; an operation whose result equals one of its inputs returns that input
// itself. A nil *Set is the empty set, and every method accepts a nil
// receiver and nil arguments. Operations that yield the empty set may return
// nil. The zero Set is also an empty set.
type Set struct {
	// The members (sorted by Compare, no duplicates) and the children
	// (sorted by Element, no duplicates, every Set non-empty) are slices
	// stored as pointers and 32-bit lengths, which makes a node 32 bytes
	// instead of 56: sets are many small nodes, and their memory is most of
	// their cost. Read them with ms and cs; set them with setEntries.
	mem  *PathElement
	kid  *Child
	nm   int32
	nk   int32
	size int // number of member paths, computed at construction
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

// makeSet returns a new node with the given entries and size.
func makeSet(members []PathElement, children []Child, size int) *Set {
	s := &Set{size: size}
	s.setEntries(members, children)
	return s
}

// Child is one child set of a Set node: the paths under Element, with
// Element removed.
//
// Children returns Child values borrowed from the set: do not modify them.
type Child struct {
	Element PathElement
	Set     *Set
}

// NewSet returns the set of the given paths. Empty paths are ignored: the
// whole object is never a member. NewSet keeps no reference to the slices it
// is given (their elements, which are immutable, are shared).
func NewSet(paths ...Path) *Set {
	var b Builder
	// Size the first blocks for the paths: at most one member each, and
	// typically fewer than one interior node per two paths.
	b.arena.elemChunk = len(paths)
	b.arena.setChunk = len(paths) / 2
	b.arena.kidChunk = len(paths) / 2
	for _, p := range paths {
		b.Insert(p)
	}
	return b.Build()
}

// newNode returns a set with the given members and children, or nil when
// both are empty. It computes the size.
func newNode(members []PathElement, children []Child) *Set {
	if len(members) == 0 && len(children) == 0 {
		return nil
	}
	n := len(members)
	for i := range children {
		n += children[i].Set.size
	}
	return makeSet(members, children, n)
}

// Empty reports whether s has no member paths.
func (s *Set) Empty() bool { return s == nil || s.size == 0 }

// Size returns the number of member paths of s.
func (s *Set) Size() int {
	if s == nil {
		return 0
	}
	return s.size
}

// Members returns the paths of length one of s, sorted. Borrowed: the caller
// must not modify the slice.
func (s *Set) Members() []PathElement {
	if s == nil {
		return nil
	}
	return s.ms()
}

// Children returns the child sets of s, sorted by element. Borrowed: the
// caller must not modify the slice or its entries.
func (s *Set) Children() []Child {
	if s == nil {
		return nil
	}
	return s.cs()
}

// searchMembers returns the position of pe in m, or where it would be.
func searchMembers(m []PathElement, pe PathElement) (int, bool) {
	lo, hi := 0, len(m)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if m[h].Compare(pe) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(m) && m[lo].Compare(pe) == 0
}

func searchChildren(c []Child, pe PathElement) (int, bool) {
	lo, hi := 0, len(c)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if c[h].Element.Compare(pe) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(c) && c[lo].Element.Compare(pe) == 0
}

// HasMember reports whether the path of length one made of pe is in s.
func (s *Set) HasMember(pe PathElement) bool {
	if s == nil {
		return false
	}
	_, ok := searchMembers(s.ms(), pe)
	return ok
}

// WithPrefix returns the paths of s that start with pe, with pe removed, or
// nil when there are none. The result is shared with s.
func (s *Set) WithPrefix(pe PathElement) *Set {
	if s == nil {
		return nil
	}
	cs := s.cs()
	if i, ok := searchChildren(cs, pe); ok {
		return cs[i].Set
	}
	return nil
}

// Has reports whether p is a member path of s. The empty path never is.
func (s *Set) Has(p Path) bool {
	if len(p) == 0 {
		return false
	}
	for len(p) > 1 {
		s = s.WithPrefix(p[0])
		if s == nil {
			return false
		}
		p = p[1:]
	}
	return s.HasMember(p[0])
}

// Equal reports whether s and o hold the same paths.
func (s *Set) Equal(o *Set) bool {
	if s == o {
		return true
	}
	if s.Size() != o.Size() {
		return false
	}
	if s.Empty() {
		return true
	}
	sm, om, sc, oc := s.ms(), o.ms(), s.cs(), o.cs()
	if len(sm) != len(om) || len(sc) != len(oc) {
		return false
	}
	for i := range sm {
		if !sm[i].Equal(om[i]) {
			return false
		}
	}
	for i := range sc {
		if !sc[i].Element.Equal(oc[i].Element) || !sc[i].Set.Equal(oc[i].Set) {
			return false
		}
	}
	return true
}

// acc accumulates the output slice of a merge walk over two sorted inputs a
// and b without allocating as long as the output is a prefix of a or of b
// (item for item, as told by push).
type acc[T any] struct {
	a, b         []T
	out          []T
	n            int
	hint         int
	sameA, sameB bool
}

func newAcc[T any](a, b []T, hint int) acc[T] {
	return acc[T]{a: a, b: b, hint: hint, sameA: true, sameB: true}
}

// push appends x. ia is the index of x in a when x is a's item itself, else
// -1; ib likewise for b.
func (c *acc[T]) push(x T, ia, ib int) {
	if c.out == nil {
		wasA := c.sameA
		if ia != c.n {
			c.sameA = false
		}
		if ib != c.n {
			c.sameB = false
		}
		if c.sameA || c.sameB {
			c.n++
			return
		}
		if c.hint <= c.n {
			c.hint = c.n + 1
		}
		c.out = make([]T, c.n, c.hint)
		if wasA {
			copy(c.out, c.a[:c.n])
		} else {
			copy(c.out, c.b[:c.n])
		}
	}
	c.out = append(c.out, x)
	c.n++
}

// result returns the output and whether it is all of a, all of b.
func (c *acc[T]) result() (out []T, isA, isB bool) {
	if c.out != nil {
		return c.out, false, false
	}
	isA = c.sameA && c.n == len(c.a)
	isB = c.sameB && c.n == len(c.b)
	switch {
	case c.n == 0:
		return nil, isA, isB
	case c.sameA:
		return c.a[:c.n:c.n], isA, isB
	default:
		return c.b[:c.n:c.n], isA, isB
	}
}

// combine returns a when the result is all of a, b when it is all of b, and
// a new node otherwise.
func combine(ma *acc[PathElement], ca *acc[Child], a, b *Set) *Set {
	m, mA, mB := ma.result()
	c, cA, cB := ca.result()
	if mA && cA {
		return a
	}
	if mB && cB {
		return b
	}
	return newNode(m, c)
}

func identical(r, x *Set, i int) int {
	if r == x {
		return i
	}
	return -1
}

// Union returns the paths in s or in o.
func (s *Set) Union(o *Set) *Set {
	if s.Empty() {
		if o.Empty() {
			return nil
		}
		return o
	}
	if o.Empty() || s == o {
		return s
	}
	a, b := s.ms(), o.ms()
	ma := newAcc(a, b, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := a[i].Compare(b[j]); {
		case c < 0:
			ma.push(a[i], i, -1)
			i++
		case c > 0:
			ma.push(b[j], -1, j)
			j++
		default:
			ma.push(a[i], i, j)
			i++
			j++
		}
	}
	for ; i < len(a); i++ {
		ma.push(a[i], i, -1)
	}
	for ; j < len(b); j++ {
		ma.push(b[j], -1, j)
	}

	ac, bc := s.cs(), o.cs()
	ca := newAcc(ac, bc, len(ac)+len(bc))
	i, j = 0, 0
	for i < len(ac) && j < len(bc) {
		switch c := ac[i].Element.Compare(bc[j].Element); {
		case c < 0:
			ca.push(ac[i], i, -1)
			i++
		case c > 0:
			ca.push(bc[j], -1, j)
			j++
		default:
			u := ac[i].Set.Union(bc[j].Set)
			ca.push(Child{ac[i].Element, u}, identical(u, ac[i].Set, i), identical(u, bc[j].Set, j))
			i++
			j++
		}
	}
	for ; i < len(ac); i++ {
		ca.push(ac[i], i, -1)
	}
	for ; j < len(bc); j++ {
		ca.push(bc[j], -1, j)
	}
	return combine(&ma, &ca, s, o)
}

// Intersection returns the paths in both s and o.
func (s *Set) Intersection(o *Set) *Set {
	if s.Empty() || o.Empty() {
		return nil
	}
	if s == o {
		return s
	}
	a, b := s.ms(), o.ms()
	ma := newAcc(a, b, min(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := a[i].Compare(b[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			ma.push(a[i], i, j)
			i++
			j++
		}
	}
	ac, bc := s.cs(), o.cs()
	ca := newAcc(ac, bc, min(len(ac), len(bc)))
	i, j = 0, 0
	for i < len(ac) && j < len(bc) {
		switch c := ac[i].Element.Compare(bc[j].Element); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			if r := ac[i].Set.Intersection(bc[j].Set); !r.Empty() {
				ca.push(Child{ac[i].Element, r}, identical(r, ac[i].Set, i), identical(r, bc[j].Set, j))
			}
			i++
			j++
		}
	}
	return combine(&ma, &ca, s, o)
}

// Difference returns the paths in s that are not in o. A path of s is kept
// even when o holds one of its prefixes (see RecursiveDifference for the
// operation that removes whole subtrees).
func (s *Set) Difference(o *Set) *Set {
	if s.Empty() || s == o {
		return nil
	}
	if o.Empty() {
		return s
	}
	a, b := s.ms(), o.ms()
	ma := newAcc(a, nil, len(a))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := a[i].Compare(b[j]); {
		case c < 0:
			ma.push(a[i], i, -1)
			i++
		case c > 0:
			j++
		default:
			i++
			j++
		}
	}
	for ; i < len(a); i++ {
		ma.push(a[i], i, -1)
	}
	ac, bc := s.cs(), o.cs()
	ca := newAcc(ac, nil, len(ac))
	i, j = 0, 0
	for i < len(ac) && j < len(bc) {
		switch c := ac[i].Element.Compare(bc[j].Element); {
		case c < 0:
			ca.push(ac[i], i, -1)
			i++
		case c > 0:
			j++
		default:
			if d := ac[i].Set.Difference(bc[j].Set); !d.Empty() {
				ca.push(Child{ac[i].Element, d}, identical(d, ac[i].Set, i), -1)
			}
			i++
			j++
		}
	}
	for ; i < len(ac); i++ {
		ca.push(ac[i], i, -1)
	}
	return combine(&ma, &ca, s, nil)
}

// RecursiveDifference returns the paths of s that neither are in o nor have
// a prefix in o: every member of o removes itself and its whole subtree from
// s. With s = {a.b.c, a.d} and o = {a.b}, the result is {a.d}.
func (s *Set) RecursiveDifference(o *Set) *Set {
	if s.Empty() || s == o {
		return nil
	}
	if o.Empty() {
		return s
	}
	a, b := s.ms(), o.ms()
	ma := newAcc(a, nil, len(a))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := a[i].Compare(b[j]); {
		case c < 0:
			ma.push(a[i], i, -1)
			i++
		case c > 0:
			j++
		default:
			i++
			j++
		}
	}
	for ; i < len(a); i++ {
		ma.push(a[i], i, -1)
	}
	ac, bc := s.cs(), o.cs()
	ca := newAcc(ac, nil, len(ac))
	j, k := 0, 0 // j walks o's children, k walks o's members
	for i := range ac {
		el := ac[i].Element
		for k < len(b) && b[k].Compare(el) < 0 {
			k++
		}
		if k < len(b) && b[k].Compare(el) == 0 {
			continue // o owns el: drop the whole subtree
		}
		for j < len(bc) && bc[j].Element.Compare(el) < 0 {
			j++
		}
		if j < len(bc) && bc[j].Element.Compare(el) == 0 {
			if d := ac[i].Set.RecursiveDifference(bc[j].Set); !d.Empty() {
				ca.push(Child{el, d}, identical(d, ac[i].Set, i), -1)
			}
			continue
		}
		ca.push(ac[i], i, -1)
	}
	return combine(&ma, &ca, s, nil)
}

// Leaves returns the paths of s that are not a proper prefix of another path
// of s.
func (s *Set) Leaves() *Set {
	if s.Empty() {
		return nil
	}
	a, ac := s.ms(), s.cs()
	ma := newAcc(a, nil, len(a))
	j := 0
	for i := range a {
		for j < len(ac) && ac[j].Element.Compare(a[i]) < 0 {
			j++
		}
		if j < len(ac) && ac[j].Element.Compare(a[i]) == 0 {
			continue
		}
		ma.push(a[i], i, -1)
	}
	ca := newAcc(ac, nil, len(ac))
	for i := range ac {
		l := ac[i].Set.Leaves()
		ca.push(Child{ac[i].Element, l}, identical(l, ac[i].Set, i), -1)
	}
	return combine(&ma, &ca, s, nil)
}

// Insert returns s with p added. s is not modified: the result shares every
// subtree that p does not pass through. An empty p is ignored.
func (s *Set) Insert(p Path) *Set {
	if len(p) == 0 {
		return s
	}
	var members []PathElement
	var children []Child
	if s != nil {
		members, children = s.ms(), s.cs()
	}
	if len(p) == 1 {
		i, ok := searchMembers(members, p[0])
		if ok {
			return s
		}
		m := make([]PathElement, len(members)+1)
		copy(m, members[:i])
		m[i] = p[0]
		copy(m[i+1:], members[i:])
		return makeSet(m, children, s.Size()+1)
	}
	i, ok := searchChildren(children, p[0])
	var sub *Set
	if ok {
		sub = children[i].Set.Insert(p[1:])
		if sub == children[i].Set {
			return s
		}
		c := make([]Child, len(children))
		copy(c, children)
		c[i].Set = sub
		return makeSet(members, c, s.Size()+1)
	}
	sub = (*Set)(nil).Insert(p[1:])
	c := make([]Child, len(children)+1)
	copy(c, children[:i])
	c[i] = Child{p[0], sub}
	copy(c[i+1:], children[i:])
	return makeSet(members, c, s.Size()+1)
}

// Filter returns the paths p of s for which keep(p) is true. The path passed
// to keep is reused between calls: copy it to keep it.
func (s *Set) Filter(keep func(Path) bool) *Set {
	if s.Empty() {
		return nil
	}
	buf := make(Path, 0, 16)
	return s.filter(&buf, keep)
}

func (s *Set) filter(buf *Path, keep func(Path) bool) *Set {
	depth := len(*buf)
	a := s.ms()
	ma := newAcc(a, nil, len(a))
	for i := range a {
		*buf = append((*buf)[:depth], a[i])
		if keep(*buf) {
			ma.push(a[i], i, -1)
		}
	}
	ac := s.cs()
	ca := newAcc(ac, nil, len(ac))
	for i := range ac {
		*buf = append((*buf)[:depth], ac[i].Element)
		if f := ac[i].Set.filter(buf, keep); !f.Empty() {
			ca.push(Child{ac[i].Element, f}, identical(f, ac[i].Set, i), -1)
		}
	}
	*buf = (*buf)[:depth]
	return combine(&ma, &ca, s, nil)
}

// All yields the member paths of s in pre-order: at each node its members in
// order, then each child's paths in order. The yielded Path is reused between
// iterations: copy it to keep it.
func (s *Set) All() iter.Seq[Path] {
	return func(yield func(Path) bool) {
		if s.Empty() {
			return
		}
		buf := make(Path, 0, 16)
		s.walk(&buf, yield)
	}
}

func (s *Set) walk(buf *Path, yield func(Path) bool) bool {
	depth := len(*buf)
	for _, m := range s.ms() {
		*buf = append((*buf)[:depth], m)
		if !yield(*buf) {
			return false
		}
	}
	for _, c := range s.cs() {
		*buf = append((*buf)[:depth], c.Element)
		if !c.Set.walk(buf, yield) {
			return false
		}
	}
	*buf = (*buf)[:depth]
	return true
}

// String returns the member paths of s one per line, in the order of All,
// with no trailing newline.
func (s *Set) String() string {
	var b []byte
	first := true
	for p := range s.All() {
		if !first {
			b = append(b, '\n')
		}
		first = false
		b = p.appendText(b)
	}
	return string(b)
}

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
	s := b.arena.node(ms, cs)
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

// arena hands out sets and slices carved from blocks that grow with use.
type arena struct {
	elems                         []PathElement
	kids                          []Child
	sets                          []Set
	elemChunk, kidChunk, setChunk int // the sizes of the next blocks
	started                       bool
	// Whether the next block of a kind has a reserved size.
	elemsReserved, kidsReserved, setsReserved bool
}

// firstBlock and firstBlockMedium are an arena's first blocks of each kind
// in one allocation, so that a small set costs one.
type firstBlock struct {
	sets  [4]Set
	elems [12]PathElement
	kids  [4]Child
}

type firstBlockMedium struct {
	sets  [8]Set
	elems [24]PathElement
	kids  [8]Child
}

// grow returns the size of the next block of a kind, at least 8, and
// doubles the size after it up to 1024, so that small sets stay small and
// large ones need few blocks.
func grow(next *int) int {
	n := max(*next, 8)
	*next = min(2*n, 1024)
	return n
}

// growReserved is grow for a block whose size was reserved (see
// Assembler.Reserve): the reservation is used once, and if it falls short
// the blocks after it start small again.
func growReserved(next *int, reserved *bool) int {
	if !*reserved {
		return grow(next)
	}
	*reserved = false
	n := max(*next, 8)
	*next = max(n/4, 8)
	return n
}

// reserve sizes the first blocks for about the given numbers of members
// and nodes (see Assembler.Reserve).
func (a *arena) reserve(members, nodes int) {
	if a.started || members <= 0 || nodes <= 0 {
		return
	}
	a.elemChunk, a.setChunk, a.kidChunk = members, nodes, max(nodes-1, 1)
	a.elemsReserved, a.setsReserved, a.kidsReserved = true, true, true
}

// expect sizes the first blocks for about the given numbers of members and
// nodes, growing from there as usual (unlike reserve, for an estimate that
// may fall short).
func (a *arena) expect(members, nodes int) {
	if a.started {
		return
	}
	a.elemChunk, a.setChunk, a.kidChunk = members, nodes, nodes
}

// node returns a new set holding copies of members and children, which must
// be sorted and valid.
func (a *arena) node(members []PathElement, children []Child) *Set {
	ms, cs := a.room(len(members), len(children))
	return a.owning(append(ms, members...), append(cs, children...))
}

// room returns empty slices with room for members and children entries,
// carved from the blocks, for a set made with owning.
func (a *arena) room(members, children int) ([]PathElement, []Child) {
	if !a.started {
		a.started = true
		switch {
		case a.setChunk <= 4 && a.elemChunk <= 12 && a.kidChunk <= 4:
			fb := new(firstBlock)
			a.sets, a.elems, a.kids = fb.sets[:], fb.elems[:], fb.kids[:]
			a.setChunk, a.elemChunk, a.kidChunk = 8, 16, 8
		case a.elemsReserved && a.setChunk <= 8 && a.elemChunk <= 24 && a.kidChunk <= 8:
			fb := new(firstBlockMedium)
			a.sets, a.elems, a.kids = fb.sets[:], fb.elems[:], fb.kids[:]
			a.setChunk, a.elemChunk, a.kidChunk = 8, 16, 8
		}
		a.elemsReserved, a.setsReserved, a.kidsReserved = false, false, false
	}
	var ms []PathElement
	if members > 0 {
		if len(a.elems) < members {
			a.elems = make([]PathElement, max(members, growReserved(&a.elemChunk, &a.elemsReserved)))
		}
		ms = a.elems[:0:members]
		a.elems = a.elems[members:]
	}
	var cs []Child
	if children > 0 {
		if len(a.kids) < children {
			a.kids = make([]Child, max(children, growReserved(&a.kidChunk, &a.kidsReserved)))
		}
		cs = a.kids[:0:children]
		a.kids = a.kids[children:]
	}
	return ms, cs
}

// owning returns a new set whose entries are members and children, which
// must be sorted and valid; the set keeps the slices.
func (a *arena) owning(members []PathElement, children []Child) *Set {
	if len(a.sets) == 0 {
		a.sets = make([]Set, growReserved(&a.setChunk, &a.setsReserved))
	}
	s := &a.sets[0]
	a.sets = a.sets[1:]
	if n := len(members); n > 0 {
		s.mem, s.nm = unsafe.SliceData(members), int32(n)
	}
	if n := len(children); n > 0 {
		s.kid, s.nk = unsafe.SliceData(children), int32(n)
	}
	s.size = len(members)
	for i := range children {
		s.size += children[i].Set.size
	}
	return s
}

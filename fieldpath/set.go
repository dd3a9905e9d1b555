package fieldpath

import (
	"iter"

	"github.com/structmerge/structmerge/internal/valueown"
	"github.com/structmerge/structmerge/value"
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

// makeSet returns a new node with the given entries and size.
func makeSet(members []PathElement, children []Child, size int) *Set {
	s := &Set{size: size}
	s.setEntries(members, children)
	return s
}

// Child is one child set of a Set node: the paths under Element, with
// Element removed.
//
// Children yields copies of a set's Child values; the sets they point to
// are immutable.
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
	b.arena.Expect(len(paths), len(paths)/2)
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

// Members yields the position and each path of length one of s, sorted:
// for i, pe := range s.Members().
func (s *Set) Members() iter.Seq2[int, PathElement] {
	return func(yield func(int, PathElement) bool) {
		for i, pe := range s.members() {
			if !yield(i, pe) {
				return
			}
		}
	}
}

// Children yields the position and each child set of s, sorted by
// element: for i, c := range s.Children().
func (s *Set) Children() iter.Seq2[int, Child] {
	return func(yield func(int, Child) bool) {
		for i, c := range s.children() {
			if !yield(i, c) {
				return
			}
		}
	}
}

// MembersLen returns the number of paths of length one of s.
func (s *Set) MembersLen() int { return len(s.members()) }

// ChildrenLen returns the number of child sets of s.
func (s *Set) ChildrenLen() int { return len(s.children()) }

// members returns the members of s (nil for nil).
func (s *Set) members() []PathElement {
	if s == nil {
		return nil
	}
	return s.ms()
}

// children returns the children of s (nil for nil).
func (s *Set) children() []Child {
	if s == nil {
		return nil
	}
	return s.cs()
}

func init() {
	valueown.RegisterSet(valueown.SetFuncs[*Set, PathElement, Child, value.Field, value.Value]{
		Members:   (*Set).members,
		Children:  (*Set).children,
		KeyFields: PathElement.keyFields,
		Key:       ownKey,
		ValueOf:   valueElement,
	})
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

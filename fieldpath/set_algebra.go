package fieldpath

// The set algebra: Union, Intersection, Difference, RecursiveDifference,
// Leaves and Insert, each a merge walk over sorted tries that returns an
// input itself when the result equals it.

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

package typed

import (
	"cmp"
	"github.com/structmerge/structmerge/internal/setasm"
	"strings"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// Comparison is what changed from one value to another: fields that are new,
// fields whose value differs, fields that are gone.
type Comparison struct {
	Added    *fieldpath.Set
	Modified *fieldpath.Set
	Removed  *fieldpath.Set
}

// IsSame reports whether nothing changed.
func (c *Comparison) IsSame() bool {
	return c.Added.Empty() && c.Modified.Empty() && c.Removed.Empty()
}

// String lists the changes, one path a line under a heading per kind.
func (c *Comparison) String() string {
	var b strings.Builder
	for _, part := range []struct {
		name string
		set  *fieldpath.Set
	}{{"Modified", c.Modified}, {"Added", c.Added}, {"Removed", c.Removed}} {
		if !part.set.Empty() {
			b.WriteString("- " + part.name + " Fields:\n" + part.set.String() + "\n")
		}
	}
	return b.String()
}

// ExcludeFields returns the comparison without the given fields and
// everything below them.
func (c *Comparison) ExcludeFields(fields *fieldpath.Set) *Comparison {
	if fields.Empty() {
		return c
	}
	return &Comparison{
		Added:    c.Added.RecursiveDifference(fields),
		Modified: c.Modified.RecursiveDifference(fields),
		Removed:  c.Removed.RecursiveDifference(fields),
	}
}

// Compare returns what changed from lhs to rhs, both of type t. A value that
// does not fit t where the comparison needs it is an error (Errors).
func Compare(t *schema.Type, lhs, rhs value.Value) (*Comparison, error) {
	return compare(t, lhs, rhs, false, sizeHint{})
}

// compare runs a comparer with pooled scratch memory.
func compare(t *schema.Type, lhs, rhs value.Value, skipShared bool, added sizeHint) (*Comparison, error) {
	if t == nil {
		return nil, ErrNoType
	}
	b := getBufs()
	w := comparer{skipShared: skipShared, path: b.path, sc: b.sc, added: &b.asm[0], modified: &b.asm[1], removed: &b.asm[2]}
	w.added.Reserve(added.added())
	la, lm, lr := w.added.Open(), w.modified.Open(), w.removed.Open()
	w.walk(t, &lhs, &rhs) // the whole value is never a member
	c := &Comparison{Added: w.close(setAdded, la), Modified: w.close(setModified, lm), Removed: w.close(setRemoved, lr)}
	b.path, b.sc = w.path, w.sc
	b.put()
	if err := w.errs.result(); err != nil {
		return nil, err
	}
	return c, nil
}

// comparer walks two values at once and assembles the three sets of a
// Comparison bottom up: the walk of a pair of values adds their changes
// below them to the open nodes, and returns the changes of the values
// themselves for the caller to add.
type comparer struct {
	added, modified, removed *setasm.Assembler // in the walk's bufs
	path                     fieldpath.Path
	errs                     errorList
	sc                       scratch
	// skipShared says both sides are known to be valid: a subtree the two
	// share (value.Same) has no changes and no problems, and is skipped.
	skipShared bool
	// last holds, for each set (added, modified, removed) and depth, the
	// node closed last there: the next node with the same entries is that
	// node (items of a long list often change alike).
	last [3][16]*fieldpath.Set
	// list holds the nodes itemsInListOrder made, in place, for the open
	// nodes of a list (one per set), when listDone: closing those nodes
	// returns them.
	list     [3]*fieldpath.Set
	listDone bool
}

// The sets of a comparison, as indexes of comparer.last.
const (
	setAdded = iota
	setModified
	setRemoved
)

// close closes the node opened at l in set k of w at the current depth.
func (w *comparer) close(k int, l setasm.Level) *fieldpath.Set {
	if w.listDone {
		return w.list[k]
	}
	a := w.assembler(k)
	d := len(w.path)
	if d >= len(w.last[k]) {
		return a.Close(l)
	}
	s := a.CloseLike(l, w.last[k][d])
	if s != nil {
		w.last[k][d] = s
	}
	return s
}

func (w *comparer) assembler(k int) *setasm.Assembler {
	switch k {
	case setAdded:
		return w.added
	case setModified:
		return w.modified
	}
	return w.removed
}

// changes says how a value itself changed: a set of the bits below.
type changes uint8

const (
	wasAdded changes = 1 << iota
	wasRemoved
	wasModified
)

// visit compares lhs and rhs (nil when absent) under pe, which w.path ends
// with, and adds what changed to the open nodes.
func (w *comparer) visit(pe fieldpath.PathElement, t *schema.Type, lhs, rhs *value.Value) {
	sets, c := w.visitSets(t, lhs, rhs)
	w.add(pe, &sets, c)
}

// visitSets compares lhs and rhs (nil when absent) at w.path and returns
// what changed: the sets below (added, modified, removed, as indexed by
// setAdded...) and the value's own changes.
func (w *comparer) visitSets(t *schema.Type, lhs, rhs *value.Value) (sets [3]*fieldpath.Set, c changes) {
	// A value on one side only has changes of one kind below it (everything
	// below was added, or removed): only that set gets a node.
	if (lhs == nil) != (rhs == nil) {
		k, bit := setAdded, wasAdded
		if rhs == nil {
			k, bit = setRemoved, wasRemoved
		}
		if w.skipShared {
			// A valid value on one side: everything in it, each field a
			// member, which the field set's walk of that value alone finds
			// (as a create does for the whole object).
			sets[k] = w.oneSide(k, t, cmp.Or(lhs, rhs))
			return sets, bit
		}
		l := w.assembler(k).Open()
		c = w.walk(t, lhs, rhs) & bit
		sets[k] = w.close(k, l)
		w.list, w.listDone = [3]*fieldpath.Set{}, false
		return sets, c
	}
	la, lm, lr := w.added.Open(), w.modified.Open(), w.removed.Open()
	c = w.walk(t, lhs, rhs)
	sets[setAdded] = w.close(setAdded, la)
	sets[setModified] = w.close(setModified, lm)
	sets[setRemoved] = w.close(setRemoved, lr)
	w.list, w.listDone = [3]*fieldpath.Set{}, false
	return sets, c
}

// oneSide returns the set of every field of v, a valid value present on
// one side only, for set k: a fieldSetter's walk, on the comparer's
// assembler for k and scratch memory.
func (w *comparer) oneSide(k int, t *schema.Type, v *value.Value) *fieldpath.Set {
	fs := fieldSetter{a: w.assembler(k), path: w.path, sc: w.sc, all: true}
	l := fs.a.Open()
	fs.walk(t, v)
	set := fs.close(l)
	w.path, w.sc = fs.path, fs.sc
	w.errs.errs = append(w.errs.errs, fs.errs.errs...)
	return set
}

// add adds to the open nodes what changed under pe: the sets below it and
// pe itself for its own changes.
func (w *comparer) add(pe fieldpath.PathElement, sets *[3]*fieldpath.Set, c changes) {
	w.added.AddChild(pe, sets[setAdded])
	w.modified.AddChild(pe, sets[setModified])
	w.removed.AddChild(pe, sets[setRemoved])
	if c&wasAdded != 0 {
		w.added.AddMember(pe)
	}
	if c&wasRemoved != 0 {
		w.removed.AddMember(pe)
	}
	if c&wasModified != 0 {
		w.modified.AddMember(pe)
	}
}

// walk compares lhs and rhs (nil when absent) at w.path.
func (w *comparer) walk(t *schema.Type, lhs, rhs *value.Value) changes {
	if w.skipShared && lhs != nil && rhs != nil && w.unchanged(lhs, rhs) {
		return 0
	}
	alhs, arhs := deduce(t, lhs), deduce(t, rhs)
	var inLeaf bool
	var c, c2 changes
	switch {
	case rhs == nil:
		inLeaf, c = w.handle(t, alhs, lhs, rhs)
	case lhs == nil || alhs == arhs:
		inLeaf, c = w.handle(t, arhs, lhs, rhs)
	default:
		// The two sides are of different kinds: visit with each side's view
		// (a list's nodes made in place become entries of the open nodes,
		// which both views add to).
		_, c = w.handle(t, alhs, lhs, rhs)
		w.spill()
		inLeaf, c2 = w.handle(t, arhs, lhs, rhs)
		w.spill()
		c |= c2
	}
	if !inLeaf {
		if lhs == nil {
			c |= wasAdded
		} else if rhs == nil {
			c |= wasRemoved
		}
	}
	return c
}

// equalDepth is the depth down to which the comparer reads two valid
// maps or lists for equality before walking them. The read stops at the
// first difference, but the part before it is read again one level down:
// the bound keeps that to equalDepth reads of any node.
const equalDepth = 12

// unchanged reports whether lhs and rhs, both valid, have no changes and
// no problems: the same stored node, or, near the root, equal containers
// (an update sends the live object back with a few changes; reading the
// unchanged subtrees for equality costs a fraction of their comparison).
func (w *comparer) unchanged(lhs, rhs *value.Value) bool {
	if value.Same(*lhs, *rhs) {
		return true
	}
	k := lhs.Kind()
	return len(w.path) > 0 && len(w.path) < equalDepth && (k == value.Map || k == value.List) && rhs.Kind() == k && value.Equal(*lhs, *rhs)
}

// leaf returns the change of a value compared as a whole.
func leaf(lhs, rhs *value.Value) changes {
	switch {
	case lhs == nil:
		return wasAdded
	case rhs == nil:
		return wasRemoved
	case !value.Equal(*lhs, *rhs):
		return wasModified
	}
	return 0
}

// handle compares under one atom and reports whether it compared a leaf,
// and the value's own changes.
func (w *comparer) handle(t *schema.Type, a atom, lhs, rhs *value.Value) (bool, changes) {
	switch a.kind() {
	case atomMap:
		return w.doMap(a.m, lhs, rhs)
	case atomScalar:
		if !w.errs.checkScalarSides(w.path, a, lhs, rhs) {
			return false, 0
		}
		return true, leaf(lhs, rhs)
	case atomList:
		return w.doList(a.list, lhs, rhs)
	}
	w.errs.add(w.path, SchemaProblem, invalidAtomMessage(t))
	return false, 0
}

// asKind returns v when it is present and of kind k, else nil.
func asKind(v *value.Value, k value.Kind) *value.Value {
	if v == nil || v.Kind() != k {
		return nil
	}
	return v
}

func (w *comparer) doMap(m *schema.Map, lhs, rhs *value.Value) (bool, changes) {
	lm, rm := asKind(lhs, value.Map), asKind(rhs, value.Map)
	if m.Relationship() == schema.Atomic || ((lm == nil || lm.Len() == 0) && (rm == nil || rm.Len() == 0)) {
		return true, leaf(lhs, rhs)
	}
	zipFields(lm, rm, func(name string, l, r *value.Value) {
		ft, _ := fieldType(m, name)
		pe := fieldpath.FieldName(name)
		if w.skipShared && (l == nil || leafScalar(ft, *l)) && (r == nil || leafScalar(ft, *r)) {
			// Both sides valid, and a leaf scalar on each side that has
			// the field: added, removed or modified, nothing below it.
			switch {
			case l == nil:
				w.added.AddMember(pe)
			case r == nil:
				w.removed.AddMember(pe)
			case !value.Equal(*l, *r):
				w.modified.AddMember(pe)
			}
			return
		}
		w.path = append(w.path, pe)
		w.visit(pe, ft, l, r)
		w.path = w.path[:len(w.path)-1]
	})
	return false, 0
}

func (w *comparer) doList(l *schema.List, lhs, rhs *value.Value) (bool, changes) {
	ll, rl := asKind(lhs, value.List), asKind(rhs, value.List)
	if l.Relationship() == schema.Atomic || ((ll == nil || ll.Len() == 0) && (rl == nil || rl.Len() == 0)) {
		return true, leaf(lhs, rhs)
	}
	if l.Relationship() != schema.Associative {
		return false, 0
	}
	var litems, ritems []value.Value
	if ll != nil {
		litems = own.Value.Items(*ll)
	}
	if rl != nil {
		ritems = own.Value.Items(*rl)
	}
	m := w.sc.mark()
	defer w.sc.release(m)
	lidx := w.index(l, litems)
	ridx := w.index(l, ritems)
	elem := l.ElementType()
	visit := func(pe fieldpath.PathElement, lv, rv *value.Value) {
		w.path = append(w.path, pe)
		w.visit(pe, elem, lv, rv)
		w.path = w.path[:len(w.path)-1]
	}
	// compareKey compares the items of one element: lcount of them in the
	// live list at the positions lpos (in list order), rcount in the other.
	compareKey := func(pe fieldpath.PathElement, lpos, rpos []int32) {
		var lv, rv *value.Value
		if len(lpos) > 0 {
			lv = &litems[lpos[0]]
		}
		if len(rpos) > 0 {
			rv = &ritems[rpos[0]]
		}
		switch {
		case len(lpos) <= 1 && len(rpos) <= 1:
			visit(pe, lv, rv)
		case len(lpos) >= 2 && len(rpos) >= 2:
			same := len(lpos) == len(rpos)
			for k := 0; same && k < len(lpos); k++ {
				same = value.Equal(litems[lpos[k]], ritems[rpos[k]])
			}
			if !same {
				w.modified.AddMember(pe)
			}
		case len(lpos) >= 2:
			if rv != nil {
				visit(pe, nil, rv)
			}
			w.removed.AddMember(pe)
		default:
			if lv != nil {
				visit(pe, lv, nil)
			}
			w.added.AddMember(pe)
		}
	}
	if !lidx.dups && !ridx.dups {
		w.itemsInListOrder(elem, litems, ritems, &lidx, &ridx)
		return false, 0
	}
	if len(litems) == 0 {
		w.added.Grow(len(ritems), len(ritems))
	} else if len(ritems) == 0 {
		w.removed.Grow(len(litems), len(litems))
	}
	// The elements of both lists in order (so that the sets are assembled
	// in order): a merge of the two indexes' sorted positions.
	lo, ro := lidx.order, ridx.order
	for len(lo) > 0 || len(ro) > 0 {
		c := headOrder(&lidx, lo, &ridx, ro)
		var lpos, rpos []int32
		var pe fieldpath.PathElement
		if c <= 0 {
			n := lidx.count[lo[0]]
			lpos, lo = lo[:n], lo[n:]
			pe = lidx.pes[lpos[0]]
		}
		if c >= 0 {
			n := ridx.count[ro[0]]
			rpos, ro = ro[:n], ro[n:]
			pe = ridx.pes[rpos[0]]
		}
		compareKey(pe, lpos, rpos)
	}
	return false, 0
}

// headOrder compares the elements at the heads of two sorted positions of
// the indexes lidx and ridx, as compareItems, where an empty side comes
// last: negative when the left element comes first, positive for the
// right, 0 for the same element.
func headOrder(lidx *itemIndex, lo []int32, ridx *itemIndex, ro []int32) int {
	switch {
	case len(lo) == 0:
		return 1
	case len(ro) == 0:
		return -1
	}
	return compareItems(lidx, lo[0], ridx, ro[0])
}

// itemsInListOrder compares the items of two lists in which no element
// repeats. The items are visited in list order, which is the order of their
// memory (in element order, each item of a long list would be a cache
// miss), and their changes are added in element order, so that the sets are
// assembled in order.
func (w *comparer) itemsInListOrder(elem *schema.Type, litems, ritems []value.Value, lidx, ridx *itemIndex) {
	// The elements in order, a merge of the two indexes' sorted positions:
	// entry e has the items at lpos[e] and rpos[e] (-1 for none).
	n := len(lidx.order) + len(ridx.order)
	// (Every entry of these int arrays that is read is written first.)
	lpos, rpos := w.sc.dirtyInts(n), w.sc.dirtyInts(n)
	entryOf := w.sc.dirtyInts(len(litems) + len(ritems)) // by left, then right, position
	lo, ro := lidx.order, ridx.order
	e := 0
	for ; len(lo) > 0 || len(ro) > 0; e++ {
		c := headOrder(lidx, lo, ridx, ro)
		lpos[e], rpos[e] = -1, -1
		if c <= 0 {
			lpos[e], lo = lo[0], lo[1:]
			entryOf[lpos[e]] = int32(e)
		}
		if c >= 0 {
			rpos[e], ro = ro[0], ro[1:]
			entryOf[len(litems)+int(rpos[e])] = int32(e)
		}
	}
	entries := e
	sets := w.sc.itemSets(3 * entries)
	self := w.sc.dirtyInts(entries) // the items' own changes
	visit := func(e int, pe fieldpath.PathElement, lv, rv *value.Value) {
		w.path = append(w.path, pe)
		s, c := w.visitSets(elem, lv, rv)
		w.path = w.path[:len(w.path)-1]
		copy(sets[3*e:3*e+3], s[:])
		self[e] = int32(c)
	}
	for j := range ritems {
		if !ridx.ok[j] {
			continue
		}
		e := entryOf[len(litems)+j]
		var lv *value.Value
		if lpos[e] >= 0 {
			lv = &litems[lpos[e]]
		}
		visit(int(e), ridx.pes[j], lv, &ritems[j])
	}
	for i := range litems {
		if !lidx.ok[i] {
			continue
		}
		if e := entryOf[i]; rpos[e] < 0 {
			visit(int(e), lidx.pes[i], &litems[i], nil)
		}
	}
	// The list's nodes are made in place, sized by a count of their
	// entries: a long list's entries would otherwise be copied from the
	// stacks into the sets, and checked for order on the way (a key
	// comparison each, out of cache in element order).
	var members, children [3]int
	for e := range entries {
		for k, s := range sets[3*e : 3*e+3] {
			if !s.Empty() {
				children[k]++
			}
		}
		for k, bit := range ownBits {
			if changes(self[e])&bit != 0 {
				members[k]++
			}
		}
	}
	var ms [3][]fieldpath.PathElement
	var cs [3][]fieldpath.Child
	for k := range 3 {
		ms[k], cs[k] = w.assembler(k).Room(members[k], children[k])
	}
	for e := range entries {
		var pe fieldpath.PathElement
		if rpos[e] >= 0 {
			pe = ridx.pes[rpos[e]]
		} else {
			pe = lidx.pes[lpos[e]]
		}
		for k, s := range sets[3*e : 3*e+3] {
			if !s.Empty() {
				cs[k] = append(cs[k], fieldpath.Child{Element: pe, Set: s})
			}
		}
		for k, bit := range ownBits {
			if changes(self[e])&bit != 0 {
				ms[k] = append(ms[k], pe)
			}
		}
	}
	for k := range 3 {
		w.list[k] = w.assembler(k).SetOf(ms[k], cs[k])
	}
	w.listDone = true
}

// spill adds the entries of the nodes itemsInListOrder made in place to the
// open nodes, for a walk that goes on adding to those.
func (w *comparer) spill() {
	if !w.listDone {
		return
	}
	for k, s := range w.list {
		a := w.assembler(k)
		for _, m := range own.Set.Members(s) {
			a.AddMember(m)
		}
		for _, c := range own.Set.Children(s) {
			a.AddChild(c.Element, c.Set)
		}
	}
	w.list, w.listDone = [3]*fieldpath.Set{}, false
}

// ownBits are, by set, the bit of a value's own changes that makes it a
// member of the set.
var ownBits = [3]changes{setAdded: wasAdded, setModified: wasModified, setRemoved: wasRemoved}

// index computes the path elements of a list's items, recording an error for
// each item that has none.
func (w *comparer) index(l *schema.List, items []value.Value) itemIndex {
	return w.sc.index(l, items, func(i int, err error) {
		w.errs.add(w.path, InvalidListItem, itemProblem(i, err))
	})
}

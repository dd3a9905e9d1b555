package typed

import (
	"strings"

	"github.com/structmerge/structmerge/fieldpath"
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
	w := comparer{}
	return w.run(t, lhs, rhs)
}

func (w *comparer) run(t *schema.Type, lhs, rhs value.Value) (*Comparison, error) {
	w.walk(t, &lhs, &rhs)
	if err := w.errs.result(); err != nil {
		return nil, err
	}
	return &Comparison{Added: w.added.Build(), Modified: w.modified.Build(), Removed: w.removed.Build()}, nil
}

type comparer struct {
	added, modified, removed fieldpath.Builder
	path                     fieldpath.Path
	errs                     errorList
	// skipShared says both sides are known to be valid: a subtree the two
	// share (value.Same) has no changes and no problems, and is skipped.
	skipShared bool
}

func (w *comparer) insert(b *fieldpath.Builder) {
	if len(w.path) > 0 {
		b.Insert(w.path)
	}
}

// walk compares lhs and rhs (nil when absent) at w.path.
func (w *comparer) walk(t *schema.Type, lhs, rhs *value.Value) {
	if w.skipShared && lhs != nil && rhs != nil && value.Same(*lhs, *rhs) {
		return
	}
	alhs, arhs := deduce(t, lhs), deduce(t, rhs)
	var inLeaf bool
	switch {
	case rhs == nil:
		inLeaf = w.handle(t, alhs, lhs, rhs)
	case lhs == nil || alhs == arhs:
		inLeaf = w.handle(t, arhs, lhs, rhs)
	default:
		// The two sides are of different kinds: visit with each side's view.
		w.handle(t, alhs, lhs, rhs)
		inLeaf = w.handle(t, arhs, lhs, rhs)
	}
	if !inLeaf {
		if lhs == nil {
			w.insert(&w.added)
		} else if rhs == nil {
			w.insert(&w.removed)
		}
	}
}

// leaf records the change of a value compared as a whole.
func (w *comparer) leaf(lhs, rhs *value.Value) bool {
	switch {
	case lhs == nil:
		w.insert(&w.added)
	case rhs == nil:
		w.insert(&w.removed)
	case !value.Equal(*lhs, *rhs):
		w.insert(&w.modified)
	}
	return true
}

// handle compares under one atom and reports whether it compared a leaf.
func (w *comparer) handle(t *schema.Type, a atom, lhs, rhs *value.Value) bool {
	switch a.kind() {
	case atomMap:
		return w.doMap(a.m, lhs, rhs)
	case atomScalar:
		if !w.errs.checkScalarSides(w.path, a.scalar, lhs, rhs) {
			return false
		}
		return w.leaf(lhs, rhs)
	case atomList:
		return w.doList(a.list, lhs, rhs)
	}
	w.errs.add(w.path, SchemaProblem, invalidAtomMessage(t))
	return false
}

// asKind returns v when it is present and of kind k, else nil.
func asKind(v *value.Value, k value.Kind) *value.Value {
	if v == nil || v.Kind() != k {
		return nil
	}
	return v
}

func (w *comparer) doMap(m *schema.Map, lhs, rhs *value.Value) bool {
	lm, rm := asKind(lhs, value.Map), asKind(rhs, value.Map)
	if m.Relationship() == schema.Atomic || ((lm == nil || lm.Len() == 0) && (rm == nil || rm.Len() == 0)) {
		return w.leaf(lhs, rhs)
	}
	zipFields(lm, rm, func(name string, l, r *value.Value) {
		ft, _ := fieldType(m, name)
		w.path = append(w.path, fieldpath.FieldName(name))
		w.walk(ft, l, r)
		w.path = w.path[:len(w.path)-1]
	})
	return false
}

func (w *comparer) doList(l *schema.List, lhs, rhs *value.Value) bool {
	ll, rl := asKind(lhs, value.List), asKind(rhs, value.List)
	if l.Relationship() == schema.Atomic || ((ll == nil || ll.Len() == 0) && (rl == nil || rl.Len() == 0)) {
		return w.leaf(lhs, rhs)
	}
	if l.Relationship() != schema.Associative {
		return false
	}
	var litems, ritems []value.Value
	if ll != nil {
		litems = ll.Items()
	}
	if rl != nil {
		ritems = rl.Items()
	}
	lidx := w.index(l, litems)
	ridx := w.index(l, ritems)
	elem := l.ElementType()
	visit := func(pe fieldpath.PathElement, lv, rv *value.Value) {
		w.path = append(w.path, pe)
		w.walk(elem, lv, rv)
		w.path = w.path[:len(w.path)-1]
	}
	mark := func(b *fieldpath.Builder, pe fieldpath.PathElement) {
		w.path = append(w.path, pe)
		b.Insert(w.path)
		w.path = w.path[:len(w.path)-1]
	}
	compareKey := func(pe fieldpath.PathElement) {
		lpos, rpos := lidx.positions(pe), ridx.positions(pe)
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
				mark(&w.modified, pe)
			}
		case len(lpos) >= 2:
			if rv != nil {
				visit(pe, nil, rv)
			}
			mark(&w.removed, pe)
		default:
			if lv != nil {
				visit(pe, lv, nil)
			}
			mark(&w.added, pe)
		}
	}
	// Keys in the order they first appear: the live list's, then new ones.
	for i := range litems {
		if lidx.ok[i] && !lidx.isDuplicate(i) {
			compareKey(lidx.pes[i])
		}
	}
	for i := range ritems {
		if ridx.ok[i] && !ridx.isDuplicate(i) {
			if first, _ := lidx.lookup(ridx.pes[i]); first < 0 {
				compareKey(ridx.pes[i])
			}
		}
	}
	return false
}

// index computes the path elements of a list's items, recording an error for
// each item that has none.
func (w *comparer) index(l *schema.List, items []value.Value) itemIndex {
	return indexItems(l, items, func(i int, err error) {
		w.errs.add(w.path, InvalidListItem, itemProblem(i, err))
	})
}

package typed

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/internal/setasm"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// FieldSet returns the set of fields v sets: every scalar leaf, every atomic
// list or map as one leaf, every item of an associative list (and what it
// sets), every field of a map that is null, an empty map, or not declared
// by the schema (an entry of a map with an element type). Items whose key
// occurs more than once are owned as a whole. v is expected to have been
// validated; items of associative lists that have no path element are an error.
func FieldSet(t *schema.Type, v value.Value) (*fieldpath.Set, error) {
	return fieldSet(t, v, sizeHint{})
}

// fieldSet is FieldSet allocating the set for the size hint.
func fieldSet(t *schema.Type, v value.Value, hint sizeHint) (*fieldpath.Set, error) {
	return walkFieldSet(t, v, false, hint)
}

// addedSet returns what Compare finds added when v replaces nothing (null or
// an empty map): every path v reaches, where FieldSet has only the leaves.
// v is expected to be valid.
func addedSet(t *schema.Type, v value.Value, hint sizeHint) (*fieldpath.Set, error) {
	return walkFieldSet(t, v, true, hint)
}

func walkFieldSet(t *schema.Type, v value.Value, all bool, hint sizeHint) (*fieldpath.Set, error) {
	if t == nil {
		return nil, ErrNoType
	}
	b := getBufs()
	w := fieldSetter{path: b.path, sc: b.sc, all: all, a: &b.asm[0]}
	if all {
		w.a.Reserve(hint.added())
	} else {
		w.a.Reserve(hint.fieldSet())
	}
	l := w.a.Open()
	w.walk(t, &v)
	set := w.close(l)
	b.path, b.sc = w.path, w.sc
	b.put()
	if err := w.errs.result(); err != nil {
		return nil, err
	}
	return set, nil
}

// fieldSetter walks a value and assembles its field set bottom up: the walk
// of a value adds the value's entries to the open node of w.a, in order (a
// map's fields are sorted, a list's items are visited in element order), so
// nodes are closed without checking the order.
type fieldSetter struct {
	a    *setasm.Assembler // in the walk's bufs
	path fieldpath.Path    // for errors
	errs errorList
	sc   scratch
	// all makes every field a member, not only the leaves (see addedSet).
	all bool
	// list is the set doItems made for the open node, when listDone.
	list     *fieldpath.Set
	listDone bool
}

// close closes the node opened at l: a list's node is the set doItems made,
// any other is made of the entries added to it.
func (w *fieldSetter) close(l setasm.Level) *fieldpath.Set {
	if w.listDone {
		s := w.list
		w.list, w.listDone = nil, false
		return s
	}
	return w.a.CloseInOrder(l)
}

// walk adds the entries of v to the open node and reports whether v's own
// path is a member of the set (a leaf).
func (w *fieldSetter) walk(t *schema.Type, v *value.Value) bool {
	a := deduce(t, v)
	switch a.kind() {
	case atomMap:
		if a.m.Relationship() == schema.Atomic {
			return true
		}
		if v.Kind() != value.Map {
			return false
		}
		fields := own.Value.Fields(*v)
		for i := range fields {
			f := &fields[i]
			ft, declared := fieldType(a.m, f.Name)
			pe := fieldpath.FieldName(f.Name)
			if leafScalar(ft, f.Value) {
				w.a.AddMember(pe) // no entries of its own
				continue
			}
			w.path = append(w.path, pe)
			l := w.a.Open()
			leaf := w.walk(ft, &f.Value)
			w.a.AddChild(pe, w.close(l))
			if leaf || w.all || !declared || f.Value.IsNull() || (f.Value.Kind() == value.Map && f.Value.Len() == 0) {
				w.a.AddMember(pe)
			}
			w.path = w.path[:len(w.path)-1]
		}
		return false
	case atomScalar:
		return true
	case atomList:
		if a.list.Relationship() == schema.Atomic {
			return true
		}
		if v.Kind() != value.List {
			return false
		}
		w.doItems(a.list, own.Value.Items(*v))
		return false
	default:
		w.errs.add(w.path, SchemaProblem, invalidAtomMessage(t))
		return false
	}
}

func (w *fieldSetter) doItems(l *schema.List, items []value.Value) {
	m := w.sc.mark()
	defer w.sc.release(m)
	idx := w.sc.index(l, items, func(i int, err error) {
		w.errs.add(w.path, InvalidListItem, itemProblem(i, err))
	})
	pes := idx.pes
	// The items are walked in list order, which is the order of their
	// memory (in element order, a long list's items would be a cache miss
	// each), and their sets are added in element order, so that the set is
	// assembled in order. An item whose set is that of the item before
	// shares it (lists of items with the same scalar fields are common, and
	// their sets are most of a long list's set).
	subs := w.sc.itemSets(len(items))
	var prev *fieldpath.Set
	for i := range items {
		if !idx.ok[i] || idx.hasDuplicates(i) {
			continue
		}
		w.path = append(w.path, pes[i])
		lv := w.a.Open()
		w.walk(l.ElementType(), &items[i])
		if w.listDone {
			subs[i] = w.close(lv)
		} else {
			subs[i] = w.a.CloseInOrderLike(lv, prev)
		}
		prev = subs[i]
		w.path = w.path[:len(w.path)-1]
	}
	// The list's node is made in place: a long list's entries would
	// otherwise be copied from the stacks into the set.
	ms, cs := w.a.Room(len(idx.order), len(idx.order))
	for _, p := range idx.order {
		i := int(p)
		if idx.hasDuplicates(i) {
			// A repeated key is owned as a whole, once.
			if !idx.isDuplicate(i) {
				ms = append(ms, pes[i])
			}
			continue
		}
		if !subs[i].Empty() {
			cs = append(cs, fieldpath.Child{Element: pes[i], Set: subs[i]})
		}
		ms = append(ms, pes[i])
	}
	w.list, w.listDone = w.a.SetOf(ms, cs), true
}

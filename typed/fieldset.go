package typed

import (
	"github.com/structmerge/structmerge/fieldpath"
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
	w := fieldSetter{}
	w.walk(t, v)
	if err := w.errs.result(); err != nil {
		return nil, err
	}
	return w.b.Build(), nil
}

type fieldSetter struct {
	b    fieldpath.Builder
	path fieldpath.Path
	errs errorList
}

func (w *fieldSetter) insert() {
	if len(w.path) > 0 {
		w.b.Insert(w.path)
	}
}

func (w *fieldSetter) walk(t *schema.Type, v value.Value) {
	a := deduce(t, &v)
	switch a.kind() {
	case atomMap:
		if a.m.Relationship() == schema.Atomic {
			w.insert()
			return
		}
		if v.Kind() != value.Map {
			return
		}
		for _, f := range v.Fields() {
			ft, declared := fieldType(a.m, f.Name)
			w.path = append(w.path, fieldpath.FieldName(f.Name))
			w.walk(ft, f.Value)
			if !declared || f.Value.IsNull() || (f.Value.Kind() == value.Map && f.Value.Len() == 0) {
				w.insert()
			}
			w.path = w.path[:len(w.path)-1]
		}
	case atomScalar:
		w.insert()
	case atomList:
		if a.list.Relationship() == schema.Atomic {
			w.insert()
			return
		}
		if v.Kind() != value.List {
			return
		}
		w.doItems(a.list, v.Items())
	default:
		w.errs.add(w.path, SchemaProblem, invalidAtomMessage(t))
	}
}

func (w *fieldSetter) doItems(l *schema.List, items []value.Value) {
	idx := indexItems(l, items, func(i int, err error) {
		w.errs.add(w.path, InvalidListItem, itemProblem(i, err))
	})
	pes := idx.pes
	for i, item := range items {
		if !idx.ok[i] {
			continue
		}
		w.path = append(w.path, pes[i])
		if idx.hasDuplicates(i) {
			// A repeated key is owned as a whole, once.
			if !idx.isDuplicate(i) {
				w.insert()
			}
		} else {
			w.walk(l.ElementType(), item)
			w.insert()
		}
		w.path = w.path[:len(w.path)-1]
	}
}

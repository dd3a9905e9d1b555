package typed

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// RemoveItems returns v without the fields in set: a member of the set is
// removed with everything below it; a path below a field removes only that
// part. A granular map or associative list left with nothing (or empty to
// begin with, where something below it was to be removed) becomes null, as
// the reference engine does; an item of an associative list that is not
// itself removed keeps its key fields and stays a map.
func RemoveItems(t *schema.Type, v value.Value, set *fieldpath.Set) value.Value {
	out, ok := remove(t, v, set)
	if !ok {
		return value.Value{}
	}
	return out
}

func remove(t *schema.Type, v value.Value, set *fieldpath.Set) (value.Value, bool) {
	a := deduce(t, &v)
	switch a.kind() {
	case atomMap:
		if v.Kind() != value.Map || v.Len() == 0 || a.m.Relationship() == schema.Atomic {
			return value.Value{}, false
		}
		fields := own.Value.Fields(v)
		out := make([]value.Field, 0, len(fields))
		changed := false
		for _, f := range fields {
			pe := fieldpath.FieldName(f.Name)
			if set.HasMember(pe) {
				changed = true
				continue
			}
			val := f.Value
			if sub := set.WithPrefix(pe); !sub.Empty() {
				ft, _ := fieldType(a.m, f.Name)
				val, _ = remove(ft, val, sub)
				changed = true
			}
			out = append(out, value.Field{Name: f.Name, Value: val})
		}
		if len(out) == 0 {
			return value.Value{}, false
		}
		if !changed {
			return v, true
		}
		return own.Value.Map(out), true
	case atomScalar:
		return v, true
	case atomList:
		if v.Kind() != value.List || v.Len() == 0 || a.list.Relationship() == schema.Atomic {
			return value.Value{}, false
		}
		items := own.Value.Items(v)
		out := make([]value.Value, 0, len(items))
		changed := false
		keyBuf := make([]value.Field, 0, len(a.list.Keys())*len(items))
		for i := range items {
			item := items[i]
			pe, err := itemElementIn(a.list, &items[i], &keyBuf)
			if err != nil {
				out = append(out, item)
				continue
			}
			if set.HasMember(pe) {
				changed = true
				continue
			}
			if sub := set.WithPrefix(pe); !sub.Empty() {
				item = removeFromItem(a.list.ElementType(), item, pe, sub)
				changed = true
			}
			out = append(out, item)
		}
		if len(out) == 0 {
			return value.Value{}, false
		}
		if !changed {
			return v, true
		}
		return own.Value.List(out), true
	}
	return value.Value{}, false
}

// removeFromItem removes sub from an item of an associative list that stays
// in the list. The item keeps its key fields, which say which item it is,
// and stays a map even when nothing else is left in it. (The reference
// engine removes key fields here and turns an emptied item into null; the
// next operation then rejects the list or the item silently changes key.
// See docs/compatibility.md.)
func removeFromItem(t *schema.Type, item value.Value, pe fieldpath.PathElement, sub *fieldpath.Set) value.Value {
	if pe.Kind() == fieldpath.KeyKind {
		sub = sub.Difference(keyFieldSet(pe))
		if sub.Empty() {
			return item
		}
	}
	out, ok := remove(t, item, sub)
	if !ok && item.Kind() == value.Map {
		return own.Value.Map(nil)
	}
	return out
}

// ExtractOption changes what ExtractItems keeps.
type ExtractOption func(extractOptions) extractOptions

type extractOptions struct {
	keyFields bool
}

// WithKeyFields keeps the key fields of every associative list item that
// ExtractItems keeps, so that the result can be applied as a configuration.
func WithKeyFields() ExtractOption {
	return func(o extractOptions) extractOptions {
		o.keyFields = true
		return o
	}
}

// ExtractItems returns the part of v that the fields of set select: a member
// keeps its field with everything below it, a path below a field keeps only
// that part.
func ExtractItems(t *schema.Type, v value.Value, set *fieldpath.Set, opts ...ExtractOption) value.Value {
	var o extractOptions
	for _, opt := range opts {
		o = opt(o)
	}
	out, ok := extract(t, v, set, o)
	if !ok {
		return value.Value{}
	}
	return out
}

func extract(t *schema.Type, v value.Value, set *fieldpath.Set, o extractOptions) (value.Value, bool) {
	a := deduce(t, &v)
	switch a.kind() {
	case atomMap:
		if v.Kind() != value.Map || v.Len() == 0 || a.m.Relationship() == schema.Atomic {
			return v, true
		}
		var out []value.Field
		for _, f := range own.Value.Fields(v) {
			pe := fieldpath.FieldName(f.Name)
			if set.HasMember(pe) {
				out = append(out, f)
				continue
			}
			if sub := set.WithPrefix(pe); !sub.Empty() {
				ft, _ := fieldType(a.m, f.Name)
				if val, ok := extract(ft, f.Value, sub, o); ok {
					out = append(out, value.Field{Name: f.Name, Value: val})
				}
			}
		}
		if len(out) == 0 {
			return value.Value{}, false
		}
		return own.Value.Map(out), true
	case atomScalar:
		return v, true
	case atomList:
		if v.Kind() != value.List || v.Len() == 0 || a.list.Relationship() == schema.Atomic {
			return v, true
		}
		var out []value.Value
		for _, item := range own.Value.Items(v) {
			pe, err := itemElement(a.list, item)
			if err != nil {
				continue
			}
			if set.HasMember(pe) {
				out = append(out, item)
				continue
			}
			if sub := set.WithPrefix(pe); !sub.Empty() {
				if o.keyFields && pe.Kind() == fieldpath.KeyKind {
					sub = sub.Union(keyFieldSet(pe))
				}
				if val, ok := extract(a.list.ElementType(), item, sub, o); ok {
					out = append(out, val)
				}
			}
		}
		if len(out) == 0 {
			return value.Value{}, false
		}
		return own.Value.List(out), true
	}
	return value.Value{}, false
}

// keyFieldSet is the set of an item's key fields.
func keyFieldSet(pe fieldpath.PathElement) *fieldpath.Set {
	var b fieldpath.Builder
	for _, k := range own.Set.KeyFields(pe) {
		b.Insert(fieldpath.Path{fieldpath.FieldName(k.Name)})
	}
	return b.Build()
}

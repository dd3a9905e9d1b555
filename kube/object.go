package kube

import (
	"slices"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
)

// This file holds small copy-on-write helpers over value trees: reading
// and replacing fields of maps without modifying the input.

func sortStrings(s []string) { slices.Sort(s) }

// field returns the field name of map v.
func field(v value.Value, name string) (value.Value, bool) {
	if v.Kind() != value.Map {
		return value.Value{}, false
	}
	return v.Get(name)
}

// stringField returns the string field name of v, or "" when it is absent
// or not a string (as the accessors of unstructured objects do).
func stringField(v value.Value, name string) string {
	f, ok := field(v, name)
	if !ok || f.Kind() != value.String {
		return ""
	}
	return f.AsString()
}

// metadataString returns metadata.<name> as a string ("" when absent).
func metadataString(obj value.Value, name string) string {
	md, _ := field(obj, "metadata")
	return stringField(md, name)
}

// withField returns map v with field name set to x. A v that is not a map
// is treated as an empty map.
func withField(v value.Value, name string, x value.Value) value.Value {
	var old []value.Field
	if v.Kind() == value.Map {
		old = own.Value.Fields(v)
	}
	i, found := slices.BinarySearchFunc(old, name, func(f value.Field, n string) int {
		switch {
		case f.Name < n:
			return -1
		case f.Name > n:
			return 1
		}
		return 0
	})
	out := make([]value.Field, 0, len(old)+1)
	out = append(out, old[:i]...)
	out = append(out, value.Field{Name: name, Value: x})
	if found {
		out = append(out, old[i+1:]...)
	} else {
		out = append(out, old[i:]...)
	}
	return own.Value.Map(out)
}

// withoutField returns map v without field name (v itself when it has no
// such field or is not a map).
func withoutField(v value.Value, name string) value.Value {
	if v.Kind() != value.Map || !v.Has(name) {
		return v
	}
	old := own.Value.Fields(v)
	out := make([]value.Field, 0, len(old)-1)
	for _, f := range old {
		if f.Name != name {
			out = append(out, f)
		}
	}
	return own.Value.Map(out)
}

// nested returns the value at the chain of map fields names.
func nested(v value.Value, names ...string) (value.Value, bool) {
	for _, n := range names {
		var ok bool
		if v, ok = field(v, n); !ok {
			return value.Value{}, false
		}
	}
	return v, true
}

// withNested sets the value at the chain of map fields names, creating
// maps on the way as the accessors of unstructured objects do. It returns
// false, and v unchanged, when a value on the way exists and is not a map.
func withNested(v value.Value, x value.Value, names ...string) (value.Value, bool) {
	if len(names) == 0 {
		return x, true
	}
	if v.Kind() != value.Map {
		return v, false
	}
	child, ok := v.Get(names[0])
	if !ok {
		child = own.Value.Map(nil)
	} else if len(names) > 1 && child.Kind() != value.Map {
		return v, false
	}
	c, ok := withNested(child, x, names[1:]...)
	if !ok {
		return v, false
	}
	return withField(v, names[0], c), true
}

// withoutNested removes the value at the chain of map fields names; maps
// on the way are left as they are (even when they become empty), and
// nothing happens (v itself is returned) when a value on the way is
// missing or not a map.
func withoutNested(v value.Value, names ...string) value.Value {
	if len(names) == 0 || v.Kind() != value.Map {
		return v
	}
	if len(names) == 1 {
		return withoutField(v, names[0])
	}
	child, ok := v.Get(names[0])
	if !ok || child.Kind() != value.Map {
		return v
	}
	c := withoutNested(child, names[1:]...)
	if value.Same(c, child) {
		return v // nothing removed below
	}
	return withField(v, names[0], c)
}

// lookupPath returns the value a field path selects in v: a field of a map,
// the item of a list with the given key fields, the member of a set with
// the given value, or an item by index.
func lookupPath(v value.Value, p fieldpath.Path) (value.Value, bool) {
	for _, pe := range p {
		switch pe.Kind() {
		case fieldpath.FieldNameKind:
			var ok bool
			if v, ok = field(v, pe.FieldName()); !ok {
				return value.Value{}, false
			}
		case fieldpath.KeyKind:
			item, ok := findKeyed(v, own.Set.KeyFields(pe))
			if !ok {
				return value.Value{}, false
			}
			v = item
		case fieldpath.ValueKind:
			item, ok := findMember(v, pe.Value())
			if !ok {
				return value.Value{}, false
			}
			v = item
		case fieldpath.IndexKind:
			i := pe.Index()
			if v.Kind() != value.List || i < 0 || i >= v.Len() {
				return value.Value{}, false
			}
			v = v.Index(i)
		default:
			return value.Value{}, false
		}
	}
	return v, true
}

// findKeyed returns the first item of list v whose key fields equal key.
// A key field an item does not set matches when no item sets it (the key
// was defaulted).
func findKeyed(v value.Value, key []value.Field) (value.Value, bool) {
	if v.Kind() != value.List {
		return value.Value{}, false
	}
	for _, lenient := range []bool{false, true} {
		for _, item := range own.Value.Items(v) {
			if item.Kind() != value.Map {
				continue
			}
			match := true
			for _, k := range key {
				f, ok := item.Get(k.Name)
				if !ok {
					if lenient {
						continue
					}
					match = false
					break
				}
				if !value.Equal(f, k.Value) {
					match = false
					break
				}
			}
			if match {
				return item, true
			}
		}
	}
	return value.Value{}, false
}

func findMember(v value.Value, x value.Value) (value.Value, bool) {
	if v.Kind() != value.List {
		return value.Value{}, false
	}
	for _, item := range own.Value.Items(v) {
		if value.Equal(item, x) {
			return item, true
		}
	}
	return value.Value{}, false
}

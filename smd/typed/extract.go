package typed

import (
	corefieldpath "github.com/structmerge/structmerge/fieldpath"
	coreschema "github.com/structmerge/structmerge/schema"
	coretyped "github.com/structmerge/structmerge/typed"
	corevalue "github.com/structmerge/structmerge/value"
)

// SMD's ExtractItems differs from structmerge's typed.ExtractItems where a
// set names a field whose value is a separable map or a non-atomic list: SMD
// does not keep that value whole, it extracts from it again with the same
// set, and a map or list from which nothing is extracted becomes null rather
// than being left out. This file reproduces that on structmerge's values, so
// that callers of the drop-in get exactly what SMD returns.

// extractLikeSMD returns the part of v (of type t) that set selects, by
// SMD's rules; null when nothing is selected.
func extractLikeSMD(t *coreschema.Type, v corevalue.Value, set *corefieldpath.Set) corevalue.Value {
	if t == nil || t.Unresolvable() {
		return corevalue.Value{}
	}
	scalar, l, m := t.Scalar() != coreschema.NoScalar, t.List(), t.Map()
	switch v.Kind() {
	case corevalue.Bool, corevalue.Int, corevalue.Float, corevalue.String:
		if scalar {
			return v
		}
	case corevalue.List:
		if l != nil {
			return extractList(l, v, set)
		}
	case corevalue.Map:
		if m != nil {
			return extractMap(m, v, set)
		}
	}
	// No part of the type fits the value: SMD tries the map, then the
	// scalar, then the list, and a part that does not fit gives null.
	switch {
	case m != nil:
		if v.Kind() == corevalue.Map {
			return extractMap(m, v, set)
		}
	case scalar:
		return v
	case l != nil:
		if v.Kind() == corevalue.List {
			return extractList(l, v, set)
		}
	}
	return corevalue.Value{}
}

func extractMap(m *coreschema.Map, v corevalue.Value, set *corefieldpath.Set) corevalue.Value {
	if v.Len() == 0 || m.Relationship() == coreschema.Atomic {
		return v
	}
	var out []corevalue.Field
	for _, f := range v.Fields() {
		pe := corefieldpath.FieldName(f.Name)
		ft := m.ElementType()
		if d, ok := m.Field(f.Name); ok {
			ft = d.Type()
		}
		switch {
		case set.HasMember(pe):
			out = append(out, corevalue.Field{Name: f.Name, Value: extractLikeSMD(ft, f.Value, set)})
		default:
			if sub := set.WithPrefix(pe); !sub.Empty() {
				out = append(out, corevalue.Field{Name: f.Name, Value: extractLikeSMD(ft, f.Value, sub)})
			}
		}
	}
	if len(out) == 0 {
		return corevalue.Value{}
	}
	return corevalue.NewMap(out)
}

func extractList(l *coreschema.List, v corevalue.Value, set *corefieldpath.Set) corevalue.Value {
	if v.Len() == 0 || l.Relationship() != coreschema.Associative {
		return v
	}
	var out []corevalue.Value
	for _, item := range v.Items() {
		pe, ok := itemElement(l, item)
		if !ok {
			continue
		}
		exact := set.HasMember(pe)
		sub := set.WithPrefix(pe)
		if !sub.Empty() {
			item = extractLikeSMD(l.ElementType(), item, sub)
		}
		if exact || !sub.Empty() {
			out = append(out, item)
		}
	}
	if len(out) == 0 {
		return corevalue.Value{}
	}
	return corevalue.NewList(out)
}

// itemElement returns the path element of an associative list's item: its
// key (fields missing from the item take their default) or, for a list
// without keys, the item itself.
func itemElement(l *coreschema.List, item corevalue.Value) (corefieldpath.PathElement, bool) {
	keys := l.Keys()
	if len(keys) == 0 {
		switch item.Kind() {
		case corevalue.Map, corevalue.List, corevalue.Null:
			return corefieldpath.PathElement{}, false
		}
		return corefieldpath.MemberValue(item), true
	}
	if item.Kind() != corevalue.Map {
		return corefieldpath.PathElement{}, false
	}
	fields := make([]corevalue.Field, 0, len(keys))
	for i, k := range keys {
		if kv, ok := item.Get(k); ok {
			fields = append(fields, corevalue.Field{Name: k, Value: kv})
		} else if d, ok := l.KeyDefault(i); ok {
			fields = append(fields, corevalue.Field{Name: k, Value: d})
		}
	}
	if len(fields) == 0 {
		return corefieldpath.PathElement{}, false
	}
	return corefieldpath.Key(fields), true
}

// withKeyFields adds to set, for every path of set that v has, the key
// fields of each associative-list item on the path (as SMD's
// WithAppendKeyFields does).
func withKeyFields(t *coreschema.Type, v corevalue.Value, set *corefieldpath.Set) *corefieldpath.Set {
	has, err := coretyped.FieldSet(t, v)
	if err != nil {
		return set
	}
	var b corefieldpath.Builder
	added := false
	for p := range set.All() {
		if !has.Has(p) {
			continue
		}
		for i, pe := range p {
			if pe.Kind() != corefieldpath.KeyKind {
				continue
			}
			for _, f := range pe.Key() {
				kp := append(append(corefieldpath.Path{}, p[:i+1]...), corefieldpath.FieldName(f.Name))
				b.Insert(kp)
				added = true
			}
		}
	}
	if !added {
		return set
	}
	return set.Union(b.Build())
}

package fieldpath

import "sigs.k8s.io/structured-merge-diff/v6/value"

// AssociativeListCandidateFieldNames are the field names SetFromValue takes
// as an item's key when it has no schema to ask.
var AssociativeListCandidateFieldNames = []string{
	"key",
	"id",
	"name",
}

// SetFromValue returns the paths of the scalars (and nulls) in v, without a
// schema: map entries by field name, and list items by the key made of
// their scalar fields named in AssociativeListCandidateFieldNames, or by
// index when they have none. Empty maps and lists contribute nothing.
func SetFromValue(v value.Value) *Set {
	s := NewSet()
	collectLeaves(s, nil, v)
	return s
}

func collectLeaves(s *Set, prefix Path, v value.Value) {
	switch {
	case v.IsList():
		l := v.AsList()
		for i := range l.Length() {
			item := l.At(i)
			collectLeaves(s, append(prefix[:len(prefix):len(prefix)], guessListElement(i, item)), item)
		}
	case v.IsMap():
		v.AsMap().Iterate(func(k string, item value.Value) bool {
			collectLeaves(s, append(prefix[:len(prefix):len(prefix)], FieldNameElement(k)), item)
			return true
		})
	default:
		if len(prefix) > 0 {
			s.Insert(prefix)
		}
	}
}

func guessListElement(i int, item value.Value) PathElement {
	if item.IsMap() {
		m := item.AsMap()
		var key value.FieldList
		for _, name := range AssociativeListCandidateFieldNames {
			f, ok := m.Get(name)
			if !ok || f.IsNull() || f.IsMap() || f.IsList() {
				continue
			}
			key = append(key, value.Field{Name: name, Value: f})
		}
		if len(key) > 0 {
			key.Sort()
			return PathElement{Key: &key}
		}
	}
	return IndexElement(i)
}

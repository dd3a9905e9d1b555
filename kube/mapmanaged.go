package kube

import (
	"maps"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// This file holds how the map methods (ApplyUnstructured,
// UpdateUnstructured) read the live object's managedFields: straight from
// the caller's maps, without converting them to values, when they are
// plain (see entryFromMap). Half of a typical live object is its
// managedFields; converting them to a value only to read sets from it,
// validate them and give the caller's maps back costs more than reading
// the sets from the maps. An update whose body carries managedFields does
// not: converting the body like the live object compares the two lists as
// it reads them, and they are read once. Anything else takes the value
// path, whose result this path gives.

// mapManaged is a live object's managedFields list read from the map
// form: its entries and the list itself.
type mapManaged struct {
	entries []ManagedFieldsEntry
	list    []any
}

// maxDirectDepth bounds the nesting of a fieldsV1 read from the map form,
// far within the depth the value conversion allows its object.
const maxDirectDepth = 64

// readLiveManaged reads the managedFields of a request's live object when
// they are plain, and returns the object without them (a copy of its top
// level and metadata sharing everything else); otherwise, and for a request
// to the scale subresource (which reads them as the Scale's) or with a
// version converter (which may read the object whole), it returns the
// object and nil.
func (m *FieldManager) readLiveManaged(obj map[string]any, r request) (map[string]any, *mapManaged) {
	if obj == nil || r.subresource == ScaleSubresource || m.conv != nil {
		return obj, nil
	}
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj, nil
	}
	list, ok := md["managedFields"].([]any)
	if !ok || len(list) == 0 {
		return obj, nil
	}
	mm := &mapManaged{entries: make([]ManagedFieldsEntry, 0, len(list)), list: list}
	for _, x := range list {
		e, ok := entryFromMap(x)
		if !ok {
			return obj, nil
		}
		mm.entries = append(mm.entries, e)
	}
	return withoutManaged(obj, md), mm
}

// hasManagedFields reports whether the map obj has a
// metadata.managedFields, of any value.
func hasManagedFields(obj map[string]any) bool {
	md, _ := obj["metadata"].(map[string]any)
	_, ok := md["managedFields"]
	return ok
}

// withoutManaged returns obj without metadata.managedFields, md being its
// metadata: a copy of its top level and metadata sharing everything else.
func withoutManaged(obj, md map[string]any) map[string]any {
	md2 := maps.Clone(md) // copies the table, faster than inserting
	delete(md2, "managedFields")
	out := maps.Clone(obj)
	out["metadata"] = md2
	return out
}

// entryFromMap reads one managedFields item in the map form when it is
// plain: a map of the entry's string keys (manager, operation, apiVersion,
// time in RFC 3339, fieldsType, subresource) with string values, and
// fieldsV1, a map that is what its set encodes to (canonical) nested at
// most maxDirectDepth deep. ok is false for anything else. A plain item
// reads as entryFromValue reads its value, and is valid wherever the
// managedFields type accepts every plain list (plainManagedFieldsFit).
func entryFromMap(x any) (e ManagedFieldsEntry, ok bool) {
	item, isMap := x.(map[string]any)
	if !isMap {
		return e, false
	}
	for k, v := range item {
		switch k {
		case "fieldsV1":
			fields, isMap := v.(map[string]any)
			if !isMap {
				return e, false
			}
			s, canonical, err := fieldpath.ParseFieldsV1Unstructured(fields)
			if err != nil || !canonical || !nestsWithin(s, maxDirectDepth) {
				return e, false
			}
			e.Fields = s
			e.decoded = &decodedFields{set: s, raw: item, rawFields: fields}
		case "manager", "apiVersion", "fieldsType", "subresource", "operation", "time":
			str, isString := v.(string)
			if !isString || !setEntryString(&e, k, str) {
				return e, false
			}
		default:
			return e, false
		}
	}
	return e, true
}

// nestsWithin reports whether the FieldsV1 encoding of s nests at most
// about n maps deep (a member's empty map counts; the "." of a child that
// is also a member may add one more): a bound, not an exact depth.
func nestsWithin(s *fieldpath.Set, n int) bool {
	if s.MembersLen() == 0 && s.ChildrenLen() == 0 {
		return n >= 1
	}
	if n < 2 {
		return false
	}
	for _, c := range s.Children() {
		if !nestsWithin(c.Set, n-1) {
			return false
		}
	}
	return true
}

// plainManagedFieldsFit reports whether the object type typ accepts, at
// metadata.managedFields, every list of plain items (entryFromMap), as
// Kubernetes' ObjectMeta does: an atomic list of maps that declare the
// entry's string keys as strings (or untyped scalars) and fieldsV1 as a map
// of any maps. Only then may a live object's managedFields be left out of
// the value that is checked against typ.
func plainManagedFieldsFit(typ *schema.Type) bool {
	mf, ok := fieldType(typ, "metadata", "managedFields")
	if !ok || mf.List() == nil || mf.List().Relationship() != schema.Atomic {
		return false
	}
	item := mf.List().ElementType()
	if item.Map() == nil || len(item.Map().Unions()) > 0 {
		return false
	}
	for _, name := range []string{"manager", "apiVersion", "fieldsType", "subresource", "operation", "time"} {
		t, ok := fieldType(item, name)
		if !ok || (t.Scalar() != schema.String && t.Scalar() != schema.Untyped) {
			return false
		}
	}
	fields, ok := fieldType(item, "fieldsV1")
	return ok && anyMaps(fields)
}

// anyMaps reports whether t accepts every map of maps: a map type without
// declared fields or unions whose entries accept any value.
func anyMaps(t *schema.Type) bool {
	m := t.Map()
	return m != nil && len(m.Fields()) == 0 && len(m.Unions()) == 0 && m.ElementType().AcceptsAny()
}

// fieldType returns the type of the chain of declared map fields names
// in t.
func fieldType(t *schema.Type, names ...string) (*schema.Type, bool) {
	for _, n := range names {
		if t.Map() == nil {
			return nil, false
		}
		f, ok := t.Map().Field(n)
		if !ok {
			return nil, false
		}
		t = f.Type()
	}
	return t, true
}

// restoreManaged puts the live object's managedFields, mm, back into its
// value, for a kind whose type does not accept every plain list: the
// operation then checks and reads them in the value, as it does any other
// caller's.
func restoreManaged(live value.Value, mm *mapManaged) (value.Value, error) {
	list, err := value.FromUnstructured(mm.list)
	if err != nil {
		return live, &LiveObjectError{Err: err}
	}
	out, _ := withNested(live, list, "metadata", "managedFields")
	return out, nil
}

package gen

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/value"
)

// Difference is a place where two objects of a schema differ.
type Difference struct {
	// Path is where they differ.
	Path fieldpath.Path
	// Type is the (resolved) type at Path; nil when the schema does not
	// describe the place.
	Type *Type
	// A and B are the two values there; HasA and HasB are false where a
	// side has no value at all (an absent field).
	A, B       any
	HasA, HasB bool
}

// Diff returns the places where a and b, two objects of the root type,
// differ, as deep as the schema allows: granular structs and maps are
// compared field by field, and keyed lists item by item when both lists
// have the same items (by key, with the same key fields spelled out) in the
// same order. Anything else that differs is one Difference.
func (s *Schema) Diff(a, b any) []Difference {
	var out []Difference
	s.diff(s.RootType(), nil, a, true, b, true, &out)
	return out
}

func (s *Schema) diff(t *Type, path fieldpath.Path, a any, hasA bool, b any, hasB bool, out *[]Difference) {
	if hasA == hasB && SameValue(a, b) {
		return
	}
	e := s.Resolve(t)
	if e != nil && hasA && hasB {
		am, aMap := a.(map[string]any)
		bm, bMap := b.(map[string]any)
		al, aList := a.([]any)
		bl, bList := b.([]any)
		switch {
		case aMap && bMap && !e.Atomic && (e.Kind == KindStruct || e.Kind == KindMap || e.Kind == KindUntyped):
			for _, k := range unionKeys(am, bm) {
				var ft *Type
				switch e.Kind {
				case KindStruct:
					ft, _ = e.FieldType(k)
				case KindMap:
					ft = e.Elem
				default:
					ft = &Type{Kind: KindRef, Ref: UntypedDeduced}
				}
				x, hx := am[k]
				y, hy := bm[k]
				s.diff(ft, appendPath(path, fieldpath.FieldName(k)), x, hx, y, hy, out)
			}
			return
		case aList && bList && e.IsKeyed() && len(al) == len(bl):
			it := s.Resolve(e.Elem)
			pes := make([]fieldpath.PathElement, len(al))
			same := it != nil && it.Kind == KindStruct
			for i := 0; same && i < len(al); i++ {
				x, ok1 := al[i].(map[string]any)
				y, ok2 := bl[i].(map[string]any)
				if !ok1 || !ok2 || !sameKeyFields(e.Keys, x, y) {
					same = false
					break
				}
				pe, ok := KeyElement(it, e.Keys, x)
				if !ok {
					same = false
					break
				}
				pes[i] = pe
			}
			if same {
				for i := range al {
					s.diff(e.Elem, appendPath(path, pes[i]), al[i], true, bl[i], true, out)
				}
				return
			}
		}
	}
	*out = append(*out, Difference{Path: path, Type: e, A: a, B: b, HasA: hasA, HasB: hasB})
}

func appendPath(p fieldpath.Path, pe fieldpath.PathElement) fieldpath.Path {
	out := make(fieldpath.Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, pe)
}

// sameKeyFields reports whether two items spell out the same key fields
// with the same values.
func sameKeyFields(keys []string, a, b map[string]any) bool {
	for _, k := range keys {
		x, hx := a[k]
		y, hy := b[k]
		if hx != hy || !SameValue(x, y) {
			return false
		}
	}
	return true
}

// KeyElement returns the path element of an item of a keyed list (item type
// it), as the reference computes it: the key fields the item has, defaults
// filling in absent ones, and absent key fields without a default left
// out. ok is false when no key field is left or a key is not a scalar.
func KeyElement(it *Type, keys []string, item map[string]any) (fieldpath.PathElement, bool) {
	fields := make([]value.Field, 0, len(keys))
	for _, k := range keys {
		v, ok := item[k]
		if !ok {
			if f := it.Field(k); f != nil && f.Default != nil {
				v, ok = f.Default, true
			}
		}
		if !ok {
			continue
		}
		switch v.(type) {
		case map[string]any, []any, nil:
			return fieldpath.PathElement{}, false
		}
		val, err := value.FromUnstructured(v)
		if err != nil {
			return fieldpath.PathElement{}, false
		}
		fields = append(fields, value.Field{Name: k, Value: val})
	}
	if len(fields) == 0 {
		return fieldpath.PathElement{}, false
	}
	return fieldpath.Key(fields), true
}

func unionKeys(a, b map[string]any) []string {
	seen := make(map[string]any, len(a)+len(b))
	for k := range a {
		seen[k] = nil
	}
	for k := range b {
		seen[k] = nil
	}
	return SortedKeys(seen)
}

package typed

import (
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// The validator looks up the type of each field of each map in the map's
// schema. The maps of a list mostly have the same fields (the addresses of
// an Endpoints object, the containers of a Pod). So the validator
// remembers, for each depth, the names of the last map it checked there
// and their types: a map at that depth with the same schema and the same
// names takes the types from there instead of looking each one up. The
// names are compared as strings: one pointer comparison each when they are
// the same strings, as value.FromUnstructured makes the names of a list's
// items that have the names of the item before.

const (
	// shapeDepths is how many depths have a remembered shape: the maps
	// of a Kubernetes object's lists are within the first few.
	shapeDepths = 12
	// shapeFields is the most fields a remembered shape holds.
	shapeFields = 16
)

// mapShape is the fields of the last map checked at one depth and, once
// a second map in a row had the same names, their types.
type mapShape struct {
	m        *schema.Map
	fields   []value.Field // the map's own fields: values never change
	typed    bool          // types, declared and fits hold the names' types
	types    [shapeFields]*schema.Type
	declared [shapeFields]bool
	// fits holds, for each field, the kinds of value (bit 1<<kind) that
	// are a scalar its type takes without a problem: leaf scalars the
	// walk accepts with nothing more to do.
	fits [shapeFields]uint8
}

// shapes is the remembered shapes of one walk. It lives in the validator,
// on the walk's stack: nothing outlives the walk.
type shapes [shapeDepths]mapShape

// shapeOf returns the field types of fields, the fields of a map of m at
// depth, when the map checked last at depth had the same schema and names:
// from the shape remembered there, or after filling it. Otherwise, and
// when the depth or the map is too large to remember, it remembers the
// fields and returns nil: the caller looks each name up, and a map of
// another shape (a recursive schema's maps at one depth, each with its own
// names) costs only that. The shape returned stays as it is while the
// caller walks the map's fields: deeper maps use deeper shapes.
func (s *shapes) shapeOf(m *schema.Map, depth int, fields []value.Field) *mapShape {
	if depth >= shapeDepths || len(fields) > shapeFields {
		return nil
	}
	sh := &s[depth]
	if sh.m == m && sameNames(fields, sh.fields) {
		if !sh.typed {
			for i := range fields {
				sh.types[i], sh.declared[i] = fieldType(m, fields[i].Name)
				sh.fits[i] = scalarsFitting(sh.types[i])
			}
			sh.typed = true
		}
		return sh
	}
	sh.m, sh.fields, sh.typed = m, fields, false
	return nil
}

// sameNames reports whether a and b have the same names, in order.
func sameNames(a, b []value.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// scalarsFitting returns the kinds of value (bit 1<<kind) that the walk
// takes as a leaf scalar of t with no problem (see leafScalar and
// scalarKindProblem).
func scalarsFitting(t *schema.Type) uint8 {
	if t == nil || t.Scalar() == schema.NoScalar {
		return 0
	}
	var fits uint8
	for _, k := range [...]value.Kind{value.Bool, value.Int, value.Float, value.String} {
		if scalarKindFits(t.Scalar(), k) {
			fits |= 1 << k
		}
	}
	return fits
}

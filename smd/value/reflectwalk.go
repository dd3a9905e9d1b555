package value

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// errNotWalked: the value holds something reflectToUnstructured leaves to
// encoding/json (map keys that are not strings, the ",string" option).
var errNotWalked = errors.New("not walked")

var textMarshalerType = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()

// reflectToUnstructured converts x to unstructured data as encoding/json
// followed by a decode would (json tags, omitempty, omitzero, inlined
// embedded structs, types that convert themselves, []byte as base64), but
// directly: integers become int64 and floats float64. ok is false when x
// holds something the walk leaves to encoding/json; the caller then uses
// it.
//
// Struct fields are looked up once per type and call (in a map that
// belongs to the call), never cached across calls.
func reflectToUnstructured(x interface{}) (u interface{}, ok bool, err error) {
	w := walker{fields: map[reflect.Type][]*FieldCacheEntry{}}
	u, err = w.walk(reflect.ValueOf(x), 0)
	if errors.Is(err, errNotWalked) {
		return nil, false, nil
	}
	return u, true, err
}

type walker struct {
	fields map[reflect.Type][]*FieldCacheEntry
}

// maxReflectDepth bounds the walk (a cyclic pointer structure would never
// end); encoding/json refuses such values too.
const maxReflectDepth = 10000

func (w *walker) walk(v reflect.Value, depth int) (interface{}, error) {
	if depth > maxReflectDepth {
		return nil, fmt.Errorf("value: nesting deeper than %d", maxReflectDepth)
	}
	if !v.IsValid() {
		return nil, nil
	}
	t := v.Type()
	// Types that convert themselves, as encoding/json calls MarshalJSON:
	// on the value, or on its address when it has one.
	if t.Kind() != reflect.Interface {
		vm, pm := implements(t, marshalerType)
		if vm || (pm && v.CanAddr()) {
			if t.Kind() == reflect.Pointer && v.IsNil() {
				return nil, nil
			}
			if !v.CanInterface() {
				return nil, errNotWalked
			}
			return TypeReflectCacheEntry{t: t}.ToUnstructured(v)
		}
		if vt, pt := implements(t, textMarshalerType); vt || (pt && v.CanAddr()) {
			return nil, errNotWalked
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		return w.walk(v.Elem(), depth+1)
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n := v.Uint(); n <= math.MaxInt64 {
			return int64(n), nil
		}
		return float64(v.Uint()), nil
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("value: json: unsupported value: %v", f)
		}
		return f, nil
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if t.Elem().Kind() == reflect.Uint8 && !implementsAny(t.Elem()) {
			return base64.StdEncoding.EncodeToString(v.Bytes()), nil
		}
		return w.list(v, depth)
	case reflect.Array:
		return w.list(v, depth)
	case reflect.Map:
		if t.Key().Kind() != reflect.String || implementsAny(t.Key()) {
			return nil, errNotWalked
		}
		if v.IsNil() {
			return nil, nil
		}
		out := make(map[string]interface{}, v.Len())
		it := v.MapRange()
		for it.Next() {
			item, err := w.walk(it.Value(), depth+1)
			if err != nil {
				return nil, err
			}
			out[it.Key().String()] = item
		}
		return out, nil
	case reflect.Struct:
		return w.object(v, depth)
	}
	return nil, errNotWalked
}

// implementsAny reports whether t or *t has a method encoding/json would
// call instead of the plain encoding (as a value or as a map key).
func implementsAny(t reflect.Type) bool {
	for _, i := range []reflect.Type{marshalerType, textMarshalerType} {
		if v, p := implements(t, i); v || p {
			return true
		}
	}
	return false
}

func (w *walker) list(v reflect.Value, depth int) (interface{}, error) {
	out := make([]interface{}, v.Len())
	for i := range out {
		item, err := w.walk(v.Index(i), depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = item
	}
	return out, nil
}

func (w *walker) object(v reflect.Value, depth int) (interface{}, error) {
	t := v.Type()
	fields, ok := w.fields[t]
	if !ok {
		if implementsAny(t) || hasStringOption(t) {
			return nil, errNotWalked
		}
		fields = TypeReflectCacheEntry{t: t}.OrderedFields()
		w.fields[t] = fields
	}
	out := make(map[string]interface{}, len(fields))
	for _, f := range fields {
		fv, ok := fieldOf(v, f)
		if !ok || f.CanOmit(fv) {
			continue
		}
		item, err := w.walk(fv, depth+1)
		if err != nil {
			return nil, err
		}
		out[f.JsonName] = item
	}
	return out, nil
}

// hasStringOption reports whether a field of the struct type t (or of a
// struct inlined in it) has json's ",string" option, which the walk
// leaves to encoding/json.
func hasStringOption(t reflect.Type) bool {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if _, opts, _ := strings.Cut(f.Tag.Get("json"), ","); hasOption(opts, "string") {
			return true
		}
	}
	return false
}

// fieldOf returns the field f of the struct v; ok is false when a pointer
// to an inlined embedded struct on the way is nil (encoding/json leaves
// such fields out).
func fieldOf(v reflect.Value, f *FieldCacheEntry) (reflect.Value, bool) {
	for i, index := range f.index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.FieldByIndex(index)
	}
	return v, true
}

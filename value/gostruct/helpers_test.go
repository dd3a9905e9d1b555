package gostruct_test

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/structmerge/structmerge/value"
)

// The helpers of value's tests that these tests use too.

func mapOf(kv ...any) value.Value {
	var fields []value.Field
	for i := 0; i < len(kv); i += 2 {
		fields = append(fields, value.Field{Name: kv[i].(string), Value: kv[i+1].(value.Value)})
	}
	return value.NewMap(fields)
}

// sameValue is stricter than Equal: kinds must match too (1 and 1.0 differ),
// and -0.0 differs from 0.0.
func sameValue(a, b value.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case value.Float:
		return math.Float64bits(a.AsFloat()) == math.Float64bits(b.AsFloat())
	case value.List:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Items() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case value.Map:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			fa, fb := a.FieldAt(i), b.FieldAt(i)
			if fa.Name != fb.Name || !sameValue(fa.Value, fb.Value) {
				return false
			}
		}
		return true
	}
	return value.Equal(a, b)
}

// checkShared fails unless every part of got that is equal (sameValue) to the
// part of like at the same path is that part of like itself.
func checkShared(t *testing.T, path string, got, like value.Value) {
	t.Helper()
	if sameValue(got, like) {
		if !value.Same(got, like) {
			t.Errorf("%s: equal to like's but not shared: %s", path, value.ToJSON(got))
		}
		return
	}
	switch {
	case got.Kind() == value.Map && like.Kind() == value.Map:
		for _, f := range got.Fields() {
			if l, ok := like.Get(f.Name); ok {
				checkShared(t, path+"."+f.Name, f.Value, l)
			}
		}
	case got.Kind() == value.List && like.Kind() == value.List:
		for i, it := range got.Items() {
			if i < like.Len() {
				checkShared(t, fmt.Sprintf("%s[%d]", path, i), it, like.Index(i))
			}
		}
	}
}

// samePointer reports whether two maps or slices held in interfaces are the
// same one.
func samePointer(a, b any) bool {
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	return ra.Kind() == rb.Kind() && (ra.Kind() == reflect.Map || ra.Kind() == reflect.Slice) && ra.UnsafePointer() == rb.UnsafePointer()
}

var (
	vNull = value.NewNull()
	vStr  = value.NewString
)

package valuetest

import (
	"fmt"
	"math"
	"testing"

	"github.com/structmerge/structmerge/value"
)

// Map returns the map of the name and value pairs kv ("a", value.NewInt(1),
// ...), for tables of expected values.
func Map(kv ...any) value.Value {
	var fields []value.Field
	for i := 0; i < len(kv); i += 2 {
		fields = append(fields, value.Field{Name: kv[i].(string), Value: kv[i+1].(value.Value)})
	}
	return value.NewMap(fields)
}

// Identical is stricter than value.Equal: kinds must match too (1 and 1.0
// differ), and -0.0 differs from 0.0.
func Identical(a, b value.Value) bool {
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
		for i := range a.Len() {
			if !Identical(a.Index(i), b.Index(i)) {
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
			if fa.Name != fb.Name || !Identical(fa.Value, fb.Value) {
				return false
			}
		}
		return true
	}
	return value.Equal(a, b)
}

// CheckShared fails t unless every part of got that is Identical to the
// part of like at the same path is that part of like itself (value.Same),
// as a conversion with value.Like promises; path names got in messages.
func CheckShared(t testing.TB, path string, got, like value.Value) {
	t.Helper()
	if Identical(got, like) {
		if !value.Same(got, like) {
			t.Errorf("%s: equal to like's but not shared: %s", path, value.ToJSON(got))
		}
		return
	}
	switch {
	case got.Kind() == value.Map && like.Kind() == value.Map:
		for _, f := range got.Fields() {
			if l, ok := like.Get(f.Name); ok {
				CheckShared(t, path+"."+f.Name, f.Value, l)
			}
		}
	case got.Kind() == value.List && like.Kind() == value.List:
		for i, it := range got.Items() {
			if i < like.Len() {
				CheckShared(t, fmt.Sprintf("%s[%d]", path, i), it, like.Index(i))
			}
		}
	}
}

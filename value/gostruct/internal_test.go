package gostruct

import (
	"reflect"
	"testing"
)

// TestGoEqual: goEqual says equal only for equal Go values, and says
// unequal for what it does not compare (interfaces) and past its depth.
func TestGoEqual(t *testing.T) {
	type inner struct {
		S []byte
		M map[string]string
	}
	type outer struct {
		I    int
		P    *inner
		L    []inner
		A    [2]string
		hide string
	}
	type other struct {
		M map[string]int
		X any
	}
	type chain struct{ Next *chain }
	deep := func(n int) *chain {
		var c *chain
		for range n {
			c = &chain{Next: c}
		}
		return c
	}
	base := func() outer {
		return outer{I: 1, P: &inner{S: []byte("ab"), M: map[string]string{"k": "v"}}, L: []inner{{S: []byte{}}, {M: map[string]string{}}}, A: [2]string{"x", "y"}, hide: "h"}
	}
	for _, tc := range []struct {
		name string
		a, b any
		want bool
	}{
		{"equal copies", base(), base(), true},
		{"an int", base(), func() outer { o := base(); o.I = 2; return o }(), false},
		{"a byte", base(), func() outer { o := base(); o.P.S[1] = 'c'; return o }(), false},
		{"nil and empty bytes", base(), func() outer { o := base(); o.L[0].S = nil; return o }(), false},
		{"a map value", base(), func() outer { o := base(); o.P.M["k"] = "w"; return o }(), false},
		{"a map key", base(), func() outer { o := base(); o.P.M = map[string]string{"j": "v"}; return o }(), false},
		{"nil and empty map", base(), func() outer { o := base(); o.L[1].M = nil; return o }(), false},
		{"a nil pointer", base(), func() outer { o := base(); o.P = nil; return o }(), false},
		{"an item less", base(), func() outer { o := base(); o.L = o.L[:1]; return o }(), false},
		{"an array element", base(), func() outer { o := base(); o.A[1] = "z"; return o }(), false},
		{"an unexported field", base(), func() outer { o := base(); o.hide = "i"; return o }(), false},
		{"other maps", map[string]int{"a": 1}, map[string]int{"a": 1}, true},
		{"other maps, a value", map[string]int{"a": 1}, map[string]int{"a": 2}, false},
		{"other maps, a key", map[string]int{"a": 1}, map[string]int{"b": 1}, false},
		{"other maps, an entry more", map[string]int{"a": 1}, map[string]int{"a": 1, "b": 1}, false},
		{"maps of structs", map[int]inner{1: {S: []byte("x")}}, map[int]inner{1: {S: []byte("x")}}, true},
		{"maps of structs, a byte", map[int]inner{1: {S: []byte("x")}}, map[int]inner{1: {S: []byte("y")}}, false},
		{"interfaces are not compared", other{X: 1}, other{X: 1}, false},
		{"nil interfaces are not compared either", other{}, other{}, false},
		{"nil maps of any type", other{}.M, other{}.M, true},
		{"within the depth", deep(maxEqualDepth / 2), deep(maxEqualDepth / 2), true},
		{"past the depth", deep(maxEqualDepth + 2), deep(maxEqualDepth + 2), false},
	} {
		if got := goEqual(reflect.ValueOf(tc.a), reflect.ValueOf(tc.b), 0); got != tc.want {
			t.Errorf("%s: goEqual = %v, want %v", tc.name, got, tc.want)
		}
	}
}

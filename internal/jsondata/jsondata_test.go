package jsondata

import "testing"

func TestEqual(t *testing.T) {
	strings := func(a, b any) bool {
		x, ok := a.(string)
		y, ok2 := b.(string)
		return ok && ok2 && x == y
	}
	obj := func() any {
		return map[string]any{"a": []any{"x", map[string]any{"b": "y"}}, "c": map[string]any{}}
	}
	for _, c := range []struct {
		name string
		a, b any
		want bool
	}{
		{"equal", obj(), obj(), true},
		{"extra key", obj(), map[string]any{"a": []any{"x", map[string]any{"b": "y"}}, "c": map[string]any{}, "d": "z"}, false},
		{"other key", obj(), map[string]any{"a": []any{"x", map[string]any{"b": "y"}}, "d": map[string]any{}}, false},
		{"other item", obj(), map[string]any{"a": []any{"x", map[string]any{"b": "z"}}, "c": map[string]any{}}, false},
		{"shorter list", obj(), map[string]any{"a": []any{"x"}, "c": map[string]any{}}, false},
		{"map and list", map[string]any{}, []any{}, false},
		{"list and map", []any{}, map[string]any{}, false},
		{"leaf refuses", map[string]any{"a": 1.0}, map[string]any{"a": 1.0}, false},
	} {
		if got := Equal(c.a, c.b, strings); got != c.want {
			t.Errorf("%s: Equal = %v, want %v", c.name, got, c.want)
		}
		if got := Equal(c.b, c.a, strings); got != c.want {
			t.Errorf("%s, swapped: Equal = %v, want %v", c.name, got, c.want)
		}
	}
}

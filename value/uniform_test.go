package value

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// address is an item of an Endpoints object's addresses list.
func address(ip string, uid any) map[string]any {
	return map[string]any{"ip": ip, "nodeName": "n1", "targetRef": map[string]any{"kind": "Pod", "name": "p-" + ip, "uid": uid}}
}

// TestUniformLists: the converter marks a list uniform exactly when each
// item is alike to the one before it, on the lists it knows the shape of
// (and the mark changes neither the list's length nor its items).
func TestUniformLists(t *testing.T) {
	cases := []struct {
		name    string
		list    []any
		uniform bool
	}{
		{"addresses", []any{address("10.0.0.1", "u1"), address("10.0.0.2", "u2"), address("10.0.0.3", "u3")}, true},
		{"one item", []any{address("10.0.0.1", "u1")}, false},
		{"a nested kind differs", []any{address("10.0.0.1", "u1"), address("10.0.0.2", int64(2)), address("10.0.0.3", "u3")}, false},
		{"a null where a string was", []any{address("10.0.0.1", "u1"), address("10.0.0.2", nil)}, false},
		{"a kind differs", []any{map[string]any{"port": int64(80)}, map[string]any{"port": "80"}}, false},
		{"a float where an int was", []any{map[string]any{"port": int64(80)}, map[string]any{"port": 80.5}}, false},
		{"other keys", []any{map[string]any{"a": "x"}, map[string]any{"b": "x"}}, false},
		{"more keys", []any{map[string]any{"a": "x"}, map[string]any{"a": "x", "b": "y"}}, false},
		{"an item holds a list", []any{map[string]any{"a": []any{"x"}}, map[string]any{"a": []any{"x"}}}, false},
		{"an item is not a map", []any{map[string]any{"a": "x"}, "a"}, false},
		{"strings", []any{"a", "b", "c"}, true},
		{"a string and an int", []any{"a", int64(1)}, false},
		{"lists", []any{[]any{"a"}, []any{"b"}}, false},
		{"nulls", []any{nil, nil}, true},
		{"empty maps", []any{map[string]any{}, map[string]any{}}, true},
	}
	for _, tc := range cases {
		obj := map[string]any{"l": tc.list}
		v, err := FromUnstructured(obj)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		l, _ := v.Get("l")
		if got := l.isUniform(); got != tc.uniform {
			t.Errorf("%s: uniform %v, want %v", tc.name, got, tc.uniform)
		}
		if l.Len() != len(tc.list) || len(l.items()) != len(tc.list) {
			t.Errorf("%s: %d items (%d), want %d", tc.name, l.Len(), len(l.items()), len(tc.list))
		}
		if back := v.Unstructured(); !reflect.DeepEqual(back, obj) {
			t.Errorf("%s: back %v, want %v", tc.name, back, obj)
		}
		if got, want := string(ToJSON(v)), string(ToJSON(NewList(l.items()))); len(got) != len(`{"l":}`)+len(want) {
			t.Errorf("%s: JSON %s, items %s", tc.name, got, want)
		}
	}
}

// TestUniformListsAreAlike converts random lists, of items that mostly
// share their keys and kinds, and checks that every list marked uniform
// has each item alike to the one before it: the validator trusts the mark
// to check only a uniform list's first item.
func TestUniformListsAreAlike(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	scalar := func() any {
		switch r.IntN(5) {
		case 0:
			return nil
		case 1:
			return int64(r.IntN(3))
		case 2:
			return 1.5
		case 3:
			return r.IntN(2) == 0
		}
		return "s"
	}
	var item func(depth int) any
	item = func(depth int) any {
		switch n := r.IntN(10); {
		case n < 2 || depth > 2:
			return scalar()
		case n < 3:
			return []any{item(depth + 1)}
		default:
			m := map[string]any{}
			for _, k := range []string{"a", "b", "c"}[:1+r.IntN(3)] {
				m[k] = item(depth + 1)
			}
			return m
		}
	}
	// mutate returns x with, now and then, one change of kind or key.
	var mutate func(x any) any
	mutate = func(x any) any {
		if r.IntN(4) != 0 {
			if m, ok := x.(map[string]any); ok {
				out := make(map[string]any, len(m))
				for k, v := range m {
					out[k] = mutate(v)
				}
				return out
			}
			if s, ok := x.(string); ok {
				return s + "x" // another string: the same kind
			}
			return x
		}
		return item(2)
	}
	uniform, other := 0, 0
	var check func(v Value)
	check = func(v Value) {
		switch v.Kind() {
		case List:
			items := v.items()
			if v.isUniform() {
				uniform++
				for i := 1; i < len(items); i++ {
					if !alike(items[i-1], items[i]) {
						t.Fatalf("uniform list %s: item %d is not alike to the one before", ToJSON(v), i)
					}
				}
			} else if len(items) > 1 {
				other++
			}
			for _, it := range items {
				check(it)
			}
		case Map:
			for _, f := range v.fields() {
				check(f.Value)
			}
		}
	}
	for range 2000 {
		first := item(0)
		l := []any{first}
		for range 1 + r.IntN(4) {
			l = append(l, mutate(l[len(l)-1]))
		}
		v, err := FromUnstructured(map[string]any{"l": l})
		if err != nil {
			t.Fatal(err)
		}
		check(v)
	}
	if uniform < 200 || other < 200 {
		t.Fatalf("%d uniform lists and %d others: the random lists no longer test both", uniform, other)
	}
}

// alike reports whether b is a value of a's shape: of the same kind, and,
// for maps, with the same names in the same order whose values are alike
// in turn; no list is alike to anything. Whether a value fits a schema
// depends only on its shape, so two alike values fit the same types.
// The converters learn it as they go; the tests check them with it.
func alike(a, b Value) bool {
	if a.kind != b.kind || a.kind == List {
		return false
	}
	if a.kind != Map {
		return true
	}
	af, bf := a.fields(), b.fields()
	if len(af) != len(bf) {
		return false
	}
	for i := range af {
		if af[i].Name != bf[i].Name || !alike(af[i].Value, bf[i].Value) {
			return false
		}
	}
	return true
}

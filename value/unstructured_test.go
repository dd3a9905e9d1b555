package value_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
)

func TestUnstructured(t *testing.T) {
	v := valuetest.Map("a", listOf(vInt(1), vFlt(2.5), vStr("s"), vBool(true), vNull), "e", listOf(), "m", valuetest.Map())
	want := map[string]any{
		"a": []any{int64(1), 2.5, "s", true, nil},
		"e": []any{},
		"m": map[string]any{},
	}
	if got := v.Unstructured(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Unstructured() = %#v, want %#v", got, want)
	}
}

func TestFromUnstructured(t *testing.T) {
	type myInt int
	cases := []struct {
		name string
		in   any
		want value.Value
		err  string
	}{
		{name: "nil", in: nil, want: vNull},
		{name: "bool", in: true, want: vBool(true)},
		{name: "int", in: int(-3), want: vInt(-3)},
		{name: "int8", in: int8(-8), want: vInt(-8)},
		{name: "int16", in: int16(16), want: vInt(16)},
		{name: "int32", in: int32(32), want: vInt(32)},
		{name: "int64", in: int64(math.MinInt64), want: vInt(math.MinInt64)},
		{name: "uint", in: uint(7), want: vInt(7)},
		{name: "uint8", in: uint8(255), want: vInt(255)},
		{name: "uint16", in: uint16(65535), want: vInt(65535)},
		{name: "uint32", in: uint32(math.MaxUint32), want: vInt(math.MaxUint32)},
		{name: "uint64", in: uint64(math.MaxInt64), want: vInt(math.MaxInt64)},
		{name: "uintptr", in: uintptr(9), want: vInt(9)},
		{name: "float32", in: float32(0.5), want: vFlt(0.5)},
		{name: "float64", in: 1.25, want: vFlt(1.25)},
		{name: "string", in: "s", want: vStr("s")},
		{name: "json.Number int", in: json.Number("42"), want: vInt(42)},
		{name: "json.Number float", in: json.Number("4.5e1"), want: vFlt(45)},
		{name: "json.Number big", in: json.Number("18446744073709551616"), want: vFlt(18446744073709551616)},
		{name: "Value", in: vStr("v"), want: vStr("v")},
		{name: "[]any", in: []any{1, "a", nil}, want: listOf(vInt(1), vStr("a"), vNull)},
		{name: "[]string", in: []string{"a", "b"}, want: listOf(vStr("a"), vStr("b"))},
		{name: "[]map[string]any", in: []map[string]any{{"a": 1}}, want: listOf(valuetest.Map("a", vInt(1)))},
		{name: "map[string]any", in: map[string]any{"b": 1, "a": []any{}}, want: valuetest.Map("a", listOf(), "b", vInt(1))},
		{name: "map[string]string", in: map[string]string{"b": "1", "a": "2"}, want: valuetest.Map("a", vStr("2"), "b", vStr("1"))},
		{name: "map[any]any", in: map[any]any{"b": 1, "a": map[any]any{}}, want: valuetest.Map("a", valuetest.Map(), "b", vInt(1))},

		{name: "uint64 overflow", in: map[string]any{"spec": map[string]any{"x": uint64(math.MaxUint64)}}, err: "value: .spec.x: integer 18446744073709551615 overflows int64"},
		{name: "NaN", in: []any{0, math.NaN()}, err: "value: [1]: unsupported float value NaN"},
		{name: "Inf", in: float32(math.Inf(-1)), err: "value: unsupported float value -Inf"},
		{name: "bad json.Number", in: json.Number("1x"), err: `value: invalid json.Number "1x"`},
		{name: "json.Number with space", in: json.Number(" 1"), err: `value: invalid json.Number " 1"`},
		{name: "json.Number out of range", in: json.Number("1e999"), err: `value: invalid json.Number "1e999"`},
		{name: "unsupported type", in: map[string]any{"spec": map[string]any{"x": make(chan int)}}, err: "value: .spec.x: unsupported type chan int"},
		{name: "named type", in: []any{myInt(1)}, err: "value: [0]: unsupported type value_test.myInt"},
		{name: "non-string key", in: map[string]any{"m": map[any]any{1: "a", true: "b", "s": 1}}, err: "value: .m: unsupported map key of type bool true"},
		{name: "in []map", in: []map[string]any{{}, {"a": struct{}{}}}, err: "value: [1].a: unsupported type struct {}"},
		{name: "first error in key order", in: map[string]any{"z": struct{}{}, "a": 1i, "m": []int{}}, err: "value: .a: unsupported type complex128"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := value.FromUnstructured(tc.in)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("FromUnstructured(%#v) = %v, %v; want error %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("FromUnstructured(%#v): %v", tc.in, err)
			}
			if !valuetest.Identical(got, tc.want) {
				t.Fatalf("FromUnstructured(%#v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestUnstructuredRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		v := valuetest.Random(r, 5)
		got, err := value.FromUnstructured(v.Unstructured())
		if err != nil {
			t.Fatalf("FromUnstructured(%v.Unstructured()): %v", v, err)
		}
		if !valuetest.Identical(got, v) {
			t.Fatalf("round trip changed %v to %v", v, got)
		}
		// The encoding/json view agrees: decoding its output gives v back.
		data, err := json.Marshal(v.Unstructured())
		if err != nil {
			t.Fatal(err)
		}
		back, err := value.FromJSON(data)
		if err != nil || !value.Equal(back, v) {
			t.Fatalf("FromJSON(json.Marshal(%v)) = %v, %v", v, back, err)
		}
	}
}

func TestFromUnstructuredDeterministicErrors(t *testing.T) {
	m := map[string]any{}
	for i := range 50 {
		m[strings.Repeat("k", i+1)] = struct{}{}
	}
	want := "value: .k: unsupported type struct {}"
	for range 20 {
		if _, err := value.FromUnstructured(m); err == nil || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	}
	// A small map (sorted on the stack) inside a list, failing on several
	// entries after good ones.
	small := map[string]any{"list": []any{map[string]any{"a": "ok", "z": struct{}{}, "m": uint64(1 << 63), "c": int64(1), "e": math.NaN()}}}
	want = "value: .list[0].e: unsupported float value NaN"
	for range 20 {
		if _, err := value.FromUnstructured(small); err == nil || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	}
}

// samePointer reports whether two maps or slices held in interfaces are the
// same one.
func samePointer(a, b any) bool {
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	return ra.Kind() == rb.Kind() && (ra.Kind() == reflect.Map || ra.Kind() == reflect.Slice) && ra.UnsafePointer() == rb.UnsafePointer()
}

func TestUnstructuredFrom(t *testing.T) {
	data := func() map[string]any {
		return map[string]any{
			"kind":     "Pod",
			"metadata": map[string]any{"name": "a", "labels": map[string]any{"x": "y"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "ports": []any{int64(80)}}}, "n": int64(3)},
			"empty":    map[string]any{},
			"status":   map[string]any{"phase": "Running"},
		}
	}
	live := data()
	lv, err := value.FromUnstructured(live)
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"status": map[string]any{"phase": "Done", "ok": true}}
	bv, err := value.FromUnstructured(body)
	if err != nil {
		t.Fatal(err)
	}
	// The result: live with metadata.name changed and status taken from
	// body, as an operation's result shares its inputs' subtrees.
	md, _ := lv.Get("metadata")
	var fields []value.Field
	for _, f := range lv.Fields() {
		switch f.Name {
		case "metadata":
			var mf []value.Field
			for _, g := range md.Fields() {
				if g.Name == "name" {
					g.Value = value.NewString("b")
				}
				mf = append(mf, g)
			}
			f.Value = value.NewMap(mf)
		case "status":
			f.Value, _ = bv.Get("status")
		}
		fields = append(fields, f)
	}
	res := value.NewMap(fields)

	got := res.UnstructuredFrom(value.Origin{Value: lv, Data: live}, value.Origin{Value: bv, Data: body})
	if want := res.Unstructured(); !reflect.DeepEqual(got, want) {
		t.Fatalf("UnstructuredFrom = %v, want %v", got, want)
	}
	g := got.(map[string]any)
	if !samePointer(g["spec"], live["spec"]) {
		t.Error("the unchanged spec is a copy")
	}
	if !samePointer(g["metadata"].(map[string]any)["labels"], live["metadata"].(map[string]any)["labels"]) {
		t.Error("the unchanged labels under a changed map are a copy")
	}
	if !samePointer(g["status"], body["status"]) {
		t.Error("the status taken from the second origin is a copy")
	}
	if samePointer(g["metadata"], live["metadata"]) || samePointer(g, live) {
		t.Error("a changed map is the origin's")
	}
	if samePointer(g["empty"], live["empty"]) {
		t.Error("an empty map is shared")
	}
	// Changing the result's own maps leaves the origins alone.
	g["metadata"].(map[string]any)["name"] = "z"
	if !reflect.DeepEqual(live, data()) {
		t.Error("changing a changed part of the result changed the origin")
	}
	// Data of another shape than its Value is not shared, and the result
	// is still right.
	wrong := map[string]any{"spec": []any{"x"}, "kind": int64(1)}
	got = res.UnstructuredFrom(value.Origin{Value: lv, Data: wrong})
	if want := res.Unstructured(); !reflect.DeepEqual(got, want) {
		t.Fatalf("with mismatched data: %v, want %v", got, want)
	}
	if got := res.UnstructuredFrom(); !reflect.DeepEqual(got, res.Unstructured()) {
		t.Errorf("without origins: %v", got)
	}
}

// fresh returns v's data in memory of its own.
func fresh(t *testing.T, v value.Value) any {
	t.Helper()
	d, err := value.FromJSON(value.ToJSON(v))
	if err != nil {
		t.Fatal(err)
	}
	return d.Unstructured()
}

// checkLikeConversion converts 3000 random values b, each a few mutations
// of a random a, like a's conversion, with convert, and checks that the
// result is strictly what the plain conversion gives and shares every
// part equal (sameValue) to like's.
func checkLikeConversion(t *testing.T, seed uint64, convert func(a, b value.Value) (like, got, want value.Value, err error)) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed+4))
	for i := range 3000 {
		a := valuetest.Random(r, 1+i%5)
		b := a
		for range r.IntN(3) {
			b = valuetest.Mutate(r, b)
		}
		like, got, want, err := convert(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if !valuetest.Identical(got, want) {
			t.Fatalf("%s converted like %s = %s, want %s", value.ToJSON(b), value.ToJSON(like), value.ToJSON(got), value.ToJSON(want))
		}
		valuetest.CheckShared(t, fmt.Sprintf("case %d %s", i, value.ToJSON(b)), got, like)
	}
}

// TestFromUnstructuredLike: converting data with a like value gives what
// FromUnstructured gives, sharing like's parts exactly where they are
// equal; errors are FromUnstructured's.
func TestFromUnstructuredLike(t *testing.T) {
	checkLikeConversion(t, 7, func(a, b value.Value) (like, got, want value.Value, err error) {
		// Data of its own for each, as decoded apart: no string is
		// shared by chance.
		if like, err = value.FromUnstructured(fresh(t, a)); err != nil {
			return
		}
		x := fresh(t, b)
		if want, err = value.FromUnstructured(x); err != nil {
			return
		}
		got, err = value.FromUnstructured(x, value.Like(like))
		return
	})

	like, err := value.FromUnstructured(map[string]any{"a": map[string]any{"b": []any{"c", int64(1)}}, "n": 1.0})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []any{
		map[string]any{"a": map[string]any{"b": []any{"c", math.NaN()}}},
		map[string]any{"a": map[string]any{"b": []any{"c", int64(1)}}, "z": make(chan int)},
		map[string]any{"a": []any{map[any]any{1: "x"}}},
	} {
		_, want := value.FromUnstructured(x)
		_, got := value.FromUnstructured(x, value.Like(like))
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("error %v, want %v", got, want)
		}
	}
	// An int is not shared with an equal float.
	got, err := value.FromUnstructured(map[string]any{"a": map[string]any{"b": []any{"c", int64(1)}}, "n": int64(1)}, value.Like(like))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := got.Get("n"); n.Kind() != value.Int || value.Same(got, like) {
		t.Errorf("got %s", value.ToJSON(got))
	}
	if a, _ := got.Get("a"); !value.Same(a, func() value.Value { v, _ := like.Get("a"); return v }()) {
		t.Error("the unchanged map is not shared")
	}
}

// TestFromJSONLike: decoding with a like value gives what FromJSON gives,
// sharing like's parts exactly where they are equal; errors are FromJSON's.
func TestFromJSONLike(t *testing.T) {
	checkLikeConversion(t, 13, func(a, b value.Value) (like, got, want value.Value, err error) {
		if like, err = value.FromJSON(value.ToJSON(a)); err != nil {
			return
		}
		doc := value.ToJSON(b)
		if want, err = value.FromJSON(doc); err != nil {
			return
		}
		got, err = value.FromJSON(doc, value.Like(like))
		return
	})
	like, err := value.FromJSON([]byte(`{"a":1,"b":{"c":[1,"x"]},"d":"e"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		`{"a":1,"a":1,"d":"e"}`, // as many fields as like, one twice
		`{"a":1,"b":{"c":[1,"x"]},"d":"e"`,
		`{"a":1,"b":{"c":[1,"x",]},"d":"e"}`,
		`{"a":1,"b":{"c":[1,"x"]},"d":"e"} x`,
	} {
		_, want := value.FromJSON([]byte(doc))
		_, got := value.FromJSON([]byte(doc), value.Like(like))
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", doc, got, want)
		}
	}
	// The options apply.
	if _, err := value.FromJSON([]byte(`[[[1]]]`), value.Like(like), value.MaxDepth(2)); !errors.Is(err, value.ErrTooDeep) {
		t.Errorf("MaxDepth(2): %v", err)
	}
}

// TestFromUnstructuredOptions: MaxDepth bounds the conversion of Go data
// as it bounds the decoders, and a bad option is an error.
func TestFromUnstructuredOptions(t *testing.T) {
	nested := map[string]any{"a": []any{map[string]any{"b": "c"}}}
	if _, err := value.FromUnstructured(nested, value.MaxDepth(3)); err != nil {
		t.Errorf("depth 3 within MaxDepth(3): %v", err)
	}
	if _, err := value.FromUnstructured(nested, value.MaxDepth(2)); !errors.Is(err, value.ErrTooDeep) {
		t.Errorf("depth 3 with MaxDepth(2): %v, want ErrTooDeep", err)
	}
	if _, err := value.FromUnstructured(nested, value.Like(value.NewString("x")), value.MaxDepth(2)); !errors.Is(err, value.ErrTooDeep) {
		t.Errorf("depth 3 with Like and MaxDepth(2): %v, want ErrTooDeep", err)
	}
	if _, err := value.FromUnstructured(nested, value.MaxDepth(0)); err == nil {
		t.Error("MaxDepth(0): no error")
	}
}

// TestFromUnstructuredShapedLists: the items of a list are read by the
// keys of the item before when they have them; every mix of equal and
// different keys, at every depth, converts to what JSON of the same data
// decodes to, and an error in a later item is the one in key order.
func TestFromUnstructuredShapedLists(t *testing.T) {
	item := func(keys ...string) map[string]any {
		m := map[string]any{}
		for i, k := range keys {
			switch i % 3 {
			case 0:
				m[k] = k + "-v"
			case 1:
				m[k] = map[string]any{"kind": "Pod", "name": k, "uid": int64(i)}
			default:
				m[k] = []any{map[string]any{"a": int64(1), "b": k}, map[string]any{"a": int64(2), "b": k}, map[string]any{"a": int64(3)}}
			}
		}
		return m
	}
	cases := map[string]any{
		"same keys":         []any{item("ip", "ref", "ports"), item("ip", "ref", "ports"), item("ip", "ref", "ports")},
		"one key more":      []any{item("ip", "ref"), item("ip", "ref", "ports"), item("ip", "ref")},
		"one key less":      []any{item("ip", "ref", "ports"), item("ip", "ref"), item("ip", "ref", "ports")},
		"same count, other": []any{item("ip", "ref"), item("ip", "node"), item("host", "ref")},
		"maps then scalars": []any{item("a"), "x", item("a"), int64(3), nil, item("a")},
		"nested lists": []any{
			map[string]any{"l": []any{item("x", "y"), item("x", "y")}},
			map[string]any{"l": []any{item("x", "y"), item("x")}},
			map[string]any{"l": []any{}},
			map[string]any{"l": "not a list"},
			map[string]any{"l": []any{item("y", "x")}},
		},
		"typed list of maps": []map[string]any{item("k", "v"), item("k", "v"), item("v", "w")},
		"empty maps":         []any{map[string]any{}, map[string]any{}, item("a"), map[string]any{}},
		"big maps":           []any{item("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"), item("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m")},
	}
	for name, x := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := value.FromUnstructured(map[string]any{"items": x})
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(map[string]any{"items": x})
			if err != nil {
				t.Fatal(err)
			}
			want, err := value.FromJSON(data)
			if err != nil {
				t.Fatal(err)
			}
			if !value.Equal(got, want) || value.Compare(got, want) != 0 {
				t.Errorf("got %s\nwant %s", value.ToJSON(got), value.ToJSON(want))
			}
		})
	}
	// An unsupported value in a later item of the same shape is reported
	// at its path, the first in key order.
	bad := []any{item("a", "b"), map[string]any{"a": "x", "b": map[string]any{"kind": make(chan int), "name": func() {}}}}
	_, err := value.FromUnstructured(map[string]any{"items": bad})
	if err == nil || !strings.Contains(err.Error(), ".items[1].b.kind: unsupported type chan int") {
		t.Errorf("error %v, want one at .items[1].b.kind", err)
	}
}

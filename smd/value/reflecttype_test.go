package value_test

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// rawJSON marshals to its own bytes (value receiver).
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// rawJSONPtr marshals to its bytes through a pointer receiver only.
type rawJSONPtr struct{ data []byte }

func (r *rawJSONPtr) MarshalJSON() ([]byte, error) { return r.data, nil }

// converter converts itself; its MarshalJSON must not be used.
type converter struct{ v any }

func (c converter) MarshalJSON() ([]byte, error) { return []byte(`"json"`), nil }
func (c converter) ToUnstructured() any          { return c.v }

// converterWithError converts itself and may fail (pointer receiver).
type converterWithError struct {
	v   any
	err error
}

func (c *converterWithError) MarshalJSON() ([]byte, error) { return []byte(`"json"`), nil }
func (c *converterWithError) ToUnstructuredWithError() (any, error) {
	return c.v, c.err
}

// both implements both converter interfaces: the one with an error wins.
type both struct{}

func (both) MarshalJSON() ([]byte, error)          { return []byte(`"json"`), nil }
func (both) ToUnstructured() any                   { return "plain" }
func (both) ToUnstructuredWithError() (any, error) { return "with error", nil }

// unmarshaled records the JSON it was given.
type unmarshaled struct{ got string }

func (u *unmarshaled) UnmarshalJSON(b []byte) error {
	if string(b) == `"bad"` {
		return errors.New("bad value")
	}
	u.got = string(b)
	return nil
}

// TestToUnstructuredFromJSON: what MarshalJSON writes becomes unstructured
// data as in SMD v6.4.2: integers int64, other numbers float64, exactly one
// JSON value (whitespace after it allowed), errors prefixed by the kind of
// value that was being decoded.
func TestToUnstructuredFromJSON(t *testing.T) {
	cases := []struct {
		json string
		want any
		err  string
	}{
		{json: `null`, want: nil},
		{json: `true`, want: true},
		{json: `false`, want: false},
		{json: `"s"`, want: "s"},
		{json: `7`, want: int64(7)},
		{json: `-7`, want: int64(-7)},
		{json: `7.0`, want: float64(7)},
		{json: `1e3`, want: float64(1000)},
		{json: `9223372036854775808`, want: float64(9223372036854775808)},
		{json: `[]`, want: []any{}},
		{json: `[1,2.5,"x",{"n":3}]`, want: []any{int64(1), 2.5, "x", map[string]any{"n": int64(3)}}},
		{json: `{}`, want: map[string]any{}},
		{json: `{"a":{"b":[1,{"c":2.5}]}}`, want: map[string]any{"a": map[string]any{"b": []any{int64(1), map[string]any{"c": 2.5}}}}},
		{json: "{} \t\r\n", want: map[string]any{}},
		{json: ``, err: "error decoding from json: empty value"},
		{json: "{} \t\r\n}", err: "error decoding object from json: unexpected trailing data at offset 6"},
		{json: "[] {}", err: "error decoding array from json: unexpected trailing data at offset 3"},
		{json: `"a" "b"`, err: "error decoding string from json: unexpected trailing data at offset 4"},
		{json: `"a`, err: "error decoding string from json: unexpected EOF"},
		{json: `{"a":1e400}`, err: `error decoding object from json: strconv.ParseFloat: parsing "1e400": value out of range`},
		{json: `nope`, err: "error decoding number from json: invalid character 'o' in literal null (expecting 'u')"},
	}
	for _, c := range cases {
		t.Run(c.json, func(t *testing.T) {
			for _, x := range []any{rawJSON(c.json), &rawJSONPtr{data: []byte(c.json)}} {
				rv := reflect.ValueOf(x)
				e := value.TypeReflectEntryOf(rv.Type())
				if !e.CanConvertToUnstructured() {
					t.Fatalf("%T: CanConvertToUnstructured is false", x)
				}
				got, err := e.ToUnstructured(rv)
				if c.err != "" {
					if err == nil || err.Error() != c.err {
						t.Fatalf("%T: error %v, want %q", x, err, c.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%T: %v", x, err)
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("%T: got %#v, want %#v", x, got, c.want)
				}
			}
		})
	}
}

// TestToUnstructuredChoice: which conversion a type's value uses, and when
// a pointer receiver can be reached.
func TestToUnstructuredChoice(t *testing.T) {
	fail := errors.New("cannot")
	ptrDirect := rawJSONPtr{data: []byte(`1`)}
	cwe := converterWithError{v: "w"}
	cweErr := converterWithError{err: fail}
	cases := []struct {
		name string
		v    reflect.Value
		want any
		err  error
		msg  string
	}{
		{name: "converter", v: reflect.ValueOf(converter{v: int64(3)}), want: int64(3)},
		{name: "converter through pointer", v: reflect.ValueOf(&converter{v: "p"}), want: "p"},
		{name: "with error, addressable", v: reflect.ValueOf(&cwe).Elem(), want: "w"},
		{name: "with error, the error", v: reflect.ValueOf(&cweErr).Elem(), err: fail},
		{name: "with error preferred", v: reflect.ValueOf(both{}), want: "with error"},
		{name: "nil pointer", v: reflect.ValueOf((*converterWithError)(nil)), want: nil},
		{name: "pointer receiver, addressable", v: reflect.ValueOf(&ptrDirect).Elem(), want: int64(1)},
		{name: "pointer receiver, not addressable", v: reflect.ValueOf(ptrDirect), msg: "provided type cannot be converted: value_test.rawJSONPtr"},
		{name: "with error, not addressable", v: reflect.ValueOf(cwe), msg: "provided type cannot be converted: value_test.converterWithError"},
		{name: "plain struct", v: reflect.ValueOf(struct{ A int }{}), msg: "provided type cannot be converted: struct { A int }"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := value.TypeReflectEntryOf(c.v.Type()).ToUnstructured(c.v)
			switch {
			case c.err != nil:
				if err != c.err {
					t.Fatalf("error %v, want %v", err, c.err)
				}
			case c.msg != "":
				if err == nil || err.Error() != c.msg {
					t.Fatalf("error %v, want %q", err, c.msg)
				}
			case err != nil:
				t.Fatal(err)
			case !reflect.DeepEqual(got, c.want):
				t.Errorf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestCanConvert(t *testing.T) {
	cases := []struct {
		v        any
		to, from bool
	}{
		{v: "", to: false, from: false},
		{v: struct{ A int }{}, to: false, from: false},
		{v: rawJSON(nil), to: true, from: false},
		{v: rawJSONPtr{}, to: true, from: false},
		{v: &rawJSONPtr{}, to: true, from: false},
		{v: converterWithError{}, to: true, from: false},
		{v: unmarshaled{}, to: false, from: true},
		{v: time.Time{}, to: true, from: true},
	}
	for _, c := range cases {
		e := value.TypeReflectEntryOf(reflect.TypeOf(c.v))
		if got := e.CanConvertToUnstructured(); got != c.to {
			t.Errorf("%T: CanConvertToUnstructured %v, want %v", c.v, got, c.to)
		}
		if got := e.CanConvertFromUnstructured(); got != c.from {
			t.Errorf("%T: CanConvertFromUnstructured %v, want %v", c.v, got, c.from)
		}
	}
	var zero value.TypeReflectCacheEntry
	if zero.CanConvertToUnstructured() || zero.CanConvertFromUnstructured() || zero.Fields() != nil {
		t.Error("the zero entry converts or has fields")
	}
}

func TestFromUnstructured(t *testing.T) {
	var dst unmarshaled
	dv := reflect.ValueOf(&dst).Elem()
	e := value.TypeReflectEntryOf(dv.Type())
	if err := e.FromUnstructured(reflect.ValueOf(map[string]any{"a": int64(1)}), dv); err != nil {
		t.Fatal(err)
	}
	if dst.got != `{"a":1}` {
		t.Errorf("UnmarshalJSON got %s", dst.got)
	}
	if err := e.FromUnstructured(reflect.ValueOf("bad"), dv); err == nil || err.Error() != "bad value" {
		t.Errorf("error %v, want the unmarshaler's", err)
	}
	err := e.FromUnstructured(reflect.ValueOf(func() {}), dv)
	if want := "error encoding value_test.unmarshaled to json: json: unsupported type: func()"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	var s struct{ A int }
	sv := reflect.ValueOf(&s).Elem()
	err = value.TypeReflectEntryOf(sv.Type()).FromUnstructured(reflect.ValueOf(1), sv)
	if want := "unable to unmarshal int into struct { A int }"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

type zeroByMethod struct{ n int }

func (z zeroByMethod) IsZero() bool { return z.n == 42 }

type zeroByPointer struct{ n int }

func (z *zeroByPointer) IsZero() bool { return z.n == 42 }

type Inner struct {
	X string `json:"x,omitempty"`
	Y int
}

type Deep struct {
	Z bool `json:"z"`
}

type MidPtr struct {
	*Deep
	M []int `json:"m,omitempty"`
}

type outer struct {
	Inner
	*MidPtr
	Named    Inner  `json:"named"`
	Skipped  string `json:"-"`
	Dash     string `json:"-,"`
	hidden   string
	Untagged map[string]int `json:",omitempty"`
	When     zeroByMethod   `json:"when,omitzero"`
	Ptr      *zeroByPointer `json:"ptr,omitzero"`
	ByPtr    zeroByPointer  `json:"byPtr,omitempty,omitzero"`
	Iface    any            `json:"iface,omitempty"`
	Y        string         `json:"Y"` // replaces Inner.Y: the later field counts
}

// TestFields: the JSON names of a struct's fields, inlined embedded
// structs, where each field's value is found, and when it is omitted, as
// SMD's entries give them.
func TestFields(t *testing.T) {
	typ := reflect.TypeOf(outer{})
	e := value.TypeReflectEntryOf(typ)
	var names []string
	for _, f := range e.OrderedFields() {
		names = append(names, f.JsonName)
	}
	want := []string{"-", "Untagged", "Y", "byPtr", "iface", "m", "named", "ptr", "when", "x", "z"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("OrderedFields %q, want %q", names, want)
	}
	fields := e.Fields()
	if len(fields) != len(want) {
		t.Fatalf("Fields has %d entries, want %d", len(fields), len(want))
	}
	if fields["named"].TypeEntry == nil || len(fields["named"].TypeEntry.Fields()) != 2 {
		t.Errorf("named's TypeEntry does not describe Inner")
	}

	v := outer{Inner: Inner{X: "ix", Y: 1}, Named: Inner{X: "nx"}, Y: "outer", Dash: "d", hidden: "h"}
	get := func(name string, of any) any {
		return fields[name].GetFrom(reflect.ValueOf(of)).Interface()
	}
	if got := get("x", v); got != "ix" {
		t.Errorf("x = %v", got)
	}
	if got := get("x", &v); got != "ix" {
		t.Errorf("x through a pointer = %v", got)
	}
	if got := get("Y", v); got != "outer" {
		t.Errorf("Y = %v", got)
	}
	if got := get("-", v); got != "d" {
		t.Errorf("- = %v", got)
	}
	// Through a nil embedded pointer: the zero value of the field's type.
	if got := get("z", v); got != false {
		t.Errorf("z through nil pointers = %v", got)
	}
	if got := get("m", v); !reflect.DeepEqual(got, []int(nil)) {
		t.Errorf("m through a nil pointer = %#v", got)
	}
	if got := get("x", (*outer)(nil)); got != "" {
		t.Errorf("x of a nil struct pointer = %#v", got)
	}
	v.MidPtr = &MidPtr{Deep: &Deep{Z: true}, M: []int{1}}
	if got := get("z", v); got != true {
		t.Errorf("z = %v", got)
	}

	omit := func(name string, of any) bool {
		return fields[name].CanOmit(reflect.ValueOf(of))
	}
	omitCases := []struct {
		field string
		of    any
		want  bool
	}{
		{"x", "", true},
		{"x", "a", false},
		{"named", Inner{}, false}, // no option
		{"Untagged", map[string]int(nil), true},
		{"Untagged", map[string]int{}, true},
		{"Untagged", map[string]int{"a": 1}, false},
		{"when", zeroByMethod{n: 42}, true},
		{"when", zeroByMethod{}, false}, // IsZero decides, not the zero value
		{"ptr", (*zeroByPointer)(nil), true},
		{"ptr", &zeroByPointer{n: 42}, true},
		{"ptr", &zeroByPointer{}, false},
		{"byPtr", zeroByPointer{n: 42}, true}, // not addressable: boxed to call IsZero
		{"byPtr", zeroByPointer{n: 1}, false},
		{"iface", nil, false}, // reflect.ValueOf(nil) is invalid: not nil, not empty
	}
	for _, c := range omitCases {
		if got := omit(c.field, c.of); got != c.want {
			t.Errorf("CanOmit(%s, %#v) = %v, want %v", c.field, c.of, got, c.want)
		}
	}
	var iface any
	if !fields["iface"].CanOmit(reflect.ValueOf(&iface).Elem()) {
		t.Error("a nil interface is not omitted")
	}
	if value.TypeReflectEntryOf(reflect.TypeOf(0)).Fields() != nil || value.TypeReflectEntryOf(reflect.TypeOf(0)).OrderedFields() != nil {
		t.Error("a non-struct has fields")
	}
}

type zeroIface interface{ IsZero() bool }

func TestOmitZeroFunc(t *testing.T) {
	var nilIface zeroIface
	var nilPtrInIface zeroIface = (*zeroByPointer)(nil)
	var set zeroIface = zeroByMethod{n: 42}
	var unset zeroIface = zeroByMethod{n: 1}
	ifaceType := reflect.TypeFor[zeroIface]()
	f := value.OmitZeroFunc(ifaceType)
	for _, c := range []struct {
		v    *zeroIface
		want bool
	}{{&nilIface, true}, {&nilPtrInIface, true}, {&set, true}, {&unset, false}} {
		if got := f(reflect.ValueOf(c.v).Elem()); got != c.want {
			t.Errorf("interface %#v: %v, want %v", *c.v, got, c.want)
		}
	}
	plain := value.OmitZeroFunc(reflect.TypeOf(Inner{}))
	if !plain(reflect.ValueOf(Inner{})) || plain(reflect.ValueOf(Inner{Y: 1})) {
		t.Error("a type without IsZero: not reflect's zero test")
	}
	tm := value.OmitZeroFunc(reflect.TypeOf(time.Time{}))
	if !tm(reflect.ValueOf(time.Time{})) || tm(reflect.ValueOf(time.Unix(0, 0))) {
		t.Error("time.Time: not its IsZero")
	}
}

// TestReflectEntriesConcurrently: entries from many goroutines on shared
// types and values (run under -race).
func TestReflectEntriesConcurrently(t *testing.T) {
	v := outer{MidPtr: &MidPtr{Deep: &Deep{Z: true}}}
	c := converter{v: "c"}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				e := value.TypeReflectEntryOf(reflect.TypeOf(v))
				if got := e.Fields()["z"].GetFrom(reflect.ValueOf(v)).Bool(); !got {
					t.Error("z is false")
					return
				}
				if u, err := value.TypeReflectEntryOf(reflect.TypeOf(c)).ToUnstructured(reflect.ValueOf(c)); err != nil || u != "c" {
					t.Errorf("ToUnstructured = %v, %v", u, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestEntryChecksDoNotAllocate: the runtime converter's calls for each
// value (an entry and its Can* checks) cost no allocation, though nothing
// is cached.
func TestEntryChecksDoNotAllocate(t *testing.T) {
	types := []reflect.Type{reflect.TypeOf(""), reflect.TypeOf(outer{}), reflect.TypeOf(time.Time{}), reflect.TypeOf(&converterWithError{})}
	allocs := testing.AllocsPerRun(100, func() {
		for _, typ := range types {
			e := value.TypeReflectEntryOf(typ)
			_ = e.CanConvertToUnstructured()
			_ = e.CanConvertFromUnstructured()
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

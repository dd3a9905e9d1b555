package gostruct_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
	"github.com/structmerge/structmerge/value/valuetest"
)

// The types of these tests cover what Codec reads of a type.
// encoding/json is the oracle for all of them but the marked ones.

type tsInner struct {
	Name  string            `json:"name"`
	Count int32             `json:"count,omitempty"`
	Ratio float64           `json:"ratio,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
}

type tsMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
	Name       string `json:"name"` // shadowed by tsAll.Name
	Shared     string // also in tsOther at the same depth: left out
}

type tsOther struct {
	Shared string
	Tagged string `json:"tagged"`
}

type TsPtrEmbedded struct {
	Via string `json:"via,omitempty"`
}

// tsText marshals itself as text, "a/b".
type tsText struct{ a, b string }

func (t tsText) MarshalText() ([]byte, error) { return []byte(t.a + "/" + t.b), nil }
func (t *tsText) UnmarshalText(b []byte) error {
	a, c, ok := strings.Cut(string(b), "/")
	if !ok {
		return fmt.Errorf("no slash in %q", b)
	}
	t.a, t.b = a, c
	return nil
}

// tsJSON marshals itself as JSON, {"n":N} (pointer receivers).
type tsJSON struct{ n int }

func (t *tsJSON) MarshalJSON() ([]byte, error) { return []byte(`{"n":` + strconv.Itoa(t.n) + `}`), nil }
func (t *tsJSON) UnmarshalJSON(b []byte) error {
	var x struct{ N int }
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	t.n = x.N
	return nil
}

// tsZero is zero, for omitzero, when its IsZero method says so.
type tsZero struct{ N, Ignored int }

func (z tsZero) IsZero() bool { return z.N == 0 }

type tsSelf *tsSelf

type tsRecursive struct {
	Value    int           `json:"value"`
	Next     *tsRecursive  `json:"next,omitempty"`
	Children []tsRecursive `json:"children,omitempty"`
}

type tsAll struct {
	tsMeta
	tsOther
	*TsPtrEmbedded
	Name  string                 `json:"name"`
	B     bool                   `json:"b"`
	I     int                    `json:"i,omitempty"`
	I8    int8                   //
	U64   uint64                 `json:"u64"`
	F     float64                `json:"f,omitzero"`
	S     string                 `json:"s"`
	Bytes []byte                 `json:"bytes"`
	P     *tsInner               `json:"p"`
	PO    *tsInner               `json:"po,omitempty"`
	L     []tsInner              `json:"l"`
	A     [2]int                 `json:"a"`
	M     map[string]*tsInner    `json:"m,omitempty"`
	MI    map[int]string         `json:"mi,omitempty"`
	MT    map[tsText]int         `json:"mt,omitempty"`
	Any   any                    `json:"any"`
	T     tsText                 `json:"t"`
	PT    *tsText                `json:"pt,omitempty"`
	J     tsJSON                 `json:"j"`
	Skip  string                 `json:"-"`
	Dash  string                 `json:"-,"`
	Rec   tsRecursive            `json:"rec"`
	Z     tsZero                 `json:"z,omitzero"`
	E     struct{}               `json:"e,omitempty"` // a struct is never empty
	Named map[string]tsRecursive `json:"named,omitempty"`

	hidden string
}

// tsSamples are values of tsAll, from zero to everything set.
func tsSamples() []tsAll {
	full := tsAll{
		tsMeta:        tsMeta{Kind: "K", APIVersion: "v1", Name: "shadowed", Shared: "x"},
		tsOther:       tsOther{Shared: "y", Tagged: "t"},
		TsPtrEmbedded: &TsPtrEmbedded{Via: "ptr"},
		Name:          "n",
		B:             true,
		I:             -7,
		I8:            -128,
		U64:           math.MaxInt64,
		F:             2.5,
		S:             "héllo \"quoted\"",
		Bytes:         []byte{0, 1, 2, 250, 251},
		P:             &tsInner{Name: "p", Count: 3, Ratio: 0.5, Tags: map[string]string{"b": "2", "a": "1"}},
		PO:            &tsInner{},
		L:             []tsInner{{Name: "l0"}, {Name: "l1", Tags: map[string]string{}}},
		A:             [2]int{4, 5},
		M:             map[string]*tsInner{"z": {Name: "z"}, "a": nil, "m": {Count: 1}},
		MI:            map[int]string{10: "ten", -1: "minus one", 2: "two"},
		MT:            map[tsText]int{{"x", "y"}: 1, {"a", "b"}: 2},
		Any:           map[string]any{"k": []any{"v", true, nil}, "s": "t"},
		T:             tsText{"c", "d"},
		PT:            &tsText{"e", "f"},
		J:             tsJSON{n: 42},
		Skip:          "skipped",
		Dash:          "dash",
		Rec:           tsRecursive{Value: 1, Next: &tsRecursive{Value: 2, Children: []tsRecursive{{Value: 3}}}},
		Z:             tsZero{N: 1},
		Named:         map[string]tsRecursive{"r": {Value: 9}},
		hidden:        "hidden",
	}
	partial := tsAll{Z: tsZero{Ignored: 5}, L: []tsInner{}, Bytes: []byte{}, Any: "s", Rec: tsRecursive{Children: []tsRecursive{}}}
	return []tsAll{{}, partial, full}
}

// TestCodecAgainstJSON checks FromStruct against encoding/json:
// FromStruct(x) equals FromJSON(json.Marshal(x)), and ToStruct of that
// value sets what json.Unmarshal sets.
func TestCodecAgainstJSON(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tsAll]())
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range tsSamples() {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			want, js := checkFromStructJSON(t, c, &x)

			var fromJSON tsAll
			if err := json.Unmarshal(js, &fromJSON); err != nil {
				t.Fatal(err)
			}
			// ToStruct replaces what the target held.
			back := tsAll{Skip: "old", S: "old", hidden: "old", M: map[string]*tsInner{"old": nil}}
			back.Skip, back.hidden = fromJSON.Skip, fromJSON.hidden
			if err := c.ToStruct(want, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, fromJSON) {
				t.Errorf("ToStruct:\n got %+v\nwant %+v", back, fromJSON)
			}
		})
	}
}

// checkFromStructJSON checks that c.FromStruct of *ptr and of ptr, and
// gostruct.FromStruct(ptr), give FromJSON of what encoding/json writes of
// *ptr, and returns that value and the JSON.
func checkFromStructJSON[T any](t *testing.T, c *gostruct.Codec, ptr *T) (value.Value, []byte) {
	t.Helper()
	js, err := json.Marshal(ptr) // addressable: pointer methods apply
	if err != nil {
		t.Fatal(err)
	}
	want, err := value.FromJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []any{*ptr, ptr} {
		got, err := c.FromStruct(in)
		if err != nil {
			t.Fatalf("FromStruct(%T) of %s: %v", in, js, err)
		}
		if !value.Equal(got, want) {
			t.Fatalf("FromStruct(%T):\n got %s\nwant %s", in, got, want)
		}
	}
	if got, err := gostruct.FromStruct(ptr); err != nil || !value.Equal(got, want) {
		t.Fatalf("gostruct.FromStruct: %s, %v; want %s", got, err, want)
	}
	return want, js
}

// tsInline is not encoding/json's: it inlines a named field tagged
// ",inline", as Kubernetes' types do, and asks ToUnstructured first.
type tsInline struct {
	Meta  tsMeta `json:",inline"`
	Extra string `json:"extra"`
	Q     tsQuantity
	QP    *tsQuantity `json:"qp"`
}

// tsQuantity gives its plain form by ToUnstructured and reads itself back
// from JSON; its MarshalJSON must not be used.
type tsQuantity struct{ milli int64 }

func (q tsQuantity) ToUnstructured() any { return strconv.FormatInt(q.milli, 10) + "m" }
func (q tsQuantity) MarshalJSON() ([]byte, error) {
	return nil, errors.New("MarshalJSON must not be called when ToUnstructured exists")
}
func (q *tsQuantity) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(s, "m"), 10, 64)
	q.milli = n
	return err
}

func TestCodecInlineAndOwnForms(t *testing.T) {
	x := tsInline{Meta: tsMeta{Kind: "K", Name: "n", Shared: "s"}, Extra: "e", Q: tsQuantity{1500}}
	got, err := gostruct.FromStruct(x)
	if err != nil {
		t.Fatal(err)
	}
	want := valuetest.Map("Q", vStr("1500m"), "Shared", vStr("s"), "extra", vStr("e"), "kind", vStr("K"), "name", vStr("n"), "qp", vNull)
	if !value.Equal(got, want) {
		t.Fatalf("FromStruct = %s, want %s", got, want)
	}
	var back tsInline
	if err := gostruct.ToStruct(got, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, x) {
		t.Fatalf("ToStruct = %+v, want %+v", back, x)
	}
}

func TestCodecErrors(t *testing.T) {
	type withChan struct {
		OK   string   `json:"ok"`
		Skip chan int `json:"-"`
		In   struct {
			C chan int
		} `json:"in"`
	}
	if _, err := gostruct.NewCodec(reflect.TypeFor[withChan]()); err == nil || !strings.Contains(err.Error(), "withChan.In.C: unsupported type chan int") {
		t.Errorf("NewCodec(withChan) = %v", err)
	}
	type badKey struct {
		M map[[2]int]string
	}
	if _, err := gostruct.NewCodec(reflect.TypeFor[badKey]()); err == nil || !strings.Contains(err.Error(), ".M: unsupported map key type [2]int") {
		t.Errorf("NewCodec(badKey) = %v", err)
	}

	from := []struct {
		name string
		x    tsAll
		err  string
	}{
		{"uint overflow", tsAll{U64: math.MaxUint64}, "gostruct: gostruct_test.tsAll.U64: integer 18446744073709551615 overflows int64"},
		{"NaN in a list", tsAll{L: []tsInner{{}, {Ratio: math.NaN()}}}, "gostruct: gostruct_test.tsAll.L[1].Ratio: unsupported float value NaN"},
		{"Inf in a map", tsAll{M: map[string]*tsInner{"a": {}, "k": {Ratio: math.Inf(1)}}}, `gostruct: gostruct_test.tsAll.M["k"].Ratio: unsupported float value +Inf`},
		{"in an interface", tsAll{Any: []any{1, complex(1, 2)}}, "gostruct: gostruct_test.tsAll.Any[1]: unsupported type complex128"},
	}
	c, err := gostruct.NewCodec(reflect.TypeFor[tsAll]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range from {
		_, err := c.FromStruct(&tc.x)
		if err == nil || err.Error() != tc.err {
			t.Errorf("%s: FromStruct error %v, want %s", tc.name, err, tc.err)
		}
		var se *gostruct.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: %T is not a *Error", tc.name, err)
		}
	}

	to := []struct {
		name, json, err string
	}{
		{"kind", `{"l":[{"name":"a"},{"name":5}]}`, "gostruct: gostruct_test.tsAll.L[1].Name: cannot set string from int"},
		{"overflow", `{"I8":300}`, "gostruct: gostruct_test.tsAll.I8: 300 overflows int8"},
		{"fraction", `{"i":1.5}`, "gostruct: gostruct_test.tsAll.I: cannot set int from float 1.5"},
		{"negative", `{"u64":-1}`, "gostruct: gostruct_test.tsAll.U64: cannot set uint64 from -1"},
		{"map value", `{"m":{"k":{"count":"x"}}}`, `gostruct: gostruct_test.tsAll.M["k"].Count: cannot set int32 from string`},
		{"map key", `{"mi":{"x":"y"}}`, `gostruct: gostruct_test.tsAll.MI["x"]: map key: "x" is not a int`},
		{"text", `{"t":"noslash"}`, `gostruct: gostruct_test.tsAll.T: UnmarshalText of gostruct_test.tsText: no slash in "noslash"`},
		{"json", `{"j":"str"}`, `gostruct: gostruct_test.tsAll.J: UnmarshalJSON of gostruct_test.tsJSON: json: cannot unmarshal string into Go value of type struct { N int }`},
		{"base64", `{"bytes":"!!"}`, `gostruct: gostruct_test.tsAll.Bytes: base64 of a []uint8: illegal base64 data at input byte 0`},
		{"promoted", `{"kind":1}`, `gostruct: gostruct_test.tsAll.tsMeta.Kind: cannot set string from int`},
		{"struct", `{"rec":{"next":[]}}`, `gostruct: gostruct_test.tsAll.Rec.Next: cannot set gostruct_test.tsRecursive from list`},
	}
	for _, tc := range to {
		v, err := value.FromJSON([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		var x tsAll
		err = c.ToStruct(v, &x)
		if err == nil || err.Error() != tc.err {
			t.Errorf("%s: ToStruct error %v, want %s", tc.name, err, tc.err)
		}
	}
	v, _ := value.FromJSON([]byte(`{"i":2.0,"f":3,"u64":4.0}`))
	var x tsAll
	if err := c.ToStruct(v, &x); err != nil || x.I != 2 || x.F != 3 || x.U64 != 4 {
		t.Errorf("integral numbers: %v, %+v", err, x)
	}
	for _, bad := range []any{nil, x, (*tsAll)(nil), new(tsInner)} {
		if err := c.ToStruct(v, bad); err == nil {
			t.Errorf("ToStruct into %T: no error", bad)
		}
	}
	if _, err := c.FromStruct(tsInner{}); err == nil {
		t.Errorf("FromStruct of a tsInner with a tsAll codec: no error")
	}
	if v, err := c.FromStruct((*tsAll)(nil)); err != nil || !v.IsNull() {
		t.Errorf("FromStruct of a nil pointer: %s, %v", v, err)
	}
}

// TestCodecCycles: a recursive type is fine; a value that contains
// itself stops at the depth limit with a readable path.
func TestCodecCycles(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tsRecursive]())
	if err != nil {
		t.Fatal(err)
	}
	r := &tsRecursive{Value: 1}
	r.Next = r
	_, err = c.FromStruct(r)
	if !errors.Is(err, value.ErrTooDeep) {
		t.Fatalf("a cycle: %v", err)
	}
	// DefaultMaxDepth levels, a pointer and a struct per step of .Next:
	// the first and last 20 steps written.
	want := "gostruct: gostruct_test.tsRecursive" + strings.Repeat(".Next", 20) + fmt.Sprintf("...(%d more)...", value.DefaultMaxDepth/2-40) + strings.Repeat(".Next", 20) + ": nesting deeper"
	if msg := err.Error(); !strings.HasPrefix(msg, want) {
		t.Errorf("a cycle's error:\n got %s\nwant %s...", msg, want)
	}
	// A pointer to itself, no struct on the way.
	var self tsSelf
	self = &self
	if _, err := gostruct.FromStruct(self); !errors.Is(err, value.ErrTooDeep) {
		t.Errorf("a pointer to itself: %v", err)
	}

	deep := `{"value":0}`
	for range value.DefaultMaxDepth + 1 {
		deep = `{"next":` + deep + `}`
	}
	v, err := value.FromJSON([]byte(deep), value.MaxDepth(value.DefaultMaxDepth+5))
	if err != nil {
		t.Fatal(err)
	}
	var out tsRecursive
	if err := c.ToStruct(v, &out); !errors.Is(err, value.ErrTooDeep) {
		t.Errorf("too deep a value: %v", err)
	}
}

// TestCodecConcurrent converts with one codec from many goroutines;
// run it with -race.
func TestCodecConcurrent(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tsAll]())
	if err != nil {
		t.Fatal(err)
	}
	samples := tsSamples()
	want := make([]value.Value, len(samples))
	for i := range samples {
		js, _ := json.Marshal(&samples[i])
		if want[i], err = value.FromJSON(js); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := (g + i) % len(samples)
				v, err := c.FromStruct(&samples[k])
				if err != nil || !value.Equal(v, want[k]) {
					errs <- fmt.Sprintf("FromStruct %d: %v", k, err)
					return
				}
				var back tsAll
				if err := c.ToStruct(v, &back); err != nil {
					errs <- fmt.Sprintf("ToStruct %d: %v", k, err)
					return
				}
				again, err := c.FromStruct(back)
				if err != nil || !value.Equal(again, want[k]) {
					errs <- fmt.Sprintf("round trip %d: %v", k, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// FuzzCodec decodes random JSON into tsAll with encoding/json and
// checks FromStruct and ToStruct against it.
func FuzzCodec(f *testing.F) {
	for _, x := range tsSamples() {
		js, _ := json.Marshal(&x)
		f.Add(js)
	}
	c, err := gostruct.NewCodec(reflect.TypeFor[tsAll]())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var x tsAll
		if json.Unmarshal(data, &x) != nil {
			return
		}
		js, err := json.Marshal(&x)
		if err != nil {
			return
		}
		want, err := value.FromJSON(js)
		if err != nil {
			return // numbers encoding/json writes and FromJSON refuses, say
		}
		got, err := c.FromStruct(&x)
		if err != nil {
			if x.U64 > math.MaxInt64 {
				return
			}
			t.Fatalf("FromStruct: %v", err)
		}
		if !value.Equal(got, want) {
			t.Fatalf("FromStruct:\n got %s\nwant %s", got, want)
		}
		var fromJSON, back tsAll
		if err := json.Unmarshal(js, &fromJSON); err != nil {
			t.Fatal(err)
		}
		if err := c.ToStruct(got, &back); err != nil {
			t.Fatalf("ToStruct: %v", err)
		}
		// Numbers in Any: encoding/json gives float64, ToStruct int64.
		back.Any, fromJSON.Any = nil, nil
		if !reflect.DeepEqual(back, fromJSON) {
			t.Fatalf("ToStruct:\n got %+v\nwant %+v", back, fromJSON)
		}
	})
}

type tsChanHolder struct {
	C chan int
}

type tsLazy struct {
	A string        `json:"a"`
	P *tsChanHolder `json:"p,omitempty"`
}

// TestFromStructLazyTypes: gostruct.FromStruct works each Go type out when it
// meets a value of it, so a type with no JSON form behind a nil pointer is
// no error (as with encoding/json), while NewCodec, which walks every
// reachable type, refuses it; met, it is an error naming the field.
func TestFromStructLazyTypes(t *testing.T) {
	if _, err := gostruct.NewCodec(reflect.TypeFor[tsLazy]()); err == nil {
		t.Error("NewCodec of a type that reaches a channel: no error")
	}
	x := tsLazy{A: "x"}
	if _, err := json.Marshal(x); err != nil {
		t.Fatalf("encoding/json refuses %+v: %v", x, err)
	}
	v, err := gostruct.FromStruct(x)
	if err != nil || v.String() != `{"a":"x"}` {
		t.Errorf("FromStruct(%+v) = %s, %v; want {\"a\":\"x\"}", x, v, err)
	}
	x.P = &tsChanHolder{}
	if _, err := json.Marshal(x); err == nil {
		t.Fatalf("encoding/json accepts a channel")
	}
	_, err = gostruct.FromStruct(&x)
	want := "gostruct: *gostruct_test.tsLazy.P.C: unsupported type chan int"
	if err == nil || err.Error() != want {
		t.Errorf("FromStruct with a channel: %v; want %s", err, want)
	}
}

// tsRaw is JSON that marshals as itself, as apimachinery's FieldsV1 does.
type tsRaw []byte

func (r tsRaw) MarshalJSON() ([]byte, error) { return r, nil }

// TestCodecManyMarshalJSON: values of a type that gives its own JSON,
// decoded one after another within one conversion, each as encoding/json
// reads it; a bad one is an error naming where it is.
func TestCodecManyMarshalJSON(t *testing.T) {
	type holder struct {
		L []tsRaw          `json:"l"`
		M map[string]tsRaw `json:"m"`
	}
	c, err := gostruct.NewCodec(reflect.TypeFor[holder]())
	if err != nil {
		t.Fatal(err)
	}
	x := holder{
		L: []tsRaw{tsRaw(`{"f:a":{},"k:{\"n\":\"x\\u003c\"}":{".":{}}}`), tsRaw(`[1,"two",{"three":[3]}]`), tsRaw(`"s\u00e9"`), tsRaw(` {"b":1,"a":2} `)},
		M: map[string]tsRaw{"x": tsRaw(`{"nested":{"deep":[{"a":"\\"}]}}`), "y": tsRaw(`null`)},
	}
	want, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	wv, err := value.FromJSON(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.FromStruct(&x)
	if err != nil || !value.Equal(got, wv) {
		t.Fatalf("FromStruct = %s, %v; want %s", value.ToJSON(got), err, want)
	}
	x.L[2] = tsRaw(`{"a":`)
	if _, err := c.FromStruct(&x); err == nil || !strings.HasPrefix(err.Error(), "gostruct: gostruct_test.holder.L[2]: MarshalJSON of gostruct_test.tsRaw: ") {
		t.Errorf("FromStruct of bad JSON: %v", err)
	}
}

// withField returns the map m with its field name set to v.
func withField(t *testing.T, m value.Value, name string, v value.Value) value.Value {
	t.Helper()
	var fields []value.Field
	found := false
	for _, f := range m.Fields() {
		if f.Name == name {
			f.Value, found = v, true
		}
		fields = append(fields, f)
	}
	if !found {
		t.Fatalf("no field %q", name)
	}
	return value.NewMap(fields)
}

// TestToStructFrom: the conversion back with origins gives what ToStruct
// gives, and its unchanged parts are the origins' own pointers, slices and
// maps while the changed ones are new.
func TestToStructFrom(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tsAll]())
	if err != nil {
		t.Fatal(err)
	}
	origin := tsSamples()[2]
	origin.L = []tsInner{{Name: "l0", Tags: map[string]string{"k": "v"}}, {Name: "l1"}}
	lv, err := c.FromStruct(&origin)
	if err != nil {
		t.Fatal(err)
	}
	other := tsAll{P: &tsInner{Name: "other"}}
	ov, err := c.FromStruct(other)
	if err != nil {
		t.Fatal(err)
	}
	// The result: the origin with its name, rec.value and l[1] changed,
	// and p taken from the other origin.
	res := withField(t, lv, "name", value.NewString("changed"))
	rec, _ := lv.Get("rec")
	res = withField(t, res, "rec", withField(t, rec, "value", value.NewInt(10)))
	l, _ := lv.Get("l")
	items := slices.Clone(own.Value.Items(l))
	items[1] = withField(t, items[1], "name", value.NewString("l1 changed"))
	res = withField(t, res, "l", value.NewList(items))
	op, _ := ov.Get("p")
	res = withField(t, res, "p", op)

	var want, got tsAll
	if err := c.ToStruct(res, &want); err != nil {
		t.Fatal(err)
	}
	if err := c.ToStructFrom(res, &got, value.Origin{Value: lv, Data: &origin}, value.Origin{Value: ov, Data: other}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ToStructFrom = %+v\nToStruct     = %+v", got, want)
	}
	switch {
	case got.Rec.Next != origin.Rec.Next:
		t.Error("the unchanged rec.next under a changed struct is a copy")
	case got.PT != origin.PT:
		t.Error("an unchanged pointer is a copy")
	case !samePointer(got.M, origin.M) || !samePointer(got.MT, origin.MT):
		t.Error("an unchanged map is a copy")
	case !samePointer(got.L[0].Tags, origin.L[0].Tags):
		t.Error("the unchanged item of a changed slice is a copy")
	case got.P != other.P:
		t.Error("the part taken from the second origin is a copy")
	case samePointer(got.L, origin.L):
		t.Error("a changed slice is the origin's")
	}
	got.L[1].Name = "z"
	if origin.L[1].Name != "l1" {
		t.Error("changing a changed part of the result changed the origin")
	}

	// Items that moved are not matched with the origin's items at their
	// old places.
	swapped := withField(t, lv, "l", value.NewList([]value.Value{own.Value.Items(l)[1], own.Value.Items(l)[0]}))
	var sw, swWant tsAll
	if err := c.ToStruct(swapped, &swWant); err != nil {
		t.Fatal(err)
	}
	if err := c.ToStructFrom(swapped, &sw, value.Origin{Value: lv, Data: &origin}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sw, swWant) {
		t.Errorf("items swapped: %+v, want %+v", sw.L, swWant.L)
	}

	// Origins of another type, nil pointers and no origins change nothing
	// but the sharing.
	for _, origins := range [][]value.Origin{
		{{Value: lv, Data: tsInner{}}},
		{{Value: lv, Data: (*tsAll)(nil)}},
		{{Value: lv, Data: nil}},
		nil,
	} {
		var got tsAll
		if err := c.ToStructFrom(res, &got, origins...); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || got.PT == origin.PT {
			t.Errorf("with %v: %+v", origins, got)
		}
	}

	// An error is the one ToStruct reports.
	items[1] = value.NewString("not a struct")
	bad := withField(t, res, "l", value.NewList(items))
	var x tsAll
	wantErr, gotErr := c.ToStruct(bad, &x), c.ToStructFrom(bad, &x, value.Origin{Value: lv, Data: &origin})
	if wantErr == nil || gotErr == nil || gotErr.Error() != wantErr.Error() {
		t.Errorf("error %v, want %v", gotErr, wantErr)
	}
}

// tsDecoded returns x marshalled and unmarshalled: a copy with memory of
// its own (no string shared by chance with x).
func tsDecoded(t *testing.T, x tsAll) tsAll {
	t.Helper()
	data, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	var out tsAll
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	out.MT, out.Bytes = x.MT, bytes.Clone(x.Bytes) // not in the JSON form alike
	return out
}

// TestFromStructLike: converting a struct with a like value gives what
// FromStruct gives, sharing like's parts exactly where they are equal.
func TestFromStructLike(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tsAll]())
	if err != nil {
		t.Fatal(err)
	}
	changes := []func(*tsAll){
		func(x *tsAll) {},
		func(x *tsAll) { x.Name += "!" },
		func(x *tsAll) {
			if x.P != nil {
				x.P.Tags = map[string]string{"a": "1", "b": "changed"}
			}
		},
		func(x *tsAll) { x.L = append(x.L, tsInner{Name: "new"}) },
		func(x *tsAll) {
			if len(x.L) > 1 {
				x.L[1].Count++
			}
		},
		func(x *tsAll) { x.Rec.Children = append(x.Rec.Children, tsRecursive{Value: 5}) },
		func(x *tsAll) {
			if x.Rec.Next != nil {
				x.Rec.Next.Value++
			}
		},
		func(x *tsAll) { x.T.b += "x"; x.J.n++ },
		func(x *tsAll) { x.MI = map[int]string{10: "ten", -1: "minus one", 2: "deux"} },
		func(x *tsAll) { x.M = map[string]*tsInner{"z": {Name: "z"}, "a": nil, "m": {Count: 2}} },
		func(x *tsAll) { x.Any = map[string]any{"k": []any{"v", true, nil}, "s": "u"} },
		func(x *tsAll) { x.I = 3; x.F = 3 },
		func(x *tsAll) { x.I, x.PO, x.Named = 0, nil, nil }, // fields left out (omitempty)
		func(x *tsAll) {
			if len(x.MI) > 0 {
				x.MI = map[int]string{10: "ten"}
			}
		},
		func(x *tsAll) { x.Bytes = append(bytes.Clone(x.Bytes), 1) },
	}
	samples := tsSamples()
	checked := 0
	for _, a := range samples {
		orig := tsDecoded(t, a)
		like, err := c.FromStruct(&orig)
		if err != nil {
			t.Fatal(err)
		}
		for i, change := range changes {
			for _, b0 := range samples {
				b := tsDecoded(t, b0)
				change(&b)
				want, err := c.FromStruct(&b)
				if err != nil {
					t.Fatal(err)
				}
				// Like the converted value alone, and like it with the
				// struct it came from.
				for _, from := range []bool{false, true} {
					var got value.Value
					if from {
						got, err = c.FromStruct(&b, value.LikeOrigin(value.Origin{Value: like, Data: &orig}))
					} else {
						got, err = c.FromStruct(&b, value.Like(like))
					}
					if err != nil {
						t.Fatal(err)
					}
					if !valuetest.Identical(got, want) {
						t.Fatalf("change %d (origin %v): = %s, want %s", i, from, value.ToJSON(got), value.ToJSON(want))
					}
					valuetest.CheckShared(t, fmt.Sprintf("change %d (origin %v) of %s", i, from, value.ToJSON(want)), got, like)
					checked++
				}
			}
		}
	}
	// An unchanged struct is like itself, and the parts it shares give
	// their room in the conversion's arenas back: fewer allocations than
	// a conversion without like.
	full := tsDecoded(t, samples[2])
	like, err := c.FromStruct(full)
	if err != nil {
		t.Fatal(err)
	}
	again := tsDecoded(t, samples[2])
	got, err := c.FromStruct(&again, value.Like(like))
	if err != nil || !value.Same(got, like) {
		t.Errorf("an unchanged struct: %v, shared %v", err, value.Same(got, like))
	}
	bytesOf := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 50 {
			f()
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 50
	}
	plain := bytesOf(func() { _, _ = c.FromStruct(&again) })
	shared := bytesOf(func() { _, _ = c.FromStruct(&again, value.Like(like)) })
	if shared >= plain {
		t.Errorf("an unchanged struct converted like itself: %d bytes, without like %d", shared, plain)
	}
	// Errors are FromStruct's.
	bad := again
	bad.F = math.NaN()
	_, want := c.FromStruct(&bad)
	if _, got := c.FromStruct(&bad, value.Like(like)); want == nil || got == nil || got.Error() != want.Error() {
		t.Errorf("error %v, want %v", got, want)
	}
}

// tsCounted marshals itself to its number, counting the calls in *calls.
type tsCounted struct {
	N     int
	calls *int
}

func (c tsCounted) MarshalJSON() ([]byte, error) {
	*c.calls++
	return []byte(strconv.Itoa(c.N)), nil
}

type tsWithCounted struct {
	A tsCounted            `json:"a"`
	L []tsCounted          `json:"l"`
	P *tsCounted           `json:"p"`
	M map[string]tsCounted `json:"m"`
	O *tsCounted           `json:"o,omitempty"`
}

// TestFromStructFrom: a part with its own marshalling that is equal in Go
// to the origin's part at the same place is not marshalled: its value is
// the origin value's; the others are, and the result is FromStruct's.
func TestFromStructFrom(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tsWithCounted]())
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	n := func(i int) tsCounted { return tsCounted{N: i, calls: &calls} }
	build := func() tsWithCounted {
		p := n(4)
		return tsWithCounted{A: n(1), L: []tsCounted{n(2), n(3)}, P: &p, M: map[string]tsCounted{"k": n(5)}}
	}
	orig := build()
	like, err := c.FromStruct(&orig)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*tsWithCounted)
		calls  int // the marshalling calls: changed parts and map values
	}{
		{"unchanged", func(*tsWithCounted) {}, 1},
		{"an item changed", func(x *tsWithCounted) { x.L[1].N = 30 }, 2},
		{"an item added", func(x *tsWithCounted) { x.L = append(x.L, n(6)) }, 2},
		{"a field changed", func(x *tsWithCounted) { x.A.N = 10 }, 2},
		{"a pointer cleared", func(x *tsWithCounted) { x.P = nil }, 1},
		{"a pointer set", func(x *tsWithCounted) { o := n(7); x.O = &o }, 2},
		{"the pointed-to changed", func(x *tsWithCounted) { x.P.N = 40 }, 2},
		{"another counter", func(x *tsWithCounted) { other := 0; x.A.calls = &other }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build()
			tc.change(&b)
			calls = 0
			got, err := c.FromStruct(&b, value.LikeOrigin(value.Origin{Value: like, Data: &orig}))
			if err != nil {
				t.Fatal(err)
			}
			if calls != tc.calls {
				t.Errorf("%d marshalling calls, want %d", calls, tc.calls)
			}
			want, err := c.FromStruct(&b)
			if err != nil {
				t.Fatal(err)
			}
			if !valuetest.Identical(got, want) {
				t.Fatalf("= %s, want %s", value.ToJSON(got), value.ToJSON(want))
			}
			valuetest.CheckShared(t, tc.name, got, like)
		})
	}
	// A part equal to the origin's through a pointer to another, equal
	// value is equal.
	other := 0
	b := build()
	b.A.calls = &other
	calls = 0
	if _, err := c.FromStruct(&b, value.LikeOrigin(value.Origin{Value: like, Data: &orig})); err != nil || other != 0 {
		t.Errorf("a part equal through another pointer: marshalled %d times (%v)", other, err)
	}
	// An origin of another type, or none, is not used; a struct value of
	// the codec's type is, as a pointer to one is.
	for _, tc := range []struct {
		data  any
		calls int
	}{{nil, 5}, {tsAll{}, 5}, {&orig.A, 5}, {(*tsWithCounted)(nil), 5}, {orig, 1}} {
		calls = 0
		b := build()
		if _, err := c.FromStruct(&b, value.LikeOrigin(value.Origin{Value: like, Data: tc.data})); err != nil {
			t.Fatal(err)
		}
		if calls != tc.calls {
			t.Errorf("origin %T: %d calls, want %d", tc.data, calls, tc.calls)
		}
	}
}

// TestFromStructOptions: MaxDepth bounds the conversions as it bounds
// value's decoders, and a bad option is an error.
func TestFromStructOptions(t *testing.T) {
	x := struct{ A [][]int }{A: [][]int{{1}}}
	if _, err := gostruct.FromStruct(x, value.MaxDepth(3)); err != nil {
		t.Errorf("struct of depth 3 with MaxDepth(3): %v", err)
	}
	if _, err := gostruct.FromStruct(x, value.MaxDepth(2)); !errors.Is(err, value.ErrTooDeep) {
		t.Errorf("struct of depth 3 with MaxDepth(2): %v, want ErrTooDeep", err)
	}
	c, err := gostruct.NewCodec(reflect.TypeOf(x))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.FromStruct(x, value.Like(value.NewString("x")), value.MaxDepth(2)); !errors.Is(err, value.ErrTooDeep) {
		t.Errorf("Codec.FromStruct with Like and MaxDepth(2): %v, want ErrTooDeep", err)
	}
	if _, err := c.FromStruct(x, value.MaxDepth(0)); err == nil {
		t.Error("MaxDepth(0): no error")
	}
}

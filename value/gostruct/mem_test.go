package gostruct_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
)

// The types of TestCodecScalars have a field of every scalar kind
// and size, plain, omitempty, and behind a pointer (plain and omitempty):
// the fields a Codec reads from the struct's memory at their
// offsets.

type tmScalars struct {
	B   bool    `json:"b"`
	I   int     `json:"i"`
	I8  int8    `json:"i8"`
	I16 int16   `json:"i16"`
	I32 int32   `json:"i32"`
	I64 int64   `json:"i64"`
	U   uint    `json:"u"`
	U8  uint8   `json:"u8"`
	U16 uint16  `json:"u16"`
	U32 uint32  `json:"u32"`
	U64 uint64  `json:"u64"`
	UP  uintptr `json:"up"`
	F32 float32 `json:"f32"`
	F64 float64 `json:"f64"`
	S   string  `json:"s"`
	NS  tmName  `json:"ns"`
}

type tmName string

type tmOmit struct {
	B   bool              `json:"b,omitempty"`
	I8  int8              `json:"i8,omitempty"`
	I16 int16             `json:"i16,omitempty"`
	I32 int32             `json:"i32,omitempty"`
	I64 int64             `json:"i64,omitempty"`
	U8  uint8             `json:"u8,omitempty"`
	U16 uint16            `json:"u16,omitempty"`
	U32 uint32            `json:"u32,omitempty"`
	U64 uint64            `json:"u64,omitempty"`
	F32 float32           `json:"f32,omitempty"`
	F64 float64           `json:"f64,omitempty"`
	S   string            `json:"s,omitempty"`
	L   []int16           `json:"l,omitempty"`
	M   map[string]string `json:"m,omitempty"`
	A   any               `json:"a,omitempty"`
	E   error             `json:"e,omitempty"` // an interface with methods
	P   *tmScalars        `json:"ptr,omitempty"`
}

type TmPointers struct {
	B   *bool    `json:"pb"`
	I8  *int8    `json:"pi8"`
	I32 *int32   `json:"pi32"`
	I64 *int64   `json:"pi64,omitempty"`
	U16 *uint16  `json:"pu16"`
	U64 *uint64  `json:"pu64,omitempty"`
	F32 *float32 `json:"pf32"`
	F64 *float64 `json:"pf64,omitempty"`
	S   *string  `json:"ps"`
	NS  *tmName  `json:"pns,omitempty"`
}

// tmAll holds them at offsets other than 0, embedded by value (their
// fields promoted, the offsets added) and by pointer (read through
// reflect), held by value, and in a map (not addressable: read through
// reflect). TmPointers' JSON names start with p, not to clash with
// tmOmit's when both are promoted.
type tmAll struct {
	Pad   [3]byte   `json:"pad"`
	Plain tmScalars `json:"plain"`
	tmOmit
	*TmPointers
	Ptrs   TmPointers        `json:"ptrs"`
	List   []tmScalars       `json:"list"`
	ByName map[string]tmOmit `json:"byName"`
}

// randScalars returns values that are often zero and often at the bounds
// of their types.
func randScalars(r *rand.Rand) tmScalars {
	n := func(bits int) uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return 1<<(bits-1) - 1 // the largest signed
		case 2:
			return ^uint64(0) >> (64 - bits) // all ones: -1 signed
		}
		return r.Uint64() >> (64 - bits)
	}
	return tmScalars{
		B: r.IntN(2) == 1, I: int(n(64)), I8: int8(n(8)), I16: int16(n(16)), I32: int32(n(32)), I64: int64(n(64)),
		U: uint(n(63)), U8: uint8(n(8)), U16: uint16(n(16)), U32: uint32(n(32)), U64: n(63), UP: uintptr(n(63)),
		// (float32s that are exactly what encoding/json writes of them.)
		F32: []float32{0, 1.5, -65504, 0.25}[r.IntN(4)],
		F64: []float64{0, -2.25, math.MaxFloat64, 1e-300}[r.IntN(4)],
		S:   []string{"", "x", "héllo \"q\""}[r.IntN(3)],
		NS:  tmName([]string{"", "named"}[r.IntN(2)]),
	}
}

func randAll(r *rand.Rand) tmAll {
	s := randScalars(r)
	o := tmOmit{B: s.B, I8: s.I8, I16: s.I16, I32: s.I32, I64: s.I64, U8: s.U8, U16: s.U16, U32: s.U32, U64: s.U64, F32: s.F32, F64: s.F64, S: s.S}
	if r.IntN(2) == 0 {
		o.L = []int16{}
		if r.IntN(2) == 0 {
			o.L = append(o.L, s.I16)
		}
	}
	if r.IntN(2) == 0 {
		o.M = map[string]string{}
		if r.IntN(2) == 0 {
			o.M["k"] = s.S
		}
	}
	switch r.IntN(3) {
	case 1:
		o.A = s.S
	case 2:
		o.A = (*int)(nil) // not a nil interface: kept, null
	}
	if r.IntN(2) == 0 {
		o.E = errors.New("e")
	}
	if r.IntN(3) == 0 {
		o.P = &s
	}
	x := tmAll{Pad: [3]byte{1, 2, 3}, Plain: randScalars(r), tmOmit: o, List: []tmScalars{randScalars(r), randScalars(r)}}
	if r.IntN(4) > 0 {
		p := &TmPointers{}
		q := randScalars(r)
		set := func() bool { return r.IntN(3) > 0 }
		if set() {
			p.B = &q.B
		}
		if set() {
			p.I8 = &q.I8
		}
		if set() {
			p.I32 = &q.I32
		}
		if set() {
			p.I64 = &q.I64
		}
		if set() {
			p.U16 = &q.U16
		}
		if set() {
			p.U64 = &q.U64
		}
		if set() {
			p.F32 = &q.F32
		}
		if set() {
			p.F64 = &q.F64
		}
		if set() {
			p.S = &q.S
		}
		if set() {
			p.NS = &q.NS
		}
		x.TmPointers = p
		x.Ptrs = *p
	}
	if r.IntN(2) == 0 {
		x.ByName = map[string]tmOmit{"a": o, "b": {}}
	}
	return x
}

// TestCodecScalars checks the scalars a Codec reads from
// memory against encoding/json, on random values of every kind and size,
// zero and at their bounds.
func TestCodecScalars(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tmAll]())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		x := randAll(r)
		checkFromStructJSON(t, c, &x)
		// Like's own strings are kept (the same stored string).
		like, err := c.FromStruct(&x)
		if err != nil {
			t.Fatal(err)
		}
		again, err := c.FromStruct(&x, value.Like(like))
		if err != nil || !value.Same(again, like) {
			t.Fatalf("%d: FromStructLike of the same struct is not like: %v", i, err)
		}
	}
}

// TestFromStructFromScalars changes one scalar of a copy of a struct,
// anywhere below the root, and checks that FromStructFrom with the
// original as origin gives what FromStruct gives: a part taken for equal
// to the origin's and not converted again must be equal.
func TestFromStructFromScalars(t *testing.T) {
	type wrap struct {
		X tmAll   `json:"x"`
		L []tmAll `json:"l"`
	}
	c, err := gostruct.NewCodec(reflect.TypeFor[wrap]())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	changed := 0
	for i := range 400 {
		// Two equal values from the same seed, sharing nothing.
		gen := func() wrap {
			g := rand.New(rand.NewPCG(uint64(i), 5))
			return wrap{X: randAll(g), L: []tmAll{randAll(g)}}
		}
		orig, body := gen(), gen()
		like, err := c.FromStruct(&orig)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(&orig)
		what := changeScalar(r, reflect.ValueOf(&body).Elem())
		if what == "" {
			continue
		}
		changed++
		got, err := c.FromStruct(&body, value.LikeOrigin(value.Origin{Value: like, Data: &orig}))
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.FromStruct(&body)
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(got, want) {
			t.Fatalf("%d: %s changed in %s:\n got %s\nwant %s", i, what, js, got, want)
		}
	}
	if changed < 300 {
		t.Errorf("only %d of 400 changed", changed)
	}
}

// changeScalar changes one scalar that v holds, chosen at random, or
// sets or clears a pointer to one, and says which; "" when it found none.
func changeScalar(r *rand.Rand, v reflect.Value) string {
	var leaves []reflect.Value
	var names []string
	var walk func(v reflect.Value, at string)
	walk = func(v reflect.Value, at string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() || f.Anonymous {
					walk(v.Field(i), at+"."+f.Name)
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), at+"["+strconv.Itoa(i)+"]")
			}
		case reflect.Pointer:
			if v.Type().Elem().Kind() != reflect.Struct && v.CanSet() {
				leaves, names = append(leaves, v), append(names, at)
			}
			if !v.IsNil() {
				walk(v.Elem(), at)
			}
		case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.String:
			if v.CanSet() {
				leaves, names = append(leaves, v), append(names, at)
			}
		}
	}
	walk(v, "")
	if len(leaves) == 0 {
		return ""
	}
	i := r.IntN(len(leaves))
	switch l := leaves[i]; l.Kind() {
	case reflect.Bool:
		l.SetBool(!l.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		l.SetInt(l.Int() ^ 1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr:
		l.SetUint(l.Uint() ^ 1)
	case reflect.Float32, reflect.Float64:
		l.SetFloat(l.Float() + 1)
	case reflect.String:
		l.SetString(l.String() + "x")
	case reflect.Pointer:
		if l.IsNil() {
			l.Set(reflect.New(l.Type().Elem()))
		} else {
			l.SetZero()
		}
	}
	return names[i]
}

// TestCodecScalarErrors: a number a Value cannot hold is an error
// naming the field, wherever the field is.
func TestCodecScalarErrors(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tmAll]())
	if err != nil {
		t.Fatal(err)
	}
	big, nan, inf := uint64(math.MaxUint64), math.NaN(), float32(math.Inf(-1))
	for _, tc := range []struct {
		x    tmAll
		want string
	}{
		{tmAll{Plain: tmScalars{U64: big}}, "gostruct_test.tmAll.Plain.U64: integer 18446744073709551615 overflows int64"},
		{tmAll{Plain: tmScalars{U: uint(big)}}, "gostruct_test.tmAll.Plain.U: integer 18446744073709551615 overflows int64"},
		{tmAll{tmOmit: tmOmit{U64: big}}, "gostruct_test.tmAll.tmOmit.U64: integer 18446744073709551615 overflows int64"},
		{tmAll{TmPointers: &TmPointers{U64: &big}}, "gostruct_test.tmAll.TmPointers.U64: integer 18446744073709551615 overflows int64"},
		{tmAll{Plain: tmScalars{F64: nan}}, "gostruct_test.tmAll.Plain.F64: unsupported float value NaN"},
		{tmAll{tmOmit: tmOmit{F32: inf}}, "gostruct_test.tmAll.tmOmit.F32: unsupported float value -Inf"},
		{tmAll{TmPointers: &TmPointers{F32: &inf}}, "gostruct_test.tmAll.TmPointers.F32: unsupported float value -Inf"},
		{tmAll{List: []tmScalars{{}, {F64: nan}}}, "gostruct_test.tmAll.List[1].F64: unsupported float value NaN"},
	} {
		for _, in := range []any{tc.x, &tc.x} {
			_, err := c.FromStruct(in)
			if err == nil || err.Error() != "gostruct: "+tc.want {
				t.Errorf("FromStruct: %v, want %s", err, tc.want)
			}
		}
	}
}

// tmChain nests to any depth; S and In.S, one level apart, are pointers
// to a scalar, read from memory by a Codec.
type tmChain struct {
	Next *tmChain `json:"next,omitempty"`
	S    *string  `json:"s"`
	In   tmIn     `json:"in"`
}

type tmIn struct {
	S *string `json:"s"`
}

// TestCodecScalarDepth: a pointer to a scalar counts as a level of
// nesting whether it is read from memory (a Codec) or through
// reflect (gostruct.FromStruct), nil or not: the two agree around the limit.
func TestCodecScalarDepth(t *testing.T) {
	c, err := gostruct.NewCodec(reflect.TypeFor[tmChain]())
	if err != nil {
		t.Fatal(err)
	}
	s := "x"
	failed := 0
	for n := value.DefaultMaxDepth/2 - 3; n <= value.DefaultMaxDepth/2+3; n++ {
		for _, leaf := range []*string{nil, &s} {
			root := &tmChain{S: leaf, In: tmIn{S: leaf}}
			for range n {
				root = &tmChain{Next: root}
			}
			got, gotErr := c.FromStruct(root)
			want, wantErr := gostruct.FromStruct(*root) // not a pointer: the same levels
			if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() || !value.Equal(got, want) {
				t.Errorf("%d levels, s %v: codec %v, %v; gostruct.FromStruct %v, %v", n, leaf != nil, got.IsNull(), gotErr, want.IsNull(), wantErr)
			}
			if gotErr != nil {
				failed++
				if !errors.Is(gotErr, value.ErrTooDeep) || !strings.HasSuffix(gotErr.Error(), "nesting deeper than "+strconv.Itoa(value.DefaultMaxDepth)+" levels (nesting too deep)") {
					t.Errorf("%d levels: %v", n, gotErr)
				}
			}
		}
	}
	if failed == 0 || failed == 14 {
		t.Errorf("%d of 14 chains failed: the limit is not among them", failed)
	}
}

package fieldpath

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/structmerge/structmerge/value"
)

func TestElementString(t *testing.T) {
	tests := []struct {
		e    PathElement
		want string
	}{
		{FieldName("a"), ".a"},
		{FieldName(""), "."},
		{FieldName(`q"uote`), `.q"uote`},
		{KeyByFields("name", "web"), `[name="web"]`},
		{KeyByFields("port", 80, "name", "web"), `[name="web",port=80]`},
		{KeyByFields("containerPort", int64(80), "protocol", "TCP"), `[containerPort=80,protocol="TCP"]`},
		{KeyByFields("a", true, "b", nil, "c", 1.5), `[a=true,b=null,c=1.5]`},
		{Key(nil), "[]"},
		{MemberValue(value.NewString("a")), `[="a"]`},
		{MemberValue(value.NewString("a\nb\"")), `[="a\nb\""]`},
		{MemberValue(value.NewInt(-3)), `[=-3]`},
		{MemberValue(value.NewFloat(1.5)), `[=1.5]`},
		{MemberValue(value.NewFloat(1e21)), `[=1e+21]`},
		{MemberValue(value.NewFloat(1e-7)), `[=1e-07]`},
		{MemberValue(value.NewBool(false)), `[=false]`},
		{MemberValue(value.NewNull()), `[=null]`},
		{MemberValue(value.NewList([]value.Value{value.NewInt(1), value.NewString("x")})), `[=[1,"x"]]`},
		{Index(0), "[0]"},
		{Index(-1), "[-1]"},
		{Index(1 << 40), "[1099511627776]"},
		{PathElement{}, "{{invalid path element}}"},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestElementAccessors(t *testing.T) {
	f := FieldName("x")
	if f.Kind() != FieldNameKind || f.FieldName() != "x" || f.KeyLen() != 0 || !f.Value().IsNull() || f.Index() != 0 {
		t.Errorf("FieldName accessors wrong: %v", f)
	}
	k := KeyByFields("b", 2, "a", "s")
	if k.Kind() != KeyKind || k.FieldName() != "" || len(k.keyFields()) != 2 || k.keyFields()[0].Name != "a" || k.keyFields()[1].Value.AsInt() != 2 {
		t.Errorf("Key accessors wrong: %v %v", k, k.keyFields())
	}
	v := MemberValue(value.NewString("m"))
	if v.Kind() != ValueKind || v.Value().AsString() != "m" || v.KeyLen() != 0 {
		t.Errorf("MemberValue accessors wrong: %v", v)
	}
	i := Index(7)
	if i.Kind() != IndexKind || i.Index() != 7 || i.FieldName() != "" {
		t.Errorf("Index accessors wrong: %v", i)
	}
	if (PathElement{}).Kind() != 0 {
		t.Error("zero PathElement has a kind")
	}
	for k, want := range map[ElementKind]string{FieldNameKind: "field", KeyKind: "key", ValueKind: "value", IndexKind: "index", 0: "invalid"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), want)
		}
	}
}

func TestKeyByFieldsPanics(t *testing.T) {
	for _, args := range [][]any{{"a"}, {1, 2}, {"a", struct{}{}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("KeyByFields(%v) did not panic", args)
				}
			}()
			KeyByFields(args...)
		}()
	}
}

func TestKeySortsStably(t *testing.T) {
	fields := []value.Field{
		{Name: "b", Value: value.NewInt(1)},
		{Name: "a", Value: value.NewInt(2)},
		{Name: "b", Value: value.NewInt(0)},
	}
	k := Key(fields)
	got := k.keyFields()
	if got[0].Name != "a" || got[1].Value.AsInt() != 1 || got[2].Value.AsInt() != 0 {
		t.Errorf("Key did not sort stably: %v", k)
	}
}

// TestElementOrder lists elements in strictly increasing order.
func TestElementOrder(t *testing.T) {
	ordered := []PathElement{
		FieldName(""),
		FieldName("A"),
		FieldName("a"),
		FieldName("ab"),
		FieldName("b"),
		Key(nil),
		KeyByFields("a", 1),
		KeyByFields("a", 2),
		KeyByFields("a", 2, "b", 0),
		KeyByFields("a", "x"),
		KeyByFields("b", 0),
		MemberValue(value.NewInt(-1)),
		MemberValue(value.NewFloat(0.5)),
		MemberValue(value.NewInt(1)),
		MemberValue(value.NewString("")),
		MemberValue(value.NewString("a")),
		MemberValue(value.NewBool(false)),
		MemberValue(value.NewBool(true)),
		MemberValue(value.NewList(nil)),
		MemberValue(value.NewNull()),
		Index(-1),
		Index(0),
		Index(10),
		{}, // invalid sorts last
	}
	for i := range ordered {
		for j := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := ordered[i].Compare(ordered[j]); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", ordered[i], ordered[j], got, want)
			}
			if got := ordered[i].Equal(ordered[j]); got != (i == j) {
				t.Errorf("Equal(%v, %v) = %v", ordered[i], ordered[j], got)
			}
		}
	}
}

func TestElementEqualNumbers(t *testing.T) {
	a, b := MemberValue(value.NewInt(1)), MemberValue(value.NewFloat(1))
	if !a.Equal(b) || a.Compare(b) != 0 {
		t.Errorf("1 and 1.0 differ as member values")
	}
	ka, kb := KeyByFields("p", 1), KeyByFields("p", 1.0)
	if !ka.Equal(kb) || ka.Compare(kb) != 0 {
		t.Errorf("keys with 1 and 1.0 differ")
	}
	nan := value.NewFloat(math.NaN())
	if got, want := MemberValue(nan).Equal(MemberValue(nan)), value.Equal(nan, nan); got != want {
		t.Errorf("member values: NaN Equal NaN = %v, value.Equal says %v", got, want)
	}
}

func TestFieldNameDoesNotAllocate(t *testing.T) {
	name := "containers"
	var sink PathElement
	allocs := testing.AllocsPerRun(100, func() {
		sink = FieldName(name)
	})
	if allocs != 0 {
		t.Errorf("FieldName allocates %v times", allocs)
	}
	_ = sink
	p := Path{FieldName("a"), FieldName("b")}
	s := NewSet(p)
	allocs = testing.AllocsPerRun(100, func() {
		if !s.Has(Path{FieldName("a"), FieldName("b")}) {
			panic("missing")
		}
	})
	if allocs != 0 {
		t.Errorf("Has allocates %v times", allocs)
	}
}

func TestElementsSortLikeCompare(t *testing.T) {
	es := []PathElement{Index(2), FieldName("z"), MemberValue(value.NewString("a")), KeyByFields("k", 1), FieldName("a")}
	slices.SortFunc(es, PathElement.Compare)
	want := ".a.z[k=1][=\"a\"][2]"
	if got := Path(es).String(); got != want {
		t.Errorf("sorted = %s, want %s", got, want)
	}
}

// TestIndexRange checks that indexes of the whole int range, which FieldsV1
// may carry ("i:" and any decimal int), keep their value, order and text.
func TestIndexRange(t *testing.T) {
	idx := []int{math.MinInt, math.MinInt>>2 - 1, math.MinInt >> 2, -1, 0, 1, math.MaxInt>>2 - 1, math.MaxInt >> 2, math.MaxInt>>2 + 1, math.MaxInt - 1, math.MaxInt}
	for i, a := range idx {
		e := Index(a)
		if e.Kind() != IndexKind || e.Index() != a {
			t.Fatalf("Index(%d): kind %v, index %d", a, e.Kind(), e.Index())
		}
		if got, want := e.String(), "["+strconv.Itoa(a)+"]"; got != want {
			t.Errorf("Index(%d).String() = %q, want %q", a, got, want)
		}
		if !e.Equal(Index(a)) || e.Compare(Index(a)) != 0 {
			t.Errorf("Index(%d) differs from itself", a)
		}
		for j, b := range idx {
			if got, want := e.Compare(Index(b)), cmp.Compare(i, j); got != want {
				t.Errorf("Index(%d).Compare(Index(%d)) = %d, want %d", a, b, got, want)
			}
			if e.Equal(Index(b)) != (i == j) {
				t.Errorf("Index(%d).Equal(Index(%d)) = %v", a, b, !(i == j))
			}
		}
		if e.Equal(FieldName("a")) || e.Compare(FieldName("a")) <= 0 || e.Equal(PathElement{}) {
			t.Errorf("Index(%d) against other kinds", a)
		}
		js := NewSet(Path{e}).MarshalFieldsV1()
		back, err := ParseFieldsV1(js)
		if err != nil || !back.Has(Path{e}) || string(back.MarshalFieldsV1()) != string(js) {
			t.Errorf("FieldsV1 round trip of %s: %s, %v", js, back.MarshalFieldsV1(), err)
		}
	}
}

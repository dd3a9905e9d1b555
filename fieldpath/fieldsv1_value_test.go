package fieldpath_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/fieldpath/fieldpathtest"
	"github.com/structmerge/structmerge/value"
)

// checkValueDecode checks ParseFieldsV1Value(v) against the text decoder on
// v's JSON (the same set, or the same error) and its canonical flag against
// its definition: v equals the value of the set's encoding.
func checkValueDecode(t *testing.T, v value.Value) {
	t.Helper()
	text := value.ToJSON(v)
	want, werr := fieldpath.ParseFieldsV1(text)
	got, canonical, gerr := fieldpath.ParseFieldsV1Value(v)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%s: value decoder error %v, text decoder %v", text, gerr, werr)
	}
	if werr != nil {
		if canonical {
			t.Fatalf("%s: canonical with an error", text)
		}
		return
	}
	if !got.Equal(want) {
		t.Fatalf("%s: value decoder gives\n%v\ntext decoder\n%v", text, got, want)
	}
	enc, err := value.FromJSON(got.MarshalFieldsV1())
	if err != nil {
		t.Fatal(err)
	}
	if wantCanon := value.Equal(enc, v); canonical != wantCanon {
		t.Fatalf("%s: canonical = %v, want %v (the set encodes to %s)", text, canonical, wantCanon, value.ToJSON(enc))
	}
	checkUnstructuredDecode(t, v.Unstructured())
}

// checkUnstructuredDecode checks ParseFieldsV1Unstructured(x) against its
// definition, ParseFieldsV1Value of x converted (the same set, canonical
// flag and error), and that it leaves x as it was.
func checkUnstructuredDecode(t *testing.T, x any) {
	t.Helper()
	before := fmt.Sprintf("%#v", x)
	got, canonical, gerr := fieldpath.ParseFieldsV1Unstructured(x)
	if after := fmt.Sprintf("%#v", x); after != before {
		t.Fatalf("%s: ParseFieldsV1Unstructured changed its input to %s", before, after)
	}
	var want *fieldpath.Set
	var wantCanon bool
	v, werr := value.FromUnstructured(x)
	if werr == nil {
		want, wantCanon, werr = fieldpath.ParseFieldsV1Value(v)
	}
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%s: ParseFieldsV1Unstructured error %v, of the value %v", before, gerr, werr)
	}
	if werr != nil {
		if got != nil || canonical {
			t.Fatalf("%s: a set %v or canonical %v with an error", before, got, canonical)
		}
		return
	}
	if !got.Equal(want) || canonical != wantCanon {
		t.Fatalf("%s: ParseFieldsV1Unstructured gives\n%v (canonical %v)\nthe value decoder\n%v (canonical %v)", before, got, canonical, want, wantCanon)
	}
	if enc, err := value.FromUnstructured(got.FieldsV1Unstructured()); err != nil {
		t.Fatal(err)
	} else if canonical != value.Equal(enc, v) {
		t.Fatalf("%s: canonical = %v, but the set encodes to %#v", before, canonical, got.FieldsV1Unstructured())
	}
}

// TestParseFieldsV1Unstructured covers what only Go data holds: Go types
// that are not JSON's, maps of other types, and data FromUnstructured
// rejects. (Every input of TestParseFieldsV1Value is also checked in its
// map form, as are the random sets of TestFieldsV1Value.)
func TestParseFieldsV1Unstructured(t *testing.T) {
	deep := map[string]any{}
	for range fieldpath.MaxFieldsV1Depth + 2 {
		deep = map[string]any{"f:a": deep}
	}
	for _, x := range []any{
		nil,
		map[string]any{"f:a": map[string]string{}},
		map[string]any{"f:a": map[string]any{"f:b": map[string]string{"f:c": "x"}}},
		map[string]any{"f:a": map[string]any{".": map[string]any{}, "f:b": map[string]any{}}},
		map[string]any{"f:a": map[string]any{".": nil, "f:b": map[string]any{}}},
		map[string]any{"f:a": []any{}},
		map[string]any{"f:a": int32(4)},
		map[string]any{"f:a": func() {}},
		map[string]any{"k:{\"a\":1}": map[string]any{}, "k:{\"a\":1.0}": map[string]any{}},
		map[string]any{"k:{\"a\": 1}": map[string]any{}, "k:{\"a\":1}": map[string]any{"f:b": map[string]any{}}},
		map[string]string{"f:a": "x"},
		"f:a",
		deep,
	} {
		checkUnstructuredDecode(t, x)
	}
}

func TestParseFieldsV1Value(t *testing.T) {
	inputs := []string{
		`{}`, `null`, `{"f:a":{}}`, `{".":{},"f:a":{}}`, `{"f:a":null}`, `{".":{}}`, `{"f:a":{".":{}}}`, `{"f:a":{".":{},"f:b":{}}}`,
		`{"f:a":{"f:b":{}}}`, `{"f:a":{".":null,"f:b":{}}}`, `{"f:a":{".":{"x":1},"f:b":{}}}`,
		`{"x:unknown":{"f:a":{}},"f:b":{}}`, `{"i:+4":{},"i:-1":{}}`, `{"i:4":{},"i:10":{}}`, `{"i:04":{}}`,
		`{"v:-0":{}}`, `{"v:1.0":{}}`, `{"v:1":{},"v:\"a\"":{},"v:true":{},"v:null":{}}`, `{"v:1":{},"v:1.0":{}}`,
		`{"k:null":{}}`, `{"k:{}":{}}`, `{"k:{\"a\":1,\"a\":0}":{}}`, `{"k:{\"b\":1,\"a\":0}":{}}`,
		`{"k:{\"name\":\"web\",\"port\":80}":{".":{},"f:image":{}}}`, `{"k:{ \"name\":\"web\"}":{}}`,
		`{"k:{\"a\":2}":{},"k:{\"a\":10}":{}}`, `{"k:{\"a\":\"\\u003c\"}":{}}`, `{"k:{\"a\":\"<\"}":{}}`,
		`{"v:{\"b\":[1,2.5,\"\\u003c\"],\"a\":null}":{}}`, `{"v:1e400":{}}`, `{"f:\ud800":{}}`,
		`{"i:9223372036854775807":{},"i:-9223372036854775808":{}}`, `{"f:a":[1]}`, `{"f:a":"x"}`, `{"q":{}}`, `{"k:{":{}}`,
		`{"f:a":{"f:b":{"f:c":{".":{}}}}}`, `{"f:a":{},"f:a\u0000":{}}`, `{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`,
	}
	for _, in := range inputs {
		v, err := value.FromJSON([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		checkValueDecode(t, v)
	}
	for _, g := range fieldsV1Golden {
		v, err := value.FromJSON([]byte(g.json))
		if err != nil {
			t.Fatalf("%s: %v", g.json, err)
		}
		checkValueDecode(t, v)
	}
	pod, err := os.ReadFile("testdata/pod-fieldsv1.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := value.FromJSON(pod)
	if err != nil {
		t.Fatal(err)
	}
	checkValueDecode(t, v)
	if _, canonical, _ := fieldpath.ParseFieldsV1Value(v); !canonical {
		t.Errorf("the Pod's managed fields, as the API server writes them, are not canonical")
	}
	// Invalid UTF-8, which only a value built from Go data holds.
	for _, name := range []string{"f:\xff", "k:{\"a\":\"\xff\"}", "v:\"\xff\""} {
		v, err := value.FromUnstructured(map[string]any{name: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		checkValueDecode(t, v)
	}
}

// checkFieldsV1Value checks s.FieldsV1Value against the decoding of s's
// text.
func checkFieldsV1Value(t *testing.T, s *fieldpath.Set) {
	t.Helper()
	want, err := value.FromJSON(s.MarshalFieldsV1())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.FieldsV1Value(); !value.Equal(got, want) {
		t.Fatalf("FieldsV1Value of\n%v\n= %s, want %s", s, value.ToJSON(got), value.ToJSON(want))
	}
	if got, want := s.FieldsV1Unstructured(), want.Unstructured(); !reflect.DeepEqual(got, want) {
		t.Fatalf("FieldsV1Unstructured of\n%v\n= %v, want %v", s, got, want)
	}
	checkUnstructuredDecode(t, s.FieldsV1Unstructured())
}

func TestFieldsV1Value(t *testing.T) {
	checkFieldsV1Value(t, nil)
	checkFieldsV1Value(t, fieldpath.NewSet())
	r := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		checkFieldsV1Value(t, fieldpathtest.RandomSet(r, 6))
	}
	for _, g := range fieldsV1Golden {
		s, err := fieldpath.ParseFieldsV1([]byte(g.json))
		if err != nil {
			t.Fatal(err)
		}
		checkFieldsV1Value(t, s)
	}
	bad := value.NewString("\xff<")
	checkFieldsV1Value(t, fieldpath.NewSet(
		fieldpath.Path{fieldpath.FieldName("a\xffb")},
		fieldpath.Path{fieldpath.FieldName("k"), fieldpath.Key([]value.Field{{Name: "n\xff", Value: bad}})},
		fieldpath.Path{fieldpath.FieldName("k"), fieldpath.Key([]value.Field{{Name: "n\xff", Value: bad}}), fieldpath.FieldName("x")},
		fieldpath.Path{fieldpath.FieldName("v"), fieldpath.MemberValue(bad)},
		fieldpath.Path{fieldpath.FieldName("i"), fieldpath.Index(-3)},
		fieldpath.Path{fieldpath.PathElement{}},
	))
}

// checkSharesEqualMaps fails unless every map of got equal to like's map
// at the same place is that map itself.
func checkSharesEqualMaps(t *testing.T, got, like value.Value, at string) {
	t.Helper()
	if got.Kind() != value.Map || like.Kind() != value.Map {
		return
	}
	if value.Equal(got, like) && !value.Same(got, like) {
		t.Fatalf("at %q: an equal map is not like's own: %s", at, value.ToJSON(got))
	}
	for _, f := range got.Fields() {
		if lf, ok := like.Get(f.Name); ok {
			checkSharesEqualMaps(t, f.Value, lf, at+"/"+f.Name)
		}
	}
}

func TestFieldsV1ValueLike(t *testing.T) {
	check := func(s *fieldpath.Set, like value.Value) value.Value {
		t.Helper()
		got, want := s.FieldsV1ValueLike(like), s.FieldsV1Value()
		if !value.Equal(got, want) {
			t.Fatalf("FieldsV1ValueLike of\n%v\nlike %s\n= %s, want %s", s, value.ToJSON(like), value.ToJSON(got), value.ToJSON(want))
		}
		if !strings.ContainsRune(string(s.MarshalFieldsV1()), utf8.RuneError) {
			// (A name of invalid UTF-8 makes the whole encoding afresh.)
			checkSharesEqualMaps(t, got, like, "")
		}
		return got
	}
	r := rand.New(rand.NewPCG(8, 8))
	shared := 0
	for i := range 600 {
		a := fieldpathtest.RandomSet(r, 8)
		// like as it is read from an object: a decoding, not a build.
		like, err := value.FromJSON(a.MarshalFieldsV1())
		if err != nil {
			t.Fatal(err)
		}
		var s *fieldpath.Set
		switch i % 4 {
		case 0:
			s = a.Union(fieldpath.NewSet())
		case 1:
			s = a.Union(fieldpathtest.RandomRelatedSet(r, a, 2))
		case 2:
			s = a.Difference(fieldpathtest.RandomRelatedSet(r, a, 2))
		default:
			s = fieldpathtest.RandomRelatedSet(r, a, 8)
		}
		got := check(s, like)
		if s.Equal(a) && !strings.ContainsRune(string(s.MarshalFieldsV1()), utf8.RuneError) {
			if !value.Same(got, like) {
				t.Fatalf("the encoding of an equal set is not like itself:\n%v", s)
			}
			shared++
		}
	}
	if shared < 150 {
		t.Errorf("only %d of 600 sets were equal to like's", shared)
	}
	// Likes that share nothing: not a map, and a map of other entries.
	s := fieldpathtest.RandomSet(r, 5)
	for _, like := range []value.Value{{}, value.NewString("f:a"), value.NewList(nil), fieldpathtest.RandomSet(r, 5).FieldsV1Value()} {
		check(s, like)
	}
	if got := fieldpath.NewSet().FieldsV1ValueLike(value.NewMap(nil)); got.Kind() != value.Map || got.Len() != 0 {
		t.Errorf("the empty set like {} = %s", value.ToJSON(got))
	}
	// Invalid UTF-8 in a name: the encoding's U+FFFD, like or not.
	bad := fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("a\xffb")}, fieldpath.Path{fieldpath.FieldName("c")})
	good := fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("c")})
	check(bad, good.FieldsV1Value())
}

// TestFieldsV1UnstructuredLike checks that encoding a set like the map
// another set was read from gives the set's own encoding, leaves that map
// as it was, and shares its maps where they encode the same.
func TestFieldsV1UnstructuredLike(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for i := range 300 {
		prev := fieldpathtest.RandomSet(r, 5)
		var s *fieldpath.Set
		switch i % 4 {
		case 0:
			s = prev
		case 1:
			s = prev.Union(fieldpathtest.RandomSet(r, 2))
		case 2:
			s = prev.Difference(fieldpathtest.RandomSet(r, 3))
		default:
			s = fieldpathtest.RandomSet(r, 5)
		}
		like := prev.FieldsV1Unstructured()
		before, err := json.Marshal(like)
		if err != nil {
			t.Fatal(err)
		}
		got := s.FieldsV1UnstructuredLike(prev, like)
		if want := s.FieldsV1Unstructured(); !reflect.DeepEqual(got, want) {
			t.Fatalf("FieldsV1UnstructuredLike of\n%v\nlike\n%v\n= %v, want %v", s, prev, got, want)
		}
		if after, _ := json.Marshal(like); string(after) != string(before) {
			t.Fatalf("FieldsV1UnstructuredLike changed like: %s, was %s", after, before)
		}
		if s.Equal(prev) && reflect.ValueOf(got).UnsafePointer() != reflect.ValueOf(like).UnsafePointer() {
			t.Fatalf("an equal set does not give like back")
		}
	}
	// A change under spec rebuilds the maps on its path only.
	pod, err := os.ReadFile("testdata/pod-fieldsv1.json")
	if err != nil {
		t.Fatal(err)
	}
	var like map[string]any
	if err := json.Unmarshal(pod, &like); err != nil {
		t.Fatal(err)
	}
	prev, canonical, err := fieldpath.ParseFieldsV1Unstructured(like)
	if err != nil || !canonical {
		t.Fatalf("the Pod's managed fields: canonical %v, %v", canonical, err)
	}
	s := prev.Union(fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("spec"), fieldpath.FieldName("added")}))
	got := s.FieldsV1UnstructuredLike(prev, like)
	if reflect.ValueOf(got["f:metadata"]).UnsafePointer() != reflect.ValueOf(like["f:metadata"]).UnsafePointer() {
		t.Errorf("the unchanged f:metadata is not like's map")
	}
	if reflect.ValueOf(got["f:spec"]).UnsafePointer() == reflect.ValueOf(like["f:spec"]).UnsafePointer() {
		t.Errorf("the changed f:spec is like's map")
	}
}

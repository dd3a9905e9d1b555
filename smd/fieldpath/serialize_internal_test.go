package fieldpath

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	corefieldpath "github.com/structmerge/structmerge/fieldpath"
	core "github.com/structmerge/structmerge/value"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// randomFieldsV1 writes a FieldsV1 document from keys that exercise both
// of FromJSON's readers: repeated keys, ".", null, unknown types, numbers
// that are equal as float64 (v:1 and v:1.0), keys with spaces and
// escapes, and key shapes SMD rejects.
func randomFieldsV1(r *rand.Rand, depth int) string {
	keys := []string{
		`"f:a"`, `"f:b"`, `"f:a"`, `"."`, `"i:0"`, `"i:01"`, `"i:+1"`, `"v:1"`, `"v:1.0"`, `"v:\"x\""`,
		`"v:1e-7"`, `"k:{\"name\":\"a\"}"`, `"k: {\"name\": \"a\" }"`, `"k:{\"a\":1,\"a\":2}"`, `"k:null"`,
		`"k:{\"port\":80,\"name\":\"p\"}"`, `"x:unknown"`, `"f:\u003cq\u003e"`, `"f:é"`, `"k:[1]"`, `"i:x"`,
	}
	var b strings.Builder
	b.WriteByte('{')
	for i := range r.IntN(5) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(keys[r.IntN(len(keys))])
		b.WriteByte(':')
		switch n := r.IntN(6); {
		case n == 0:
			b.WriteString("null")
		case n < 3 || depth == 0:
			b.WriteString("{}")
		default:
			b.WriteString(randomFieldsV1(r, depth-1))
		}
	}
	b.WriteByte('}')
	return b.String()
}

// checkReaders compares FromJSON's two readers on data: where structmerge's
// decoder gives a set, reading entry by entry gives the same set. It
// reports whether the decoder gave a set. One kind of input is read
// differently, and is excused only when data is of that kind: an object
// with two keys that name the same element (`"f:a"` twice, or `"v:1"` and
// `"v:1.0"`), or a k: key that repeats a field name. SMD reads entries in
// their order, members adding up and the last child winning, and accepts a
// repeated name in a key; so does the decoder (the conformance tests check
// it against SMD). The entry-by-entry reading refuses a name written twice
// and reads the other entries in sorted order.
func checkReaders(t *testing.T, data []byte) bool {
	t.Helper()
	fast, ok := parseFieldsV1(data)
	if !ok {
		return false
	}
	if !utf8.Valid(data) {
		// The decoder keeps the bytes of a name that is not UTF-8, as SMD
		// does; the JSON decoder replaces each such byte with U+FFFD. The
		// decoder's reading of data so replaced is what must agree.
		if fast, ok = parseFieldsV1(replaceInvalidUTF8(data)); !ok {
			return true
		}
	}
	slow, err := readEntries(data)
	fj, ferr := fast.ToJSON()
	sj, serr := slow.ToJSON()
	if (err != nil || !fast.Equals(slow) || ferr != nil || serr != nil || !bytes.Equal(fj, sj)) && !repeatsAnElement(t, data) {
		t.Errorf("%s:\ndecoder:        %s (%v)\nentry by entry: %s (%v, %v)", data, fj, ferr, sj, err, serr)
	}
	return true
}

// replaceInvalidUTF8 returns data with each byte that is not part of a
// UTF-8 sequence replaced by U+FFFD.
func replaceInvalidUTF8(data []byte) []byte {
	var out []byte
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, data[:size]...)
		}
		data = data[size:]
	}
	return out
}

// repeatsAnElement reports whether an object of data (valid FieldsV1 the
// decoder read) has two keys that name the same element, or a k: key that
// repeats a field name.
func repeatsAnElement(t *testing.T, data []byte) bool {
	t.Helper()
	var walk func(v core.Value) bool
	walk = func(v core.Value) bool {
		var seen []PathElement
		for _, f := range v.Fields() {
			if f.Name == "." {
				continue
			}
			pe, err := DeserializePathElement(f.Name)
			if err == ErrUnknownPathElementType {
				continue
			}
			if err != nil {
				// Only a k: key whose JSON repeats a field name is read by
				// the decoder and refused here.
				if !strings.Contains(err.Error(), "duplicate key") {
					t.Fatalf("%s: the decoder read the key %q, which does not parse: %v", data, f.Name, err)
				}
				return true
			}
			for _, p := range seen {
				if p.Equals(pe) {
					return true
				}
			}
			seen = append(seen, pe)
			if walk(f.Value) {
				return true
			}
		}
		return false
	}
	v, err := core.FromJSON(data)
	if err != nil {
		// The JSON decoder refuses only a key written twice in an object
		// here: the decoder read data.
		if !strings.Contains(err.Error(), "duplicate key") {
			t.Fatalf("%s: the decoder read it, the JSON decoder does not: %v", data, err)
		}
		return true
	}
	return walk(v)
}

// TestFromJSONReadersAgree: see checkReaders. Both outcomes must occur:
// inputs the decoder reads, and inputs left to the entry-by-entry reading.
func TestFromJSONReadersAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	read := 0
	const n = 5000
	for range n {
		if checkReaders(t, []byte(randomFieldsV1(r, 3))) {
			read++
		}
	}
	if read == 0 || read == n {
		t.Errorf("the decoder read %d of %d inputs; want some of each", read, n)
	}
}

func FuzzFromJSONReaders(f *testing.F) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 20 {
		f.Add([]byte(randomFieldsV1(r, 3)))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkReaders(t, data) })
}

// TestSetFromCoreMergesEqualElements: elements that are distinct in
// structmerge's set and equal once converted (here every number becomes
// 0) are one element of the result, with their children together.
func TestSetFromCoreMergesEqualElements(t *testing.T) {
	one, two := corefieldpath.MemberValue(core.NewInt(1)), corefieldpath.MemberValue(core.NewInt(2))
	s := corefieldpath.NewSet(
		corefieldpath.Path{corefieldpath.FieldName("a"), one},
		corefieldpath.Path{corefieldpath.FieldName("a"), two, corefieldpath.FieldName("x")},
		corefieldpath.Path{corefieldpath.FieldName("a"), one, corefieldpath.FieldName("y")},
		corefieldpath.Path{corefieldpath.FieldName("b")},
	)
	got := setFromCore(s, func(core.Value) interface{} { return 0 })
	zero := value.NewValueInterface(0)
	want := NewSet(
		MakePathOrDie("a", zero),
		MakePathOrDie("a", zero, "x"),
		MakePathOrDie("a", zero, "y"),
		MakePathOrDie("b"),
	)
	if !got.Equals(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestKeyWrittenSorted: a key whose fields a caller lists out of order is
// written with its fields sorted by name, whether or not its values need
// escaping (the plain writer and the engine's encoder agree).
func TestKeyWrittenSorted(t *testing.T) {
	for _, v := range []string{"x", "x\"y"} {
		unsorted := value.FieldList{{Name: "port", Value: value.NewValueInterface(80)}, {Name: "name", Value: value.NewValueInterface(v)}}
		sorted := value.FieldList{unsorted[1], unsorted[0]}
		got, err := appendKey(nil, PathElement{Key: &unsorted})
		if err != nil {
			t.Fatal(err)
		}
		want, err := appendKey(nil, PathElement{Key: &sorted})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || !bytes.HasPrefix(want, []byte(`"k:{\"name\":`)) {
			t.Errorf("key %q: written %s, sorted %s", v, got, want)
		}
	}
}

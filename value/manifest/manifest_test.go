package manifest_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/manifest"
	"github.com/structmerge/structmerge/value/valuetest"
)

// The values Decode gives are compared with kubectl's decoder in
// conformance/manifest_test.go; these tests cover what only structmerge
// has: lines, positions, repeated keys, limits.

func TestDecodePositions(t *testing.T) {
	in := "# comment\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: 1\n  x: 2\nlist:\n- a\n-   b\n---\n\n  {p: 1}\n"
	docs, err := manifest.Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("got %d documents, want 2", len(docs))
	}
	if docs[0].Line != 2 || docs[0].Column != 1 || docs[1].Line != 14 || docs[1].Column != 3 {
		t.Errorf("document starts: %d:%d and %d:%d, want 2:1 and 14:3", docs[0].Line, docs[0].Column, docs[1].Line, docs[1].Column)
	}
	for _, tc := range []struct {
		doc        int
		ptr        string
		line, col  int
		wantExists bool
	}{
		{0, "/metadata/name", 5, 3, true},
		{0, "/data/x", 8, 3, true},
		{0, "/list/1", 11, 5, true},
		{1, "/p", 14, 4, true},
		{0, "/nothere", 0, 0, false},
	} {
		line, col, ok := docs[tc.doc].Position(tc.ptr)
		if line != tc.line || col != tc.col || ok != tc.wantExists {
			t.Errorf("Position(%q) = %d:%d %v, want %d:%d %v", tc.ptr, line, col, ok, tc.line, tc.col, tc.wantExists)
		}
	}
	want := []manifest.DuplicateKey{{Path: "/data/x", Line: 8, Column: 3, FirstLine: 7, FirstColumn: 3}}
	if got := docs[0].Duplicates; len(got) != 1 || got[0] != want[0] {
		t.Errorf("Duplicates = %+v, want %+v", got, want)
	}
	if got, _ := docs[0].Value.Get("data"); string(value.ToJSON(got)) != `{"x":2}` {
		t.Errorf("data = %s, want the last value", value.ToJSON(got))
	}
}

func TestDecodeDuplicateSpellings(t *testing.T) {
	// yes and true are the same key in YAML 1.1; "1" and 1 give the same text.
	docs, err := manifest.Decode([]byte("m:\n  yes: 1\n  true: 2\n  '1': a\n  1: b\n  \"k\": c\n  k: d\n"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, d := range docs[0].Duplicates {
		paths = append(paths, d.Path)
	}
	if got := len(paths); got != 3 {
		t.Fatalf("duplicates %v, want /m/true, /m/1 and /m/k", paths)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
		sentinel error
	}{
		{"separator", "a: 1\n--- b\n", 2, nil},
		{"parse", "a: 1\n---\nb: 1\nc: [\n", 4, nil},
		{"infinity", "a: 1\n---\nb: .inf\n", 3, nil},
		{"deep", "a: " + string(bytes.Repeat([]byte("["), 40)) + string(bytes.Repeat([]byte("]"), 40)), 1, value.ErrTooDeep},
		{"aliases", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n", 0, value.ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := manifest.Decode([]byte(tc.in), value.MaxDepth(32))
			var se *value.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *SyntaxError", err, err)
			}
			if se.Line != tc.line {
				t.Errorf("line %d, want %d: %v", se.Line, tc.line, err)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tc.sentinel)
			}
		})
	}
}

// FuzzDecode checks that reading never panics, never modifies its
// input, and that every error is a *SyntaxError. (conformance's
// FuzzManifest compares the values with kubectl's decoder.)
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"a: yes\nb: [1, 0x1f, 1.0, ~]\n---\nc: &x {d: 1}\ne: *x\nf:\n  <<: *x\n",
		"{\"a\": 1}\n{\"b\": 2}\nc: 3\n",
		"a: 1\na: 2\n--- # c\n...\n",
		"\ufeffa: 1\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		docs, err := manifest.Decode(data, value.MaxDepth(64), value.MaxBytes(1<<16))
		if !bytes.Equal(in, data) {
			t.Fatal("FromManifest modified its input")
		}
		if err != nil {
			var se *value.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SyntaxError: %v", err, err)
			}
			return
		}
		for _, d := range docs {
			for _, dup := range d.Duplicates {
				if _, _, ok := d.Position(dup.Path); !ok {
					t.Errorf("no position for repeated key %s", dup.Path)
				}
			}
		}
	})
}

// TestDecodeReadsToYAML checks that what ToYAML writes (blame's
// output, objects printed by apply) reads back as the same value under
// kubectl's YAML 1.1 rules: strings such as "yes", "y" or "0777" must be
// quoted.
func TestDecodeReadsToYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	for i := range 2000 {
		v := valuetest.Random(r, 1+r.IntN(4))
		if v.Kind() != value.Map {
			v = value.NewMap([]value.Field{{Name: "v", Value: v}})
		}
		y := value.ToYAML(v)
		docs, err := manifest.Decode(y)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, y)
		}
		if len(docs) != 1 || !value.Equal(docs[0].Value, v) {
			t.Fatalf("case %d: read back differs\nwrote:\n%s\nread: %v", i, y, docs)
		}
	}
	for _, s := range []string{"y", "N", "yes", "On", "0777", "1_000", "2001-12-14", "0b101", "+12", ".5", "~", "", "<<", "--- x", "012_3"} {
		v := value.NewMap([]value.Field{{Name: s, Value: value.NewString(s)}})
		docs, err := manifest.Decode(value.ToYAML(v))
		if err != nil || len(docs) != 1 || !value.Equal(docs[0].Value, v) {
			t.Errorf("%q: read back as %v (%v)", s, docs, err)
		}
	}
}

func TestDecodeJSONPositions(t *testing.T) {
	in := "{\"a\": 1,\n \"b\": [10,\n   {\"c\": \"x\", \"c\": \"y\"}],\n \"a\": 2}\n{\"d\": {}}"
	docs, err := manifest.Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[1].Line != 5 || docs[1].Column != 1 {
		t.Fatalf("documents %+v", docs)
	}
	for _, tc := range []struct {
		doc       int
		ptr       string
		line, col int
	}{
		{0, "/a", 4, 2},
		{0, "/b", 2, 2},
		{0, "/b/0", 2, 8},
		{0, "/b/1", 3, 4},
		{0, "/b/1/c", 3, 15},
		{1, "/d", 5, 2},
	} {
		line, col, ok := docs[tc.doc].Position(tc.ptr)
		if !ok || line != tc.line || col != tc.col {
			t.Errorf("Position(%q) = %d:%d %v, want %d:%d", tc.ptr, line, col, ok, tc.line, tc.col)
		}
	}
	want := []manifest.DuplicateKey{
		{Path: "/b/1/c", Line: 3, Column: 15, FirstLine: 3, FirstColumn: 5},
		{Path: "/a", Line: 4, Column: 2, FirstLine: 1, FirstColumn: 2},
	}
	if got := docs[0].Duplicates; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Duplicates = %+v, want %+v", got, want)
	}
}

// TestDecodeConcurrent decodes one manifest from many goroutines: each
// gets what a lone call gets.
func TestDecodeConcurrent(t *testing.T) {
	in := []byte("a: yes\nb: [1, 2.0, {c: d}]\nb: again\n---\n{\"e\": 1}\n")
	want, err := manifest.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				got, err := manifest.Decode(in)
				if err != nil || len(got) != len(want) {
					t.Errorf("Decode: %d documents, %v", len(got), err)
					return
				}
				for i := range got {
					if !value.Equal(got[i].Value, want[i].Value) || len(got[i].Duplicates) != len(want[i].Duplicates) {
						t.Errorf("document %d: %v, want %v", i, got[i].Value, want[i].Value)
					}
				}
			}
		})
	}
	wg.Wait()
}

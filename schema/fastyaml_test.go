package schema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// sameTree compares a tree from fastYAML with yaml.v3's: kinds, tags,
// values, styles, positions and shape (comments aside).
func sameTree(fast, lib *yaml.Node, path string) error {
	if fast.Kind != lib.Kind || fast.Tag != lib.Tag || fast.Value != lib.Value || fast.Style != lib.Style ||
		fast.Anchor != lib.Anchor || (fast.Alias == nil) != (lib.Alias == nil) {
		return fmt.Errorf("%s: fast {kind %v tag %s value %q style %v} != yaml.v3 {kind %v tag %s value %q style %v}",
			path, fast.Kind, fast.Tag, fast.Value, fast.Style, lib.Kind, lib.Tag, lib.Value, lib.Style)
	}
	if fast.Kind != yaml.DocumentNode && (fast.Line != lib.Line || fast.Column != lib.Column) {
		return fmt.Errorf("%s (%q): fast at %d:%d, yaml.v3 at %d:%d", path, fast.Value, fast.Line, fast.Column, lib.Line, lib.Column)
	}
	if len(fast.Content) != len(lib.Content) {
		return fmt.Errorf("%s: fast has %d children, yaml.v3 %d", path, len(fast.Content), len(lib.Content))
	}
	for i := range fast.Content {
		if err := sameTree(fast.Content[i], lib.Content[i], fmt.Sprintf("%s/%d", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// checkFastYAML checks that when fastYAML reads data, yaml.v3 reads the same
// tree, and Parse gives the same Document (lines included) either way. It
// reports whether fastYAML read the input.
func checkFastYAML(t testing.TB, data []byte) bool {
	t.Helper()
	fast, ok := fastYAML(data)
	if !ok {
		return false
	}
	var lib yaml.Node
	if err := yaml.Unmarshal(data, &lib); err != nil {
		t.Fatalf("fastYAML read input yaml.v3 rejects (%v):\n%s", err, data)
	}
	if err := sameTree(fast, &lib, ""); err != nil {
		t.Fatalf("%v\ninput:\n%s", err, data)
	}
	d1, err1 := Parse(data)
	d2, err2 := parseWithLibrary(data)
	if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
		t.Fatalf("Parse: %v\nparseWithLibrary: %v", err1, err2)
	}
	if diff := cmp.Diff(d2, d1, cmpValues); diff != "" {
		t.Fatalf("Parse differs from parseWithLibrary (-library +fast):\n%s", diff)
	}
	return true
}

// fastYAMLCases are inputs for the fast reader, and whether it should read
// them (false: it must hand them to yaml.v3).
var fastYAMLCases = []struct {
	in   string
	fast bool
}{
	{"types:\n- name: a\n  scalar: string\n", true},
	{"# head\ntypes: # c\n  # between\n- name: a # trailing\n\n  map:\n    fields:\n    - name: x\n      type:\n        scalar: numeric\n      default: 0\n", true},
	{"a:\n  b:\n  - x\n  - y\n  c: d\n", true},
	{"a:\n- x\n- y\nb: c\n", true},
	{"a:\n  - x\n  -   k: v\n      l: w\n", true},
	{"a: [ \"name\" ]\nb: {}\nc: []\nd: {x: 1, y: [a, b]}\ne: ['it''s', \"q\"]\n", true},
	{"a: 'x' # c\nb: \"y\"\n'c': d\n\"e\" : f\n", true},
	{"n: ~\nb: true\nc: False\nd: 1.5\ne: -3\nf: .inf\ng: 0x1F\nh: 1e3\ni: 2001-12-14\nj: +.5\nk: -x\nl: .dot\nm: 012\n", true},
	{"url: http://example.com/a:b\nk: a#b\n", true},
	{"a:    spaced   \nb: x  # c\n", true},
	{"a: yes\nb: on\nc: <<\n", true},
	// Not in the subset: handed to yaml.v3.
	{"", false},
	{"# only a comment\n", false},
	{"---\na: b\n", false},
	{"a: b\n...\n", false},
	{"a:\nb: c\n", false},
	{"a: &x b\nc: *x\n", false},
	{"a: !!str 1\n", false},
	{"a: |\n  text\n", false},
	{"a: >\n  text\n", false},
	{"a: multi\n  line\n", false},
	{"a: \"esc\\n\"\n", false},
	{"a: 'multi\n  line'\n", false},
	{"a: [x,\n  y]\n", false},
	{"a: [x,]\n", false},
	{"a: {x}\n", false},
	{"a: {\"x\":1}\n", false},
	{"? a\n: b\n", false},
	{"a:\tb\n", false},
	{"a: b\r\n", false},
	{"a: é\n", false},
	{"- - a\n", false},
	{"-\n- a\n", false},
	{"a: b: c\n", false},
	{"a: b\n c\n", false},
	{"a: b\n  c: d\n", false},
	{"  a: b\n", false},
	{"scalar\n", false},
	{"[a, b]\n", false},
	{"a: -\n", false},
	{"a: ---\n", false},
	{"a: [a: b]\n", false},
	{"0: {0: [{?: {}}]}\n", false},
	{"a: [?x, -1, :y]\n", false},
	{"a: [-x, -1, -.5]\n", true},
	{"0: [0?]\n", false},
	{"a: x\n- b\n", false},
	{"a: '\n", false},
	{strings.Repeat("k", 1100) + ": v\n", false},
	{"a: {" + strings.Repeat("k", 1100) + ": v}\n", false},
	{"a" + strings.Repeat(" ", 1100) + ": v\n", false},
	{"a: {k" + strings.Repeat(" ", 1100) + ": v}\n", false},
	{"a: " + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + "\n", false},
}

func TestFastYAML(t *testing.T) {
	for _, tc := range fastYAMLCases {
		if got := checkFastYAML(t, []byte(tc.in)); got != tc.fast {
			t.Errorf("fastYAML(%q) read it: %v, want %v", tc.in, got, tc.fast)
		}
	}
	// Every schema of the corpus is in the subset, or at least read right.
	valid, rejected := corpus(t)
	for _, name := range append(valid, rejected...) {
		data := readSchema(t, name)
		if !checkFastYAML(t, data) && !strings.Contains(name, "invalid") {
			t.Errorf("%s: not read by fastYAML", name)
		}
	}
	// So are all Marshal outputs.
	doc, err := Parse(readSchema(t, "basic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !checkFastYAML(t, out) {
		t.Error("Marshal output not read by fastYAML")
	}
}

// FuzzFastYAML checks fastYAML against yaml.v3 on arbitrary input: whatever
// it reads, yaml.v3 reads into the same tree.
func FuzzFastYAML(f *testing.F) {
	for _, tc := range fastYAMLCases {
		f.Add([]byte(tc.in))
	}
	for _, tc := range parseErrorCases {
		f.Add([]byte(tc.in))
	}
	f.Add(readSchema(f, "basic.yaml"))
	f.Add(readSchema(f, "smd/schema.yaml"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastYAML(t, data)
	})
}

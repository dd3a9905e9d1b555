package value_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
)

type yamlDecodeCase struct {
	name     string
	in       string
	want     value.Value
	err      string // the full message
	sentinel error
}

var yamlDecodeCases = []yamlDecodeCase{
	{name: "empty", in: "", want: vNull},
	{name: "comment only", in: "# nothing\n", want: vNull},
	{name: "explicit null", in: "~", want: vNull},
	{name: "mapping", in: "b: 1\na: two\n", want: valuetest.Map("a", vStr("two"), "b", vInt(1))},
	{name: "nested", in: "spec:\n  replicas: 3\n  list:\n  - a\n  - {x: 1}\n", want: valuetest.Map("spec", valuetest.Map("replicas", vInt(3), "list", listOf(vStr("a"), valuetest.Map("x", vInt(1)))))},
	{name: "flow", in: "[1, 'two', \"three\", [], {}]", want: listOf(vInt(1), vStr("two"), vStr("three"), listOf(), valuetest.Map())},
	{name: "yaml 1.1 booleans are strings", in: "[yes, no, on, off, y, n, Yes]", want: listOf(vStr("yes"), vStr("no"), vStr("on"), vStr("off"), vStr("y"), vStr("n"), vStr("Yes"))},
	{name: "booleans", in: "[true, True, TRUE, false, False, FALSE]", want: listOf(vBool(true), vBool(true), vBool(true), vBool(false), vBool(false), vBool(false))},
	{name: "nulls", in: "a:\nb: ~\nc: null\nd: Null\ne: NULL\n", want: valuetest.Map("a", vNull, "b", vNull, "c", vNull, "d", vNull, "e", vNull)},
	{name: "ints", in: "[0, -7, +8, 0x1F, 0o17, 017, 0b101, 1_000, 9223372036854775807, -9223372036854775808]",
		want: listOf(vInt(0), vInt(-7), vInt(8), vInt(31), vInt(15), vInt(15), vInt(5), vInt(1000), vInt(math.MaxInt64), vInt(math.MinInt64))},
	{name: "big ints become floats", in: "[18446744073709551615, -9223372036854775809, 123456789012345678901234567890]",
		want: listOf(vFlt(18446744073709551615), vFlt(-9223372036854775809), vFlt(123456789012345678901234567890))},
	{name: "floats", in: "[1.5, -0.5, .5, 1e3, 1.0, 6.02e+23, 1_0.5]", want: listOf(vFlt(1.5), vFlt(-0.5), vFlt(0.5), vFlt(1000), vFlt(1), vFlt(6.02e23), vFlt(10.5))},
	{name: "float out of range is a string", in: "1e400", want: vStr("1e400")},
	{name: "strings that look like other things", in: "['1', \"true\", '~', '', 0x, 1.2.3, 2001-12-14, 12:30:00, -, <<x]",
		want: listOf(vStr("1"), vStr("true"), vStr("~"), vStr(""), vStr("0x"), vStr("1.2.3"), vStr("2001-12-14"), vStr("12:30:00"), vStr("-"), vStr("<<x"))},
	{name: "explicit tags", in: "[!!str 1, !!int '2', !!float 3, !!bool 'true', !!null '', !!str null, !custom x, !!binary aGk=, !!timestamp 2001-12-14]",
		want: listOf(vStr("1"), vInt(2), vFlt(3), vBool(true), vNull, vStr("null"), vStr("x"), vStr("hi"), vStr("2001-12-14"))},
	{name: "block scalars", in: "a: |\n  line 1\n  line 2\nb: >\n  folded\n  text\nc: |-\n  kept\n", want: valuetest.Map("a", vStr("line 1\nline 2\n"), "b", vStr("folded text\n"), "c", vStr("kept"))},
	{name: "non-string keys", in: "1: a\n0x1F: b\n1.5: c\ntrue: d\n~: e\n0.1: f\n1e3: g\n.inf: h\n-.Inf: i\n.nan: j\n", want: valuetest.Map(
		"1", vStr("a"), "31", vStr("b"), "1.5", vStr("c"), "true", vStr("d"), "null", vStr("e"), "0.1", vStr("f"), "1000", vStr("g"), ".inf", vStr("h"), "-.inf", vStr("i"), ".nan", vStr("j"))},
	{name: "quoted merge key is a string", in: "'<<': 1", want: valuetest.Map("<<", vInt(1))},
	{name: "anchors and aliases", in: "a: &x {k: [1, 2]}\nb: *x\nc: &s str\nd: *s\n*s : key\n",
		want: valuetest.Map("a", valuetest.Map("k", listOf(vInt(1), vInt(2))), "b", valuetest.Map("k", listOf(vInt(1), vInt(2))), "c", vStr("str"), "d", vStr("str"), "str", vStr("key"))},
	{name: "merge", in: "base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  b: 3\n  c: 4\n",
		want: valuetest.Map("base", valuetest.Map("a", vInt(1), "b", vInt(2)), "m", valuetest.Map("a", vInt(1), "b", vInt(3), "c", vInt(4)))},
	{name: "merge list first wins", in: "x: &x {a: 1, b: 1}\ny: &y {b: 2, c: 2}\nm:\n  c: 3\n  <<: [*x, *y, {d: 4}]\n",
		want: valuetest.Map("x", valuetest.Map("a", vInt(1), "b", vInt(1)), "y", valuetest.Map("b", vInt(2), "c", vInt(2)), "m", valuetest.Map("a", vInt(1), "b", vInt(1), "c", vInt(3), "d", vInt(4)))},
	{name: "nested merge", in: "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\n",
		want: valuetest.Map("a", valuetest.Map("x", vInt(1)), "b", valuetest.Map("x", vInt(1), "y", vInt(2)), "c", valuetest.Map("x", vInt(1), "y", vInt(2), "z", vInt(3)))},
	{name: "anchor inside merge used later", in: "<<: &m {a: 1}\nb: *m\n", want: valuetest.Map("a", vInt(1), "b", valuetest.Map("a", vInt(1)))},
	{name: "document marker", in: "---\na: 1\n...\n", want: valuetest.Map("a", vInt(1))},
	{name: "trailing empty document", in: "a: 1\n---\n", want: valuetest.Map("a", vInt(1))},
	{name: "json is yaml", in: `{"a": [1, 2.5, "x", null, true]}`, want: valuetest.Map("a", listOf(vInt(1), vFlt(2.5), vStr("x"), vNull, vBool(true)))},

	// The parser's line numbers: none for some errors on line 1, and
	// sometimes the line before the problem.
	{name: "syntax error", in: "a: b: c\n", err: "yaml: mapping values are not allowed in this context"},
	{name: "syntax error on line 2", in: "a: 1\nb: c: d\n", err: "yaml: line 2: mapping values are not allowed in this context"},
	{name: "bad indentation", in: "a:\n  b: 1\n c: 2\n", err: "yaml: line 2: did not find expected key"},
	{name: "tab indentation", in: "a:\n\tb: 1\n", err: "yaml: line 2: found character that cannot start any token"},
	{name: "duplicate key", in: "spec:\n  a: 1\n  b: 2\n  a: 3\n", err: `yaml: line 4, column 3 (at /spec/a): mapping key "a" already defined at line 2, column 3`},
	{name: "duplicate after conversion", in: "1: a\n'1': b\n", err: `yaml: line 2, column 1 (at /1): mapping key "1" already defined at line 1, column 1`},
	{name: "duplicate merge key", in: "a: &a {x: 1}\nb:\n  <<: *a\n  <<: *a\n", err: `yaml: line 4, column 3 (at /b): mapping key "<<" already defined at line 3, column 3`},
	{name: "map as key", in: "? {a: 1}\n: x\n", err: "yaml: line 1, column 3: a mapping cannot be a mapping key"},
	{name: "list as key", in: "top:\n  ? [a]\n  : x\n", err: "yaml: line 2, column 5 (at /top): a sequence cannot be a mapping key"},
	{name: "nan", in: "a: [1, .nan]\n", err: "yaml: line 1, column 8 (at /a/1): .nan cannot be represented in JSON"},
	{name: "inf", in: "a: -.inf\n", err: "yaml: line 1, column 4 (at /a): -.inf cannot be represented in JSON"},
	{name: "bad explicit int", in: "x: !!int abc\n", err: `yaml: line 1, column 4 (at /x): cannot decode "abc" as an integer`},
	{name: "bad explicit bool", in: "x: !!bool yes\n", err: `yaml: line 1, column 4 (at /x): cannot decode "yes" as a boolean`},
	{name: "bad explicit float", in: "x: !!float 1e400\n", err: `yaml: line 1, column 4 (at /x): number 1e400 is out of the range of a float64`},
	{name: "bad explicit null", in: "x: !!null a\n", err: `yaml: line 1, column 4 (at /x): cannot decode "a" as null`},
	{name: "map tag on a list", in: "x: !!map [1]\n", err: `yaml: line 1, column 4 (at /x): cannot decode a sequence as !!map`},
	{name: "bad merge", in: "a:\n  <<: 1\n", err: "yaml: line 2, column 7 (at /a/<<): map merge requires a map or a sequence of maps as the value"},
	{name: "bad merge item", in: "a:\n  <<: [{}, [1]]\n", err: "yaml: line 2, column 12 (at /a/<<): map merge requires a map or a sequence of maps as the value"},
	{name: "unknown anchor", in: "a: *x\n", err: `yaml: unknown anchor 'x' referenced`},
	{name: "recursive alias", in: "a: &x [1, *x]\n", err: `yaml: line 1, column 11 (at /a/1): alias *x refers to a value that contains it`},
	{name: "two documents", in: "a: 1\n---\nb: 2\n", err: "yaml: line 3: found a second document where one was expected"},
	{name: "invalid utf8", in: "a: \xff\n", err: "yaml: invalid leading UTF-8 octet"},
}

func TestFromYAML(t *testing.T) {
	for _, tc := range yamlDecodeCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := value.FromYAML([]byte(tc.in))
			if tc.err != "" {
				if err == nil {
					t.Fatalf("FromYAML(%q) = %v, want error %q", tc.in, got, tc.err)
				}
				if err.Error() != tc.err {
					t.Fatalf("FromYAML(%q) error:\n got  %s\n want %s", tc.in, err, tc.err)
				}
				var se *value.SyntaxError
				if !errors.As(err, &se) || se.Offset != -1 {
					t.Fatalf("error %#v is not a YAML *SyntaxError", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("FromYAML(%q): %v", tc.in, err)
			}
			if !valuetest.Identical(got, tc.want) {
				t.Fatalf("FromYAML(%q) =\n %v\nwant\n %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestFromYAMLDocuments(t *testing.T) {
	in := "# leading comment\n---\na: 1\n---\n---\n# only a comment\n---\n- x\n---\n~\n"
	docs, err := value.FromYAMLDocuments([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []value.Document{{Value: valuetest.Map("a", vInt(1)), Line: 3}, {Value: listOf(vStr("x")), Line: 8}, {Value: vNull, Line: 10}}
	if len(docs) != len(want) {
		t.Fatalf("got %d documents %v, want %d", len(docs), docs, len(want))
	}
	for i := range want {
		if !valuetest.Identical(docs[i].Value, want[i].Value) || docs[i].Line != want[i].Line {
			t.Errorf("document %d = %v at line %d, want %v at line %d", i, docs[i].Value, docs[i].Line, want[i].Value, want[i].Line)
		}
	}
	docs, err = value.FromYAMLDocuments(nil)
	if err != nil || len(docs) != 0 {
		t.Fatalf("empty stream: %v, %v", docs, err)
	}
	_, err = value.FromYAMLDocuments([]byte("a: 1\n---\nb: [1, .inf]\n"))
	if err == nil || err.Error() != "yaml: line 3, column 8 (at /b/1): .inf cannot be represented in JSON" {
		t.Fatalf("error in second document: %v", err)
	}
	// Like go.yaml.in/yaml/v3, an alias may refer to an anchor of an
	// earlier document.
	docs, err = value.FromYAMLDocuments([]byte("a: &x [1]\n---\nb: *x\n"))
	if err != nil || len(docs) != 2 || docs[1].Value.String() != `{"b":[1]}` {
		t.Fatalf("alias to an anchor of an earlier document: %v, %v", docs, err)
	}
}

func TestFromYAMLLimits(t *testing.T) {
	_, err := value.FromYAML([]byte("a: [[{b: 1}]]\n"), value.MaxDepth(3))
	if !errors.Is(err, value.ErrTooDeep) || err.Error() != "yaml: line 1, column 6 (at /a/0/0): nesting exceeds the maximum depth of 3" {
		t.Fatalf("got %v, want ErrTooDeep", err)
	}
	if _, err := value.FromYAML([]byte("a: [[{b: 1}]]\n"), value.MaxDepth(4)); err != nil {
		t.Fatalf("depth 4: %v", err)
	}
	// Depth counts through aliases.
	_, err = value.FromYAML([]byte("x: &x [[1]]\ny: [*x]\n"), value.MaxDepth(3))
	if !errors.Is(err, value.ErrTooDeep) || err.Error() != "yaml: line 2, column 5 (at /y/0): nesting exceeds the maximum depth of 3" {
		t.Fatalf("got %v, want ErrTooDeep at the alias", err)
	}
	_, err = value.FromYAML([]byte("a: 1\nb: 2\n"), value.MaxBytes(6))
	if !errors.Is(err, value.ErrTooLarge) || err.Error() != "yaml: line 2, column 2: input of 10 bytes exceeds the limit of 6 bytes" {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	hostile := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	if _, err := value.FromYAML([]byte(hostile)); err == nil {
		t.Fatal("deeply nested input accepted")
	}
}

// billionLaughs returns a document whose aliases expand to 10^levels nodes.
func billionLaughs(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < levels; i++ {
		p := "*l" + string(rune('0'+i-1))
		b.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
	}
	return b.String()
}

func TestFromYAMLAliasBudget(t *testing.T) {
	start := time.Now()
	_, err := value.FromYAML([]byte(billionLaughs(9)))
	if !errors.Is(err, value.ErrTooLarge) || !strings.Contains(err.Error(), "alias expansion exceeds the limit of 1000000 nodes") {
		t.Fatalf("got %v, want ErrTooLarge for alias expansion", err)
	}
	t.Logf("billion laughs rejected after %v", time.Since(start))
	// A moderate expansion is fine and shares memory.
	v, err := value.FromYAML([]byte(billionLaughs(4)))
	if err != nil {
		t.Fatal(err)
	}
	l3, _ := v.Get("l3")
	if n := countNodes(l3); n != 11111 {
		t.Fatalf("l3 has %d nodes, want 11111", n)
	}
}

func countNodes(v value.Value) int {
	n := 1
	for _, it := range v.Items() {
		n += countNodes(it)
	}
	for _, f := range v.Fields() {
		n += countNodes(f.Value)
	}
	return n
}

func TestToYAML(t *testing.T) {
	v := valuetest.Map(
		"kind", vStr("Pod"),
		"metadata", valuetest.Map("name", vStr("web"), "labels", valuetest.Map("app", vStr("yes"), "tier", vStr("1"))),
		"spec", valuetest.Map("containers", listOf(valuetest.Map("name", vStr("c"), "args", listOf(vStr("a: b"), vStr(""), vStr("null"))), valuetest.Map("name", vStr("d"))),
			"replicas", vInt(3), "ratio", vFlt(0.5), "big", vFlt(1e21), "whole", vFlt(2), "on", vBool(true), "none", vNull,
			"empty", listOf(), "emptyMap", valuetest.Map(), "script", vStr("echo hi\nexit 0\n"), "tab", vStr("\tx\ny")),
	)
	want := `kind: Pod
metadata:
  labels:
    app: "yes"
    tier: "1"
  name: web
spec:
  big: 1e+21
  containers:
  - args:
    - 'a: b'
    - ""
    - "null"
    name: c
  - name: d
  empty: []
  emptyMap: {}
  none: null
  "on": true
  ratio: 0.5
  replicas: 3
  script: |
    echo hi
    exit 0
  tab: "\tx\ny"
  whole: 2
`
	if got := string(value.ToYAML(v)); got != want {
		t.Fatalf("ToYAML =\n%s\nwant\n%s", got, want)
	}
	for _, tc := range []struct {
		v    value.Value
		want string
	}{
		{vNull, "null\n"}, {vStr("x"), "x\n"}, {vInt(-1), "-1\n"}, {listOf(), "[]\n"}, {valuetest.Map(), "{}\n"},
		{vFlt(math.NaN()), "null\n"}, {vStr("a\xffb"), "a\ufffdb\n"},
	} {
		if got := string(value.ToYAML(tc.v)); got != tc.want {
			t.Errorf("ToYAML(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestYAMLRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 5000 {
		v := valuetest.Random(r, 5)
		y := value.ToYAML(v)
		got, err := value.FromYAML(y)
		if err != nil {
			t.Fatalf("FromYAML(ToYAML(%v)): %v\n%s", v, err, y)
		}
		if !value.Equal(got, v) {
			t.Fatalf("round trip changed the value:\n in  %v\n out %v\nyaml:\n%s", v, got, y)
		}
	}
	// Every string of the pool, as a key and as a value.
	for _, s := range valuetest.Strings {
		v := valuetest.Map(s, listOf(vStr(s), valuetest.Map(s, vStr(s))))
		got, err := value.FromYAML(value.ToYAML(v))
		if err != nil || !value.Equal(got, v) {
			t.Fatalf("round trip of %q: %v, %v\n%s", s, got, err, value.ToYAML(v))
		}
	}
}

// TestJSONIsYAML checks that the JSON encoding of any value decodes as YAML
// to the same value.
func TestJSONIsYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 3000 {
		v := valuetest.Random(r, 4)
		data := value.ToJSON(v)
		if strings.Contains(string(data), "\u0085") {
			continue // YAML reads a raw NEL as a line break; JSON does not
		}
		got, err := value.FromYAML(data)
		if err != nil {
			if strings.Contains(err.Error(), "found character that cannot start any token") || strings.Contains(err.Error(), "control characters") {
				continue // YAML forbids some characters JSON allows raw, such as U+FEFF inside flow
			}
			t.Fatalf("FromYAML(%s): %v", data, err)
		}
		if !value.Equal(got, v) {
			t.Fatalf("FromYAML(%s) = %v", data, got)
		}
	}
}

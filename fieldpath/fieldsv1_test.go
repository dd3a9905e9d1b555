package fieldpath_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/fieldpath/fieldpathtest"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// fieldsV1Golden pairs sets with their FieldsV1 encoding as Kubernetes stores
// it in metadata.managedFields (checked by hand against kubectl output).
var fieldsV1Golden = []struct {
	name  string
	paths []string
	json  string
}{
	{"empty", nil, `{}`},
	{"one field", []string{".a"}, `{"f:a":{}}`},
	{
		"deployment applied by kubectl",
		[]string{
			".metadata.labels", ".metadata.labels.app",
			".spec.replicas",
			".spec.template.spec.containers[name=\"nginx\"]",
			".spec.template.spec.containers[name=\"nginx\"].image",
			".spec.template.spec.containers[name=\"nginx\"].name",
			".spec.template.spec.containers[name=\"nginx\"].ports",
			".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"]",
			".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"].containerPort",
			".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"].protocol",
		},
		`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}}}}}}}}`,
	},
	{
		"finalizers set and atomic list index",
		[]string{`.metadata.finalizers[="example.com/a"]`, `.metadata.finalizers[="example.com/b"]`, ".spec.args[0]", ".spec.args[1]"},
		`{"f:metadata":{"f:finalizers":{"v:\"example.com/a\"":{},"v:\"example.com/b\"":{}}},"f:spec":{"f:args":{"i:0":{},"i:1":{}}}}`,
	},
	{
		"members before children in element order",
		[]string{".b", ".a.x", `.a[="v"]`, ".c", ".a", "[3]", `[k=1]`, `[k=1].z`},
		`{"f:a":{".":{},"f:x":{},"v:\"v\"":{}},"f:b":{},"f:c":{},"k:{\"k\":1}":{".":{},"f:z":{}},"i:3":{}}`,
	},
	{
		"escaping",
		[]string{`.a<b>&"c\`, ".t\tn\nr\r\x01", `[="<&>"]`, `[="\u2028"]`, `[k="\x00"]`},
		`{"f:a<b>&\"c\\":{},"f:t\tn\nr\r\u0001":{},"k:{\"k\":\"\\u0000\"}":{},"v:\"\\u003c\\u0026\\u003e\"":{},"v:\"\\u2028\"":{}}`,
	},
	{
		"numbers",
		[]string{"[=1.5]", "[=1e-07]", "[=1e+21]", "[=100]", "[=-7]", "[=0.000001]"},
		`{"v:-7":{},"v:1e-07":{},"v:0.000001":{},"v:1.5":{},"v:100":{},"v:1e+21":{}}`,
	},
	{
		"other values",
		[]string{"[=true]", "[=null]", `[=[1,"a",[]]]`, "[a=false,b=null]"},
		`{"k:{\"a\":false,\"b\":null}":{},"v:true":{},"v:[1,\"a\",[]]":{},"v:null":{}}`,
	},
}

func TestFieldsV1Golden(t *testing.T) {
	for _, tt := range fieldsV1Golden {
		t.Run(tt.name, func(t *testing.T) {
			s := set(t, tt.paths...)
			if got := string(s.MarshalFieldsV1()); got != tt.json {
				t.Errorf("MarshalFieldsV1 =\n%s\nwant\n%s", got, tt.json)
			}
			if got := string(s.AppendFieldsV1([]byte("prefix"))); got != "prefix"+tt.json {
				t.Errorf("AppendFieldsV1 = %s", got)
			}
			back, err := fieldpath.ParseFieldsV1([]byte(tt.json))
			if err != nil {
				t.Fatalf("ParseFieldsV1: %v", err)
			}
			if !back.Equal(s) {
				t.Errorf("ParseFieldsV1 =\n%v\nwant\n%v", back, s)
			}
		})
	}
}

func TestFieldsV1Floats(t *testing.T) {
	// The reference writes exponents with at least two digits and never
	// writes NaN or infinities (we write null).
	s := fieldpath.NewSet(
		fieldpath.Path{fieldpath.MemberValue(value.NewFloat(1.5e-9))},
		fieldpath.Path{fieldpath.MemberValue(value.NewFloat(math.Inf(1)))},
		fieldpath.Path{fieldpath.MemberValue(value.NewFloat(-2.5e300))},
		fieldpath.Path{fieldpath.MemberValue(value.NewFloat(math.Copysign(0, -1)))},
	)
	want := `{"v:-2.5e+300":{},"v:-0":{},"v:1.5e-09":{},"v:null":{}}`
	if got := string(s.MarshalFieldsV1()); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseFieldsV1Lenient(t *testing.T) {
	tests := []struct{ in, want string }{
		{`null`, `{}`},
		{" {\n} ", `{}`},
		{`{"f:b":{},"f:a":{}}`, `{"f:a":{},"f:b":{}}`},
		{`{"f:a":null}`, `{"f:a":{}}`},
		{`{"f:a":{"f:x":{}},"f:a":{"f:y":{}}}`, `{"f:a":{"f:y":{}}}`},
		{`{"f:a":{"f:x":{}},"f:a":{}}`, `{"f:a":{".":{},"f:x":{}}}`},
		{`{"f:a":{"f:b":{},".":{}}}`, `{"f:a":{".":{},"f:b":{}}}`},
		{`{"f:a":{".":[1,{"x":2}],"f:b":{}}}`, `{"f:a":{".":{},"f:b":{}}}`},
		{`{"x:unknown":{"f:a":{}},"f:b":{}}`, `{"f:b":{}}`},
		{`{"f:a":{"x:unknown":{}}}`, `{"f:a":{}}`},
		{`{"i:+4":{},"i:-1":{},"i:007":{}}`, `{"i:-1":{},"i:4":{},"i:7":{}}`},
		{`{"v:1":{},"v:1.0":{}}`, `{"v:1":{}}`},
		{`{"v: \"a\" ":{}}`, `{"v:\"a\"":{}}`},
		{`{"v:-0":{}}`, `{"v:-0":{}}`},
		{`{"k: {\"b\":1, \"a\":2} ":{}}`, `{"k:{\"a\":2,\"b\":1}":{}}`},
		{`{"k:null":{}}`, `{"k:{}":{}}`},
		{`{"k:{\"a\":1,\"a\":0}":{}}`, `{"k:{\"a\":1,\"a\":0}":{}}`},
		{`{"f:\u00e9\ud83d\ude00":{}}`, `{"f:é😀":{}}`},
		{`{"f:\ud800":{}}`, `{"f:` + "\uFFFD" + `":{}}`},
		{`{"k:{\"\\u0041\":1}":{}}`, `{"k:{\"A\":1}":{}}`},
	}
	for _, tt := range tests {
		s, err := fieldpath.ParseFieldsV1([]byte(tt.in))
		if err != nil {
			t.Errorf("ParseFieldsV1(%s): %v", tt.in, err)
			continue
		}
		if got := string(s.MarshalFieldsV1()); got != tt.want {
			t.Errorf("ParseFieldsV1(%s) encodes as %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseFieldsV1Errors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		key    string
		msg    string
	}{
		{``, 0, "", "empty input"},
		{`  `, 2, "", "empty input"},
		{`{`, 1, "", "want a string object key"},
		{`[]`, 0, "", "want an object or null"},
		{`{"f:a":1}`, 7, "f:a", "want an object or null"},
		{`{"f:a":{"f:b":[]}}`, 14, "f:b", "want an object or null"},
		{`{"a":{}}`, 1, "a", "type letter"},
		{`{"":{}}`, 1, "", "type letter"},
		{`{"ab":{}}`, 1, "ab", "missing ':'"},
		{`{"i:x":{}}`, 1, "i:x", "not a decimal integer"},
		{`{"i:99999999999999999999":{}}`, 1, "i:99999999999999999999", "not a decimal integer"},
		{`{"v:":{}}`, 1, "v:", "want a JSON value"},
		{`{"v:1 2":{}}`, 1, "v:1 2", "unexpected data after the value"},
		{`{"v:{":{}}`, 1, "v:{", "at byte"},
		{`{"v:1e400":{}}`, 1, "v:1e400", "bad value"},
		{`{"k:":{}}`, 1, "k:", "want an object of key fields"},
		{`{"k:[1]":{}}`, 1, "k:[1]", "want an object of key fields"},
		{`{"k:{\"a\":1} x":{}}`, 1, `k:{"a":1} x`, "unexpected data after the key object"},
		{`{"k:{\"a\" 1}":{}}`, 1, `k:{"a" 1}`, "want ':'"},
		{`{"f:a":{}} x`, 11, "", "unexpected data after the top-level object"},
		{`{"f:a":{}}{}`, 10, "", "unexpected data"},
		{`{"f:a" {}}`, 7, "f:a", "want ':'"},
		{`{"f:a":{} "f:b":{}}`, 10, "", "want ',' or '}'"},
		{`{"f:a":{"f:b":{}`, 16, "f:a", "want ',' or '}'"},
		{`{"f:a`, 5, "", "unexpected end of input in string"},
		{"{\"f:a\x01\":{}}", 5, "", "control character"},
		{`{"f:\q":{}}`, 4, "", "bad escape"},
		{`{".":{"x":}}`, 10, ".", "want a value"},
		{`{".":tru}`, 5, ".", "invalid literal"},
		{`{"x:y":01}`, 8, "", "want ',' or '}'"},
		{`{"f:a":nul}`, 10, "f:a", "literal null"},
	}
	for _, tt := range tests {
		_, err := fieldpath.ParseFieldsV1([]byte(tt.in))
		var se *fieldpath.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseFieldsV1(%q) = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset || se.Key != tt.key || !strings.Contains(err.Error(), tt.msg) || se.Input != "FieldsV1" {
			t.Errorf("ParseFieldsV1(%q) error %q (offset %d, key %q), want offset %d, key %q, %q", tt.in, err, se.Offset, se.Key, tt.offset, tt.key, tt.msg)
		}
	}
}

func TestParseFieldsV1ErrorWraps(t *testing.T) {
	_, err := fieldpath.ParseFieldsV1([]byte(`{"v:1e400":{}}`))
	var ve *value.SyntaxError
	if !errors.As(err, &ve) {
		t.Errorf("error %v does not wrap the value decoder's error", err)
	}
}

func TestParseFieldsV1Depth(t *testing.T) {
	nest := func(depth int) []byte {
		return []byte(strings.Repeat(`{"f:a":`, depth-1) + "{}" + strings.Repeat("}", depth-1))
	}
	s, err := fieldpath.ParseFieldsV1(nest(fieldpath.MaxFieldsV1Depth))
	if err != nil {
		t.Fatalf("depth %d: %v", fieldpath.MaxFieldsV1Depth, err)
	}
	if s.Size() != 1 {
		t.Errorf("deep set has %d paths", s.Size())
	}
	if _, err := fieldpath.ParseFieldsV1(nest(fieldpath.MaxFieldsV1Depth + 1)); err == nil || !strings.Contains(err.Error(), "nested more than") || !errors.Is(err, value.ErrTooDeep) || !errors.Is(err, schema.ErrTooDeep) {
		t.Errorf("depth %d: error %v", fieldpath.MaxFieldsV1Depth+1, err)
	}
	deepDot := []byte(`{".":` + strings.Repeat("[", fieldpath.MaxFieldsV1Depth) + strings.Repeat("]", fieldpath.MaxFieldsV1Depth) + "}")
	if _, err := fieldpath.ParseFieldsV1(deepDot); err == nil || !strings.Contains(err.Error(), "nesting deeper") {
		t.Errorf("deep value under \".\": error %v", err)
	}
}

// checkDecodeModes parses data with each of the decoder's strategies and
// fails unless they agree: the same error text, or equal sets with the same
// encoding.
func checkDecodeModes(t *testing.T, data []byte) {
	t.Helper()
	names, sets, errs := fieldpath.ParseFieldsV1Modes(data)
	for i := 1; i < len(names); i++ {
		if (errs[i] == nil) != (errs[0] == nil) || errs[i] != nil && errs[i].Error() != errs[0].Error() {
			t.Fatalf("%s: error %v, %s: error %v", names[0], errs[0], names[i], errs[i])
		}
		if errs[0] == nil && (!sets[i].Equal(sets[0]) || !bytes.Equal(sets[i].MarshalFieldsV1(), sets[0].MarshalFieldsV1())) {
			t.Fatalf("%s and %s differ on %s:\n%v\nvs\n%v", names[0], names[i], data, sets[0], sets[i])
		}
	}
}

// TestParseFieldsV1Modes checks that the decoder's shortcuts for common
// entries and its sharing of equal names and nodes decode what the general
// path decodes, on the forms the shortcuts take and on those that look like
// them but must not.
func TestParseFieldsV1Modes(t *testing.T) {
	inputs := []string{
		`{"f:a":{},"f:b":{".":{},"f:c":{}}}`,
		`{"f:b":{},"f:a":{},"f:a":{"f:x":{}}}`,
		`{"f:":{},"f:a\"b":{},"f:\u0041":{},"f:é":{},"f:\ud800":{}}`,
		`{"f:a" :{},"f:b": {},"f:c":{ },"f:d":{} ,".":{}}`,
		`{".":null,".":{"x":1},"f:a":null}`,
		`{"k:{\"name\":\"web\"}":{".":{},"f:name":{}}}`,
		`{"k:{\"port\":80,\"protocol\":\"TCP\"}":{},"k:{\"port\":0,\"protocol\":\"\"}":{}}`,
		`{"k:{\"b\":1,\"a\":2}":{},"k:{\"a\":1,\"a\":0}":{}}`,
		`{"k:{\"n\":-0}":{},"k:{\"n\":-1}":{},"k:{\"n\":007}":{},"k:{\"n\":1.5}":{},"k:{\"n\":1e3}":{}}`,
		`{"k:{\"n\":123456789012345678}":{},"k:{\"n\":1234567890123456789}":{},"k:{\"n\":-}":{}}`,
		`{"k:{\"n\":true}":{},"k:{\"n\":null}":{},"k:{\"n\":\"a\\\"b\"}":{},"k:{\"n\":\"\u00e9\"}":{}}`,
		`{"k:{\"n\":\"é\"}":{},"k:{\"n\":\"\xff\"}":{},"k:{ \"n\":1}":{},"k:{\"n\" :1}":{},"k:{\"n\":1 }":{}}`,
		`{"k:{}":{},"k:null":{},"k:{\"n\":1}" :{},"k:{\"n\":1}x":{},"k:{\"n\":1},":{}}`,
		`{"k:{\"n\":1}":{"k:{\"n\":1}":{"f:a":{}}},"k:{\"n\":2}":{"k:{\"n\":1}":{"f:a":{}}}}`,
		`{"k:{\"n\":1`, `{"k:{\"n\":\"a`, `{"f:a":{`, `{"f:a":{}`, `{"f:a`, `{".":{`,
		`{"i:1":{},"i:0":{".":{},"f:a":{}},"v:\"x\"":{},"v:1":{".":{},"f:a":{}}}`,
	}
	for _, g := range fieldsV1Golden {
		inputs = append(inputs, g.json)
	}
	r := rand.New(rand.NewPCG(21, 22))
	for range 300 {
		inputs = append(inputs, string(fieldpathtest.RandomSet(r, r.IntN(12)).MarshalFieldsV1()))
	}
	inputs = append(inputs, string(podFieldsV1(t)))
	for _, in := range inputs {
		checkDecodeModes(t, []byte(in))
	}
}

// TestParseFieldsV1Shares checks that a long input's equal subtrees are
// stored once and a short one's are not, and that sharing does not change
// what is decoded.
func TestParseFieldsV1Shares(t *testing.T) {
	item := `{".":{},"f:name":{},"f:value":{"f:x":{}}}`
	var b strings.Builder
	b.WriteString(`{"f:list":{`)
	for i := range 200 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k:{\"name\":\"item-%03d\"}":%s`, i, item)
	}
	b.WriteString(`}}`)
	long := []byte(b.String())
	short := []byte(`{"f:a":` + item + `,"f:b":` + item + `}`)
	for _, c := range []struct {
		data       []byte
		wantShared bool
	}{{long, true}, {short, false}} {
		s, err := fieldpath.ParseFieldsV1(c.data)
		if err != nil {
			t.Fatal(err)
		}
		nodes, distinct := fieldpath.CountNodesForTest(s)
		if shared := distinct < nodes; shared != c.wantShared {
			t.Errorf("%d-byte input: %d nodes, %d distinct; want shared %v", len(c.data), nodes, distinct, c.wantShared)
		}
		checkDecodeModes(t, c.data)
	}
	s, _ := fieldpath.ParseFieldsV1(long)
	if nodes, distinct := fieldpath.CountNodesForTest(s); distinct != 4 || nodes != 402 {
		// top, list, one item node, one value node
		t.Errorf("long input: %d nodes, %d distinct; want 402 and 4", nodes, distinct)
	}
}

func TestFieldsV1RoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 3000 {
		s := fieldpathtest.RandomSet(r, r.IntN(15))
		enc := s.MarshalFieldsV1()
		back, err := fieldpath.ParseFieldsV1(enc)
		if err != nil {
			t.Fatalf("ParseFieldsV1(%s): %v", enc, err)
		}
		if back.Size() != s.Size() {
			t.Fatalf("round trip changed the size: %s", enc)
		}
		// Invalid UTF-8 in values is written as \ufffd and so comes back as
		// U+FFFD; every other set round-trips exactly.
		if !bytes.Contains(enc, []byte(`\\ufffd`)) {
			if !back.Equal(s) {
				t.Fatalf("round trip of\n%v\ngave\n%v", s, back)
			}
			if !bytes.Equal(back.MarshalFieldsV1(), enc) {
				t.Fatalf("re-encoding differs: %s vs %s", back.MarshalFieldsV1(), enc)
			}
		}
		again, err := fieldpath.ParseFieldsV1(back.MarshalFieldsV1())
		if err != nil || !again.Equal(back) {
			t.Fatalf("second round trip: %v", err)
		}
	}
}

func FuzzParseFieldsV1(f *testing.F) {
	for _, g := range fieldsV1Golden {
		f.Add([]byte(g.json))
	}
	for _, s := range []string{
		`null`, `{"f:a":{"f:x":{}},"f:a":{}}`, `{"x:unknown":{"f:a":{}},"f:b":{}}`, `{"i:+4":{},"i:-1":{}}`,
		`{"v:-0":{}}`, `{"k:null":{}}`, `{"k:{\"a\":1,\"a\":0}":{}}`, `{"f:\ud800":{}}`, `{".":[1,{"x":2}]}`,
		`{"v:{\"b\":[1,2.5,\"\\u003c\"],\"a\":null}":{}}`, `{"f:a":{}} x`, `{"v:1e400":{}}`,
		`{"i:9223372036854775807":{},"i:-9223372036854775808":{},"i:2305843009213693952":{"i:-2305843009213693953":{}}}`,
	} {
		f.Add([]byte(s))
	}
	r := rand.New(rand.NewPCG(5, 5))
	for range 20 {
		f.Add(fieldpathtest.RandomSet(r, 8).MarshalFieldsV1())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecodeModes(t, data)
		if v, err := value.FromJSON(data); err == nil {
			checkValueDecode(t, v)
		}
		s, err := fieldpath.ParseFieldsV1(data)
		if err != nil {
			var se *fieldpath.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		checkFieldsV1Value(t, s)
		enc := s.MarshalFieldsV1()
		back, err := fieldpath.ParseFieldsV1(enc)
		if err != nil {
			t.Fatalf("re-parsing %s: %v", enc, err)
		}
		if !back.Equal(s) {
			t.Fatalf("round trip of %s:\n%v\nvs\n%v", enc, back, s)
		}
		if enc2 := back.MarshalFieldsV1(); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable: %s vs %s", enc, enc2)
		}
	})
}

// TestPlainPrefix checks the eight-bytes-at-a-time scan against a byte loop
// on strings with a special byte at every position.
func TestPlainPrefix(t *testing.T) {
	special := []byte{'"', '\\', 0, 0x1f, '\n'}
	plain := []byte{' ', '!', '#', '[', ']', 'a', 0x7f, 0x80, 0xff, 0x21, 0x5b, 0x5d, 0x3f}
	for n := 0; n <= 20; n++ {
		for at := 0; at <= n; at++ {
			for _, sp := range special {
				for _, pl := range plain {
					b := make([]byte, n)
					for i := range b {
						b[i] = pl
					}
					want := n
					if at < n {
						b[at] = sp
						want = at
					}
					if got := fieldpath.PlainPrefixForTest(string(b)); got != want {
						t.Fatalf("plainPrefix(%q) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}

// TestPlainKey checks that keys written directly in their escaped form are
// written as the general writer (JSON, then escaped) writes them, and that
// the direct writer leaves to it every key with a byte that needs escaping.
func TestPlainKey(t *testing.T) {
	texts := []string{"", "web", "a b", "x-1_2.3", "q\"", "b\\s", "<", ">", "&", "\x1f", "\x7f", "é", "\u2028", "\xff", "tab\t"}
	values := []value.Value{value.NewNull(), value.NewBool(true), value.NewInt(-80), value.NewFloat(0.5), value.NewFloat(1e21), value.NewFloat(-1e-7), value.NewList([]value.Value{value.NewInt(1)})}
	for _, s := range texts {
		values = append(values, value.NewString(s))
	}
	tried, direct := 0, 0
	for _, name := range texts {
		for _, v := range values {
			for _, n := range []int{1, 2} {
				fields := []value.Field{{Name: name, Value: v}, {Name: "z", Value: value.NewString("p")}}[:n]
				plain, ok, general := fieldpath.PlainKeyForTest(fields)
				tried++
				if !ok {
					if plain != "" {
						t.Errorf("%v: refused, but wrote %q", fields, plain)
					}
					continue
				}
				direct++
				if plain != general {
					t.Errorf("%v: direct %s, general %s", fields, plain, general)
				}
			}
		}
	}
	if direct == 0 || direct == tried {
		t.Fatalf("direct writer took %d of %d keys; want some, not all", direct, tried)
	}
}

// TestMarshalResultsAreOwn checks that encodings, written through a pooled
// buffer, do not share memory with later encodings.
func TestMarshalResultsAreOwn(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	var sets []*fieldpath.Set
	var encodings [][]byte
	var copies []string
	for range 50 {
		s := fieldpathtest.RandomSet(r, 6)
		js := s.MarshalFieldsV1()
		if len(js) != cap(js) {
			t.Errorf("encoding of %d bytes has capacity %d", len(js), cap(js))
		}
		sets, encodings, copies = append(sets, s), append(encodings, js), append(copies, string(js))
	}
	for i := range encodings {
		if string(encodings[i]) != copies[i] {
			t.Fatalf("encoding %d changed after later encodings", i)
		}
		if want := sets[i].AppendFieldsV1(nil); string(encodings[i]) != string(want) {
			t.Fatalf("encoding %d:\n%s\nwant\n%s", i, encodings[i], want)
		}
	}
}

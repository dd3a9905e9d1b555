package value_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
)

func listOf(items ...value.Value) value.Value { return value.NewList(items) }

var (
	vNull = value.NewNull()
	vInt  = value.NewInt
	vFlt  = value.NewFloat
	vStr  = value.NewString
	vBool = value.NewBool
)

type jsonDecodeCase struct {
	name string
	in   string
	want value.Value
	// For errors: the full message, and the error's position fields.
	err          string
	offset       int64
	line, column int
	path         string
	sentinel     error
}

var jsonDecodeCases = []jsonDecodeCase{
	{name: "null", in: "null", want: vNull},
	{name: "true", in: " true ", want: vBool(true)},
	{name: "false", in: "false", want: vBool(false)},
	{name: "zero", in: "0", want: vInt(0)},
	{name: "negative zero", in: "-0", want: vInt(0)},
	{name: "int", in: "-12345", want: vInt(-12345)},
	{name: "max int64", in: "9223372036854775807", want: vInt(math.MaxInt64)},
	{name: "min int64", in: "-9223372036854775808", want: vInt(math.MinInt64)},
	{name: "int overflow becomes float", in: "9223372036854775808", want: vFlt(9223372036854775808)},
	{name: "negative int overflow becomes float", in: "-99999999999999999999", want: vFlt(-99999999999999999999)},
	{name: "float", in: "1.5", want: vFlt(1.5)},
	{name: "integral float stays float", in: "1.0", want: vFlt(1)},
	{name: "exponent", in: "1e3", want: vFlt(1000)},
	{name: "negative exponent", in: "-2.5E-3", want: vFlt(-0.0025)},
	{name: "negative zero float", in: "-0.0", want: vFlt(math.Copysign(0, -1))},
	{name: "underflow is zero", in: "1e-400", want: vFlt(0)},
	{name: "string", in: `"hello"`, want: vStr("hello")},
	{name: "escapes", in: `"a\"b\\c\/d\b\f\n\r\t"`, want: vStr("a\"b\\c/d\b\f\n\r\t")},
	{name: "unicode escape", in: `"\u00e9\u65E5"`, want: vStr("é日")},
	{name: "surrogate pair", in: `"\ud83d\ude00"`, want: vStr("😀")},
	{name: "lone high surrogate", in: `"\ud83dx"`, want: vStr("\ufffdx")},
	{name: "lone low surrogate", in: `"\ude00"`, want: vStr("\ufffd")},
	{name: "two high surrogates", in: `"\ud83d\ud83d\ude00"`, want: vStr("\ufffd😀")},
	{name: "raw utf8", in: `"日本語😀"`, want: vStr("日本語😀")},
	{name: "invalid utf8 replaced", in: "\"a\xffb\xc3\"", want: vStr("a\ufffdb\ufffd")},
	{name: "escape after utf8", in: `"é\n"`, want: vStr("é\n")},
	{name: "empty list", in: "[ ]", want: listOf()},
	{name: "empty map", in: "{ }", want: valuetest.Map()},
	{name: "list", in: `[1, "a", null, [true]]`, want: listOf(vInt(1), vStr("a"), vNull, listOf(vBool(true)))},
	{name: "map sorted", in: `{"b": 1, "a": {"c": [2.5]}}`, want: valuetest.Map("a", valuetest.Map("c", listOf(vFlt(2.5))), "b", vInt(1))},
	{name: "escaped key", in: `{"a\u0062": 1}`, want: valuetest.Map("ab", vInt(1))},
	{name: "whitespace", in: " \t\r\n{ \"a\" : [ 1 , 2 ] } \n", want: valuetest.Map("a", listOf(vInt(1), vInt(2)))},

	{name: "empty input", in: "", err: "json: offset 0: unexpected end of JSON input", line: 1, column: 1},
	{name: "only space", in: "  \n", err: "json: offset 3: unexpected end of JSON input", offset: 3, line: 2, column: 1},
	{name: "bad start", in: "x", err: "json: offset 0: invalid character 'x' looking for beginning of value", line: 1, column: 1},
	{name: "trailing data", in: `{} {}`, err: "json: offset 3: invalid character '{' after top-level value", offset: 3, line: 1, column: 4},
	{name: "trailing comma in list", in: `[1,]`, err: "json: offset 3 (at /1): invalid character ']' looking for beginning of value", offset: 3, line: 1, column: 4, path: "/1"},
	{name: "trailing comma in map", in: `{"a":1,}`, err: `json: offset 7: invalid character '}' looking for beginning of object key string`, offset: 7, line: 1, column: 8},
	{name: "bad value in nested map", in: "{\"spec\": {\"replicas\": x}}", err: "json: offset 22 (at /spec/replicas): invalid character 'x' looking for beginning of value", offset: 22, line: 1, column: 23, path: "/spec/replicas"},
	{name: "pointer escaping", in: `{"a/b": {"c~d": [0, tru]}}`, err: "json: offset 23 (at /a~1b/c~0d/1): invalid character ']' in literal true (expecting 'e')", offset: 23, line: 1, column: 24, path: "/a~1b/c~0d/1"},
	{name: "line and column", in: "{\n  \"a\": [\n    1,\n    ?\n  ]\n}", err: "json: offset 22 (at /a/1): invalid character '?' looking for beginning of value", offset: 22, line: 4, column: 5, path: "/a/1"},
	{name: "missing colon", in: `{"a" 1}`, err: "json: offset 5: invalid character '1' after object key", offset: 5, line: 1, column: 6},
	{name: "missing comma in map", in: `{"a": 1 "b": 2}`, err: "json: offset 8: invalid character '\"' after object key:value pair", offset: 8, line: 1, column: 9},
	{name: "missing comma in list", in: `[1 2]`, err: "json: offset 3: invalid character '2' after array element", offset: 3, line: 1, column: 4},
	{name: "unquoted key", in: `{a: 1}`, err: "json: offset 1: invalid character 'a' looking for beginning of object key string", offset: 1, line: 1, column: 2},
	{name: "unterminated string", in: `{"a": "b`, err: "json: offset 8 (at /a): unexpected end of JSON input", offset: 8, line: 1, column: 9, path: "/a"},
	{name: "unterminated list", in: `[1`, err: "json: offset 2: unexpected end of JSON input", offset: 2, line: 1, column: 3},
	{name: "control character in string", in: "\"a\nb\"", err: `json: offset 2: invalid character '\n' in string literal`, offset: 2, line: 1, column: 3},
	{name: "bad escape", in: `"\x"`, err: "json: offset 2: invalid character 'x' in string escape code", offset: 2, line: 1, column: 3},
	{name: "bad unicode escape", in: `"\u12g4"`, err: `json: offset 5: invalid character 'g' in \u hexadecimal character escape`, offset: 5, line: 1, column: 6},
	{name: "leading zero", in: `01`, err: "json: offset 1: invalid character '1' after top-level value", offset: 1, line: 1, column: 2},
	{name: "plus sign", in: `+1`, err: "json: offset 0: invalid character '+' looking for beginning of value", line: 1, column: 1},
	{name: "bare minus", in: `[-]`, err: "json: offset 2 (at /0): invalid character ']' in numeric literal", offset: 2, line: 1, column: 3, path: "/0"},
	{name: "bare point", in: `1.`, err: "json: offset 2: unexpected end of JSON input", offset: 2, line: 1, column: 3},
	{name: "point without digits", in: `1.e5`, err: "json: offset 2: invalid character 'e' after decimal point in numeric literal", offset: 2, line: 1, column: 3},
	{name: "empty exponent", in: `1e+]`, err: "json: offset 3: invalid character ']' in exponent of numeric literal", offset: 3, line: 1, column: 4},
	{name: "float out of range", in: `{"x": [1e400]}`, err: "json: offset 7 (at /x/0): number 1e400 is out of the range of a float64", offset: 7, line: 1, column: 8, path: "/x/0"},
	{name: "huge integer out of range", in: "1" + strings.Repeat("0", 400), err: "json: offset 0: number 10000000000000000000...00000000000000000000 (401 characters) is out of the range of a float64", line: 1, column: 1},
	{name: "bad literal", in: `nul`, err: "json: offset 3: unexpected end of JSON input", offset: 3, line: 1, column: 4},
	{name: "bad literal character", in: `fals3`, err: "json: offset 4: invalid character '3' in literal false (expecting 'e')", offset: 4, line: 1, column: 5},
	{name: "duplicate key", in: `{"spec": {"a": 1, "b": 2, "a": 3}}`, err: `json: offset 26 (at /spec/a): duplicate key "a"`, offset: 26, line: 1, column: 27, path: "/spec/a"},
	{name: "duplicate key via escape", in: `{"ab": 1, "a\u0062": 2}`, err: `json: offset 10 (at /ab): duplicate key "ab"`, offset: 10, line: 1, column: 11, path: "/ab"},
	{name: "single quotes", in: `'a'`, err: `json: offset 0: invalid character '\'' looking for beginning of value`, line: 1, column: 1},
	{name: "nul byte", in: "\x00", err: `json: offset 0: invalid character '\x00' looking for beginning of value`, line: 1, column: 1},
}

func TestFromJSON(t *testing.T) {
	for _, tc := range jsonDecodeCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := value.FromJSON([]byte(tc.in))
			// The string form decodes the same, errors included.
			gotS, errS := value.FromJSONString(tc.in)
			if (err == nil) != (errS == nil) || err != nil && err.Error() != errS.Error() || err == nil && !valuetest.Identical(got, gotS) {
				t.Fatalf("FromJSONString(%q) = %v, %v; FromJSON gives %v, %v", tc.in, gotS, errS, got, err)
			}
			if tc.err != "" {
				if err == nil {
					t.Fatalf("FromJSON(%q) = %v, want error %q", tc.in, got, tc.err)
				}
				if err.Error() != tc.err {
					t.Fatalf("FromJSON(%q) error:\n got  %s\n want %s", tc.in, err, tc.err)
				}
				var se *value.SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("error %T is not a *SyntaxError", err)
				}
				if se.Offset != tc.offset || se.Line != tc.line || se.Column != tc.column || se.Path != tc.path {
					t.Errorf("error position = offset %d line %d column %d path %q, want %d %d %d %q",
						se.Offset, se.Line, se.Column, se.Path, tc.offset, tc.line, tc.column, tc.path)
				}
				return
			}
			if err != nil {
				t.Fatalf("FromJSON(%q): %v", tc.in, err)
			}
			if !valuetest.Identical(got, tc.want) {
				t.Fatalf("FromJSON(%q) = %v (%v), want %v (%v)", tc.in, got, got.Kind(), tc.want, tc.want.Kind())
			}
		})
	}
}

// TestFromJSONLikeEncodingJSON checks that every input encoding/json accepts
// decodes to the same data, and that inputs it rejects are rejected (except
// for duplicate keys and out-of-range numbers, which only we reject).
func TestFromJSONLikeEncodingJSON(t *testing.T) {
	inputs := []string{
		`"\u0000"`, `"\ud800\u0041"`, `"\udbff\udfff"`, "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
		`"<>&\u2028"`, `[1.5e300, -1e-300, 0.1, 123456789012345678]`, `{"": ""}`, `[[[[]]]]`,
		`{"a":{"b":{"c":null}}}`, `"\"\\\/"`, `1E2`, `-0.000`, "\"\x7f\"",
	}
	for _, tc := range jsonDecodeCases {
		inputs = append(inputs, tc.in)
	}
	for _, in := range inputs {
		var want any
		stdErr := json.Unmarshal([]byte(in), &want)
		got, err := value.FromJSON([]byte(in))
		if stdErr != nil {
			if err == nil {
				t.Errorf("FromJSON(%q) succeeded; encoding/json: %v", in, stdErr)
			}
			continue
		}
		if err != nil {
			if strings.Contains(err.Error(), "duplicate key") || strings.Contains(err.Error(), "out of the range") {
				continue
			}
			t.Errorf("FromJSON(%q): %v; encoding/json accepts it", in, err)
			continue
		}
		wantV, err := value.FromUnstructured(want)
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(got, wantV) {
			t.Errorf("FromJSON(%q) = %v, encoding/json gives %v", in, got, wantV)
		}
	}
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	values := []value.Value{
		vNull, vBool(true), vInt(math.MinInt64), vFlt(1), vFlt(1e21), vFlt(1e20), vFlt(1e-6), vFlt(1e-7),
		vFlt(-1.5e-10), vFlt(math.Copysign(0, -1)), vFlt(math.MaxFloat64), vFlt(math.SmallestNonzeroFloat64),
		vFlt(123456.789), vStr("<a href='x'>&amp;</a>"), vStr("\u2028\u2029"), vStr("\x00\x01\x1f\x7f\b\f\n\r\t\"\\/"),
		vStr("a\xffb\xc3\xa9\xc3"), vStr("\xed\xa0\x80"), vStr("日本😀"),
		valuetest.Map("b", vInt(1), "a", listOf(), "c", valuetest.Map(), "\xff", vNull, "<", vStr(">")),
		listOf(vNull, listOf(vInt(1), vFlt(2.5)), valuetest.Map("x", vBool(false))),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		values = append(values, valuetest.Random(r, 4))
	}
	for _, v := range values {
		want, err := json.Marshal(v.Unstructured())
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		got := value.AppendJSON([]byte("prefix"), v)
		if string(got) != "prefix"+string(want) {
			t.Fatalf("AppendJSON = %s\nencoding/json = %s", got[6:], want)
		}
		if s := v.String(); s != string(want) {
			t.Fatalf("String() = %s, want %s", s, want)
		}
		s := value.ToJSON(v)
		if !bytes.Equal(s, want) {
			t.Fatalf("ToJSON = %s, want %s", s, want)
		}
		// ToJSON sizes its output before writing it: exactly when no
		// string is escaped and no float written, at least in any case.
		if exact := !hasFloat(v) && !escapes(v); exact && cap(s) != len(s) || cap(s) < len(s) {
			t.Fatalf("ToJSON of %s: capacity %d for %d bytes", s, cap(s), len(s))
		}
		for _, ind := range [][2]string{{"", "  "}, {">", "\t"}, {"", ""}} {
			want, _ := json.MarshalIndent(v.Unstructured(), ind[0], ind[1])
			got := value.AppendJSONIndent(nil, v, ind[0], ind[1])
			if !bytes.Equal(got, want) {
				t.Fatalf("AppendJSONIndent(%q, %q) =\n%s\nencoding/json:\n%s", ind[0], ind[1], got, want)
			}
		}
	}
}

// hasFloat reports whether v holds a float.
func hasFloat(v value.Value) bool {
	switch v.Kind() {
	case value.Float:
		return true
	case value.List:
		return slices.ContainsFunc(own.Value.Items(v), hasFloat)
	case value.Map:
		return slices.ContainsFunc(own.Value.Fields(v), func(f value.Field) bool { return hasFloat(f.Value) })
	}
	return false
}

// escapes reports whether encoding/json escapes a string of v (a map key
// or a string value).
func escapes(v value.Value) bool {
	quoted := func(s string) bool {
		b, _ := json.Marshal(s)
		return len(b) != len(s)+2
	}
	switch v.Kind() {
	case value.String:
		return quoted(v.AsString())
	case value.List:
		return slices.ContainsFunc(own.Value.Items(v), escapes)
	case value.Map:
		return slices.ContainsFunc(own.Value.Fields(v), func(f value.Field) bool { return quoted(f.Name) || escapes(f.Value) })
	}
	return false
}

func TestAppendJSONNonFinite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := string(value.ToJSON(listOf(vFlt(f)))); got != "[null]" {
			t.Errorf("ToJSON(%v) = %s, want [null]", f, got)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		v := valuetest.Random(r, 5)
		data := value.ToJSON(v)
		got, err := value.FromJSON(data)
		if err != nil {
			t.Fatalf("FromJSON(ToJSON(%v)): %v", v, err)
		}
		if !value.Equal(got, v) {
			t.Fatalf("round trip changed the value:\n in  %v\n out %v", v, got)
		}
		// Encoding is a fixed point after one round trip (before it, a
		// float -0 decodes as the integer 0).
		again := value.ToJSON(got)
		got2, err := value.FromJSON(again)
		if err != nil || !bytes.Equal(value.ToJSON(got2), again) {
			t.Fatalf("re-encoding is not stable:\n %s\n %s (%v)", again, value.ToJSON(got2), err)
		}
		indented := value.AppendJSONIndent(nil, v, "", "  ")
		got3, err := value.FromJSON(indented)
		if err != nil || !value.Equal(got3, v) {
			t.Fatalf("indented round trip of %v: %v, %v", v, got3, err)
		}
	}
}

func TestFromJSONDoesNotAliasInput(t *testing.T) {
	data := []byte(`{"name": "abc", "list": ["x"]}`)
	v, err := value.FromJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = ' '
	}
	if got := v.String(); got != `{"list":["x"],"name":"abc"}` {
		t.Fatalf("value changed with its input: %s", got)
	}
}

func TestFromJSONLimits(t *testing.T) {
	deep := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	if _, err := value.FromJSON([]byte(deep), value.MaxDepth(5)); err != nil {
		t.Fatalf("depth 5 with MaxDepth(5): %v", err)
	}
	_, err := value.FromJSON([]byte(`{"a": [[{"b": 1}]]}`), value.MaxDepth(3))
	if !errors.Is(err, value.ErrTooDeep) {
		t.Fatalf("got %v, want ErrTooDeep", err)
	}
	if want := "json: offset 8 (at /a/0/0): nesting exceeds the maximum depth of 3"; err.Error() != want {
		t.Fatalf("got %q, want %q", err, want)
	}
	// The default depth limit stops hostile input without exhausting the stack.
	hostile := strings.Repeat("[", 100000)
	_, err = value.FromJSON([]byte(hostile))
	var se *value.SyntaxError
	if !errors.Is(err, value.ErrTooDeep) || !errors.As(err, &se) || se.Offset != value.DefaultMaxDepth {
		t.Fatalf("got %v, want ErrTooDeep at offset %d", err, value.DefaultMaxDepth)
	}
	_, err = value.FromJSON([]byte("[1,\n2]"), value.MaxBytes(4))
	if !errors.Is(err, value.ErrTooLarge) || !errors.As(err, &se) || se.Offset != 4 || se.Line != 2 || se.Column != 1 {
		t.Fatalf("got %v (%+v), want ErrTooLarge at offset 4, line 2, column 1", err, se)
	}
	_, errS := value.FromJSONString("[1,\n2]", value.MaxBytes(4))
	if errS == nil || errS.Error() != err.Error() {
		t.Fatalf("FromJSONString: got %v, want %v", errS, err)
	}
	if _, err := value.FromJSON([]byte("[1]"), value.MaxBytes(3)); err != nil {
		t.Fatalf("exactly MaxBytes: %v", err)
	}
	for _, opt := range []value.DecodeOption{value.MaxDepth(0), value.MaxDepth(1 << 30), value.MaxBytes(-1)} {
		if _, err := value.FromJSON([]byte("1"), opt); err == nil {
			t.Errorf("invalid option accepted")
		}
	}
}

// TestFromJSONSizes decodes lists and maps of many sizes, in many orders,
// to exercise how the decoder carves out their storage.
func TestFromJSONSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 0; n < 300; n += 1 + n/10 {
		items := make([]value.Value, n)
		fields := make([]value.Field, n)
		for i := range n {
			items[i] = vInt(int64(i))
			fields[i] = value.Field{Name: strings.Repeat("k", i%7) + string(rune('a'+i%26)) + strings.Repeat("z", i/26), Value: listOf(vInt(int64(i)))}
		}
		r.Shuffle(n, func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		var b strings.Builder
		b.WriteString(`{"list":`)
		b.Write(value.ToJSON(listOf(items...)))
		b.WriteString(`,"map":{`)
		for i, f := range fields { // in shuffled order
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(value.ToJSON(vStr(f.Name)))
			b.WriteByte(':')
			b.Write(value.ToJSON(f.Value))
		}
		b.WriteString(`},"after":[1,2,3]}`)
		got, err := value.FromJSON([]byte(b.String()))
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		want := valuetest.Map("list", listOf(items...), "map", value.NewMap(fields), "after", listOf(vInt(1), vInt(2), vInt(3)))
		if !valuetest.Identical(got, want) {
			t.Fatalf("n=%d: got %v, want %v", n, got, want)
		}
	}
}

// TestFromJSONArraysFitTheTree checks that the arrays a decoding cuts its
// maps and lists from stay close to what the tree holds, for a document of
// both (a node's image list: maps of a list and a number): at most twice the
// input, its fields and its items.
func TestFromJSONArraysFitTheTree(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"status":{"images":[`)
	for i := range 60 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"names":["registry.example/image-%d@sha256:%064d","registry.example/image-%d:v%d"],"sizeBytes":%d}`, i, i, i, i, 1000+i)
	}
	b.WriteString(`]}}`)
	data := []byte(b.String())
	const fieldSize, itemSize = 40, 24 // a value.Field and a value.Value on 64-bit machines
	fields, items := 2+60*2, 60+60*2
	limit := 2 * (len(data) + fields*fieldSize + items*itemSize)
	var before, after runtime.MemStats
	const runs = 50
	runtime.ReadMemStats(&before)
	for range runs {
		if _, err := value.FromJSON(data); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if got := int(after.TotalAlloc-before.TotalAlloc) / runs; got > limit {
		t.Errorf("FromJSON of %d bytes (%d fields, %d items) allocates %d bytes, more than %d", len(data), fields, items, got, limit)
	}
}

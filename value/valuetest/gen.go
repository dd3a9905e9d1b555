// Package valuetest generates random values for property, differential and
// fuzz tests of package value and the packages built on it.
//
// # Concurrency
//
// The functions are safe for concurrent use as long as each goroutine uses
// its own *rand.Rand; they keep no state of their own.
package valuetest

import (
	"math"
	"math/rand/v2"
	"strings"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
)

// Strings is a pool of strings that are hard to encode: YAML words that
// resolve to other types, indicators, escapes, multi-line text and
// characters that JSON encoders escape. Random draws many strings from it.
var Strings = []string{
	"", " ", "a", "b", "name", "x y", "yes", "no", "on", "off", "y", "n", "Y",
	"true", "True", "FALSE", "null", "Null", "~", "0", "1", "-1", "01", "0x1F",
	"0o17", "0b101", "1_000", "1.5", "1e3", "-.5", ".inf", "-.Inf", ".nan",
	"2001-12-14", "12:30", "1:20:30", "a: b", "a:b", "- x", "-", "--", "---",
	"...", "? q", "#c", "a #c", "&a", "*a", "!t", "!!str", "%x", "@", "`",
	"'", "\"", "\\", "{}", "[]", "{a: 1}", "[1, 2]", ",", ":", "|", ">", "<<",
	"=", "a\nb", "\n", "a\n", "\na", "a\n\n", " lead", "trail ", "a \nb",
	"line\n  indented\n", "\t", "tab\there", "\r", "a\r\nb", "\x01", "\x7f",
	"<&>", "\u2028", "\u2029", "é", "日本語", "😀", "\ufeff", "\u0085",
	"key=value", "/path/to", "~0~1", "a.b", "[0]", "http://x/y?z=1&w",
	strings.Repeat("long ", 30),
}

// Names is a small pool of map keys, so that random maps often share keys.
var Names = []string{"a", "b", "c", "name", "spec", "x", "", "key with space", "é", "1", "true", "null", "a/b", "~"}

// Random returns a random value nesting at most depth lists or maps deep
// (depth 0 gives a scalar). Strings are valid UTF-8; floats are finite.
// Numbers include int64 extremes and floats that equal integers.
func Random(r *rand.Rand, depth int) value.Value {
	n := 7
	if depth > 0 {
		n = 9
	}
	switch r.IntN(n) {
	case 0:
		return value.NewNull()
	case 1:
		return value.NewBool(r.IntN(2) == 1)
	case 2, 3:
		return value.NewInt(RandomInt(r))
	case 4:
		return value.NewFloat(RandomFloat(r))
	case 5, 6:
		return value.NewString(RandomString(r))
	case 7:
		items := make([]value.Value, r.IntN(5))
		for i := range items {
			items[i] = Random(r, depth-1)
		}
		return value.NewList(items)
	default:
		fields := make([]value.Field, r.IntN(5))
		for i := range fields {
			fields[i] = value.Field{Name: RandomName(r), Value: Random(r, depth-1)}
		}
		return value.NewMap(fields) // repeated names: the last wins
	}
}

// RandomInt returns small integers most of the time, and sometimes values at
// the edges of int64 and of exact float64 integers.
func RandomInt(r *rand.Rand) int64 {
	switch r.IntN(8) {
	case 0:
		edges := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1, -(1 << 53), 1 << 31, -(1 << 31)}
		return edges[r.IntN(len(edges))]
	case 1:
		return r.Int64() - r.Int64()
	default:
		return int64(r.IntN(201) - 100)
	}
}

// RandomFloat returns a finite float: integral values, short decimals,
// tiny and huge magnitudes, and negative zero.
func RandomFloat(r *rand.Rand) float64 {
	switch r.IntN(6) {
	case 0:
		edges := []float64{0, math.Copysign(0, -1), 0.5, -1.5, 1e-7, 1e21, 1e20, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64, 1 << 53, 1e-6}
		return edges[r.IntN(len(edges))]
	case 1:
		return float64(r.IntN(201) - 100)
	case 2:
		return math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.IntN(0x7ff))<<52) // any finite
	default:
		return float64(r.IntN(20001)-10000) / 100
	}
}

// RandomString draws from Strings or builds a short string of mixed
// characters.
func RandomString(r *rand.Rand) string {
	if r.IntN(3) > 0 {
		return Strings[r.IntN(len(Strings))]
	}
	const alphabet = "abcxyz019 -_.:#'\"\\/\n\t{}[],&*!|>%@`<=?~é😀\u2028"
	runes := []rune(alphabet)
	b := make([]rune, r.IntN(8))
	for i := range b {
		b[i] = runes[r.IntN(len(runes))]
	}
	return string(b)
}

// RandomName returns a map key, usually from Names.
func RandomName(r *rand.Rand) string {
	if r.IntN(4) > 0 {
		return Names[r.IntN(len(Names))]
	}
	return RandomString(r)
}

// Mutate returns a value close to v: usually one leaf replaced, a number
// switched between int and float of the same value, a field or item added or
// removed; sometimes v itself unchanged. v is not modified.
func Mutate(r *rand.Rand, v value.Value) value.Value {
	switch v.Kind() {
	case value.List:
		items := own.Value.Items(v)
		if len(items) > 0 && r.IntN(4) > 0 {
			out := append([]value.Value(nil), items...)
			i := r.IntN(len(out))
			out[i] = Mutate(r, out[i])
			return value.NewList(out)
		}
		switch r.IntN(3) {
		case 0:
			return v
		case 1:
			out := append(append([]value.Value(nil), items...), Random(r, 1))
			return value.NewList(out)
		}
		if len(items) > 0 {
			return value.NewList(append([]value.Value(nil), items[:len(items)-1]...))
		}
		return v
	case value.Map:
		fields := own.Value.Fields(v)
		if len(fields) > 0 && r.IntN(4) > 0 {
			out := append([]value.Field(nil), fields...)
			i := r.IntN(len(out))
			out[i].Value = Mutate(r, out[i].Value)
			return value.NewMap(out)
		}
		switch r.IntN(4) {
		case 0:
			return v
		case 1:
			out := append(append([]value.Field(nil), fields...), value.Field{Name: RandomName(r), Value: Random(r, 1)})
			return value.NewMap(out)
		case 2:
			if len(fields) > 0 {
				i := r.IntN(len(fields))
				out := append(append([]value.Field(nil), fields[:i]...), fields[i+1:]...)
				return value.NewMap(out)
			}
			return v
		}
		if len(fields) > 0 { // rename a field
			out := append([]value.Field(nil), fields...)
			out[r.IntN(len(out))].Name = RandomName(r)
			return value.NewMap(out)
		}
		return v
	case value.Int:
		switch r.IntN(4) {
		case 0:
			return value.NewFloat(float64(v.AsInt()))
		case 1:
			return value.NewInt(v.AsInt() + 1)
		case 2:
			return v
		}
	case value.Float:
		f := v.AsFloat()
		switch r.IntN(4) {
		case 0:
			if f == math.Trunc(f) && math.Abs(f) < 1<<62 {
				return value.NewInt(int64(f))
			}
		case 1:
			return value.NewFloat(math.Nextafter(f, math.Inf(1)))
		case 2:
			return v
		}
	case value.String:
		s := v.AsString()
		switch r.IntN(3) {
		case 0:
			return value.NewString(s + "a")
		case 1:
			return v
		}
	case value.Bool:
		if r.IntN(2) == 0 {
			return value.NewBool(!v.AsBool())
		}
		return v
	}
	return Random(r, 1)
}

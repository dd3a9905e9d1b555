package value

import (
	"math"
	"strconv"

	"github.com/structmerge/structmerge/internal/jsonstr"
)

// ToJSON returns the compact JSON encoding of v; see AppendJSON.
func ToJSON(v Value) []byte {
	return AppendJSON(make([]byte, 0, jsonSize(v)), v)
}

// jsonSize is the length of v's compact JSON encoding when no string
// needs escaping and each float takes its longest form, so that ToJSON
// allocates its output once: one walk of the tree costs less than growing
// the buffer a few times and copying it each time.
func jsonSize(v Value) int {
	switch v.kind {
	case Bool:
		return 5 - int(v.n) // false, true
	case Int:
		return intLen(int64(v.n))
	case Float:
		return 24 // -1.7976931348623157e+308
	case String:
		return int(v.n) + 2
	case List:
		n := 1 + max(v.Len(), 1) // brackets and commas
		for _, it := range v.items() {
			n += jsonSize(it)
		}
		return n
	case Map:
		n := 1 + max(int(v.n), 1)
		fields := v.fields()
		for i := range fields {
			n += len(fields[i].Name) + 3 + jsonSize(fields[i].Value)
		}
		return n
	}
	return 4 // null
}

// intLen is the number of bytes of i in decimal.
func intLen(i int64) int {
	n := 1
	u := uint64(i)
	if i < 0 {
		n, u = 2, uint64(-i)
	}
	for u >= 10 {
		u /= 10
		n++
	}
	return n
}

// String returns the compact JSON encoding of v, for debugging and %v.
func (v Value) String() string {
	return string(AppendJSON(nil, v))
}

// AppendJSON appends the compact JSON encoding of v to dst and returns the
// extended slice. The output is byte for byte what encoding/json.Marshal
// produces for v.Unstructured(): map keys in sorted order, integers as
// integers, floats formatted like encoding/json, and strings escaped like
// encoding/json (HTML-sensitive characters, U+2028 and U+2029 escaped,
// invalid UTF-8 replaced by U+FFFD).
//
// JSON cannot represent NaN or an infinity, which no decoder in this
// package produces; a Float holding one is written as null.
func AppendJSON(dst []byte, v Value) []byte {
	switch v.kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.n != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Int:
		return strconv.AppendInt(dst, int64(v.n), 10)
	case Float:
		return appendFloat(dst, math.Float64frombits(v.n))
	case String:
		return appendString(dst, v.str())
	case List:
		dst = append(dst, '[')
		for i, it := range v.items() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, it)
		}
		return append(dst, ']')
	case Map:
		dst = append(dst, '{')
		fields := v.fields()
		for i := range fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, fields[i].Name)
			dst = append(dst, ':')
			dst = AppendJSON(dst, fields[i].Value)
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// appendFloat formats f like encoding/json formats a float64.
func appendFloat(dst []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(dst, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Shorten a two-digit negative exponent: e-07 becomes e-7.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// appendString appends s as a JSON string, escaped like encoding/json.
func appendString(dst []byte, s string) []byte {
	return jsonstr.Append(dst, s, jsonstr.EncodingJSON)
}

// AppendJSONIndent appends the indented JSON encoding of v to dst, byte for
// byte what encoding/json.MarshalIndent(v.Unstructured(), prefix, indent)
// produces: each element on a new line that starts with prefix and one copy
// of indent per level of nesting; empty lists and maps stay "[]" and "{}".
func AppendJSONIndent(dst []byte, v Value, prefix, indent string) []byte {
	return appendIndent(dst, v, prefix, indent, 0)
}

func appendNewline(dst []byte, prefix, indent string, depth int) []byte {
	dst = append(dst, '\n')
	dst = append(dst, prefix...)
	for range depth {
		dst = append(dst, indent...)
	}
	return dst
}

func appendIndent(dst []byte, v Value, prefix, indent string, depth int) []byte {
	switch v.kind {
	case List:
		items := v.items()
		if len(items) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i := range items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, prefix, indent, depth+1)
			dst = appendIndent(dst, items[i], prefix, indent, depth+1)
		}
		dst = appendNewline(dst, prefix, indent, depth)
		return append(dst, ']')
	case Map:
		fields := v.fields()
		if len(fields) == 0 {
			return append(dst, "{}"...)
		}
		dst = append(dst, '{')
		for i := range fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, prefix, indent, depth+1)
			dst = appendString(dst, fields[i].Name)
			dst = append(dst, ':', ' ')
			dst = appendIndent(dst, fields[i].Value, prefix, indent, depth+1)
		}
		dst = appendNewline(dst, prefix, indent, depth)
		return append(dst, '}')
	}
	return AppendJSON(dst, v)
}

// Package jsonstr writes JSON string literals. value (encoding/json's
// escaping) and fieldpath (the escaping structured-merge-diff's JSON writer
// uses for FieldsV1) share it; the two differ only in how they write the
// control characters backspace and form feed.
//
// Concurrency: stateless; safe for concurrent use.
package jsonstr

import "unicode/utf8"

// Style says how control characters with a short escape are written.
type Style uint8

const (
	// EncodingJSON writes \b and \f as encoding/json does.
	EncodingJSON Style = iota
	// SMD writes them as \u0008 and \u000c, as structured-merge-diff does.
	SMD
)

// HexDigits are the digits of a \u escape, as the writers here use them.
const HexDigits = "0123456789abcdef"

// safe marks the ASCII bytes that stand for themselves inside a string:
// HTML-significant characters are escaped, as both writers do by default.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		switch c {
		case '"', '\\', '<', '>', '&':
		default:
			t[c] = true
		}
	}
	return t
}()

// Append appends s as a quoted JSON string: '"', '\\', '<', '>', '&',
// control characters, U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
func Append(dst []byte, s string, style Style) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch {
			case c == '\\' || c == '"':
				dst = append(dst, '\\', c)
			case c == '\b' && style == EncodingJSON:
				dst = append(dst, '\\', 'b')
			case c == '\f' && style == EncodingJSON:
				dst = append(dst, '\\', 'f')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', HexDigits[c>>4], HexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', HexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

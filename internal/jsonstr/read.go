package jsonstr

import (
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeStatus says how reading one escape sequence ended.
type EscapeStatus uint8

const (
	// EscapeOK: the escape was read.
	EscapeOK EscapeStatus = iota
	// EscapeEOF: the input ends inside the escape.
	EscapeEOF
	// EscapeBadLetter: the byte after the backslash is not an escape letter.
	EscapeBadLetter
	// EscapeBadHex: a byte of a \u escape is not a hexadecimal digit.
	EscapeBadHex
)

// AppendEscape reads the escape sequence that starts at data[i] (a
// backslash) inside a JSON string and appends the UTF-8 text it stands for
// to dst. It returns dst, the offset just after the escape and EscapeOK; or,
// when the escape is bad, dst unchanged, the offset of the offending byte
// (len(data) when the input ends) and why.
//
// A \u escape of a high surrogate followed by a \u escape of a low one is
// one character; a surrogate that is not so paired is U+FFFD, and the \u
// escape after it, if any, is left for the next call. Both JSON readers of
// the module (value's and fieldpath's FieldsV1 decoder) read escapes here.
func AppendEscape[T string | []byte](dst []byte, data T, i int) ([]byte, int, EscapeStatus) {
	if i+1 >= len(data) {
		return dst, len(data), EscapeEOF
	}
	switch e := data[i+1]; e {
	case '"', '\\', '/':
		return append(dst, e), i + 2, EscapeOK
	case 'b':
		return append(dst, '\b'), i + 2, EscapeOK
	case 'f':
		return append(dst, '\f'), i + 2, EscapeOK
	case 'n':
		return append(dst, '\n'), i + 2, EscapeOK
	case 'r':
		return append(dst, '\r'), i + 2, EscapeOK
	case 't':
		return append(dst, '\t'), i + 2, EscapeOK
	case 'u':
		r, at, st := hex4(data, i+2)
		if st != EscapeOK {
			return dst, at, st
		}
		i += 6
		if utf16.IsSurrogate(r) {
			hi := r
			r = utf8.RuneError
			if i+1 < len(data) && data[i] == '\\' && data[i+1] == 'u' {
				if lo, _, st := hex4(data, i+2); st == EscapeOK {
					if dec := utf16.DecodeRune(hi, lo); dec != utf8.RuneError {
						r = dec
						i += 6
					}
				}
			}
		}
		return utf8.AppendRune(dst, r), i, EscapeOK
	}
	return dst, i + 1, EscapeBadLetter
}

// SkipEscape is AppendEscape without the text: it checks the escape at
// data[i] and returns the offset after it, or the offset of the offending
// byte and why.
func SkipEscape[T string | []byte](data T, i int) (int, EscapeStatus) {
	if i+1 >= len(data) {
		return len(data), EscapeEOF
	}
	switch data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, EscapeOK
	case 'u':
		if _, at, st := hex4(data, i+2); st != EscapeOK {
			return at, st
		}
		return i + 6, EscapeOK
	}
	return i + 1, EscapeBadLetter
}

// hex4 reads the four hexadecimal digits at data[at:].
func hex4[T string | []byte](data T, at int) (rune, int, EscapeStatus) {
	var r rune
	for j := at; j < at+4; j++ {
		if j >= len(data) {
			return 0, len(data), EscapeEOF
		}
		c := data[j]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, j, EscapeBadHex
		}
		r = r<<4 | rune(c)
	}
	return r, 0, EscapeOK
}

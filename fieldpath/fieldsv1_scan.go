package fieldpath

import (
	"fmt"

	"github.com/structmerge/structmerge/internal/jsonstr"
)

// The JSON scanning under the FieldsV1 decoder: literals, strings, and
// skipping values the decoder does not keep.

func (d *decoder) literal(lit string, key int) error {
	for i := 0; i < len(lit); i++ {
		if d.pos+i >= len(d.data) {
			return d.errorf(d.pos+i, key, "unexpected end of input in literal %s", lit)
		}
		if d.data[d.pos+i] != lit[i] {
			return d.errorf(d.pos+i, key, "found %s in literal %s", describeByte(d.data[d.pos+i]), lit)
		}
	}
	d.pos += len(lit)
	return nil
}

func describeByte(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c >= 0x20 && c < 0x7f:
		return "'" + string(rune(c)) + "'"
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// str reads the string literal at d.pos and returns its unescaped bytes: a
// slice of the input when it has no escapes, else of d.buf (valid until the
// next call). Bytes that are not valid UTF-8 are kept as they are.
func (d *decoder) str(key int) ([]byte, error) {
	start := d.pos + 1
	data := d.data
	for i := start + plainPrefix(data[start:]); i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return data[start:i], nil
		case c == '\\':
			return d.strEscaped(start, i, key)
		case c < 0x20:
			return nil, d.errorf(i, key, "control character %s in string", describeByte(c))
		}
	}
	return nil, d.errorf(len(data), key, "unexpected end of input in string starting at byte %d", d.pos)
}

func (d *decoder) strEscaped(start, i int, key int) ([]byte, error) {
	data := d.data
	b := append(d.buf[:0], data[start:i]...)
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.buf = b
			return b, nil
		case c < 0x20:
			return nil, d.errorf(i, key, "control character %s in string", describeByte(c))
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		nb, next, st := jsonstr.AppendEscape(b, data, i)
		switch {
		case st == jsonstr.EscapeOK:
			b, i = nb, next
			continue
		case st == jsonstr.EscapeBadLetter:
			return nil, d.errorf(i, key, "bad escape %s in string", describeByte(data[i+1]))
		case st == jsonstr.EscapeBadHex || i+1 < len(data):
			// A bad digit, or the input ends inside a \u escape.
			return nil, d.errorf(i, key, "bad \\u escape in string")
		}
		break
	}
	return nil, d.errorf(len(data), key, "unexpected end of input in string")
}

// skip reads and discards the JSON value at d.pos, checking its syntax.
// depth is the depth of the enclosing object.
func (d *decoder) skip(depth int, keyOff int) error {
	end, err := skipValue(d.data, d.pos, depth, MaxFieldsV1Depth)
	if err != nil {
		err.Input, err.Key = "FieldsV1", d.keyAt(keyOff)
		return err
	}
	d.pos = end
	return nil
}

// skipValue checks the syntax of the JSON value starting at pos (after any
// whitespace) and returns the offset just past it. depth is the nesting depth
// of the enclosing container; containers deeper than limit are errors.
func skipValue(data []byte, pos, depth, limit int) (int, *SyntaxError) {
	fail := func(at int, format string, args ...any) (int, *SyntaxError) {
		return 0, &SyntaxError{Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	// Containers are tracked on an explicit stack of closing brackets.
	var stackBuf [32]byte
	stack := stackBuf[:0]
	for {
		pos = skipWS(data, pos)
		if pos >= len(data) {
			return fail(pos, "unexpected end of input; want a value")
		}
		switch c := data[pos]; {
		case c == '{' || c == '[':
			if depth+len(stack)+1 > limit {
				return fail(pos, "nesting deeper than %d", limit)
			}
			pos = skipWS(data, pos+1)
			if c == '{' {
				stack = append(stack, '}')
				if pos < len(data) && data[pos] == '}' {
					pos++
					stack = stack[:len(stack)-1]
					break
				}
				end, err := skipString(data, pos)
				if err != nil {
					return 0, err
				}
				pos = skipWS(data, end)
				if pos >= len(data) || data[pos] != ':' {
					return fail(pos, "want ':' after an object key")
				}
				pos++
				continue
			}
			stack = append(stack, ']')
			if pos < len(data) && data[pos] == ']' {
				pos++
				stack = stack[:len(stack)-1]
				break
			}
			continue
		case c == '"':
			end, err := skipString(data, pos)
			if err != nil {
				return 0, err
			}
			pos = end
		case c == 't' || c == 'f' || c == 'n':
			lit := "null"
			if c == 't' {
				lit = "true"
			} else if c == 'f' {
				lit = "false"
			}
			if len(data)-pos < len(lit) || string(data[pos:pos+len(lit)]) != lit {
				return fail(pos, "invalid literal; want %s", lit)
			}
			pos += len(lit)
		case c == '-' || (c >= '0' && c <= '9'):
			end, ok := skipNumber(data, pos)
			if !ok {
				return fail(pos, "invalid number")
			}
			pos = end
		default:
			return fail(pos, "found %s; want a value", describeByte(c))
		}
		// After a complete value: close containers or move to the next entry.
		for {
			if len(stack) == 0 {
				return pos, nil
			}
			pos = skipWS(data, pos)
			if pos >= len(data) {
				return fail(pos, "unexpected end of input; want ',' or %q", stack[len(stack)-1])
			}
			c := data[pos]
			if c == stack[len(stack)-1] {
				pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if c != ',' {
				return fail(pos, "found %s; want ',' or %q", describeByte(c), stack[len(stack)-1])
			}
			pos = skipWS(data, pos+1)
			if stack[len(stack)-1] == '}' {
				end, err := skipString(data, pos)
				if err != nil {
					return 0, err
				}
				pos = skipWS(data, end)
				if pos >= len(data) || data[pos] != ':' {
					return fail(pos, "want ':' after an object key")
				}
				pos++
			}
			break
		}
	}
}

func skipWS(data []byte, pos int) int {
	for pos < len(data) {
		switch data[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
			continue
		}
		break
	}
	return pos
}

// skipString checks the string literal at pos and returns the offset past it.
func skipString(data []byte, pos int) (int, *SyntaxError) {
	if pos >= len(data) || data[pos] != '"' {
		return 0, &SyntaxError{Offset: pos, Msg: "want a string"}
	}
	for i := pos + 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return 0, &SyntaxError{Offset: i, Msg: "control character in string"}
		case c == '\\':
			next, st := jsonstr.SkipEscape(data, i)
			switch {
			case st == jsonstr.EscapeOK:
				i = next - 1
			case st == jsonstr.EscapeBadLetter:
				return 0, &SyntaxError{Offset: i, Msg: "bad escape in string"}
			case st == jsonstr.EscapeBadHex || i+1 < len(data):
				return 0, &SyntaxError{Offset: i, Msg: "bad \\u escape in string"}
			default:
				i = len(data)
			}
		}
	}
	return 0, &SyntaxError{Offset: len(data), Msg: "unexpected end of input in string"}
}

// skipNumber checks the JSON number at pos and returns the offset past it.
func skipNumber(data []byte, pos int) (int, bool) {
	i := pos
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return 0, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return 0, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	return i, true
}

// plainPrefix returns the length of the longest prefix of s with no byte
// that JSON string text must escape ('"', '\\' and control characters),
// looking at eight bytes at a time.
func plainPrefix[T string | []byte](s T) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// The classic tests for a byte less than n (here 0x20) and for a
		// zero byte (here after XOR with '"' and with '\\').
		q, b := x^(ones*'"'), x^(ones*'\\')
		if ((x-ones*0x20)&^x|(q-ones)&^q|(b-ones)&^b)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			break
		}
	}
	return i
}

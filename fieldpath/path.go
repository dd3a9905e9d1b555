package fieldpath

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// Path selects a possibly deeply nested field of an object, one PathElement
// per level. The empty path is the whole object.
//
// A Path is a slice: functions that keep a Path they were given, or return
// one they keep, say so.
type Path []PathElement

// String returns the elements' String forms concatenated, for example
// `.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"]`.
func (p Path) String() string {
	return string(p.appendText(nil))
}

func (p Path) appendText(dst []byte) []byte {
	for _, e := range p {
		dst = e.appendText(dst)
	}
	return dst
}

// Compare orders paths lexically by their elements; a proper prefix sorts
// first. It returns -1, 0 or +1.
func (p Path) Compare(o Path) int {
	for i := 0; ; i++ {
		switch {
		case i >= len(p) && i >= len(o):
			return 0
		case i >= len(p):
			return -1
		case i >= len(o):
			return 1
		}
		if c := p[i].Compare(o[i]); c != 0 {
			return c
		}
	}
}

// Equal reports whether p and o have the same length and equal elements.
func (p Path) Equal(o Path) bool {
	if len(p) != len(o) {
		return false
	}
	for i := range p {
		if !p[i].Equal(o[i]) {
			return false
		}
	}
	return true
}

// Copy returns a copy of p that shares no slice with it (elements are
// immutable and are shared).
func (p Path) Copy() Path {
	if p == nil {
		return nil
	}
	return append(make(Path, 0, len(p)), p...)
}

// MakePath builds a path from parts: a string is a field name, an int an
// index, a value.Value a set member value, a []value.Field a key (copied,
// as Key copies it) and a PathElement is used as is.
func MakePath(parts ...any) (Path, error) {
	p := make(Path, 0, len(parts))
	for i, part := range parts {
		switch t := part.(type) {
		case PathElement:
			if t.Kind() == 0 {
				return nil, fmt.Errorf("fieldpath: MakePath part %d: invalid (zero) PathElement", i)
			}
			p = append(p, t)
		case string:
			p = append(p, FieldName(t))
		case int:
			p = append(p, Index(t))
		case value.Value:
			p = append(p, MemberValue(t))
		case []value.Field:
			if len(t) == 0 {
				return nil, fmt.Errorf("fieldpath: MakePath part %d: an associative list key needs at least one field", i)
			}
			p = append(p, Key(t))
		default:
			return nil, fmt.Errorf("fieldpath: MakePath part %d: cannot make a path element from %T", i, part)
		}
	}
	return p, nil
}

// ParsePath parses the String form of a path back into a Path:
// `.a.b[name="x",port=80][="v"][3]`. Values are Go-quoted strings, integers,
// floats (as fmt prints them, including NaN and ±Inf), true, false, null and
// lists of these in brackets. A field name runs to the next '.' or '[', so
// names containing those characters do not round-trip; nor do map values,
// whose printed form is ambiguous. Errors are *SyntaxError values naming the
// byte offset.
func ParsePath(s string) (Path, error) {
	ps := pathParser{s: s}
	var p Path
	for ps.i < len(s) {
		e, err := ps.element()
		if err != nil {
			return nil, err
		}
		p = append(p, e)
	}
	return p, nil
}

type pathParser struct {
	s string
	i int
}

func (ps *pathParser) errorf(at int, format string, args ...any) error {
	return &SyntaxError{Input: "path", Offset: at, Msg: fmt.Sprintf(format, args...)}
}

func (ps *pathParser) element() (PathElement, error) {
	s := ps.s
	switch s[ps.i] {
	case '.':
		start := ps.i + 1
		end := start
		for end < len(s) && s[end] != '.' && s[end] != '[' {
			end++
		}
		ps.i = end
		return FieldName(s[start:end]), nil
	case '[':
	default:
		return PathElement{}, ps.errorf(ps.i, "expected '.' or '[' to start a path element, found %q", s[ps.i])
	}
	open := ps.i
	ps.i++
	if ps.i >= len(s) {
		return PathElement{}, ps.errorf(ps.i, "unterminated path element starting at offset %d", open)
	}
	// [=value], or a key whose first field name is empty: [=v,b=w]
	var fields []value.Field
	if s[ps.i] == '=' {
		ps.i++
		v, err := ps.value(0)
		if err != nil {
			return PathElement{}, err
		}
		if ps.i >= len(s) || s[ps.i] != ',' {
			if err := ps.expect(']'); err != nil {
				return PathElement{}, err
			}
			return MemberValue(v), nil
		}
		ps.i++
		fields = append(fields, value.Field{Name: "", Value: v})
	}
	// [] is a key with no fields.
	if fields == nil && s[ps.i] == ']' {
		ps.i++
		return ownKey(nil), nil
	}
	// [3] or [-3]
	if fields == nil {
		j := ps.i
		if s[j] == '-' {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j && k < len(s) && s[k] == ']' {
			n, err := strconv.Atoi(s[ps.i:k])
			if err != nil {
				return PathElement{}, ps.errorf(ps.i, "index %s: %v", s[ps.i:k], err)
			}
			ps.i = k + 1
			return Index(n), nil
		}
	}
	// [name=value,...]
	for {
		start := ps.i
		for ps.i < len(s) && s[ps.i] != '=' && s[ps.i] != ']' && s[ps.i] != ',' {
			ps.i++
		}
		if ps.i >= len(s) || s[ps.i] != '=' {
			return PathElement{}, ps.errorf(ps.i, "expected '=' after key field name %q", s[start:ps.i])
		}
		name := s[start:ps.i]
		ps.i++
		v, err := ps.value(0)
		if err != nil {
			return PathElement{}, err
		}
		fields = append(fields, value.Field{Name: name, Value: v})
		if ps.i >= len(s) {
			return PathElement{}, ps.errorf(ps.i, "unterminated key starting at offset %d", open)
		}
		if s[ps.i] == ']' {
			ps.i++
			return ownKey(fields), nil
		}
		if s[ps.i] != ',' {
			return PathElement{}, ps.errorf(ps.i, "expected ',' or ']' after key field %q, found %q", name, s[ps.i])
		}
		ps.i++
	}
}

func (ps *pathParser) expect(c byte) error {
	if ps.i >= len(ps.s) {
		return ps.errorf(ps.i, "expected %q, found end of path", c)
	}
	if ps.s[ps.i] != c {
		return ps.errorf(ps.i, "expected %q, found %q", c, ps.s[ps.i])
	}
	ps.i++
	return nil
}

const maxPathValueDepth = 100

// value parses one value as value.Text prints it.
func (ps *pathParser) value(depth int) (value.Value, error) {
	s := ps.s
	if ps.i >= len(s) {
		return value.Value{}, ps.errorf(ps.i, "expected a value, found end of path")
	}
	switch c := s[ps.i]; {
	case c == '"':
		end := ps.i + 1
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return value.Value{}, ps.errorf(ps.i, "unterminated string")
		}
		str, err := strconv.Unquote(s[ps.i : end+1])
		if err != nil {
			return value.Value{}, ps.errorf(ps.i, "bad quoted string %s: %v", s[ps.i:end+1], err)
		}
		ps.i = end + 1
		return value.NewString(str), nil
	case c == '[':
		if depth >= maxPathValueDepth {
			return value.Value{}, ps.errorf(ps.i, "values nested more than %d deep", maxPathValueDepth)
		}
		ps.i++
		var items []value.Value
		if ps.i < len(s) && s[ps.i] == ']' {
			ps.i++
			return vown.List([]value.Value{}), nil
		}
		for {
			v, err := ps.value(depth + 1)
			if err != nil {
				return value.Value{}, err
			}
			items = append(items, v)
			if ps.i >= len(s) {
				return value.Value{}, ps.errorf(ps.i, "unterminated list")
			}
			if s[ps.i] == ']' {
				ps.i++
				return vown.List(items), nil
			}
			if s[ps.i] != ',' {
				return value.Value{}, ps.errorf(ps.i, "expected ',' or ']' in list, found %q", s[ps.i])
			}
			ps.i++
		}
	}
	start := ps.i
	for ps.i < len(s) && s[ps.i] != ',' && s[ps.i] != ']' {
		ps.i++
	}
	tok := s[start:ps.i]
	switch tok {
	case "null":
		return value.NewNull(), nil
	case "true":
		return value.NewBool(true), nil
	case "false":
		return value.NewBool(false), nil
	case "NaN":
		return value.NewFloat(math.NaN()), nil
	case "+Inf":
		return value.NewFloat(math.Inf(1)), nil
	case "-Inf":
		return value.NewFloat(math.Inf(-1)), nil
	case "":
		return value.Value{}, ps.errorf(start, "expected a value")
	}
	if isIntToken(tok) {
		// "-0" is how a float negative zero prints (integers have no sign
		// for zero), so it reads back as that float.
		if n, err := strconv.ParseInt(tok, 10, 64); err == nil && !(n == 0 && tok[0] == '-') {
			return value.NewInt(n), nil
		}
	}
	if isFloatToken(tok) {
		if f, err := strconv.ParseFloat(tok, 64); err == nil {
			return value.NewFloat(f), nil
		}
	}
	return value.Value{}, ps.errorf(start, "cannot parse %q as a value (want a quoted string, number, true, false, null or list)", tok)
}

func isIntToken(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isFloatToken accepts decimal floats with optional exponent (no hex, no
// underscores, no words: those are handled separately).
func isFloatToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
		default:
			return false
		}
	}
	return true
}

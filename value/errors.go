package value

import (
	"errors"
	"strconv"
	"strings"
)

// ErrTooDeep is wrapped by decoding errors for input nested deeper than the
// configured maximum depth (see MaxDepth).
var ErrTooDeep = errors.New("nesting too deep")

// ErrTooLarge is wrapped by decoding errors for input larger than the
// configured maximum size (see MaxBytes), and by YAML alias expansion that
// would produce too many nodes.
var ErrTooLarge = errors.New("input too large")

// SyntaxError describes why a JSON or YAML document could not be decoded and
// where. errors.Is(err, ErrTooDeep) and errors.Is(err, ErrTooLarge) see the
// limit errors through it.
type SyntaxError struct {
	// Offset is the byte offset of the problem in the input, or -1 when it is
	// not known (YAML errors carry a line and column instead).
	Offset int64
	// Line and Column are 1-based; 0 when not known. Column counts bytes.
	Line, Column int
	// Path is the JSON pointer (RFC 6901) of the innermost value that
	// encloses the problem; "" is the whole document.
	Path string
	// Msg says what is wrong.
	Msg string
	// Err is a sentinel such as ErrTooDeep or ErrTooLarge, or nil.
	Err error
}

// Error formats the error as
// "json: offset 17 (at /spec/replicas): invalid character 'x' ..." for JSON
// and "yaml: line 3, column 5 (at /spec): ..." for YAML (with the line or
// column left out when not known).
func (e *SyntaxError) Error() string {
	var b strings.Builder
	if e.Offset >= 0 {
		b.WriteString("json: offset ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
	} else {
		b.WriteString("yaml")
		if e.Line > 0 {
			b.WriteString(": line ")
			b.WriteString(strconv.Itoa(e.Line))
			if e.Column > 0 {
				b.WriteString(", column ")
				b.WriteString(strconv.Itoa(e.Column))
			}
		}
	}
	if e.Path != "" {
		b.WriteString(" (at ")
		b.WriteString(e.Path)
		b.WriteByte(')')
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the sentinel error, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

// pathSeg is one step of the path to an error, collected while unwinding.
type pathSeg struct {
	name  string
	index int // >= 0 for a list index; -1 for a field name
}

// pointerFromReversed builds a JSON pointer from segments collected innermost
// first.
func pointerFromReversed(segs []pathSeg) string {
	if len(segs) == 0 {
		return ""
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteByte('/')
		s := segs[i]
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
			continue
		}
		for j := 0; j < len(s.name); j++ {
			switch c := s.name[j]; c {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

// lineColumn returns the 1-based line and byte column of offset in s.
func lineColumn(s string, offset int) (line, col int) {
	if offset > len(s) {
		offset = len(s)
	}
	if offset < 0 {
		offset = 0
	}
	line = 1 + strings.Count(s[:offset], "\n")
	lastNL := strings.LastIndexByte(s[:offset], '\n')
	return line, offset - lastNL
}

// quoteChar formats a byte for an error message the way encoding/json does.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string([]byte{c}))
	return "'" + s[1:len(s)-1] + "'"
}

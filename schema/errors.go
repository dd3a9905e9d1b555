package schema

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// The kinds of problem Parse and Compile report. Every Problem wraps one of
// them, so errors.Is(err, schema.ErrUnknownType) works on the error returned.
var (
	// ErrSyntax: the input is not YAML, or a YAML node has the wrong shape
	// (a sequence where a mapping is expected, a number where a string is).
	ErrSyntax = errors.New("schema syntax error")
	// ErrUnknownKey: a mapping has a key the schema format does not define.
	ErrUnknownKey = errors.New("unknown key")
	// ErrMissing: a required key (a type's or field's name) is missing or empty.
	ErrMissing = errors.New("missing required key")
	// ErrDuplicate: a type, a field of a map or a member of a union is given twice.
	ErrDuplicate = errors.New("duplicate name")
	// ErrUnknownType: a reference names a type the schema does not define.
	ErrUnknownType = errors.New("unknown named type")
	// ErrScalar: a scalar type is not one of numeric, string, boolean, untyped.
	ErrScalar = errors.New("invalid scalar type")
	// ErrTooDeep: nesting deeper than MaxDepth. It is value.ErrTooDeep,
	// which value's decoders and fieldpath's FieldsV1 decoder wrap too.
	ErrTooDeep = value.ErrTooDeep
	// ErrTooLarge: an input that expands (through YAML aliases) beyond the
	// node budget, or more inline types than a schema may have. It is
	// value.ErrTooLarge.
	ErrTooLarge = value.ErrTooLarge
)

// MaxDepth bounds the nesting of inline types, and of YAML nodes while
// parsing. Deeper input is rejected with ErrTooDeep instead of exhausting the
// stack.
const MaxDepth = 10000

// Problem is one thing wrong with a schema. It unwraps to its Kind (one of the
// Err variables) and to Err, the underlying error if any.
type Problem struct {
	Kind    error  // ErrSyntax, ErrUnknownType, ...
	Type    string // the named type the problem is in, "" if outside any
	Path    string // where inside the type, e.g. `field "containers" list.elementType`
	Line    int    // 1-based line in the YAML source, 0 when unknown
	Column  int    // 1-based column, 0 when unknown
	Message string // what is wrong
	Err     error  // underlying error (for example from the YAML decoder), or nil
}

// Error formats the problem as
//
//	type "T" field "f": message (line 12)
func (p Problem) Error() string {
	var b strings.Builder
	if p.Type != "" {
		b.WriteString("type ")
		b.WriteString(strconv.Quote(p.Type))
	}
	if p.Path != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Path)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	if p.Line > 0 {
		b.WriteString(" (line ")
		b.WriteString(strconv.Itoa(p.Line))
		if p.Column > 0 {
			b.WriteString(" column ")
			b.WriteString(strconv.Itoa(p.Column))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// Unwrap returns the problem's kind and its underlying error.
func (p Problem) Unwrap() []error {
	if p.Err != nil {
		return []error{p.Kind, p.Err}
	}
	return []error{p.Kind}
}

// Error is the error Parse and Compile return: every problem found, sorted.
// Parse sorts by position in the source; Compile by type name, then path,
// then message.
type Error struct {
	Problems []Problem
}

// Error lists the problems, one per line.
func (e *Error) Error() string {
	switch len(e.Problems) {
	case 0:
		return "schema: no problems"
	case 1:
		return "schema: " + e.Problems[0].Error()
	}
	var b strings.Builder
	b.WriteString("schema: ")
	b.WriteString(strconv.Itoa(len(e.Problems)))
	b.WriteString(" problems:")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap returns every problem, so that errors.Is and errors.As see each.
func (e *Error) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

func sortByPosition(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if c := cmp.Compare(a.Line, b.Line); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Column, b.Column); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}

func sortByType(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if c := strings.Compare(a.Type, b.Type); c != 0 {
			return c
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if c := strings.Compare(a.Message, b.Message); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
}

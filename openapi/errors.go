package openapi

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// The kinds of problem the converters report. Every Problem wraps one of
// them, so errors.Is(err, openapi.ErrExtension) works on the error returned.
var (
	// ErrSyntax: the input is not JSON or YAML, or a part of it has the wrong
	// shape (a definition that is not an object, a "type" that is a number).
	ErrSyntax = errors.New("malformed OpenAPI document")
	// ErrType: a schema whose type Kubernetes cannot convert (an unknown
	// "type", an array whose "items" is not a single schema).
	ErrType = errors.New("unsupported schema type")
	// ErrExtension: an x-kubernetes-* extension with a value Kubernetes
	// rejects (an unknown list or map type, list-type map without keys,
	// a merge key that is not a string).
	ErrExtension = errors.New("invalid x-kubernetes extension")
	// ErrReference: a $ref to a definition the document does not define.
	ErrReference = errors.New("unresolved reference")
	// ErrDuplicate: two documents define one name differently, or two
	// definitions claim the same group, version and kind (as
	// schema.ErrDuplicate is a name given to two types; kube.ErrConflict
	// is another thing, an apply's conflict with another manager).
	ErrDuplicate = errors.New("conflicting definitions")
	// ErrCRD: the input is not a CustomResourceDefinition that the API
	// server would serve (wrong kind, no group or kind, a schema that is not
	// structural).
	ErrCRD = errors.New("invalid CustomResourceDefinition")
)

// Problem is one thing wrong with a document. It unwraps to its Kind (one of
// the Err variables) and to Err, the underlying error if any.
type Problem struct {
	Kind error // ErrSyntax, ErrExtension, ...
	// Definition is the name of the definition the problem is in (for a CRD,
	// the name given to the version's type), "" if outside any.
	Definition string
	// Path is the JSON pointer of the schema inside the definition, for
	// example "/properties/spec/properties/ports/items"; "" for the
	// definition itself.
	Path    string
	Message string // what is wrong
	Err     error  // underlying error (for example a decoding error), or nil
}

// Error formats the problem as
//
//	definition "T" at /properties/ports: message
func (p Problem) Error() string {
	var b strings.Builder
	if p.Definition != "" {
		b.WriteString("definition ")
		b.WriteString(strconv.Quote(p.Definition))
	}
	if p.Path != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("at ")
		b.WriteString(p.Path)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Unwrap returns the problem's kind and its underlying error.
func (p Problem) Unwrap() []error {
	if p.Err != nil {
		return []error{p.Kind, p.Err}
	}
	return []error{p.Kind}
}

// Error is the error the converters return: every problem found, sorted by
// definition, path and message.
type Error struct {
	Problems []Problem
}

// Error lists the problems, one per line.
func (e *Error) Error() string {
	switch len(e.Problems) {
	case 0:
		return "openapi: no problems"
	case 1:
		return "openapi: " + e.Problems[0].Error()
	}
	var b strings.Builder
	b.WriteString("openapi: ")
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

// problems collects Problems; the zero value is ready to use.
type problems struct {
	list []Problem
}

func (ps *problems) add(kind error, def, path, msg string) {
	ps.list = append(ps.list, Problem{Kind: kind, Definition: def, Path: path, Message: msg})
}

func (ps *problems) addErr(kind error, def, path, msg string, err error) {
	ps.list = append(ps.list, Problem{Kind: kind, Definition: def, Path: path, Message: msg, Err: err})
}

// err returns the collected problems as an *Error, sorted, or nil.
func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	list := slices.Clone(ps.list)
	slices.SortStableFunc(list, func(a, b Problem) int {
		if c := strings.Compare(a.Definition, b.Definition); c != 0 {
			return c
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	list = slices.CompactFunc(list, func(a, b Problem) bool {
		return a.Definition == b.Definition && a.Path == b.Path && a.Message == b.Message && a.Kind == b.Kind
	})
	return &Error{Problems: list}
}

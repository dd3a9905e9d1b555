package typed

import (
	"errors"
	"slices"
	"strings"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/value"
)

// ErrNoType is returned by every operation given no type: a nil
// *schema.Type, or the zero Value, which has none.
var ErrNoType = errors.New("typed: no schema type (a nil *schema.Type or the zero typed.Value)")

// ErrorKind classifies a problem found in a value.
type ErrorKind uint8

// The kinds of error.
const (
	// WrongKind: the value is not of the kind the schema wants.
	WrongKind ErrorKind = iota + 1
	// UnknownField: a map has a field its schema does not declare.
	UnknownField
	// DuplicateKey: two items of an associative list have the same key.
	DuplicateKey
	// InvalidListItem: an item of an associative list is null, not a map
	// where keys are wanted, a map where set members are wanted, or has no key.
	InvalidListItem
	// SchemaProblem: the schema cannot describe this value (an empty type).
	SchemaProblem
)

// String names the kind.
func (k ErrorKind) String() string {
	switch k {
	case WrongKind:
		return "wrong kind"
	case UnknownField:
		return "unknown field"
	case DuplicateKey:
		return "duplicate key"
	case InvalidListItem:
		return "invalid list item"
	case SchemaProblem:
		return "schema problem"
	}
	return "error"
}

// Error makes a kind usable with errors.Is: errors.Is(err, DuplicateKey)
// reports whether err holds a problem of that kind, as HasKind does.
func (k ErrorKind) Error() string { return k.String() }

// Error is one problem at one place of a value.
type Error struct {
	Path    fieldpath.Path
	Kind    ErrorKind
	Message string
}

// Error formats the problem as "PATH: MESSAGE".
func (e *Error) Error() string {
	p := e.Path.String()
	if p == "" {
		return e.Message
	}
	return p + ": " + e.Message
}

// Is reports whether target is e's kind, so that errors.Is(err,
// DuplicateKey) finds a problem of that kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(ErrorKind)
	return ok && k == e.Kind
}

// Errors is every problem found by one operation, sorted by path.
type Errors []*Error

// Error formats one problem as itself and several as a list.
func (errs Errors) Error() string {
	if len(errs) == 1 {
		return errs[0].Error()
	}
	var b strings.Builder
	b.WriteString("errors:")
	for _, e := range errs {
		b.WriteString("\n  ")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives errors.As and errors.Is access to each problem.
func (errs Errors) Unwrap() []error {
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return out
}

// HasKind reports whether err holds a problem of the given kind; it is
// errors.Is(err, k).
func HasKind(err error, k ErrorKind) bool { return errors.Is(err, k) }

// errorList collects problems during a walk.
type errorList struct {
	errs Errors
}

func (l *errorList) add(path fieldpath.Path, kind ErrorKind, msg string) {
	l.errs = append(l.errs, &Error{Path: path.Copy(), Kind: kind, Message: msg})
}

// result returns the problems sorted by path (stable: several problems at one
// path keep the order they were found in), or nil.
func (l *errorList) result() error {
	if len(l.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(l.errs, func(a, b *Error) int { return a.Path.Compare(b.Path) })
	return l.errs
}

// checkScalarSides records a problem when both sides of a two-sided walk
// (either nil when absent) fail to fit the scalar of atom a, and reports
// whether the walk can go on; one bad side is tolerated, as the reference
// engine does.
func (l *errorList) checkScalarSides(path fieldpath.Path, a atom, lhs, rhs *value.Value) bool {
	lp, rp := "", ""
	if lhs != nil {
		lp = scalarProblem(a, *lhs)
	}
	if rhs != nil {
		rp = scalarProblem(a, *rhs)
	}
	if lp != "" && rp != "" {
		l.add(path, WrongKind, "lhs: "+lp)
		l.add(path, WrongKind, "rhs: "+rp)
		return false
	}
	return true
}

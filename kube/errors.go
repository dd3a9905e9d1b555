package kube

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/value"
)

// The kinds of error the field manager returns, for errors.Is: every
// *BadRequestError is an ErrBadRequest and every *ConflictError an
// ErrConflict (errors.As gives the details).
var (
	ErrBadRequest = errors.New("bad request")
	ErrConflict   = errors.New("apply conflict")
)

// BadRequestError is a request the API server rejects as malformed (HTTP
// 400): an apply body that carries managedFields, or whose apiVersion or
// kind is not the object's.
type BadRequestError struct {
	Message string
}

func (e *BadRequestError) Error() string { return e.Message }

// Is reports whether target is ErrBadRequest.
func (e *BadRequestError) Is(target error) bool { return target == ErrBadRequest }

// LiveObjectError is an error about the live object rather than the
// request: it does not fit the schema of the request's version, or it
// cannot be converted to that version. Its message is Err's.
type LiveObjectError struct {
	Err error
}

func (e *LiveObjectError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *LiveObjectError) Unwrap() error { return e.Err }

// Conflict is one field an apply would change although another manager
// owns it.
type Conflict struct {
	// Manager, Operation, APIVersion and Subresource identify the owner as
	// its managedFields entry does. APIVersion is empty for an applier.
	Manager     string
	Operation   Operation
	APIVersion  string
	Subresource string
	// Path is the conflicting field.
	Path fieldpath.Path
	// Live is the field's value in the live object (nil when it has none).
	Live *value.Value
	// Desired is the value the apply wanted (nil when the configuration
	// does not hold the field itself, for example a conflict on an item
	// of a list it replaces as a whole).
	Desired *value.Value

	// identity is the owner's identity key as the API server tracks it.
	identity string
}

// OwnerString describes the owner as the API server does in conflict
// messages: `"kubectl"`, `"hpa" with subresource "scale" using
// autoscaling/v1`.
func (c Conflict) OwnerString() string {
	return printManager(c.identity)
}

// ConflictError is the error of an apply that would change fields other
// managers own. Its message is the API server's, byte for byte.
type ConflictError struct {
	// Conflicts lists the conflicts in the order the API server lists
	// them: by owner, then by path.
	Conflicts []Conflict
}

// Is reports whether target is ErrConflict.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Error returns the API server's message: `Apply failed with 1 conflict:
// conflict with "m" using apps/v1: .spec.replicas`, or for several, one
// heading per owner (`conflicts with "m":`) followed by one `- PATH` line
// per field.
func (e *ConflictError) Error() string {
	cs := e.Conflicts
	if len(cs) == 1 {
		return "Apply failed with 1 conflict: conflict with " + printManager(cs[0].identity) + ": " + cs[0].Path.String()
	}
	// Group by identity, identities sorted, paths in their order.
	var owners []string
	byOwner := map[string][]fieldpath.Path{}
	for _, c := range cs {
		if _, ok := byOwner[c.identity]; !ok {
			owners = append(owners, c.identity)
		}
		byOwner[c.identity] = append(byOwner[c.identity], c.Path)
	}
	sortStrings(owners)
	var lines []string
	for _, o := range owners {
		lines = append(lines, "conflicts with "+printManager(o)+":")
		for _, p := range byOwner[o] {
			lines = append(lines, "- "+p.String())
		}
	}
	return "Apply failed with " + strconv.Itoa(len(cs)) + " conflicts: " + strings.Join(lines, "\n")
}

// printManager describes a manager identity key as the API server does.
func printManager(key string) string {
	id, ok := parseIdentityLoose(key)
	if !ok {
		return strconv.Quote(key)
	}
	s := strconv.Quote(id.manager)
	if id.subresource != "" {
		s += " with subresource " + strconv.Quote(id.subresource)
	}
	if id.operation == OperationUpdate {
		s += " using " + id.apiVersion
		if !id.time.IsZero() {
			s += " at " + id.time.UTC().Format(time.RFC3339)
		}
	}
	return s
}

type looseIdentity struct {
	identity
	time time.Time
}

// parseIdentityLoose reads an identity key as the API server's printer
// does, which also accepts a time.
func parseIdentityLoose(key string) (looseIdentity, bool) {
	id, ok := parseIdentity(key)
	if !ok {
		return looseIdentity{}, false
	}
	out := looseIdentity{identity: id}
	if v, err := value.FromJSON([]byte(key)); err == nil {
		if t, ok := v.Get("time"); ok && t.Kind() == value.String {
			if pt, err := time.Parse(time.RFC3339, t.AsString()); err == nil {
				out.time = pt
			}
		}
	}
	return out, true
}

// newConflictError describes the conflicts of an apply of applied onto live.
func newConflictError(cs merge.Conflicts, live, applied value.Value) *ConflictError {
	out := &ConflictError{Conflicts: make([]Conflict, 0, len(cs))}
	for _, c := range cs {
		id, _ := parseIdentity(c.Manager)
		conflict := Conflict{
			Manager:     id.manager,
			Operation:   id.operation,
			APIVersion:  id.apiVersion,
			Subresource: id.subresource,
			Path:        c.Path,
			identity:    c.Manager,
		}
		if v, ok := lookupPath(live, c.Path); ok {
			conflict.Live = &v
		}
		if v, ok := lookupPath(applied, c.Path); ok {
			conflict.Desired = &v
		}
		out.Conflicts = append(out.Conflicts, conflict)
	}
	return out
}

package kube

import (
	"errors"
	"fmt"

	"github.com/structmerge/structmerge/value"
)

// A Defaulter sets the fields an API server sets when it decodes an object
// of a kind it serves: the defaulting functions of the built-in kinds
// (package kube/defaulting has Kubernetes' own), the defaults of a custom
// resource's structural schema. Objects of kinds it does not know come
// back unchanged. Default does not modify obj and must be safe for
// concurrent use.
type Defaulter interface {
	Default(obj value.Value) (value.Value, error)
}

// DefaulterFunc is a Defaulter that is a function.
type DefaulterFunc func(obj value.Value) (value.Value, error)

// Default calls f.
func (f DefaulterFunc) Default(obj value.Value) (value.Value, error) { return f(obj) }

// ChainDefaulters returns a Defaulter that runs each of ds in turn (nil
// entries are skipped).
func ChainDefaulters(ds ...Defaulter) Defaulter {
	var out []Defaulter
	for _, d := range ds {
		if d != nil {
			out = append(out, d)
		}
	}
	return DefaulterFunc(func(obj value.Value) (value.Value, error) {
		for _, d := range out {
			var err error
			if obj, err = d.Default(obj); err != nil {
				return value.Value{}, err
			}
		}
		return obj, nil
	})
}

// A Server does to a write what a Kubernetes API server's request path
// does around its field manager, so that the object it returns is the one
// the server would store and answer with:
//
//   - the live object is read as the storage reads it: defaulted;
//   - an update's (or create's) object is decoded as the server decodes a
//     request body: defaulted, before the field manager compares it with
//     the live object, so its manager owns the defaults that changed;
//   - an apply's configuration is merged as it is, and the merged object
//     is defaulted after the field manager, so nobody owns a default it did
//     not apply;
//   - the storage strategy keeps the live values of the fields the kind
//     resets on the subresource written (a create has none: it drops them,
//     as most strategies drop the status of a new object).
//
// The FieldManager alone does none of this: it is for callers that default
// on their own, such as an API server. A Server is immutable and safe for
// concurrent use when its FieldManager and Defaulter are.
type Server struct {
	fm  *FieldManager
	def Defaulter
}

// NewServer returns a Server that writes with fm and defaults with d (nil
// defaults nothing).
func NewServer(fm *FieldManager, d Defaulter) (*Server, error) {
	if fm == nil {
		return nil, errors.New("kube: NewServer given a nil FieldManager")
	}
	return &Server{fm: fm, def: d}, nil
}

// FieldManager returns the field manager the Server writes with.
func (s *Server) FieldManager() *FieldManager { return s.fm }

// Read returns obj as the server's storage returns it: defaulted. A null
// obj stays null.
func (s *Server) Read(obj value.Value) (value.Value, error) {
	if s.def == nil || obj.IsNull() {
		return obj, nil
	}
	out, err := s.def.Default(obj)
	if err != nil {
		return value.Value{}, fmt.Errorf("defaulting %s: %w", describe(obj), err)
	}
	return out, nil
}

// Apply is a server-side apply of applied to live (null: the object does
// not exist yet) by manager, as FieldManager.Apply with the server's
// defaulting and storage around it.
func (s *Server) Apply(live, applied value.Value, manager string, opts ...RequestOption) (value.Value, error) {
	live, err := s.Read(live)
	if err != nil {
		return value.Value{}, err
	}
	res, err := s.fm.Apply(live, applied, manager, opts...)
	if err != nil {
		return value.Value{}, err
	}
	return s.store(res, live, resolveRequest(opts).subresource)
}

// Update is a create (null live), update or non-apply patch by manager
// whose result is obj, as FieldManager.Update with the server's defaulting
// and storage around it.
func (s *Server) Update(live, obj value.Value, manager string, opts ...RequestOption) (value.Value, error) {
	live, err := s.Read(live)
	if err != nil {
		return value.Value{}, err
	}
	sub := resolveRequest(opts).subresource
	if sub != ScaleSubresource {
		// The request body is decoded at its kind: give it live's kind
		// first, as the field manager would.
		if obj, err = s.fm.defaultKind(live, obj); err != nil {
			return value.Value{}, err
		}
		if obj, err = s.Read(obj); err != nil {
			return value.Value{}, err
		}
	}
	res, err := s.fm.Update(live, obj, manager, opts...)
	if err != nil {
		return value.Value{}, err
	}
	return s.store(res, live, sub)
}

// store does what the storage does with the field manager's result: the
// fields the kind resets on this subresource keep their live values, and
// the object is defaulted (the storage decodes what it stored).
func (s *Server) store(obj, live value.Value, subresource string) (value.Value, error) {
	if subresource != ScaleSubresource && s.fm.reset != nil {
		gvk := GVKOf(obj)
		if set := s.fm.reset(gvk, subresource)[gvk.APIVersion()]; !set.Empty() {
			l := live
			if l.IsNull() {
				l = value.NewMap(nil)
			}
			obj = ResetValues(obj, l, set)
		}
	}
	return s.Read(obj)
}

// describe names an object for an error: its kind, namespace and name.
func describe(obj value.Value) string {
	name := metadataString(obj, "name")
	if ns := metadataString(obj, "namespace"); ns != "" {
		name = ns + "/" + name
	}
	return GVKOf(obj).Kind + " " + name
}

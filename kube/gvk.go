package kube

import (
	"fmt"
	"strings"
	"sync"

	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// GroupVersionKind names a kind of object at one API version. The core
// group is the empty string. It is builtin.GroupVersionKind, with its
// methods APIVersion and String.
type GroupVersionKind = builtin.GroupVersionKind

// GVK returns the GroupVersionKind named by apiVersion and kind (see
// builtin.GVK).
func GVK(apiVersion, kind string) (GroupVersionKind, error) { return builtin.GVK(apiVersion, kind) }

// GVKOf returns the GroupVersionKind of an object from its apiVersion and
// kind fields. Like the API server's unstructured objects, a missing or
// non-string field reads as "", and an apiVersion that does not parse gives
// the zero GroupVersionKind (see builtin.GVKOf).
func GVKOf(obj value.Value) GroupVersionKind { return builtin.GVKOf(obj) }

// TypeResolver finds the schema type of the objects of a kind.
// Implementations must be safe for concurrent use.
type TypeResolver interface {
	// ResolveType returns the type of objects of gvk, or false when the
	// kind is not known.
	ResolveType(gvk GroupVersionKind) (*schema.Type, bool)
}

// TypeResolverFunc adapts a function to TypeResolver.
type TypeResolverFunc func(gvk GroupVersionKind) (*schema.Type, bool)

// ResolveType calls f.
func (f TypeResolverFunc) ResolveType(gvk GroupVersionKind) (*schema.Type, bool) { return f(gvk) }

// schemaResolver looks kinds up in a table built once.
type schemaResolver map[GroupVersionKind]*schema.Type

func (r schemaResolver) ResolveType(gvk GroupVersionKind) (*schema.Type, bool) {
	t, ok := r[gvk]
	return t, ok
}

// NewSchemaResolver returns a TypeResolver that maps each kind of types to
// the named type of s. It is an error for a name not to be defined in s.
// The result is immutable; safe for concurrent use.
func NewSchemaResolver(s *schema.Schema, types map[GroupVersionKind]string) (TypeResolver, error) {
	if s == nil {
		return nil, fmt.Errorf("kube: NewSchemaResolver given a nil schema")
	}
	r := make(schemaResolver, len(types))
	var missing []string
	for gvk, name := range types {
		t, ok := s.Type(name)
		if !ok {
			missing = append(missing, fmt.Sprintf("%s (for %v)", name, gvk))
			continue
		}
		r[gvk] = t
	}
	if len(missing) > 0 {
		sortStrings(missing)
		return nil, fmt.Errorf("kube: the schema does not define %s", strings.Join(missing, ", "))
	}
	return r, nil
}

// ChainResolvers returns a TypeResolver that asks each resolver in turn and
// answers with the first that knows the kind.
func ChainResolvers(rs ...TypeResolver) TypeResolver {
	rs = append([]TypeResolver(nil), rs...)
	return TypeResolverFunc(func(gvk GroupVersionKind) (*schema.Type, bool) {
		for _, r := range rs {
			if r == nil {
				continue
			}
			if t, ok := r.ResolveType(gvk); ok {
				return t, true
			}
		}
		return nil, false
	})
}

// BuiltinTypes returns a TypeResolver for the built-in kinds of Kubernetes
// (package kube/builtin, whose schema is compiled on first use).
func BuiltinTypes() TypeResolver {
	return TypeResolverFunc(func(gvk GroupVersionKind) (*schema.Type, bool) {
		t, ok := builtinTypes()[gvk]
		return t, ok
	})
}

// builtinTypes is the type of each built-in kind, built with the schema on
// first use and never written again: one lookup per request, where
// builtin.TypeName searches the sorted kinds and the schema looks the name
// up again. Empty when the schema cannot be compiled.
var builtinTypes = sync.OnceValue(func() map[GroupVersionKind]*schema.Type {
	s, err := builtin.Schema()
	if err != nil {
		return nil
	}
	kinds := builtin.Kinds()
	out := make(map[GroupVersionKind]*schema.Type, len(kinds))
	for _, k := range kinds {
		if t, ok := s.Type(k.TypeName); ok {
			out[GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = t
		}
	}
	return out
})

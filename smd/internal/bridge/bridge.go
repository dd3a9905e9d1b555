// Package bridge converts between the drop-in's SMD-shaped types (value
// views over Go data, mutable field sets) and structmerge's immutable ones,
// at the boundary of the typed and merge packages.
//
// # Concurrency
//
// The functions only read their arguments and return new data; they are
// safe for concurrent use on arguments nobody modifies.
package bridge

import (
	core "github.com/structmerge/structmerge/fieldpath"
	coreschema "github.com/structmerge/structmerge/schema"
	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/internal/setlink"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Value converts an SMD value to structmerge's. A nil Value is null.
func Value(v value.Value) (corevalue.Value, error) {
	if v == nil {
		return corevalue.Value{}, nil
	}
	return corevalue.FromUnstructured(v.Unstructured())
}

// FromValue converts structmerge's value to an SMD value over new Go data
// (integers are int64, maps map[string]interface{}).
func FromValue(v corevalue.Value) value.Value {
	return value.NewValueInterface(v.Unstructured())
}

// FromElement converts structmerge's path element to an SMD one.
func FromElement(pe core.PathElement) fieldpath.PathElement {
	switch pe.Kind() {
	case core.FieldNameKind:
		return fieldpath.FieldNameElement(pe.FieldName())
	case core.IndexKind:
		return fieldpath.IndexElement(pe.Index())
	case core.ValueKind:
		return fieldpath.ValueElement(FromValue(pe.Value()))
	case core.KeyKind:
		fields := make(value.FieldList, pe.KeyLen())
		for i, f := range pe.Key() {
			fields[i] = value.Field{Name: f.Name, Value: FromValue(f.Value)}
		}
		return fieldpath.KeyElement(fields...)
	}
	return fieldpath.PathElement{}
}

// FromPath converts structmerge's path to an SMD one.
func FromPath(p core.Path) fieldpath.Path {
	out := make(fieldpath.Path, len(p))
	for i, pe := range p {
		out[i] = FromElement(pe)
	}
	return out
}

// Set converts an SMD set to structmerge's immutable set, with the
// fieldpath package's converter. A nil set is empty. An element structmerge
// cannot hold (such as a NaN value) is left out, with an error.
func Set(s *fieldpath.Set) (*core.Set, error) {
	if s == nil {
		return nil, nil
	}
	return setlink.ToCore(s)
}

// FromSet converts structmerge's set to a new SMD set (numbers in keys and
// values as FromValue makes them), with the fieldpath package's converter.
func FromSet(s *core.Set) *fieldpath.Set {
	return setlink.FromCore(s).(*fieldpath.Set)
}

// Source is an input of an operation in both forms: the caller's Go data
// and the structmerge value converted from it.
type Source struct {
	Go   interface{}
	Core corevalue.Value
}

// FromValueLike is FromValue for a value of type t (nil: unknown)
// computed from sources (say, a merge of two objects). Where a node of v
// is the very node of a source (structmerge's operations share unchanged
// subtrees with their inputs), the result holds the source's own Go data
// as SMD's merge results do: an atomic list or map and a scalar are the
// source's own, while separable maps and the other lists are made anew
// all the way down to those (callers write into results, as Kubernetes'
// field manager sets metadata.managedFields in the merged object, and
// never into an atomic part). Elsewhere integers take the Go type the
// sources use for theirs (int rather than int64, as YAML decoders make).
func FromValueLike(v corevalue.Value, t *coreschema.Type, sources ...Source) value.Value {
	conv := func(i int64) interface{} { return i }
	for _, s := range sources {
		if c, ok := intType(s.Go); ok {
			conv = c
			break
		}
	}
	return value.NewValueInterface(unstructuredLike(v, t, sources, conv))
}

// atomic reports whether a value of kind k and type t is one leaf, which
// SMD's merge results share with their inputs.
func atomic(t *coreschema.Type, k corevalue.Kind) bool {
	switch k {
	case corevalue.List:
		return t != nil && t.List() != nil && t.List().Relationship() == coreschema.Atomic
	case corevalue.Map:
		return t != nil && t.Map() != nil && t.Map().Relationship() == coreschema.Atomic
	}
	return true
}

// fieldType is the type of the map field name in a value of type t (nil:
// unknown).
func fieldType(t *coreschema.Type, name string) *coreschema.Type {
	if t == nil || t.Map() == nil {
		return nil
	}
	if f, ok := t.Map().Field(name); ok {
		return f.Type()
	}
	return t.Map().ElementType()
}

// elementType is the type of the items of a list of type t (nil: unknown).
func elementType(t *coreschema.Type) *coreschema.Type {
	if t == nil || t.List() == nil {
		return nil
	}
	return t.List().ElementType()
}

// intType finds the first integer in x and returns a conversion to its Go
// type.
func intType(x interface{}) (func(int64) interface{}, bool) {
	switch t := x.(type) {
	case int:
		return func(i int64) interface{} {
			if int64(int(i)) == i {
				return int(i)
			}
			return i
		}, true
	case int64:
		return func(i int64) interface{} { return i }, true
	case int32:
		return func(i int64) interface{} {
			if int64(int32(i)) == i {
				return int32(i)
			}
			return i
		}, true
	case map[string]interface{}:
		for _, v := range t {
			if c, ok := intType(v); ok {
				return c, true
			}
		}
	case map[interface{}]interface{}:
		for _, v := range t {
			if c, ok := intType(v); ok {
				return c, true
			}
		}
	case []interface{}:
		for _, v := range t {
			if c, ok := intType(v); ok {
				return c, true
			}
		}
	}
	return nil, false
}

func unstructuredLike(v corevalue.Value, t *coreschema.Type, srcs []Source, conv func(int64) interface{}) interface{} {
	for _, s := range srcs {
		if corevalue.Same(v, s.Core) && v.Kind() == s.Core.Kind() && atomic(t, v.Kind()) {
			return s.Go
		}
	}
	switch v.Kind() {
	case corevalue.Map:
		out := make(map[string]interface{}, v.Len())
		sub := make([]Source, 0, len(srcs))
		for _, f := range v.Fields() {
			sub = sub[:0]
			for _, s := range srcs {
				if s.Core.Kind() != corevalue.Map {
					continue
				}
				g, ok := mapGet(s.Go, f.Name)
				c, cok := s.Core.Get(f.Name)
				if ok && cok {
					sub = append(sub, Source{Go: g, Core: c})
				}
			}
			out[f.Name] = unstructuredLike(f.Value, fieldType(t, f.Name), sub, conv)
		}
		return out
	case corevalue.List:
		out := make([]interface{}, v.Len())
		sub := make([]Source, 0, len(srcs))
		et := elementType(t)
		for i, item := range v.Items() {
			sub = sub[:0]
			for _, s := range srcs {
				l, ok := s.Go.([]interface{})
				if ok && s.Core.Kind() == corevalue.List && i < len(l) && i < s.Core.Len() {
					sub = append(sub, Source{Go: l[i], Core: s.Core.Index(i)})
				}
			}
			out[i] = unstructuredLike(item, et, sub, conv)
		}
		return out
	case corevalue.Int:
		return conv(v.AsInt())
	}
	return v.Unstructured()
}

func mapGet(m interface{}, key string) (interface{}, bool) {
	switch t := m.(type) {
	case map[string]interface{}:
		x, ok := t[key]
		return x, ok
	case map[interface{}]interface{}:
		x, ok := t[key]
		return x, ok
	}
	return nil, false
}

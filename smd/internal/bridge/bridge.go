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
	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
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

// Element converts a path element to structmerge's. Values that structmerge
// cannot hold (such as NaN) give an error.
func Element(pe fieldpath.PathElement) (core.PathElement, error) {
	switch {
	case pe.FieldName != nil:
		return core.FieldName(*pe.FieldName), nil
	case pe.Index != nil:
		return core.Index(*pe.Index), nil
	case pe.Value != nil:
		v, err := Value(*pe.Value)
		if err != nil {
			return core.PathElement{}, err
		}
		return core.MemberValue(v), nil
	case pe.Key != nil:
		fields := make([]corevalue.Field, len(*pe.Key))
		for i, f := range *pe.Key {
			v, err := Value(f.Value)
			if err != nil {
				return core.PathElement{}, err
			}
			fields[i] = corevalue.Field{Name: f.Name, Value: v}
		}
		return core.Key(fields), nil
	}
	return core.PathElement{}, errInvalidElement
}

type bridgeError string

func (e bridgeError) Error() string { return string(e) }

const errInvalidElement = bridgeError("invalid PathElement")

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
		key := pe.Key()
		fields := make(value.FieldList, len(key))
		for i, f := range key {
			fields[i] = value.Field{Name: f.Name, Value: FromValue(f.Value)}
		}
		return fieldpath.KeyElement(fields...)
	}
	return fieldpath.PathElement{}
}

// Path converts a path to structmerge's.
func Path(p fieldpath.Path) (core.Path, error) {
	out := make(core.Path, len(p))
	for i, pe := range p {
		e, err := Element(pe)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// FromPath converts structmerge's path to an SMD one.
func FromPath(p core.Path) fieldpath.Path {
	out := make(fieldpath.Path, len(p))
	for i, pe := range p {
		out[i] = FromElement(pe)
	}
	return out
}

// Set converts an SMD set to structmerge's immutable set. A nil set is
// empty.
func Set(s *fieldpath.Set) (*core.Set, error) {
	if s == nil {
		return nil, nil
	}
	var b core.Builder
	var err error
	for p := range s.All() {
		cp, perr := Path(p)
		if perr != nil {
			if err == nil {
				err = perr
			}
			continue
		}
		b.Insert(cp)
	}
	return b.Build(), err
}

// FromSet converts structmerge's set to a new SMD set.
func FromSet(s *core.Set) *fieldpath.Set {
	out := &fieldpath.Set{}
	fill(out, s)
	return out
}

func fill(dst *fieldpath.Set, s *core.Set) {
	if s == nil {
		return
	}
	members := s.Members()
	dst.Members = fieldpath.MakePathElementSet(len(members))
	for _, pe := range members {
		dst.Members.Insert(FromElement(pe))
	}
	for _, c := range s.Children() {
		fill(dst.Children.Descend(FromElement(c.Element)), c.Set)
	}
}

// FromValueLike is FromValue for a value computed from sources (say, a
// merge of two objects): where a scalar of v is at the same place in a
// source and equal to it, the source's Go value is used, so that its Go type
// (int rather than int64, as YAML decoders make) survives the round trip
// through structmerge. Sources are tried in order. The maps and lists of the
// result are new.
func FromValueLike(v corevalue.Value, sources ...value.Value) value.Value {
	srcs := make([]interface{}, 0, len(sources))
	for _, s := range sources {
		if s != nil {
			srcs = append(srcs, s.Unstructured())
		}
	}
	return value.NewValueInterface(unstructuredLike(v, srcs))
}

func unstructuredLike(v corevalue.Value, srcs []interface{}) interface{} {
	switch v.Kind() {
	case corevalue.Map:
		fields := v.Fields()
		out := make(map[string]interface{}, len(fields))
		var sub []interface{}
		for _, f := range fields {
			sub = sub[:0]
			for _, s := range srcs {
				if x, ok := mapGet(s, f.Name); ok {
					sub = append(sub, x)
				}
			}
			out[f.Name] = unstructuredLike(f.Value, sub)
		}
		return out
	case corevalue.List:
		items := v.Items()
		out := make([]interface{}, len(items))
		var sub []interface{}
		for i, item := range items {
			sub = sub[:0]
			for _, s := range srcs {
				if l, ok := s.([]interface{}); ok && i < len(l) {
					sub = append(sub, l[i])
				}
			}
			out[i] = unstructuredLike(item, sub)
		}
		return out
	case corevalue.Int, corevalue.Float:
		for _, s := range srcs {
			sv := value.NewValueInterface(s)
			if (sv.IsInt() || sv.IsFloat()) && value.Equals(sv, FromValue(v)) {
				return s
			}
		}
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

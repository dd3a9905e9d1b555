package kube

import (
	"errors"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
)

// Prune returns obj without the fields that the schema of its version in
// its CRD does not declare, as the API server's storage drops them when it
// serves a custom resource at a version (structural pruning: apiVersion,
// kind and metadata of the object and of embedded resources are kept, and
// so is whatever x-kubernetes-preserve-unknown-fields keeps). pruned lists
// the paths of the fields dropped, in the order found. An object of a kind
// that is not one of the setup's CRDs' is returned as it is. obj is not
// modified.
func (s *Setup) Prune(obj value.Value) (out value.Value, pruned []fieldpath.Path) {
	gvk := GVKOf(obj)
	c, ok := s.crd(gvk)
	if !ok {
		return obj, nil
	}
	for _, v := range c.versions {
		if v.name == gvk.Version {
			var p pruner
			out = p.prune(obj, v.schema, true)
			return out, p.pruned
		}
	}
	return obj, nil
}

// pruner walks a value with a CRD schema (a JSON schema as a value; null
// stands for no schema at all).
type pruner struct {
	path   fieldpath.Path
	pruned []fieldpath.Path
}

func schemaField(s value.Value, name string) value.Value {
	if s.Kind() != value.Map {
		return value.Value{}
	}
	v, _ := s.Get(name)
	return v
}

func schemaFlag(s value.Value, name string) bool {
	v := schemaField(s, name)
	return v.Kind() == value.Bool && v.AsBool()
}

// schemaFor returns the schema of the field called name of a map with
// schema s, and whether the field is declared (by properties, or by an
// additionalProperties that is a schema or true, the latter with no
// schema).
func schemaFor(s value.Value, name string) (value.Value, bool) {
	if p := schemaField(schemaField(s, "properties"), name); p.Kind() == value.Map {
		return p, true
	}
	switch ap := schemaField(s, "additionalProperties"); ap.Kind() {
	case value.Map:
		return ap, true
	case value.Bool:
		return value.Value{}, ap.AsBool()
	}
	return value.Value{}, false
}

func isMetaField(name string) bool {
	return name == "apiVersion" || name == "kind" || name == "metadata"
}

func (p *pruner) record(name string) {
	path := make(fieldpath.Path, len(p.path)+1)
	copy(path, p.path)
	path[len(p.path)] = fieldpath.FieldName(name)
	p.pruned = append(p.pruned, path)
}

// prune drops the fields of x that s does not declare; embedded says that
// x is a resource (the root, or x-kubernetes-embedded-resource).
func (p *pruner) prune(x, s value.Value, embedded bool) value.Value {
	if schemaFlag(s, "x-kubernetes-preserve-unknown-fields") {
		return p.keep(x, s, embedded)
	}
	embedded = embedded || schemaFlag(s, "x-kubernetes-embedded-resource")
	switch x.Kind() {
	case value.Map:
		fields := own.Value.Fields(x)
		out := make([]value.Field, 0, len(fields))
		changed := false
		for _, f := range fields {
			if embedded && isMetaField(f.Name) {
				out = append(out, f)
				continue
			}
			fs, ok := schemaFor(s, f.Name)
			if !ok {
				p.record(f.Name)
				changed = true
				continue
			}
			v := p.child(fieldpath.FieldName(f.Name), f.Value, fs, false)
			changed = changed || !value.Equal(v, f.Value)
			out = append(out, value.Field{Name: f.Name, Value: v})
		}
		if !changed {
			return x
		}
		return own.Value.Map(out)
	case value.List:
		items := schemaField(s, "items")
		return p.list(x, func(i int, it value.Value) value.Value {
			return p.child(fieldpath.Index(i), it, items, false)
		})
	}
	return x
}

// keep walks x under x-kubernetes-preserve-unknown-fields: undeclared
// fields stay as they are; declared ones are pruned by their schema.
func (p *pruner) keep(x, s value.Value, embedded bool) value.Value {
	embedded = embedded || schemaFlag(s, "x-kubernetes-embedded-resource")
	switch x.Kind() {
	case value.Map:
		fields := own.Value.Fields(x)
		out := make([]value.Field, len(fields))
		changed := false
		for i, f := range fields {
			out[i] = f
			if embedded && isMetaField(f.Name) {
				continue
			}
			if fs, ok := schemaFor(s, f.Name); ok {
				v := p.child(fieldpath.FieldName(f.Name), f.Value, fs, false)
				changed = changed || !value.Equal(v, f.Value)
				out[i].Value = v
			}
		}
		if !changed {
			return x
		}
		return own.Value.Map(out)
	case value.List:
		items := schemaField(s, "items")
		return p.list(x, func(i int, it value.Value) value.Value {
			p.path = append(p.path, fieldpath.Index(i))
			defer func() { p.path = p.path[:len(p.path)-1] }()
			return p.keep(it, items, false)
		})
	}
	return x
}

func (p *pruner) child(pe fieldpath.PathElement, x, s value.Value, embedded bool) value.Value {
	p.path = append(p.path, pe)
	defer func() { p.path = p.path[:len(p.path)-1] }()
	return p.prune(x, s, embedded)
}

func (p *pruner) list(x value.Value, f func(int, value.Value) value.Value) value.Value {
	items := own.Value.Items(x)
	var out []value.Value
	for i, it := range items {
		v := f(i, it)
		if out == nil && !value.Equal(v, it) {
			out = make([]value.Value, len(items))
			copy(out, items[:i])
		}
		if out != nil {
			out[i] = v
		}
	}
	if out == nil {
		return x
	}
	return own.Value.List(out)
}

// ReadAt returns live as the API server's storage serves it to a request
// at the version of gvk: converted to that version by the setup's
// converter (for a CRD with conversion None, only the apiVersion changes)
// and pruned to that version's schema (Prune), with the paths of the
// fields dropped. live is returned as it is when it is already at that
// version, is null, or is of a kind the converter does not handle.
func (s *Setup) ReadAt(live value.Value, gvk GroupVersionKind) (value.Value, []fieldpath.Path, error) {
	lg := GVKOf(live)
	if s.Converter == nil || live.IsNull() || lg == gvk || lg.Group != gvk.Group || lg.Kind != gvk.Kind || gvk.Version == "" {
		return live, nil, nil
	}
	out, err := s.Converter.ConvertVersion(live, gvk)
	if errors.Is(err, ErrNotConvertible) {
		return live, nil, nil
	}
	if err != nil {
		return value.Value{}, nil, err
	}
	out, pruned := s.Prune(out)
	return out, pruned, nil
}

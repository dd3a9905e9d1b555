package bridge

import (
	"encoding/json"
	"fmt"

	coreschema "github.com/structmerge/structmerge/schema"
	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// refType is the name of the type Compile adds to hold a TypeRef that is
// not a plain name (an inline atom or an element-relationship override):
// the type of its one field is the compiled form of the reference. The NUL
// byte keeps it apart from every name a schema can have in YAML.
const refType = "\x00ref"

// Compile compiles s into structmerge's immutable type graph, accepting
// what SMD accepts (schema.Lenient: references to undefined types, unknown
// scalar words). For each of
// refs that is not a plain type name, the graph also holds its compiled
// form; Resolve finds it.
//
// As SMD looks types up by name in a map filled in order, the last of
// several types with one name is the one that counts; the others are left
// out (structmerge's Compile rejects duplicates). The same holds for fields
// of a map.
func Compile(s *schema.Schema, refs ...schema.TypeRef) (*coreschema.Schema, error) {
	return compile(s.Types, refs)
}

// CompileReachable is Compile for only the types that name refers to,
// directly or not: what a Parser built as a struct literal compiles when
// asked for one type.
func CompileReachable(s *schema.Schema, name string) (*coreschema.Schema, error) {
	last := lastDefinitions(s.Types)
	var types []schema.TypeDef
	seen := map[string]bool{}
	queue := []string{name}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		i, ok := last[n]
		if !ok {
			continue
		}
		types = append(types, s.Types[i])
		queue = appendNames(queue, s.Types[i].Atom)
	}
	return compile(types, nil)
}

// lastDefinitions maps each type name to the index of its last definition.
func lastDefinitions(types []schema.TypeDef) map[string]int {
	last := make(map[string]int, len(types))
	for i, t := range types {
		last[t.Name] = i
	}
	return last
}

// appendNames appends the type names a refers to.
func appendNames(names []string, a schema.Atom) []string {
	ref := func(r schema.TypeRef) {
		if r.NamedType != nil {
			names = append(names, *r.NamedType)
		} else {
			names = appendNames(names, r.Inlined)
		}
	}
	if a.List != nil {
		ref(a.List.ElementType)
	}
	if a.Map != nil {
		ref(a.Map.ElementType)
		for _, f := range a.Map.Fields {
			ref(f.Type)
		}
	}
	return names
}

func compile(types []schema.TypeDef, refs []schema.TypeRef) (*coreschema.Schema, error) {
	last := lastDefinitions(types)
	doc := &coreschema.Document{Types: make([]coreschema.NamedType, 0, len(last)+1)}
	for i, t := range types {
		if last[t.Name] != i {
			continue
		}
		a, err := atom(t.Atom)
		if err != nil {
			return nil, fmt.Errorf("type %q: %w", t.Name, err)
		}
		doc.Types = append(doc.Types, coreschema.NamedType{Name: t.Name, Atom: a})
	}
	var fields []coreschema.FieldDef
	for i, r := range refs {
		if plain(r) {
			continue
		}
		cr, err := typeRef(r)
		if err != nil {
			return nil, err
		}
		fields = append(fields, coreschema.FieldDef{Name: fmt.Sprint(i), Type: cr})
	}
	if len(fields) > 0 {
		doc.Types = append(doc.Types, coreschema.NamedType{Name: refType, Atom: coreschema.Atom{Map: &coreschema.MapDef{Fields: fields}}})
	}
	return coreschema.Compile(doc, coreschema.Lenient())
}

// plain reports whether r is only a type name.
func plain(r schema.TypeRef) bool {
	return r.NamedType != nil && r.ElementRelationship == nil
}

// Resolve returns the compiled type of refs[i] in c, which Compile made
// with refs. A plain name the schema lacks resolves to structmerge's
// unresolvable type, which operations report as SMD does ("schema error: no
// type found matching: NAME").
func Resolve(c *coreschema.Schema, refs []schema.TypeRef, i int) (*coreschema.Type, error) {
	r := refs[i]
	if plain(r) {
		if t, ok := c.Type(*r.NamedType); ok {
			return t, nil
		}
		return missing(*r.NamedType)
	}
	holder, ok := c.Type(refType)
	if !ok {
		return nil, fmt.Errorf("internal error: no compiled type reference")
	}
	f, ok := holder.Map().Field(fmt.Sprint(i))
	if !ok {
		return nil, fmt.Errorf("internal error: no compiled type reference %d", i)
	}
	return f.Type(), nil
}

// missing compiles a reference to a type that does not exist, which
// structmerge (with Lenient) represents as an unresolvable type.
func missing(name string) (*coreschema.Type, error) {
	c, err := coreschema.Compile(&coreschema.Document{Types: []coreschema.NamedType{{
		Name: refType,
		Atom: coreschema.Atom{Map: &coreschema.MapDef{Fields: []coreschema.FieldDef{{Name: "0", Type: coreschema.TypeRef{NamedType: name}}}}},
	}}}, coreschema.Lenient())
	if err != nil {
		return nil, err
	}
	holder, _ := c.Type(refType)
	f, _ := holder.Map().Field("0")
	return f.Type(), nil
}

func atom(a schema.Atom) (coreschema.Atom, error) {
	var out coreschema.Atom
	if a.Scalar != nil {
		out.Scalar = string(*a.Scalar)
	}
	if a.List != nil {
		et, err := typeRef(a.List.ElementType)
		if err != nil {
			return out, err
		}
		out.List = &coreschema.ListDef{ElementType: et, ElementRelationship: string(a.List.ElementRelationship), Keys: a.List.Keys}
	}
	if a.Map != nil {
		m := &coreschema.MapDef{ElementRelationship: string(a.Map.ElementRelationship)}
		et, err := typeRef(a.Map.ElementType)
		if err != nil {
			return out, err
		}
		m.ElementType = et
		lastField := make(map[string]int, len(a.Map.Fields))
		for i, f := range a.Map.Fields {
			lastField[f.Name] = i
		}
		for i, f := range a.Map.Fields {
			if lastField[f.Name] != i {
				continue
			}
			ft, err := typeRef(f.Type)
			if err != nil {
				return out, fmt.Errorf("field %q: %w", f.Name, err)
			}
			def, err := defaultValue(f.Default)
			if err != nil {
				return out, fmt.Errorf("field %q: default: %w", f.Name, err)
			}
			m.Fields = append(m.Fields, coreschema.FieldDef{Name: f.Name, Type: ft, Default: def})
		}
		for _, u := range a.Map.Unions {
			ud := coreschema.UnionDef{DeduceInvalidDiscriminator: u.DeduceInvalidDiscriminator}
			if u.Discriminator != nil {
				ud.Discriminator, ud.HasDiscriminator = *u.Discriminator, true
			}
			for _, f := range u.Fields {
				ud.Fields = append(ud.Fields, coreschema.UnionFieldDef{FieldName: f.FieldName, DiscriminatorValue: f.DiscriminatorValue})
			}
			m.Unions = append(m.Unions, ud)
		}
		out.Map = m
	}
	return out, nil
}

// defaultValue converts a field's Default to a value. A schema read from
// JSON or YAML holds plain data, which converts as it is. A schema built
// from Go code (kube-openapi's definitions compiled into an API server)
// may hold a Go value of a named type (a v1.Protocol, a pointer, a slice
// or map of them, a struct): such a default is the value its JSON form
// gives, as if the schema had been read from the OpenAPI document that
// form is written to. A default with no JSON form is an error.
func defaultValue(d any) (corevalue.Value, error) {
	v, err := corevalue.FromUnstructured(d)
	if err == nil {
		return v, nil
	}
	b, jerr := json.Marshal(d)
	if jerr != nil {
		return corevalue.Value{}, fmt.Errorf("%w (and it has no JSON form: %v)", err, jerr)
	}
	return corevalue.FromJSON(b)
}

func typeRef(r schema.TypeRef) (coreschema.TypeRef, error) {
	out := coreschema.TypeRef{Nullable: r.Nullable}
	if r.ElementRelationship != nil {
		out.ElementRelationship = string(*r.ElementRelationship)
	}
	if r.NamedType != nil {
		out.NamedType = *r.NamedType
		return out, nil
	}
	a, err := atom(r.Inlined)
	out.Atom = a
	return out, err
}

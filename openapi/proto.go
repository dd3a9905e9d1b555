package openapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// FromV2Proto converts the definitions of an OpenAPI v2 (Swagger) document
// the way client-side tools do: through kube-openapi's proto models
// (proto.NewOpenAPIData) and schemaconv.ToSchemaWithPreserveUnknownFields
// with preserveUnknownFields false, the path of apimachinery's
// managedfields.NewGVKParser. It differs from FromV2 (the API server's
// conversion) in these ways:
//
//   - x-kubernetes-unions become the maps' unions;
//   - a reference to io.k8s.apimachinery.pkg.runtime.RawExtension is a
//     reference to UntypedAtomic, and the definition itself is converted
//     from its schema like any other;
//   - an object with properties ignores additionalProperties; an object
//     without properties takes any field (additionalProperties false
//     included), typed as an inline copy of UntypedDeduced's shape, and so
//     does a schema without a type or properties;
//   - nullable is not kept;
//   - references must start with "#/definitions/" and name a definition;
//     arrays need exactly one items schema; a schema may not combine $ref
//     with a type or properties, nor have more than one type.
//
// Fields come out sorted by name where Kubernetes keeps the document's order
// (the same for Kubernetes' own documents, whose properties are sorted).
func FromV2Proto(data []byte) (*Result, error) {
	root, err := decodeDocument(data)
	if err != nil {
		return nil, err
	}
	if root.Has("openapi") {
		return nil, single(ErrSyntax, `the document is OpenAPI v3 (it has "openapi"); use FromV3`)
	}
	defs, err := definitionsAt(root, "definitions")
	if err != nil {
		return nil, err
	}
	ps := &problems{}
	c := &converter{ps: ps}
	models := make(map[string]bool, len(defs))
	for _, d := range defs {
		models[d.name] = true
	}
	pc := protoConverter{converter: c, models: models}
	doc := &schema.Document{Types: make([]schema.NamedType, 0, len(defs)+2)}
	defined := make(map[string]bool, len(defs)+2)
	var kinds []Kind
	for _, d := range defs {
		if !c.beginDefinition(d) {
			continue
		}
		if ref, ok := c.stringField(d.schema, "$ref"); ok && ref != "" {
			// A reference converts to nothing, which Kubernetes skips.
			pc.checkReference(d.schema, ref)
			continue
		}
		atom := pc.visit(d.schema, false, d.name == quantityName)
		doc.Types = append(doc.Types, schema.NamedType{Name: d.name, Atom: atom})
		defined[d.name] = true
		kinds = appendKinds(kinds, d.name, d.schema)
	}
	doc.Types = append(doc.Types,
		schema.NamedType{Name: UntypedAtomic, Atom: untypedAtomicAtom()},
		schema.NamedType{Name: UntypedDeduced, Atom: deducedAtom()},
	)
	defined[UntypedAtomic] = true
	defined[UntypedDeduced] = true
	for _, r := range c.refs {
		if !defined[r.target] {
			ps.add(ErrReference, r.def, r.path, "$ref to "+strconv.Quote(r.target)+", which the document does not define")
		}
	}
	kinds, _ = sortKinds(kinds, ps)
	if err := ps.err(); err != nil {
		return nil, err
	}
	return &Result{Document: doc, Kinds: kinds}, nil
}

type protoConverter struct {
	*converter
	models map[string]bool
}

const definitionsPrefix = "#/definitions/"

// checkReference checks a schema that is a $ref as proto.NewOpenAPIData
// does, and returns the referenced definition's name.
func (c protoConverter) checkReference(s value.Value, ref string) string {
	if props, ok := s.Get("properties"); ok && props.Kind() == value.Map && props.Len() > 0 {
		c.fail(ErrSyntax, "a $ref may not have properties")
	}
	if v, ok := s.Get("type"); ok && !v.IsNull() && (v.Kind() != value.List || v.Len() > 0) {
		c.fail(ErrSyntax, "a $ref may not have a type")
	}
	name, ok := strings.CutPrefix(ref, definitionsPrefix)
	if !ok {
		c.push("$ref")
		c.fail(ErrReference, "a $ref must start with "+strconv.Quote(definitionsPrefix)+", got "+strconv.Quote(ref))
		c.pop()
		return ""
	}
	if !c.models[name] {
		c.push("$ref")
		c.fail(ErrReference, "$ref to "+strconv.Quote(name)+", which the document does not define")
		c.pop()
		return ""
	}
	return name
}

// types returns the schema's "type" as a list.
func (c protoConverter) types(s value.Value) []string {
	v, ok := s.Get("type")
	if !ok || v.IsNull() {
		return nil
	}
	if v.Kind() == value.String {
		return []string{v.AsString()}
	}
	if v.Kind() == value.List {
		out := make([]string, 0, v.Len())
		for _, it := range v.Items() {
			if it.Kind() != value.String {
				break
			}
			out = append(out, it.AsString())
		}
		if len(out) == v.Len() {
			return out
		}
	}
	c.push("type")
	c.fail(ErrSyntax, `"type" must be a string or a list of strings, got `+describe(v))
	c.pop()
	return nil
}

// visit converts a schema that is not a reference. quantity is set for the
// Quantity definition, whose primitive is untyped.
func (c protoConverter) visit(s value.Value, preserve, quantity bool) schema.Atom {
	if s.Kind() != value.Map {
		c.fail(ErrSyntax, "a schema must be an object, got "+describe(s))
		return deducedAtom()
	}
	props, hasProps := s.Get("properties")
	hasProps = hasProps && !props.IsNull()
	types := c.types(s)
	switch len(types) {
	case 0:
		if hasProps {
			return c.kind(s, props, preserve)
		}
		return deducedAtom()
	case 1:
	default:
		c.push("type")
		c.fail(ErrType, "more than one type is not supported")
		c.pop()
		return deducedAtom()
	}
	switch typ := types[0]; typ {
	case "object":
		if hasProps {
			return c.kind(s, props, preserve)
		}
		m := &schema.MapDef{ElementRelationship: c.mapType(s)}
		if ap, ok := s.Get("additionalProperties"); ok && ap.Kind() == value.Map {
			c.push("additionalProperties")
			m.ElementType = c.ref(ap, preserve)
			c.pop()
		} else {
			m.ElementType = schema.TypeRef{Atom: deducedAtom()}
		}
		return schema.Atom{Map: m}
	case "array":
		l := &schema.ListDef{}
		l.ElementRelationship, l.Keys = c.listType(s)
		items, ok := s.Get("items")
		c.push("items")
		switch {
		case ok && items.Kind() == value.Map:
			l.ElementType = c.ref(items, preserve)
		case ok && items.Kind() == value.List && items.Len() == 1:
			c.push("0")
			l.ElementType = c.ref(items.Index(0), preserve)
			c.pop()
		default:
			c.fail(ErrType, "an array must have exactly one items schema")
			l.ElementType = namedRef(UntypedDeduced)
		}
		c.pop()
		return schema.Atom{List: l}
	case "string", "number", "integer", "boolean":
		if quantity {
			return schema.Atom{Scalar: "untyped"}
		}
		return c.converter.visit(s, preserve)
	default:
		c.push("type")
		c.fail(ErrType, "unrecognized type "+strconv.Quote(typ))
		c.pop()
		return schema.Atom{Scalar: "untyped"}
	}
}

// kind converts an object with properties.
func (c protoConverter) kind(s, props value.Value, preserve bool) schema.Atom {
	if isTrue(s, extPreserveUnknown) {
		preserve = true
	}
	m := &schema.MapDef{}
	c.push("properties")
	if props.Kind() != value.Map {
		c.fail(ErrSyntax, `"properties" must be an object, got `+describe(props))
	} else {
		m.Fields = make([]schema.FieldDef, props.Len())
		for i, f := range props.Fields() {
			c.push(f.Name)
			fd := &m.Fields[i]
			fd.Name = f.Name
			fd.Type = c.ref(f.Value, preserve)
			if f.Value.Kind() == value.Map {
				fd.Default, _ = f.Value.Get("default")
			}
			c.pop()
		}
	}
	c.pop()
	m.Unions = c.unions(s)
	if preserve {
		m.ElementType = namedRef(UntypedDeduced)
	}
	m.ElementRelationship = c.mapType(s)
	return schema.Atom{Map: m}
}

// ref converts a schema in a position that refers to a type.
func (c protoConverter) ref(s value.Value, preserve bool) schema.TypeRef {
	if s.Kind() == value.Map {
		if ref, ok := c.stringField(s, "$ref"); ok && ref != "" {
			name := c.checkReference(s, ref)
			if name == "" {
				return namedRef(UntypedAtomic)
			}
			if name == rawExtensionName {
				return namedRef(UntypedAtomic)
			}
			target := name[strings.LastIndexByte(name, '/')+1:]
			c.refs = append(c.refs, reference{def: c.def, path: c.pointer(), target: target})
			return schema.TypeRef{NamedType: target, ElementRelationship: c.mapType(s)}
		}
	}
	return schema.TypeRef{Atom: c.visit(s, preserve, false)}
}

// unions reads x-kubernetes-unions: a list of objects with an optional
// "discriminator" and "fields-to-discriminateBy" (field name to
// discriminator value). No field may be in two unions, and no two fields
// of a union may share a discriminator value.
func (c protoConverter) unions(s value.Value) []schema.UnionDef {
	ext, ok := s.Get("x-kubernetes-unions")
	if !ok {
		return nil
	}
	c.push("x-kubernetes-unions")
	defer c.pop()
	if ext.Kind() != value.List {
		c.fail(ErrExtension, "x-kubernetes-unions must be a list, got "+describe(ext))
		return nil
	}
	var out []schema.UnionDef
	var used []string
	for i, u := range ext.Items() {
		c.push(strconv.Itoa(i))
		if u.Kind() != value.Map {
			c.fail(ErrExtension, "a union must be an object, got "+describe(u))
			c.pop()
			continue
		}
		var ud schema.UnionDef
		if d, ok := u.Get("discriminator"); ok {
			if d.Kind() != value.String {
				c.fail(ErrExtension, "discriminator must be a string, got "+describe(d))
			} else {
				ud.Discriminator, ud.HasDiscriminator = d.AsString(), true
				used = append(used, d.AsString())
			}
		}
		if fs, ok := u.Get("fields-to-discriminateBy"); ok {
			if fs.Kind() != value.Map {
				c.fail(ErrExtension, "fields-to-discriminateBy must be an object, got "+describe(fs))
			} else {
				var values []string
				for _, f := range fs.Fields() {
					if f.Value.Kind() != value.String {
						c.fail(ErrExtension, "fields-to-discriminateBy: the value of "+strconv.Quote(f.Name)+" must be a string, got "+describe(f.Value))
						continue
					}
					dv := f.Value.AsString()
					if slices.Contains(values, dv) {
						c.fail(ErrExtension, "two fields have the discriminator value "+strconv.Quote(dv))
					}
					values = append(values, dv)
					ud.Fields = append(ud.Fields, schema.UnionFieldDef{FieldName: f.Name, DiscriminatorValue: dv})
					used = append(used, f.Name)
				}
			}
		}
		out = append(out, ud)
		c.pop()
	}
	sorted := slices.Clone(used)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] && (i == 1 || sorted[i-2] != sorted[i]) {
			c.fail(ErrExtension, "field "+strconv.Quote(sorted[i])+" appears in more than one union")
		}
	}
	return out
}

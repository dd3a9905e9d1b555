package openapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
)

// The meta types a converted CustomResourceDefinition refers to. They are
// not part of the CRD's Result.Document: merge it with a document that
// defines them, such as the built-in Kubernetes schema.
const (
	ObjectMetaType = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	ListMetaType   = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
)

const crdAPIVersion = "apiextensions.k8s.io/v1"

// CRDTypeName returns the name FromCRD gives the type of kind in group and
// version: the group's dot-separated parts reversed, then the version and
// the kind, as the API server names it ("stable.example.com", "v1",
// "CronTab" give "com.example.stable.v1.CronTab").
func CRDTypeName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".") + "." + version + "." + kind
}

// FromCRD converts a CustomResourceDefinition (apiextensions.k8s.io/v1, JSON
// or YAML) the way the API server builds the schema its field manager uses
// for the custom resources:
//
//   - each version in spec.versions (served or not, as the API server
//     includes them all) gives a type named CRDTypeName(group, version,
//     kind) from its schema.openAPIV3Schema, and a list type named
//     CRDTypeName(group, version, listKind) with apiVersion, kind, metadata
//     (ListMetaType) and items (an atomic list of the version's type);
//   - the schema is first reduced to its structural part (type, format,
//     nullable, default, properties, items, additionalProperties and the
//     x-kubernetes-preserve-unknown-fields, -embedded-resource,
//     -int-or-string, -list-type, -list-map-keys and -map-type extensions;
//     validations such as enum, pattern, allOf or anyOf do not shape the
//     type and are dropped);
//   - apiVersion and kind become strings and metadata becomes
//     ObjectMetaType, at the root and in every object marked
//     x-kubernetes-embedded-resource;
//   - a version without a schema is a free-form object.
//
// Result.Kinds has one entry per version (the list kind is not indexed, as
// in the API server). The types refer to ObjectMetaType and ListMetaType
// without defining them: Merge the Result.Document with a document that
// defines them (the built-in schema) before compiling.
//
// The API server refuses CRDs whose schemas are not structural; FromCRD
// reports the violations that would change the type (a missing type, $ref,
// x-kubernetes-preserve-unknown-fields: false, int-or-string with a type,
// an embedded resource that is not an object, properties together with
// additionalProperties) but does not repeat every check of the API
// server's validation. spec.preserveUnknownFields: true, which
// apiextensions.k8s.io/v1 no longer allows for new CRDs, is refused.
func FromCRD(data []byte) (*Result, error) {
	root, err := decodeDocument(data)
	if err != nil {
		return nil, err
	}
	ps := &problems{}
	b := crdBuilder{ps: ps}
	defs := b.build(root)
	if err := ps.err(); err != nil {
		return nil, err
	}
	slices.SortFunc(defs, func(a, b definition) int { return strings.Compare(a.name, b.name) })
	for i := 1; i < len(defs); i++ {
		if defs[i].name == defs[i-1].name {
			ps.add(ErrCRD, defs[i].name, "", "two types of the CRD have this name (is the list kind the same as the kind?)")
		}
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return convertDefinitions(defs, false, []string{ObjectMetaType, ListMetaType})
}

type crdBuilder struct {
	ps   *problems
	def  string
	path []string
}

func (b *crdBuilder) fail(msg string) {
	p := ""
	if len(b.path) > 0 {
		p = "/" + strings.Join(b.path, "/")
	}
	b.ps.add(ErrCRD, b.def, p, msg)
}

func (b *crdBuilder) push(seg string) { b.path = append(b.path, escapePointer(seg)) }
func (b *crdBuilder) pop()            { b.path = b.path[:len(b.path)-1] }

// str returns the string at field name of m, reporting a value of another
// kind; required reports an absent or empty one too.
func (b *crdBuilder) str(m value.Value, name string, required bool) string {
	v, ok := m.Get(name)
	b.push(name)
	defer b.pop()
	switch {
	case !ok || v.IsNull():
		if required {
			b.fail("required")
		}
		return ""
	case v.Kind() != value.String:
		b.fail("must be a string, got " + describe(v))
		return ""
	case required && v.AsString() == "":
		b.fail("must not be empty")
	}
	return v.AsString()
}

// obj returns the object at field name of m (null when absent).
func (b *crdBuilder) obj(m value.Value, name string) value.Value {
	v, ok := m.Get(name)
	if !ok || v.IsNull() {
		return value.Value{}
	}
	if v.Kind() != value.Map {
		b.push(name)
		b.fail("must be an object, got " + describe(v))
		b.pop()
		return value.Value{}
	}
	return v
}

func (b *crdBuilder) build(root value.Value) []definition {
	apiVersion := b.str(root, "apiVersion", true)
	kind := b.str(root, "kind", true)
	if kind != "" && kind != "CustomResourceDefinition" {
		b.push("kind")
		b.fail("the document is a " + strconv.Quote(kind) + ", not a CustomResourceDefinition")
		b.pop()
		return nil
	}
	if apiVersion != "" && apiVersion != crdAPIVersion {
		b.push("apiVersion")
		b.fail(strconv.Quote(apiVersion) + " is not supported; want " + strconv.Quote(crdAPIVersion))
		b.pop()
		return nil
	}
	b.push("spec")
	defer b.pop()
	spec := b.obj(root, "spec")
	if spec.IsNull() {
		b.fail("required")
		return nil
	}
	group := b.str(spec, "group", true)
	if v, ok := spec.Get("preserveUnknownFields"); ok && v.Kind() == value.Bool && v.AsBool() {
		b.push("preserveUnknownFields")
		b.fail("true is not supported (apiextensions.k8s.io/v1 requires false; use x-kubernetes-preserve-unknown-fields in the schema)")
		b.pop()
	}
	names := b.obj(spec, "names")
	b.push("names")
	kindName := b.str(names, "kind", true)
	listKind := b.str(names, "listKind", false)
	b.pop()
	if listKind == "" {
		listKind = kindName + "List"
	}
	vs, ok := spec.Get("versions")
	b.push("versions")
	defer b.pop()
	if !ok || vs.Kind() != value.List || vs.Len() == 0 {
		b.fail("must be a non-empty list of versions")
		return nil
	}
	if group == "" || kindName == "" {
		return nil
	}
	var defs []definition
	seen := map[string]bool{}
	for i, v := range vs.Items() {
		b.push(strconv.Itoa(i))
		if v.Kind() != value.Map {
			b.fail("a version must be an object, got " + describe(v))
			b.pop()
			continue
		}
		version := b.str(v, "name", true)
		if version == "" {
			b.pop()
			continue
		}
		if seen[version] {
			b.push("name")
			b.fail("version " + strconv.Quote(version) + " is listed twice")
			b.pop()
			b.pop()
			continue
		}
		seen[version] = true
		sch := b.obj(v, "schema")
		var s value.Value
		if !sch.IsNull() {
			b.push("schema")
			s = b.obj(sch, "openAPIV3Schema")
			b.pop()
		}
		typeName := CRDTypeName(group, version, kindName)
		outer := b.path
		b.def, b.path = typeName, nil
		defs = append(defs,
			definition{name: typeName, schema: b.resourceSchema(s, group, version, kindName)},
			definition{name: CRDTypeName(group, version, listKind), schema: listSchema(typeName, group, version, listKind)},
		)
		b.def, b.path = "", outer
		b.pop()
	}
	return defs
}

// Schemas built with value.NewMap from literal fields.
func object(fields ...value.Field) value.Value { return own.Value.Map(fields) }

func field(name string, v value.Value) value.Field { return value.Field{Name: name, Value: v} }

func stringSchema() value.Value { return object(field("type", value.NewString("string"))) }

func refSchema(name string) value.Value {
	return object(field("$ref", value.NewString("#/components/schemas/"+name)))
}

func gvkExtension(group, version, kind string) value.Value {
	return own.Value.List([]value.Value{object(
		field("group", value.NewString(group)),
		field("version", value.NewString(version)),
		field("kind", value.NewString(kind)),
	)})
}

// resourceSchema builds the schema of a version's custom resource from its
// openAPIV3Schema s (null when the version has none).
func (b *crdBuilder) resourceSchema(s value.Value, group, version, kind string) value.Value {
	gvk := field(extGVK, gvkExtension(group, version, kind))
	if s.IsNull() {
		return object(field("type", value.NewString("object")), gvk)
	}
	st := b.structural(s, true)
	st = withProperties(st, typeMetaAndObjectMeta()...)
	st = addEmbedded(st)
	return withFields(st, gvk)
}

func typeMetaAndObjectMeta() []value.Field {
	return []value.Field{
		field("apiVersion", stringSchema()),
		field("kind", stringSchema()),
		field("metadata", refSchema(ObjectMetaType)),
	}
}

func listSchema(typeName, group, version, listKind string) value.Value {
	return object(
		field("type", value.NewString("object")),
		field("properties", object(
			field("apiVersion", stringSchema()),
			field("kind", stringSchema()),
			field("metadata", refSchema(ListMetaType)),
			field("items", object(
				field("type", value.NewString("array")),
				field("items", refSchema(typeName)),
			)),
		)),
	)
}

// withFields returns the map m with fields set (replacing same names).
func withFields(m value.Value, set ...value.Field) value.Value {
	fields := make([]value.Field, 0, m.Len()+len(set))
	for _, f := range m.Fields() {
		if !slices.ContainsFunc(set, func(s value.Field) bool { return s.Name == f.Name }) {
			fields = append(fields, f)
		}
	}
	fields = append(fields, set...)
	return own.Value.Map(fields)
}

// withProperties returns the schema s with the properties set.
func withProperties(s value.Value, set ...value.Field) value.Value {
	props, _ := s.Get("properties")
	return withFields(s, field("properties", withFields(props, set...)))
}

// addEmbedded sets apiVersion, kind and metadata on every schema below s
// (through properties, items and additionalProperties) that is marked
// x-kubernetes-embedded-resource, as the API server does.
func addEmbedded(s value.Value) value.Value {
	if s.Kind() != value.Map {
		return s
	}
	var set []value.Field
	if props, ok := s.Get("properties"); ok && props.Kind() == value.Map {
		fields := make([]value.Field, props.Len())
		for i, f := range props.Fields() {
			fields[i] = field(f.Name, addEmbedded(f.Value))
		}
		set = append(set, field("properties", own.Value.Map(fields)))
	}
	if items, ok := s.Get("items"); ok && items.Kind() == value.Map {
		set = append(set, field("items", addEmbedded(items)))
	}
	if ap, ok := s.Get("additionalProperties"); ok && ap.Kind() == value.Map {
		set = append(set, field("additionalProperties", addEmbedded(ap)))
	}
	if len(set) > 0 {
		s = withFields(s, set...)
	}
	if isTrue(s, extEmbedded) {
		s = withProperties(s, typeMetaAndObjectMeta()...)
	}
	return s
}

// unsupported lists the keywords a structural schema may not use.
var unsupported = []string{"$ref", "$schema", "id", "patternProperties", "dependencies", "additionalItems", "definitions"}

// structural reduces an openAPIV3Schema to the parts that shape the type,
// checking the structural-schema rules that matter for it.
func (b *crdBuilder) structural(s value.Value, root bool) value.Value {
	if s.Kind() != value.Map {
		b.fail("a schema must be an object, got " + describe(s))
		return object()
	}
	var out []value.Field
	for _, k := range unsupported {
		if v, ok := s.Get(k); ok && !v.IsNull() {
			b.push(k)
			b.fail(strconv.Quote(k) + " is not supported in a CustomResourceDefinition schema")
			b.pop()
		}
	}
	typ := b.str(s, "type", false)
	if typ != "" {
		out = append(out, field("type", value.NewString(typ)))
	}
	if format := b.str(s, "format", false); format != "" {
		out = append(out, field("format", value.NewString(format)))
	}
	if b.flag(s, "nullable") {
		out = append(out, field("nullable", value.NewBool(true)))
	}
	if d, ok := s.Get("default"); ok && !d.IsNull() {
		out = append(out, field("default", d))
	}
	preserve := false
	if v, ok := s.Get(extPreserveUnknown); ok && !v.IsNull() {
		b.push(extPreserveUnknown)
		switch {
		case v.Kind() != value.Bool:
			b.fail("must be a boolean, got " + describe(v))
		case !v.AsBool():
			b.fail("must be true or undefined")
		default:
			preserve = true
			out = append(out, field(extPreserveUnknown, value.NewBool(true)))
		}
		b.pop()
	}
	embedded := b.flag(s, extEmbedded)
	if embedded {
		out = append(out, field(extEmbedded, value.NewBool(true)))
	}
	intOrString := b.flag(s, extIntOrString)
	if intOrString {
		out = append(out, field(extIntOrString, value.NewBool(true)))
	}
	if v, ok := s.Get(extListType); ok && !v.IsNull() {
		if b.str(s, extListType, false); v.Kind() == value.String {
			out = append(out, field(extListType, v))
		}
	}
	if v, ok := s.Get(extListMapKeys); ok && !v.IsNull() {
		if b.stringList(v, extListMapKeys) && v.Len() > 0 {
			out = append(out, field(extListMapKeys, v))
		}
	}
	if v, ok := s.Get(extMapType); ok && !v.IsNull() {
		if b.str(s, extMapType, false); v.Kind() == value.String {
			out = append(out, field(extMapType, v))
		}
	}

	switch {
	case root && typ != "object":
		b.push("type")
		b.fail(`the root of the schema must have type "object"`)
		b.pop()
	case intOrString && typ != "":
		b.push("type")
		b.fail("must be empty with x-kubernetes-int-or-string")
		b.pop()
	case typ == "" && !intOrString && !preserve:
		b.push("type")
		b.fail("must not be empty (a structural schema sets a type unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true)")
		b.pop()
	}
	if embedded {
		if typ != "object" {
			b.push("type")
			b.fail(`must be "object" with x-kubernetes-embedded-resource`)
			b.pop()
		}
	}

	props, hasProps := s.Get("properties")
	if hasProps && !props.IsNull() {
		b.push("properties")
		if props.Kind() != value.Map {
			b.fail("must be an object, got " + describe(props))
		} else if props.Len() > 0 {
			fields := make([]value.Field, props.Len())
			for i, f := range props.Fields() {
				b.push(f.Name)
				fields[i] = field(f.Name, b.structural(f.Value, false))
				b.pop()
			}
			out = append(out, field("properties", own.Value.Map(fields)))
		}
		b.pop()
	}
	hasProps = hasProps && props.Kind() == value.Map && props.Len() > 0
	if embedded && !hasProps && !preserve {
		b.fail("an x-kubernetes-embedded-resource needs properties or x-kubernetes-preserve-unknown-fields")
	}
	if items, ok := s.Get("items"); ok && !items.IsNull() {
		b.push("items")
		if items.Kind() != value.Map {
			b.fail("must be a single schema, got " + describe(items))
		} else {
			out = append(out, field("items", b.structural(items, false)))
		}
		b.pop()
	}
	if ap, ok := s.Get("additionalProperties"); ok && !ap.IsNull() {
		b.push("additionalProperties")
		switch ap.Kind() {
		case value.Map:
			out = append(out, field("additionalProperties", b.structural(ap, false)))
		case value.Bool:
			out = append(out, field("additionalProperties", ap))
		default:
			b.fail("must be a schema or a boolean, got " + describe(ap))
		}
		if hasProps {
			b.fail("properties and additionalProperties are mutually exclusive")
		}
		b.pop()
	}
	return own.Value.Map(out)
}

// flag returns the boolean at field name of s, reporting other kinds.
func (b *crdBuilder) flag(s value.Value, name string) bool {
	v, ok := s.Get(name)
	if !ok || v.IsNull() {
		return false
	}
	if v.Kind() != value.Bool {
		b.push(name)
		b.fail("must be a boolean, got " + describe(v))
		b.pop()
		return false
	}
	return v.AsBool()
}

func (b *crdBuilder) stringList(v value.Value, name string) bool {
	ok := v.Kind() == value.List
	if ok {
		for _, it := range v.Items() {
			if it.Kind() != value.String {
				ok = false
				break
			}
		}
	}
	if !ok {
		b.push(name)
		b.fail("must be a list of strings, got " + describe(v))
		b.pop()
	}
	return ok
}

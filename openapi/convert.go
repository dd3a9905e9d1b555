package openapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// Names of the helper types every converted document ends with, as
// Kubernetes names them.
const (
	// UntypedAtomic is the name of the type for values with no schema that
	// are owned as a whole: any scalar, list or map; lists and maps atomic.
	UntypedAtomic = "__untyped_atomic_"
	// UntypedDeduced is the name of the type whose shape is deduced from the
	// value: any scalar; lists atomic; maps separable, with fields of this
	// same type.
	UntypedDeduced = "__untyped_deduced_"
)

// Definitions Kubernetes converts by name instead of by their schema.
const (
	quantityName     = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	rawExtensionName = "io.k8s.apimachinery.pkg.runtime.RawExtension"
)

// The extensions the converter reads.
const (
	extPreserveUnknown = "x-kubernetes-preserve-unknown-fields"
	extListType        = "x-kubernetes-list-type"
	extListMapKeys     = "x-kubernetes-list-map-keys"
	extMapType         = "x-kubernetes-map-type"
	extPatchStrategy   = "x-kubernetes-patch-strategy"
	extPatchMergeKey   = "x-kubernetes-patch-merge-key"
	extGVK             = "x-kubernetes-group-version-kind"
	extEmbedded        = "x-kubernetes-embedded-resource"
	extIntOrString     = "x-kubernetes-int-or-string"
)

// definition is one named schema of a document.
type definition struct {
	name   string
	schema value.Value
}

// reference records a $ref found while converting, to check it afterwards.
type reference struct {
	def, path, target string
}

// converter turns OpenAPI schemas (as value trees) into schema atoms the way
// k8s.io/kube-openapi's schemaconv.ToSchemaFromOpenAPI does.
type converter struct {
	ps   *problems
	def  string   // the definition being converted
	path []string // JSON pointer segments inside it, escaped
	refs []reference
}

func (c *converter) push(seg string) { c.path = append(c.path, escapePointer(seg)) }
func (c *converter) pop()            { c.path = c.path[:len(c.path)-1] }

func (c *converter) pointer() string {
	if len(c.path) == 0 {
		return ""
	}
	return "/" + strings.Join(c.path, "/")
}

func (c *converter) fail(kind error, msg string) {
	c.ps.add(kind, c.def, c.pointer(), msg)
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// describe renders a value for a message: JSON, shortened when long.
func describe(v value.Value) string {
	s := string(value.ToJSON(v))
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// beginDefinition starts converting definition d: errors now name it. It
// reports whether d can be converted: it has a name and is an object.
func (c *converter) beginDefinition(d definition) bool {
	c.def = d.name
	c.path = c.path[:0]
	if d.name == "" {
		c.fail(ErrSyntax, "a definition has an empty name")
		return false
	}
	if d.schema.Kind() != value.Map {
		c.fail(ErrSyntax, "a definition must be an object, got "+d.schema.Kind().String())
		return false
	}
	return true
}

// convertDefinitions converts definitions (sorted by name, names unique)
// into a Document ending with the two helper types, and collects their
// group-version-kinds. external names types that references may point to
// although the document does not define them.
func convertDefinitions(defs []definition, preserveUnknown bool, external []string) (*Result, error) {
	ps := &problems{}
	c := &converter{ps: ps}
	doc := &schema.Document{Types: make([]schema.NamedType, 0, len(defs)+2)}
	defined := make(map[string]bool, len(defs)+2+len(external))
	var kinds []Kind
	for _, d := range defs {
		if !c.beginDefinition(d) {
			continue
		}
		// Kubernetes skips a definition that is only a reference.
		if ref, ok := c.stringField(d.schema, "$ref"); ok && ref != "" {
			continue
		}
		var atom schema.Atom
		switch d.name {
		case quantityName:
			atom = schema.Atom{Scalar: "untyped"}
		case rawExtensionName:
			atom = untypedAtomicAtom()
		default:
			atom = c.visit(d.schema, preserveUnknown)
		}
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
	for _, e := range external {
		defined[e] = true
	}
	for _, r := range c.refs {
		if !defined[r.target] {
			ps.add(ErrReference, r.def, r.path, "$ref to "+strconv.Quote(r.target)+", which the document does not define")
		}
	}
	kinds, err := sortKinds(kinds, ps)
	if err != nil {
		return nil, err
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return &Result{Document: doc, Kinds: kinds}, nil
}

func namedRef(name string) schema.TypeRef { return schema.TypeRef{NamedType: name} }

func untypedAtomicAtom() schema.Atom {
	return schema.Atom{
		Scalar: "untyped",
		List:   &schema.ListDef{ElementType: namedRef(UntypedAtomic), ElementRelationship: "atomic"},
		Map:    &schema.MapDef{ElementType: namedRef(UntypedAtomic), ElementRelationship: "atomic"},
	}
}

func deducedAtom() schema.Atom {
	return schema.Atom{
		Scalar: "untyped",
		List:   &schema.ListDef{ElementType: namedRef(UntypedAtomic), ElementRelationship: "atomic"},
		Map:    &schema.MapDef{ElementType: namedRef(UntypedDeduced), ElementRelationship: "separable"},
	}
}

// stringField returns the string field name of the schema s. A field of
// another kind is reported; null counts as absent.
func (c *converter) stringField(s value.Value, name string) (string, bool) {
	v, ok := s.Get(name)
	if !ok || v.IsNull() {
		return "", false
	}
	if v.Kind() != value.String {
		c.push(name)
		c.fail(ErrSyntax, strconv.Quote(name)+" must be a string, got "+describe(v))
		c.pop()
		return "", false
	}
	return v.AsString(), true
}

// boolField returns the boolean field name of s (false when absent or null).
func (c *converter) boolField(s value.Value, name string) bool {
	v, ok := s.Get(name)
	if !ok || v.IsNull() {
		return false
	}
	if v.Kind() != value.Bool {
		c.push(name)
		c.fail(ErrSyntax, strconv.Quote(name)+" must be a boolean, got "+describe(v))
		c.pop()
		return false
	}
	return v.AsBool()
}

// typeOf returns the first entry of the schema's "type" (a string or a list
// of strings), "" when there is none.
func (c *converter) typeOf(s value.Value) string {
	v, ok := s.Get("type")
	if !ok {
		return ""
	}
	switch v.Kind() {
	case value.Null:
		return ""
	case value.String:
		return v.AsString()
	case value.List:
		items := own.Value.Items(v)
		for _, it := range items {
			if it.Kind() != value.String {
				c.push("type")
				c.fail(ErrSyntax, `"type" must be a string or a list of strings, got `+describe(v))
				c.pop()
				return ""
			}
		}
		if len(items) == 0 {
			return ""
		}
		return items[0].AsString()
	}
	c.push("type")
	c.fail(ErrSyntax, `"type" must be a string or a list of strings, got `+describe(v))
	c.pop()
	return ""
}

// isTrue reports whether the extension name of s is the boolean true.
func isTrue(s value.Value, name string) bool {
	v, ok := s.Get(name)
	return ok && v.Kind() == value.Bool && v.AsBool()
}

// visit converts one schema. A schema with
// x-kubernetes-preserve-unknown-fields: true turns preservation on for
// itself and for every schema inlined below it.
func (c *converter) visit(s value.Value, preserve bool) schema.Atom {
	if s.Kind() != value.Map {
		c.fail(ErrSyntax, "a schema must be an object, got "+describe(s))
		return schema.Atom{Scalar: "untyped"}
	}
	if isTrue(s, extPreserveUnknown) {
		preserve = true
	}
	typ := c.typeOf(s)
	switch typ {
	case "":
		// No type accepts anything.
		return schema.Atom{
			Scalar: "untyped",
			List:   c.list(s, typ, preserve),
			Map:    c.object(s, preserve),
		}
	case "object":
		return schema.Atom{Map: c.object(s, preserve)}
	case "array":
		return schema.Atom{List: c.list(s, typ, preserve)}
	case "integer", "number":
		return schema.Atom{Scalar: "numeric"}
	case "boolean":
		return schema.Atom{Scalar: "boolean"}
	case "string":
		format, _ := c.stringField(s, "format")
		switch format {
		case "", "byte":
			return schema.Atom{Scalar: "string"}
		}
		// int-or-string, date-time, quantity and every other format.
		return schema.Atom{Scalar: "untyped"}
	}
	c.push("type")
	c.fail(ErrType, "unrecognized type "+strconv.Quote(typ))
	c.pop()
	return schema.Atom{Scalar: "untyped"}
}

// refTarget returns the last segment of the schema's $ref, or of the $ref of
// its only allOf entry; "" when there is none.
func (c *converter) refTarget(s value.Value) string {
	ref, _ := c.stringField(s, "$ref")
	if ref == "" {
		if all, ok := s.Get("allOf"); ok && all.Kind() == value.List && all.Len() == 1 {
			if only := all.Index(0); only.Kind() == value.Map {
				c.push("allOf")
				c.push("0")
				ref, _ = c.stringField(only, "$ref")
				c.pop()
				c.pop()
			}
		} else if ok && !all.IsNull() && all.Kind() != value.List {
			c.push("allOf")
			c.fail(ErrSyntax, `"allOf" must be a list of schemas, got `+describe(all))
			c.pop()
		}
	}
	if ref == "" {
		return ""
	}
	return ref[strings.LastIndexByte(ref, '/')+1:]
}

// ref converts a schema in a position that refers to a type: a property, the
// items of an array, the additional properties of an object.
func (c *converter) ref(s value.Value, preserve bool) schema.TypeRef {
	if s.Kind() != value.Map {
		c.fail(ErrSyntax, "a schema must be an object, got "+describe(s))
		return schema.TypeRef{Atom: schema.Atom{Scalar: "untyped"}}
	}
	nullable := c.boolField(s, "nullable")
	if target := c.refTarget(s); target != "" {
		c.refs = append(c.refs, reference{def: c.def, path: c.pointer(), target: target})
		return schema.TypeRef{
			NamedType:           target,
			ElementRelationship: c.mapType(s),
			Nullable:            nullable,
		}
	}
	return schema.TypeRef{Atom: c.visit(s, preserve), Nullable: nullable}
}

// object converts the map part of a schema.
func (c *converter) object(s value.Value, preserve bool) *schema.MapDef {
	m := &schema.MapDef{}
	props, _ := s.Get("properties")
	switch props.Kind() {
	case value.Null:
	case value.Map:
		c.push("properties")
		fields := own.Value.Fields(props)
		m.Fields = make([]schema.FieldDef, len(fields))
		for i, f := range fields {
			c.push(f.Name)
			fd := &m.Fields[i]
			fd.Name = f.Name
			fd.Type = c.ref(f.Value, preserve)
			if f.Value.Kind() == value.Map {
				fd.Default, _ = f.Value.Get("default")
			}
			c.pop()
		}
		c.pop()
	default:
		c.push("properties")
		c.fail(ErrSyntax, `"properties" must be an object, got `+describe(props))
		c.pop()
	}
	ap, ok := s.Get("additionalProperties")
	switch {
	case !ok || ap.IsNull():
		// An object without properties is free-form; one with properties
		// takes no others unless unknown fields are preserved.
		if preserve || len(m.Fields) == 0 {
			m.ElementType = namedRef(UntypedDeduced)
		}
	case ap.Kind() == value.Map:
		c.push("additionalProperties")
		m.ElementType = c.ref(ap, preserve)
		c.pop()
	case ap.Kind() == value.Bool:
		if ap.AsBool() {
			m.ElementType = namedRef(UntypedDeduced)
		}
	default:
		c.push("additionalProperties")
		c.fail(ErrSyntax, `"additionalProperties" must be a schema or a boolean, got `+describe(ap))
		c.pop()
	}
	m.ElementRelationship = c.mapType(s)
	return m
}

// mapType reads x-kubernetes-map-type: "atomic" or "granular" (separable);
// "" when absent.
func (c *converter) mapType(s value.Value) string {
	v, ok := s.Get(extMapType)
	if !ok {
		return ""
	}
	if v.Kind() == value.String {
		switch v.AsString() {
		case "atomic":
			return "atomic"
		case "granular":
			return "separable"
		}
	}
	c.push(extMapType)
	c.fail(ErrExtension, "unknown map type "+describe(v)+` (want "atomic" or "granular")`)
	c.pop()
	return ""
}

// list converts the list part of a schema.
func (c *converter) list(s value.Value, typ string, preserve bool) *schema.ListDef {
	l := &schema.ListDef{}
	l.ElementRelationship, l.Keys = c.listType(s)
	items, ok := s.Get("items")
	switch {
	case ok && !items.IsNull():
		c.push("items")
		if items.Kind() == value.Map {
			l.ElementType = c.ref(items, preserve)
		} else {
			c.fail(ErrType, `"items" must be a single schema, got `+describe(items))
			l.ElementType = namedRef(UntypedDeduced)
		}
		c.pop()
		return l
	case typ != "":
		c.fail(ErrType, `an array must have "items"`)
	}
	// A list without items holds anything, atomically.
	l.ElementType = namedRef(UntypedAtomic)
	return l
}

// listType reads x-kubernetes-list-type (with x-kubernetes-list-map-keys),
// falling back to x-kubernetes-patch-strategy and
// x-kubernetes-patch-merge-key; a list is atomic when none is given.
func (c *converter) listType(s value.Value) (rel string, keys []string) {
	if v, ok := s.Get(extListType); ok {
		word := ""
		if v.Kind() == value.String {
			word = v.AsString()
		}
		switch word {
		case "atomic":
			return "atomic", nil
		case "set":
			return "associative", nil
		case "map":
			kv, ok := s.Get(extListMapKeys)
			if !ok {
				c.push(extListType)
				c.fail(ErrExtension, `list type "map" without x-kubernetes-list-map-keys`)
				c.pop()
				return "associative", nil
			}
			if kv.Kind() != value.List {
				c.push(extListMapKeys)
				c.fail(ErrExtension, "x-kubernetes-list-map-keys must be a list of strings, got "+describe(kv))
				c.pop()
				return "associative", nil
			}
			// Like Kubernetes, entries that are not strings are skipped.
			for _, k := range kv.Items() {
				if k.Kind() == value.String {
					keys = append(keys, k.AsString())
				}
			}
			return "associative", keys
		}
		c.push(extListType)
		c.fail(ErrExtension, "unknown list type "+describe(v)+` (want "atomic", "set" or "map")`)
		c.pop()
		return "atomic", nil
	}
	if v, ok := s.Get(extPatchStrategy); ok {
		word := ""
		if v.Kind() == value.String {
			word = v.AsString()
		}
		switch word {
		case "merge", "merge,retainKeys":
			k, ok := s.Get(extPatchMergeKey)
			if !ok {
				// Merging without a key: a set.
				return "associative", nil
			}
			if k.Kind() != value.String {
				c.push(extPatchMergeKey)
				c.fail(ErrExtension, "x-kubernetes-patch-merge-key must be a string, got "+describe(k))
				c.pop()
				return "associative", nil
			}
			return "associative", []string{k.AsString()}
		case "retainKeys":
			return "atomic", nil
		}
		c.push(extPatchStrategy)
		c.fail(ErrExtension, "unknown patch strategy "+describe(v))
		c.pop()
		return "atomic", nil
	}
	return "atomic", nil
}

// appendKinds adds the group-version-kinds of x-kubernetes-group-version-kind
// on a definition. Like Kubernetes, entries that are not objects with
// string group, version and kind are skipped, and so are empty kinds.
func appendKinds(kinds []Kind, name string, s value.Value) []Kind {
	ext, ok := s.Get(extGVK)
	if !ok || ext.Kind() != value.List {
		return kinds
	}
	for _, e := range ext.Items() {
		if e.Kind() != value.Map {
			continue
		}
		g, gok := e.Get("group")
		v, vok := e.Get("version")
		k, kok := e.Get("kind")
		if !gok || !vok || !kok || g.Kind() != value.String || v.Kind() != value.String || k.Kind() != value.String {
			continue
		}
		if k.AsString() == "" {
			continue
		}
		kinds = append(kinds, Kind{Group: g.AsString(), Version: v.AsString(), Kind: k.AsString(), TypeName: name})
	}
	return kinds
}

// sortKinds sorts kinds and removes repeats; a group-version-kind claimed by
// two definitions is a conflict.
func sortKinds(kinds []Kind, ps *problems) ([]Kind, error) {
	slices.SortFunc(kinds, compareKinds)
	kinds = slices.Compact(kinds)
	for i := 1; i < len(kinds); i++ {
		a, b := kinds[i-1], kinds[i]
		if a.Group == b.Group && a.Version == b.Version && a.Kind == b.Kind {
			ps.add(ErrDuplicate, b.TypeName, "", "group "+strconv.Quote(a.Group)+" version "+strconv.Quote(a.Version)+
				" kind "+strconv.Quote(a.Kind)+" is also claimed by definition "+strconv.Quote(a.TypeName))
		}
	}
	if kinds == nil {
		kinds = []Kind{}
	}
	return kinds, nil
}

func compareKinds(a, b Kind) int {
	if c := strings.Compare(a.Group, b.Group); c != 0 {
		return c
	}
	if c := strings.Compare(a.Version, b.Version); c != 0 {
		return c
	}
	if c := strings.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	return strings.Compare(a.TypeName, b.TypeName)
}

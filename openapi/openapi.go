package openapi

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// Result is a converted document: the schema in source form and the
// group-version-kinds the document's definitions declare.
//
// The Document is ordinary mutable data owned by the caller; Kinds is the
// caller's too.
type Result struct {
	// Document holds one named type per definition (sorted by name; a
	// definition that is only a $ref is skipped, as Kubernetes skips it),
	// then the helper types UntypedAtomic and UntypedDeduced.
	Document *schema.Document
	// Kinds lists the group-version-kinds of the document, sorted by group,
	// version and kind, each with the name of its type. Never nil.
	Kinds []Kind
}

// Kind is one group-version-kind and the name of the type of its objects.
type Kind struct {
	Group, Version, Kind string
	// TypeName is the name of the type in Result.Document.
	TypeName string
}

// APIVersion returns the kind's apiVersion: "group/version", or "version"
// for the core group.
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// FromV2 converts the definitions of an OpenAPI v2 (Swagger) document, JSON
// or YAML, as Kubernetes' schemaconv.ToSchemaFromOpenAPI converts them (with
// preserveUnknownFields false). Definitions with an
// x-kubernetes-group-version-kind extension give the Kinds.
func FromV2(data []byte) (*Result, error) {
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
	return convertDefinitions(defs, false, nil)
}

// FromV3 converts components.schemas of an OpenAPI v3 document, JSON or
// YAML, as Kubernetes' schemaconv.ToSchemaFromOpenAPI converts them (with
// preserveUnknownFields false): the conversion the API server's field
// manager uses for built-in types.
func FromV3(data []byte) (*Result, error) {
	return FromV3Documents(data)
}

// FromV3Documents converts the union of components.schemas of several
// OpenAPI v3 documents, such as the per-group-version documents Kubernetes
// publishes (api/openapi-spec/v3). A name defined by more than one document
// must have the same schema in each, except for
// x-kubernetes-group-version-kind, whose entries are combined (Kubernetes
// lists in each document only the kinds of that group-version). The result
// does not depend on the order of the documents.
func FromV3Documents(docs ...[]byte) (*Result, error) {
	var all [][]definition
	for i, data := range docs {
		root, err := decodeDocument(data)
		if err != nil {
			if len(docs) > 1 {
				return nil, fmt.Errorf("openapi: document #%d: %w", i, err)
			}
			return nil, err
		}
		if root.Has("swagger") {
			return nil, single(ErrSyntax, documentLabel(i, len(docs))+`the document is OpenAPI v2 (it has "swagger"); use FromV2`)
		}
		comps, _ := root.Get("components")
		var defs []definition
		switch comps.Kind() {
		case value.Null:
		case value.Map:
			defs, err = definitionsAt(comps, "schemas")
			if err != nil {
				return nil, err
			}
		default:
			return nil, single(ErrSyntax, documentLabel(i, len(docs))+`"components" must be an object, got `+describe(comps))
		}
		all = append(all, defs)
	}
	defs, err := mergeDefinitions(all)
	if err != nil {
		return nil, err
	}
	return convertDefinitions(defs, false, nil)
}

func documentLabel(i, n int) string {
	if n <= 1 {
		return ""
	}
	return "document #" + strconv.Itoa(i) + ": "
}

func single(kind error, msg string) error {
	return &Error{Problems: []Problem{{Kind: kind, Message: msg}}}
}

// decodeDocument decodes JSON (when the input starts with '{') or YAML into
// a map.
func decodeDocument(data []byte) (value.Value, error) {
	var v value.Value
	var err error
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		v, err = value.FromJSON(data)
	} else {
		v, err = value.FromYAML(data)
	}
	if err != nil {
		return value.Value{}, &Error{Problems: []Problem{{Kind: ErrSyntax, Message: err.Error(), Err: err}}}
	}
	if v.Kind() != value.Map {
		return value.Value{}, single(ErrSyntax, "the document must be an object, got "+v.Kind().String())
	}
	return v, nil
}

// definitionsAt returns the definitions held in the object field name of m,
// sorted by name.
func definitionsAt(m value.Value, name string) ([]definition, error) {
	d, ok := m.Get(name)
	if !ok || d.IsNull() {
		return nil, nil
	}
	if d.Kind() != value.Map {
		return nil, single(ErrSyntax, strconv.Quote(name)+" must be an object, got "+describe(d))
	}
	fields := own.Value.Fields(d)
	defs := make([]definition, len(fields))
	for i, f := range fields {
		defs[i] = definition{name: f.Name, schema: f.Value}
	}
	return defs, nil
}

// mergeDefinitions combines several sorted lists of definitions.
func mergeDefinitions(all [][]definition) ([]definition, error) {
	if len(all) == 1 {
		return all[0], nil
	}
	type entry struct {
		def   definition
		doc   int
		kinds []value.Value // combined x-kubernetes-group-version-kind entries
		more  bool          // defined by more than one document
	}
	index := make(map[string]int)
	var merged []entry
	ps := &problems{}
	for doc, defs := range all {
		for _, d := range defs {
			i, seen := index[d.name]
			if !seen {
				index[d.name] = len(merged)
				merged = append(merged, entry{def: d, doc: doc})
				continue
			}
			e := &merged[i]
			if !value.Equal(withoutKinds(e.def.schema), withoutKinds(d.schema)) {
				ps.add(ErrDuplicate, d.name, "", fmt.Sprintf("defined differently in document #%d and document #%d", e.doc, doc))
				continue
			}
			if !e.more {
				e.more = true
				e.kinds = kindEntries(e.def.schema)
			}
			for _, k := range kindEntries(d.schema) {
				if !slices.ContainsFunc(e.kinds, func(x value.Value) bool { return value.Equal(x, k) }) {
					e.kinds = append(e.kinds, k)
				}
			}
		}
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	out := make([]definition, len(merged))
	for i, e := range merged {
		out[i] = e.def
		if e.more && len(e.kinds) > 0 {
			out[i].schema = withKinds(e.def.schema, e.kinds)
		}
	}
	slices.SortFunc(out, func(a, b definition) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

func kindEntries(s value.Value) []value.Value {
	ext, ok := s.Get(extGVK)
	if !ok || ext.Kind() != value.List {
		return nil
	}
	return slices.Clone(own.Value.Items(ext))
}

func withoutKinds(s value.Value) value.Value {
	if s.Kind() != value.Map || !s.Has(extGVK) {
		return s
	}
	fields := make([]value.Field, 0, s.Len()-1)
	for _, f := range s.Fields() {
		if f.Name != extGVK {
			fields = append(fields, f)
		}
	}
	return own.Value.Map(fields)
}

func withKinds(s value.Value, kinds []value.Value) value.Value {
	fields := make([]value.Field, 0, s.Len()+1)
	for _, f := range s.Fields() {
		if f.Name != extGVK {
			fields = append(fields, f)
		}
	}
	fields = append(fields, value.Field{Name: extGVK, Value: own.Value.List(kinds)})
	return own.Value.Map(fields)
}

// Merge combines documents into one: the types of each, in order, with a
// name defined by several documents kept once. A name defined differently
// by two documents (ignoring Line fields) is a conflict. It is how a
// converted CustomResourceDefinition is joined to the built-in types it
// refers to. Merge does not modify its arguments; the result shares the
// types' inner definitions with them.
func Merge(docs ...*schema.Document) (*schema.Document, error) {
	out := &schema.Document{}
	index := make(map[string]int)
	ps := &problems{}
	for i, doc := range docs {
		if doc == nil {
			ps.add(ErrSyntax, "", "", fmt.Sprintf("document #%d is nil", i))
			continue
		}
		for _, t := range doc.Types {
			j, seen := index[t.Name]
			if !seen {
				index[t.Name] = len(out.Types)
				out.Types = append(out.Types, t)
				continue
			}
			if !atomEqual(&out.Types[j].Atom, &t.Atom, 0) {
				ps.add(ErrDuplicate, t.Name, "", fmt.Sprintf("document #%d defines it differently from an earlier document", i))
			}
		}
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// atomEqual compares two source atoms, ignoring Line fields. Nesting deeper
// than schema.MaxDepth (only possible for a Document built in code with
// shared pointers) compares unequal.
func atomEqual(a, b *schema.Atom, depth int) bool {
	if depth > schema.MaxDepth {
		return false
	}
	if a.Scalar != b.Scalar || (a.List == nil) != (b.List == nil) || (a.Map == nil) != (b.Map == nil) {
		return false
	}
	if a.List != nil {
		x, y := a.List, b.List
		if x.ElementRelationship != y.ElementRelationship || !slices.Equal(x.Keys, y.Keys) ||
			!refEqual(&x.ElementType, &y.ElementType, depth+1) {
			return false
		}
	}
	if a.Map != nil {
		x, y := a.Map, b.Map
		if x.ElementRelationship != y.ElementRelationship || len(x.Fields) != len(y.Fields) ||
			len(x.Unions) != len(y.Unions) || !refEqual(&x.ElementType, &y.ElementType, depth+1) {
			return false
		}
		for i := range x.Fields {
			fx, fy := &x.Fields[i], &y.Fields[i]
			if fx.Name != fy.Name || fx.Default.IsNull() != fy.Default.IsNull() ||
				!value.Equal(fx.Default, fy.Default) || !refEqual(&fx.Type, &fy.Type, depth+1) {
				return false
			}
		}
		for i := range x.Unions {
			ux, uy := &x.Unions[i], &y.Unions[i]
			if ux.Discriminator != uy.Discriminator || ux.HasDiscriminator != uy.HasDiscriminator ||
				ux.DeduceInvalidDiscriminator != uy.DeduceInvalidDiscriminator ||
				!slices.EqualFunc(ux.Fields, uy.Fields, func(p, q schema.UnionFieldDef) bool {
					return p.FieldName == q.FieldName && p.DiscriminatorValue == q.DiscriminatorValue
				}) {
				return false
			}
		}
	}
	return true
}

func refEqual(a, b *schema.TypeRef, depth int) bool {
	return a.NamedType == b.NamedType && a.ElementRelationship == b.ElementRelationship &&
		a.Nullable == b.Nullable && atomEqual(&a.Atom, &b.Atom, depth)
}

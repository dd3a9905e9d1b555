package typed

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	coreschema "github.com/structmerge/structmerge/schema"
	corevalue "github.com/structmerge/structmerge/value"
	yaml "go.yaml.in/yaml/v2"

	"sigs.k8s.io/structured-merge-diff/v6/internal/bridge"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// YAMLObject is an object or a schema as YAML text.
type YAMLObject string

// Parser holds a schema and its compiled form. Make one with NewParser,
// which compiles the schema once; a Parser built as a struct literal (it
// has no compiled form) compiles, on each call of Type, the types the
// requested one reaches. Schema must not be modified after NewParser.
type Parser struct {
	Schema schema.Schema

	compiled *coreschema.Schema
	err      error
}

// schemaSchema is the compiled schema of schemas, which NewParser validates
// its input against. It is made during package initialisation and never
// written again.
var schemaSchema = mustParse(YAMLObject(schema.SchemaSchemaYAML)).Type("schema")

// mustParse parses and compiles a schema without validating it; it panics
// on error, for the package's own schemas.
func mustParse(s YAMLObject) *Parser {
	p, err := parse(s)
	if err != nil {
		panic(fmt.Errorf("failed to create parser: %v", err))
	}
	return p
}

func parse(s YAMLObject) (*Parser, error) {
	p := &Parser{}
	if err := yaml.Unmarshal([]byte(s), &p.Schema); err != nil {
		return nil, err
	}
	p.compiled, p.err = bridge.Compile(&p.Schema)
	return p, p.err
}

// NewParser checks that s is a valid schema (it must validate against
// schema.SchemaSchemaYAML), decodes it and compiles it.
func NewParser(s YAMLObject) (*Parser, error) {
	if _, err := schemaSchema.FromYAML(s); err != nil {
		return nil, fmt.Errorf("unable to validate schema: %v", err)
	}
	return parse(s)
}

// TypeNames returns the names of the schema's types, in order.
func (p *Parser) TypeNames() (names []string) {
	for _, t := range p.Schema.Types {
		names = append(names, t.Name)
	}
	return names
}

// Type returns the type called name. Whether it exists is checked when a
// value is made of it (see ParseableType.IsValid).
func (p *Parser) Type(name string) ParseableType {
	pt := ParseableType{Schema: &p.Schema, TypeRef: schema.TypeRef{NamedType: &name}}
	compiled, err := p.compiled, p.err
	if compiled == nil && err == nil {
		// A Parser built as a struct literal has no compiled schema: compile
		// here the types this one reaches.
		compiled, err = bridge.CompileReachable(&p.Schema, name)
	}
	if err != nil {
		pt.err = err
		return pt
	}
	pt.t, pt.err = bridge.Resolve(compiled, []schema.TypeRef{pt.TypeRef}, 0)
	return pt
}

// ParseableType is a type of a schema, from which typed values are made.
// One made by Parser.Type carries the type compiled by the parser; one
// built as a struct literal compiles its schema each time a value is made.
type ParseableType struct {
	TypeRef schema.TypeRef
	Schema  *schema.Schema

	t   *coreschema.Type
	err error
}

// IsValid reports whether the type exists in the schema.
func (p ParseableType) IsValid() bool {
	_, ok := p.Schema.Resolve(p.TypeRef)
	return ok
}

// FromYAML decodes object (YAML, as go.yaml.in/yaml/v2 does) and returns it
// as a value of the type, validated.
func (p ParseableType) FromYAML(object YAMLObject, opts ...ValidationOptions) (*TypedValue, error) {
	var v interface{}
	if err := yaml.Unmarshal([]byte(object), &v); err != nil {
		return nil, err
	}
	return p.asTyped(value.NewValueInterface(v), opts)
}

// FromUnstructured returns in (unstructured Go data) as a value of the
// type, validated.
func (p ParseableType) FromUnstructured(in interface{}, opts ...ValidationOptions) (*TypedValue, error) {
	return p.asTyped(value.NewValueInterface(in), opts)
}

// FromStructured returns in (a Go struct, as encoding/json sees it) as a
// value of the type, validated.
//
// The value holds the object in the engine's form only, made from its
// JSON encoding (encoding/json's own per-type cache does the reflection;
// this module keeps none); AsValue is a view of that form. Types that
// convert themselves to unstructured data do so. As in SMD, an object
// whose own MarshalJSON fails is an error, and one a part of which fails
// to marshal itself panics with that part's error.
func (p ParseableType) FromStructured(in interface{}, opts ...ValidationOptions) (*TypedValue, error) {
	switch in.(type) {
	case value.UnstructuredConverter, value.UnstructuredConverterWithError:
		v, err := value.NewValueReflect(in)
		if err != nil {
			return nil, fmt.Errorf("error creating struct value reflector: %v", err)
		}
		return p.asTyped(v, opts)
	}
	// An Encoder writing into a strings.Builder copies the encoding once
	// (json.Marshal copies it out, and a string of that would copy it
	// again); the text ends in the Encoder's newline, which decoding skips.
	var sb strings.Builder
	if err := json.NewEncoder(&sb).Encode(in); err != nil {
		var me *json.MarshalerError
		if errors.As(err, &me) {
			if !isRootType(me.Type, in) {
				// SMD converts the parts of a Go object that convert
				// themselves (MarshalJSON) as its walk reaches them, and
				// panics with the error of one that fails. The API server
				// relies on that panic to refuse the request with an
				// internal error (Kubernetes'
				// TestRequestObjectConvertibleToUnstructured): the field
				// manager logs and ignores errors, but not panics.
				panic(me.Unwrap())
			}
			return nil, fmt.Errorf("error creating struct value reflector: %v", me.Unwrap())
		}
		return nil, fmt.Errorf("error creating struct value reflector: value: %v", err)
	}
	text := sb.String()
	cv, err := corevalue.FromJSONString(text)
	if err != nil {
		return nil, fmt.Errorf("error creating struct value reflector: value: %v", err)
	}
	t, terr := p.compiled()
	if terr != nil {
		return nil, schemaError(terr)
	}
	return typedCore(&TypedValue{typeRef: p.TypeRef, schema: p.Schema, fromCore: true, text: text}, cv, t, true, opts)
}

// isRootType reports whether t is the type of in, or of what in points to.
func isRootType(t reflect.Type, in interface{}) bool {
	rt := reflect.TypeOf(in)
	return t == rt || (rt != nil && rt.Kind() == reflect.Pointer && t == rt.Elem())
}

// compiled returns the compiled type (or why there is none): the
// parser's, or, for a ParseableType made without one, compiled now.
func (p ParseableType) compiled() (*coreschema.Type, error) {
	if p.t == nil && p.err == nil {
		return compile(p.Schema, p.TypeRef)
	}
	return p.t, p.err
}

func (p ParseableType) asTyped(v value.Value, opts []ValidationOptions) (*TypedValue, error) {
	t, terr := p.compiled()
	tv, err := newTyped(v, p.Schema, p.TypeRef, t, terr, true, opts)
	if err != nil {
		return nil, err
	}
	return tv, nil
}

// DeducedParseableType is the type of values without a schema: every map is
// separable and every list atomic, and any value is valid.
var DeducedParseableType ParseableType = mustParse(`types:
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
`).Type("__untyped_deduced_")

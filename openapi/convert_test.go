package openapi

import (
	"errors"
	"github.com/structmerge/structmerge/internal/testfixture"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// cmpDoc compares Documents by value, ignoring source lines.
var cmpDoc = []cmp.Option{
	cmp.Comparer(func(a, b value.Value) bool { return a.IsNull() == b.IsNull() && value.Equal(a, b) }),
	cmpopts.EquateEmpty(),
	cmpopts.IgnoreFields(schema.NamedType{}, "Line"),
	cmpopts.IgnoreFields(schema.TypeRef{}, "Line"),
	cmpopts.IgnoreFields(schema.ListDef{}, "Line"),
	cmpopts.IgnoreFields(schema.MapDef{}, "Line"),
	cmpopts.IgnoreFields(schema.FieldDef{}, "Line"),
	cmpopts.IgnoreFields(schema.UnionDef{}, "Line"),
	cmpopts.IgnoreFields(schema.UnionFieldDef{}, "Line"),
}

// helperTypes is the SMD YAML of the two types every result ends with.
const helperTypes = testfixture.UntypedTypes

func v3Doc(schemas string) []byte {
	return []byte(`{"openapi": "3.0.0", "components": {"schemas": ` + schemas + `}}`)
}

func v2Doc(defs string) []byte {
	return []byte(`{"swagger": "2.0", "definitions": ` + defs + `}`)
}

// convertCases are v3 component schemas and the SMD YAML (types before the
// helper types) they convert to. They also seed the fuzz targets.
var convertCases = []struct {
	name, schemas, want string
}{
	{"scalars", `{"T": {"type": "object", "properties": {
		"i": {"type": "integer", "format": "int32"}, "n": {"type": "number"}, "b": {"type": "boolean"},
		"s": {"type": "string"}, "bytes": {"type": "string", "format": "byte"},
		"when": {"type": "string", "format": "date-time"}, "ios": {"type": "string", "format": "int-or-string"},
		"tl": {"type": ["string", "null"]}}}}`, `
- name: T
  map:
    fields:
    - {name: b, type: {scalar: boolean}}
    - {name: bytes, type: {scalar: string}}
    - {name: i, type: {scalar: numeric}}
    - {name: ios, type: {scalar: untyped}}
    - {name: n, type: {scalar: numeric}}
    - {name: s, type: {scalar: string}}
    - {name: tl, type: {scalar: string}}
    - {name: when, type: {scalar: untyped}}
`},
	{"no type accepts anything", `{"T": {"description": "anything"}}`, `
- name: T
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_deduced_}}
`},
	{"untyped with list type and properties", `{"T": {"x-kubernetes-list-type": "set", "properties": {"a": {"type": "string"}}}}`, `
- name: T
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: associative}
  map: {fields: [{name: a, type: {scalar: string}}]}
`},
	{"object with properties takes no others", `{"T": {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}}`, `
- name: T
  map: {fields: [{name: a, type: {scalar: string}, default: x}]}
`},
	{"object without properties is free-form", `{"T": {"type": "object"}, "E": {"type": "object", "properties": {}}}`, `
- name: E
  map: {elementType: {namedType: __untyped_deduced_}}
- name: T
  map: {elementType: {namedType: __untyped_deduced_}}
`},
	{"additionalProperties", `{"T": {"type": "object", "properties": {
		"strs": {"type": "object", "additionalProperties": {"type": "string"}},
		"yes": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true},
		"no": {"type": "object", "additionalProperties": false},
		"refs": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/U"}},
		"null": {"type": "object", "additionalProperties": null}}},
		"U": {"type": "string"}}`, `
- name: T
  map:
    fields:
    - {name: "no", type: {map: {}}}
    - {name: "null", type: {map: {elementType: {namedType: __untyped_deduced_}}}}
    - {name: refs, type: {map: {elementType: {namedType: U}}}}
    - {name: strs, type: {map: {elementType: {scalar: string}}}}
    - name: "yes"
      type: {map: {fields: [{name: a, type: {scalar: string}}], elementType: {namedType: __untyped_deduced_}}}
- name: U
  scalar: string
`},
	{"refs, allOf and nullable", `{"T": {"type": "object", "properties": {
		"r": {"$ref": "#/components/schemas/U"},
		"a": {"allOf": [{"$ref": "#/components/schemas/U"}], "default": {}},
		"n": {"$ref": "#/definitions/U", "nullable": true},
		"bare": {"$ref": "U"},
		"two": {"allOf": [{"$ref": "#/components/schemas/U"}, {"type": "object"}]},
		"items": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/U"}]}}}},
		"U": {"type": "object", "properties": {"x": {"type": "integer"}}}}`, `
- name: T
  map:
    fields:
    - {name: a, type: {namedType: U}, default: {}}
    - {name: bare, type: {namedType: U}}
    - {name: items, type: {list: {elementType: {namedType: U}, elementRelationship: atomic}}}
    - {name: n, type: {namedType: U, nullable: true}}
    - {name: r, type: {namedType: U}}
    - name: two
      type:
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
        map: {elementType: {namedType: __untyped_deduced_}}
- name: U
  map: {fields: [{name: x, type: {scalar: numeric}}]}
`},
	{"a definition that is only a reference is skipped", `{"A": {"$ref": "#/components/schemas/B"}, "B": {"type": "string"}}`, `
- name: B
  scalar: string
`},
	{"list types", `{"T": {"type": "object", "properties": {
		"atomic": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}},
		"set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
		"map": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", 7, "port"],
			"items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer", "default": 80}}}},
		"plain": {"type": "array", "items": {"type": "integer"}},
		"noitems": {"x-kubernetes-list-type": "set"}}}}`, `
- name: T
  map:
    fields:
    - {name: atomic, type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}}
    - name: map
      type:
        list:
          elementType:
            map:
              fields:
              - {name: name, type: {scalar: string}}
              - {name: port, type: {scalar: numeric}, default: 80}
          elementRelationship: associative
          keys: [name, port]
    - name: noitems
      type:
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: associative}
        map: {elementType: {namedType: __untyped_deduced_}}
    - {name: plain, type: {list: {elementType: {scalar: numeric}, elementRelationship: atomic}}}
    - {name: set, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
`},
	{"patch strategy is the fallback", `{"T": {"type": "object", "properties": {
		"merge": {"type": "array", "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name", "items": {"type": "object"}},
		"retain": {"type": "array", "x-kubernetes-patch-strategy": "merge,retainKeys", "x-kubernetes-patch-merge-key": "k", "items": {"type": "object"}},
		"set": {"type": "array", "x-kubernetes-patch-strategy": "merge", "items": {"type": "string"}},
		"keys": {"type": "array", "x-kubernetes-patch-strategy": "retainKeys", "items": {"type": "string"}},
		"listtype": {"type": "array", "x-kubernetes-list-type": "atomic", "x-kubernetes-patch-strategy": "merge",
			"x-kubernetes-patch-merge-key": "name", "items": {"type": "object"}},
		"both": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
			"x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "port", "items": {"type": "object"}}}}}`, `
- name: T
  map:
    fields:
    - {name: both, type: {list: {elementType: {map: {elementType: {namedType: __untyped_deduced_}}}, elementRelationship: associative, keys: [port, protocol]}}}
    - {name: keys, type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}}
    - {name: listtype, type: {list: {elementType: {map: {elementType: {namedType: __untyped_deduced_}}}, elementRelationship: atomic}}}
    - {name: merge, type: {list: {elementType: {map: {elementType: {namedType: __untyped_deduced_}}}, elementRelationship: associative, keys: [name]}}}
    - {name: retain, type: {list: {elementType: {map: {elementType: {namedType: __untyped_deduced_}}}, elementRelationship: associative, keys: [k]}}}
    - {name: set, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
`},
	{"map types", `{"T": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {
		"g": {"type": "object", "x-kubernetes-map-type": "granular", "additionalProperties": {"type": "string"}},
		"ref": {"allOf": [{"$ref": "#/components/schemas/U"}], "x-kubernetes-map-type": "atomic"},
		"refg": {"$ref": "#/components/schemas/U", "x-kubernetes-map-type": "granular"}}},
		"U": {"type": "object", "properties": {"x": {"type": "string"}}}}`, `
- name: T
  map:
    fields:
    - {name: g, type: {map: {elementType: {scalar: string}, elementRelationship: separable}}}
    - {name: ref, type: {namedType: U, elementRelationship: atomic}}
    - {name: refg, type: {namedType: U, elementRelationship: separable}}
    elementRelationship: atomic
- name: U
  map: {fields: [{name: x, type: {scalar: string}}]}
`},
	{"preserve unknown fields", `{"T": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
		"inner": {"type": "object", "properties": {"a": {"type": "string"}}},
		"list": {"type": "array", "items": {"type": "object", "properties": {"b": {"type": "string"}}}},
		"ref": {"$ref": "#/components/schemas/U"}}},
		"U": {"type": "object", "properties": {"x": {"type": "string"}}},
		"F": {"type": "object", "x-kubernetes-preserve-unknown-fields": false, "properties": {"x": {"type": "string"}}},
		"S": {"type": "object", "x-kubernetes-preserve-unknown-fields": "true", "properties": {"x": {"type": "string"}}}}`, `
- name: F
  map: {fields: [{name: x, type: {scalar: string}}]}
- name: S
  map: {fields: [{name: x, type: {scalar: string}}]}
- name: T
  map:
    fields:
    - name: inner
      type: {map: {fields: [{name: a, type: {scalar: string}}], elementType: {namedType: __untyped_deduced_}}}
    - name: list
      type:
        list:
          elementType: {map: {fields: [{name: b, type: {scalar: string}}], elementType: {namedType: __untyped_deduced_}}}
          elementRelationship: atomic
    - {name: ref, type: {namedType: U}}
    elementType: {namedType: __untyped_deduced_}
- name: U
  map: {fields: [{name: x, type: {scalar: string}}]}
`},
	{"Quantity and RawExtension are fixed", `{
		"io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string", "format": "quantity"},
		"io.k8s.apimachinery.pkg.runtime.RawExtension": {"type": "object", "properties": {"raw": {"type": "string"}}}}`, `
- name: io.k8s.apimachinery.pkg.api.resource.Quantity
  scalar: untyped
- name: io.k8s.apimachinery.pkg.runtime.RawExtension
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
`},
	{"unions and other extensions are ignored", `{"T": {"type": "object",
		"x-kubernetes-unions": [{"discriminator": "type", "fields-to-discriminateBy": {"a": "A"}}],
		"x-kubernetes-embedded-resource": true, "x-kubernetes-int-or-string": true, "x-kubernetes-validations": [{"rule": "true"}],
		"properties": {"type": {"type": "string"}, "a": {"type": "string"}}}}`, `
- name: T
  map:
    fields:
    - {name: a, type: {scalar: string}}
    - {name: type, type: {scalar: string}}
`},
	{"names with slashes and tildes", `{"a/b": {"type": "object", "properties": {"x~y/z": {"type": "string"}}}}`, `
- name: a/b
  map: {fields: [{name: x~y/z, type: {scalar: string}}]}
`},
}

func wantDocument(t testing.TB, typesYAML string) *schema.Document {
	t.Helper()
	doc, err := schema.Parse([]byte("types:" + typesYAML + helperTypes))
	if err != nil {
		t.Fatalf("bad expectation: %v", err)
	}
	return doc
}

func TestFromV3(t *testing.T) {
	for _, tc := range convertCases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := FromV3(v3Doc(tc.schemas))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantDocument(t, tc.want), res.Document, cmpDoc...); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if _, err := schema.Compile(res.Document); err != nil {
				t.Errorf("does not compile: %v", err)
			}
		})
	}
}

// The same schemas in a v2 document (refs under #/definitions/) convert the
// same way, and YAML input is read like JSON.
func TestFromV2(t *testing.T) {
	for _, tc := range convertCases {
		t.Run(tc.name, func(t *testing.T) {
			schemas := strings.ReplaceAll(tc.schemas, "#/components/schemas/", "#/definitions/")
			for _, in := range [][]byte{v2Doc(schemas), append([]byte("# YAML\n"), v2Doc(schemas)...)} {
				res, err := FromV2(in)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(wantDocument(t, tc.want), res.Document, cmpDoc...); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestKinds(t *testing.T) {
	res, err := FromV3(v3Doc(`{
		"io.k8s.api.apps.v1.Deployment": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}]},
		"io.k8s.api.core.v1.Pod": {"type": "object", "x-kubernetes-group-version-kind": [
			{"group": "", "version": "v1", "kind": "Pod"}, {"group": "", "version": "v1", "kind": "Pod"},
			{"group": "", "version": "v1", "kind": ""}, {"group": 1, "version": "v1", "kind": "X"},
			{"version": "v1", "kind": "Y"}, "junk"]},
		"io.k8s.meta.DeleteOptions": {"type": "object", "x-kubernetes-group-version-kind": [
			{"group": "batch", "version": "v1", "kind": "DeleteOptions"}, {"group": "", "version": "v1", "kind": "DeleteOptions"}]},
		"NotAList": {"type": "object", "x-kubernetes-group-version-kind": {"group": "", "version": "v1", "kind": "Z"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Kind{
		{Group: "", Version: "v1", Kind: "DeleteOptions", TypeName: "io.k8s.meta.DeleteOptions"},
		{Group: "", Version: "v1", Kind: "Pod", TypeName: "io.k8s.api.core.v1.Pod"},
		{Group: "apps", Version: "v1", Kind: "Deployment", TypeName: "io.k8s.api.apps.v1.Deployment"},
		{Group: "batch", Version: "v1", Kind: "DeleteOptions", TypeName: "io.k8s.meta.DeleteOptions"},
	}
	if diff := cmp.Diff(want, res.Kinds); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := want[2].APIVersion(); got != "apps/v1" {
		t.Errorf("APIVersion = %q", got)
	}
	if got := want[0].APIVersion(); got != "v1" {
		t.Errorf("APIVersion = %q", got)
	}
	empty, err := FromV3(v3Doc(`{}`))
	if err != nil || empty.Kinds == nil || len(empty.Kinds) != 0 || len(empty.Document.Types) != 2 {
		t.Errorf("empty document: %v, %+v", err, empty)
	}
}

// errorCases are inputs the converters reject: the kind, and substrings of
// the message, which names the definition and the place.
var errorCases = []struct {
	name  string
	in    []byte
	kind  error
	wants []string
}{
	{"not JSON", []byte(`{"openapi": `), ErrSyntax, []string{"unexpected end"}},
	{"not YAML", []byte("a: [\n"), ErrSyntax, []string{"openapi: "}},
	{"not an object", []byte(`[1]`), ErrSyntax, []string{"must be an object, got list"}},
	{"v2 document", v2Doc(`{}`), ErrSyntax, []string{"use FromV2"}},
	{"components not an object", []byte(`{"openapi": "3.0.0", "components": 3}`), ErrSyntax, []string{`"components" must be an object`}},
	{"schemas not an object", []byte(`{"openapi": "3.0.0", "components": {"schemas": []}}`), ErrSyntax, []string{`"schemas" must be an object`}},
	{"empty definition name", v3Doc(`{"": {"type": "string"}}`), ErrSyntax, []string{`openapi: a definition has an empty name`}},
	{"definition not an object", v3Doc(`{"T": 5}`), ErrSyntax, []string{`definition "T": a definition must be an object`}},
	{"unknown type", v3Doc(`{"T": {"type": "object", "properties": {"a": {"type": "date"}}}}`), ErrType,
		[]string{`definition "T" at /properties/a/type: unrecognized type "date"`}},
	{"type not a string", v3Doc(`{"T": {"type": 3}}`), ErrSyntax, []string{`definition "T" at /type: "type" must be a string or a list of strings, got 3`}},
	{"type list with a number", v3Doc(`{"T": {"type": ["string", 3]}}`), ErrSyntax, []string{`at /type:`}},
	{"array without items", v3Doc(`{"T": {"type": "array"}}`), ErrType, []string{`definition "T": an array must have "items"`}},
	{"tuple items", v3Doc(`{"T": {"type": "array", "items": [{"type": "string"}]}}`), ErrType, []string{`at /items: "items" must be a single schema`}},
	{"unknown list type", v3Doc(`{"T": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "maps"}}`), ErrExtension,
		[]string{`at /x-kubernetes-list-type: unknown list type "maps"`}},
	{"null list type", v3Doc(`{"T": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": null}}`), ErrExtension,
		[]string{`unknown list type null`}},
	{"list type map without keys", v3Doc(`{"T": {"type": "object", "properties": {"l": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "map"}}}}`),
		ErrExtension, []string{`definition "T" at /properties/l/x-kubernetes-list-type: list type "map" without x-kubernetes-list-map-keys`}},
	{"map keys not a list", v3Doc(`{"T": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": "name"}}`),
		ErrExtension, []string{`at /x-kubernetes-list-map-keys: x-kubernetes-list-map-keys must be a list of strings`}},
	{"unknown patch strategy", v3Doc(`{"T": {"type": "array", "items": {"type": "object"}, "x-kubernetes-patch-strategy": "replace"}}`),
		ErrExtension, []string{`at /x-kubernetes-patch-strategy: unknown patch strategy "replace"`}},
	{"merge key not a string", v3Doc(`{"T": {"type": "array", "items": {"type": "object"}, "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": ["a"]}}`),
		ErrExtension, []string{`at /x-kubernetes-patch-merge-key: x-kubernetes-patch-merge-key must be a string`}},
	{"unknown map type", v3Doc(`{"T": {"type": "object", "x-kubernetes-map-type": "separable"}}`), ErrExtension,
		[]string{`at /x-kubernetes-map-type: unknown map type "separable"`}},
	{"unknown map type beside a ref", v3Doc(`{"T": {"type": "object", "properties": {"r": {"$ref": "#/components/schemas/T", "x-kubernetes-map-type": 1}}}}`),
		ErrExtension, []string{`at /properties/r/x-kubernetes-map-type: unknown map type 1`}},
	{"dangling ref", v3Doc(`{"T": {"type": "object", "properties": {"spec": {"type": "array", "items": {"$ref": "#/components/schemas/Missing"}}}}}`),
		ErrReference, []string{`definition "T" at /properties/spec/items: $ref to "Missing", which the document does not define`}},
	{"ref to a skipped reference", v3Doc(`{"A": {"$ref": "#/components/schemas/B"}, "T": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}}}}`),
		ErrReference, []string{`$ref to "A"`}},
	{"ref not a string", v3Doc(`{"T": {"type": "object", "properties": {"a": {"$ref": 1}}}}`), ErrSyntax, []string{`at /properties/a/$ref: "$ref" must be a string`}},
	{"allOf not a list", v3Doc(`{"T": {"type": "object", "properties": {"a": {"allOf": {}}}}}`), ErrSyntax, []string{`at /properties/a/allOf:`}},
	{"properties not an object", v3Doc(`{"T": {"type": "object", "properties": []}}`), ErrSyntax, []string{`at /properties: "properties" must be an object`}},
	{"property not an object", v3Doc(`{"T": {"type": "object", "properties": {"a": "string"}}}`), ErrSyntax, []string{`at /properties/a: a schema must be an object`}},
	{"additionalProperties not a schema", v3Doc(`{"T": {"type": "object", "additionalProperties": "yes"}}`), ErrSyntax, []string{`at /additionalProperties:`}},
	{"nullable not a boolean", v3Doc(`{"T": {"type": "object", "properties": {"a": {"type": "string", "nullable": "yes"}}}}`), ErrSyntax, []string{`at /properties/a/nullable:`}},
	{"format not a string", v3Doc(`{"T": {"type": "string", "format": 1}}`), ErrSyntax, []string{`at /format:`}},
	{"duplicate kind", v3Doc(`{"A": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "X"}]},
		"B": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "X"}]}}`), ErrDuplicate,
		[]string{`definition "B": group "" version "v1" kind "X" is also claimed by definition "A"`}},
	{"pointer escaping", v3Doc(`{"T": {"type": "object", "properties": {"a/b~c": {"type": "x"}}}}`), ErrType, []string{`at /properties/a~1b~0c/type`}},
}

func TestErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := FromV3(tc.in)
			if err == nil {
				t.Fatalf("no error; got %d types", len(res.Document.Types))
			}
			if res != nil {
				t.Error("a result along with the error")
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %v is not %v", err, tc.kind)
			}
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("error %T is not an *Error", err)
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// All problems are reported, sorted by definition and path.
func TestErrorsAllReported(t *testing.T) {
	_, err := FromV3(v3Doc(`{
		"B": {"type": "object", "properties": {"z": {"type": "nope"}, "a": {"type": "array"}}},
		"A": {"type": "object", "x-kubernetes-map-type": "x"}}`))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v", err)
	}
	var got []string
	for _, p := range e.Problems {
		got = append(got, p.Definition+" "+p.Path)
	}
	want := []string{"A /x-kubernetes-map-type", "B /properties/a", "B /properties/z/type"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s\n%v", diff, err)
	}
	if !strings.HasPrefix(err.Error(), "openapi: 3 problems:\n  definition \"A\" at /x-kubernetes-map-type: ") {
		t.Errorf("message: %s", err)
	}
	if !errors.Is(err, ErrType) || !errors.Is(err, ErrExtension) {
		t.Error("the kinds of all problems are not reachable with errors.Is")
	}
}

func TestFromV2Errors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{`{"openapi": "3.0.0"}`, "use FromV3"},
		{`{"swagger": "2.0", "definitions": 1}`, `"definitions" must be an object`},
		{`{"swagger": "2.0", "definitions": {"T": {"type": "object", "properties": {"a": {"$ref": "#/definitions/X"}}}}}`, `$ref to "X"`},
	} {
		_, err := FromV2([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FromV2(%s) = %v; want an error containing %q", tc.in, err, tc.want)
		}
	}
}

func TestFromV3Documents(t *testing.T) {
	a := v3Doc(`{
		"Pod": {"type": "object", "properties": {"spec": {"type": "string"}}, "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Pod"}]},
		"DeleteOptions": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "DeleteOptions"}]}}`)
	b := v3Doc(`{
		"Deployment": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}]},
		"DeleteOptions": {"type": "object", "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "DeleteOptions"},
			{"group": "", "version": "v1", "kind": "DeleteOptions"}]}}`)
	ab, err := FromV3Documents(a, b)
	if err != nil {
		t.Fatal(err)
	}
	ba, err := FromV3Documents(b, a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ab, ba, cmpDoc...); diff != "" {
		t.Errorf("the order of documents matters (-ab +ba):\n%s", diff)
	}
	want := []Kind{
		{Group: "", Version: "v1", Kind: "DeleteOptions", TypeName: "DeleteOptions"},
		{Group: "", Version: "v1", Kind: "Pod", TypeName: "Pod"},
		{Group: "apps", Version: "v1", Kind: "DeleteOptions", TypeName: "DeleteOptions"},
		{Group: "apps", Version: "v1", Kind: "Deployment", TypeName: "Deployment"},
	}
	if diff := cmp.Diff(want, ab.Kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if n := len(ab.Document.Types); n != 5 {
		t.Errorf("%d types, want 3 and the helpers", n)
	}

	conflict := v3Doc(`{"Pod": {"type": "object", "properties": {"spec": {"type": "integer"}}}}`)
	_, err = FromV3Documents(a, b, conflict)
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), `definition "Pod": defined differently in document #0 and document #2`) {
		t.Errorf("conflict: %v", err)
	}
	_, err = FromV3Documents(a, []byte(`{`))
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "document #1") {
		t.Errorf("bad second document: %v", err)
	}
	_, err = FromV3Documents(a, v2Doc(`{}`))
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "document #1: ") {
		t.Errorf("v2 second document: %v", err)
	}
	none, err := FromV3Documents()
	if err != nil || len(none.Document.Types) != 2 {
		t.Errorf("no documents: %v", err)
	}
}

func TestMerge(t *testing.T) {
	d1 := wantDocument(t, "\n- {name: A, scalar: string}\n- {name: B, map: {fields: [{name: x, type: {namedType: A}, default: 1}]}}\n")
	d2 := wantDocument(t, "\n- {name: B, map: {fields: [{name: x, type: {namedType: A}, default: 1.0}]}}\n- {name: C, scalar: numeric}\n")
	m, err := Merge(d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, nt := range m.Types {
		names = append(names, nt.Name)
	}
	if diff := cmp.Diff([]string{"A", "B", UntypedAtomic, UntypedDeduced, "C"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if _, err := schema.Compile(m); err != nil {
		t.Error(err)
	}
	if len(d1.Types) != 4 || len(d2.Types) != 4 {
		t.Error("Merge modified its arguments")
	}

	for _, other := range []string{
		"\n- {name: B, map: {fields: [{name: x, type: {namedType: A}, default: 2}]}}\n",
		"\n- {name: B, map: {fields: [{name: x, type: {namedType: A}}]}}\n",
		"\n- {name: B, map: {fields: [{name: x, type: {namedType: A, nullable: true}, default: 1}]}}\n",
		"\n- {name: B, map: {fields: [{name: y, type: {namedType: A}, default: 1}]}}\n",
		"\n- {name: B, map: {fields: [{name: x, type: {namedType: A}, default: 1}], elementRelationship: atomic}}\n",
		"\n- {name: B, map: {fields: [{name: x, type: {namedType: A}, default: 1}], unions: [{fields: [{fieldName: x, discriminatorValue: X}]}]}}\n",
		"\n- {name: A, scalar: numeric}\n",
		"\n- {name: A, list: {elementType: {scalar: string}}}\n",
	} {
		_, err := Merge(d1, wantDocument(t, other))
		if !errors.Is(err, ErrDuplicate) {
			t.Errorf("Merge with %s: %v", other, err)
		}
	}
	if _, err := Merge(d1, nil); !errors.Is(err, ErrSyntax) {
		t.Errorf("Merge with nil: %v", err)
	}
}

// The conversion never depends on map order: converting again gives the
// same bytes.
func TestDeterministic(t *testing.T) {
	for _, tc := range convertCases {
		var first []byte
		for range 5 {
			res, err := FromV3(v3Doc(tc.schemas))
			if err != nil {
				t.Fatal(err)
			}
			y, err := schema.Marshal(res.Document)
			if err != nil {
				t.Fatal(err)
			}
			if first != nil && string(first) != string(y) {
				t.Fatalf("%s: two conversions differ", tc.name)
			}
			first = y
		}
	}
}

package openapi

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structmerge/structmerge/schema"
)

// protoCases are v2 definitions and what FromV2Proto makes of them.
var protoCases = []struct {
	name, defs, want string
}{
	{"kinds, unions and defaults", `{"T": {"type": "object",
		"x-kubernetes-unions": [{"discriminator": "type", "fields-to-discriminateBy": {"b": "B", "a": "A"}}, {"fields-to-discriminateBy": {"c": "C"}}],
		"properties": {"type": {"type": "string", "default": "A"}, "a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "boolean", "nullable": true}}}}`, `
- name: T
  map:
    fields:
    - {name: a, type: {scalar: string}}
    - {name: b, type: {scalar: numeric}}
    - {name: c, type: {scalar: boolean}}
    - {name: type, type: {scalar: string}, default: A}
    unions:
    - discriminator: type
      fields: [{fieldName: a, discriminatorValue: A}, {fieldName: b, discriminatorValue: B}]
    - fields: [{fieldName: c, discriminatorValue: C}]
`},
	{"objects without properties take anything", `{"T": {"type": "object", "properties": {
		"free": {"type": "object"}, "closed": {"type": "object", "additionalProperties": false},
		"strs": {"type": "object", "additionalProperties": {"type": "string"}},
		"any": {"description": "no type"},
		"ignored": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": {"type": "string"}}}}}`, `
- name: T
  map:
    fields:
    - name: any
      type:
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
        map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
    - name: closed
      type:
        map:
          elementType:
            scalar: untyped
            list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
            map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
    - name: free
      type:
        map:
          elementType:
            scalar: untyped
            list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
            map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
    - {name: ignored, type: {map: {fields: [{name: x, type: {scalar: string}}]}}}
    - {name: strs, type: {map: {elementType: {scalar: string}}}}
`},
	{"references", `{"T": {"type": "object", "properties": {
		"raw": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.runtime.RawExtension"},
		"u": {"$ref": "#/definitions/U", "x-kubernetes-map-type": "atomic"},
		"list": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], "items": [{"$ref": "#/definitions/U"}]}}},
		"U": {"type": "object", "properties": {"k": {"type": "string"}}},
		"R": {"$ref": "#/definitions/U"},
		"io.k8s.apimachinery.pkg.runtime.RawExtension": {"type": "object"},
		"io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string"}}`, `
- name: T
  map:
    fields:
    - {name: list, type: {list: {elementType: {namedType: U}, elementRelationship: associative, keys: [k]}}}
    - {name: raw, type: {namedType: __untyped_atomic_}}
    - {name: u, type: {namedType: U, elementRelationship: atomic}}
- name: U
  map: {fields: [{name: k, type: {scalar: string}}]}
- name: io.k8s.apimachinery.pkg.api.resource.Quantity
  scalar: untyped
- name: io.k8s.apimachinery.pkg.runtime.RawExtension
  map:
    elementType:
      scalar: untyped
      list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
      map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
`},
	{"preserve unknown fields", `{"T": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
		"in": {"type": "object", "properties": {"a": {"type": "string"}}},
		"l": {"type": "array", "items": {"properties": {"b": {"type": "string"}}}}}}}`, `
- name: T
  map:
    fields:
    - {name: in, type: {map: {fields: [{name: a, type: {scalar: string}}], elementType: {namedType: __untyped_deduced_}}}}
    - name: l
      type:
        list:
          elementType: {map: {fields: [{name: b, type: {scalar: string}}], elementType: {namedType: __untyped_deduced_}}}
          elementRelationship: atomic
    elementType: {namedType: __untyped_deduced_}
`},
}

func TestFromV2Proto(t *testing.T) {
	for _, tc := range protoCases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := FromV2Proto(v2Doc(tc.defs))
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

var protoErrorCases = []struct {
	name, defs string
	kind       error
	want       string
}{
	{"ref outside definitions", `{"T": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/U"}}}}`, ErrReference,
		`definition "T" at /properties/a/$ref: a $ref must start with "#/definitions/"`},
	{"ref to nothing", `{"T": {"type": "object", "properties": {"a": {"$ref": "#/definitions/U"}}}}`, ErrReference,
		`at /properties/a/$ref: $ref to "U", which the document does not define`},
	{"ref with a type", `{"U": {"type": "string"}, "T": {"type": "object", "properties": {"a": {"$ref": "#/definitions/U", "type": "string"}}}}`, ErrSyntax,
		`at /properties/a: a $ref may not have a type`},
	{"ref with properties", `{"U": {"type": "string"}, "T": {"$ref": "#/definitions/U", "properties": {"a": {"type": "string"}}}}`, ErrSyntax,
		`definition "T": a $ref may not have properties`},
	{"two types", `{"T": {"type": ["string", "null"]}}`, ErrType, `at /type: more than one type`},
	{"unknown type", `{"T": {"type": "file"}}`, ErrType, `unrecognized type "file"`},
	{"array without items", `{"T": {"type": "array"}}`, ErrType, `at /items: an array must have exactly one items schema`},
	{"unions not a list", `{"T": {"type": "object", "x-kubernetes-unions": {}, "properties": {"a": {"type": "string"}}}}`, ErrExtension,
		`at /x-kubernetes-unions: x-kubernetes-unions must be a list`},
	{"field in two unions", `{"T": {"type": "object", "x-kubernetes-unions": [{"fields-to-discriminateBy": {"a": "A"}}, {"discriminator": "a"}], "properties": {"a": {"type": "string"}}}}`,
		ErrExtension, `field "a" appears in more than one union`},
	{"repeated discriminator value", `{"T": {"type": "object", "x-kubernetes-unions": [{"fields-to-discriminateBy": {"a": "A", "b": "A"}}], "properties": {"a": {"type": "string"}}}}`,
		ErrExtension, `at /x-kubernetes-unions/0: two fields have the discriminator value "A"`},
	{"bad union entries", `{"T": {"type": "object", "x-kubernetes-unions": [1, {"discriminator": 2, "fields-to-discriminateBy": []}, {"fields-to-discriminateBy": {"a": 1}}], "properties": {"a": {"type": "string"}}}}`,
		ErrExtension, `a union must be an object`},
	{"bad list type", `{"T": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "x"}}`, ErrExtension, `unknown list type "x"`},
}

func TestFromV2ProtoErrors(t *testing.T) {
	for _, tc := range protoErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromV2Proto(v2Doc(tc.defs))
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want a %v containing %q", err, tc.kind, tc.want)
			}
		})
	}
	if _, err := FromV2Proto(v3Doc(`{}`)); err == nil || !strings.Contains(err.Error(), "use FromV3") {
		t.Errorf("v3 document: %v", err)
	}
}

func FuzzFromV2Proto(f *testing.F) {
	for _, tc := range protoCases {
		f.Add(v2Doc(tc.defs))
	}
	for _, tc := range protoErrorCases {
		f.Add(v2Doc(tc.defs))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := FromV2Proto(data)
		checkOutcome(t, res, err, func() (*Result, error) { return FromV2Proto(data) }, false)
	})
}

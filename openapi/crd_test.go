package openapi

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structmerge/structmerge/schema"
)

func TestCRDTypeName(t *testing.T) {
	for _, tc := range [][4]string{
		{"stable.example.com", "v1", "CronTab", "com.example.stable.v1.CronTab"},
		{"example", "v1alpha1", "Thing", "example.v1alpha1.Thing"},
		{"a.b.c.d", "v2", "X", "d.c.b.a.v2.X"},
	} {
		if got := CRDTypeName(tc[0], tc[1], tc[2]); got != tc[3] {
			t.Errorf("CRDTypeName(%q, %q, %q) = %q, want %q", tc[0], tc[1], tc[2], got, tc[3])
		}
	}
}

// crd wraps the versions (YAML list items, indented by two) in a CRD.
func crd(versions string) []byte {
	return []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  names: {kind: CronTab, plural: crontabs}
  scope: Namespaced
  versions:
` + versions)
}

// The list type every version gets, for version v.
func listType(v string) string {
	return `
- name: com.example.stable.` + v + `.CronTabList
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: items, type: {list: {elementType: {namedType: com.example.stable.` + v + `.CronTab}, elementRelationship: atomic}}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta}}
`
}

// crdCases are CRD versions and the SMD YAML of the types they give (the
// version's types in name order). They also seed FuzzFromCRD.
var crdCases = []struct {
	name, versions, want string
}{
	{"metadata, apiVersion and kind are typed", `
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: integer}
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 10}
          spec:
            type: object
            properties:
              cron: {type: string, pattern: "^x"}
              replicas: {type: integer, default: 1, minimum: 0}
`, `
- name: com.example.stable.v1.CronTab
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - name: spec
      type:
        map:
          fields:
          - {name: cron, type: {scalar: string}}
          - {name: replicas, type: {scalar: numeric}, default: 1}
` + listType("v1")},
	{"list map keys, sets, map types", `
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-map-type: granular
        properties:
          ports:
            type: array
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [port, protocol]
            items:
              type: object
              properties:
                port: {type: integer}
                protocol: {type: string, default: TCP}
          tags:
            type: array
            x-kubernetes-list-type: set
            items: {type: string}
          sel:
            type: object
            x-kubernetes-map-type: atomic
            additionalProperties: {type: string}
`, `
- name: com.example.stable.v1.CronTab
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - name: ports
      type:
        list:
          elementType:
            map:
              fields:
              - {name: port, type: {scalar: numeric}}
              - {name: protocol, type: {scalar: string}, default: TCP}
          elementRelationship: associative
          keys: [port, protocol]
    - {name: sel, type: {map: {elementType: {scalar: string}, elementRelationship: atomic}}}
    - {name: tags, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
    elementRelationship: separable
` + listType("v1")},
	{"preserve unknown fields, int-or-string, embedded resources", `
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          any:
            x-kubernetes-preserve-unknown-fields: true
          cfg:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            properties:
              inner:
                type: object
                properties:
                  a: {type: string}
          port:
            x-kubernetes-int-or-string: true
            anyOf: [{type: integer}, {type: string}]
          obj:
            type: object
            x-kubernetes-embedded-resource: true
            x-kubernetes-preserve-unknown-fields: true
          objs:
            type: array
            items:
              type: object
              x-kubernetes-embedded-resource: true
              properties:
                spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
`, `
- name: com.example.stable.v1.CronTab
  map:
    fields:
    - name: any
      type:
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
        map: {elementType: {namedType: __untyped_deduced_}}
    - {name: apiVersion, type: {scalar: string}}
    - name: cfg
      type:
        map:
          fields:
          - name: inner
            type: {map: {fields: [{name: a, type: {scalar: string}}], elementType: {namedType: __untyped_deduced_}}}
          elementType: {namedType: __untyped_deduced_}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - name: obj
      type:
        map:
          fields:
          - {name: apiVersion, type: {scalar: string}}
          - {name: kind, type: {scalar: string}}
          - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
          elementType: {namedType: __untyped_deduced_}
    - name: objs
      type:
        list:
          elementType:
            map:
              fields:
              - {name: apiVersion, type: {scalar: string}}
              - {name: kind, type: {scalar: string}}
              - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
              - {name: spec, type: {map: {elementType: {namedType: __untyped_deduced_}}}}
          elementRelationship: atomic
    - name: port
      type:
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
        map: {elementType: {namedType: __untyped_deduced_}}
` + listType("v1")},
	{"formats, nullable, additionalProperties, dropped keywords", `
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: a cron tab
        x-kubernetes-validations: [{rule: "true"}]
        properties:
          when: {type: string, format: date-time, nullable: true}
          data: {type: string, format: byte}
          n: {type: number, format: double, default: null}
          free: {type: object, additionalProperties: true}
          closed: {type: object, additionalProperties: false}
          empty: {type: object, properties: {}}
          choice:
            type: object
            oneOf: [{required: [a]}, {required: [b]}]
            properties:
              a: {type: string}
          patched:
            type: array
            x-kubernetes-patch-strategy: merge
            x-kubernetes-patch-merge-key: name
            items: {type: object, properties: {name: {type: string}}}
`, `
- name: com.example.stable.v1.CronTab
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: choice, type: {map: {fields: [{name: a, type: {scalar: string}}]}}}
    - {name: closed, type: {map: {}}}
    - {name: data, type: {scalar: string}}
    - {name: empty, type: {map: {elementType: {namedType: __untyped_deduced_}}}}
    - {name: free, type: {map: {elementType: {namedType: __untyped_deduced_}}}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - {name: "n", type: {scalar: numeric}}
    - name: patched
      type: {list: {elementType: {map: {fields: [{name: name, type: {scalar: string}}]}}, elementRelationship: atomic}}
    - {name: when, type: {scalar: untyped, nullable: true}}
` + listType("v1")},
	{"every version, and a version without a schema", `
  - name: v2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
  - name: v1
    served: false
    storage: false
`, `
- name: com.example.stable.v1.CronTab
  map: {elementType: {namedType: __untyped_deduced_}}
` + listType("v1") + `
- name: com.example.stable.v2.CronTab
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    elementType: {namedType: __untyped_deduced_}
` + listType("v2")},
}

func TestFromCRD(t *testing.T) {
	for _, tc := range crdCases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := FromCRD(crd(tc.versions))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantDocument(t, tc.want), res.Document, cmpDoc...); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// With the meta types defined, the document compiles.
			meta := wantDocument(t, "\n- {name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta, map: {fields: [{name: name, type: {scalar: string}}]}}\n- {name: io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta, map: {}}\n")
			merged, err := Merge(meta, res.Document)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := schema.Compile(merged); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestFromCRDKinds(t *testing.T) {
	res, err := FromCRD([]byte(`{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"spec": {"group": "example.com", "names": {"kind": "Foo", "listKind": "Foos"},
		"versions": [{"name": "v2", "schema": {"openAPIV3Schema": {"type": "object"}}}, {"name": "v1"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Kind{
		{Group: "example.com", Version: "v1", Kind: "Foo", TypeName: "com.example.v1.Foo"},
		{Group: "example.com", Version: "v2", Kind: "Foo", TypeName: "com.example.v2.Foo"},
	}
	if diff := cmp.Diff(want, res.Kinds); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var names []string
	for _, nt := range res.Document.Types {
		names = append(names, nt.Name)
	}
	wantNames := []string{"com.example.v1.Foo", "com.example.v1.Foos", "com.example.v2.Foo", "com.example.v2.Foos", UntypedAtomic, UntypedDeduced}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

const goodSchema = `
    schema:
      openAPIV3Schema:
        type: object
        properties:
`

var crdErrorCases = []struct {
	name  string
	in    []byte
	kind  error
	wants []string
}{
	{"not a CRD", []byte("apiVersion: v1\nkind: ConfigMap\n"), ErrCRD, []string{`at /kind: the document is a "ConfigMap", not a CustomResourceDefinition`}},
	{"v1beta1", []byte("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n"), ErrCRD, []string{`at /apiVersion: "apiextensions.k8s.io/v1beta1" is not supported`}},
	{"no kind", []byte("apiVersion: apiextensions.k8s.io/v1\n"), ErrCRD, []string{`at /kind: required`}},
	{"no spec", []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"), ErrCRD, []string{`at /spec: required`}},
	{"no group, names or versions", []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {names: {}}\n"), ErrCRD,
		[]string{`at /spec/group: required`, `at /spec/names/kind: required`, `at /spec/versions: must be a non-empty list`}},
	{"names not an object", []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: g, names: 1, versions: [{name: v1}]}\n"), ErrCRD,
		[]string{`at /spec/names: must be an object`}},
	{"group not a string", []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: 1, names: {kind: K}, versions: [{name: v1}]}\n"), ErrCRD,
		[]string{`at /spec/group: must be a string, got 1`}},
	{"preserveUnknownFields", []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: g, preserveUnknownFields: true, names: {kind: K}, versions: [{name: v1}]}\n"),
		ErrCRD, []string{`at /spec/preserveUnknownFields: true is not supported`}},
	{"version without a name", crd("  - served: true\n"), ErrCRD, []string{`at /spec/versions/0/name: required`}},
	{"version not an object", crd("  - v1\n"), ErrCRD, []string{`at /spec/versions/0: a version must be an object`}},
	{"duplicate version", crd("  - name: v1\n  - name: v1\n"), ErrCRD, []string{`at /spec/versions/1/name: version "v1" is listed twice`}},
	{"list kind is the kind", []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: g, names: {kind: K, listKind: K}, versions: [{name: v1}]}\n"),
		ErrCRD, []string{`definition "g.v1.K": two types of the CRD have this name`}},
	{"schema field not an object", crd("  - name: v1\n    schema: 1\n"), ErrCRD, []string{`at /spec/versions/0/schema: must be an object`}},
	{"schema not an object", crd("  - name: v1\n    schema: {openAPIV3Schema: []}\n"), ErrCRD, []string{`at /spec/versions/0/schema/openAPIV3Schema: must be an object`}},
	{"root not an object", crd("  - name: v1\n    schema: {openAPIV3Schema: {type: string}}\n"), ErrCRD,
		[]string{`definition "com.example.stable.v1.CronTab" at /type: the root of the schema must have type "object"`}},
	{"missing type", crd("  - name: v1" + goodSchema + "          spec: {properties: {a: {type: string}}}\n"), ErrCRD,
		[]string{`definition "com.example.stable.v1.CronTab" at /properties/spec/type: must not be empty`}},
	{"type not a string", crd("  - name: v1" + goodSchema + "          spec: {type: [object]}\n"), ErrCRD, []string{`at /properties/spec/type: must be a string`}},
	{"$ref", crd("  - name: v1" + goodSchema + "          spec: {$ref: '#/definitions/x'}\n"), ErrCRD, []string{`at /properties/spec/$ref: "$ref" is not supported`}},
	{"preserve false", crd("  - name: v1" + goodSchema + "          spec: {type: object, x-kubernetes-preserve-unknown-fields: false}\n"), ErrCRD,
		[]string{`at /properties/spec/x-kubernetes-preserve-unknown-fields: must be true or undefined`}},
	{"int-or-string with a type", crd("  - name: v1" + goodSchema + "          port: {type: string, x-kubernetes-int-or-string: true}\n"), ErrCRD,
		[]string{`at /properties/port/type: must be empty with x-kubernetes-int-or-string`}},
	{"embedded not an object", crd("  - name: v1" + goodSchema + "          e: {type: array, items: {type: string}, x-kubernetes-embedded-resource: true}\n"), ErrCRD,
		[]string{`at /properties/e/type: must be "object" with x-kubernetes-embedded-resource`, `at /properties/e: an x-kubernetes-embedded-resource needs properties`}},
	{"properties and additionalProperties", crd("  - name: v1" + goodSchema + "          m: {type: object, properties: {a: {type: string}}, additionalProperties: {type: string}}\n"), ErrCRD,
		[]string{`at /properties/m/additionalProperties: properties and additionalProperties are mutually exclusive`}},
	{"tuple items", crd("  - name: v1" + goodSchema + "          l: {type: array, items: [{type: string}]}\n"), ErrCRD, []string{`at /properties/l/items: must be a single schema`}},
	{"flag not a boolean", crd("  - name: v1" + goodSchema + "          l: {type: string, nullable: 'yes'}\n"), ErrCRD, []string{`at /properties/l/nullable: must be a boolean`}},
	{"list map keys not strings", crd("  - name: v1" + goodSchema + "          l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [1], items: {type: object}}\n"), ErrCRD,
		[]string{`at /properties/l/x-kubernetes-list-map-keys: must be a list of strings`}},
	{"unknown list type", crd("  - name: v1" + goodSchema + "          l: {type: array, x-kubernetes-list-type: bag, items: {type: string}}\n"), ErrExtension,
		[]string{`definition "com.example.stable.v1.CronTab" at /properties/l/x-kubernetes-list-type: unknown list type "bag"`}},
	{"list map without keys", crd("  - name: v1" + goodSchema + "          l: {type: array, x-kubernetes-list-type: map, items: {type: object}}\n"), ErrExtension,
		[]string{`list type "map" without x-kubernetes-list-map-keys`}},
	{"array without items", crd("  - name: v1" + goodSchema + "          l: {type: array}\n"), ErrType, []string{`at /properties/l: an array must have "items"`}},
}

func TestFromCRDErrors(t *testing.T) {
	for _, tc := range crdErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := FromCRD(tc.in)
			if err == nil {
				t.Fatalf("no error; got %d types", len(res.Document.Types))
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %v is not %v", err, tc.kind)
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

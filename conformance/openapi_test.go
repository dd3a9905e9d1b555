package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/util/proto"
	"k8s.io/kube-openapi/pkg/validation/spec"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	smdtyped "sigs.k8s.io/structured-merge-diff/v6/typed"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// The OpenAPI documents of Kubernetes come from module k8s.io/kubernetes,
// fetched with `go mod download` rather than required as a Go dependency.
const oaKubernetes = "k8s.io/kubernetes@" + builtin.KubernetesVersion

var oaDownload struct {
	once sync.Once
	dir  string
	err  error
}

func oaKubernetesDir(t testing.TB) string {
	t.Helper()
	oaDownload.once.Do(func() {
		out, err := exec.Command("go", "mod", "download", "-json", oaKubernetes).Output()
		var info struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || info.Dir == "" {
			oaDownload.err = fmt.Errorf("go mod download %s: %v %s %s", oaKubernetes, err, info.Error, out)
			return
		}
		oaDownload.dir = info.Dir
	})
	if oaDownload.err != nil {
		t.Fatal(oaDownload.err)
	}
	return oaDownload.dir
}

// oaV3Files returns the per-group-version OpenAPI v3 documents, sorted.
func oaV3Files(t testing.TB) (names []string, docs [][]byte) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(oaKubernetesDir(t), "api/openapi-spec/v3/*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no v3 documents: %v", err)
	}
	slices.Sort(names)
	for _, n := range names {
		d, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	return names, docs
}

// oaV3Models decodes the documents with kube-openapi and joins their
// components.schemas the way the API server sees them: one model per name.
func oaV3Models(t testing.TB, docs [][]byte) (map[string]*spec.Schema, []map[string]*spec.Schema) {
	t.Helper()
	models := map[string]*spec.Schema{}
	var each []map[string]*spec.Schema
	for _, d := range docs {
		var o spec3.OpenAPI
		if err := json.Unmarshal(d, &o); err != nil {
			t.Fatal(err)
		}
		if o.Components == nil {
			continue
		}
		each = append(each, o.Components.Schemas)
		for name, s := range o.Components.Schemas {
			if _, ok := models[name]; !ok {
				models[name] = s
			}
		}
	}
	return models, each
}

// oaFromSMD turns an SMD schema into a Document with types and fields sorted
// by name (schemaconv emits both in Go map order).
func oaFromSMD(t testing.TB, s *smdschema.Schema) *schema.Document {
	t.Helper()
	doc := &schema.Document{}
	for _, td := range s.Types {
		doc.Types = append(doc.Types, schema.NamedType{Name: td.Name, Atom: oaAtom(t, td.Atom)})
	}
	slices.SortFunc(doc.Types, func(a, b schema.NamedType) int { return strings.Compare(a.Name, b.Name) })
	return doc
}

func oaAtom(t testing.TB, a smdschema.Atom) schema.Atom {
	var out schema.Atom
	if a.Scalar != nil {
		out.Scalar = string(*a.Scalar)
	}
	if l := a.List; l != nil {
		out.List = &schema.ListDef{
			ElementType:         oaRef(t, l.ElementType),
			ElementRelationship: string(l.ElementRelationship),
			Keys:                l.Keys,
		}
	}
	if m := a.Map; m != nil {
		md := &schema.MapDef{ElementType: oaRef(t, m.ElementType), ElementRelationship: string(m.ElementRelationship)}
		for _, f := range m.Fields {
			fd := schema.FieldDef{Name: f.Name, Type: oaRef(t, f.Type)}
			if f.Default != nil {
				v, err := value.FromUnstructured(f.Default)
				if err != nil {
					t.Fatalf("default of %q: %v", f.Name, err)
				}
				fd.Default = v
			}
			md.Fields = append(md.Fields, fd)
		}
		slices.SortFunc(md.Fields, func(a, b schema.FieldDef) int { return strings.Compare(a.Name, b.Name) })
		for _, u := range m.Unions {
			ud := schema.UnionDef{DeduceInvalidDiscriminator: u.DeduceInvalidDiscriminator}
			if u.Discriminator != nil {
				ud.Discriminator, ud.HasDiscriminator = *u.Discriminator, true
			}
			for _, uf := range u.Fields {
				ud.Fields = append(ud.Fields, schema.UnionFieldDef{FieldName: uf.FieldName, DiscriminatorValue: uf.DiscriminatorValue})
			}
			md.Unions = append(md.Unions, ud)
		}
		out.Map = md
	}
	return out
}

func oaRef(t testing.TB, r smdschema.TypeRef) schema.TypeRef {
	out := schema.TypeRef{Atom: oaAtom(t, r.Inlined), Nullable: r.Nullable}
	if r.NamedType != nil {
		out.NamedType = *r.NamedType
	}
	if r.ElementRelationship != nil {
		out.ElementRelationship = string(*r.ElementRelationship)
	}
	return out
}

var oaCmpOptions = []cmp.Option{
	cmp.Comparer(func(a, b value.Value) bool { return a.IsNull() == b.IsNull() && value.Equal(a, b) }),
	cmpopts.EquateEmpty(),
}

// oaCompareDocuments checks that two documents define the same names, that
// each type is the same in source form (fields sorted), and that the
// compiled types are Equal. only, when not nil, restricts the comparison to
// those names.
func oaCompareDocuments(t *testing.T, ours, want *schema.Document, only []string) {
	t.Helper()
	sorted := &schema.Document{Types: slices.Clone(ours.Types)}
	slices.SortFunc(sorted.Types, func(a, b schema.NamedType) int { return strings.Compare(a.Name, b.Name) })
	names := func(d *schema.Document) []string {
		var out []string
		for _, nt := range d.Types {
			if only == nil || slices.Contains(only, nt.Name) {
				out = append(out, nt.Name)
			}
		}
		return out
	}
	if diff := cmp.Diff(names(want), names(sorted)); diff != "" {
		t.Fatalf("type names differ (-schemaconv +openapi):\n%s", diff)
	}
	byName := func(d *schema.Document, name string) *schema.NamedType {
		i := slices.IndexFunc(d.Types, func(nt schema.NamedType) bool { return nt.Name == name })
		return &d.Types[i]
	}
	failures := 0
	for _, name := range names(want) {
		if diff := cmp.Diff(byName(want, name).Atom, byName(sorted, name).Atom, oaCmpOptions...); diff != "" {
			if failures++; failures <= 5 {
				t.Errorf("type %q differs (-schemaconv +openapi):\n%s", name, diff)
			}
		}
	}
	if failures > 5 {
		t.Errorf("... %d types differ in all", failures)
	}
	compiledOurs, err := schema.Compile(ours)
	if err != nil {
		t.Fatalf("compiling ours: %v", err)
	}
	compiledWant, err := schema.Compile(want)
	if err != nil {
		t.Fatalf("compiling schemaconv's: %v", err)
	}
	for _, name := range names(want) {
		a, _ := compiledOurs.Type(name)
		b, _ := compiledWant.Type(name)
		if !schema.Equal(a, b) {
			t.Errorf("compiled type %q is not Equal", name)
		}
	}
}

// oaKindsOf lists the group-version-kinds of models the way apimachinery's
// type converter indexes them.
func oaKindsOf(models map[string]*spec.Schema, into map[openapi.Kind]bool) {
	for name, m := range models {
		list, _ := m.Extensions["x-kubernetes-group-version-kind"].([]interface{})
		for _, e := range list {
			gvk, ok := e.(map[string]interface{})
			if !ok {
				continue
			}
			g, gok := gvk["group"].(string)
			v, vok := gvk["version"].(string)
			k, kok := gvk["kind"].(string)
			if gok && vok && kok && k != "" {
				into[openapi.Kind{Group: g, Version: v, Kind: k, TypeName: name}] = true
			}
		}
	}
}

func oaSortedKinds(set map[openapi.Kind]bool) []openapi.Kind {
	out := make([]openapi.Kind, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b openapi.Kind) int {
		return strings.Compare(a.Group+"\x00"+a.Version+"\x00"+a.Kind+"\x00"+a.TypeName, b.Group+"\x00"+b.Version+"\x00"+b.Kind+"\x00"+b.TypeName)
	})
	return out
}

// The schema openapi builds from the Kubernetes v3 documents is the one
// schemaconv.ToSchemaFromOpenAPI builds for the API server's type converter,
// type by type, with the same group-version-kind index.
func TestOpenAPIV3MatchesSchemaconv(t *testing.T) {
	_, docs := oaV3Files(t)
	ours, err := openapi.FromV3Documents(docs...)
	if err != nil {
		t.Fatal(err)
	}
	models, each := oaV3Models(t, docs)
	want, err := schemaconv.ToSchemaFromOpenAPI(models, false)
	if err != nil {
		t.Fatal(err)
	}
	oaCompareDocuments(t, ours.Document, oaFromSMD(t, want), nil)

	kinds := map[openapi.Kind]bool{}
	for _, m := range each {
		oaKindsOf(m, kinds)
	}
	if diff := cmp.Diff(oaSortedKinds(kinds), ours.Kinds); diff != "" {
		t.Errorf("kinds differ (-apimachinery +openapi):\n%s", diff)
	}
}

// The embedded built-in schema is what the generator makes of the same
// documents.
func TestOpenAPIBuiltinIsGenerated(t *testing.T) {
	_, docs := oaV3Files(t)
	res, err := openapi.FromV3Documents(docs...)
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := builtin.Document()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res.Document, embedded, append(oaCmpOptions, cmpopts.IgnoreFields(schema.NamedType{}, "Line"),
		cmpopts.IgnoreFields(schema.TypeRef{}, "Line"), cmpopts.IgnoreFields(schema.ListDef{}, "Line"),
		cmpopts.IgnoreFields(schema.MapDef{}, "Line"), cmpopts.IgnoreFields(schema.FieldDef{}, "Line"),
		cmpopts.IgnoreFields(schema.UnionDef{}, "Line"), cmpopts.IgnoreFields(schema.UnionFieldDef{}, "Line"))...); diff != "" {
		t.Errorf("embedded schema differs from a fresh conversion; run go generate ./... (-fresh +embedded):\n%.2000s", diff)
	}
	if diff := cmp.Diff(res.Kinds, builtin.Kinds()); diff != "" {
		t.Errorf("embedded kinds differ; run go generate ./...:\n%s", diff)
	}
}

// The same for the v2 document (swagger.json).
func TestOpenAPIV2MatchesSchemaconv(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(oaKubernetesDir(t), "api/openapi-spec/swagger.json"))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := openapi.FromV2(data)
	if err != nil {
		t.Fatal(err)
	}
	var sw spec.Swagger
	if err := json.Unmarshal(data, &sw); err != nil {
		t.Fatal(err)
	}
	models := make(map[string]*spec.Schema, len(sw.Definitions))
	for name := range sw.Definitions {
		s := sw.Definitions[name]
		models[name] = &s
	}
	want, err := schemaconv.ToSchemaFromOpenAPI(models, false)
	if err != nil {
		t.Fatal(err)
	}
	oaCompareDocuments(t, ours.Document, oaFromSMD(t, want), nil)
	kinds := map[openapi.Kind]bool{}
	oaKindsOf(models, kinds)
	if diff := cmp.Diff(oaSortedKinds(kinds), ours.Kinds); diff != "" {
		t.Errorf("kinds differ (-apimachinery +openapi):\n%s", diff)
	}
}

// FromV2Proto matches the client-side path: kube-openapi's proto models and
// schemaconv.ToSchema (what managedfields.NewGVKParser runs).
func TestOpenAPIV2ProtoMatchesSchemaconv(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(oaKubernetesDir(t), "api/openapi-spec/swagger.json"))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := openapi.FromV2Proto(data)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi_v2.ParseDocument(data)
	if err != nil {
		t.Fatal(err)
	}
	models, err := proto.NewOpenAPIData(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := schemaconv.ToSchema(models)
	if err != nil {
		t.Fatal(err)
	}
	oaCompareDocuments(t, ours.Document, oaFromSMD(t, want), nil)

	var sw spec.Swagger
	if err := json.Unmarshal(data, &sw); err != nil {
		t.Fatal(err)
	}
	specs := make(map[string]*spec.Schema, len(sw.Definitions))
	for name := range sw.Definitions {
		s := sw.Definitions[name]
		specs[name] = &s
	}
	kinds := map[openapi.Kind]bool{}
	oaKindsOf(specs, kinds)
	if diff := cmp.Diff(oaSortedKinds(kinds), ours.Kinds); diff != "" {
		t.Errorf("kinds differ (-apimachinery +openapi):\n%s", diff)
	}
}

// oaCRD exercises what shapes a custom resource's type: list-map keys (one
// defaulted), sets, preserve-unknown-fields, int-or-string, an embedded
// resource, map types, formats, nullable, additionalProperties, and a second
// version that is not served.
const oaCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.stable.example.com
spec:
  group: stable.example.com
  names: {kind: Widget, plural: widgets, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 20}
          spec:
            type: object
            properties:
              replicas: {type: integer, format: int32, minimum: 0}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP, enum: [TCP, UDP]}
                    name: {type: string}
                    target:
                      x-kubernetes-int-or-string: true
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              args:
                type: array
                items: {type: string}
              selector:
                type: object
                x-kubernetes-map-type: atomic
                additionalProperties: {type: string}
              labels:
                type: object
                x-kubernetes-map-type: granular
                additionalProperties: {type: string}
              config:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  mode: {type: string}
                  nested:
                    type: object
                    properties:
                      depth: {type: integer}
              raw:
                x-kubernetes-preserve-unknown-fields: true
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              when: {type: string, format: date-time, nullable: true}
              data: {type: string, format: byte}
              free:
                type: object
                additionalProperties: true
              matrix:
                type: array
                items:
                  type: array
                  x-kubernetes-list-type: atomic
                  items: {type: number}
              choice:
                type: object
                oneOf:
                - required: [a]
                - required: [b]
                properties:
                  a: {type: string}
                  b: {type: boolean}
          status:
            type: object
            properties:
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
    subresources:
      status: {}
  - name: v1beta1
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`

// oaCRDModels builds what the API server builds for a CRD's type converter:
// each version's structural schema, unfolded, as kube-openapi schemas, with
// apiVersion, kind and metadata set as apiextensions-apiserver's OpenAPI
// builder sets them (at the root and in embedded resources), its list type,
// and the definitions of the apiextensions group the API server starts from.
func oaCRDModels(t *testing.T, data []byte, static map[string]*spec.Schema) map[string]*spec.Schema {
	t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	if err := sigsyaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatal(err)
	}
	models := map[string]*spec.Schema{}
	for name, s := range static {
		models[name] = s
	}
	objectMeta := func() spec.Schema {
		return *spec.RefSchema("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
	}
	str := func() spec.Schema { return *spec.StringProperty() }
	var embed func(s *spec.Schema)
	embed = func(s *spec.Schema) {
		if s == nil {
			return
		}
		for k := range s.Properties {
			v := s.Properties[k]
			embed(&v)
			s.Properties[k] = v
		}
		if s.Items != nil {
			embed(s.Items.Schema)
		}
		if s.AdditionalProperties != nil {
			embed(s.AdditionalProperties.Schema)
		}
		if b, ok := s.Extensions.GetBool("x-kubernetes-embedded-resource"); ok && b {
			s.SetProperty("apiVersion", str())
			s.SetProperty("kind", str())
			s.SetProperty("metadata", objectMeta())
		}
	}
	for _, v := range crd.Spec.Versions {
		internal := &apiextensionsinternal.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internal, nil); err != nil {
			t.Fatal(err)
		}
		ss, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
		if err != nil {
			t.Fatal(err)
		}
		if errs := structuralschema.ValidateStructural(nil, ss); len(errs) > 0 {
			t.Fatalf("version %s is not structural: %v", v.Name, errs)
		}
		root := ss.Unfold().ToKubeOpenAPI()
		root.SetProperty("metadata", objectMeta())
		root.SetProperty("apiVersion", str())
		root.SetProperty("kind", str())
		embed(root)
		root.AddExtension("x-kubernetes-group-version-kind", []interface{}{
			map[string]interface{}{"group": crd.Spec.Group, "version": v.Name, "kind": crd.Spec.Names.Kind},
		})
		name := openapi.CRDTypeName(crd.Spec.Group, v.Name, crd.Spec.Names.Kind)
		models[name] = root
		list := new(spec.Schema).Typed("object", "").
			SetProperty("items", *spec.ArrayProperty(spec.RefSchema("#/components/schemas/" + name))).
			SetProperty("metadata", *spec.RefSchema("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta")).
			SetProperty("apiVersion", str()).
			SetProperty("kind", str())
		models[openapi.CRDTypeName(crd.Spec.Group, v.Name, crd.Spec.Names.ListKind)] = list
	}
	return models
}

// A CRD converts to the types the API server's field manager uses for its
// custom resources, and custom resources validate and give the same field
// sets on both.
func TestOpenAPICRDMatchesAPIServer(t *testing.T) {
	names, docs := oaV3Files(t)
	var static map[string]*spec.Schema
	for i, n := range names {
		if strings.HasSuffix(n, "apis__apiextensions.k8s.io__v1_openapi.json") {
			_, each := oaV3Models(t, docs[i:i+1])
			static = each[0]
		}
	}
	if static == nil {
		t.Fatal("no apiextensions.k8s.io/v1 document")
	}
	models := oaCRDModels(t, []byte(oaCRD), static)
	want, err := schemaconv.ToSchemaFromOpenAPI(models, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := openapi.FromCRD([]byte(oaCRD))
	if err != nil {
		t.Fatal(err)
	}
	wantKinds := []openapi.Kind{
		{Group: "stable.example.com", Version: "v1", Kind: "Widget", TypeName: "com.example.stable.v1.Widget"},
		{Group: "stable.example.com", Version: "v1beta1", Kind: "Widget", TypeName: "com.example.stable.v1beta1.Widget"},
	}
	if diff := cmp.Diff(wantKinds, res.Kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	only := []string{
		"com.example.stable.v1.Widget", "com.example.stable.v1.WidgetList",
		"com.example.stable.v1beta1.Widget", "com.example.stable.v1beta1.WidgetList",
		"io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
	}
	base := &schema.Document{}
	for _, nt := range oaFromSMD(t, want).Types {
		if !strings.HasPrefix(nt.Name, "com.example.") {
			base.Types = append(base.Types, nt)
		}
	}
	merged, err := openapi.Merge(res.Document, base)
	if err != nil {
		t.Fatal(err)
	}
	oaCompareDocuments(t, merged, oaFromSMD(t, want), only)

	// Joined with the embedded built-in schema, custom resources behave
	// the same as on SMD with the API server's schema.
	ours, err := builtin.Extend(res.Document)
	if err != nil {
		t.Fatal(err)
	}
	parser := smdtyped.Parser{Schema: smdschema.Schema{Types: want.Types}}
	for _, tc := range []struct {
		name, version, object string
		valid                 bool
	}{
		{"full", "v1", `{"apiVersion":"stable.example.com/v1","kind":"Widget",
		  "metadata":{"name":"w","labels":{"a":"b"},"annotations":{"x":"y"},"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u1"}]},
		  "spec":{"replicas":3,
		    "ports":[{"port":80,"name":"http","target":8080},{"port":53,"protocol":"UDP","target":"dns"}],
		    "tags":["a","b"],"args":["--x"],"selector":{"app":"w"},"labels":{"team":"t"},
		    "config":{"mode":"fast","extra":{"deep":[1,2]},"nested":{"depth":2}},
		    "raw":{"anything":["goes"]},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"t","labels":{"l":"v"}},"spec":{"x":1}},
		    "when":"2024-01-01T00:00:00Z","data":"aGk=","free":{"k":{"nested":true}},"matrix":[[1,2],[3.5]],"choice":{"a":"x"}},
		  "status":{"conditions":[{"type":"Ready","status":"True"}]}}`, true},
		{"old version", "v1beta1", `{"apiVersion":"stable.example.com/v1beta1","kind":"Widget","metadata":{"name":"w"},"spec":{"anything":{"at":["all"]}}}`, true},
		{"unknown field", "v1", `{"apiVersion":"stable.example.com/v1","kind":"Widget","spec":{"unknown":1}}`, false},
		{"unknown metadata field", "v1", `{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"nope":1}}`, false},
		{"wrong scalar", "v1", `{"apiVersion":"stable.example.com/v1","kind":"Widget","spec":{"replicas":"three"}}`, false},
		{"duplicate key", "v1", `{"apiVersion":"stable.example.com/v1","kind":"Widget","spec":{"ports":[{"port":80},{"port":80,"protocol":"TCP"}]}}`, false},
		{"duplicate set item", "v1", `{"apiVersion":"stable.example.com/v1","kind":"Widget","spec":{"tags":["a","a"]}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typeName := openapi.CRDTypeName("stable.example.com", tc.version, "Widget")
			obj, err := value.FromJSON([]byte(tc.object))
			if err != nil {
				t.Fatal(err)
			}
			typ, ok := ours.Type(typeName)
			if !ok {
				t.Fatalf("no type %q", typeName)
			}
			ourErr := typed.Validate(typ, obj)
			var u map[string]interface{}
			if err := json.Unmarshal([]byte(tc.object), &u); err != nil {
				t.Fatal(err)
			}
			tv, smdErr := parser.Type(typeName).FromUnstructured(u)
			if (ourErr == nil) != tc.valid || (smdErr == nil) != tc.valid {
				t.Fatalf("valid: structmerge %v, SMD %v; want valid=%v", ourErr, smdErr, tc.valid)
			}
			if !tc.valid {
				return
			}
			set, err := typed.FieldSet(typ, obj)
			if err != nil {
				t.Fatal(err)
			}
			smdSet, err := tv.ToFieldSet()
			if err != nil {
				t.Fatal(err)
			}
			smdJSON, err := smdSet.ToJSON()
			if err != nil {
				t.Fatal(err)
			}
			if got := set.MarshalFieldsV1(); !bytes.Equal(got, smdJSON) {
				t.Errorf("field sets differ:\nstructmerge %s\nSMD         %s", got, smdJSON)
			}
		})
	}
}

// BenchmarkOpenAPIFromV3 converts the Kubernetes v3 documents: openapi
// (decode and convert) against kube-openapi (decode into spec3 and
// schemaconv.ToSchemaFromOpenAPI).
func BenchmarkOpenAPIFromV3(b *testing.B) {
	_, docs := oaV3Files(b)
	b.Run("openapi", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := openapi.FromV3Documents(docs...); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("schemaconv", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			models, _ := oaV3Models(b, docs)
			if _, err := schemaconv.ToSchemaFromOpenAPI(models, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

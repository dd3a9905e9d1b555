package builtin

import (
	"bytes"
	"compress/gzip"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/schema"
)

func mustSchema(t testing.TB) *schema.Schema {
	t.Helper()
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestKindsResolve(t *testing.T) {
	s := mustSchema(t)
	for _, tc := range []struct {
		apiVersion, kind, typeName string
	}{
		{"v1", "Pod", "io.k8s.api.core.v1.Pod"},
		{"v1", "Service", "io.k8s.api.core.v1.Service"},
		{"v1", "ConfigMap", "io.k8s.api.core.v1.ConfigMap"},
		{"apps/v1", "Deployment", "io.k8s.api.apps.v1.Deployment"},
		{"apps/v1", "StatefulSet", "io.k8s.api.apps.v1.StatefulSet"},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"},
		{"autoscaling/v1", "Scale", "io.k8s.api.autoscaling.v1.Scale"},
	} {
		typ, ok := TypeFor(tc.apiVersion, tc.kind)
		if !ok {
			t.Errorf("TypeFor(%q, %q): not found", tc.apiVersion, tc.kind)
			continue
		}
		want, ok := s.Type(tc.typeName)
		if !ok || want != typ {
			t.Errorf("TypeFor(%q, %q) is not type %q", tc.apiVersion, tc.kind, tc.typeName)
		}
		if typ.Map() == nil {
			t.Errorf("%s: not a map", tc.kind)
		}
	}
	for _, tc := range [][2]string{
		{"v1", "Deployment"},
		{"apps/v2", "Deployment"},
		{"", "Pod"},
		{"apps/", "Deployment"},
		{"a/b/c", "Pod"},
		{"v1", ""},
	} {
		if _, ok := TypeFor(tc[0], tc[1]); ok {
			t.Errorf("TypeFor(%q, %q) found a type", tc[0], tc[1])
		}
	}
}

// TestTypeForParsesAsTheServer: "/v1" is the core group's v1, as the API
// server's ParseGroupVersion reads it.
func TestTypeForParsesAsTheServer(t *testing.T) {
	a, okA := TypeFor("/v1", "Pod")
	b, okB := TypeFor("v1", "Pod")
	if !okA || !okB || a != b {
		t.Errorf("TypeFor(\"/v1\", \"Pod\") = %v, %v; TypeFor(\"v1\", \"Pod\") = %v, %v", a, okA, b, okB)
	}
}

// at follows field names from t, failing the test when one is missing.
func at(t *testing.T, typ *schema.Type, path ...string) *schema.Type {
	t.Helper()
	for i, name := range path {
		if name == "[]" {
			if typ.List() == nil {
				t.Fatalf("%v: not a list", path[:i])
			}
			typ = typ.List().ElementType()
			continue
		}
		if typ.Map() == nil {
			t.Fatalf("%v: not a map", path[:i])
		}
		f, ok := typ.Map().Field(name)
		if !ok {
			t.Fatalf("%v: no field %q", path[:i], name)
		}
		typ = f.Type()
	}
	return typ
}

func TestRelationships(t *testing.T) {
	deploy, _ := TypeFor("apps/v1", "Deployment")
	svc, _ := TypeFor("v1", "Service")
	pod, _ := TypeFor("v1", "Pod")
	cm, _ := TypeFor("v1", "ConfigMap")
	if deploy == nil || svc == nil || pod == nil || cm == nil {
		t.Fatal("kinds missing")
	}
	list := func(typ *schema.Type, rel schema.Relationship, keys ...string) {
		t.Helper()
		l := typ.List()
		if l == nil {
			t.Fatal("not a list")
		}
		if l.Relationship() != rel || !slices.Equal(l.Keys(), keys) {
			t.Errorf("list is %v keyed by %v, want %v keyed by %v", l.Relationship(), l.Keys(), rel, keys)
		}
	}
	list(at(t, deploy, "spec", "template", "spec", "containers"), schema.Associative, "name")
	list(at(t, deploy, "spec", "template", "spec", "containers", "[]", "env"), schema.Associative, "name")
	list(at(t, deploy, "spec", "template", "spec", "containers", "[]", "args"), schema.Atomic)
	list(at(t, svc, "spec", "ports"), schema.Associative, "port", "protocol")
	list(at(t, pod, "spec", "volumes"), schema.Associative, "name")
	list(at(t, pod, "metadata", "finalizers"), schema.Associative)
	list(at(t, pod, "metadata", "ownerReferences"), schema.Associative, "uid")

	// The protocol key defaults to TCP.
	if v, ok := at(t, svc, "spec", "ports").List().KeyDefault(1); !ok || v.AsString() != "TCP" {
		t.Errorf("Service ports protocol default = %v, %v; want TCP", v, ok)
	}

	labels := at(t, deploy, "metadata", "labels")
	if m := labels.Map(); m == nil || m.Relationship() != schema.Separable || m.ElementType() == nil || m.ElementType().Scalar() != schema.String {
		t.Errorf("metadata.labels is not a granular map of strings")
	}
	if m := at(t, deploy, "spec", "selector").Map(); m == nil || m.Relationship() != schema.Atomic {
		t.Errorf("Deployment spec.selector is not atomic")
	}
	if m := at(t, cm, "data").Map(); m == nil || m.Relationship() != schema.Separable {
		t.Errorf("ConfigMap data is not a separable map")
	}
	// Quantity is an untyped scalar; IntOrString untyped.
	if typ := at(t, pod, "spec", "containers", "[]", "resources", "limits"); typ.Map() == nil || typ.Map().ElementType().Scalar() != schema.Untyped {
		t.Errorf("resources.limits is not a map of untyped scalars")
	}
	// IntOrString has no type in the v3 documents (it is a oneOf), so it
	// takes any scalar, list or map.
	if typ := at(t, svc, "spec", "ports", "[]", "targetPort"); typ.Scalar() != schema.Untyped || typ.Map() == nil || typ.List() == nil {
		t.Errorf("targetPort is not untyped")
	}
	// Unknown fields are not allowed in a Pod.
	if pod.Map().ElementType() != nil {
		t.Errorf("Pod takes unknown fields")
	}
}

func TestKinds(t *testing.T) {
	ks := Kinds()
	if len(ks) < 100 {
		t.Fatalf("only %d kinds", len(ks))
	}
	if !slices.IsSortedFunc(ks, func(a, b openapi.Kind) int { return compareGVK(&a, b.Group, b.Version, b.Kind) }) {
		t.Error("kinds are not sorted")
	}
	s := mustSchema(t)
	for i, k := range ks {
		if i > 0 && compareGVK(&ks[i-1], k.Group, k.Version, k.Kind) == 0 {
			t.Errorf("%v listed twice", k)
		}
		if _, ok := s.Type(k.TypeName); !ok {
			t.Errorf("%v: type %q not in the schema", k, k.TypeName)
		}
		if name, ok := TypeName(k.Group, k.Version, k.Kind); !ok || name != k.TypeName {
			t.Errorf("TypeName(%v) = %q, %v", k, name, ok)
		}
	}
	ks[0].Kind = "changed"
	if Kinds()[0].Kind == "changed" {
		t.Error("Kinds returned shared memory")
	}
}

func TestParseAPIVersion(t *testing.T) {
	for _, tc := range []struct {
		in, group, version string
		bad                bool
	}{
		{"v1", "", "v1", false},
		{"apps/v1", "apps", "v1", false},
		{"", "", "", false},
		{"/", "", "", false},
		{"/v1", "", "v1", false},
		{"apps/", "apps", "", false},
		{"a/b/c", "", "", true},
	} {
		g, v, err := ParseAPIVersion(tc.in)
		if g != tc.group || v != tc.version || (err != nil) != tc.bad {
			t.Errorf("ParseAPIVersion(%q) = %q, %q, %v", tc.in, g, v, err)
		}
	}
}

// The embedded file is a gzip stream with an empty header, and its content
// round-trips through Parse and Marshal unchanged.
func TestEmbeddedFile(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() || zr.Comment != "" || zr.OS != 255 {
		t.Errorf("gzip header %+v is not the fixed one", zr.Header)
	}
	y, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	again, err := schema.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	// The file is a comment line followed by Marshal's output.
	_, body, ok := bytes.Cut(y, []byte("\n"))
	if !ok || !bytes.HasPrefix(y, []byte("# Code generated")) || !bytes.Equal(body, again) {
		t.Error("the embedded schema is not in Marshal's canonical form")
	}
	doc.Types = nil // the caller owns it
	if d2, _ := Document(); len(d2.Types) == 0 {
		t.Error("Document shares memory between calls")
	}
}

func TestExtendWithCRD(t *testing.T) {
	crd := []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
`)
	res, err := openapi.FromCRD(crd)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Extend(res.Document)
	if err != nil {
		t.Fatal(err)
	}
	w, ok := s.Type(res.Kinds[0].TypeName)
	if !ok {
		t.Fatal("no Widget type")
	}
	builtinMeta, _ := TypeFor("v1", "Pod")
	meta := at(t, w, "metadata")
	if !schema.Equal(meta, at(t, builtinMeta, "metadata")) {
		t.Error("Widget metadata is not ObjectMeta")
	}
	if l := at(t, w, "spec", "ports").List(); l == nil || l.Relationship() != schema.Associative || !slices.Equal(l.Keys(), []string{"port"}) {
		t.Error("Widget spec.ports is not keyed by port")
	}
}

func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	results := make([]*schema.Type, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			typ, ok := TypeFor("apps/v1", "Deployment")
			if !ok {
				t.Error("Deployment not found")
				return
			}
			_ = at(t, typ, "spec", "template", "spec", "containers").List().Keys()
			results[i] = typ
		}()
	}
	wg.Wait()
	for i := 1; i < len(results); i++ {
		if results[i] != results[0] {
			t.Fatal("goroutines saw different compiled schemas")
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	y, err := YAML()
	if err != nil {
		b.Fatal(err)
	}
	doc, err := schema.Parse(y)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Decompress", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := YAML(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schema.Parse(y); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schema.Compile(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("All", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d, err := Document()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := schema.Compile(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

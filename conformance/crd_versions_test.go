package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/spec3"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/conformance/kubeengine"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/value"
)

// gatewayCRD is shaped like Gateway API's Gateway: served at v1beta1 and
// v1 with conversion None, whose listeners are an atomic list at v1beta1
// and a list keyed by name at v1, and whose spec.infrastructure only v1
// declares.
const gatewayCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.gateway.example.com
spec:
  group: gateway.example.com
  names: {kind: Gateway, listKind: GatewayList, plural: gateways, singular: gateway}
  scope: Namespaced
  conversion: {strategy: None}
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              gatewayClassName: {type: string}
              listeners:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    port: {type: integer}
                    protocol: {type: string}
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
              gatewayClassName: {type: string}
              listeners:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
                    protocol: {type: string}
              infrastructure:
                type: object
                properties:
                  labels:
                    type: object
                    additionalProperties: {type: string}
`

// crdVersionStep is one request of TestCRDVersionsDifferential.
type crdVersionStep struct {
	op      string // apply, force, update
	manager string
	object  string // YAML
}

// TestCRDVersionsDifferential runs requests at both versions of custom
// resources served at v1beta1 and v1 with conversion None on
// apimachinery's field manager — built as apiextensions-apiserver builds
// it for the request's version: managedfields.NewDefaultCRDFieldManager
// with the type converter of all the CRD's versions (the OpenAPI v3 of
// each from its builder, merged, managedfields.NewTypeConverter), the
// CRD's converter from conversion.NewCRConverterFactory and the request's
// version as the hub — and on kube.FieldManager with
// kube.NoneConverter. After each request both must give the same object
// and managedFields bytes, or the same error.
func TestCRDVersionsDifferential(t *testing.T) {
	route, err := os.ReadFile(scenarioRoot + "/kubernetes/crds/route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const rv1b1 = "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\n"
	const rv1 = "apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: web, namespace: default}\n"
	const gv1b1 = "apiVersion: gateway.example.com/v1beta1\nkind: Gateway\nmetadata: {name: gw, namespace: default}\n"
	const gv1 = "apiVersion: gateway.example.com/v1\nkind: Gateway\nmetadata: {name: gw, namespace: default}\n"
	cases := []struct {
		name  string
		crd   []byte
		steps []crdVersionStep
	}{
		{"route", route, []crdVersionStep{
			{"apply", "kubectl", rv1b1 + "spec: {hostnames: [example.com], rules: [{name: main, backend: web, weight: 90}]}"},
			{"apply", "canary", rv1 + "spec: {hostnames: [canary.example.com], rules: [{name: canary, backend: web-canary, weight: 10}]}"},
			{"apply", "canary", rv1 + "spec: {rules: [{name: main, weight: 50}]}"},
			{"force", "canary", rv1 + "spec: {rules: [{name: canary, backend: web-canary, weight: 10}, {name: main, weight: 50}]}"},
			{"update", "rollout", rv1b1 + "spec: {hostnames: [example.com, canary.example.com], rules: [{name: main, backend: web, weight: 80}, {name: canary, backend: web-canary, weight: 20}]}"},
			{"apply", "tuner", rv1 + "spec: {timeouts: {request: 10s}}"},
			{"apply", "canary", rv1 + "spec: {hostnames: [canary.example.com], rules: [{name: canary, backend: web-canary, weight: 10}, {name: main, weight: 50}], timeouts: {request: 5s}}"},
			{"apply", "kubectl", rv1 + "spec: {hostnames: [example.com], rules: [{name: main, backend: web}]}"},
			{"apply", "kubectl", rv1b1 + "spec: {hostnames: [example.com, www.example.com]}"},
			{"update", "rollout", rv1 + "spec: {hostnames: [example.com, www.example.com], rules: [{name: canary, backend: web-canary, weight: 100}]}"},
			{"apply", "other", "apiVersion: gateway.example.com/v2\nkind: Route\nmetadata: {name: web, namespace: default}\n"},
			{"apply", "canary", rv1b1},
			{"apply", "kubectl", rv1b1},
			{"update", "rollout", rv1 + "spec: {rules: [{name: canary, backend: web-canary}]}"},
			{"apply", "tuner", rv1 + "spec: {timeouts: {request: 10s}}"},
			{"update", "rollout", rv1b1 + "spec: {rules: [{name: canary, backend: web-canary}]}"},
		}},
		{"gateway", []byte(gatewayCRD), []crdVersionStep{
			{"apply", "kubectl", gv1b1 + "spec: {gatewayClassName: istio, listeners: [{name: http, port: 80, protocol: HTTP}]}"},
			{"apply", "tls", gv1 + "spec: {listeners: [{name: https, port: 443, protocol: HTTPS}]}"},
			{"force", "tls", gv1 + "spec: {listeners: [{name: https, port: 443, protocol: HTTPS}]}"},
			{"apply", "kubectl", gv1b1 + "spec: {gatewayClassName: istio, listeners: [{name: http, port: 8080, protocol: HTTP}]}"},
			{"force", "kubectl", gv1b1 + "spec: {gatewayClassName: istio, listeners: [{name: http, port: 8080, protocol: HTTP}]}"},
			{"update", "controller", gv1 + "spec: {gatewayClassName: istio, listeners: [{name: http, port: 8080, protocol: HTTP}, {name: admin, port: 9000}]}"},
			{"apply", "tls", gv1 + "spec: {listeners: [{name: https, port: 443, protocol: HTTPS}]}"},
			{"apply", "infra", gv1 + "spec: {infrastructure: {labels: {team: net}}}"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref := newRefCRDVersions(t, tc.crd)
			ours := newOursCRDVersions(t, tc.crd)
			var live map[string]any
			succeeded, failed := 0, 0
			for i, st := range tc.steps {
				at := scenario.StepTime(i)
				var sent map[string]any
				if err := yaml.Unmarshal([]byte(st.object), &sent); err != nil {
					t.Fatal(err)
				}
				want, werr := ref.do(t, live, sent, st, at)
				got, gerr := ours.do(t, live, sent, st, at)
				if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
					t.Fatalf("step %d (%s by %s): errors differ:\nreference:   %v\nstructmerge: %v", i+1, st.op, st.manager, werr, gerr)
				}
				if werr != nil {
					t.Logf("step %d (%s by %s): both fail: %v", i+1, st.op, st.manager, werr)
					failed++
					continue
				}
				succeeded++
				wantObj, gotObj := normalizeJSON(t, want), normalizeJSON(t, got)
				if d := cmp.Diff(wantObj, gotObj); d != "" {
					t.Fatalf("step %d (%s by %s): objects differ (-reference +structmerge):\n%s", i+1, st.op, st.manager, d)
				}
				wantMF, err := json.Marshal((&unstructured.Unstructured{Object: want}).GetManagedFields())
				if err != nil {
					t.Fatal(err)
				}
				v, err := value.FromUnstructured(got)
				if err != nil {
					t.Fatal(err)
				}
				entries, err := kube.DecodeManagedFields(v)
				if err != nil {
					t.Fatal(err)
				}
				if gotMF := kube.MarshalManagedFields(entries); !bytes.Equal(wantMF, gotMF) {
					t.Fatalf("step %d (%s by %s): managedFields differ:\nreference:   %s\nstructmerge: %s", i+1, st.op, st.manager, wantMF, gotMF)
				}
				live = want
			}
			if succeeded == 0 || failed == 0 {
				t.Errorf("%d steps succeeded and %d failed: the sequence should have both", succeeded, failed)
			}
			t.Logf("%d steps agree (%d succeeded, %d failed on both)", len(tc.steps), succeeded, failed)
		})
	}
}

func normalizeJSON(t *testing.T, obj map[string]any) any {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// refCRDVersions is apimachinery's side.
type refCRDVersions struct {
	tc   managedfields.TypeConverter
	conv runtime.ObjectConvertor
}

func newRefCRDVersions(t *testing.T, crdYAML []byte) *refCRDVersions {
	t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(crdYAML, &crd); err != nil {
		t.Fatal(err)
	}
	var specs []*spec3.OpenAPI
	for _, v := range crd.Spec.Versions {
		sp, err := builder.BuildOpenAPIV3(&crd, v.Name, builder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, sp)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(merged.Components.Schemas, crd.Spec.PreserveUnknownFields)
	if err != nil {
		t.Fatal(err)
	}
	convs, err := kubeengine.CRDConverters([]scenario.Source{{File: "crd", Text: crdYAML}})
	if err != nil {
		t.Fatal(err)
	}
	conv := convs[kschema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}]
	if conv == nil {
		t.Fatal("no converter for the CRD")
	}
	return &refCRDVersions{tc: tc, conv: conv}
}

type crdCreater struct{}

func (crdCreater) New(gvk kschema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

type crdDefaulter struct{}

func (crdDefaulter) Default(runtime.Object) {}

// do serves the request on the handler of its version, as
// apiextensions-apiserver does: a field manager for that version, whose
// hub is that version.
func (r *refCRDVersions) do(t *testing.T, live, sent map[string]any, st crdVersionStep, at time.Time) (map[string]any, error) {
	t.Helper()
	s := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(sent)}
	gvk := s.GroupVersionKind()
	fm, err := managedfields.NewDefaultCRDFieldManager(r.tc, r.conv, crdDefaulter{}, crdCreater{}, gvk, gvk.GroupVersion(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var l runtime.Object
	if live != nil {
		l = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(live)}
	} else {
		l, _ = crdCreater{}.New(gvk)
	}
	start := time.Now().Truncate(time.Second)
	var out runtime.Object
	switch st.op {
	case "apply", "force":
		out, err = fm.Apply(l, s, st.manager, st.op == "force")
	case "update":
		out, err = fm.Update(l, s, st.manager)
	}
	if err != nil {
		return nil, err
	}
	u := out.(*unstructured.Unstructured)
	kubeengine.FixTimes(u, start, at)
	return u.Object, nil
}

// oursCRDVersions is structmerge's side.
type oursCRDVersions struct {
	types kube.TypeResolver
	conv  kube.VersionConverter
}

func newOursCRDVersions(t *testing.T, crdYAML []byte) *oursCRDVersions {
	t.Helper()
	res, err := openapi.FromCRD(crdYAML)
	if err != nil {
		t.Fatal(err)
	}
	s, err := builtin.Extend(res.Document)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[kube.GroupVersionKind]string{}
	crv := kube.CustomResourceVersions{}
	for _, k := range res.Kinds {
		kinds[kube.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.TypeName
		crv.Group, crv.Kind = k.Group, k.Kind
		crv.Versions = append(crv.Versions, k.Version)
	}
	r, err := kube.NewSchemaResolver(s, kinds)
	if err != nil {
		t.Fatal(err)
	}
	return &oursCRDVersions{types: r, conv: kube.NoneConverter(crv)}
}

func (o *oursCRDVersions) do(t *testing.T, live, sent map[string]any, st crdVersionStep, at time.Time) (map[string]any, error) {
	t.Helper()
	m, err := kube.NewFieldManager(o.types, kube.WithClock(func() time.Time { return at }),
		kube.WithResetFields(nil), kube.WithVersionConverter(o.conv))
	if err != nil {
		t.Fatal(err)
	}
	var l value.Value
	if live != nil {
		if l, err = value.FromUnstructured(live); err != nil {
			t.Fatal(err)
		}
	}
	obj, err := value.FromUnstructured(sent)
	if err != nil {
		t.Fatal(err)
	}
	var out value.Value
	switch st.op {
	case "apply", "force":
		var opts []kube.RequestOption
		if st.op == "force" {
			opts = append(opts, kube.Force())
		}
		out, err = m.Apply(l, obj, st.manager, opts...)
	case "update":
		out, err = m.Update(l, obj, st.manager)
	}
	if err != nil {
		return nil, err
	}
	return out.Unstructured().(map[string]any), nil
}

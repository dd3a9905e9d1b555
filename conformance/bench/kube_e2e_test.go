package bench

// BenchmarkKubeEndToEnd: the path a user takes, from an object in the form
// a caller holds, through the Kubernetes field manager, to the object with
// its managedFields in the same form. structmerge's kube.FieldManager runs
// side by side with apimachinery v0.37.2's managedfields.NewDefaultFieldManager
// (NewDefaultCRDFieldManager for the custom resource), the API server's,
// whose type converter for built-in kinds is client-go's
// (applyconfigurations.NewTypeConverter over client-go's scheme) and for the
// custom resource is built from the CRD the way the API server builds it
// (apiextensions-apiserver's OpenAPI builder, then
// managedfields.NewTypeConverter).
//
// Every request gets its own input, decoded outside the timed loop (the
// live object as it comes from storage, the request as it comes from the
// wire); no step is given the previous step's object. The rows of each
// form start and end in that form: map[string]any in and out, or JSON
// bytes in and out (the decoding and encoding are then part of the
// timed work on both sides).
//
// The map rows have a third side, Unstructured/<object>/<op>/read: reading
// the same fresh inputs once, every key and value, converting nothing. It
// is the floor of any field manager that reads its input (apimachinery's
// reads all of it to validate it), so apimachinery's time over it bounds
// the ratio any design could reach on that row.
//
// Both sides reset the same fields: those the Kubernetes 1.37.2 registry
// strategies declare for the kinds used here, written out in resetPaths
// below and checked against the strategies' source in the module cache by
// TestKubeEndToEndResetFieldsFromSource.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/structmerge/structmerge/conformance/kubeengine"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/spec3"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/value"
)

// e2eNow is structmerge's clock in these benchmarks; the reference stamps
// the wall clock, and the Agree test puts e2eNow in its place.
var e2eNow = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// e2eStored is the time of the entries of the stored objects made by the
// reference's create: before e2eNow, so that an entry a request stamps
// again differs from one it keeps.
var e2eStored = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

// resetPaths are the fields the registry strategies of Kubernetes 1.37.2
// reset, per kind and subresource, for the kinds of this benchmark
// (k8s.io/kubernetes pkg/registry/core/{pod,node}/strategy.go,
// pkg/registry/apps/deployment/strategy.go; Endpoints declares none; the
// custom resource's come from apiextensions-apiserver's
// pkg/registry/customresource/{strategy,status_strategy}.go for a CRD with
// a status subresource). The key is "apiVersion/Kind" plus "/status" for
// the status subresource.
var resetPaths = map[string][][]string{
	"v1/Pod":                    {{"status"}},
	"v1/Pod/status":             {{"spec"}, {"metadata", "deletionTimestamp"}, {"metadata", "ownerReferences"}},
	"v1/Node":                   {{"status"}},
	"v1/Node/status":            {{"spec"}},
	"apps/v1/Deployment":        {{"status"}},
	"apps/v1/Deployment/status": {{"spec"}, {"metadata", "labels"}},
	"apiresource.kcp.dev/v1alpha1/APIResourceImport":        {{"status"}},
	"apiresource.kcp.dev/v1alpha1/APIResourceImport/status": {{"metadata"}, {"spec"}},
}

func resetKey(apiVersion, kind, subresource string) string {
	k := apiVersion + "/" + kind
	if subresource != "" {
		k += "/" + subresource
	}
	return k
}

// smResetSets are the fields of resetPaths as structmerge's sets, built
// once (the reference's filters are built once per field manager too); a
// fieldpath.Set is immutable and kube.FieldManager only reads the map.
var smResetSets = func() map[string]map[string]*fieldpath.Set {
	out := map[string]map[string]*fieldpath.Set{}
	for key, paths := range resetPaths {
		ps := make([]fieldpath.Path, 0, len(paths))
		for _, names := range paths {
			p := make(fieldpath.Path, len(names))
			for i, n := range names {
				p[i] = fieldpath.FieldName(n)
			}
			ps = append(ps, p)
		}
		apiVersion := key[:strings.LastIndex(strings.TrimSuffix(key, "/status"), "/")]
		out[key] = map[string]*fieldpath.Set{apiVersion: fieldpath.NewSet(ps...)}
	}
	return out
}()

// smResetFields gives structmerge the fields of resetPaths.
func smResetFields(gvk kube.GroupVersionKind, subresource string) map[string]*fieldpath.Set {
	return smResetSets[resetKey(gvk.APIVersion(), gvk.Kind, subresource)]
}

// refResetFilters gives the reference the fields of resetPaths.
func refResetFilters(gvk kschema.GroupVersionKind, subresource string) map[smdfieldpath.APIVersion]smdfieldpath.Filter {
	gv := gvk.GroupVersion().String()
	paths, ok := resetPaths[resetKey(gv, gvk.Kind, subresource)]
	if !ok {
		return nil
	}
	set := &smdfieldpath.Set{}
	for _, names := range paths {
		parts := make([]any, len(names))
		for i, n := range names {
			parts[i] = n
		}
		set.Insert(smdfieldpath.MakePathOrDie(parts...))
	}
	return smdfieldpath.NewExcludeFilterSetMap(map[smdfieldpath.APIVersion]*smdfieldpath.Set{smdfieldpath.APIVersion(gv): set})
}

// The custom resource: kcp's APIResourceImport of structured-merge-diff's
// test data (a Deployment's whole OpenAPI schema in its spec, 378 KB of
// YAML), with a CRD whose schema follows the one structured-merge-diff
// gives for it (spec.openAPIV3Schema free-form), and a status subresource.
const e2eCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: apiresourceimports.apiresource.kcp.dev
spec:
  group: apiresource.kcp.dev
  scope: Cluster
  names:
    kind: APIResourceImport
    listKind: APIResourceImportList
    plural: apiresourceimports
    singular: apiresourceimport
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            properties:
              categories:
                type: array
                x-kubernetes-list-type: atomic
                items:
                  type: string
              columnDefinitions:
                type: array
                x-kubernetes-list-type: atomic
                items:
                  type: object
                  properties:
                    description:
                      type: string
                    format:
                      type: string
                    jsonPath:
                      type: string
                    name:
                      type: string
                    priority:
                      type: integer
                    type:
                      type: string
              groupVersion:
                type: object
                properties:
                  group:
                    type: string
                  version:
                    type: string
              kind:
                type: string
              listKind:
                type: string
              location:
                type: string
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              plural:
                type: string
              schemaUpdateStrategy:
                type: string
              scope:
                type: string
              shortNames:
                type: array
                x-kubernetes-list-type: atomic
                items:
                  type: string
              singular:
                type: string
              subResources:
                type: array
                x-kubernetes-list-type: atomic
                items:
                  type: object
                  properties:
                    name:
                      type: string
          status:
            type: object
            properties:
              conditions:
                type: array
                x-kubernetes-list-type: atomic
                items:
                  type: object
                  properties:
                    lastTransitionTime:
                      type: string
                    message:
                      type: string
                    reason:
                      type: string
                    status:
                      type: string
                    type:
                      type: string
`

var crGVK = kschema.GroupVersionKind{Group: "apiresource.kcp.dev", Version: "v1alpha1", Kind: "APIResourceImport"}

// moduleDir is the directory of a module of the build list in the module
// cache.
var moduleDirs sync.Map

func moduleDir(tb testing.TB, path string) string {
	tb.Helper()
	if d, ok := moduleDirs.Load(path); ok {
		return d.(string)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", path).Output()
	if err != nil {
		tb.Fatalf("locating module %s: %v", path, err)
	}
	d := strings.TrimSpace(string(out))
	if d == "" {
		tb.Fatalf("module %s is not in the module cache (go mod download)", path)
	}
	moduleDirs.Store(path, d)
	return d
}

// downloadedModuleDir is the directory of a module version outside the
// build list, fetched with go mod download (a no-op once it is in the
// module cache).
func downloadedModuleDir(tb testing.TB, pathVersion string) string {
	tb.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", pathVersion).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || info.Dir == "" {
		tb.Fatalf("go mod download %s: %v %s", pathVersion, err, info.Error)
	}
	return info.Dir
}

// decodeJSON decodes JSON the way the API server decodes a request body
// into map[string]any (integers as int64).
func decodeJSON(tb testing.TB, data []byte) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := utiljson.Unmarshal(data, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

func readYAMLObject(tb testing.TB, file string) map[string]any {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return decodeJSON(tb, js)
}

func mustJSON(tb testing.TB, x any) []byte {
	tb.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func metadataOf(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		obj["metadata"] = md
	}
	return md
}

func stringMap(parent map[string]any, name string) map[string]any {
	m, _ := parent[name].(map[string]any)
	if m == nil {
		m = map[string]any{}
		parent[name] = m
	}
	return m
}

// e2eObject is one object of the table: the configuration kubectl
// applies, the stored object the later requests find, and the changes of
// the later requests.
type e2eObject struct {
	name    string
	gvk     kschema.GroupVersionKind
	crd     bool
	config  []byte // JSON of the applied configuration
	stored  []byte // JSON of the live object; nil: the reference's create
	status  []byte // JSON of the status a status update writes; nil: no status row
	manager string // the manager whose apply made stored
}

// e2eRequest is one row's request: an apply or an update of live (nil:
// the object does not exist) by manager.
type e2eRequest struct {
	apply       bool
	subresource string
	manager     string
	live        []byte
	body        []byte
}

var e2eOps = []string{"Create", "Reapply", "ApplyChange", "ControllerUpdate", "StatusUpdate"}

// e2eSetup holds the table's objects, field managers and requests, built
// once per process.
type e2eSetup struct {
	objects  []*e2eObject
	sm       map[string]*kube.FieldManager // by object name
	ref      map[string]*managedfields.FieldManager
	requests map[string]e2eRequest // by object/op
}

var (
	e2eOnce sync.Once
	e2e     *e2eSetup
	e2eErr  error
)

func kubeE2E(tb testing.TB) *e2eSetup {
	tb.Helper()
	e2eOnce.Do(func() {
		t := &onceTB{TB: tb}
		func() {
			defer func() {
				if r := recover(); r != nil && r != errOnceFailed {
					panic(r)
				}
			}()
			e2e = buildE2E(t)
		}()
		if t.err != nil {
			e2eErr = t.err
		}
	})
	if e2eErr != nil {
		tb.Fatal(e2eErr)
	}
	return e2e
}

// onceTB turns a failure while building the shared setup into an error
// that every later test sees.
type onceTB struct {
	testing.TB
	err error
}

var errOnceFailed = fmt.Errorf("setup failed")

func (t *onceTB) Fatal(args ...any) {
	t.err = fmt.Errorf("%s", fmt.Sprint(args...))
	panic(errOnceFailed)
}
func (t *onceTB) Fatalf(format string, args ...any) {
	t.err = fmt.Errorf(format, args...)
	panic(errOnceFailed)
}

func withoutStatus(obj map[string]any) map[string]any {
	delete(obj, "status")
	return obj
}

// applyConfig is what a user applies for obj: no status, no fields the
// server sets.
func applyConfig(obj map[string]any) map[string]any {
	delete(obj, "status")
	md := metadataOf(obj)
	for _, k := range []string{"creationTimestamp", "resourceVersion", "selfLink", "uid", "generation", "managedFields"} {
		delete(md, k)
	}
	return obj
}

func buildE2E(tb testing.TB) *e2eSetup {
	s := &e2eSetup{sm: map[string]*kube.FieldManager{}, ref: map[string]*managedfields.FieldManager{}, requests: map[string]e2eRequest{}}
	amDir := filepath.Join(moduleDir(tb, "k8s.io/apimachinery"), "pkg", "util", "managedfields")
	for _, f := range []struct{ name, file string }{{"Pod", "pod.yaml"}, {"Node", "node.yaml"}, {"Endpoints", "endpoints.yaml"}} {
		obj := readYAMLObject(tb, filepath.Join(amDir, f.file))
		o := &e2eObject{name: f.name, manager: "kubectl"}
		o.gvk = kschema.FromAPIVersionAndKind(obj["apiVersion"].(string), obj["kind"].(string))
		if st, ok := obj["status"]; ok {
			o.status = mustJSON(tb, st)
		}
		o.config = mustJSON(tb, applyConfig(obj))
		s.objects = append(s.objects, o)
	}

	// The Deployment of the examples: three managers (kubectl's apply,
	// the controller manager through the scale subresource and through
	// the status subresource).
	dep := readYAMLObject(tb, filepath.Join("..", "..", "examples", "live", "deployment.yaml"))
	depStatus := runtime.DeepCopyJSONValue(dep["status"]).(map[string]any)
	depStatus["readyReplicas"] = int64(5)
	depStatus["availableReplicas"] = int64(5)
	depConfig := applyConfig(runtime.DeepCopyJSONValue(dep).(map[string]any))
	delete(depConfig["spec"].(map[string]any), "replicas") // the autoscaler's
	s.objects = append(s.objects, &e2eObject{
		name: "Deployment", gvk: kschema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
		config: mustJSON(tb, depConfig), stored: mustJSON(tb, dep), status: mustJSON(tb, depStatus), manager: "kubectl",
	})

	// The large custom resource.
	cr := readYAMLObject(tb, filepath.Join(moduleDir(tb, "sigs.k8s.io/structured-merge-diff/v6"), "internal", "testdata", "apiresourceimport-cr.yaml"))
	delete(metadataOf(cr), "clusterName") // not a field of ObjectMeta any more
	crStatus := map[string]any{"conditions": []any{map[string]any{
		"type": "Compatible", "status": "True", "reason": "Compatible", "message": "the schema is compatible", "lastTransitionTime": "2026-01-05T09:00:00Z",
	}}}
	s.objects = append(s.objects, &e2eObject{name: "CustomResource", gvk: crGVK, crd: true, config: mustJSON(tb, applyConfig(cr)), status: mustJSON(tb, crStatus), manager: "kubectl"})

	// structmerge: one field manager for the built-in kinds, one for the
	// custom resource, with the reset fields above and a fixed clock.
	opts := []kube.Option{kube.WithClock(func() time.Time { return e2eNow }), kube.WithResetFields(smResetFields), kube.WithReplicasPaths(nil)}
	// The struct form's types (kube_e2e_struct_test.go) get their
	// conversions built once, as a server builds them at start.
	builtinFM, err := kube.NewFieldManager(kube.BuiltinTypes(), append(opts, kube.WithStructTypes(
		reflect.TypeFor[corev1.Pod](), reflect.TypeFor[corev1.Node](), reflect.TypeFor[corev1.Endpoints](), reflect.TypeFor[appsv1.Deployment]()))...)
	if err != nil {
		tb.Fatal(err)
	}
	crdRes, err := openapi.FromCRD([]byte(e2eCRD))
	if err != nil {
		tb.Fatal(err)
	}
	crSchema, err := builtin.Extend(crdRes.Document)
	if err != nil {
		tb.Fatal(err)
	}
	crTypes := map[kube.GroupVersionKind]string{}
	for _, k := range crdRes.Kinds {
		crTypes[kube.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.TypeName
	}
	crResolver, err := kube.NewSchemaResolver(crSchema, crTypes)
	if err != nil {
		tb.Fatal(err)
	}
	crFM, err := kube.NewFieldManager(crResolver, opts...)
	if err != nil {
		tb.Fatal(err)
	}

	// The reference: client-go's type converter for the built-in kinds,
	// the API server's for the CRD.
	builtinTC := applyconfigurations.NewTypeConverter(clientscheme.Scheme)
	crTC := refCRDTypeConverter(tb)
	for _, o := range s.objects {
		if o.crd {
			s.sm[o.name] = crFM
		} else {
			s.sm[o.name] = builtinFM
		}
		for _, sub := range []string{"", "status"} {
			var fm *managedfields.FieldManager
			if o.crd {
				fm, err = managedfields.NewDefaultCRDFieldManager(crTC, e2eConvertor{}, e2eDefaulter{}, e2eCreater{}, o.gvk, o.gvk.GroupVersion(), sub, refResetFilters(o.gvk, sub))
			} else {
				fm, err = managedfields.NewDefaultFieldManager(builtinTC, e2eConvertor{}, e2eDefaulter{}, e2eCreater{}, o.gvk, o.gvk.GroupVersion(), sub, refResetFilters(o.gvk, sub))
			}
			if err != nil {
				tb.Fatal(err)
			}
			s.ref[o.name+"/"+sub] = fm
		}
	}

	// The requests. The stored object of the later rows is the
	// reference's create, stamped with e2eNow (the Deployment's is the
	// example's).
	for _, o := range s.objects {
		s.requests[o.name+"/Create"] = e2eRequest{apply: true, manager: o.manager, body: o.config}
		if o.stored == nil {
			out, err := s.runRef(o, s.requests[o.name+"/Create"], decodeJSONPair(tb, s.requests[o.name+"/Create"]))
			if err != nil {
				tb.Fatalf("%s: the reference's create: %v", o.name, err)
			}
			stampAll(out, e2eStored)
			o.stored = mustJSON(tb, out)
		}
		s.requests[o.name+"/Reapply"] = e2eRequest{apply: true, manager: o.manager, live: o.stored, body: o.config}

		changed := decodeJSON(tb, o.config)
		stringMap(metadataOf(changed), "labels")["e2e.example.com/changed"] = "true"
		s.requests[o.name+"/ApplyChange"] = e2eRequest{apply: true, manager: o.manager, live: o.stored, body: mustJSON(tb, changed)}

		upd := decodeJSON(tb, o.stored)
		stringMap(metadataOf(upd), "annotations")["e2e.example.com/reconciled"] = "2026-06-01T00:00:00Z"
		s.requests[o.name+"/ControllerUpdate"] = e2eRequest{manager: "e2e-controller", live: o.stored, body: mustJSON(tb, upd)}

		if o.status != nil {
			st := decodeJSON(tb, o.stored)
			st["status"] = decodeJSON(tb, o.status)
			s.requests[o.name+"/StatusUpdate"] = e2eRequest{subresource: "status", manager: "e2e-status-writer", live: o.stored, body: mustJSON(tb, st)}
		}
	}
	return s
}

// refCRDTypeConverter builds the reference's type converter for the CRD
// as the API server does: the OpenAPI v3 document of each version from
// apiextensions-apiserver's builder, merged, then
// managedfields.NewTypeConverter.
func refCRDTypeConverter(tb testing.TB) managedfields.TypeConverter {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict([]byte(e2eCRD), &crd); err != nil {
		tb.Fatal(err)
	}
	var specs []*spec3.OpenAPI
	for _, v := range crd.Spec.Versions {
		sp, err := builder.BuildOpenAPIV3(&crd, v.Name, builder.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		specs = append(specs, sp)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		tb.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(merged.Components.Schemas, crd.Spec.PreserveUnknownFields)
	if err != nil {
		tb.Fatal(err)
	}
	return tc
}

// The converters of apimachinery's test field manager: one version per
// kind, nothing to convert or default.
type e2eConvertor struct{}

func (e2eConvertor) Convert(in, out, context any) error { return nil }
func (e2eConvertor) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (e2eConvertor) ConvertFieldLabel(kschema.GroupVersionKind, string, string) (string, string, error) {
	return "", "", fmt.Errorf("not implemented")
}

type e2eDefaulter struct{}

func (e2eDefaulter) Default(runtime.Object) {}

type e2eCreater struct{}

func (e2eCreater) New(gvk kschema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// mapPair is one request's input as maps: live (nil for a create) and
// the body.
type mapPair struct{ live, body map[string]any }

func decodeJSONPair(tb testing.TB, r e2eRequest) mapPair {
	var p mapPair
	if r.live != nil {
		p.live = decodeJSON(tb, r.live)
	}
	p.body = decodeJSON(tb, r.body)
	return p
}

// runRef runs one request on the reference, maps in and out.
func (s *e2eSetup) runRef(o *e2eObject, r e2eRequest, in mapPair) (map[string]any, error) {
	fm := s.ref[o.name+"/"+r.subresource]
	var live runtime.Object
	if in.live != nil {
		live = &unstructured.Unstructured{Object: in.live}
	} else {
		live, _ = e2eCreater{}.New(o.gvk)
	}
	body := &unstructured.Unstructured{Object: in.body}
	var out runtime.Object
	var err error
	if r.apply {
		out, err = fm.Apply(live, body, r.manager, false)
	} else {
		out, err = fm.Update(live, body, r.manager)
	}
	if err != nil {
		return nil, err
	}
	u, ok := out.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("the reference returned a %T", out)
	}
	return u.Object, nil
}

// runSM runs one request on structmerge, values in and out.
func (s *e2eSetup) runSM(o *e2eObject, r e2eRequest, live, body value.Value) (value.Value, error) {
	fm := s.sm[o.name]
	var opts []kube.RequestOption
	if r.subresource != "" {
		opts = append(opts, kube.Subresource(r.subresource))
	}
	if r.apply {
		return fm.Apply(live, body, r.manager, opts...)
	}
	return fm.Update(live, body, r.manager, opts...)
}

// smUnstructured runs one request on structmerge, maps in and out, as a
// new user would: the field manager's own methods on maps.
func (s *e2eSetup) smUnstructured(o *e2eObject, r e2eRequest, in mapPair) (map[string]any, error) {
	fm := s.sm[o.name]
	opts := requestOptions(r)
	if r.apply {
		return fm.ApplyUnstructured(in.live, in.body, r.manager, opts...)
	}
	return fm.UpdateUnstructured(in.live, in.body, r.manager, opts...)
}

// smJSON runs one request on structmerge, JSON in and out, with the field
// manager's own methods on JSON.
func (s *e2eSetup) smJSON(o *e2eObject, r e2eRequest, live, body []byte) ([]byte, error) {
	fm := s.sm[o.name]
	opts := requestOptions(r)
	if r.apply {
		return fm.ApplyJSON(live, body, r.manager, opts...)
	}
	return fm.UpdateJSON(live, body, r.manager, opts...)
}

func requestOptions(r e2eRequest) []kube.RequestOption {
	if r.subresource != "" {
		return []kube.RequestOption{kube.Subresource(r.subresource)}
	}
	return nil
}

// refJSON runs one request on the reference, JSON in and out:
// apimachinery's unstructured JSON decoding, encoding/json out.
func (s *e2eSetup) refJSON(o *e2eObject, r e2eRequest, live, body []byte) ([]byte, error) {
	var in mapPair
	if live != nil {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(live); err != nil {
			return nil, err
		}
		in.live = u.Object
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(body); err != nil {
		return nil, err
	}
	in.body = u.Object
	out, err := s.runRef(o, r, in)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

func (s *e2eSetup) object(name string) *e2eObject {
	for _, o := range s.objects {
		if o.name == name {
			return o
		}
	}
	return nil
}

// rows lists object/op for every row of the table.
func (s *e2eSetup) rows() []string {
	var out []string
	for _, o := range s.objects {
		for _, op := range e2eOps {
			if _, ok := s.requests[o.name+"/"+op]; ok {
				out = append(out, o.name+"/"+op)
			}
		}
	}
	return out
}

// freshBatch is how many inputs are decoded at a time outside the timer.
const freshBatch = 16

// benchFresh runs do b.N times, each on its own input made by prepare;
// the inputs are made in batches with the timer stopped.
func benchFresh[T any](b *testing.B, prepare func() T, do func(T) error) {
	b.Helper()
	if err := do(prepare()); err != nil {
		b.Fatal(err)
	}
	buf := make([]T, freshBatch)
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(freshBatch, b.N-done)
		b.StopTimer()
		for i := range n {
			buf[i] = prepare()
		}
		b.StartTimer()
		for i := range n {
			if err := do(buf[i]); err != nil {
				b.Fatal(err)
			}
			var zero T
			buf[i] = zero
		}
		done += n
	}
}

// BenchmarkKubeEndToEnd: Form/Object/Operation/{apimachinery,structmerge},
// and Unstructured/Object/Operation/read, the floor.
func BenchmarkKubeEndToEnd(b *testing.B) {
	s := kubeE2E(b)
	for _, row := range s.rows() {
		name, _, _ := strings.Cut(row, "/")
		o, r := s.object(name), s.requests[row]
		b.Run("Unstructured/"+row+"/apimachinery", func(b *testing.B) {
			benchFresh(b, func() mapPair { return decodeJSONPair(b, r) }, func(in mapPair) error {
				_, err := s.runRef(o, r, in)
				return err
			})
		})
		b.Run("Unstructured/"+row+"/structmerge", func(b *testing.B) {
			benchFresh(b, func() mapPair { return decodeJSONPair(b, r) }, func(in mapPair) error {
				_, err := s.smUnstructured(o, r, in)
				return err
			})
		})
		// The floor: reading the same fresh inputs once, every key and
		// value, converting nothing; any field manager does at least that.
		b.Run("Unstructured/"+row+"/read", func(b *testing.B) {
			benchFresh(b, func() mapPair { return decodeJSONPair(b, r) }, func(in mapPair) error {
				if in.live != nil {
					sinkInt += readWalk(in.live)
				}
				sinkInt += readWalk(in.body)
				return nil
			})
		})
	}
	for _, row := range s.rows() {
		name, _, _ := strings.Cut(row, "/")
		o, r := s.object(name), s.requests[row]
		// JSON inputs are read-only on both sides: the bytes need no
		// copy per request; each request decodes them anew.
		b.Run("JSON/"+row+"/apimachinery", func(b *testing.B) {
			bench(b, func() error {
				_, err := s.refJSON(o, r, r.live, r.body)
				return err
			})
		})
		b.Run("JSON/"+row+"/structmerge", func(b *testing.B) {
			bench(b, func() error {
				_, err := s.smJSON(o, r, r.live, r.body)
				return err
			})
		})
	}
	benchKubeEndToEndStruct(b, s) // Struct/..., kube_e2e_struct_test.go
}

// normalizeRefTimes gives every managedFields entry the reference stamped
// at or after start the time e2eNow and sorts the entries again in the API
// server's order, so that they read as they would with structmerge's
// clock.
func normalizeRefTimes(tb testing.TB, obj map[string]any, start time.Time) {
	tb.Helper()
	kubeengine.FixTimes(&unstructured.Unstructured{Object: obj}, start, e2eNow)
}

// stampAll gives every managedFields entry of obj the time at.
func stampAll(obj map[string]any, at time.Time) {
	u := &unstructured.Unstructured{Object: obj}
	entries := u.GetManagedFields()
	for i := range entries {
		t := metav1.NewTime(at)
		entries[i].Time = &t
	}
	u.SetManagedFields(entries)
}

// splitManagedFields returns obj without metadata.managedFields (a copy)
// and the managedFields as the API server's JSON.
func splitManagedFields(tb testing.TB, obj map[string]any) (map[string]any, []byte) {
	tb.Helper()
	c := runtime.DeepCopyJSONValue(obj).(map[string]any)
	md := metadataOf(c)
	mf, ok := md["managedFields"]
	delete(md, "managedFields")
	if !ok {
		return c, nil
	}
	return c, mustJSON(tb, mf)
}

// agree fails unless structmerge's object and managedFields equal the
// reference's.
func agree(t *testing.T, what string, ref, sm map[string]any) {
	t.Helper()
	refObj, refMF := splitManagedFields(t, ref)
	smObj, smMF := splitManagedFields(t, sm)
	if refMF == nil || !bytes.Equal(refMF, smMF) {
		t.Errorf("%s: managedFields differ:\nreference:   %s\nstructmerge: %s", what, refMF, smMF)
	}
	rv, err := value.FromUnstructured(refObj)
	if err != nil {
		t.Fatal(err)
	}
	sv, err := value.FromUnstructured(smObj)
	if err != nil {
		t.Fatal(err)
	}
	if !value.Equal(rv, sv) {
		t.Errorf("%s: objects differ:\nreference:   %.2000s\nstructmerge: %.2000s", what, value.ToJSON(rv), value.ToJSON(sv))
	}
}

// TestKubeEndToEndAgree proves that, for every row of
// BenchmarkKubeEndToEnd and in every form, structmerge ends with the same
// object and the same managedFields bytes as the reference (the
// reference's stamps put at e2eNow).
func TestKubeEndToEndAgree(t *testing.T) {
	s := kubeE2E(t)
	rows := s.rows()
	if want := len(s.objects)*len(e2eOps) - 1; len(rows) != want { // Endpoints has no status
		t.Errorf("%d rows, want %d", len(rows), want)
	}
	for _, row := range rows {
		name, _, _ := strings.Cut(row, "/")
		o, r := s.object(name), s.requests[row]
		t.Run(row, func(t *testing.T) {
			start := time.Now().Truncate(time.Second)
			ref, err := s.runRef(o, r, decodeJSONPair(t, r))
			if err != nil {
				t.Fatalf("reference: %v", err)
			}
			normalizeRefTimes(t, ref, start)
			sm, err := s.smUnstructured(o, r, decodeJSONPair(t, r))
			if err != nil {
				t.Fatalf("structmerge: %v", err)
			}
			agree(t, "unstructured", ref, sm)

			start = time.Now().Truncate(time.Second)
			refJS, err := s.refJSON(o, r, r.live, r.body)
			if err != nil {
				t.Fatalf("reference JSON: %v", err)
			}
			smJS, err := s.smJSON(o, r, r.live, r.body)
			if err != nil {
				t.Fatalf("structmerge JSON: %v", err)
			}
			refJ := decodeJSON(t, refJS)
			normalizeRefTimes(t, refJ, start)
			agree(t, "JSON", refJ, decodeJSON(t, smJS))
			agreeStruct(t, s, o, r) // built-in kinds, kube_e2e_struct_test.go

			// The request must change something the row is about.
			if r.live != nil && row != name+"/Reapply" {
				if bytes.Equal(mustJSON(t, decodeJSON(t, r.live)), mustJSON(t, sm)) {
					t.Errorf("%s leaves the live object as it was", row)
				}
			}
		})
	}
}

// TestKubeEndToEndResetFieldsFromSource checks resetPaths against the
// GetResetFields of the registry strategies of k8s.io/kubernetes and
// apiextensions-apiserver in the module cache: every path written in the
// strategy's function is in the table and the other way round.
func TestKubeEndToEndResetFieldsFromSource(t *testing.T) {
	k8s := downloadedModuleDir(t, "k8s.io/kubernetes@"+builtin.KubernetesVersion)
	apiext := moduleDir(t, "k8s.io/apiextensions-apiserver")
	sources := []struct {
		key, file, strategy string
	}{
		{"v1/Pod", filepath.Join(k8s, "pkg/registry/core/pod/strategy.go"), "podStrategy"},
		{"v1/Pod/status", filepath.Join(k8s, "pkg/registry/core/pod/strategy.go"), "podStatusStrategy"},
		{"v1/Node", filepath.Join(k8s, "pkg/registry/core/node/strategy.go"), "nodeStrategy"},
		{"v1/Node/status", filepath.Join(k8s, "pkg/registry/core/node/strategy.go"), "nodeStatusStrategy"},
		{"apps/v1/Deployment", filepath.Join(k8s, "pkg/registry/apps/deployment/strategy.go"), "deploymentStrategy"},
		{"apps/v1/Deployment/status", filepath.Join(k8s, "pkg/registry/apps/deployment/strategy.go"), "deploymentStatusStrategy"},
		{"apiresource.kcp.dev/v1alpha1/APIResourceImport", filepath.Join(apiext, "pkg/registry/customresource/strategy.go"), "customResourceStrategy"},
		{"apiresource.kcp.dev/v1alpha1/APIResourceImport/status", filepath.Join(apiext, "pkg/registry/customresource/status_strategy.go"), "statusStrategy"},
	}
	if len(sources) != len(resetPaths) {
		t.Errorf("%d sources for %d table entries", len(sources), len(resetPaths))
	}
	for _, src := range sources {
		data, err := os.ReadFile(src.file)
		if err != nil {
			t.Fatal(err)
		}
		got := strategyResetPaths(t, string(data), src.strategy)
		var want []string
		for _, p := range resetPaths[src.key] {
			want = append(want, strings.Join(p, "."))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the strategy %s resets %v, the table has %v", src.key, src.strategy, got, want)
		}
	}
	// Endpoints resets nothing.
	data, err := os.ReadFile(filepath.Join(k8s, "pkg/registry/core/endpoint/strategy.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "GetResetFields") {
		t.Errorf("the Endpoints strategy now resets fields; the table has none")
	}
}

// strategyResetPaths reads the MakePathOrDie calls in the body of
// strategy's GetResetFields method.
func strategyResetPaths(t *testing.T, src, strategy string) []string {
	t.Helper()
	head := ") GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {"
	i := strings.Index(src, strategy+head)
	if i < 0 {
		t.Fatalf("no GetResetFields of %s", strategy)
	}
	body := src[i:]
	if end := strings.Index(body, "\n}\n"); end >= 0 {
		body = body[:end]
	}
	var out []string
	for {
		j := strings.Index(body, "fieldpath.MakePathOrDie(")
		if j < 0 {
			break
		}
		body = body[j+len("fieldpath.MakePathOrDie("):]
		k := strings.Index(body, ")")
		var names []string
		for _, a := range strings.Split(body[:k], ",") {
			names = append(names, strings.Trim(strings.TrimSpace(a), `"`))
		}
		out = append(out, strings.Join(names, "."))
		body = body[k:]
	}
	return out
}

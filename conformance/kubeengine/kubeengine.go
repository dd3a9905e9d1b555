// Package kubeengine runs Kubernetes-flavour scenario files on the field
// manager of k8s.io/apimachinery v0.37.2 (the Kubernetes 1.37 API server's),
// the behavioural reference for package kube, through the plain-data
// engine interface of internal/scenario.
//
// Each write builds the API server's field manager with
// managedfields.NewDefaultFieldManager (NewDefaultCRDFieldManager for a
// custom resource): the chain of the real API server, capping Update
// entries at 10, with the reset fields of the kind and subresource (see
// below). Built-in kinds get converters that do not convert (one version
// per kind, as in apimachinery's own test field manager); a custom
// resource whose CRD has conversion strategy None gets the converter of
// apiextensions-apiserver (CRDConverters), and a request at another of
// its versions than the live object's is served at the request's version,
// as the API server's handler for that version serves it: the stored
// object is read at that version as the storage reads it (converted, then
// pruned by apiextensions-apiserver's structural pruning). The type converter is, with Engine.Models,
// the API server's own, built from the OpenAPI documents of Kubernetes
// 1.37 by managedfields.NewTypeConverter; otherwise (and for custom
// resources) it is built from the schema package kube uses
// (kube.NewSetup), compiled by structured-merge-diff. Objects are
// unstructured, as in the reference's test field manager.
//
// Around the field manager the adapter does what the API server's
// registry does: the fields the strategy resets keep their live values,
// and a write to the scale subresource goes through a Scale built from the
// object and managedfields.ScaleHandler, as the apps registry does it.
// For built-in kinds, the reset fields and the replicas paths are the
// reference's own (RegistryReference: conformance/registryref calls the
// strategies and scale storages of k8s.io/kubernetes), never structmerge's
// builtin.ResetFields or builtin.ReplicasPaths; for custom resources
// they come from the CRD.
//
// The reference stamps entries with the wall clock; the adapter replaces
// every time the write stamped (those not older than the write) with the
// scenario's step time and sorts the entries again, with the API server's
// order, so that managedFields come out as they would with that clock.
// Live objects given by a scenario must therefore carry times before the
// steps' (2020-01-01T00:00:00Z or earlier).
//
// Concurrency: an Engine and the Typed values it returns hold only data
// that is not modified after CompileKubernetes; each write builds its own
// field manager.
package kubeengine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/conformance/smdengine"
	smfieldpath "github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/schema"
)

// Engine runs structured scenarios on SMD (smdengine) and Kubernetes
// scenarios on apimachinery's field manager. The zero value is ready to
// use.
type Engine struct {
	smdengine.Engine
	// Models, when set, are the OpenAPI models of the built-in types (see
	// LoadOpenAPIModels): a scenario without CRDs then runs with the type
	// converter the API server builds from them
	// (managedfields.NewTypeConverter). Otherwise, and for scenarios with
	// CRDs, the type converter is built from the schema package kube uses.
	Models map[string]*spec.Schema
}

var _ scenario.KubernetesEngine = Engine{}

// CompileKubernetes builds the type converter for the scenario's schema.
func (e Engine) CompileKubernetes(crds []scenario.Source) (scenario.KubernetesTyped, error) {
	setup, err := kube.NewSetup(native.CRDFiles(crds)...)
	if err != nil {
		return nil, err
	}
	storage, err := crdStorages(crds)
	if err != nil {
		return nil, err
	}
	if e.Models != nil && len(crds) == 0 {
		tc, err := managedfields.NewTypeConverter(e.Models, false)
		if err != nil {
			return nil, err
		}
		ref, err := LoadRegistryReference()
		if err != nil {
			return nil, err
		}
		return &Typed{setup: setup, tc: tc, ref: ref}, nil
	}
	var t *Typed
	if e.Models != nil {
		// As apiextensions-apiserver builds the type converter of a
		// custom resource: the models of every CRD version
		// (builder.BuildOpenAPIV3) merged with the built-in ones.
		models, preserve, err := crdModels(e.Models, crds)
		if err != nil {
			return nil, err
		}
		tc, err := managedfields.NewTypeConverter(models, preserve)
		if err != nil {
			return nil, err
		}
		ref, err := LoadRegistryReference()
		if err != nil {
			return nil, err
		}
		t = &Typed{setup: setup, tc: tc, ref: ref}
	} else if t, err = NewTyped(setup); err != nil {
		return nil, err
	}
	t.storage = storage
	if t.crdResets, err = crdResetFields(crds); err != nil {
		return nil, err
	}
	return t, nil
}

// crdModels merges the OpenAPI models of the built-in kinds with those of
// every version of the CRDs, as apiextensions-apiserver does for a
// custom resource's type converter (its buildOpenAPIModelsForApply:
// builder.BuildOpenAPIV3 per version, builder.MergeSpecsV3). It also
// reports whether a CRD preserves unknown fields.
func crdModels(static map[string]*spec.Schema, crds []scenario.Source) (map[string]*spec.Schema, bool, error) {
	specs := []*spec3.OpenAPI{{
		Version:    "3.0.0",
		Info:       &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes CRD Swagger", Version: "v0.1.0"}},
		Components: &spec3.Components{Schemas: static},
	}}
	preserve := false
	for _, src := range crds {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(src.Text, &crd); err != nil {
			return nil, false, fmt.Errorf("%s: %w", src.File, err)
		}
		preserve = preserve || crd.Spec.PreserveUnknownFields
		for _, v := range crd.Spec.Versions {
			s, err := builder.BuildOpenAPIV3(&crd, v.Name, builder.Options{})
			if err != nil {
				return nil, false, fmt.Errorf("%s: version %s: %w", src.File, v.Name, err)
			}
			specs = append(specs, s)
		}
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, false, err
	}
	return merged.Components.Schemas, preserve, nil
}

// CRDConverters builds, for each CRD, the converter the API server's
// request scopes use for its custom resources
// (conversion.NewCRConverterFactory(...).NewConverter, the "safe" one; a
// CRD without spec.conversion gets strategy None, as the API server
// defaults it), by group and kind.
func CRDConverters(crds []scenario.Source) (map[kschema.GroupKind]runtime.ObjectConvertor, error) {
	st, err := crdStorages(crds)
	if err != nil {
		return nil, err
	}
	out := map[kschema.GroupKind]runtime.ObjectConvertor{}
	for gk, s := range st {
		out[gk] = s.conv
	}
	return out, nil
}

// crdStorage is what the API server's storage of a custom resource uses
// to serve it at a version: the CRD's converter and the structural
// schema of each version, by which it prunes.
type crdStorage struct {
	conv       runtime.ObjectConvertor
	structural map[string]*structuralschema.Structural
}

// crdStorages builds the storage side of each CRD with conversion None.
func crdStorages(crds []scenario.Source) (map[kschema.GroupKind]crdStorage, error) {
	if len(crds) == 0 {
		return nil, nil
	}
	factory, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, err
	}
	out := map[kschema.GroupKind]crdStorage{}
	for _, src := range crds {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(src.Text, &crd); err != nil {
			return nil, fmt.Errorf("%s: %w", src.File, err)
		}
		if crd.Spec.Conversion == nil {
			crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
		}
		if crd.Spec.Conversion.Strategy != apiextensionsv1.NoneConverter {
			continue
		}
		safe, _, err := factory.NewConverter(&crd)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.File, err)
		}
		s := crdStorage{conv: safe, structural: map[string]*structuralschema.Structural{}}
		for _, v := range crd.Spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			var internal apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
				return nil, fmt.Errorf("%s: %w", src.File, err)
			}
			ss, err := structuralschema.NewStructural(&internal)
			if err != nil {
				return nil, fmt.Errorf("%s: version %s: %w", src.File, v.Name, err)
			}
			s.structural[v.Name] = ss
		}
		out[kschema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}] = s
	}
	return out, nil
}

// readAt serves live at version gvk as the API server's storage does for
// a request at that version: converted with the CRD's converter, then
// pruned by that version's structural schema. It returns live as it is
// when the conversion fails (the field manager then reports it).
func (t *Typed) readAt(live *unstructured.Unstructured, gvk kschema.GroupVersionKind) *unstructured.Unstructured {
	s, ok := t.storage[gvk.GroupKind()]
	if !ok || live.GroupVersionKind() == gvk {
		return live
	}
	out, err := s.conv.ConvertToVersion(live, gvk.GroupVersion())
	if err != nil {
		return live
	}
	u := out.(*unstructured.Unstructured)
	structuralpruning.Prune(u.Object, s.structural[gvk.Version], true)
	return u
}

// LoadOpenAPIModels reads the OpenAPI v3 documents of Kubernetes
// (api/openapi-spec/v3 of module k8s.io/kubernetes at the built-in
// schema's version, fetched with go mod download) and joins their
// components.schemas as the API server sees them, one model per name.
func LoadOpenAPIModels() (map[string]*spec.Schema, error) {
	out, err := exec.Command("go", "mod", "download", "-json", "k8s.io/kubernetes@"+builtin.KubernetesVersion).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || info.Dir == "" {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %v %s", builtin.KubernetesVersion, err, info.Error)
	}
	names, err := filepath.Glob(filepath.Join(info.Dir, "api/openapi-spec/v3/*.json"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no OpenAPI v3 documents in %s: %v", info.Dir, err)
	}
	sort.Strings(names)
	models := map[string]*spec.Schema{}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var doc spec3.OpenAPI
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if doc.Components == nil {
			continue
		}
		for name, s := range doc.Components.Schemas {
			if _, ok := models[name]; !ok {
				models[name] = s
			}
		}
	}
	return models, nil
}

// NewTyped returns the reference runner for a setup, with a type
// converter built from the setup's schema.
func NewTyped(setup *kube.Setup) (*Typed, error) {
	text, err := schema.Marshal(setup.Document)
	if err != nil {
		return nil, err
	}
	parser, err := typed.NewParser(typed.YAMLObject(text))
	if err != nil {
		return nil, err
	}
	tc := &typeConverter{parser: parser, kinds: map[kschema.GroupVersionKind]string{}}
	for k, name := range setup.Kinds {
		tc.kinds[kschema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = name
	}
	ref, err := LoadRegistryReference()
	if err != nil {
		return nil, err
	}
	return &Typed{setup: setup, tc: tc, ref: ref}, nil
}

// Typed runs writes on the reference.
type Typed struct {
	setup *kube.Setup
	tc    managedfields.TypeConverter
	ref   *RegistryReference
	// storage holds, for the custom resources whose CRDs have
	// conversion strategy None, their converters and structural schemas
	// (see CRDConverters).
	storage map[kschema.GroupKind]crdStorage
	// crdResets holds, per custom resource kind and version and per
	// subresource, what apiextensions-apiserver's strategies reset
	// (crdResetFields).
	crdResets map[kschema.GroupVersionKind]map[string]map[fieldpath.APIVersion]*fieldpath.Set
}

// crdResetFields asks apiextensions-apiserver's strategies of each custom
// resource version what they reset (GetResetFields of
// customresource.NewStrategy and NewStatusStrategy, built as its handler
// builds them for the version's subresources).
func crdResetFields(crds []scenario.Source) (map[kschema.GroupVersionKind]map[string]map[fieldpath.APIVersion]*fieldpath.Set, error) {
	out := map[kschema.GroupVersionKind]map[string]map[fieldpath.APIVersion]*fieldpath.Set{}
	for _, src := range crds {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(src.Text, &crd); err != nil {
			return nil, fmt.Errorf("%s: %w", src.File, err)
		}
		for _, v := range crd.Spec.Versions {
			gvk := kschema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
			var status *apiextensions.CustomResourceSubresourceStatus
			if v.Subresources != nil && v.Subresources.Status != nil {
				status = &apiextensions.CustomResourceSubresourceStatus{}
			}
			st := customresource.NewStrategy(nil, crd.Spec.Scope == apiextensionsv1.NamespaceScoped, gvk, nil, nil, nil, status, nil, nil)
			out[gvk] = map[string]map[fieldpath.APIVersion]*fieldpath.Set{"": st.GetResetFields()}
			if status != nil {
				out[gvk]["status"] = customresource.NewStatusStrategy(st).GetResetFields()
			}
		}
	}
	return out, nil
}

// TypeConverter returns the reference's type converter.
func (t *Typed) TypeConverter() managedfields.TypeConverter { return t.tc }

// typeConverter converts unstructured objects with the parsed schema.
type typeConverter struct {
	parser *typed.Parser
	kinds  map[kschema.GroupVersionKind]string
}

func (c *typeConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	name, ok := c.kinds[gvk]
	if !ok {
		return nil, fmt.Errorf("no corresponding type for %v", gvk)
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("not an unstructured object: %T", obj)
	}
	return c.parser.Type(name).FromUnstructured(u.UnstructuredContent(), opts...)
}

func (c *typeConverter) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	m, ok := v.AsValue().Unstructured().(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("failed to convert value to unstructured")
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// The converters of apimachinery's test field manager.
type convertor struct{}

func (convertor) Convert(in, out, context interface{}) error { return nil }
func (convertor) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (convertor) ConvertFieldLabel(kschema.GroupVersionKind, string, string) (string, string, error) {
	return "", "", errors.New("not implemented")
}

type defaulter struct{}

func (defaulter) Default(runtime.Object) {}

type creater struct{}

func (creater) New(gvk kschema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]interface{}{}}
	u.SetAPIVersion(gvk.GroupVersion().String())
	u.SetKind(gvk.Kind)
	return u, nil
}

func toKube(gvk kschema.GroupVersionKind) kube.GroupVersionKind {
	return kube.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
}

// smdSet converts a structmerge field set to SMD's through FieldsV1.
func smdSet(s *smfieldpath.Set) (*fieldpath.Set, error) {
	out := &fieldpath.Set{}
	if err := out.FromJSON(strings.NewReader(string(s.MarshalFieldsV1()))); err != nil {
		return nil, err
	}
	return out, nil
}

// FieldManager builds the API server's field manager for a kind and
// subresource of the setup.
func (t *Typed) FieldManager(gvk kschema.GroupVersionKind, subresource string) (*managedfields.FieldManager, error) {
	var filters map[fieldpath.APIVersion]fieldpath.Filter
	sets, err := t.resetFields(gvk, subresource)
	if err != nil {
		return nil, err
	}
	if len(sets) > 0 {
		filters = fieldpath.NewExcludeFilterSetMap(sets)
	}
	if t.setup.IsCustomResource(toKube(gvk)) {
		var conv runtime.ObjectConvertor = convertor{}
		if s, ok := t.storage[gvk.GroupKind()]; ok {
			conv = s.conv
		}
		return managedfields.NewDefaultCRDFieldManager(t.tc, conv, defaulter{}, creater{}, gvk, gvk.GroupVersion(), subresource, filters)
	}
	return managedfields.NewDefaultFieldManager(t.tc, convertor{}, defaulter{}, creater{}, gvk, gvk.GroupVersion(), subresource, filters)
}

// Do runs one write. On failure it returns live unchanged.
func (t *Typed) Do(live scenario.State, op scenario.KubernetesOperation) (scenario.State, error) {
	out, err := t.do(live, op)
	if err != nil {
		return live, err
	}
	return out, nil
}

func objectOf(x any) (*unstructured.Unstructured, error) {
	m, ok := runtime.DeepCopyJSONValue(x).(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("not an object: %T", x)
	}
	return &unstructured.Unstructured{Object: m}, nil
}

func (t *Typed) do(live scenario.State, op scenario.KubernetesOperation) (scenario.State, error) {
	sent, err := objectOf(op.Object)
	if err != nil {
		return live, err
	}
	var liveObj *unstructured.Unstructured
	if live.HasObject {
		if liveObj, err = objectOf(live.Object); err != nil {
			return live, err
		}
	}
	start := time.Now().Truncate(time.Second)
	var out *unstructured.Unstructured
	if op.Subresource == kube.ScaleSubresource {
		out, err = t.scale(liveObj, sent, op)
	} else {
		out, err = t.write(liveObj, sent, op)
	}
	if err != nil {
		return live, conflicts(err)
	}
	FixTimes(out, start, op.Time)
	return scenario.State{Object: out.Object, HasObject: true}, nil
}

// write runs an apply or update on the main resource or a subresource
// other than scale, then the registry's reset of values.
func (t *Typed) write(liveObj, sent *unstructured.Unstructured, op scenario.KubernetesOperation) (*unstructured.Unstructured, error) {
	var gvk kschema.GroupVersionKind
	if liveObj != nil {
		gvk = liveObj.GroupVersionKind()
		// A custom resource with a converter is served at the version
		// of the request, as the API server's handler for that version
		// serves it.
		if sg := sent.GroupVersionKind(); sg.GroupKind() == gvk.GroupKind() && sg.Version != "" && t.storage[gvk.GroupKind()].conv != nil {
			gvk = sg
			liveObj = t.readAt(liveObj, gvk)
		}
	} else {
		gvk = sent.GroupVersionKind()
		o, _ := creater{}.New(gvk)
		liveObj = o.(*unstructured.Unstructured)
	}
	fm, err := t.FieldManager(gvk, op.Subresource)
	if err != nil {
		return nil, err
	}
	before := liveObj.DeepCopy()
	var res runtime.Object
	switch op.Op {
	case scenario.OpApply, scenario.OpForceApply:
		res, err = fm.Apply(liveObj, sent, op.Manager, op.Op == scenario.OpForceApply)
	case scenario.OpUpdate:
		// An update at the request's version of a converted kind keeps
		// its apiVersion; otherwise it takes live's.
		if converted := sent.GroupVersionKind() == gvk && liveObj.GroupVersionKind() != gvk; !converted {
			if sent, err = defaultKind(liveObj, sent, gvk); err != nil {
				return nil, err
			}
		}
		res, err = fm.Update(liveObj, sent, op.Manager)
	default:
		return nil, fmt.Errorf("unknown operation %q", op.Op)
	}
	if err != nil {
		return nil, err
	}
	out, ok := res.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("the field manager returned a %T", res)
	}
	if err := t.resetValues(out, before, gvk, op.Subresource); err != nil {
		return nil, err
	}
	return out, nil
}

// defaultKind gives an update body without apiVersion and kind the live
// object's (as the API server's decoder does) and refuses another kind.
func defaultKind(liveObj, sent *unstructured.Unstructured, gvk kschema.GroupVersionKind) (*unstructured.Unstructured, error) {
	_, hasAV := sent.Object["apiVersion"]
	_, hasKind := sent.Object["kind"]
	if !hasAV && !hasKind {
		sent.SetAPIVersion(liveObj.GetAPIVersion())
		sent.SetKind(liveObj.GetKind())
		return sent, nil
	}
	if sent.GetAPIVersion() != liveObj.GetAPIVersion() || sent.GetKind() != liveObj.GetKind() {
		return nil, &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: 400, Reason: metav1.StatusReasonBadRequest,
			Message: fmt.Sprintf("the object's apiVersion and kind (%s, %s) are not the live object's (%s, %s)", sent.GetAPIVersion(), sent.GetKind(), liveObj.GetAPIVersion(), liveObj.GetKind())}}
	}
	return sent, nil
}

// resetFields returns the fields reset on writes to subresource of gvk:
// for a built-in kind, the reference's registry tables (the strategies of
// Kubernetes, see RegistryReference); for a custom resource, what
// apiextensions-apiserver's strategies say (crdResetFields).
func (t *Typed) resetFields(gvk kschema.GroupVersionKind, subresource string) (map[fieldpath.APIVersion]*fieldpath.Set, error) {
	if !t.setup.IsCustomResource(toKube(gvk)) {
		return t.ref.ResetFields(gvk.Group, gvk.Kind, subresource)
	}
	return t.crdResets[gvk][subresource], nil
}

// replicasPaths returns where the replicas of gvk are: for a built-in
// kind, from the reference's registry tables; for a custom resource, from
// its CRD.
func (t *Typed) replicasPaths(gvk kschema.GroupVersionKind) (managedfields.ResourcePathMappings, bool) {
	if !t.setup.IsCustomResource(toKube(gvk)) {
		return t.ref.ReplicasPaths(gvk.Group, gvk.Kind)
	}
	ours, ok := t.setup.ReplicasPaths(toKube(gvk))
	if !ok {
		return nil, false
	}
	mappings := managedfields.ResourcePathMappings{}
	for gv, p := range ours {
		if p == nil {
			mappings[gv] = nil
			continue
		}
		var parts []interface{}
		for _, pe := range p {
			parts = append(parts, pe.FieldName())
		}
		mappings[gv] = fieldpath.MakePathOrDie(parts...)
	}
	return mappings, true
}

// resetValues gives the fields the kind's strategy resets their values in
// live (removing those live does not have). A reset of the whole metadata
// keeps out's managedFields, as the strategies' reset of the metadata for
// a status write does.
func (t *Typed) resetValues(out, live *unstructured.Unstructured, gvk kschema.GroupVersionKind, subresource string) error {
	reset, err := t.resetFields(gvk, subresource)
	if err != nil {
		return err
	}
	set := reset[fieldpath.APIVersion(gvk.GroupVersion().String())]
	if set == nil {
		return nil
	}
	managed, hasManaged, _ := unstructured.NestedFieldCopy(out.Object, "metadata", "managedFields")
	set.Iterate(func(p fieldpath.Path) {
		names := make([]string, 0, len(p))
		for _, pe := range p {
			if pe.FieldName == nil {
				return
			}
			names = append(names, *pe.FieldName)
		}
		if len(names) == 0 {
			return
		}
		if v, found, err := unstructured.NestedFieldCopy(live.Object, names...); found && err == nil {
			_ = unstructured.SetNestedField(out.Object, v, names...)
		} else {
			unstructured.RemoveNestedField(out.Object, names...)
		}
		if len(names) == 1 && names[0] == "metadata" {
			if hasManaged {
				_ = unstructured.SetNestedField(out.Object, managed, "metadata", "managedFields")
			} else {
				unstructured.RemoveNestedField(out.Object, "metadata", "managedFields")
			}
		}
	})
	return nil
}

// scale runs a write to the scale subresource the way the apps registry
// does: parent -> Scale (with ScaleHandler.ToSubresource), the field
// manager of the Scale, Scale -> parent (ScaleHandler.ToParent).
func (t *Typed) scale(parent, sent *unstructured.Unstructured, op scenario.KubernetesOperation) (*unstructured.Unstructured, error) {
	if parent == nil {
		return nil, errors.New("the scale subresource needs the live object it scales")
	}
	pgvk := parent.GroupVersionKind()
	mappings, ok := t.replicasPaths(pgvk)
	if !ok {
		return nil, fmt.Errorf("%v has no scale subresource", pgvk)
	}
	gv := pgvk.GroupVersion()
	rp := mappings[gv.String()]
	if rp == nil {
		return nil, fmt.Errorf("%v has no scale subresource", pgvk)
	}
	var names []string
	for _, pe := range rp {
		names = append(names, *pe.FieldName)
	}
	handler := managedfields.NewScaleHandler(parent.GetManagedFields(), gv, mappings)
	scaleEntries, err := handler.ToSubresource()
	if err != nil {
		return nil, err
	}
	old, err := scaleOf(parent, names)
	if err != nil {
		return nil, err
	}
	old.SetManagedFields(scaleEntries)
	sgvk := kschema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	fm, err := t.FieldManager(sgvk, kube.ScaleSubresource)
	if err != nil {
		return nil, err
	}
	var res runtime.Object
	switch op.Op {
	case scenario.OpApply, scenario.OpForceApply:
		// The API server's apply patcher merges the Scale as sent (a
		// zero replicas stays); an update decodes it into its Go type.
		res, err = fm.Apply(old, sent, op.Manager, op.Op == scenario.OpForceApply)
	case scenario.OpUpdate:
		normalizeScale(sent.Object)
		if sent, err = defaultKind(old, sent, sgvk); err != nil {
			return nil, err
		}
		res, err = fm.Update(old, sent, op.Manager)
	}
	if err != nil {
		return nil, err
	}
	newScale := res.(*unstructured.Unstructured)
	replicas, found, _ := unstructured.NestedFieldNoCopy(newScale.Object, "spec", "replicas")
	if !found || replicas == nil {
		replicas = int64(0)
	}
	out := parent.DeepCopy()
	_ = unstructured.SetNestedField(out.Object, runtime.DeepCopyJSONValue(replicas), names...)
	entries, err := handler.ToParent(newScale.GetManagedFields())
	if err != nil {
		return nil, err
	}
	out.SetManagedFields(entries)
	return out, nil
}

// scaleOf is the Scale the registry presents for parent, in the shape it
// has after the API server's Go types (normalizeScale).
func scaleOf(parent *unstructured.Unstructured, replicasPath []string) (*unstructured.Unstructured, error) {
	md := map[string]interface{}{}
	for _, k := range []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"} {
		if s, ok, _ := unstructured.NestedString(parent.Object, "metadata", k); ok && s != "" {
			md[k] = s
		}
	}
	spec := map[string]interface{}{}
	if r, ok, _ := unstructured.NestedFieldCopy(parent.Object, replicasPath...); ok && isNumber(r) {
		spec["replicas"] = r
	}
	status := map[string]interface{}{}
	if r, ok, _ := unstructured.NestedFieldCopy(parent.Object, "status", "replicas"); ok && isNumber(r) {
		status["replicas"] = r
	}
	if sel, ok, _ := unstructured.NestedMap(parent.Object, "spec", "selector"); ok {
		var ls metav1.LabelSelector
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(sel, &ls); err == nil {
			if s, err := metav1.LabelSelectorAsSelector(&ls); err == nil && s.String() != "" {
				status["selector"] = s.String()
			}
		}
	}
	obj := map[string]interface{}{
		"apiVersion": "autoscaling/v1",
		"kind":       "Scale",
		"metadata":   md,
		"spec":       spec,
		"status":     status,
	}
	normalizeScale(obj)
	return &unstructured.Unstructured{Object: obj}, nil
}

func isNumber(x interface{}) bool {
	switch x.(type) {
	case int64, float64, int, int32:
		return true
	}
	return false
}

func isZero(x interface{}) bool {
	switch n := x.(type) {
	case int64:
		return n == 0
	case float64:
		return n == 0
	case int:
		return n == 0
	case int32:
		return n == 0
	}
	return false
}

// normalizeScale drops a zero spec.replicas, defaults status.replicas to
// 0 and drops an empty status.selector, as the Scale's Go type does.
func normalizeScale(obj map[string]interface{}) {
	if spec, ok := obj["spec"].(map[string]interface{}); ok {
		if r, ok := spec["replicas"]; ok && isZero(r) {
			delete(spec, "replicas")
		}
	}
	status, ok := obj["status"].(map[string]interface{})
	if !ok {
		if obj["status"] != nil {
			return
		}
		status = map[string]interface{}{}
	}
	if r, ok := status["replicas"]; !ok || r == nil {
		status["replicas"] = int64(0)
	}
	if s, ok := status["selector"]; ok && (s == nil || s == "") {
		delete(status, "selector")
	}
	obj["status"] = status
}

// FixTimes sets the time of every managedFields entry of obj stamped since
// start (the reference stamps with the wall clock) to at, and sorts the
// entries again in the API server's order (Apply entries first, then
// Update entries, each oldest first, ties by manager, version and
// subresource), so that they read as they would with a fixed clock.
func FixTimes(obj *unstructured.Unstructured, start, at time.Time) {
	entries := obj.GetManagedFields()
	if entries == nil {
		return
	}
	for i := range entries {
		if tm := entries[i].Time; tm != nil && !tm.Time.Before(start) {
			t := metav1.NewTime(at)
			entries[i].Time = &t
		}
	}
	sort.SliceStable(entries, func(i, j int) bool {
		p, q := entries[i], entries[j]
		if p.Operation != q.Operation {
			return p.Operation < q.Operation
		}
		ps, qs := int64(0), int64(0)
		if p.Time != nil {
			ps = p.Time.Unix()
		}
		if q.Time != nil {
			qs = q.Time.Unix()
		}
		if ps != qs {
			return ps < qs
		}
		if p.Manager != q.Manager {
			return p.Manager < q.Manager
		}
		if p.APIVersion != q.APIVersion {
			return p.APIVersion < q.APIVersion
		}
		return p.Subresource < q.Subresource
	})
	obj.SetManagedFields(entries)
}

// conflicts turns the API server's conflict error into a
// *scenario.ConflictsError.
func conflicts(err error) error {
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Reason != metav1.StatusReasonConflict || se.ErrStatus.Details == nil {
		return err
	}
	out := &scenario.ConflictsError{Message: err.Error()}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type != metav1.CauseTypeFieldManagerConflict {
			continue
		}
		name := strings.TrimPrefix(c.Message, "conflict with ")
		if q, qerr := strconv.QuotedPrefix(name); qerr == nil {
			name, _ = strconv.Unquote(q)
		}
		out.Conflicts = append(out.Conflicts, scenario.Conflict{Manager: name, Path: c.Field})
	}
	return out
}

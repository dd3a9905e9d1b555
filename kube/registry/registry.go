// Package registry runs the registry strategies of Kubernetes 1.37's
// built-in kinds, with the server's own code (k8s.io/kubernetes/pkg/registry
// and apiextensions-apiserver's registry for CustomResourceDefinitions), as
// a kube.Strategy for kube.Server.
//
// Between the field manager and the storage, the API server passes every
// write through rest.BeforeCreate or rest.BeforeUpdate with the strategy of
// the endpoint written: PrepareForCreate drops what a new object may not
// set (status, for most kinds) and sets what the registry computes (a new
// Pod's phase and QoS class, a Namespace's finalizer, metadata.generation);
// PrepareForUpdate keeps the live values of what the endpoint may not
// change and moves the generation; then the kind's validation runs, and a
// refusal is the write's error, with the server's text. Strategies does the
// same with the same functions, on the object converted to the kind's
// internal version and back.
//
// What it cannot do offline: what the requester decides (a
// CertificateSigningRequest's spec.username and groups come from the
// authenticated user, and nobody is authenticated here), admission, and
// what allocators assign (a Service's cluster IPs). docs/compatibility.md
// lists them.
//
// Like kube/defaulting, the package imports k8s.io/kubernetes: a module that
// imports it needs the replace directives of this module's go.mod.
package registry

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/internal/k8sscheme"
	"github.com/structmerge/structmerge/kube/internal/strategies"
	"github.com/structmerge/structmerge/value"
)

// endpoints are the strategies behind a kind's endpoints: the main
// resource's, and each subresource's that the storage wires to a strategy
// of its own.
type endpoints struct {
	main strategies.CreateUpdate
	subs map[string]rest.RESTUpdateStrategy
}

// Strategies runs the registry strategies of the built-in kinds. It is
// immutable after Builtin and safe for concurrent use.
type Strategies struct {
	scheme  *runtime.Scheme
	codecs  serializer.CodecFactory
	decoder runtime.Decoder
	kinds   map[kindKey]endpoints
	resets  map[endpointKey]map[string]*fieldpath.Set
}

// kindKey names a kind by group and name.
type kindKey = schema.GroupKind

var _ kube.Strategy = (*Strategies)(nil)

// Builtin returns the strategies of the kinds the Kubernetes 1.37 API
// server serves itself, as its storages wire them to their endpoints.
// Kinds whose strategies need a live cluster to validate (admission
// policies and their bindings, which consult an authorizer and a resource
// resolver; resource claims and their templates, which read Namespaces)
// are left out: Prepare returns false for them.
func Builtin() *Strategies {
	s := k8sscheme.Scheme()
	kinds := builtinKinds(s)
	codecs := serializer.NewCodecFactory(s)
	return &Strategies{
		scheme:  s,
		codecs:  codecs,
		decoder: codecs.UniversalDeserializer(),
		kinds:   kinds,
		resets:  resetTable(kinds),
	}
}

// Knows reports whether s has a strategy for the kind's endpoint
// subresource ("" for the main resource).
func (s *Strategies) Knows(gvk kube.GroupVersionKind, subresource string) bool {
	_, ok := s.strategy(gvk, subresource)
	return ok
}

// strategy returns the strategy of an endpoint. The scale subresource
// writes the main resource through the main resource's strategy.
func (s *Strategies) strategy(gvk kube.GroupVersionKind, subresource string) (rest.RESTUpdateStrategy, bool) {
	e, ok := s.kinds[schema.GroupKind{Group: gvk.Group, Kind: gvk.Kind}]
	if !ok || !s.scheme.Recognizes(schema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}) {
		return nil, false
	}
	if subresource == "" || subresource == kube.ScaleSubresource {
		return e.main, true
	}
	st, ok := e.subs[subresource]
	return st, ok
}

// Prepare runs rest.BeforeCreate (live null) or rest.BeforeUpdate with the
// strategy of the endpoint subresource of obj's kind. A refusal of the
// kind's validation is the server's error: an apierrors.StatusError whose
// message is the server's. It returns false for a kind or endpoint it does
// not know.
func (s *Strategies) Prepare(obj, live value.Value, subresource string) (out value.Value, ok bool, err error) {
	gvk := kube.GVKOf(obj)
	st, ok := s.strategy(gvk, subresource)
	if !ok {
		return obj, false, nil
	}
	// Kubernetes' code is written for what its decoder lets through; if
	// it fails on something else, the write fails, and the caller goes on.
	defer func() {
		if r := recover(); r != nil {
			out, ok, err = value.Value{}, true, fmt.Errorf("the registry strategy of %s failed: %v", gvk, r)
		}
	}()
	create := live.IsNull()
	if create && subresource != "" {
		// Only the main resource creates.
		return obj, false, nil
	}
	sgvk := schema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
	internal, err := s.result(obj, sgvk)
	if err != nil {
		return value.Value{}, true, err
	}
	m, err := meta.Accessor(internal)
	if err != nil {
		return value.Value{}, true, err
	}
	// The request's namespace is the object's. An object of a namespaced
	// kind without one is written as kubectl writes it, to the namespace
	// "default", and comes back without one, as it came.
	ns, given := "", m.GetNamespace()
	if st.NamespaceScoped() {
		if ns = given; ns == "" {
			ns = metav1.NamespaceDefault
		}
	}
	verb := "update"
	if create {
		verb = "create"
	}
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: verb, APIGroup: gvk.Group, APIVersion: gvk.Version,
		Namespace: ns, Name: m.GetName(), Subresource: subresource,
	})
	// What the storage alone assigns (the request path fills it before
	// the strategy, and the validation wants it) is put back as it was.
	uid, created := m.GetUID(), m.GetCreationTimestamp()
	if create {
		rest.FillObjectMetaSystemFields(m)
		if err := beforeServiceStrategy(internal, nil); err != nil {
			return value.Value{}, true, err
		}
		if err := rest.BeforeCreate(st.(rest.RESTCreateStrategy), ctx, internal); err != nil {
			return value.Value{}, true, err
		}
	} else {
		old, err := s.internal(live, sgvk)
		if err != nil {
			return value.Value{}, true, fmt.Errorf("the live object: %w", err)
		}
		// An update without a resourceVersion is unconditional: the
		// storage gives it the live one before validation, which wants
		// one. Offline, the live object may have none either.
		rv := m.GetResourceVersion()
		if rv == "" {
			if om, err := meta.Accessor(old); err == nil {
				m.SetResourceVersion(om.GetResourceVersion())
			}
			if m.GetResourceVersion() == "" {
				m.SetResourceVersion(unknownResourceVersion)
			}
		}
		if subresource == "" {
			err = beforeServiceStrategy(internal, old)
		}
		if err == nil {
			err = rest.BeforeUpdate(st, ctx, internal, old)
		}
		m.SetResourceVersion(rv)
		if err != nil {
			return value.Value{}, true, err
		}
	}
	m.SetUID(uid)
	m.SetCreationTimestamp(created)
	if given == "" {
		m.SetNamespace("")
	}
	out, err = s.versioned(internal, sgvk, obj)
	return out, true, err
}

// result converts the field manager's result into the Go type of its kind
// and version as the server's field manager does (from its unstructured
// form, which is what an apply leaves; an update's body has been decoded
// already), defaults it, and converts it to the internal version. A value
// the Go type cannot hold is the field manager's error, in its words.
func (s *Strategies) result(obj value.Value, gvk schema.GroupVersionKind) (runtime.Object, error) {
	m, _ := obj.Unstructured().(map[string]any)
	u := &unstructured.Unstructured{Object: m}
	typed, err := s.scheme.ConvertToVersion(u, gvk.GroupVersion())
	if err != nil {
		return nil, fmt.Errorf("failed to convert new object (%s/%s; %v) to proper version: %w", u.GetNamespace(), u.GetName(), gvk, err)
	}
	s.scheme.Default(typed)
	out, err := s.scheme.ConvertToVersion(typed, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil, fmt.Errorf("converting %s to its internal version: %w", gvk, err)
	}
	return out, nil
}

var _ kube.BodyDecoder = (*Strategies)(nil)

// DecodeBody decodes an update's body as the API server's update handler
// decodes it for the endpoint of a built-in kind: at the body's own
// apiVersion and kind (the endpoint's when it has none), into the
// endpoint's kind, where a field the Go type does not have is only a
// warning. Its refusal is the server's: a BadRequest whose message says
// which kind cannot be handled as which, and why.
func (s *Strategies) DecodeBody(body value.Value, endpoint kube.GroupVersionKind) error {
	egvk := schema.GroupVersionKind{Group: endpoint.Group, Version: endpoint.Version, Kind: endpoint.Kind}
	if _, ok := s.kinds[egvk.GroupKind()]; !ok || !s.scheme.Recognizes(egvk) {
		return nil
	}
	hub := schema.GroupVersion{Group: egvk.Group, Version: runtime.APIVersionInternal}
	into, err := s.scheme.New(hub.WithKind(egvk.Kind))
	if err != nil {
		return nil
	}
	obj, gvk, err := s.bodyDecoder(hub).Decode(value.ToJSON(body), &egvk, into)
	if err == nil {
		return nil
	}
	if _, strict := runtime.AsStrictDecodingError(err); strict && obj != nil {
		return nil
	}
	if gvk != nil && gvk.Kind != "" {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, egvk.Kind, err))
	}
	return apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v", egvk.Kind, err))
}

// bodyDecoder is the server's decoder of request bodies for hub: JSON,
// strict (what is only strict is a warning), defaulted and converted.
func (s *Strategies) bodyDecoder(hub schema.GroupVersion) runtime.Decoder {
	info, _ := runtime.SerializerInfoForMediaType(s.codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	return s.codecs.DecoderToVersion(info.StrictSerializer, hub)
}

// unknownResourceVersion stands for the live resourceVersion of an update
// when neither the request nor the live object has one.
const unknownResourceVersion = "1"

// internal decodes obj into the Go type of its kind and version, defaults
// it and converts it to the kind's internal version, as the server does
// with the field manager's result before its strategy.
func (s *Strategies) internal(obj value.Value, gvk schema.GroupVersionKind) (runtime.Object, error) {
	typed, _, err := s.decoder.Decode(value.ToJSON(obj), &gvk, nil)
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", gvk, err)
	}
	s.scheme.Default(typed)
	out, err := s.scheme.ConvertToVersion(typed, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil, fmt.Errorf("converting %s to its internal version: %w", gvk, err)
	}
	return out, nil
}

// versioned converts an internal object back to gvk's version and encodes
// it, in the field order of like.
func (s *Strategies) versioned(obj runtime.Object, gvk schema.GroupVersionKind, like value.Value) (value.Value, error) {
	out, err := s.scheme.ConvertToVersion(obj, gvk.GroupVersion())
	if err != nil {
		return value.Value{}, fmt.Errorf("converting %s back from its internal version: %w", gvk, err)
	}
	data, err := json.Marshal(out)
	if err != nil {
		return value.Value{}, fmt.Errorf("encoding %s: %w", gvk, err)
	}
	return value.FromJSON(data, value.Like(like))
}

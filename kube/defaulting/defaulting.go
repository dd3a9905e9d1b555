// Package defaulting sets the defaults of Kubernetes' built-in kinds as the
// Kubernetes 1.37 API server sets them, with the server's own code: the
// defaulting functions and conversions that the API groups of
// k8s.io/kubernetes/pkg/apis (and apiextensions-apiserver, for
// CustomResourceDefinitions) register in a scheme.
//
// It imports k8s.io/kubernetes, at the edge, as kube/registry does: the
// field manager and the rest of the core never do. A module that imports
// it needs the replace directives of this module's go.mod that point
// k8s.io/kubernetes' staging modules at their published releases.
//
// An object goes through what a request body goes through on the server
// before the storage sees it: it is decoded into the kind's Go type of its
// version (fields the type does not have are dropped), defaulted,
// converted to the internal version and back (which also fills deprecated
// mirrors such as a Pod's spec.serviceAccount), and encoded as JSON.
package defaulting

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/internal/k8sscheme"
	"github.com/structmerge/structmerge/value"
)

// Defaulter defaults built-in kinds with the scheme it was built with. It
// is immutable after Builtin and safe for concurrent use.
type Defaulter struct {
	scheme  *runtime.Scheme
	decoder runtime.Decoder
}

var _ kube.Defaulter = (*Defaulter)(nil)

// Builtin returns a Defaulter for every kind the Kubernetes 1.37 API server
// serves itself (the API groups of k8s.io/kubernetes/pkg/apis and
// apiextensions.k8s.io). Objects of other kinds come back unchanged.
func Builtin() *Defaulter {
	s := k8sscheme.Scheme()
	return &Defaulter{scheme: s, decoder: serializer.NewCodecFactory(s).UniversalDeserializer()}
}

// Knows reports whether the Defaulter has the kind.
func (d *Defaulter) Knows(gvk kube.GroupVersionKind) bool {
	return d.scheme.Recognizes(schema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind})
}

var _ kube.Creater = (*Defaulter)(nil)

// New returns the empty object of a kind as the API server makes it for a
// create's field manager: the zero value of the kind's Go type, with its
// apiVersion and kind, converted as the server's type converter converts
// it.
func (d *Defaulter) New(gvk kube.GroupVersionKind) (value.Value, bool) {
	sgvk := schema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
	if !d.Knows(gvk) {
		return value.Value{}, false
	}
	obj, err := d.scheme.New(sgvk)
	if err != nil {
		return value.Value{}, false
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return value.Value{}, false
	}
	u["apiVersion"], u["kind"] = sgvk.GroupVersion().String(), gvk.Kind
	v, err := value.FromUnstructured(u)
	if err != nil {
		return value.Value{}, false
	}
	return v, true
}

// Default returns obj decoded, defaulted and converted as the API server
// does it. An object of a kind the Defaulter does not know comes back
// unchanged; one that does not decode into its kind's Go type is an error.
func (d *Defaulter) Default(obj value.Value) (value.Value, error) {
	gvk := kube.GVKOf(obj)
	if !d.Knows(gvk) {
		return obj, nil
	}
	sgvk := schema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
	typed, _, err := d.decoder.Decode(value.ToJSON(obj), &sgvk, nil)
	if err != nil {
		return value.Value{}, fmt.Errorf("decoding %s: %w", gvk, err)
	}
	d.scheme.Default(typed)
	internal, err := d.scheme.ConvertToVersion(typed, runtime.InternalGroupVersioner)
	if err != nil {
		return value.Value{}, fmt.Errorf("converting %s to its internal version: %w", gvk, err)
	}
	out, err := d.scheme.ConvertToVersion(internal, sgvk.GroupVersion())
	if err != nil {
		return value.Value{}, fmt.Errorf("converting %s back from its internal version: %w", gvk, err)
	}
	data, err := json.Marshal(out)
	if err != nil {
		return value.Value{}, fmt.Errorf("encoding %s: %w", gvk, err)
	}
	return value.FromJSON(data, value.Like(obj))
}

package registry

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"

	apiextensionsapi "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"

	"github.com/structmerge/structmerge/kube/internal/strategies"
)

// builtinKinds wires each kind whose strategies run here to its
// endpoints' strategies, as the storages of k8s.io/kubernetes/pkg/registry
// (the table of kube/internal/strategies) and apiextensions-apiserver's
// wire them. The kind of each entry is read from the scheme, by its
// internal Go type.
func builtinKinds(s *runtime.Scheme) map[schema.GroupKind]endpoints {
	table := []strategies.Kind{{
		Object: &apiextensionsapi.CustomResourceDefinition{},
		Main:   customresourcedefinition.NewStrategy(s),
		Subs:   map[string]rest.RESTUpdateStrategy{"status": customresourcedefinition.NewStatusStrategy(s)},
	}}
	for _, k := range strategies.Kinds() {
		if k.Runnable {
			table = append(table, k)
		}
	}
	out := make(map[schema.GroupKind]endpoints, len(table))
	for _, e := range table {
		gvks, _, err := s.ObjectKinds(e.Object)
		if err != nil || len(gvks) == 0 {
			panic("registry: the scheme does not know " + err.Error())
		}
		out[gvks[0].GroupKind()] = endpoints{main: e.Main, subs: e.Subs}
	}
	return out
}

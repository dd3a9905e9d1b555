package registry

import (
	"fmt"
	"maps"

	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
)

// resetter is what the strategies that reset fields implement (Pod's
// resize and ephemeralcontainers strategies keep only what a filter allows
// instead, and have no set).
type resetter interface {
	GetResetFields() map[smdfieldpath.APIVersion]*smdfieldpath.Set
}

// endpointKey names a kind's endpoint in the reset table.
type endpointKey struct {
	group, kind, subresource string
}

// resetTable calls each strategy's GetResetFields once and converts the
// sets through FieldsV1, the form both libraries share.
func resetTable(kinds map[kindKey]endpoints) map[endpointKey]map[string]*fieldpath.Set {
	out := map[endpointKey]map[string]*fieldpath.Set{}
	add := func(k kindKey, sub string, st any) {
		r, ok := st.(resetter)
		if !ok {
			return
		}
		sets := map[string]*fieldpath.Set{}
		for v, s := range r.GetResetFields() {
			data, err := s.ToJSON()
			if err != nil {
				panic(fmt.Sprintf("registry: the reset fields of %s %s %q: %v", k.Group, k.Kind, sub, err))
			}
			set, err := fieldpath.ParseFieldsV1(data)
			if err != nil {
				panic(fmt.Sprintf("registry: the reset fields of %s %s %q: %v", k.Group, k.Kind, sub, err))
			}
			sets[string(v)] = set
		}
		if len(sets) > 0 {
			out[endpointKey{k.Group, k.Kind, sub}] = sets
		}
	}
	for k, e := range kinds {
		add(k, "", e.main)
		for sub, st := range e.subs {
			add(k, sub, st)
		}
	}
	return out
}

// ResetFields returns the fields the strategy of a kind's endpoint resets,
// per API version, from the strategy's own GetResetFields: what the API
// server's field manager gives nobody. It is a kube.ResetFieldsFunc for
// kube.WithResetFields, and returns nil for an endpoint whose strategy
// resets nothing or that it does not know (and for the scale
// subresource). The map is new on each call; the sets are shared
// (immutable).
func (s *Strategies) ResetFields(gvk kube.GroupVersionKind, subresource string) map[string]*fieldpath.Set {
	return maps.Clone(s.resets[endpointKey{gvk.Group, gvk.Kind, subresource}])
}

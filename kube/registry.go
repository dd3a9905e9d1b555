package kube

import (
	"cmp"
	"maps"
	"slices"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/value"
)

// This file holds what the API server's registry (the storage strategies
// of the built-in kinds of Kubernetes 1.37) tells the field manager: the
// fields reset on writes to the main resource and to each subresource
// with a strategy of its own, and the replicas fields behind the scale
// subresource. The tables are in registry_generated.go, which
// kube/internal/registrygen writes from the source of k8s.io/kubernetes
// (`go generate`).

//go:generate go run ./internal/registrygen

// registryReset is what the strategy of one endpoint (the main resource,
// subresource "") of a group and kind resets, per API version.
type registryReset struct {
	group, kind, subresource string
	fields                   []registryFields
}

// registryFields is the paths of field names reset at one API version.
type registryFields struct {
	apiVersion string
	paths      [][]string
}

// registryReplicasPaths is where the replicas of a kind with a scale
// subresource are, per API version.
type registryReplicasPaths struct {
	group, kind string
	paths       []registryPath
}

// registryPath is one API version's path of field names.
type registryPath struct {
	apiVersion string
	path       []string
}

// registryEndpoint names a subresource of a group and kind.
type registryEndpoint struct {
	group, kind, subresource string
}

func path(names ...string) fieldpath.Path {
	p := make(fieldpath.Path, len(names))
	for i, n := range names {
		p[i] = fieldpath.FieldName(n)
	}
	return p
}

// RegistryResetFields returns the fields the API server resets on writes
// to subresource ("" for the main resource) of a built-in kind, per API
// version, as the storage strategy behind that endpoint declares them:
// typically the status on the main resource, and the spec (for some kinds
// also metadata fields) on the status subresource; a few kinds have other
// subresources with strategies of their own (CertificateSigningRequest's
// "approval", Namespace's "finalize"). The API server's field manager gives
// nobody ownership of them. The versions are those the strategy lists,
// which for a kind served in two groups (Ingress) name both groups.
//
// It returns nil for kinds and subresources whose strategy resets nothing,
// for the scale subresource, and for Pod's "resize" and
// "ephemeralcontainers", whose strategies keep only the fields a filter
// allows instead (see RegistryFilteredSubresources). The map is new on
// each call; the sets in it are shared between calls (sets are
// immutable).
func RegistryResetFields(gvk GroupVersionKind, subresource string) map[string]*fieldpath.Set {
	return maps.Clone(registryResetSets[registryEndpoint{gvk.Group, gvk.Kind, subresource}])
}

// registryResetSets holds RegistryResetFields' sets by endpoint, built
// once at program start from registryResets: a request looks them up
// instead of building them, and shares them (sets are immutable).
var registryResetSets = func() map[registryEndpoint]map[string]*fieldpath.Set {
	out := make(map[registryEndpoint]map[string]*fieldpath.Set, len(registryResets))
	for i := range registryResets {
		r := &registryResets[i]
		e := registryEndpoint{r.group, r.kind, r.subresource}
		if _, ok := out[e]; ok {
			continue // the first entry of an endpoint is the one that counts
		}
		sets := make(map[string]*fieldpath.Set, len(r.fields))
		for _, f := range r.fields {
			paths := make([]fieldpath.Path, len(f.paths))
			for j, names := range f.paths {
				paths[j] = path(names...)
			}
			sets[f.apiVersion] = fieldpath.NewSet(paths...)
		}
		out[e] = sets
	}
	return out
}()

// RegistryFilteredSubresources reports whether the strategy behind
// subresource of a built-in kind keeps only the fields a filter allows
// (Pod's "resize" and "ephemeralcontainers") rather than resetting a set
// of fields. RegistryResetFields does not model such filters.
func RegistryFilteredSubresources(gvk GroupVersionKind, subresource string) bool {
	for _, e := range registryFiltered {
		if e.group == gvk.Group && e.kind == gvk.Kind && e.subresource == subresource {
			return true
		}
	}
	return false
}

// RegistryEndpoint names an endpoint of a built-in kind ("" for the main
// resource, or a subresource).
type RegistryEndpoint struct {
	Group, Kind, Subresource string
}

// RegistryEndpoints lists every endpoint the registry tables describe,
// sorted by group, kind and subresource: those whose strategies reset
// fields (RegistryResetFields), those whose strategies filter
// (RegistryFilteredSubresources), and the scale subresource of each kind
// with one (RegistryReplicasPaths). The slice is new on each call.
func RegistryEndpoints() []RegistryEndpoint {
	out := make([]RegistryEndpoint, 0, len(registryResets)+len(registryFiltered)+len(registryReplicas))
	for _, r := range registryResets {
		out = append(out, RegistryEndpoint{Group: r.group, Kind: r.kind, Subresource: r.subresource})
	}
	for _, r := range registryFiltered {
		out = append(out, RegistryEndpoint{Group: r.group, Kind: r.kind, Subresource: r.subresource})
	}
	for _, r := range registryReplicas {
		out = append(out, RegistryEndpoint{Group: r.group, Kind: r.kind, Subresource: ScaleSubresource})
	}
	slices.SortFunc(out, func(a, b RegistryEndpoint) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Subresource, b.Subresource))
	})
	return out
}

// RegistryReplicasPaths returns where the replicas of a built-in kind with
// a scale subresource are, per API version (spec.replicas for Deployments,
// StatefulSets, ReplicaSets and ReplicationControllers).
func RegistryReplicasPaths(gvk GroupVersionKind) (ResourcePathMappings, bool) {
	for i := range registryReplicas {
		r := &registryReplicas[i]
		if r.group != gvk.Group || r.kind != gvk.Kind {
			continue
		}
		out := make(ResourcePathMappings, len(r.paths))
		for _, p := range r.paths {
			out[p.apiVersion] = path(p.path...)
		}
		return out, true
	}
	return nil, false
}

// ResetValues returns obj with every field of fields that is a path of
// field names given the value it has in live (or removed when live has
// none), as the API server's storage strategies do after the field manager
// ran: a status write keeps the spec, a write to the main resource keeps
// the status. Other paths are ignored. A reset of the whole metadata (the
// status strategies of some kinds) keeps obj's metadata.managedFields, the
// field manager's result, as those strategies do. obj and live are not
// modified.
func ResetValues(obj, live value.Value, fields *fieldpath.Set) value.Value {
	managed, hasManaged := nested(obj, "metadata", "managedFields")
	for p := range fields.All() {
		names := make([]string, 0, len(p))
		for _, pe := range p {
			if pe.Kind() != fieldpath.FieldNameKind {
				names = nil
				break
			}
			names = append(names, pe.FieldName())
		}
		if len(names) == 0 {
			continue
		}
		if v, ok := nested(live, names...); ok {
			if out, ok := withNested(obj, v, names...); ok {
				obj = out
			}
		} else {
			obj = withoutNested(obj, names...)
		}
		if len(names) == 1 && names[0] == "metadata" {
			if hasManaged {
				if out, ok := withNested(obj, managed, "metadata", "managedFields"); ok {
					obj = out
				}
			} else {
				obj = withoutNested(obj, "metadata", "managedFields")
			}
		}
	}
	return obj
}

// registryGeneration is how the main strategy of a kind moves
// metadata.generation (see RegistryGeneration).
type registryGeneration struct {
	group, kind string
	onCreate    bool
	compared    [][]string
}

// GenerationRule is how a kind's registry moves metadata.generation.
type GenerationRule struct {
	// OnCreate: a create sets the generation to 1.
	OnCreate bool
	// Compared are the fields whose change, on an update of the main
	// resource (or of its scale), adds 1 to the generation. An empty path
	// stands for the whole object but its metadata. Every update keeps
	// the live generation otherwise, whatever the request says.
	Compared []fieldpath.Path
}

// GenerationFunc returns the GenerationRule of a kind, and false for a
// kind whose registry leaves the generation alone (an update still keeps
// the live one).
type GenerationFunc func(gvk GroupVersionKind) (GenerationRule, bool)

// RegistryGeneration returns how the main strategy of a built-in kind
// moves metadata.generation, as its PrepareForCreate and PrepareForUpdate
// in the source of Kubernetes 1.37 do it (registry_generated.go). Kinds
// whose strategies do not touch it (ConfigMap, Service, ...) give false.
func RegistryGeneration(gvk GroupVersionKind) (GenerationRule, bool) {
	for i := range registryGenerations {
		r := &registryGenerations[i]
		if r.group != gvk.Group || r.kind != gvk.Kind {
			continue
		}
		rule := GenerationRule{OnCreate: r.onCreate}
		for _, p := range r.compared {
			rule.Compared = append(rule.Compared, path(p...))
		}
		return rule, true
	}
	return GenerationRule{}, false
}

// CustomResourceGeneration is how apiextensions-apiserver moves the
// generation of a custom resource: 1 on create, one more on an update of
// the main resource that changes anything but the metadata (the status
// too, unless the CRD has a status subresource, whose reset keeps it).
var CustomResourceGeneration = GenerationRule{OnCreate: true, Compared: []fieldpath.Path{{}}}

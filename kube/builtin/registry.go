package builtin

import (
	"cmp"
	"maps"
	"slices"

	"github.com/structmerge/structmerge/fieldpath"
)

// This file looks up what the API server's registry (the storage
// strategies of the built-in kinds of Kubernetes KubernetesVersion) tells
// the field manager and the request path: the fields reset on writes to
// the main resource and to each subresource with a strategy of its own,
// the replicas fields behind the scale subresource, and how the main
// strategy moves metadata.generation. The tables are in
// registry_generated.go, which internal/registrygen writes by calling
// those strategies (`go generate`).

// ScaleSubresource is the name of the scale subresource.
const ScaleSubresource = "scale"

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

// registryGeneration is how the main strategy of a kind moves
// metadata.generation (see Generation).
type registryGeneration struct {
	group, kind string
	onCreate    bool
	compared    [][]string
}

func path(names ...string) fieldpath.Path {
	p := make(fieldpath.Path, len(names))
	for i, n := range names {
		p[i] = fieldpath.FieldName(n)
	}
	return p
}

// ResetFields returns the fields the API server resets on writes to
// subresource ("" for the main resource) of a built-in kind, per API
// version, as the storage strategy behind that endpoint declares them:
// typically the status on the main resource, and the spec (for some kinds
// also metadata fields) on the status subresource; a few kinds have other
// subresources with strategies of their own (CertificateSigningRequest's
// "approval", Namespace's "finalize"). The API server's field manager gives
// nobody ownership of them. The versions are those the strategy lists,
// which for a kind served in two groups (Ingress) name both groups. The
// version of gvk is ignored.
//
// It returns nil for kinds and subresources whose strategy resets nothing,
// for the scale subresource, and for Pod's "resize" and
// "ephemeralcontainers", whose strategies keep only the fields a filter
// allows instead (see FilteredSubresource). The map is new on each call;
// the sets in it are shared between calls (sets are immutable).
func ResetFields(gvk GroupVersionKind, subresource string) map[string]*fieldpath.Set {
	return maps.Clone(resetSets[registryEndpoint{gvk.Group, gvk.Kind, subresource}])
}

// resetSets holds ResetFields' sets by endpoint, built once at program
// start from registryResets: a request looks them up instead of building
// them, and shares them (sets are immutable). It is never written after.
var resetSets = func() map[registryEndpoint]map[string]*fieldpath.Set {
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

// FilteredSubresource reports whether the strategy behind subresource of
// a built-in kind keeps only the fields a filter allows (Pod's "resize"
// and "ephemeralcontainers") rather than resetting a set of fields.
// ResetFields does not model such filters.
func FilteredSubresource(gvk GroupVersionKind, subresource string) bool {
	for _, e := range registryFiltered {
		if e.group == gvk.Group && e.kind == gvk.Kind && e.subresource == subresource {
			return true
		}
	}
	return false
}

// Endpoint names an endpoint of a built-in kind ("" for the main
// resource, or a subresource).
type Endpoint struct {
	Group, Kind, Subresource string
}

// Endpoints lists every endpoint the registry tables describe, sorted by
// group, kind and subresource: those whose strategies reset fields
// (ResetFields), those whose strategies filter (FilteredSubresource), and
// the scale subresource of each kind with one (ReplicasPaths). The slice
// is new on each call.
func Endpoints() []Endpoint {
	out := make([]Endpoint, 0, len(registryResets)+len(registryFiltered)+len(registryReplicas))
	for _, r := range registryResets {
		out = append(out, Endpoint{Group: r.group, Kind: r.kind, Subresource: r.subresource})
	}
	for _, r := range registryFiltered {
		out = append(out, Endpoint{Group: r.group, Kind: r.kind, Subresource: r.subresource})
	}
	for _, r := range registryReplicas {
		out = append(out, Endpoint{Group: r.group, Kind: r.kind, Subresource: ScaleSubresource})
	}
	slices.SortFunc(out, func(a, b Endpoint) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Subresource, b.Subresource))
	})
	return out
}

// ResourcePathMappings maps an API version of a kind ("apps/v1") to the
// path of a field in objects of that version; a nil path means the
// version has no such field. Package kube names it
// kube.ResourcePathMappings.
type ResourcePathMappings map[string]fieldpath.Path

// ReplicasPaths returns where the replicas of a built-in kind with a scale
// subresource are, per API version (spec.replicas for Deployments,
// StatefulSets, ReplicaSets and ReplicationControllers), as the scale
// storages map them. The version of gvk is ignored. The map is new on each
// call.
func ReplicasPaths(gvk GroupVersionKind) (ResourcePathMappings, bool) {
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

// GenerationRule is how a kind's registry moves metadata.generation.
// Package kube names it kube.GenerationRule.
type GenerationRule struct {
	// OnCreate: a create sets the generation to 1.
	OnCreate bool
	// Compared are the fields whose change, on an update of the main
	// resource (or of its scale), adds 1 to the generation. An empty path
	// stands for the whole object but its metadata. Every update keeps
	// the live generation otherwise, whatever the request says.
	Compared []fieldpath.Path
}

// Generation returns how the main strategy of a built-in kind moves
// metadata.generation, as its PrepareForCreate and PrepareForUpdate do
// it. Kinds whose strategies do not touch it (ConfigMap, Service, ...)
// give false. The version of gvk is ignored. The rule is new on each call.
func Generation(gvk GroupVersionKind) (GenerationRule, bool) {
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

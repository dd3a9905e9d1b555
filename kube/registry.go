package kube

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/value"
)

// This file holds what the API server's registry (the storage strategies
// of the built-in kinds of Kubernetes 1.37) tells the field manager: the
// fields reset on writes to the main resource and to the status
// subresource, and the replicas fields behind the scale subresource.

// resetRule is what one group and kind resets, for its listed versions.
type resetRule struct {
	group, kind string
	versions    []string
	main        []fieldpath.Path // on the main resource (and other subresources)
	status      []fieldpath.Path // on the status subresource
}

func path(names ...string) fieldpath.Path {
	p := make(fieldpath.Path, len(names))
	for i, n := range names {
		p[i] = fieldpath.FieldName(n)
	}
	return p
}

var (
	statusPath = path("status")
	specPath   = path("spec")
)

// resetRules lists the built-in kinds whose strategies reset fields.
var resetRules = []resetRule{
	{group: "apps", kind: "Deployment", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath, path("metadata", "labels")}},
	{group: "apps", kind: "StatefulSet", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "apps", kind: "DaemonSet", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "apps", kind: "ReplicaSet", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "batch", kind: "Job", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "batch", kind: "CronJob", versions: []string{"v1", "v1beta1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "", kind: "Pod", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath, path("metadata", "deletionTimestamp"), path("metadata", "ownerReferences")}},
	{group: "", kind: "Service", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "", kind: "Namespace", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "", kind: "Node", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "", kind: "PersistentVolume", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "", kind: "PersistentVolumeClaim", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "", kind: "ReplicationController", versions: []string{"v1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "autoscaling", kind: "HorizontalPodAutoscaler", versions: []string{"v1", "v2"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "networking.k8s.io", kind: "Ingress", versions: []string{"v1", "v1beta1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "extensions", kind: "Ingress", versions: []string{"v1beta1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
	{group: "policy", kind: "PodDisruptionBudget", versions: []string{"v1", "v1beta1"}, main: []fieldpath.Path{statusPath}, status: []fieldpath.Path{specPath}},
}

// RegistryResetFields returns the fields the API server resets on writes
// to subresource ("" for the main resource) of a built-in kind, per API
// version, as the kind's storage strategy declares them: the status on the
// main resource, the spec (and for some kinds a few metadata fields) on
// the status subresource. The API server's field manager gives nobody
// ownership of them. It returns nil for other kinds and subresources. The
// sets are new on each call.
func RegistryResetFields(gvk GroupVersionKind, subresource string) map[string]*fieldpath.Set {
	for _, r := range resetRules {
		if r.group != gvk.Group || r.kind != gvk.Kind {
			continue
		}
		paths := r.main
		switch subresource {
		case "status":
			paths = r.status
		case ScaleSubresource:
			return nil
		}
		out := make(map[string]*fieldpath.Set, len(r.versions))
		for _, v := range r.versions {
			gv := v
			if r.group != "" {
				gv = r.group + "/" + v
			}
			out[gv] = fieldpath.NewSet(paths...)
		}
		return out
	}
	return nil
}

// replicasRules lists the built-in kinds with a scale subresource.
var replicasRules = []struct {
	group, kind string
	versions    []string
}{
	{"apps", "Deployment", []string{"v1", "v1beta1", "v1beta2"}},
	{"apps", "StatefulSet", []string{"v1", "v1beta1", "v1beta2"}},
	{"apps", "ReplicaSet", []string{"v1", "v1beta2"}},
	{"", "ReplicationController", []string{"v1"}},
}

// RegistryReplicasPaths returns where the replicas of a built-in kind with
// a scale subresource are, per API version (spec.replicas for Deployments,
// StatefulSets, ReplicaSets and ReplicationControllers).
func RegistryReplicasPaths(gvk GroupVersionKind) (ResourcePathMappings, bool) {
	for _, r := range replicasRules {
		if r.group != gvk.Group || r.kind != gvk.Kind {
			continue
		}
		out := make(ResourcePathMappings, len(r.versions))
		for _, v := range r.versions {
			gv := v
			if r.group != "" {
				gv = r.group + "/" + v
			}
			out[gv] = path("spec", "replicas")
		}
		return out, true
	}
	return nil, false
}

// ResetValues returns obj with every field of fields that is a path of
// field names given the value it has in live (or removed when live has
// none), as the API server's storage strategies do after the field manager
// ran: a status write keeps the spec, a write to the main resource keeps
// the status. Other paths are ignored. obj and live are not modified.
func ResetValues(obj, live value.Value, fields *fieldpath.Set) value.Value {
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
	}
	return obj
}

package kubeengine

import (
	_ "embed" // the registry reference
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The registry tables of the reference: what the storage strategies of
// Kubernetes 1.37.2 reset and where the scale storages find the replicas,
// as conformance/registryref prints them by calling those strategies and
// storages (it imports k8s.io/kubernetes/pkg/registry). They never come
// from structmerge's kube package.
//
//go:generate sh -c "cd ../registryref && go run . -o ../kubeengine/registry_reference.json"
//go:embed registry_reference.json
var registryReferenceJSON []byte

// RegistryReference is the reference's registry tables.
type RegistryReference struct {
	// Reset lists what the strategy of each endpoint resets, as FieldsV1
	// per API version.
	Reset []ReferenceReset `json:"reset"`
	// Filtered lists the endpoints whose strategies keep only the fields a
	// filter allows.
	Filtered []ReferenceEndpoint `json:"filtered"`
	// Replicas lists where the replicas of each kind with a scale
	// subresource are, per API version, as field names.
	Replicas []ReferenceReplicas `json:"replicas"`
}

// ReferenceEndpoint names a kind and one of its endpoints ("" is the main
// resource).
type ReferenceEndpoint struct {
	Group       string `json:"group"`
	Kind        string `json:"kind"`
	Subresource string `json:"subresource"`
}

// ReferenceReset is one endpoint's reset fields.
type ReferenceReset struct {
	ReferenceEndpoint
	Fields map[string]json.RawMessage `json:"fields"`
}

// ReferenceReplicas is one kind's replicas paths.
type ReferenceReplicas struct {
	Group string              `json:"group"`
	Kind  string              `json:"kind"`
	Paths map[string][]string `json:"paths"`
}

// LoadRegistryReference parses the reference's registry tables. Each call
// returns new values.
func LoadRegistryReference() (*RegistryReference, error) {
	var r RegistryReference
	if err := json.Unmarshal(registryReferenceJSON, &r); err != nil {
		return nil, fmt.Errorf("registry_reference.json: %w", err)
	}
	if len(r.Reset) == 0 || len(r.Replicas) == 0 {
		return nil, fmt.Errorf("registry_reference.json: empty tables")
	}
	return &r, nil
}

// ResetFields returns the fields the strategy of subresource ("" for the
// main resource) of a group and kind resets, per API version, or nil.
func (r *RegistryReference) ResetFields(group, kind, subresource string) (map[fieldpath.APIVersion]*fieldpath.Set, error) {
	for _, e := range r.Reset {
		if e.Group != group || e.Kind != kind || e.Subresource != subresource {
			continue
		}
		out := map[fieldpath.APIVersion]*fieldpath.Set{}
		for v, raw := range e.Fields {
			s := &fieldpath.Set{}
			if err := s.FromJSON(strings.NewReader(string(raw))); err != nil {
				return nil, fmt.Errorf("%s %s %q %s: %w", group, kind, subresource, v, err)
			}
			out[fieldpath.APIVersion(v)] = s
		}
		return out, nil
	}
	return nil, nil
}

// ReplicasPaths returns the replicas paths of a group and kind, and
// whether it has a scale subresource.
func (r *RegistryReference) ReplicasPaths(group, kind string) (managedfields.ResourcePathMappings, bool) {
	for _, e := range r.Replicas {
		if e.Group != group || e.Kind != kind {
			continue
		}
		out := managedfields.ResourcePathMappings{}
		for gv, names := range e.Paths {
			parts := make([]interface{}, len(names))
			for i, n := range names {
				parts[i] = n
			}
			out[gv] = fieldpath.MakePathOrDie(parts...)
		}
		return out, true
	}
	return nil, false
}

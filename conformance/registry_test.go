package conformance

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/structmerge/structmerge/conformance/kubeengine"
	"github.com/structmerge/structmerge/kube/builtin"
)

// TestRegistryTablesMatchReference compares structmerge's registry tables
// (builtin.ResetFields, FilteredSubresource and ReplicasPaths, which
// kube/builtin/internal/registrygen generates by calling the strategies)
// with the reference's, which
// conformance/registryref takes by calling the strategies and storages of
// k8s.io/kubernetes: every endpoint of either side, in both directions,
// with the same fields byte for byte (FieldsV1) per API version.
func TestRegistryTablesMatchReference(t *testing.T) {
	ref, err := kubeengine.LoadRegistryReference()
	if err != nil {
		t.Fatal(err)
	}
	want := map[builtin.Endpoint]bool{}
	for _, r := range ref.Reset {
		e := builtin.Endpoint{Group: r.Group, Kind: r.Kind, Subresource: r.Subresource}
		want[e] = true
		gvk := builtin.GroupVersionKind{Group: r.Group, Kind: r.Kind}
		ours := builtin.ResetFields(gvk, r.Subresource)
		if !slices.Equal(slices.Sorted(maps.Keys(ours)), slices.Sorted(maps.Keys(r.Fields))) {
			t.Errorf("%+v: versions %v, reference %v", e, slices.Sorted(maps.Keys(ours)), slices.Sorted(maps.Keys(r.Fields)))
			continue
		}
		for v, raw := range r.Fields {
			var compact bytes.Buffer
			if err := json.Compact(&compact, raw); err != nil {
				t.Fatalf("%+v %s: %v", e, v, err)
			}
			if got := ours[v].MarshalFieldsV1(); !bytes.Equal(got, compact.Bytes()) {
				t.Errorf("%+v %s: %s, reference %s", e, v, got, compact.Bytes())
			}
		}
		if builtin.FilteredSubresource(gvk, r.Subresource) {
			t.Errorf("%+v: filtered in structmerge, reset fields in the reference", e)
		}
	}
	for _, f := range ref.Filtered {
		e := builtin.Endpoint{Group: f.Group, Kind: f.Kind, Subresource: f.Subresource}
		want[e] = true
		gvk := builtin.GroupVersionKind{Group: f.Group, Kind: f.Kind}
		if !builtin.FilteredSubresource(gvk, f.Subresource) {
			t.Errorf("%+v: not filtered in structmerge", e)
		}
		if r := builtin.ResetFields(gvk, f.Subresource); r != nil {
			t.Errorf("%+v: reset fields %v for a filtered subresource", e, r)
		}
	}
	for _, r := range ref.Replicas {
		e := builtin.Endpoint{Group: r.Group, Kind: r.Kind, Subresource: builtin.ScaleSubresource}
		want[e] = true
		ours, ok := builtin.ReplicasPaths(builtin.GroupVersionKind{Group: r.Group, Kind: r.Kind})
		if !ok {
			t.Errorf("%+v: no replicas paths in structmerge", e)
			continue
		}
		if len(ours) != len(r.Paths) {
			t.Errorf("%+v: versions %v, reference %v", e, slices.Sorted(maps.Keys(ours)), slices.Sorted(maps.Keys(r.Paths)))
		}
		for gv, names := range r.Paths {
			p, ok := ours[gv]
			var got []string
			for _, pe := range p {
				got = append(got, pe.FieldName())
			}
			if !ok || !slices.Equal(got, names) {
				t.Errorf("%+v %s: %v, reference %v", e, gv, got, names)
			}
		}
	}
	got := map[builtin.Endpoint]bool{}
	for _, e := range builtin.Endpoints() {
		got[e] = true
		if !want[e] {
			t.Errorf("%+v: in structmerge's tables, not in the reference's", e)
		}
	}
	for e := range want {
		if !got[e] {
			t.Errorf("%+v: in the reference's tables, not listed by builtin.Endpoints", e)
		}
	}
	kinds := map[[2]string]bool{}
	for e := range got {
		kinds[[2]string{e.Group, e.Kind}] = true
	}
	t.Logf("compared %d endpoints of %d kinds", len(got), len(kinds))
}

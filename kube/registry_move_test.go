package kube_test

import (
	"slices"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
)

// TestBuiltinTablesEqualRegistryTables compares the tables that
// kube/builtin/internal/registrygen builds by calling the registry's
// strategies with those kube/internal/registrygen read from the source:
// the same endpoints, the same reset sets per version, the same filtered
// subresources, the same replicas paths, and generation rules that bump
// on the same changes (a compared path under another compared path adds
// nothing).
func TestBuiltinTablesEqualRegistryTables(t *testing.T) {
	old := kube.RegistryEndpoints()
	got := builtin.Endpoints()
	if len(old) != len(got) {
		t.Fatalf("%d endpoints, were %d", len(got), len(old))
	}
	for i, e := range old {
		if g := got[i]; g.Group != e.Group || g.Kind != e.Kind || g.Subresource != e.Subresource {
			t.Fatalf("endpoint %d is %+v, was %+v", i, g, e)
		}
		gvk := kube.GroupVersionKind{Group: e.Group, Kind: e.Kind}
		a, b := kube.RegistryResetFields(gvk, e.Subresource), builtin.ResetFields(gvk, e.Subresource)
		if len(a) != len(b) {
			t.Errorf("%+v: reset fields at %d versions, were %d", e, len(b), len(a))
		}
		for v, s := range a {
			if !s.Equal(b[v]) {
				t.Errorf("%+v %s: reset %v, was %v", e, v, b[v], s)
			}
		}
		if kube.RegistryFilteredSubresources(gvk, e.Subresource) != builtin.FilteredSubresource(gvk, e.Subresource) {
			t.Errorf("%+v: filtered differs", e)
		}
		ra, oka := kube.RegistryReplicasPaths(gvk)
		rb, okb := builtin.ReplicasPaths(gvk)
		if oka != okb || len(ra) != len(rb) {
			t.Errorf("%+v: replicas %v %v, were %v %v", e, rb, okb, ra, oka)
		}
		for v, p := range ra {
			if p.Compare(rb[v]) != 0 {
				t.Errorf("%+v %s: replicas %v, were %v", e, v, rb[v], p)
			}
		}
	}
	n := 0
	for _, k := range builtin.Kinds() {
		gvk := kube.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		a, oka := kube.RegistryGeneration(gvk)
		b, okb := builtin.Generation(gvk)
		if oka != okb || a.OnCreate != b.OnCreate || !slices.EqualFunc(minimal(a.Compared), minimal(b.Compared), func(x, y fieldpath.Path) bool { return x.Compare(y) == 0 }) {
			t.Errorf("%v: generation %+v %v, was %+v %v", gvk, b, okb, a, oka)
		}
		if oka {
			n++
		}
	}
	if n == 0 {
		t.Error("no generation rules compared")
	}
}

// minimal drops the paths under another path of ps, and sorts the rest.
func minimal(ps []fieldpath.Path) []fieldpath.Path {
	var out []fieldpath.Path
	for _, p := range ps {
		covered := slices.ContainsFunc(ps, func(q fieldpath.Path) bool {
			return len(q) > 0 && len(q) < len(p) && q.Compare(p[:len(q)]) == 0
		})
		if !covered {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, fieldpath.Path.Compare)
	return out
}

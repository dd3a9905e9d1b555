package builtin_test

import (
	"testing"

	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/value"
)

// TestRegistryLookups checks how the registry tables are looked up; their
// contents are what internal/registrygen gets from the strategies of
// Kubernetes (TestGeneratedFileIsCurrent there), and are compared with the
// conformance module's own reference (TestRegistryTablesMatchReference).
func TestRegistryLookups(t *testing.T) {
	dep := builtin.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	main := builtin.ResetFields(dep, "")
	status := builtin.ResetFields(dep, "status")
	if main["apps/v1"].Empty() || status["apps/v1"].Empty() {
		t.Fatalf("Deployment: main %v, status %v", main, status)
	}
	if main["apps/v1"].Equal(status["apps/v1"]) {
		t.Errorf("the main resource and the status reset the same fields: %v", main)
	}
	// Each call gives a new map: changing the map of one call does not
	// change the next.
	delete(main, "apps/v1")
	if again := builtin.ResetFields(dep, ""); again["apps/v1"].Empty() {
		t.Error("a caller's change reached the table")
	}
	for _, sub := range []string{builtin.ScaleSubresource, "rollback", "no-such-subresource"} {
		if r := builtin.ResetFields(dep, sub); r != nil {
			t.Errorf("Deployment %s: %v", sub, r)
		}
	}
	if r := builtin.ResetFields(builtin.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, ""); r != nil {
		t.Errorf("ConfigMap: %v", r)
	}
	// The same kind name in another group is another kind.
	if r := builtin.ResetFields(builtin.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Deployment"}, ""); r != nil {
		t.Errorf("example.com Deployment: %v", r)
	}
	pod := builtin.GroupVersionKind{Version: "v1", Kind: "Pod"}
	if !builtin.FilteredSubresource(pod, "resize") || builtin.FilteredSubresource(pod, "status") {
		t.Error("Pod's filtered subresources")
	}
	if r := builtin.ResetFields(pod, "resize"); r != nil {
		t.Errorf("Pod resize: %v", r)
	}
	paths, ok := builtin.ReplicasPaths(builtin.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"})
	if !ok || len(paths) == 0 {
		t.Errorf("StatefulSet replicas: %v %v", paths, ok)
	}
	if _, ok := builtin.ReplicasPaths(builtin.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}); ok {
		t.Error("DaemonSet has a scale subresource")
	}
	// Every endpoint listed answers its lookup, once.
	seen := map[builtin.Endpoint]bool{}
	for _, e := range builtin.Endpoints() {
		if seen[e] {
			t.Errorf("%+v listed twice", e)
		}
		seen[e] = true
		gvk := builtin.GroupVersionKind{Group: e.Group, Kind: e.Kind}
		switch {
		case e.Subresource == builtin.ScaleSubresource:
			if _, ok := builtin.ReplicasPaths(gvk); !ok {
				t.Errorf("%+v: no replicas paths", e)
			}
		case builtin.FilteredSubresource(gvk, e.Subresource):
		case len(builtin.ResetFields(gvk, e.Subresource)) == 0:
			t.Errorf("%+v: no reset fields", e)
		}
	}
	if !seen[builtin.Endpoint{Group: "apps", Kind: "Deployment", Subresource: "status"}] {
		t.Error("Deployment's status is not listed")
	}
	r, ok := builtin.Generation(builtin.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
	if !ok || !r.OnCreate || len(r.Compared) != 2 {
		t.Errorf("Generation(Deployment) = %+v, %v", r, ok)
	}
	if _, ok := builtin.Generation(builtin.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}); ok {
		t.Error("ConfigMap has a generation rule")
	}
}

func TestGVKOf(t *testing.T) {
	obj, err := value.FromJSON([]byte(`{"apiVersion": "apps/v1", "kind": "Deployment"}`))
	if err != nil {
		t.Fatal(err)
	}
	gvk := builtin.GVKOf(obj)
	if gvk.String() != "apps/v1, Kind=Deployment" || gvk.APIVersion() != "apps/v1" {
		t.Errorf("GVKOf: %v", gvk)
	}
	if gvk, err := builtin.GVK("v1", "Pod"); err != nil || gvk.String() != "/v1, Kind=Pod" || gvk.APIVersion() != "v1" {
		t.Errorf("GVK core: %v %v", gvk, err)
	}
	if _, err := builtin.GVK("a/b/c", "X"); err == nil {
		t.Error("GVK a/b/c: no error")
	}
	for in, want := range map[string]builtin.GroupVersionKind{
		`{"apiVersion": "a/b/c", "kind": "X"}`: {},
		`{"apiVersion": 1, "kind": "X"}`:       {Kind: "X"},
		`{"kind": "Pod"}`:                      {Kind: "Pod"},
		`[]`:                                   {},
	} {
		obj, err := value.FromJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := builtin.GVKOf(obj); got != want {
			t.Errorf("GVKOf(%s) = %#v, want %#v", in, got, want)
		}
	}
}

package kube_test

import (
	"strings"
	"testing"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/schema"
)

func TestGVKOf(t *testing.T) {
	gvk := kube.GVKOf(yv(t, `{apiVersion: apps/v1, kind: Deployment}`))
	if gvk.String() != "apps/v1, Kind=Deployment" || gvk.APIVersion() != "apps/v1" {
		t.Errorf("GVKOf: %v", gvk)
	}
	if gvk := kube.GVKOf(yv(t, `{apiVersion: v1, kind: Pod}`)); gvk.String() != "/v1, Kind=Pod" || gvk.APIVersion() != "v1" {
		t.Errorf("GVKOf core: %v", gvk)
	}
	if gvk := kube.GVKOf(yv(t, `{apiVersion: a/b/c, kind: X}`)); gvk != (kube.GroupVersionKind{}) {
		t.Errorf("GVKOf bad apiVersion: %v", gvk)
	}
}

func TestNewSchemaResolver(t *testing.T) {
	s, err := schema.CompileYAML([]byte(`
types:
- name: widget
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {map: {elementType: {scalar: untyped}}}}
    - {name: size, type: {scalar: numeric}}
`))
	if err != nil {
		t.Fatal(err)
	}
	w := kube.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	r, err := kube.NewSchemaResolver(s, map[kube.GroupVersionKind]string{w: "widget"})
	if err != nil {
		t.Fatal(err)
	}
	if typ, ok := r.ResolveType(w); !ok || typ == nil {
		t.Error("Widget did not resolve")
	}
	if _, ok := r.ResolveType(kube.GroupVersionKind{Version: "v1", Kind: "Pod"}); ok {
		t.Error("Pod resolved")
	}
	if _, err := kube.NewSchemaResolver(s, map[kube.GroupVersionKind]string{w: "gadget"}); err == nil || !strings.Contains(err.Error(), "gadget") {
		t.Errorf("missing type: %v", err)
	}
	if _, err := kube.NewSchemaResolver(nil, nil); err == nil {
		t.Error("nil schema accepted")
	}
	chain := kube.ChainResolvers(nil, r, kube.BuiltinTypes())
	if _, ok := chain.ResolveType(w); !ok {
		t.Error("chain: Widget")
	}
	if _, ok := chain.ResolveType(kube.GroupVersionKind{Version: "v1", Kind: "Pod"}); !ok {
		t.Error("chain: Pod")
	}
}

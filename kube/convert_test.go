package kube_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/value"
)

// routeManager is a field manager for the built-in kinds and the Route
// CRD of the scenario corpus (v1beta1 and v1, conversion None), with
// opts.
func routeManager(t *testing.T, opts ...kube.Option) *kube.FieldManager {
	t.Helper()
	data, err := os.ReadFile("../testdata/scenarios/kubernetes/crds/route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := openapi.FromCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := builtin.Extend(res.Document)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[kube.GroupVersionKind]string{}
	for _, k := range res.Kinds {
		kinds[kube.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.TypeName
	}
	r, err := kube.NewSchemaResolver(s, kinds)
	if err != nil {
		t.Fatal(err)
	}
	return newManagerWith(t, kube.ChainResolvers(r, kube.BuiltinTypes()), opts...)
}

func newManagerWith(t *testing.T, r kube.TypeResolver, opts ...kube.Option) *kube.FieldManager {
	t.Helper()
	m, err := kube.NewFieldManager(r, append([]kube.Option{kube.WithClock(stepClock())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var routeVersions = kube.CustomResourceVersions{Group: "gateway.example.com", Kind: "Route", Versions: []string{"v1", "v1beta1"}}

func TestNoneConverter(t *testing.T) {
	c := kube.NoneConverter(routeVersions)
	obj := yv(t, "apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: r}\nspec: {timeouts: {request: 1s}}\n")
	before := value.ToJSON(obj)
	out, err := c.ConvertVersion(obj, kube.GroupVersionKind{Group: "gateway.example.com", Version: "v1beta1", Kind: "Route"})
	if err != nil {
		t.Fatal(err)
	}
	want := yv(t, "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: r}\nspec: {timeouts: {request: 1s}}\n")
	if !value.Equal(out, want) {
		t.Errorf("converted to %s, want %s", value.ToJSON(out), value.ToJSON(want))
	}
	if string(value.ToJSON(obj)) != string(before) {
		t.Errorf("the converter modified its argument")
	}
	_, err = c.ConvertVersion(obj, kube.GroupVersionKind{Group: "gateway.example.com", Version: "v2", Kind: "Route"})
	if err == nil || err.Error() != "request to convert CR to an invalid group/version: gateway.example.com/v2" {
		t.Errorf("to an undeclared version: %v", err)
	}
	old := yv(t, "apiVersion: gateway.example.com/v1alpha1\nkind: Route\n")
	_, err = c.ConvertVersion(old, kube.GroupVersionKind{Group: "gateway.example.com", Version: "v1", Kind: "Route"})
	if err == nil || err.Error() != "request to convert CR from an invalid group/version: gateway.example.com/v1alpha1" {
		t.Errorf("from an undeclared version: %v", err)
	}
	dep := yv(t, "apiVersion: apps/v1\nkind: Deployment\n")
	if _, err := c.ConvertVersion(dep, kube.GroupVersionKind{Group: "apps", Version: "v1beta2", Kind: "Deployment"}); !errors.Is(err, kube.ErrNotConvertible) {
		t.Errorf("a kind the converter does not know: %v, want ErrNotConvertible", err)
	}
	chained := kube.ChainConverters(kube.NoneConverter(), c)
	if _, err := chained.ConvertVersion(obj, kube.GroupVersionKind{Group: "gateway.example.com", Version: "v1beta1", Kind: "Route"}); err != nil {
		t.Errorf("chained: %v", err)
	}
	if _, err := chained.ConvertVersion(dep, kube.GroupVersionKind{Group: "apps", Version: "v1beta2", Kind: "Deployment"}); !errors.Is(err, kube.ErrNotConvertible) {
		t.Errorf("chained, unknown kind: %v, want ErrNotConvertible", err)
	}
}

func TestApplyAtAnotherVersion(t *testing.T) {
	live := yv(t, "apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: r, namespace: default}\nspec: {hostnames: [a.example]}\n")
	applied := yv(t, "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: r, namespace: default}\nspec: {hostnames: [b.example]}\n")

	// Without a converter the request must be at live's version.
	_, err := routeManager(t).Apply(live, applied, "kubectl")
	if err == nil || !strings.Contains(err.Error(), "invalid object type") {
		t.Fatalf("without a converter: %v", err)
	}

	m := routeManager(t, kube.WithVersionConverter(kube.NoneConverter(routeVersions)))
	created, err := m.Update(value.Value{}, live, "creator")
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Apply(created, applied, "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := kube.GVKOf(out).APIVersion(); got != "gateway.example.com/v1beta1" {
		t.Errorf("result at %s, want the request's version", got)
	}
	entries, err := kube.DecodeManagedFields(out)
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]string{}
	for _, e := range entries {
		versions[e.Manager] = e.APIVersion
	}
	if versions["creator"] != "gateway.example.com/v1" || versions["kubectl"] != "gateway.example.com/v1beta1" {
		t.Errorf("entries' versions %v, want creator at v1 and kubectl at v1beta1", versions)
	}

	// An update at v1 of the object now at v1beta1.
	upd := yv(t, "apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: r, namespace: default}\nspec: {hostnames: [a.example, b.example, c.example]}\n")
	out, err = m.Update(out, upd, "editor")
	if err != nil {
		t.Fatal(err)
	}
	if got := kube.GVKOf(out).APIVersion(); got != "gateway.example.com/v1" {
		t.Errorf("update result at %s, want v1", got)
	}

	// A version the CRD does not declare.
	bad := yv(t, "apiVersion: gateway.example.com/v2\nkind: Route\nmetadata: {name: r, namespace: default}\n")
	if _, err := m.Apply(out, bad, "kubectl"); err == nil || !strings.Contains(err.Error(), "invalid group/version: gateway.example.com/v2") {
		t.Errorf("apply at an undeclared version: %v", err)
	}

	// Built-in kinds keep a single version.
	dep := yv(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: default}\n")
	dep2 := yv(t, "apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: d, namespace: default}\n")
	if _, err := m.Apply(dep, dep2, "kubectl"); err == nil || !strings.Contains(err.Error(), "invalid object type") {
		t.Errorf("built-in kind at another version: %v", err)
	}
}

func TestWithVersionConverterNil(t *testing.T) {
	if _, err := kube.NewFieldManager(kube.BuiltinTypes(), kube.WithVersionConverter(nil)); err == nil {
		t.Error("WithVersionConverter(nil) accepted")
	}
}

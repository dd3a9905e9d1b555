package kube_test

import (
	"fmt"
	"time"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/value"
)

func ExampleFieldManager_Apply() {
	clock := func() time.Time { return time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC) }
	m, err := kube.NewFieldManager(kube.BuiltinTypes(), kube.WithClock(clock))
	if err != nil {
		panic(err)
	}
	manifest, _ := value.FromYAML([]byte(`
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {color: blue}
`))
	obj, err := m.Apply(value.Value{}, manifest, "kubectl")
	if err != nil {
		panic(err)
	}
	entries, _ := kube.DecodeManagedFields(obj)
	fmt.Println(string(kube.MarshalManagedFields(entries)))

	other, _ := value.FromYAML([]byte(`
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {color: red}
`))
	_, err = m.Apply(obj, other, "helm")
	fmt.Println(err)
	// Output:
	// [{"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2024-05-01T12:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:color":{}}}}]
	// Apply failed with 1 conflict: conflict with "kubectl": .data.color
}

func ExampleNoneConverter() {
	crd := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: routes.gateway.example.com}
spec:
  group: gateway.example.com
  names: {kind: Route, plural: routes}
  scope: Namespaced
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {hostname: {type: string}, port: {type: integer}}}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {hostname: {type: string}, port: {type: integer}, timeout: {type: string}}}
`)
	res, err := openapi.FromCRD(crd)
	if err != nil {
		panic(err)
	}
	s, err := builtin.Extend(res.Document)
	if err != nil {
		panic(err)
	}
	kinds := map[kube.GroupVersionKind]string{}
	versions := kube.CustomResourceVersions{Group: "gateway.example.com", Kind: "Route"}
	for _, k := range res.Kinds {
		kinds[kube.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.TypeName
		versions.Versions = append(versions.Versions, k.Version)
	}
	types, err := kube.NewSchemaResolver(s, kinds)
	if err != nil {
		panic(err)
	}
	clock := func() time.Time { return time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC) }
	m, err := kube.NewFieldManager(types, kube.WithClock(clock), kube.WithVersionConverter(kube.NoneConverter(versions)))
	if err != nil {
		panic(err)
	}
	beta, _ := value.FromYAML([]byte("apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {hostname: example.com}\n"))
	obj, err := m.Apply(value.Value{}, beta, "kubectl")
	if err != nil {
		panic(err)
	}
	v1, _ := value.FromYAML([]byte("apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {port: 8080}\n"))
	obj, err = m.Apply(obj, v1, "tuner")
	if err != nil {
		panic(err)
	}
	fmt.Println(kube.GVKOf(obj).APIVersion())
	entries, _ := kube.DecodeManagedFields(obj)
	for _, e := range entries {
		fmt.Println(e.Manager, e.Operation, e.APIVersion)
	}

	// A field only v1 declares does not fit v1beta1, the version of
	// kubectl's entry, at which the field manager compares kubectl's fields.
	timeout, _ := value.FromYAML([]byte("apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {port: 8080, timeout: 10s}\n"))
	_, err = m.Apply(obj, timeout, "tuner")
	fmt.Println(err)
	// Output:
	// gateway.example.com/v1
	// kubectl Apply gateway.example.com/v1beta1
	// tuner Apply gateway.example.com/v1
	// failed to prune fields: failed add back owned items: failed to convert merged object at version gateway.example.com/v1beta1: .spec.timeout: field not declared in schema
}

func ExampleSetup_Prune() {
	crd := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string}
`)
	setup, err := kube.NewSetup(kube.CRDFile{Name: "widget-crd.yaml", Text: crd})
	if err != nil {
		panic(err)
	}
	manifest, _ := value.FromYAML([]byte(`
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {size: large, colour: red}
`))
	stored, pruned := setup.Prune(manifest)
	fmt.Println(string(value.ToJSON(stored)))
	fmt.Println("pruned:", pruned)

	m, err := kube.NewFieldManager(setup.Resolver, setup.Options(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))...)
	if err != nil {
		panic(err)
	}
	obj, err := m.Apply(value.Value{}, stored, "kubectl")
	if err != nil {
		panic(err)
	}
	entries, _ := kube.DecodeManagedFields(obj)
	fmt.Println(entries[0].Manager, entries[0].Operation)
	// Output:
	// {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"large"}}
	// pruned: [.spec.colour]
	// kubectl Apply
}

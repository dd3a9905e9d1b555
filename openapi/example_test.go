package openapi_test

import (
	"fmt"

	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/schema"
)

func ExampleFromV3() {
	res, err := openapi.FromV3([]byte(`{
	  "openapi": "3.0.0",
	  "components": {"schemas": {
	    "io.example.v1.Service": {
	      "type": "object",
	      "x-kubernetes-group-version-kind": [{"group": "example.io", "version": "v1", "kind": "Service"}],
	      "properties": {
	        "ports": {
	          "type": "array",
	          "x-kubernetes-list-type": "map",
	          "x-kubernetes-list-map-keys": ["port", "protocol"],
	          "items": {"$ref": "#/components/schemas/io.example.v1.Port"}
	        }
	      }
	    },
	    "io.example.v1.Port": {
	      "type": "object",
	      "properties": {
	        "port": {"type": "integer"},
	        "protocol": {"type": "string", "default": "TCP"}
	      }
	    }
	  }}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Compile(res.Document)
	if err != nil {
		fmt.Println(err)
		return
	}
	k := res.Kinds[0]
	svc, _ := s.Type(k.TypeName)
	f, _ := svc.Map().Field("ports")
	ports := f.Type().List()
	def, _ := ports.KeyDefault(1)
	fmt.Println(k.APIVersion(), k.Kind, "->", k.TypeName)
	fmt.Println("ports:", ports.Relationship(), ports.Keys(), "protocol defaults to", def)
	// Output:
	// example.io/v1 Service -> io.example.v1.Service
	// ports: associative [port protocol] protocol defaults to "TCP"
}

func ExampleFromCRD() {
	res, err := openapi.FromCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  names: {kind: CronTab, plural: crontabs}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range res.Kinds {
		fmt.Println(k.APIVersion(), k.Kind, "->", k.TypeName)
	}
	for _, t := range res.Document.Types {
		fmt.Println(t.Name)
	}
	// Output:
	// stable.example.com/v1 CronTab -> com.example.stable.v1.CronTab
	// com.example.stable.v1.CronTab
	// com.example.stable.v1.CronTabList
	// __untyped_atomic_
	// __untyped_deduced_
}

package defaulting_test

import (
	"fmt"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/defaulting"
	"github.com/structmerge/structmerge/value"
)

// A server-side apply that creates a Deployment, as the API server stores
// it: defaulted, with the applier owning only what it sent.
func ExampleBuiltin() {
	m, _ := kube.NewFieldManager(kube.BuiltinTypes())
	s, _ := kube.NewServer(m, defaulting.Builtin())
	manifest, _ := value.FromYAML([]byte(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1.28"}]}
`))
	obj, err := s.Apply(value.Value{}, manifest, "kubectl")
	if err != nil {
		panic(err)
	}
	spec, _ := obj.Get("spec")
	replicas, _ := spec.Get("replicas")
	strategy, _ := spec.Get("strategy")
	fmt.Println("replicas:", string(value.ToJSON(replicas)))
	fmt.Println("strategy:", string(value.ToJSON(strategy)))
	entries, _ := kube.DecodeManagedFields(obj)
	fmt.Println("kubectl owns:", string(entries[0].Fields.MarshalFieldsV1()))
	// Output:
	// replicas: 1
	// strategy: {"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}
	// kubectl owns: {"f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}
}

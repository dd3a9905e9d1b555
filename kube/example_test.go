package kube_test

import (
	"fmt"
	"time"

	"github.com/structmerge/structmerge/kube"
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

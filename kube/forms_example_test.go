package kube_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/structmerge/structmerge/kube"
)

// An object as encoding/json decodes it goes through the field manager in
// the same form: the result is a map[string]any too, which shares the
// caller's maps where the request changed nothing.
func ExampleFieldManager_ApplyUnstructured() {
	clock := func() time.Time { return time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC) }
	m, err := kube.NewFieldManager(kube.BuiltinTypes(), kube.WithClock(clock))
	if err != nil {
		panic(err)
	}
	var config map[string]any
	if err := json.Unmarshal([]byte(`{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": {"name": "settings", "namespace": "default"}, "data": {"color": "blue"}}`), &config); err != nil {
		panic(err)
	}
	obj, err := m.ApplyUnstructured(nil, config, "kubectl")
	if err != nil {
		panic(err)
	}
	edited := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": obj["metadata"],
		"data": map[string]any{"color": "blue", "size": "large"}}
	obj, err = m.UpdateUnstructured(obj, edited, "controller")
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(obj["metadata"].(map[string]any)["managedFields"])
	fmt.Println(string(out))
	// Output:
	// [{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:color":{}}},"manager":"kubectl","operation":"Apply","time":"2024-05-01T12:00:00Z"},{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:size":{}}},"manager":"controller","operation":"Update","time":"2024-05-01T12:00:00Z"}]
}

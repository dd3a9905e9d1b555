package value_test

import (
	"errors"
	"fmt"

	"github.com/structmerge/structmerge/value"
)

func ExampleFromJSON() {
	v, err := value.FromJSON([]byte(`{"spec": {"replicas": 3, "ratio": 0.5}, "kind": "Deployment"}`))
	if err != nil {
		panic(err)
	}
	spec, _ := v.Get("spec")
	replicas, _ := spec.Get("replicas")
	fmt.Println(replicas.Kind(), replicas.AsInt())
	fmt.Println(v)

	_, err = value.FromJSON([]byte(`{"spec": {"replicas": x}}`))
	var se *value.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Path, se.Line, se.Column)
	}
	fmt.Println(err)
	// Output:
	// int 3
	// {"kind":"Deployment","spec":{"ratio":0.5,"replicas":3}}
	// /spec/replicas 1 23
	// json: offset 22 (at /spec/replicas): invalid character 'x' looking for beginning of value
}

func ExampleFromYAML() {
	v, err := value.FromYAML([]byte(`
defaults: &defaults
  image: nginx
  pull: "on"
app:
  <<: *defaults
  name: web
  enabled: yes
  8080: http
`))
	if err != nil {
		panic(err)
	}
	fmt.Println(v)
	// Output:
	// {"app":{"8080":"http","enabled":"yes","image":"nginx","name":"web","pull":"on"},"defaults":{"image":"nginx","pull":"on"}}
}

func ExampleToYAML() {
	v, _ := value.FromJSON([]byte(`{"metadata": {"name": "web", "labels": {"on": "yes"}}, "spec": {"ports": [80, 443], "script": "echo hi\nexit\n"}}`))
	fmt.Print(string(value.ToYAML(v)))
	// Output:
	// metadata:
	//   labels:
	//     "on": "yes"
	//   name: web
	// spec:
	//   ports:
	//   - 80
	//   - 443
	//   script: |
	//     echo hi
	//     exit
}

func ExampleFromUnstructured() {
	v, err := value.FromUnstructured(map[string]any{"a": []any{1, 2.5, "x"}, "b": nil})
	fmt.Println(v, err)
	_, err = value.FromUnstructured(map[string]any{"spec": map[string]any{"x": struct{}{}}})
	fmt.Println(err)
	// Output:
	// {"a":[1,2.5,"x"],"b":null} <nil>
	// value: .spec.x: unsupported type struct {}
}

package gostruct_test

import (
	"fmt"
	"reflect"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
)

type exampleMeta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
}

type exampleWidget struct {
	exampleMeta `json:",inline"`
	Replicas    *int32 `json:"replicas,omitempty"`
	Image       string `json:"image,omitempty"`
}

// A server builds one codec per type at start and shares it between
// requests.
func ExampleCodec() {
	codec, err := gostruct.NewCodec(reflect.TypeFor[exampleWidget]())
	if err != nil {
		panic(err)
	}
	three := int32(3)
	v, err := codec.FromStruct(&exampleWidget{exampleMeta: exampleMeta{Name: "web"}, Replicas: &three})
	if err != nil {
		panic(err)
	}
	fmt.Println(v)

	patched, _ := value.FromJSON([]byte(`{"name":"web","replicas":5,"image":"nginx:1.27"}`))
	var w exampleWidget
	if err := codec.ToStruct(patched, &w); err != nil {
		panic(err)
	}
	fmt.Println(w.Name, *w.Replicas, w.Image)

	bad, _ := value.FromJSON([]byte(`{"replicas":"five"}`))
	fmt.Println(codec.ToStruct(bad, &w))
	// Output:
	// {"name":"web","replicas":3}
	// web 5 nginx:1.27
	// gostruct: gostruct_test.exampleWidget.Replicas: cannot set int32 from string
}

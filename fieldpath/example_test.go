package fieldpath_test

import (
	"fmt"

	"github.com/structmerge/structmerge/fieldpath"
)

func ExampleParseFieldsV1() {
	s, err := fieldpath.ParseFieldsV1([]byte(`{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{}}}}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	// Output:
	// .spec.containers[name="web"]
	// .spec.containers[name="web"].image
}

func ExampleSet_MarshalFieldsV1() {
	p, _ := fieldpath.MakePath("spec", "replicas")
	q, _ := fieldpath.ParsePath(`.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"]`)
	s := fieldpath.NewSet(p, q)
	fmt.Println(string(s.MarshalFieldsV1()))
	// Output:
	// {"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}},"f:replicas":{}}}
}

func ExampleSet_RecursiveDifference() {
	owned := fieldpath.NewSet(
		fieldpath.Path{fieldpath.FieldName("a"), fieldpath.FieldName("b"), fieldpath.FieldName("c")},
		fieldpath.Path{fieldpath.FieldName("a"), fieldpath.FieldName("d")},
	)
	reset := fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("a"), fieldpath.FieldName("b")})
	fmt.Println(owned.Difference(reset))
	fmt.Println("--")
	fmt.Println(owned.RecursiveDifference(reset))
	// Output:
	// .a.d
	// .a.b.c
	// --
	// .a.d
}

func ExampleBuilder() {
	var b fieldpath.Builder
	for _, s := range []string{".metadata.labels.app", ".metadata.labels", `.spec.finalizers[="x"]`} {
		p, err := fieldpath.ParsePath(s)
		if err != nil {
			panic(err)
		}
		b.Insert(p)
	}
	s := b.Build()
	fmt.Println(s.Size(), s.Has(fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("labels")}))
	// Output:
	// 3 true
}

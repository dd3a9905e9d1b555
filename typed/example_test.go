package typed_test

import (
	"fmt"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// New validates a value against its type; a valid value has a field set
// (what an applier of it would own) and compares with another.
func ExampleNew() {
	s, err := schema.CompileYAML([]byte(`
types:
- name: pod
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - name: containers
      type:
        list:
          elementType:
            map:
              fields:
              - {name: name, type: {scalar: string}}
              - {name: image, type: {scalar: string}}
          elementRelationship: associative
          keys: [name]
`))
	if err != nil {
		panic(err)
	}
	t, _ := s.Type("pod")

	bad, _ := value.FromYAML([]byte(`{containers: [{name: web}, {name: web}]}`))
	_, err = typed.New(t, bad)
	fmt.Println(err)

	v1, _ := value.FromYAML([]byte(`{name: p, containers: [{name: web, image: nginx:1}]}`))
	old, err := typed.New(t, v1)
	if err != nil {
		panic(err)
	}
	set, _ := old.FieldSet()
	fmt.Println(string(set.MarshalFieldsV1()))

	v2, _ := value.FromYAML([]byte(`{name: p, containers: [{name: web, image: nginx:2}, {name: log}]}`))
	cur, _ := typed.New(t, v2)
	c, _ := old.Compare(cur)
	fmt.Println("modified:", c.Modified)
	fmt.Println("added:", c.Added)
	// Output:
	// .containers: duplicate entries for key [name="web"]
	// {"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:name":{}}
	// modified: .containers[name="web"].image
	// added: .containers[name="log"]
	// .containers[name="log"].name
}

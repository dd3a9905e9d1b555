package schema_test

import (
	"fmt"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

func ExampleCompileYAML() {
	s, err := schema.CompileYAML([]byte(`
types:
- name: pod
  map:
    fields:
    - name: ports
      type:
        list:
          elementType: {namedType: port}
          elementRelationship: associative
          keys: [containerPort, protocol]
- name: port
  map:
    fields:
    - name: containerPort
      type: {scalar: numeric}
    - name: protocol
      type: {scalar: string}
      default: TCP
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	pod, _ := s.Type("pod")
	ports, _ := pod.Map().Field("ports")
	l := ports.Type().List()
	fmt.Println(l.Relationship(), l.Keys(), l.ElementType().Name())
	if v, ok := l.KeyDefault(1); ok {
		fmt.Println("protocol defaults to", value.Text(v))
	}
	// Output:
	// associative [containerPort protocol] port
	// protocol defaults to "TCP"
}

func ExampleCompileYAML_errors() {
	_, err := schema.CompileYAML([]byte(`
types:
- name: pod
  map:
    fields:
    - name: spec
      type: {namedType: podSpec}
    - name: tags
      type:
        list: {elementType: {scalar: text}, elementRelationship: associative}
`))
	fmt.Println(err)
	// Output:
	// schema: 2 problems:
	//   type "pod" field "spec": unknown named type "podSpec" (line 7)
	//   type "pod" field "tags" list.elementType: unknown scalar type "text" (want numeric, string, boolean or untyped) (line 10)
}

package merge_test

import (
	"errors"
	"fmt"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// The README's library example: kubectl applies a widget, then the HPA's
// apply of replicas conflicts with kubectl's ownership of them.
func ExampleUpdater_Apply() {
	s, err := schema.CompileYAML([]byte(`
types:
- name: widget
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: replicas, type: {scalar: numeric}}
`))
	if err != nil {
		panic(err)
	}
	t, _ := s.Type("widget")
	u, _ := merge.NewUpdater()
	var managers fieldpath.Managers // nobody owns anything yet

	live, _ := typed.New(t, value.Value{}, typed.AllowDuplicates())
	cfg, _ := value.FromYAML([]byte(`{name: web, replicas: 3}`))
	config, _ := typed.New(t, cfg)
	live, managers, err = u.Apply(live, config, managers, merge.Writer{Manager: "kubectl", APIVersion: "v1"})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(value.ToJSON(live.Value())))
	fmt.Println("kubectl owns", string(managers["kubectl"].Set.MarshalFieldsV1()))

	hpa, _ := value.FromYAML([]byte(`{replicas: 5}`))
	config, _ = typed.New(t, hpa)
	_, _, err = u.Apply(live, config, managers, merge.Writer{Manager: "hpa", APIVersion: "v1"})
	var conflicts merge.Conflicts
	if errors.As(err, &conflicts) {
		fmt.Println(conflicts)
	}
	// Output:
	// {"name":"web","replicas":3}
	// kubectl owns {"f:name":{},"f:replicas":{}}
	// conflict with "kubectl": .replicas
}

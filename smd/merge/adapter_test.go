package merge_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

const deploymentSchema = `types:
- name: deployment
  map:
    fields:
    - name: replicas
      type:
        scalar: numeric
    - name: containers
      type:
        list:
          elementType:
            namedType: container
          elementRelationship: associative
          keys: [name]
- name: container
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: image
      type:
        scalar: string
`

type sameVersion struct{}

func (sameVersion) Convert(v *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}
func (sameVersion) IsMissingVersionError(error) bool { return false }

// outcome applies config as manager on top of live and renders the result.
func outcome(u *merge.Updater, live, config *typed.TypedValue, managers fieldpath.ManagedFields, manager string) string {
	obj, m, err := u.Apply(live, config, "v1", managers, manager, false)
	if err != nil {
		return "error: " + err.Error()
	}
	if obj == nil {
		obj = live
	}
	j, err := value.ToJSON(obj.AsValue())
	if err != nil {
		return "error: " + err.Error()
	}
	fields, err := m[manager].Set().ToJSON()
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%s %s", j, fields)
}

// TestConcurrentApply shares one Updater, one live object and one managers
// map between goroutines applying different configurations; each must get
// what the same apply gets alone, and under -race nothing shared is written.
func TestConcurrentApply(t *testing.T) {
	p, err := typed.NewParser(deploymentSchema)
	if err != nil {
		t.Fatal(err)
	}
	d := p.Type("deployment")
	live, err := d.FromYAML("replicas: 1\ncontainers: [{name: web, image: nginx}]\n")
	if err != nil {
		t.Fatal(err)
	}
	empty, err := d.FromYAML("{}")
	if err != nil {
		t.Fatal(err)
	}
	u := &merge.Updater{Converter: sameVersion{}}
	_, managers, err := u.Update(empty, live, "v1", fieldpath.ManagedFields{}, "owner")
	if err != nil {
		t.Fatal(err)
	}
	configs := []string{
		"replicas: 3\n",
		"containers: [{name: web, image: nginx:2}]\n",
		"containers: [{name: sidecar, image: envoy}]\n",
		"replicas: 1\n",
	}
	var typedConfigs []*typed.TypedValue
	var want []string
	for i, c := range configs {
		tv, err := d.FromYAML(typed.YAMLObject(c))
		if err != nil {
			t.Fatal(err)
		}
		typedConfigs = append(typedConfigs, tv)
		want = append(want, outcome(u, live, tv, managers, fmt.Sprint("m", i)))
	}
	if !strings.HasPrefix(want[0], "error: ") || !strings.HasPrefix(want[1], "error: ") {
		t.Fatalf("changing fields another manager owns must conflict: %s; %s", want[0], want[1])
	}
	if !strings.Contains(want[2], "sidecar") || strings.HasPrefix(want[3], "error: ") {
		t.Fatalf("an added item and an unchanged value must apply: %s; %s", want[2], want[3])
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 20 {
				i := (g + k) % len(configs)
				if got := outcome(u, live, typedConfigs[i], managers, fmt.Sprint("m", i)); got != want[i] {
					t.Errorf("config %d: got %s, want %s", i, got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

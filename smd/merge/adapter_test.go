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

type deployment struct {
	Replicas   int64       `json:"replicas,omitempty"`
	Containers []container `json:"containers,omitempty"`
}

type container struct {
	Name  string `json:"name"`
	Image string `json:"image,omitempty"`
}

// TestUpdateOfEqualObjects: an update whose new object equals the live one
// (typed values of two equal Go objects, which the engine may treat as one)
// changes no owner, and one that changes a field moves it to the updater,
// as the same update of the objects' unstructured forms does.
func TestUpdateOfEqualObjects(t *testing.T) {
	p, err := typed.NewParser(deploymentSchema)
	if err != nil {
		t.Fatal(err)
	}
	d := p.Type("deployment")
	u := &merge.Updater{Converter: sameVersion{}}
	live := deployment{Replicas: 1, Containers: []container{{Name: "web", Image: "nginx"}}}
	owned := fieldpath.NewSet(fieldpath.MakePathOrDie("replicas"),
		fieldpath.MakePathOrDie("containers", fieldpath.KeyByFields("name", "web"), "image"))
	for _, next := range []deployment{
		{Replicas: 1, Containers: []container{{Name: "web", Image: "nginx"}}},
		{Replicas: 2, Containers: []container{{Name: "web", Image: "nginx"}}},
	} {
		run := func(l, n *typed.TypedValue) fieldpath.ManagedFields {
			managers := fieldpath.ManagedFields{"applier": fieldpath.NewVersionedSet(owned, "v1", true)}
			_, m, err := u.Update(l, n, "v1", managers, "controller")
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		ls, err1 := d.FromStructured(&live)
		ns, err2 := d.FromStructured(&next)
		// The same objects as YAML.
		yamlOf := func(o deployment) typed.YAMLObject {
			return typed.YAMLObject(fmt.Sprintf("replicas: %d\ncontainers: [{name: %s, image: %s}]\n", o.Replicas, o.Containers[0].Name, o.Containers[0].Image))
		}
		lu, err3 := d.FromYAML(yamlOf(live))
		nu, err4 := d.FromYAML(yamlOf(next))
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			t.Fatal(err1, err2, err3, err4)
		}
		got, want := run(ls, ns), run(lu, nu)
		if !got.Equals(want) {
			t.Errorf("update to %+v: managers %v, want %v", next, got, want)
		}
		if _, moved := got["controller"]; moved != (next.Replicas != live.Replicas) {
			t.Errorf("update to %+v: managers %v", next, got)
		}
	}
}

package defaulting_test

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/kube/defaulting"
	"github.com/structmerge/structmerge/value"
)

func yv(t *testing.T, s string) value.Value {
	t.Helper()
	v, err := value.FromYAML([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func at(t *testing.T, v value.Value, names ...string) string {
	t.Helper()
	for _, n := range names {
		if v.Kind() == value.List {
			v = v.Index(0)
			continue
		}
		var ok bool
		if v, ok = v.Get(n); !ok {
			return "none"
		}
	}
	return string(value.ToJSON(v))
}

var d = defaulting.Builtin()

// The defaults the issue names, as Kubernetes documents them.
func TestBuiltinDefaults(t *testing.T) {
	for _, tc := range []struct {
		name, obj string
		path      []string
		want      string
	}{
		{"deployment replicas", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: {spec: {containers: [{name: c, image: x:1}]}}}", []string{"spec", "replicas"}, "1"},
		{"deployment strategy", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {}", []string{"spec", "strategy", "type"}, `"RollingUpdate"`},
		{"deployment revisionHistoryLimit", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {}", []string{"spec", "revisionHistoryLimit"}, "10"},
		{"deployment progressDeadlineSeconds", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {}", []string{"spec", "progressDeadlineSeconds"}, "600"},
		{"explicit replicas stay", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {replicas: 0}", []string{"spec", "replicas"}, "0"},
		{"pull policy of a tag", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: 'nginx:1.28'}]}", []string{"spec", "containers", "0", "imagePullPolicy"}, `"IfNotPresent"`},
		{"pull policy of latest", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: 'nginx:latest'}]}", []string{"spec", "containers", "0", "imagePullPolicy"}, `"Always"`},
		{"pull policy without a tag", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: nginx}]}", []string{"spec", "containers", "0", "imagePullPolicy"}, `"Always"`},
		{"termination message path", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: nginx}]}", []string{"spec", "containers", "0", "terminationMessagePath"}, `"/dev/termination-log"`},
		{"port protocol", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: nginx, ports: [{containerPort: 80}]}]}", []string{"spec", "containers", "0", "ports", "0", "protocol"}, `"TCP"`},
		{"service type", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}", []string{"spec", "type"}, `"ClusterIP"`},
		{"service session affinity", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}", []string{"spec", "sessionAffinity"}, `"None"`},
		{"service internal traffic policy", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}", []string{"spec", "internalTrafficPolicy"}, `"Cluster"`},
		{"namespace name label", "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}", []string{"metadata", "labels", "kubernetes.io/metadata.name"}, `"team-a"`},
		{"crd conversion", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: as.example.com}\nspec: {group: example.com, names: {plural: as, kind: A}, scope: Namespaced, versions: []}", []string{"spec", "conversion", "strategy"}, `"None"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := d.Default(yv(t, tc.obj))
			if err != nil {
				t.Fatal(err)
			}
			if s := at(t, got, tc.path...); s != tc.want {
				t.Errorf("%s = %s, want %s in\n%s", strings.Join(tc.path, "."), s, tc.want, value.ToYAML(got))
			}
			// Defaulting what the server returns changes nothing more.
			again, err := d.Default(got)
			if err != nil {
				t.Fatal(err)
			}
			if !value.Equal(again, got) {
				t.Errorf("defaulting twice changed\n%s\ninto\n%s", value.ToYAML(got), value.ToYAML(again))
			}
		})
	}
}

func TestUnknownKindsUnchanged(t *testing.T) {
	for _, s := range []string{
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\nspec: {size: 1}",
		"apiVersion: v1\nkind: NoSuchKind\nmetadata: {name: a}",
		"metadata: {name: a}",
	} {
		in := yv(t, s)
		out, err := d.Default(in)
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(in, out) {
			t.Errorf("%s changed into %s", value.ToJSON(in), value.ToJSON(out))
		}
	}
}

func TestUndecodableIsAnError(t *testing.T) {
	_, err := d.Default(yv(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {replicas: many}"))
	if err == nil || !strings.Contains(err.Error(), "apps/v1, Kind=Deployment") {
		t.Errorf("error: %v", err)
	}
}

func TestKeepsUnchangedParts(t *testing.T) {
	in := yv(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, labels: {x: y}}\ndata: {k: v}")
	out, err := d.Default(in)
	if err != nil {
		t.Fatal(err)
	}
	if !value.Equal(in, out) {
		t.Errorf("a ConfigMap has no defaults, got %s", value.ToJSON(out))
	}
}

func TestConcurrentUse(t *testing.T) {
	obj := yv(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: {spec: {containers: [{name: c, image: x}]}}}")
	want, err := d.Default(obj)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				got, err := d.Default(obj)
				if err != nil || !value.Equal(got, want) {
					t.Errorf("concurrent default: %v %s", err, value.ToJSON(got))
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestCustomResources(t *testing.T) {
	crd, err := os.ReadFile("../../testdata/scenarios/kubernetes/crds/widget.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cr, err := defaulting.CustomResources(crd)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cr.Default(yv(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, labels: {}}\nspec: {ports: [{name: http, port: 80}]}"))
	if err != nil {
		t.Fatal(err)
	}
	if s := at(t, got, "spec", "ports", "0", "protocol"); s != `"TCP"` {
		t.Errorf("the schema's default: protocol = %s in %s", s, value.ToJSON(got))
	}
	if s := at(t, got, "metadata", "labels"); s != "none" {
		t.Errorf("empty labels kept: %s", s)
	}
	other := yv(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {}}")
	if out, err := cr.Default(other); err != nil || !value.Equal(out, other) {
		t.Errorf("another kind changed: %v %s", err, value.ToJSON(out))
	}
	if _, err := defaulting.CustomResources([]byte("spec: [")); err == nil {
		t.Error("a CRD that does not decode is not an error")
	}
}

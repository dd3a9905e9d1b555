package kube_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/value"
)

// replicasDefaulter sets a Deployment's spec.replicas to 1 when it has
// none, as Kubernetes' defaulting does (the real one is package
// kube/defaulting; this one keeps the test to package kube).
var replicasDefaulter = kube.DefaulterFunc(func(obj value.Value) (value.Value, error) {
	if kube.GVKOf(obj).Kind != "Deployment" {
		return obj, nil
	}
	spec, _ := obj.Get("spec")
	if spec.Kind() == value.Map && spec.Has("replicas") {
		return obj, nil
	}
	var fs []value.Field
	if spec.Kind() == value.Map {
		fs = append(fs, own.Value.Fields(spec)...)
	}
	fs = append(fs, value.Field{Name: "replicas", Value: value.NewInt(1)})
	var out []value.Field
	for _, f := range obj.Fields() {
		if f.Name != "spec" {
			out = append(out, f)
		}
	}
	return value.NewMap(append(out, value.Field{Name: "spec", Value: value.NewMap(fs)})), nil
})

func newServer(t *testing.T, d kube.Defaulter) *kube.Server {
	t.Helper()
	s, err := kube.NewServer(newManager(t), d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const serverDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
status: {replicas: 7}
`

func replicas(t *testing.T, obj value.Value) string {
	t.Helper()
	spec, _ := obj.Get("spec")
	r, ok := spec.Get("replicas")
	if !ok {
		return "none"
	}
	return string(value.ToJSON(r))
}

func TestServerApplyDefaultsAfterTheFieldManager(t *testing.T) {
	s := newServer(t, replicasDefaulter)
	obj, err := s.Apply(value.Value{}, yv(t, serverDeployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := replicas(t, obj); got != "1" {
		t.Errorf("replicas after create: %s, want the default 1", got)
	}
	// The applier does not own the default, and the create dropped the
	// status (the registry resets it on the main resource).
	if f := fieldsOf(t, entriesOf(t, obj), "kubectl"); strings.Contains(f, "f:replicas") || strings.Contains(f, "f:status") {
		t.Errorf("kubectl owns %s", f)
	}
	if obj.Has("status") {
		t.Errorf("the create kept the status: %s", value.ToJSON(obj))
	}
	// Without the defaulter, the field manager alone sets no replicas.
	plain, err := newServer(t, nil).Apply(value.Value{}, yv(t, serverDeployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := replicas(t, plain); got != "none" {
		t.Errorf("replicas without a defaulter: %s", got)
	}

	// An applier that stops setting replicas it owned: the field goes,
	// and the default comes back.
	withReplicas := strings.Replace(serverDeployment, "spec:\n  selector", "spec:\n  replicas: 3\n  selector", 1)
	obj, err = s.Apply(obj, yv(t, withReplicas), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := replicas(t, obj); got != "3" {
		t.Fatalf("replicas: %s, want 3", got)
	}
	obj, err = s.Apply(obj, yv(t, serverDeployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := replicas(t, obj); got != "1" {
		t.Errorf("replicas after the applier dropped them: %s, want the default 1", got)
	}
}

func TestServerUpdateOwnsTheDefaults(t *testing.T) {
	s := newServer(t, replicasDefaulter)
	obj, err := s.Update(value.Value{}, yv(t, serverDeployment), "kubectl-create")
	if err != nil {
		t.Fatal(err)
	}
	if f := fieldsOf(t, entriesOf(t, obj), "kubectl-create"); !strings.Contains(f, `"f:replicas"`) {
		t.Errorf("an update's body is defaulted before the field manager: the creator owns replicas, got %s", f)
	}
}

func TestServerReadsLiveDefaulted(t *testing.T) {
	s := newServer(t, replicasDefaulter)
	live, err := newServer(t, nil).Apply(value.Value{}, yv(t, serverDeployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := replicas(t, live); got != "none" {
		t.Fatalf("replicas: %s", got)
	}
	read, err := s.Read(live)
	if err != nil {
		t.Fatal(err)
	}
	if got := replicas(t, read); got != "1" {
		t.Errorf("read: replicas %s, want 1", got)
	}
	if r, _ := s.Read(value.Value{}); !r.IsNull() {
		t.Errorf("read of null: %s", value.ToJSON(r))
	}
}

func TestServerDefaulterErrors(t *testing.T) {
	boom := errors.New("boom")
	s := newServer(t, kube.ChainDefaulters(nil, replicasDefaulter, kube.DefaulterFunc(func(value.Value) (value.Value, error) { return value.Value{}, boom })))
	_, err := s.Apply(value.Value{}, yv(t, serverDeployment), "kubectl")
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "Deployment default/web") {
		t.Errorf("error: %v", err)
	}
	if _, err := kube.NewServer(nil, nil); err == nil {
		t.Error("NewServer(nil) did not fail")
	}
}

func generation(t *testing.T, obj value.Value) string {
	t.Helper()
	md, _ := obj.Get("metadata")
	g, ok := md.Get("generation")
	if !ok {
		return "none"
	}
	return string(value.ToJSON(g))
}

// The generation moves as the built-in strategies move it: 1 on create,
// one more on a change of the spec (or, for a Deployment, of its
// annotations) through the main resource or its scale, never through the
// status, and a request cannot set it.
func TestServerGeneration(t *testing.T) {
	s := newServer(t, nil)
	obj, err := s.Apply(value.Value{}, yv(t, serverDeployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func(live value.Value) (value.Value, error)
		want string
	}{
		{"a label", func(live value.Value) (value.Value, error) {
			return s.Apply(live, yv(t, strings.Replace(serverDeployment, "namespace: default}", "namespace: default, labels: {a: b}}", 1)), "kubectl")
		}, "1"},
		{"an annotation", func(live value.Value) (value.Value, error) {
			return s.Apply(live, yv(t, strings.Replace(serverDeployment, "namespace: default}", "namespace: default, annotations: {a: b}}", 1)), "other")
		}, "2"},
		{"the spec", func(live value.Value) (value.Value, error) {
			return s.Apply(live, yv(t, strings.Replace(serverDeployment, "image: nginx", "image: nginx:2", 1)), "kubectl", kube.Force())
		}, "3"},
		{"the status", func(live value.Value) (value.Value, error) {
			return s.Update(live, yv(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default, generation: 40}\nstatus: {replicas: 2}"), "controller", kube.Subresource("status"))
		}, "3"},
		{"the scale", func(live value.Value) (value.Value, error) {
			return s.Update(live, yv(t, "apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: web, namespace: default}\nspec: {replicas: 9}"), "hpa", kube.Subresource("scale"))
		}, "4"},
		{"a request's own generation", func(live value.Value) (value.Value, error) {
			m := strings.Replace(serverDeployment, "image: nginx", "image: nginx:2", 1)
			return s.Apply(live, yv(t, strings.Replace(m, "namespace: default}", "namespace: default, generation: 40}", 1)), "kubectl")
		}, "4"},
	}
	if got := generation(t, obj); got != "1" {
		t.Fatalf("after create: %s", got)
	}
	for _, st := range steps {
		if obj, err = st.do(obj); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := generation(t, obj); got != st.want {
			t.Errorf("after %s: generation %s, want %s", st.name, got, st.want)
		}
	}

	// A ConfigMap's strategy leaves it alone; without rules nothing moves.
	cm, err := s.Apply(value.Value{}, yv(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}"), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := generation(t, cm); got != "none" {
		t.Errorf("ConfigMap: generation %s", got)
	}
	plain, err := kube.NewServer(newManager(t), nil, kube.WithGeneration(nil))
	if err != nil {
		t.Fatal(err)
	}
	if obj, err = plain.Apply(value.Value{}, yv(t, serverDeployment), "kubectl"); err != nil || generation(t, obj) != "none" {
		t.Errorf("without rules: %v, generation %s", err, generation(t, obj))
	}
	if r, ok := builtin.Generation(kube.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}); !ok || !r.OnCreate || len(r.Compared) != 2 {
		t.Errorf("builtin.Generation(Deployment) = %+v, %v", r, ok)
	}
}

// A defaulter that encodes through Go types drops an empty managedFields
// list (omitempty); the request's empty list must still clear them, as on
// the server, whose field manager sees the decoded empty list.
func TestServerUpdateWithEmptyManagedFields(t *testing.T) {
	dropEmpty := kube.DefaulterFunc(func(obj value.Value) (value.Value, error) {
		u := obj.Unstructured().(map[string]any)
		if md, ok := u["metadata"].(map[string]any); ok {
			if mf, ok := md["managedFields"].([]any); ok && len(mf) == 0 {
				delete(md, "managedFields")
			}
		}
		return value.FromUnstructured(u)
	})
	s := newServer(t, dropEmpty)
	live, err := s.Apply(value.Value{}, yv(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default, uid: u1}\ndata: {a: '1'}"), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Update(live, yv(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default, uid: u1, managedFields: []}\ndata: {a: '2'}"), "cleaner")
	if err != nil {
		t.Fatal(err)
	}
	if entries := entriesOf(t, out); len(entries) != 0 {
		t.Errorf("managedFields after an update that clears them: %s", summary(entries))
	}
}

// strategyFunc is a kube.Strategy that is a function.
type strategyFunc func(obj, live value.Value, sub string) (value.Value, bool, error)

func (f strategyFunc) Prepare(obj, live value.Value, sub string) (value.Value, bool, error) {
	return f(obj, live, sub)
}

// A Strategy sees the field manager's result as it is, with the live
// object and the endpoint; its result is stored (and defaulted), its
// error is the write's, and a kind it does not know gets the reset fields
// and generation rules.
func TestServerStrategy(t *testing.T) {
	var sawReplicas, sawSub string
	var sawLive bool
	refuse := errors.New("refused by the strategy")
	st := strategyFunc(func(obj, live value.Value, sub string) (value.Value, bool, error) {
		sawReplicas, sawSub, sawLive = replicas(t, obj), sub, !live.IsNull()
		switch kube.GVKOf(obj).Kind {
		case "Deployment":
			md, _ := obj.Get("metadata")
			return withMetadata(obj, value.NewMap(append(slices.Clone(own.Value.Fields(md)), value.Field{Name: "labels", Value: value.NewMap([]value.Field{{Name: "prepared", Value: value.NewString("yes")}})}))), true, nil
		case "ConfigMap":
			return value.Value{}, true, refuse
		}
		return obj, false, nil
	})
	s, err := kube.NewServer(newManager(t), replicasDefaulter, kube.WithStrategy(st))
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Apply(value.Value{}, yv(t, serverDeployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if sawReplicas != "none" || sawSub != "" || sawLive {
		t.Errorf("the strategy saw replicas %s, subresource %q, live %v; want the applied object as it is, the main resource, no live object", sawReplicas, sawSub, sawLive)
	}
	if got := replicas(t, out); got != "1" {
		t.Errorf("the stored object was not defaulted: replicas %s", got)
	}
	if md, _ := out.Get("metadata"); !md.Has("labels") {
		t.Errorf("the strategy's result was not stored: %s", value.ToJSON(out))
	}
	if _, err := s.Apply(value.Value{}, yv(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}"), "kubectl"); !errors.Is(err, refuse) {
		t.Errorf("the strategy's refusal: %v", err)
	}
	// A kind the strategy leaves alone: the generation rules apply.
	out, err = s.Apply(value.Value{}, yv(t, "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {}"), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if md, _ := out.Get("metadata"); !md.Has("generation") {
		t.Errorf("without the strategy the registry's generation rule should set a generation: %s", value.ToJSON(out))
	}
}

func withMetadata(obj, md value.Value) value.Value {
	var fs []value.Field
	for _, f := range obj.Fields() {
		if f.Name == "metadata" {
			f.Value = md
		}
		fs = append(fs, f)
	}
	return value.NewMap(fs)
}

package kube_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/value"
)

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: nginx:1.25}
`

func entriesOf(t testing.TB, obj value.Value) []kube.ManagedFieldsEntry {
	t.Helper()
	entries, err := kube.DecodeManagedFields(obj)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// summary lists entries as "manager/operation/apiVersion/subresource".
func summary(entries []kube.ManagedFieldsEntry) string {
	var parts []string
	for _, e := range entries {
		parts = append(parts, e.Manager+"/"+string(e.Operation)+"/"+e.APIVersion+"/"+e.Subresource)
	}
	return strings.Join(parts, " ")
}

func fieldsOf(t testing.TB, entries []kube.ManagedFieldsEntry, manager string) string {
	t.Helper()
	for _, e := range entries {
		if e.Manager == manager {
			return string(e.Fields.MarshalFieldsV1())
		}
	}
	return ""
}

func TestNewFieldManagerErrors(t *testing.T) {
	if _, err := kube.NewFieldManager(nil); err == nil {
		t.Error("nil resolver accepted")
	}
	if _, err := kube.NewFieldManager(testResolver(t), kube.WithClock(nil)); err == nil {
		t.Error("nil clock accepted")
	}
	if _, err := kube.NewFieldManager(testResolver(t), kube.WithMaxUpdateManagers(0)); err == nil {
		t.Error("a cap of 0 accepted")
	}
}

func TestApplyCreatesAndStampsTime(t *testing.T) {
	m := newManager(t)
	obj, err := m.Apply(value.Value{}, yv(t, deployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	entries := entriesOf(t, obj)
	if got := summary(entries); got != "kubectl/Apply/apps/v1/" {
		t.Fatalf("entries: %s", got)
	}
	if want := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); !entries[0].Time.Equal(want) {
		t.Errorf("time %v, want %v", entries[0].Time, want)
	}
	if got, want := fieldsOf(t, entries, "kubectl"), `{"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}`; got != want {
		t.Errorf("fields:\n got %s\nwant %s", got, want)
	}
}

// TestApplyNoOp checks that applying the same configuration again leaves
// the object, its managedFields and their times as they were.
func TestApplyNoOp(t *testing.T) {
	m := newManager(t)
	cfg := yv(t, deployment)
	obj, err := m.Apply(value.Value{}, cfg, "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	again, err := m.Apply(obj, cfg, "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if !value.Equal(obj, again) {
		t.Errorf("a no-op apply changed the object:\nbefore %v\nafter  %v", obj, again)
	}
}

func TestEmptyManagerIsUnknown(t *testing.T) {
	m := newManager(t)
	obj, err := m.Update(value.Value{}, yv(t, deployment), "")
	if err != nil {
		t.Fatal(err)
	}
	obj, err = m.Apply(obj, yv(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: default, labels: {a: b}}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(entriesOf(t, obj)); got != "unknown/Apply/apps/v1/ unknown/Update/apps/v1/" {
		t.Errorf("entries: %s", got)
	}
}

func TestConflictError(t *testing.T) {
	m := newManager(t)
	obj, err := m.Apply(value.Value{}, yv(t, deployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.Update(obj, yv(t, strings.Replace(deployment, "replicas: 2", "replicas: 5", 1)), "hpa", kube.Subresource("status"))
	if err != nil {
		t.Fatal(err)
	}
	// The status subresource resets the spec: hpa got nothing.
	if got := summary(entriesOf(t, st)); got != "kubectl/Apply/apps/v1/" {
		t.Fatalf("entries after a status update of the spec: %s", got)
	}
	obj, err = m.Update(obj, yv(t, strings.Replace(deployment, "replicas: 2", "replicas: 5", 1)), "hpa")
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Apply(obj, yv(t, strings.Replace(strings.Replace(deployment, "replicas: 2", "replicas: 3", 1), "nginx:1.25", "nginx:1.26", 1)), "other")
	var ce *kube.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("want a *ConflictError, got %v", err)
	}
	if !errors.Is(err, kube.ErrConflict) || errors.Is(err, kube.ErrBadRequest) {
		t.Errorf("errors.Is ErrConflict %v, ErrBadRequest %v", errors.Is(err, kube.ErrConflict), errors.Is(err, kube.ErrBadRequest))
	}
	want := "Apply failed with 2 conflicts: conflicts with \"hpa\" using apps/v1:\n- .spec.replicas\nconflicts with \"kubectl\":\n- .spec.template.spec.containers[name=\"web\"].image"
	if err.Error() != want {
		t.Errorf("message:\n got %q\nwant %q", err.Error(), want)
	}
	if len(ce.Conflicts) != 2 {
		t.Fatalf("conflicts: %+v", ce.Conflicts)
	}
	c := ce.Conflicts[0]
	if c.Manager != "hpa" || c.Operation != kube.OperationUpdate || c.APIVersion != "apps/v1" || c.Subresource != "" || c.Path.String() != ".spec.replicas" ||
		c.Live == nil || c.Live.AsInt() != 5 || c.Desired == nil || c.Desired.AsInt() != 3 || c.OwnerString() != `"hpa" using apps/v1` {
		t.Errorf("first conflict: %+v", c)
	}
	c = ce.Conflicts[1]
	if c.Manager != "kubectl" || c.Operation != kube.OperationApply || c.APIVersion != "" || c.Live == nil || c.Live.AsString() != "nginx:1.25" || c.Desired.AsString() != "nginx:1.26" {
		t.Errorf("second conflict: %+v", c)
	}
	// Forced, the same apply succeeds and takes both fields.
	out, err := m.Apply(obj, yv(t, strings.Replace(strings.Replace(deployment, "replicas: 2", "replicas: 3", 1), "nginx:1.25", "nginx:1.26", 1)), "other", kube.Force())
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(entriesOf(t, out)); got != "kubectl/Apply/apps/v1/ other/Apply/apps/v1/" {
		t.Errorf("entries after forcing: %s", got)
	}
}

func TestConflictMessageSingleWithSubresource(t *testing.T) {
	m := newManager(t)
	obj, err := m.Apply(value.Value{}, yv(t, deployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	obj, err = m.Update(obj, yv(t, `{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web, namespace: default}, spec: {replicas: 7}}`), "hpa", kube.Subresource("scale"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Apply(obj, yv(t, deployment), "kubectl")
	want := `Apply failed with 1 conflict: conflict with "hpa" with subresource "scale" using apps/v1: .spec.replicas`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestBadRequests(t *testing.T) {
	m := newManager(t)
	live, err := m.Apply(value.Value{}, yv(t, deployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, obj, want string
	}{
		{"other kind", `{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: web}}`, "invalid object type: apps/v1, Kind=StatefulSet"},
		{"other version", `{apiVersion: apps/v1beta1, kind: Deployment, metadata: {name: web}}`, "invalid object type: apps/v1beta1, Kind=Deployment"},
		{"core group", `{apiVersion: v1, kind: Deployment, metadata: {name: web}}`, "invalid object type: /v1, Kind=Deployment"},
		{"managedFields", `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, managedFields: []}}`, "metadata.managedFields must be nil"},
	}
	for _, tt := range tests {
		_, err := m.Apply(live, yv(t, tt.obj), "x")
		var bre *kube.BadRequestError
		if !errors.As(err, &bre) || err.Error() != tt.want {
			t.Errorf("%s: got %v, want a *BadRequestError %q", tt.name, err, tt.want)
		}
		if !errors.Is(err, kube.ErrBadRequest) || errors.Is(err, kube.ErrConflict) {
			t.Errorf("%s: errors.Is ErrBadRequest %v, ErrConflict %v", tt.name, errors.Is(err, kube.ErrBadRequest), errors.Is(err, kube.ErrConflict))
		}
	}
	// Not bad requests, but errors all the same.
	if _, err := m.Apply(live, yv(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {template: {spec: {containers: [{name: a}, {name: a}]}}}}`), "x"); err == nil ||
		err.Error() != `failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="a"]` || errors.Is(err, kube.ErrBadRequest) {
		t.Errorf("duplicate keys: %v", err)
	}
	if _, err := m.Apply(value.Value{}, yv(t, `{apiVersion: example.com/v1, kind: Gadget, metadata: {name: g}}`), "x"); err == nil || !strings.Contains(err.Error(), "no corresponding type for example.com/v1, Kind=Gadget") {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := m.Update(live, yv(t, `{apiVersion: v1, kind: Pod, metadata: {name: web}}`), "x"); err == nil {
		t.Error("an update of another kind succeeded")
	}
	if _, err := m.Update(value.Value{}, yv(t, `{apiVersion: autoscaling/v1, kind: Scale}`), "x", kube.Subresource("scale")); err == nil {
		t.Error("a scale update without a live object succeeded")
	}
	cm, err := m.Apply(value.Value{}, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`), "x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Update(cm, yv(t, `{apiVersion: autoscaling/v1, kind: Scale, spec: {replicas: 1}}`), "x", kube.Subresource("scale")); err == nil || !strings.Contains(err.Error(), "has no scale subresource") {
		t.Errorf("scale of a ConfigMap: %v", err)
	}
}

func TestUndecodableManagedFields(t *testing.T) {
	m := newManager(t)
	live := yv(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  uid: u1
  managedFields:
  - {manager: x, operation: Apply, apiVersion: v1, fieldsType: FieldsV2, fieldsV1: {}}
data: {a: "1"}
`)
	_, err := m.Apply(live, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {b: "2"}}`), "kubectl")
	if err == nil || err.Error() != `failed to decode managed fields: invalid fieldsType "FieldsV2" in managed fields entry 0` {
		t.Errorf("apply: %v", err)
	}
	out, err := m.Update(live, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, uid: u1}, data: {a: "2"}}`), "editor")
	if err != nil {
		t.Fatal(err)
	}
	// The undecodable entries are dropped; the object exists (it has a
	// uid), so without managedFields the update is not tracked.
	if entries := entriesOf(t, out); entries != nil {
		t.Errorf("entries: %s", summary(entries))
	}
}

func TestCapUpdateManagers(t *testing.T) {
	m := newManager(t, kube.WithMaxUpdateManagers(2))
	obj := value.Value{}
	var err error
	for i, label := range []string{"a", "b", "c", "d"} {
		labels := ""
		for _, l := range []string{"a", "b", "c", "d"}[:i+1] {
			labels += l + ": x, "
		}
		obj, err = m.Update(obj, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {`+labels+`}}}`), "m-"+label)
		if err != nil {
			t.Fatal(err)
		}
	}
	entries := entriesOf(t, obj)
	if got := summary(entries); got != "ancient-changes/Update/v1/ m-d/Update/v1/" {
		t.Fatalf("entries: %s", got)
	}
	if got := fieldsOf(t, entries, "ancient-changes"); got != `{"f:metadata":{"f:labels":{".":{},"f:a":{},"f:b":{},"f:c":{}}}}` {
		t.Errorf("bucket fields: %s", got)
	}
	// Without a cap, every updater keeps its entry.
	m = newManager(t, kube.WithMaxUpdateManagers(-1))
	obj = value.Value{}
	data := ""
	for i := 0; i < 15; i++ {
		data += fmt.Sprintf("k%d: x, ", i)
		obj, err = m.Update(obj, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {`+data+`}}`), fmt.Sprintf("m%02d", i))
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := len(entriesOf(t, obj)); n != 15 {
		t.Errorf("%d entries without a cap, want 15", n)
	}
}

func TestResetFieldsOption(t *testing.T) {
	reset := func(gvk kube.GroupVersionKind, sub string) map[string]*fieldpath.Set {
		if gvk.Kind == "ConfigMap" && sub == "" {
			return map[string]*fieldpath.Set{"v1": fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("data")})}
		}
		return nil
	}
	m := newManager(t, kube.WithResetFields(reset))
	obj, err := m.Apply(value.Value{}, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {a: b}}, data: {x: y}}`), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := fieldsOf(t, entriesOf(t, obj), "kubectl"); got != `{"f:metadata":{"f:labels":{"f:a":{}}}}` {
		t.Errorf("fields: %s", got)
	}
	// With no reset fields, the status of a Deployment is owned like any field.
	m = newManager(t, kube.WithResetFields(nil))
	obj, err = m.Apply(value.Value{}, yv(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, status: {replicas: 1}}`), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := fieldsOf(t, entriesOf(t, obj), "kubectl"); got != `{"f:status":{"f:replicas":{}}}` {
		t.Errorf("fields: %s", got)
	}
}

func TestResetValues(t *testing.T) {
	set := fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("spec")}, fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("labels")})
	obj := yv(t, `{metadata: {name: x, labels: {a: b}}, spec: {replicas: 9}, status: {ready: 1}}`)
	live := yv(t, `{metadata: {name: x}, spec: {replicas: 1}}`)
	got := kube.ResetValues(obj, live, set)
	if want := yv(t, `{metadata: {name: x}, spec: {replicas: 1}, status: {ready: 1}}`); !value.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestResetValuesOfMetadata checks that resetting the whole metadata keeps
// the field manager's managedFields of the written object.
func TestResetValuesOfMetadata(t *testing.T) {
	set := fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("metadata")}, fieldpath.Path{fieldpath.FieldName("spec")})
	obj := yv(t, `{metadata: {name: x, labels: {a: b}, managedFields: [{manager: new}]}, spec: {n: 9}, status: {ready: 1}}`)
	live := yv(t, `{metadata: {name: x, annotations: {c: d}, managedFields: [{manager: old}]}, spec: {n: 1}}`)
	got := kube.ResetValues(obj, live, set)
	if want := yv(t, `{metadata: {name: x, annotations: {c: d}, managedFields: [{manager: new}]}, spec: {n: 1}, status: {ready: 1}}`); !value.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	obj = yv(t, `{metadata: {name: x}, spec: {n: 9}}`)
	got = kube.ResetValues(obj, live, set)
	if want := yv(t, `{metadata: {name: x, annotations: {c: d}}, spec: {n: 1}}`); !value.Equal(got, want) {
		t.Errorf("without managedFields: got %v, want %v", got, want)
	}
}

func TestLastAppliedAnnotation(t *testing.T) {
	m := newManager(t)
	live := yv(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"},"metadata":{"name":"c"}}'
  managedFields:
  - {manager: kubectl-client-side-apply, operation: Update, apiVersion: v1, time: "2019-01-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:a": {}}}}
data: {a: "1"}
`)
	cfg := yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, annotations: {x: "<&>"}}, data: {a: "2"}}`)
	// Another manager than kubectl conflicts.
	if _, err := m.Apply(live, cfg, "helm"); err == nil {
		t.Error("helm did not conflict")
	}
	out, err := m.Apply(live, cfg, "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	ann, _ := mustGet(mustGet(out, "metadata"), "annotations").Get(kube.LastAppliedAnnotation)
	want := `{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"annotations":{"x":"\u003c\u0026\u003e"},"name":"c"}}` + "\n"
	if ann.AsString() != want {
		t.Errorf("annotation:\n got %q\nwant %q", ann.AsString(), want)
	}
	// An annotation that would make the annotations too large is dropped.
	big := strings.Repeat("x", 256<<10)
	out, err = m.Apply(live, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {big: "`+big[:10]+`"}}, data: {a: "1", b: "`+big+`"}}`), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := mustGet(mustGet(out, "metadata"), "annotations").Get(kube.LastAppliedAnnotation); ok {
		t.Error("an oversized last-applied annotation was kept")
	}
}

// TestInputsNotModified checks that Apply and Update leave their
// arguments as they were.
func TestInputsNotModified(t *testing.T) {
	m := newManager(t)
	live, err := m.Apply(value.Value{}, yv(t, deployment), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	liveCopy := yv(t, string(value.ToJSON(live)))
	cfg := yv(t, strings.Replace(deployment, "replicas: 2", "replicas: 4", 1))
	cfgCopy := yv(t, string(value.ToJSON(cfg)))
	if _, err := m.Apply(live, cfg, "other", kube.Force()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Update(live, cfg, "other"); err != nil {
		t.Fatal(err)
	}
	if !value.Equal(live, liveCopy) || !value.Equal(cfg, cfgCopy) {
		t.Error("an argument was modified")
	}
}

// TestApplyIdempotent checks, for a set of configurations, that applying
// a configuration twice gives what applying it once gave.
func TestApplyIdempotent(t *testing.T) {
	configs := []string{
		deployment,
		`{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {ports: [{port: 80}, {port: 80, protocol: UDP}], selector: {a: b}}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: p, labels: {a: b}}, spec: {containers: [{name: c, env: [{name: A, value: "1"}], ports: [{containerPort: 1}]}]}}`,
		`{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: s}, spec: {volumeClaimTemplates: [{metadata: {name: d}}]}}`,
	}
	for _, c := range configs {
		m := newManager(t)
		cfg := yv(t, c)
		live, err := m.Update(value.Value{}, yv(t, `{apiVersion: `+value.Text(mustGet(cfg, "apiVersion"))+`, kind: `+value.Text(mustGet(cfg, "kind"))+`, metadata: {name: x, annotations: {k: v}}}`), "creator")
		if err != nil {
			t.Fatal(err)
		}
		once, err := m.Apply(live, cfg, "applier", kube.Force())
		if err != nil {
			t.Fatal(err)
		}
		twice, err := m.Apply(once, cfg, "applier")
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(once, twice) {
			t.Errorf("%s: not idempotent:\nonce  %v\ntwice %v", c, once, twice)
		}
	}
}

// TestConcurrentApply runs applies and updates from 8 goroutines, sharing
// one FieldManager and the live objects, and checks each result against
// the one computed alone.
func TestConcurrentApply(t *testing.T) {
	clock := func() time.Time { return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC) }
	m, err := kube.NewFieldManager(testResolver(t), kube.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	lives := []value.Value{}
	for _, s := range []string{deployment, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "1"}}`} {
		live, err := m.Apply(value.Value{}, yv(t, s), "kubectl")
		if err != nil {
			t.Fatal(err)
		}
		lives = append(lives, live)
	}
	type op struct {
		live  int
		cfg   value.Value
		apply bool
		sub   string
	}
	ops := []op{
		{0, yv(t, strings.Replace(deployment, "replicas: 2", "replicas: 3", 1)), true, ""},
		{0, yv(t, strings.Replace(deployment, "replicas: 2", "replicas: 3", 1)), false, ""},
		{0, yv(t, `{apiVersion: autoscaling/v1, kind: Scale, metadata: {name: web}, spec: {replicas: 9}}`), false, "scale"},
		{0, yv(t, strings.Replace(deployment, "spec:\n  replicas", "status: {replicas: 2}\nspec:\n  replicas", 1)), false, "status"},
		{1, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "2"}}`), true, ""},
		{1, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {x: y}}, data: {a: "1"}}`), false, ""},
	}
	run := func(o op) (value.Value, error) {
		if o.apply {
			return m.Apply(lives[o.live], o.cfg, "other", kube.Subresource(o.sub), kube.Force())
		}
		return m.Update(lives[o.live], o.cfg, "other", kube.Subresource(o.sub))
	}
	want := make([]value.Value, len(ops))
	for i, o := range ops {
		if want[i], err = run(o); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < 20; r++ {
				i := (g + r) % len(ops)
				got, err := run(ops[i])
				if err != nil {
					errs <- err
					return
				}
				if !value.Equal(got, want[i]) {
					errs <- fmt.Errorf("op %d: got %v, want %v", i, got, want[i])
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestBuiltinTypes(t *testing.T) {
	m, err := kube.NewFieldManager(kube.BuiltinTypes(), kube.WithClock(stepClock()))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := m.Apply(value.Value{}, yv(t, `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - host: example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
`), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(entriesOf(t, obj)); got != "kubectl/Apply/networking.k8s.io/v1/" {
		t.Errorf("entries: %s", got)
	}
	if _, ok := kube.BuiltinTypes().ResolveType(kube.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Nope"}); ok {
		t.Error("an unknown kind resolved")
	}
}

// Every built-in kind resolves to the type of its name in the built-in
// schema; the same kind at a version that does not exist, or a kind
// spelled in another case, does not resolve.
func TestBuiltinTypesEveryKind(t *testing.T) {
	s, err := builtin.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r := kube.BuiltinTypes()
	kinds := builtin.Kinds()
	if len(kinds) < 100 {
		t.Fatalf("only %d built-in kinds", len(kinds))
	}
	for _, k := range kinds {
		want, ok := s.Type(k.TypeName)
		if !ok {
			t.Fatalf("%s: no type %s in the schema", k.Kind, k.TypeName)
		}
		got, ok := r.ResolveType(kube.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind})
		if !ok || got != want {
			t.Errorf("%s/%s %s: resolved to %p (%v), want %s at %p", k.Group, k.Version, k.Kind, got, ok, k.TypeName, want)
		}
		if _, ok := r.ResolveType(kube.GroupVersionKind{Group: k.Group, Version: k.Version + "x", Kind: k.Kind}); ok {
			t.Errorf("%s/%sx %s resolved", k.Group, k.Version, k.Kind)
		}
	}
	if _, ok := r.ResolveType(kube.GroupVersionKind{Version: "v1", Kind: "pod"}); ok {
		t.Error("a kind resolved in the wrong case")
	}
}

package kube_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

// formStep is one request of TestForms: an apply or an update by manager.
type formStep struct {
	name, manager string
	apply         bool
	body          string // YAML
	conflict      bool
}

var formSteps = []formStep{
	{name: "create", manager: "kubectl", apply: true, body: `
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  containers:
  - name: app
    image: nginx:1.27
    ports: [{containerPort: 80, protocol: TCP}]
`},
	{name: "controller update", manager: "controller", body: `
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web, tier: front}}
spec:
  containers:
  - name: app
    image: nginx:1.27
    ports: [{containerPort: 80, protocol: TCP}]
  nodeName: node-1
`},
	{name: "apply change", manager: "kubectl", apply: true, body: `
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  containers:
  - name: app
    image: nginx:1.28
    ports: [{containerPort: 80, protocol: TCP}]
`},
	{name: "conflict", manager: "other", apply: true, conflict: true, body: `
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers:
  - name: app
    image: busybox
`},
}

// TestForms runs the same requests through Apply and Update on values and
// through the methods on each form a caller holds (maps, JSON, Go structs),
// each from fresh inputs: every form gives the value operation's object,
// conflicts alike, and leaves its arguments as they were.
func TestForms(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, err := kube.NewFieldManager(kube.BuiltinTypes(), kube.WithClock(func() time.Time { return at }), kube.WithStructTypes(reflect.TypeFor[corev1.Pod]()))
	if err != nil {
		t.Fatal(err)
	}
	var live value.Value // the object stored so far, from the value operations
	for _, st := range formSteps {
		t.Run(st.name, func(t *testing.T) {
			body := yv(t, st.body)
			var want value.Value
			var wantErr error
			if st.apply {
				want, wantErr = m.Apply(live, body, st.manager)
			} else {
				want, wantErr = m.Update(live, body, st.manager)
			}
			if st.conflict != errors.Is(wantErr, kube.ErrConflict) || (wantErr != nil && !st.conflict) {
				t.Fatalf("value operation: %v", wantErr)
			}
			liveJSON, bodyJSON := []byte(nil), value.ToJSON(body)
			if !live.IsNull() {
				liveJSON = value.ToJSON(live)
			}
			check := func(form string, got value.Value, err error) {
				t.Helper()
				if wantErr != nil {
					if err == nil || err.Error() != wantErr.Error() {
						t.Errorf("%s: error %v, want %v", form, err, wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", form, err)
				}
				if !value.Equal(got, want) {
					t.Errorf("%s: got\n%s\nwant\n%s", form, value.ToJSON(got), value.ToJSON(want))
				}
			}

			// Maps, fresh from JSON as a caller would hold them.
			liveMap, bodyMap := decodeMap(t, liveJSON), decodeMap(t, bodyJSON)
			var outMap map[string]any
			if st.apply {
				outMap, err = m.ApplyUnstructured(liveMap, bodyMap, st.manager)
			} else {
				outMap, err = m.UpdateUnstructured(liveMap, bodyMap, st.manager)
			}
			check("map", fromMap(t, outMap, err), err)
			unchanged(t, "map live", liveMap, liveJSON)
			unchanged(t, "map body", bodyMap, bodyJSON)

			// JSON.
			var outJSON []byte
			if st.apply {
				outJSON, err = m.ApplyJSON(liveJSON, bodyJSON, st.manager)
			} else {
				outJSON, err = m.UpdateJSON(liveJSON, bodyJSON, st.manager)
			}
			var gotJSON value.Value
			if err == nil {
				if gotJSON, err = value.FromJSON(outJSON); err != nil {
					t.Fatal(err)
				}
			}
			check("json", gotJSON, err)

			// Go structs: the struct form is the object as corev1.Pod
			// holds it, so the value operation's result is compared after
			// the same round trip.
			livePod, bodyPod := decodePod(t, liveJSON), decodePod(t, bodyJSON)
			var outPod *corev1.Pod
			if st.apply {
				outPod, err = kube.ApplyStruct(m, livePod, decodeMap(t, bodyJSON), st.manager)
			} else {
				outPod, err = kube.UpdateStruct(m, livePod, bodyPod, st.manager)
			}
			if err == nil {
				wantPod := decodePod(t, value.ToJSON(want))
				if !reflect.DeepEqual(outPod, wantPod) {
					got, _ := json.Marshal(outPod)
					wantB, _ := json.Marshal(wantPod)
					t.Errorf("struct: got\n%s\nwant\n%s", got, wantB)
				}
			} else {
				check("struct", value.Value{}, err)
			}
			if livePod != nil {
				unchangedPod(t, "struct live", livePod, liveJSON)
			}
			unchangedPod(t, "struct body", bodyPod, bodyJSON)
			if wantErr == nil {
				live = want
			}
		})
	}
}

// TestFormsBadInput: a request that is not an object of the form is a bad
// request, a stored object that is not one a *LiveObjectError, and a
// struct request of another type is refused by name.
func TestFormsBadInput(t *testing.T) {
	m := newManager(t)
	if _, err := m.ApplyJSON(nil, []byte(`{"apiVersion": "v1", "kind": `), "x"); !errors.Is(err, kube.ErrBadRequest) {
		t.Errorf("ApplyJSON of truncated JSON: %v, want a bad request", err)
	}
	var le *kube.LiveObjectError
	if _, err := m.UpdateJSON([]byte(`{"a":`), []byte(`{"apiVersion":"v1","kind":"Pod"}`), "x"); !errors.As(err, &le) {
		t.Errorf("UpdateJSON of a truncated live object: %v, want a *LiveObjectError", err)
	}
	if _, err := m.ApplyUnstructured(nil, map[string]any{"apiVersion": "v1", "kind": "Pod", "x": make(chan int)}, "x"); !errors.Is(err, kube.ErrBadRequest) {
		t.Errorf("ApplyUnstructured of a channel: %v, want a bad request", err)
	}
	if _, err := m.UpdateUnstructured(map[string]any{"x": struct{}{}}, map[string]any{"apiVersion": "v1", "kind": "Pod"}, "x"); !errors.As(err, &le) {
		t.Errorf("UpdateUnstructured of a live struct{}: %v, want a *LiveObjectError", err)
	}
	if _, err := m.UpdateUnstructured(nil, nil, "x"); !errors.Is(err, kube.ErrBadRequest) {
		t.Errorf("UpdateUnstructured of nil: %v, want a bad request", err)
	}
	_, err := kube.ApplyStruct[corev1.Pod](m, nil, &corev1.Service{}, "x")
	if !errors.Is(err, kube.ErrBadRequest) || !strings.Contains(err.Error(), "*v1.Service") {
		t.Errorf("ApplyStruct of a Service for a Pod: %v, want a bad request naming the type", err)
	}
	if _, err := kube.UpdateStruct[corev1.Pod](m, nil, nil, "x"); !errors.Is(err, kube.ErrBadRequest) {
		t.Errorf("UpdateStruct of nil: %v, want a bad request", err)
	}
	if _, err := kube.NewFieldManager(kube.BuiltinTypes(), kube.WithStructTypes(reflect.TypeFor[chan int]())); err == nil {
		t.Error("WithStructTypes(chan int): no error")
	}
}

func decodeMap(t *testing.T, data []byte) map[string]any {
	t.Helper()
	if data == nil {
		return nil
	}
	v, err := value.FromJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return v.Unstructured().(map[string]any)
}

func decodePod(t *testing.T, data []byte) *corev1.Pod {
	t.Helper()
	if data == nil {
		return nil
	}
	p := new(corev1.Pod)
	if err := json.Unmarshal(data, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func fromMap(t *testing.T, m map[string]any, err error) value.Value {
	t.Helper()
	if err != nil {
		return value.Value{}
	}
	v, err := value.FromUnstructured(m)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// unchanged fails unless m still holds the JSON it was decoded from.
func unchanged(t *testing.T, what string, m map[string]any, data []byte) {
	t.Helper()
	if m == nil {
		return
	}
	v, err := value.FromUnstructured(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := value.ToJSON(v); string(got) != string(data) {
		t.Errorf("%s was changed:\n%s\nwas\n%s", what, got, data)
	}
}

func unchangedPod(t *testing.T, what string, p *corev1.Pod, data []byte) {
	t.Helper()
	if want := decodePod(t, data); !reflect.DeepEqual(p, want) {
		t.Errorf("%s was changed", what)
	}
}

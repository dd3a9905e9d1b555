package kube_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// TestMapFormManagedFields runs requests whose objects carry managedFields
// the map methods read themselves (plain ones) or leave to the value path
// (anything else), on a type that vouches for plain lists and on types
// that do not: each map method gives what the value operation gives, and
// leaves its arguments as they were.
func TestMapFormManagedFields(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := kube.WithClock(func() time.Time { return at })
	builtin, err := kube.NewFieldManager(kube.BuiltinTypes(), clock)
	if err != nil {
		t.Fatal(err)
	}
	// The live Pod as the API server stores it after an apply and a
	// controller's update.
	live, err := builtin.Apply(value.Value{}, yv(t, `{apiVersion: v1, kind: Pod, metadata: {name: web, namespace: default, labels: {app: web}}, spec: {containers: [{name: app, image: nginx}]}}`), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	if live, err = builtin.Update(live, yv(t, `{apiVersion: v1, kind: Pod, metadata: {name: web, namespace: default, labels: {app: web, tier: front}}, spec: {containers: [{name: app, image: nginx}], nodeName: n1}}`), "controller"); err != nil {
		t.Fatal(err)
	}
	liveMap := live.Unstructured().(map[string]any)
	plain := liveMap["metadata"].(map[string]any)["managedFields"].([]any)
	first := plain[0].(map[string]any)
	with := func(k string, v any) []any {
		e := map[string]any{}
		for n, x := range first {
			e[n] = x
		}
		if v == nil && k == "" {
			return []any{e, plain[1]}
		}
		e[k] = v
		return []any{e, plain[1]}
	}
	lists := map[string]any{
		"plain":             plain,
		"other manager":     with("manager", "someone-else"),
		"other time":        with("time", "2025-12-31T23:59:59Z"),
		"other fields":      with("fieldsV1", map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{"f:app": map[string]any{}}}}),
		"unknown key":       with("extra", "x"),
		"null manager":      with("manager", nil),
		"non-canonical":     with("fieldsV1", map[string]any{"f:spec": map[string]any{"f:containers": map[string]any{`k:{"name": "app"}`: map[string]any{}}}}),
		"bad time":          with("time", "yesterday"),
		"fieldsV1 a string": with("fieldsV1", "x"),
		"bad operation":     with("operation", "Bogus"),
		"numeric manager":   with("manager", 3.0),
		"item not a map":    []any{"x", plain[1]},
		"empty":             []any{},
		"one empty entry":   []any{map[string]any{}},
		"not a list":        "x",
	}
	// Types whose managedFields do not accept every plain list.
	narrow, err := schema.CompileYAML([]byte(`
types:
- name: pod
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: meta}}
    - {name: spec, type: {map: {elementType: {namedType: anything}}}}
- name: meta
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: namespace, type: {scalar: string}}
    - {name: labels, type: {map: {elementType: {scalar: string}}}}
    - name: managedFields
      type: {list: {elementType: {map: {fields: [{name: manager, type: {scalar: string}}, {name: fieldsV1, type: {map: {elementType: {namedType: anything}}}}]}}, elementRelationship: atomic}}
- name: open
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {map: {elementType: {namedType: anything}}}}
    - {name: spec, type: {map: {elementType: {namedType: anything}}}}
- {name: anything, scalar: untyped, list: {elementType: {namedType: anything}}, map: {elementType: {namedType: anything}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	pod := kube.GroupVersionKind{Version: "v1", Kind: "Pod"}
	managers := map[string]*kube.FieldManager{"builtin": builtin}
	for _, name := range []string{"pod", "open"} {
		r, err := kube.NewSchemaResolver(narrow, map[kube.GroupVersionKind]string{pod: name})
		if err != nil {
			t.Fatal(err)
		}
		if managers[name], err = kube.NewFieldManager(r, clock); err != nil {
			t.Fatal(err)
		}
	}
	applied := yv(t, `{apiVersion: v1, kind: Pod, metadata: {name: web, namespace: default, labels: {app: web2}}, spec: {containers: [{name: app, image: nginx}]}}`)
	for mname, m := range managers {
		for lname, list := range lists {
			lm := cloneJSON(t, liveMap)
			lm["metadata"].(map[string]any)["managedFields"] = list
			lv, err := value.FromUnstructured(lm)
			if err != nil {
				t.Fatal(err)
			}
			changed := cloneJSON(t, lm)
			changed["metadata"].(map[string]any)["labels"].(map[string]any)["tier"] = "back"
			// Each list as the live object's, with an apply, a
			// conflicting apply and an update that sends it back; and as
			// what an update sends over the plain list.
			sentOverPlain := cloneJSON(t, liveMap)
			sentOverPlain["metadata"].(map[string]any)["managedFields"] = list
			sentOverPlain["metadata"].(map[string]any)["labels"].(map[string]any)["tier"] = "back"
			for _, rq := range []struct {
				name      string
				apply     bool
				manager   string
				live, obj map[string]any
			}{
				{"apply", true, "kubectl", lm, applied.Unstructured().(map[string]any)},
				{"conflicting apply", true, "other", lm, applied.Unstructured().(map[string]any)},
				{"update", false, "controller", lm, changed},
				{"update sending it", false, "controller", cloneJSON(t, liveMap), sentOverPlain},
			} {
				t.Run(mname+"/"+lname+"/"+rq.name, func(t *testing.T) {
					lv, ov := lv, value.Value{}
					if rq.name == "update sending it" {
						lv = fromMap(t, rq.live, nil)
					}
					ov = fromMap(t, rq.obj, nil)
					var want value.Value
					var wantErr error
					var got map[string]any
					liveJSON, objJSON := jsonOf(t, rq.live), jsonOf(t, rq.obj)
					if rq.apply {
						want, wantErr = m.Apply(lv, ov, rq.manager)
						got, err = m.ApplyUnstructured(rq.live, rq.obj, rq.manager)
					} else {
						want, wantErr = m.Update(lv, ov, rq.manager)
						got, err = m.UpdateUnstructured(rq.live, rq.obj, rq.manager)
					}
					switch {
					case (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()):
						t.Fatalf("map method: error %v, want %v", err, wantErr)
					case err == nil && !value.Equal(fromMap(t, got, nil), want):
						t.Errorf("map method: got\n%s\nwant\n%s", value.ToJSON(fromMap(t, got, nil)), value.ToJSON(want))
					}
					if string(jsonOf(t, rq.live)) != string(liveJSON) || string(jsonOf(t, rq.obj)) != string(objJSON) {
						t.Errorf("the map method changed its arguments")
					}
				})
			}
		}
	}
}

func cloneJSON(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(jsonOf(t, m), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func jsonOf(t *testing.T, m map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

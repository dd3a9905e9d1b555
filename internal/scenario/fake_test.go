package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// fakeEngine is a small but real server-side apply engine for testing the
// runner: objects are trees of maps whose leaves (scalars, lists, empty
// maps) are the fields; managers own leaves; apply merges, prunes what the
// applier dropped and reports conflicts; update replaces the object and
// moves ownership of what changed. It knows nothing of schemas beyond two
// conventions: a schema text must contain "types:" and mention the root type
// name, and a schema containing "readonly" makes every write fail. A string
// value "INVALID" anywhere in an object is a validation error.
type fakeEngine struct{}

type fakeTyped struct {
	readOnly bool
}

func (fakeEngine) Compile(schemaYAML []byte, typeName string) (Typed, error) {
	if !bytes.Contains(schemaYAML, []byte("types:")) {
		return nil, errors.New("not a schema: no types")
	}
	if !bytes.Contains(schemaYAML, []byte(typeName)) {
		return nil, fmt.Errorf("type %q not found", typeName)
	}
	return &fakeTyped{readOnly: bytes.Contains(schemaYAML, []byte("readonly"))}, nil
}

// leaves returns the leaf paths of v (".a.b") and their values.
func leaves(v any, prefix string, out map[string]any) map[string]any {
	if out == nil {
		out = map[string]any{}
	}
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		if prefix != "" {
			out[prefix] = v
		}
		return out
	}
	for k, x := range m {
		leaves(x, prefix+"."+k, out)
	}
	return out
}

func validate(v any, path string) error {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if err := validate(x, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		for i, x := range v {
			if err := validate(x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case string:
		if v == "INVALID" {
			return fmt.Errorf("%s: invalid value", path)
		}
	}
	return nil
}

func encodeFields(paths map[string]bool) []byte {
	root := map[string]any{}
	for p := range paths {
		node := root
		parts := strings.Split(strings.TrimPrefix(p, "."), ".")
		for _, part := range parts {
			child, ok := node["f:"+part].(map[string]any)
			if !ok {
				child = map[string]any{}
				node["f:"+part] = child
			}
			node = child
		}
	}
	b, _ := json.Marshal(root)
	return b
}

func decodeFields(b []byte) (map[string]bool, error) {
	var tree map[string]any
	if err := json.Unmarshal(b, &tree); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	var walk func(m map[string]any, prefix string) error
	walk = func(m map[string]any, prefix string) error {
		if len(m) == 0 && prefix != "" {
			out[prefix] = true
		}
		for k, x := range m {
			if !strings.HasPrefix(k, "f:") {
				return fmt.Errorf("unsupported path element %q", k)
			}
			child, ok := x.(map[string]any)
			if !ok {
				return fmt.Errorf("%s%s: not an object", prefix, k)
			}
			if err := walk(child, prefix+"."+k[2:]); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(tree, "")
}

func (t *fakeTyped) CanonicalFields(b []byte) ([]byte, error) {
	paths, err := decodeFields(b)
	if err != nil {
		return nil, err
	}
	return encodeFields(paths), nil
}

// merged returns live with cfg merged in (cfg wins on leaves).
func merged(live, cfg any) any {
	lm, lok := live.(map[string]any)
	cm, cok := cfg.(map[string]any)
	if !lok || !cok || len(cm) == 0 {
		return cloneValue(cfg)
	}
	out := make(map[string]any, len(lm))
	for k, v := range lm {
		out[k] = cloneValue(v)
	}
	for k, v := range cm {
		if old, ok := out[k]; ok {
			out[k] = merged(old, v)
		} else {
			out[k] = cloneValue(v)
		}
	}
	return out
}

func deletePath(v any, path string) {
	parts := strings.Split(strings.TrimPrefix(path, "."), ".")
	for i, part := range parts {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if i == len(parts)-1 {
			delete(m, part)
			return
		}
		v = m[part]
	}
}

func (t *fakeTyped) Do(state State, op Operation) (State, error) {
	if t.readOnly {
		return state, errors.New("read-only schema")
	}
	if err := validate(op.Object, ""); err != nil {
		return state, err
	}
	owned := map[string]map[string]bool{}
	for name, m := range state.Managers {
		set, err := decodeFields(m.FieldsV1)
		if err != nil {
			return state, err
		}
		owned[name] = set
	}
	out := State{HasObject: true, Managers: map[string]Manager{}}
	liveLeaves := leaves(state.Object, "", nil)
	newLeaves := leaves(op.Object, "", nil)
	applied := map[string]bool{}
	switch op.Op {
	case OpApply, OpForceApply:
		var conflicts []Conflict
		for name, set := range owned {
			if name == op.Manager {
				continue
			}
			for p := range set {
				if v, ok := newLeaves[p]; ok && !identical(semantic(v), semantic(liveLeaves[p])) {
					conflicts = append(conflicts, Conflict{Manager: name, Path: p})
				}
			}
		}
		if len(conflicts) > 0 && op.Op == OpApply {
			slices.SortFunc(conflicts, func(a, b Conflict) int {
				return strings.Compare(a.Manager+a.Path, b.Manager+b.Path)
			})
			var msg []string
			for _, c := range conflicts {
				msg = append(msg, fmt.Sprintf("conflict with %q: %s", c.Manager, c.Path))
			}
			return state, &ConflictsError{Conflicts: conflicts, Message: strings.Join(msg, "\n")}
		}
		for _, c := range conflicts {
			delete(owned[c.Manager], c.Path)
		}
		obj := merged(state.Object, op.Object)
		for p := range owned[op.Manager] {
			if _, still := newLeaves[p]; still {
				continue
			}
			shared := false
			for name, set := range owned {
				shared = shared || (name != op.Manager && set[p])
			}
			if !shared {
				deletePath(obj, p)
			}
		}
		mine := map[string]bool{}
		for p := range newLeaves {
			mine[p] = true
		}
		owned[op.Manager] = mine
		applied[op.Manager] = true
		out.Object = obj
	case OpUpdate:
		changed := map[string]bool{}
		for p, v := range newLeaves {
			if old, ok := liveLeaves[p]; !ok || !identical(semantic(old), semantic(v)) {
				changed[p] = true
			}
		}
		for p := range liveLeaves {
			if _, ok := newLeaves[p]; !ok {
				changed[p] = true
			}
		}
		for _, set := range owned {
			for p := range changed {
				delete(set, p)
			}
		}
		mine := owned[op.Manager]
		if mine == nil {
			mine = map[string]bool{}
		}
		for p := range changed {
			if hasKey(newLeaves, p) {
				mine[p] = true
			}
		}
		owned[op.Manager] = mine
		out.Object = cloneValue(op.Object)
	default:
		return state, fmt.Errorf("unknown op %q", op.Op)
	}
	for name, set := range owned {
		if len(set) == 0 {
			continue
		}
		version := op.APIVersion
		app := applied[name]
		if name != op.Manager {
			version = state.Managers[name].APIVersion
			app = state.Managers[name].Applied
		}
		out.Managers[name] = Manager{APIVersion: version, Applied: app, FieldsV1: encodeFields(set)}
	}
	return out, nil
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// mutatingEngine wraps fakeEngine and writes into the state it is given.
type mutatingEngine struct{ object bool }

type mutatingTyped struct {
	Typed
	object bool
}

func (e mutatingEngine) Compile(s []byte, name string) (Typed, error) {
	t, err := fakeEngine{}.Compile(s, name)
	return mutatingTyped{Typed: t, object: e.object}, err
}

func (t mutatingTyped) Do(state State, op Operation) (State, error) {
	if t.object {
		if m, ok := op.Object.(map[string]any); ok {
			m["injected"] = true
		}
	} else if m, ok := state.Object.(map[string]any); ok {
		m["injected"] = true
	}
	return t.Typed.Do(state, op)
}

// leakyEngine wraps fakeEngine and, when a write fails, returns the state
// the write would have produced had it been forced.
type leakyEngine struct{}

type leakyTyped struct{ Typed }

func (leakyEngine) Compile(s []byte, name string) (Typed, error) {
	t, err := fakeEngine{}.Compile(s, name)
	return leakyTyped{t}, err
}

func (t leakyTyped) Do(state State, op Operation) (State, error) {
	out, err := t.Typed.Do(state, op)
	if err != nil {
		forced := op
		forced.Op = OpForceApply
		changed, ferr := t.Typed.Do(state, forced)
		if ferr == nil {
			return changed, err
		}
	}
	return out, err
}

// fakeKube is a Kubernetes engine for the runner's Kubernetes flavour: it
// stores the object sent, stamps a resourceVersion and a managedFields
// entry with the step's time, and fails writes to the "status" subresource.
type fakeKube struct{ fakeEngine }

type fakeKubeTyped struct{}

func (fakeKube) CompileKubernetes(crds []Source) (KubernetesTyped, error) {
	for _, c := range crds {
		if !bytes.Contains(c.Text, []byte("CustomResourceDefinition")) {
			return nil, fmt.Errorf("%s: not a CRD", c.File)
		}
	}
	return fakeKubeTyped{}, nil
}

func (fakeKubeTyped) Do(live State, op KubernetesOperation) (State, error) {
	if op.Subresource == "status" {
		return live, errors.New("status is not supported")
	}
	obj, ok := cloneValue(op.Object).(map[string]any)
	if !ok {
		return live, errors.New("object must be a mapping")
	}
	md, _ := obj["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		obj["metadata"] = md
	}
	md["resourceVersion"] = "42"
	operation := "Update"
	if op.Op != OpUpdate {
		operation = "Apply"
	}
	md["managedFields"] = []any{map[string]any{
		"manager":   op.Manager,
		"operation": operation,
		"time":      op.Time.Format("2006-01-02T15:04:05Z"),
	}}
	return State{Object: obj, HasObject: true}, nil
}

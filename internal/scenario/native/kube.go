package native

import (
	"errors"
	"fmt"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

var _ scenario.KubernetesEngine = Engine{}

// CompileKubernetes prepares the Kubernetes schema (the built-in types and
// those of the given CRDs) for a Kubernetes-flavour scenario.
func (Engine) CompileKubernetes(crds []scenario.Source) (scenario.KubernetesTyped, error) {
	setup, err := kube.NewSetup(CRDFiles(crds)...)
	if err != nil {
		return nil, err
	}
	return &KubeTyped{setup: setup}, nil
}

// KubeTyped runs the writes of a Kubernetes-flavour scenario on package
// kube's FieldManager, followed by what the API server's storage does to
// the fields it resets (ResetValues).
type KubeTyped struct {
	setup *kube.Setup
}

// Do runs one write. On failure it returns live unchanged.
func (t *KubeTyped) Do(live scenario.State, op scenario.KubernetesOperation) (scenario.State, error) {
	out, err := t.do(live, op)
	if err != nil {
		return live, err
	}
	return out, nil
}

func (t *KubeTyped) do(live scenario.State, op scenario.KubernetesOperation) (scenario.State, error) {
	var lv value.Value
	if live.HasObject {
		v, err := value.FromUnstructured(live.Object)
		if err != nil {
			return live, fmt.Errorf("live object: %w", err)
		}
		lv = v
	}
	obj, err := value.FromUnstructured(op.Object)
	if err != nil {
		return live, fmt.Errorf("object: %w", err)
	}
	// The storage serves the live object at the request's version; when
	// it cannot, the field manager reports why.
	converted := false
	if r, _, err := t.setup.ReadAt(lv, kube.GVKOf(obj)); err == nil && !value.Same(r, lv) {
		lv, converted = r, true
	}
	m, err := kube.NewFieldManager(t.setup.Resolver, t.setup.Options(op.Time)...)
	if err != nil {
		return live, err
	}
	opts := []kube.RequestOption{kube.Subresource(op.Subresource)}
	if op.Op == scenario.OpForceApply {
		opts = append(opts, kube.Force())
	}
	apply := op.Op == scenario.OpApply || op.Op == scenario.OpForceApply
	if !apply && op.Op != scenario.OpUpdate {
		return live, fmt.Errorf("unknown operation %q", op.Op)
	}
	var res value.Value
	liveMap, liveIsMap := live.Object.(map[string]any)
	objMap, objIsMap := op.Object.(map[string]any)
	if !converted && objIsMap && objMap != nil && ((liveIsMap && liveMap != nil) || !live.HasObject) {
		// The objects as a caller holds them, through the map methods,
		// which read managedFields themselves. The result shares the
		// inputs' data: the state keeps a copy of its own.
		var out map[string]any
		if apply {
			out, err = m.ApplyUnstructured(liveMap, objMap, op.Manager, opts...)
		} else {
			out, err = m.UpdateUnstructured(liveMap, objMap, op.Manager, opts...)
		}
		if err == nil {
			res, err = value.FromUnstructured(out)
		}
	} else if apply {
		res, err = m.Apply(lv, obj, op.Manager, opts...)
	} else {
		res, err = m.Update(lv, obj, op.Manager, opts...)
	}
	if err != nil {
		return live, conflictsFromKube(err)
	}
	if op.Subresource != kube.ScaleSubresource {
		res = resetValues(t.setup, res, lv, op.Subresource)
	}
	return scenario.State{Object: res.Unstructured(), HasObject: true}, nil
}

// resetValues does what the API server's storage strategies do after the
// field manager: the fields reset on this subresource keep their live
// values.
func resetValues(setup *kube.Setup, obj, live value.Value, subresource string) value.Value {
	gvk := kube.GVKOf(obj)
	reset := setup.ResetFields(gvk, subresource)
	set := reset[gvk.APIVersion()]
	if set.Empty() {
		return obj
	}
	if live.IsNull() {
		live = value.NewMap(nil)
	}
	return kube.ResetValues(obj, live, set)
}

// conflictsFromKube turns a *kube.ConflictError into a
// *scenario.ConflictsError (manager names and paths, the API server's
// message) and leaves other errors as they are.
func conflictsFromKube(err error) error {
	var ce *kube.ConflictError
	if !errors.As(err, &ce) {
		return err
	}
	out := &scenario.ConflictsError{Message: ce.Error()}
	for _, c := range ce.Conflicts {
		out.Conflicts = append(out.Conflicts, scenario.Conflict{Manager: c.Manager, Path: c.Path.String()})
	}
	return out
}

// CRDFiles names each CRD source as errors name it: its file, or its line
// in the scenario that holds it inline.
func CRDFiles(srcs []scenario.Source) []kube.CRDFile {
	files := make([]kube.CRDFile, len(srcs))
	for i, src := range srcs {
		name := src.File
		if name == "" {
			name = fmt.Sprintf("CRD on line %d", src.Line)
		}
		files[i] = kube.CRDFile{Name: name, Text: src.Text}
	}
	return files
}

package conformance

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/conformance/kubeengine"
	"github.com/structmerge/structmerge/conformance/smdengine"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// kubeDeviations lists the Kubernetes-flavour scenarios, by path relative
// to scenarioRoot, whose expectations describe what structmerge does where
// the reference is wrong. They must fail on the reference.
var kubeDeviations = map[string]string{}

// kubernetesScenarios returns the Kubernetes-flavour scenario files.
func kubernetesScenarios(t *testing.T) []*scenario.File {
	t.Helper()
	paths, err := scenario.Files([]string{scenarioRoot})
	if err != nil {
		t.Fatal(err)
	}
	var out []*scenario.File
	for _, p := range paths {
		f, err := scenario.LoadFile(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if f.Kubernetes {
			out = append(out, f)
		}
	}
	return out
}

// TestKubernetesScenariosOnAPIServer runs every Kubernetes-flavour scenario
// on apimachinery's field manager: each must pass, except the listed
// deviations, which must fail.
func TestKubernetesScenariosOnAPIServer(t *testing.T) {
	files := kubernetesScenarios(t)
	if len(files) < 40 {
		t.Errorf("the corpus has %d Kubernetes scenarios, want at least 40", len(files))
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := relName(t, f.Path)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if f.Description == "" {
				t.Errorf("%s has no description", f.Path)
			}
			r := scenario.Run(refKube, f)
			reason, deviation := kubeDeviations[name]
			switch {
			case deviation && r.Passed:
				t.Errorf("%s is a listed deviation (%s) but passes on the API server's field manager", f.Path, reason)
			case deviation:
				t.Logf("deviation confirmed: %s\n%s", reason, r)
			case !r.Passed:
				t.Errorf("\n%s", r)
			}
		})
	}
	for name := range kubeDeviations {
		if !seen[name] {
			t.Errorf("deviation %s: no such Kubernetes scenario", name)
		}
	}
}

// TestKubernetesScenariosOnStructmerge runs every Kubernetes-flavour
// scenario on package kube: all must pass.
func TestKubernetesScenariosOnStructmerge(t *testing.T) {
	for _, f := range kubernetesScenarios(t) {
		t.Run(relName(t, f.Path), func(t *testing.T) {
			t.Parallel()
			if r := scenario.Run(oursKube, f); !r.Passed {
				t.Errorf("\n%s", r)
			}
		})
	}
}

// TestKubernetesScenariosStepByStep runs each scenario's steps on both
// engines from the same state and compares everything they return: the
// whole object (managedFields with their times and order included), the
// error text, the conflicts.
func TestKubernetesScenariosStepByStep(t *testing.T) {
	for _, f := range kubernetesScenarios(t) {
		t.Run(relName(t, f.Path), func(t *testing.T) {
			t.Parallel()
			ref, err := refKube.CompileKubernetes(f.CRDs)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := oursKube.CompileKubernetes(f.CRDs)
			if err != nil {
				t.Fatal(err)
			}
			state := scenario.State{Object: f.Live.Object, HasObject: f.Live.HasObject}
			for i, st := range f.Steps {
				op := scenario.KubernetesOperation{Op: st.Op, Manager: st.Manager, Subresource: st.Subresource, Object: st.Object, Time: scenario.StepTime(i)}
				want, werr := ref.Do(state, op)
				got, gerr := ours.Do(state, op)
				if d := compareOutcome(want, werr, got, gerr); d != "" {
					t.Fatalf("step %d (%s by %q): %s", i+1, st.Op, st.Manager, d)
				}
				if werr == nil {
					state = want
				}
			}
		})
	}
}

// compareOutcome describes how two engines' results for one step differ
// ("" when they agree): the JSON of the objects, or the errors.
func compareOutcome(want scenario.State, werr error, got scenario.State, gerr error) string {
	if (werr == nil) != (gerr == nil) {
		return "the reference returned error " + strconv.Quote(errString(werr)) + ", structmerge " + strconv.Quote(errString(gerr))
	}
	if werr != nil {
		var wc, gc *scenario.ConflictsError
		wok, gok := asConflicts(werr, &wc), asConflicts(gerr, &gc)
		if wok != gok {
			return "the reference returned error " + strconv.Quote(errString(werr)) + ", structmerge " + strconv.Quote(errString(gerr))
		}
		if werr.Error() != gerr.Error() {
			return "error messages differ:\nreference:   " + strconv.Quote(werr.Error()) + "\nstructmerge: " + strconv.Quote(gerr.Error())
		}
		return ""
	}
	wj, err1 := json.Marshal(want.Object)
	gj, err2 := json.Marshal(got.Object)
	if err1 != nil || err2 != nil {
		return "cannot encode objects"
	}
	if !bytes.Equal(wj, gj) {
		return "objects differ:\nreference:   " + string(wj) + "\nstructmerge: " + string(gj)
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func asConflicts(err error, out **scenario.ConflictsError) bool {
	ce, ok := err.(*scenario.ConflictsError)
	if ok {
		*out = ce
	}
	return ok
}

// TestManagedFieldsBytesOfAPIServer decodes the managedFields of every
// object apimachinery's field manager writes in the scenarios (plus one
// with characters JSON escapes), and requires that package kube encodes
// them back to the API server's bytes (encoding/json of
// []metav1.ManagedFieldsEntry), from the JSON and from the object.
func TestManagedFieldsBytesOfAPIServer(t *testing.T) {
	files := kubernetesScenarios(t)
	extra := &scenario.File{Path: "escapes", Kubernetes: true, Steps: []scenario.Step{
		{Op: scenario.OpApply, Manager: "a<b>&c\u2028\"", Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "c", "labels": map[string]any{"k<&>\u2029": "v"}},
			"data":     map[string]any{"x<y>&z\u2028\"\\": "1"},
		}},
		{Op: scenario.OpUpdate, Manager: "ünïcødé", Object: map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "p"},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "a<b>", "ports": []any{map[string]any{"containerPort": int64(80), "protocol": "<UDP>"}}}}},
		}},
	}}
	files = append(files, extra)
	checked := 0
	for _, f := range files {
		ref, err := refKube.CompileKubernetes(f.CRDs)
		if err != nil {
			t.Fatal(err)
		}
		state := scenario.State{Object: f.Live.Object, HasObject: f.Live.HasObject}
		for i, st := range f.Steps {
			op := scenario.KubernetesOperation{Op: st.Op, Manager: st.Manager, Subresource: st.Subresource, Object: st.Object, Time: scenario.StepTime(i)}
			if f == extra && i == 1 {
				state = scenario.State{}
			}
			out, err := ref.Do(state, op)
			if err != nil {
				if f == extra {
					t.Fatalf("escapes step %d: %v", i+1, err)
				}
				continue
			}
			state = out
			u := &unstructured.Unstructured{Object: out.Object.(map[string]any)}
			entries := u.GetManagedFields()
			if entries == nil {
				continue
			}
			want, err := json.Marshal(entries)
			if err != nil {
				t.Fatal(err)
			}
			decoded, err := kube.UnmarshalManagedFields(want)
			if err != nil {
				t.Errorf("%s step %d: %v", f.Path, i+1, err)
				continue
			}
			if got := kube.MarshalManagedFields(decoded); !bytes.Equal(got, want) {
				t.Errorf("%s step %d: JSON round trip:\nAPI server: %s\nstructmerge: %s", f.Path, i+1, want, got)
			}
			obj, err := value.FromUnstructured(out.Object)
			if err != nil {
				t.Fatal(err)
			}
			fromObj, err := kube.DecodeManagedFields(obj)
			if err != nil {
				t.Errorf("%s step %d: %v", f.Path, i+1, err)
				continue
			}
			if got := kube.MarshalManagedFields(fromObj); !bytes.Equal(got, want) {
				t.Errorf("%s step %d: from the object:\nAPI server: %s\nstructmerge: %s", f.Path, i+1, want, got)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d managedFields lists checked", checked)
	}
	t.Logf("%d managedFields lists checked", checked)
}

// cachedKube compiles the Kubernetes schema once per set of CRD files and
// engine (both engines' compiled forms are safe for concurrent use).
type cachedKube struct {
	scenario.Engine
	load  func() (scenario.KubernetesEngine, error)
	mu    *sync.Mutex
	eng   *scenario.KubernetesEngine
	cache map[string]scenario.KubernetesTyped
}

func newCachedKube(load func() (scenario.KubernetesEngine, error)) cachedKube {
	return cachedKube{Engine: smdengine.Engine{}, load: load, mu: &sync.Mutex{}, eng: new(scenario.KubernetesEngine), cache: map[string]scenario.KubernetesTyped{}}
}

func (c cachedKube) CompileKubernetes(crds []scenario.Source) (scenario.KubernetesTyped, error) {
	var key strings.Builder
	for _, s := range crds {
		key.WriteString(s.File + "\x00" + string(s.Text) + "\x00")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.cache[key.String()]; ok {
		return t, nil
	}
	if *c.eng == nil {
		e, err := c.load()
		if err != nil {
			return nil, err
		}
		*c.eng = e
	}
	t, err := (*c.eng).CompileKubernetes(crds)
	if err != nil {
		return nil, err
	}
	c.cache[key.String()] = t
	return t, nil
}

var (
	// refKube is the API server's field manager with the type converter
	// the API server builds from the OpenAPI documents of Kubernetes.
	refKube = newCachedKube(func() (scenario.KubernetesEngine, error) {
		models, err := kubeengine.LoadOpenAPIModels()
		if err != nil {
			return nil, err
		}
		return kubeengine.Engine{Models: models}, nil
	})
	oursKube = newCachedKube(func() (scenario.KubernetesEngine, error) { return native.Engine{}, nil })
)

// BenchmarkKubernetesScenarioSteps runs every step of the Kubernetes
// scenarios (from the state before it) on each engine:
//
//	go test -run XXX -bench KubernetesScenarioSteps -benchmem
func BenchmarkKubernetesScenarioSteps(b *testing.B) {
	type step struct {
		typ   [2]scenario.KubernetesTyped
		state scenario.State
		op    scenario.KubernetesOperation
	}
	paths, err := scenario.Files([]string{scenarioRoot + "/kubernetes"})
	if err != nil {
		b.Fatal(err)
	}
	var steps []step
	for _, p := range paths {
		f, err := scenario.LoadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		ref, err := refKube.CompileKubernetes(f.CRDs)
		if err != nil {
			b.Fatal(err)
		}
		ours, err := oursKube.CompileKubernetes(f.CRDs)
		if err != nil {
			b.Fatal(err)
		}
		state := scenario.State{Object: f.Live.Object, HasObject: f.Live.HasObject}
		for i, st := range f.Steps {
			op := scenario.KubernetesOperation{Op: st.Op, Manager: st.Manager, Subresource: st.Subresource, Object: st.Object, Time: scenario.StepTime(i)}
			steps = append(steps, step{typ: [2]scenario.KubernetesTyped{ref, ours}, state: state, op: op})
			if out, err := ref.Do(state, op); err == nil {
				state = out
			}
		}
	}
	for e, name := range []string{"apiserver", "structmerge"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s := steps[i%len(steps)]
				_, _ = s.typ[e].Do(s.state, s.op)
			}
		})
	}
}

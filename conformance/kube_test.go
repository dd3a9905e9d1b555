package conformance

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/conformance/kubeengine"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/kube"
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
			r := scenario.Run(kubeengine.Engine{}, f)
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
			if r := scenario.Run(native.Engine{}, f); !r.Passed {
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
			ref, err := kubeengine.Engine{}.CompileKubernetes(f.CRDs)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := native.Engine{}.CompileKubernetes(f.CRDs)
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
		if wok && werr.Error() != gerr.Error() {
			return "conflict messages differ:\nreference:   " + strconv.Quote(werr.Error()) + "\nstructmerge: " + strconv.Quote(gerr.Error())
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

var _ = strings.TrimSpace
var _ = kube.FieldsTypeV1

package conformance

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/structmerge/structmerge/conformance/kubeengine"
	"github.com/structmerge/structmerge/internal/cli"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/value"
)

// TestCLIApplyExamplesMatchAPIServer runs `structmerge apply` on the
// examples the README walks through and the same apply on the apimachinery
// v0.37.2 field manager, and checks that the objects and managedFields
// (times aside) are the same, and that both see the same conflicts.
func TestCLIApplyExamplesMatchAPIServer(t *testing.T) {
	now := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	t.Setenv("STRUCTMERGE_NOW", now.Format(time.RFC3339))
	oracle, err := kubeengine.Engine{}.CompileKubernetes(nil)
	if err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join("..", "examples")
	cases := []struct {
		name, manifest, live string
		force, conflict      bool
	}{
		{name: "deployment", manifest: "deployment.yaml", live: "live/deployment.yaml"},
		{name: "service", manifest: "service.yaml", live: "live/service.yaml"},
		{name: "conflict", manifest: "conflict/deployment.yaml", live: "live/deployment.yaml", conflict: true},
		{name: "forced", manifest: "conflict/deployment.yaml", live: "live/deployment.yaml", force: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			manifest := filepath.Join(examples, tc.manifest)
			live := filepath.Join(examples, tc.live)
			args := []string{"apply", "-f", manifest, "--live", live, "-o", "json"}
			op := scenario.OpApply
			if tc.force {
				args = append(args, "--force-conflicts")
				op = scenario.OpForceApply
			}
			var stdout, stderr bytes.Buffer
			code := cli.Main(args, nil, &stdout, &stderr)

			liveObj := readObject(t, live)
			sent := readObject(t, manifest)
			st, oerr := oracle.Do(scenario.State{Object: liveObj.Unstructured(), HasObject: true},
				scenario.KubernetesOperation{Op: op, Manager: "kubectl", Object: sent.Unstructured(), Time: now})
			if applyEndedInConflicts(t, tc.conflict, code, &stderr, oerr) {
				return
			}
			got, err := value.FromJSON(stdout.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			want, err := value.FromUnstructured(st.Object)
			if err != nil {
				t.Fatal(err)
			}
			got, want = withoutTimes(got), withoutTimes(want)
			if !value.Equal(got, want) {
				t.Errorf("objects differ\nstructmerge: %s\nAPI server:  %s", value.ToJSON(got), value.ToJSON(want))
			}
		})
	}
}

func readObject(t *testing.T, path string) value.Value {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := value.FromYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// withoutTimes drops the time of every managedFields entry.
func withoutTimes(obj value.Value) value.Value {
	var strip func(v value.Value, path []string) value.Value
	strip = func(v value.Value, path []string) value.Value {
		switch v.Kind() {
		case value.Map:
			var fs []value.Field
			for _, f := range v.Fields() {
				if f.Name == "time" && len(path) >= 2 && path[len(path)-1] == "[]" && path[len(path)-2] == "managedFields" {
					continue
				}
				fs = append(fs, value.Field{Name: f.Name, Value: strip(f.Value, append(path, f.Name))})
			}
			return value.NewMap(fs)
		case value.List:
			items := make([]value.Value, 0, v.Len())
			for _, it := range v.Items() {
				items = append(items, strip(it, append(path, "[]")))
			}
			return value.NewList(items)
		}
		return v
	}
	return strip(obj, nil)
}

// applyEndedInConflicts checks that structmerge's apply (its exit code and
// stderr) ended as the reference's did: in conflicts, each reported at its
// path, when conflict is set (it then returns true: there is no object to
// compare), else in success.
func applyEndedInConflicts(t *testing.T, conflict bool, code int, stderr *bytes.Buffer, oerr error) bool {
	t.Helper()
	if conflict {
		var ce *scenario.ConflictsError
		if !errors.As(oerr, &ce) || len(ce.Conflicts) == 0 {
			t.Fatalf("the API server gives %v, want conflicts", oerr)
		}
		if code != 1 {
			t.Fatalf("structmerge apply exited %d, want 1 (conflicts); stderr:\n%s", code, stderr.String())
		}
		for _, c := range ce.Conflicts {
			if !bytes.Contains(stderr.Bytes(), []byte(c.Path)) {
				t.Errorf("structmerge does not report the conflict at %s:\n%s", c.Path, stderr.String())
			}
		}
		return true
	}
	if oerr != nil {
		t.Fatalf("the API server fails: %v", oerr)
	}
	if code != 0 {
		t.Fatalf("structmerge apply exited %d:\n%s", code, stderr.String())
	}
	return false
}

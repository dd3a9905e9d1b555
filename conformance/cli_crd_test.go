package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/structmerge/structmerge/conformance/kubeengine"
	"github.com/structmerge/structmerge/internal/cli"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/value"
)

// routeLive is a Route stored at v1, with a field only v1 declares
// (spec.timeouts) when timeouts is set.
func routeLive(timeouts bool) string {
	s := `apiVersion: gateway.example.com/v1
kind: Route
metadata:
  name: web
  namespace: default
  managedFields:
  - apiVersion: gateway.example.com/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:hostnames:
          v:"example.com": {}
        f:rules:
          k:{"name":"main"}: {".": {}, "f:backend": {}, "f:name": {}, "f:weight": {}}
    manager: kubectl
    operation: Apply
    time: "2019-01-01T00:00:00Z"
  - apiVersion: gateway.example.com/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:rules:
          k:{"name":"canary"}: {".": {}, "f:backend": {}, "f:name": {}, "f:weight": {}}
        f:timeouts:
          f:request: {}
    manager: canary-controller
    operation: Update
    time: "2019-01-02T00:00:00Z"
spec:
  hostnames: [example.com]
  rules:
  - {name: main, backend: web, weight: 90}
  - {name: canary, backend: web-canary, weight: 10}
`
	if timeouts {
		s += "  timeouts: {request: 5s}\n"
	}
	return s
}

// TestCLIApplyCRDVersionsMatchAPIServer runs `structmerge apply --crd` with
// a manifest at v1beta1 on a live custom resource stored at v1, and the
// same request on the reference (the stored object converted and pruned
// by apiextensions-apiserver's converter and structural pruning, then
// apimachinery's field manager for v1beta1): the objects and managedFields
// (times aside) are the same, and so are the conflicts.
func TestCLIApplyCRDVersionsMatchAPIServer(t *testing.T) {
	now := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	t.Setenv("STRUCTMERGE_NOW", now.Format(time.RFC3339))
	crdPath := filepath.Join(scenarioRoot, "kubernetes", "crds", "route.yaml")
	crd, err := os.ReadFile(crdPath)
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := kubeengine.Engine{}.CompileKubernetes([]scenario.Source{{File: crdPath, Text: crd}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, manifest string
		timeouts       bool
		conflict       bool
	}{
		{name: "v1beta1", manifest: "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {hostnames: [example.com, www.example.com], rules: [{name: main, backend: web, weight: 90}]}\n"},
		{name: "v1beta1 pruned", timeouts: true, manifest: "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {hostnames: [example.com, www.example.com], rules: [{name: main, backend: web, weight: 90}]}\n"},
		{name: "v1beta1 conflict", conflict: true, manifest: "apiVersion: gateway.example.com/v1beta1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {rules: [{name: canary, weight: 50}]}\n"},
		{name: "v1", timeouts: true, manifest: "apiVersion: gateway.example.com/v1\nkind: Route\nmetadata: {name: web, namespace: default}\nspec: {hostnames: [example.com], rules: [{name: main, backend: web, weight: 80}]}\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			live, manifest := filepath.Join(dir, "live.yaml"), filepath.Join(dir, "route.yaml")
			if err := os.WriteFile(live, []byte(routeLive(tc.timeouts)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(manifest, []byte(tc.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := cli.Main([]string{"apply", "-f", manifest, "--live", live, "--crd", crdPath, "-o", "json"}, nil, &stdout, &stderr)
			st, oerr := oracle.Do(scenario.State{Object: readObject(t, live).Unstructured(), HasObject: true},
				scenario.KubernetesOperation{Op: scenario.OpApply, Manager: "kubectl", Object: readObject(t, manifest).Unstructured(), Time: now})
			if applyEndedInConflicts(t, tc.conflict, code, &stderr, oerr) {
				return
			}
			if warned := strings.Contains(stderr.String(), ".spec.timeouts: gateway.example.com/v1beta1 does not declare this field"); warned != (tc.timeouts && strings.Contains(tc.manifest, "v1beta1")) {
				t.Errorf("warning about the pruned field: %v; stderr:\n%s", warned, stderr.String())
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

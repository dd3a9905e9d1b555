package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

// pruneCRD covers what structural pruning treats specially: an embedded
// resource, additionalProperties, x-kubernetes-preserve-unknown-fields
// with and without properties (also on a list's items), an object
// without properties and int-or-string.
const pruneCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: jobs.prune.example.com
spec:
  group: prune.example.com
  names: {kind: Job, listKind: JobList, plural: jobs, singular: job}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              template:
                type: object
                x-kubernetes-embedded-resource: true
                properties:
                  spec:
                    type: object
                    properties:
                      image: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
              params:
                type: object
                additionalProperties:
                  type: object
                  properties:
                    value: {type: string}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  known:
                    type: object
                    properties:
                      a: {type: string}
              raw:
                type: array
                items:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
              empty:
                type: object
              port:
                x-kubernetes-int-or-string: true
              steps:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    args:
                      type: array
                      items: {type: string}
`

// TestCRDPruneDifferential checks kube.Setup.Prune, which the
// command uses to read a live custom resource at another version as the
// API server's storage serves it, against apiextensions-apiserver's
// structural pruning (pruning.PruneWithOptions on the structural schema of
// the version): for each version of each CRD of the scenario corpus and
// of the tests, objects that hold every declared field and an unknown
// field beside each give the same object and the same pruned paths.
func TestCRDPruneDifferential(t *testing.T) {
	srcs := []scenario.Source{{File: "prune", Text: []byte(pruneCRD)}, {File: "gateway", Text: []byte(gatewayCRD)}}
	files, err := filepath.Glob(scenarioRoot + "/kubernetes/crds/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in the corpus: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, scenario.Source{File: f, Text: data})
	}
	checked, prunedTotal := 0, 0
	for _, src := range srcs {
		setup, err := kube.NewSetup(native.CRDFiles([]scenario.Source{src})...)
		if err != nil {
			t.Fatalf("%s: %v", src.File, err)
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(src.Text, &crd); err != nil {
			t.Fatal(err)
		}
		for _, v := range crd.Spec.Versions {
			var internal apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
				t.Fatal(err)
			}
			ss, err := structuralschema.NewStructural(&internal)
			if err != nil {
				t.Fatalf("%s %s: %v", src.File, v.Name, err)
			}
			var raw map[string]any
			b, _ := yaml.Marshal(v.Schema.OpenAPIV3Schema)
			if err := yaml.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			apiVersion := crd.Spec.Group + "/" + v.Name
			for i, obj := range pruneProbes(raw, apiVersion, crd.Spec.Names.Kind) {
				name := fmt.Sprintf("%s %s probe %d", src.File, v.Name, i)
				want := runtime.DeepCopyJSON(obj)
				wantPaths := structuralpruning.PruneWithOptions(want, ss, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
				in, err := value.FromUnstructured(obj)
				if err != nil {
					t.Fatal(err)
				}
				before := value.ToJSON(in)
				got, paths := setup.Prune(in)
				if string(value.ToJSON(in)) != string(before) {
					t.Fatalf("%s: Prune modified its argument", name)
				}
				var gotPaths []string
				for _, p := range paths {
					gotPaths = append(gotPaths, strings.TrimPrefix(p.String(), "."))
				}
				sort.Strings(gotPaths)
				if d := cmp.Diff(normalizeJSON(t, want), normalizeJSON(t, got.Unstructured().(map[string]any))); d != "" {
					t.Errorf("%s: pruned objects differ (-apiextensions +structmerge):\n%s", name, d)
				}
				if d := cmp.Diff(wantPaths, gotPaths); d != "" {
					t.Errorf("%s: pruned paths differ (-apiextensions +structmerge):\n%s", name, d)
				}
				checked++
				prunedTotal += len(wantPaths)
			}
		}
	}
	if checked < 18 || prunedTotal < 40 {
		t.Errorf("only %d objects and %d pruned fields checked", checked, prunedTotal)
	}
	t.Logf("%d objects, %d pruned fields agree", checked, prunedTotal)
}

// pruneProbes builds objects for a version's schema: one with every
// declared field (two items per list, a value for each
// additionalProperties and int-or-string) and an unknown field beside
// them at every level, including metadata; one with only unknown fields
// at the root; one where each object is replaced by a scalar.
func pruneProbes(s map[string]any, apiVersion, kind string) []map[string]any {
	full := probeValue(s, 0, true).(map[string]any)
	full["apiVersion"], full["kind"] = apiVersion, kind
	full["metadata"] = map[string]any{"name": "p", "unknownMeta": "x"}
	bare := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": "p"}, "unknownRoot": map[string]any{"a": int64(1)}}
	scalars := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": "p"}}
	if props, ok := s["properties"].(map[string]any); ok {
		for k := range props {
			scalars[k] = "scalar"
		}
	}
	return []map[string]any{full, bare, scalars}
}

func probeValue(s map[string]any, depth int, unknown bool) any {
	if depth > 8 {
		return "deep"
	}
	if s["x-kubernetes-int-or-string"] == true {
		return int64(8080)
	}
	switch s["type"] {
	case "object", nil:
		out := map[string]any{}
		if props, ok := s["properties"].(map[string]any); ok {
			for k, p := range props {
				out[k] = probeValue(p.(map[string]any), depth+1, unknown)
			}
		}
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			out["anyKey"] = probeValue(ap, depth+1, unknown)
		}
		if s["x-kubernetes-embedded-resource"] == true {
			out["apiVersion"], out["kind"] = "v1", "ConfigMap"
			out["metadata"] = map[string]any{"name": "inner", "unknownMeta": "x"}
		}
		if unknown {
			out["unknownField"] = map[string]any{"nested": []any{int64(1), map[string]any{"x": "y"}}}
		}
		return out
	case "array":
		items, _ := s["items"].(map[string]any)
		return []any{probeValue(items, depth+1, unknown), probeValue(items, depth+1, unknown)}
	case "integer":
		return int64(1)
	case "number":
		return 1.5
	case "boolean":
		return true
	}
	return "text"
}

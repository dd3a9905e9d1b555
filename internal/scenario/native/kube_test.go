package native_test

import (
	"encoding/json"
	"errors"
	"flag"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
)

// The corpus itself runs in internal/scenario's TestCorpus; -rewrite is
// accepted here too so that `go test ./internal/scenario/... -rewrite` runs.
var _ = flag.Bool("rewrite", false, "see TestCorpus in internal/scenario")

// TestKubernetesFailureReport checks that a Kubernetes scenario whose
// expectation is wrong fails with a diff of managedFields.
func TestKubernetesFailureReport(t *testing.T) {
	f, err := scenario.Parse("wrong.yaml", []byte(`
description: wrong expectation
kubernetes: true
steps:
- op: apply
  manager: kubectl
  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "1"}}
expect:
  object:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
      managedFields:
      - {manager: helm, operation: Apply, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:a": {}}}}
    data: {a: "1"}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := scenario.Run(native.Engine{}, f)
	if r.Passed || r.Where == "" {
		t.Fatalf("passed: %v", r)
	}
}

// TestKubeTypedConcurrent runs the same writes from 8 goroutines on one
// compiled KubeTyped and checks they all get the result of a lone run.
func TestKubeTypedConcurrent(t *testing.T) {
	typed, err := native.Engine{}.CompileKubernetes(nil)
	if err != nil {
		t.Fatal(err)
	}
	live := scenario.State{HasObject: true, Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default"},
		"spec":     map[string]any{"replicas": int64(1)},
	}}
	ops := []scenario.KubernetesOperation{
		{Op: "forceApply", Manager: "kubectl", Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "default"}, "spec": map[string]any{"replicas": int64(3)}}},
		{Op: "update", Manager: "hpa", Subresource: "scale", Object: map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": map[string]any{"name": "web"}, "spec": map[string]any{"replicas": int64(4)}}},
		{Op: "update", Manager: "kcm", Subresource: "status", Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "default"}, "status": map[string]any{"replicas": int64(1)}}},
	}
	want := make([][]byte, len(ops))
	for i, op := range ops {
		out, err := typed.Do(live, op)
		if err != nil {
			t.Fatal(err)
		}
		want[i], _ = json.Marshal(out.Object)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < 10; r++ {
				i := (g + r) % len(ops)
				out, err := typed.Do(live, ops[i])
				if err != nil {
					errs <- err
					return
				}
				if got, _ := json.Marshal(out.Object); string(got) != string(want[i]) {
					errs <- errors.New("op " + string(rune('0'+i)) + ": " + string(got))
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

package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/value"
)

// workload is one object of the reference's own BenchmarkOperations.
type workload struct {
	name       string
	schemaFile string
	typeName   string
	objectFile string
}

var workloads = []workload{
	{"Pod", "k8s-schema.yaml", "io.k8s.api.core.v1.Pod", "pod.yaml"},
	{"Node", "k8s-schema.yaml", "io.k8s.api.core.v1.Node", "node.yaml"},
	{"Endpoints", "k8s-schema.yaml", "io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
	{"Node100%override", "k8s-schema-100pct-fieldoverride.yaml", "io.k8s.api.core.v1.Node", "node.yaml"},
	{"Node10%override", "k8s-schema-10pct-fieldoverride.yaml", "io.k8s.api.core.v1.Node", "node.yaml"},
	{"Endpoints100%override", "k8s-schema-100pct-fieldoverride.yaml", "io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
	{"Endpoints10%override", "k8s-schema-10pct-fieldoverride.yaml", "io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
	{"PrometheusCRD", "k8s-schema.yaml", "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition", "prometheus-crd.yaml"},
	{"apiresourceimport", "apiresourceimport.yaml", "apiresourceimport", "apiresourceimport-cr.yaml"},
}

// The reference's test data lives in its module, which the module cache
// holds once the conformance module's dependencies are downloaded.
var (
	smdDirOnce sync.Once
	smdDir     string
	smdDirErr  error
)

func testdataDir(tb testing.TB) string {
	tb.Helper()
	smdDirOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/structured-merge-diff/v6").Output()
		if err != nil {
			smdDirErr = err
			return
		}
		smdDir = filepath.Join(strings.TrimSpace(string(out)), "internal", "testdata")
	})
	if smdDirErr != nil {
		tb.Fatalf("locating structured-merge-diff's test data: %v", smdDirErr)
	}
	return smdDir
}

func readTestdata(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(testdataDir(tb), name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// operation is one row of BenchmarkOperations: a sequence of writes by
// managers, starting from no object.
type operation struct {
	name string
	// steps: each is (apply?, manager, version)
	steps []step
	// noCompare skips the reference's final no-op comparison.
	noCompare bool
}

type step struct {
	apply   bool
	manager string
	version string
}

var operations = []operation{
	{name: "Create", steps: []step{{false, "controller", "v1"}}},
	{name: "Apply", steps: []step{{true, "controller", "v1"}}},
	{name: "ApplyTwice", steps: []step{{true, "controller", "v1"}, {true, "other-controller", "v1"}}},
	{name: "ApplyTwiceNoCompare", noCompare: true, steps: []step{{true, "controller", "v1"}, {true, "other-controller", "v1"}}},
	{name: "Update", steps: []step{{false, "controller", "v1"}, {false, "other-controller", "v1"}}},
	{name: "UpdateVersion", steps: []step{{false, "controller", "v1"}, {false, "other-controller", "v2"}}},
}

// inputMode says how a runner's steps get their inputs.
type inputMode int

const (
	// perStepInputs: every step writes its own object, decoded and
	// validated on its own, as requests arriving over the wire do; no
	// step's input shares memory with another's or with the live object.
	perStepInputs inputMode = iota
	// sharedInputs: all applies write one in-memory object and all
	// updates another, so that a second step writes the object the first
	// left live: an in-memory re-apply of the previous result, where
	// structmerge's comparison stops at the root (value.Same).
	sharedInputs
)

// stepInputs decodes the inputs of op's steps for one library: one per
// step (perStepInputs), or one per kind of step, shared by every step of
// that kind (sharedInputs). Both sides of a benchmark get theirs here.
func stepInputs[T any](op operation, mode inputMode, decode func(step) T) []T {
	var inputs []T
	var shared [2]*T // by step.apply, in sharedInputs mode
	for _, s := range op.steps {
		if mode == perStepInputs {
			inputs = append(inputs, decode(s))
			continue
		}
		i := 0
		if s.apply {
			i = 1
		}
		if shared[i] == nil {
			in := decode(s)
			shared[i] = &in
		}
		inputs = append(inputs, *shared[i])
	}
	return inputs
}

// runner runs one operation sequence from scratch.
type runner interface {
	run() error
	// result runs the sequence and returns its end state.
	result() (result, error)
	// trace runs the sequence and returns what each step was given.
	trace() ([]stepCall, error)
}

// stepCall is what one step of an operation was given: the step, the live
// object and the input as canonical JSON, and how many of the input's lists
// and maps are nodes of the live object or of an earlier step's input.
type stepCall struct {
	step        step
	live, input string
	shared      int
}

type engine interface {
	name() string
	// prepare takes w's schema, parsed once and shared (smdParser,
	// smSchema), and decodes and validates w's object once per step
	// (perStepInputs) or once per kind of step (sharedInputs).
	prepare(tb testing.TB, w workload, op operation, mode inputMode) runner
}

var engines = []engine{smdEngine{}, structmergeEngine{}}

// benchOperations runs every operation of ops on every workload and both
// engines, with inputs given as mode says. Each iteration starts from no
// object; the inputs are prepared outside the timed loop.
func benchOperations(b *testing.B, ops []operation, mode inputMode) {
	for _, w := range workloads {
		for _, op := range ops {
			for _, e := range engines {
				b.Run(w.name+"/"+op.name+"/"+e.name(), func(b *testing.B) {
					r := e.prepare(b, w, op, mode)
					bench(b, r.run)
				})
			}
		}
	}
}

// BenchmarkOperations is the reference's BenchmarkOperations, run on both
// engines side by side, each step writing its own separately decoded and
// validated object.
func BenchmarkOperations(b *testing.B) {
	benchOperations(b, operations, perStepInputs)
}

// reapplyOperations are the operations with more than one step, where
// sharing one input between the steps makes a difference.
func reapplyOperations() []operation {
	var ops []operation
	for _, op := range operations {
		if len(op.steps) > 1 {
			ops = append(ops, op)
		}
	}
	return ops
}

// BenchmarkInMemoryReapply is BenchmarkOperations' multi-step rows with one
// in-memory input shared by the steps (sharedInputs): the second step
// re-writes the object the first left live, as a controller that keeps its
// last result in memory does. Structmerge's comparison recognises the
// shared object at the root; SMD walks it. These rows show that shortcut;
// they are not requests as an API server sees them, and benchcmp keeps them
// out of its means.
func BenchmarkInMemoryReapply(b *testing.B) {
	benchOperations(b, reapplyOperations(), sharedInputs)
}

// TestOperationsAgree runs every workload once on both engines, with each
// input mode, and checks that they end with the same object and managers.
func TestOperationsAgree(t *testing.T) {
	for _, w := range workloads {
		for _, m := range []struct {
			name string
			mode inputMode
			ops  []operation
		}{{"", perStepInputs, operations}, {"InMemoryReapply/", sharedInputs, reapplyOperations()}} {
			for _, op := range m.ops {
				t.Run(m.name+w.name+"/"+op.name, func(t *testing.T) {
					var results [2]result
					for i, e := range engines {
						res, err := e.prepare(t, w, op, m.mode).result()
						if err != nil {
							t.Fatalf("%s: %v", e.name(), err)
						}
						results[i] = res
					}
					compareResults(t, results[0], results[1])
				})
			}
		}
	}
}

// TestOperationsEqualWork checks that the engines of a BenchmarkOperations
// row are given the same work: the same steps in the same order, each with
// the same live object and the same input (the workload's object), and
// that with perStepInputs no input shares a list or map with the live
// object or an earlier input (so no step can be answered by recognising
// its input as something it has seen). With sharedInputs the second step's
// input must be found shared, which shows that the check can see sharing.
func TestOperationsEqualWork(t *testing.T) {
	for _, w := range workloads {
		want, err := value.FromYAML(readTestdata(t, w.objectFile))
		if err != nil {
			t.Fatal(err)
		}
		wantJSON := string(value.ToJSON(want))
		for _, op := range operations {
			t.Run(w.name+"/"+op.name, func(t *testing.T) {
				var traces [2][]stepCall
				for i, e := range engines {
					calls, err := e.prepare(t, w, op, perStepInputs).trace()
					if err != nil {
						t.Fatalf("%s: %v", e.name(), err)
					}
					if len(calls) != len(op.steps) {
						t.Fatalf("%s: %d steps ran, want %d", e.name(), len(calls), len(op.steps))
					}
					for j, c := range calls {
						if c.step != op.steps[j] {
							t.Errorf("%s: step %d is %+v, want %+v", e.name(), j, c.step, op.steps[j])
						}
						if c.input != wantJSON {
							t.Errorf("%s: step %d's input is not the workload's object: %.200s", e.name(), j, c.input)
						}
						if c.shared != 0 {
							t.Errorf("%s: step %d's input shares %d lists or maps with the live object or an earlier input", e.name(), j, c.shared)
						}
					}
					traces[i] = calls
				}
				for j := range traces[0] {
					if traces[0][j].live != traces[1][j].live {
						t.Errorf("step %d starts from different live objects:\nsmd:         %.300s\nstructmerge: %.300s", j, traces[0][j].live, traces[1][j].live)
					}
				}
			})
		}
		if w.name != "Pod" {
			continue // one workload is enough to show the check sees sharing
		}
		for _, op := range reapplyOperations() {
			t.Run("InMemoryReapply/"+w.name+"/"+op.name, func(t *testing.T) {
				for _, e := range engines {
					calls, err := e.prepare(t, w, op, sharedInputs).trace()
					if err != nil {
						t.Fatalf("%s: %v", e.name(), err)
					}
					if len(calls) < 2 || calls[1].shared == 0 {
						t.Errorf("%s: the second step's input is not seen as shared", e.name())
					}
				}
			})
		}
	}
}

// result is the end state in a comparable form: canonical JSON of the
// object and the managers' FieldsV1 in name order.
type result struct {
	object, managers string
}

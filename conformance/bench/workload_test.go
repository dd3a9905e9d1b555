package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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

// runner runs one operation sequence from scratch.
type runner interface {
	run() error
}

type engine interface {
	name() string
	// prepare parses the schema and the object once.
	prepare(tb testing.TB, schemaYAML []byte, typeName string, objectYAML []byte, op operation) runner
}

var engines = []engine{smdEngine{}, structmergeEngine{}}

// BenchmarkOperations is the reference's BenchmarkOperations, run on both
// engines side by side.
func BenchmarkOperations(b *testing.B) {
	for _, w := range workloads {
		schemaYAML := readTestdata(b, w.schemaFile)
		objectYAML := readTestdata(b, w.objectFile)
		for _, op := range operations {
			for _, e := range engines {
				b.Run(w.name+"/"+op.name+"/"+e.name(), func(b *testing.B) {
					r := e.prepare(b, schemaYAML, w.typeName, objectYAML, op)
					if err := r.run(); err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					b.ResetTimer()
					for n := 0; n < b.N; n++ {
						if err := r.run(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// TestOperationsAgree runs every workload once on both engines and checks
// that they end with the same object and managers, so the benchmark
// compares equal work.
func TestOperationsAgree(t *testing.T) {
	for _, w := range workloads {
		schemaYAML := readTestdata(t, w.schemaFile)
		objectYAML := readTestdata(t, w.objectFile)
		for _, op := range operations {
			t.Run(w.name+"/"+op.name, func(t *testing.T) {
				var results [2]result
				for i, e := range engines {
					r := e.prepare(t, schemaYAML, w.typeName, objectYAML, op)
					res, err := r.(resulter).result()
					if err != nil {
						t.Fatalf("%s: %v", e.name(), err)
					}
					results[i] = res
				}
				if results[0].object != results[1].object {
					t.Errorf("objects differ:\nsmd:         %.300s\nstructmerge: %.300s", results[0].object, results[1].object)
				}
				if results[0].managers != results[1].managers {
					t.Errorf("managers differ:\nsmd:         %.500s\nstructmerge: %.500s", results[0].managers, results[1].managers)
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

type resulter interface {
	result() (result, error)
}

package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

var update = flag.Bool("update", false, "rewrite the generated files of examples/live")

// liveHistory is one history of testdata/live-history.yaml: the writes
// after which an API server holds the live object of examples/live/File.
type liveHistory struct {
	File   string         `json:"file"`
	Writes []exampleWrite `json:"writes"`
}

type exampleWrite struct {
	Op          string         `json:"op"`
	Manager     string         `json:"manager"`
	Subresource string         `json:"subresource"`
	At          string         `json:"at"`
	Object      map[string]any `json:"object"`
}

// liveHistories reads testdata/live-history.yaml.
func liveHistories(t *testing.T) []liveHistory {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "live-history.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hs []liveHistory
	if err := yaml.UnmarshalStrict(data, &hs); err != nil {
		t.Fatalf("testdata/live-history.yaml: %v", err)
	}
	if len(hs) == 0 {
		t.Fatal("testdata/live-history.yaml has no history")
	}
	return hs
}

// generateLive runs the history of one live object.
func generateLive(t *testing.T, writes []exampleWrite) []byte {
	t.Helper()
	ty, err := (&inputFlags{}).types()
	if err != nil {
		t.Fatal(err)
	}
	var live value.Value
	for i, w := range writes {
		at, err := time.Parse(time.RFC3339, w.At)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ty.server(at)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := value.FromUnstructured(w.Object)
		if err != nil {
			t.Fatal(err)
		}
		var res value.Value
		opts := []kube.RequestOption{kube.Subresource(w.Subresource)}
		if w.Op == "apply" {
			res, err = m.Apply(live, obj, w.Manager, opts...)
		} else {
			if w.Subresource == "status" {
				// The status subresource takes the whole object.
				obj = withStatus(live, obj)
			}
			res, err = m.Update(live, obj, w.Manager, opts...)
		}
		if err != nil {
			t.Fatalf("%s by %s: %v", w.Op, w.Manager, err)
		}
		live = serverMetadata(res, i, writes[0].At)
	}
	return value.ToYAML(live)
}

// withStatus returns live with the status of obj.
func withStatus(live, obj value.Value) value.Value {
	st, _ := obj.Get("status")
	var fields []value.Field
	for _, f := range live.Fields() {
		if f.Name != "status" {
			fields = append(fields, f)
		}
	}
	return value.NewMap(append(fields, value.Field{Name: "status", Value: st}))
}

func TestExamplesLive(t *testing.T) {
	for _, h := range liveHistories(t) {
		got := generateLive(t, h.Writes)
		path := filepath.Join("..", "..", "examples", "live", h.File)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./internal/cli -run TestExamplesLive -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what its history generates; run go test ./internal/cli -run TestExamplesLive -update\ngot:\n%s", path, got)
		}
	}
}

// serverMetadata sets the metadata the API server sets (outside the field
// manager and its storage): uid and creationTimestamp at creation, and a
// resourceVersion per write.
func serverMetadata(obj value.Value, write int, created string) value.Value {
	md, _ := obj.Get("metadata")
	set := map[string]value.Value{
		"uid":               value.NewString("6f1e1b52-0c3a-4d57-9a41-" + fmt.Sprintf("%012d", len(str(obj, "kind")))),
		"creationTimestamp": value.NewString(created),
		"resourceVersion":   value.NewString(strconv.Itoa(48213 + write)),
	}
	var fs []value.Field
	for _, f := range md.Fields() {
		if _, ok := set[f.Name]; !ok {
			fs = append(fs, f)
		}
	}
	for _, name := range []string{"creationTimestamp", "generation", "resourceVersion", "uid"} {
		if v, ok := set[name]; ok {
			fs = append(fs, value.Field{Name: name, Value: v})
		}
	}
	return withField(obj, "metadata", value.NewMap(fs))
}

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

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

var update = flag.Bool("update", false, "rewrite the generated files of examples/live")

// The live objects of examples/live are what an API server holds after a
// history of writes; they are generated with the field manager so that
// their managedFields are exactly an API server's.
var liveHistory = []struct {
	file   string
	writes []exampleWrite
}{
	{"deployment.yaml", []exampleWrite{
		{op: "apply", manager: "kubectl", at: "2026-01-05T09:00:00Z", doc: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 80, name: http}]
`},
		{op: "update", manager: "kube-controller-manager", subresource: "status", at: "2026-01-05T09:00:05Z", doc: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
status: {observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3}
`},
		{op: "update", manager: "kube-controller-manager", subresource: "scale", at: "2026-01-06T14:30:00Z", doc: `
apiVersion: autoscaling/v1
kind: Scale
metadata: {name: web, namespace: default}
spec: {replicas: 5}
`},
	}},
	{"service.yaml", []exampleWrite{
		{op: "apply", manager: "kubectl", at: "2026-01-05T09:00:00Z", doc: `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`},
		{op: "update", manager: "kubectl-label", at: "2026-01-07T11:00:00Z", doc: `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default, labels: {team: storefront}}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`},
	}},
}

type exampleWrite struct {
	op, manager, subresource, at, doc string
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
		at, err := time.Parse(time.RFC3339, w.at)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ty.server(at)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := value.FromYAML([]byte(w.doc))
		if err != nil {
			t.Fatal(err)
		}
		var res value.Value
		opts := []kube.RequestOption{kube.Subresource(w.subresource)}
		if w.op == "apply" {
			res, err = m.Apply(live, obj, w.manager, opts...)
		} else {
			if w.subresource == "status" {
				// The status subresource takes the whole object.
				obj = withStatus(live, obj)
			}
			res, err = m.Update(live, obj, w.manager, opts...)
		}
		if err != nil {
			t.Fatalf("%s by %s: %v", w.op, w.manager, err)
		}
		live = serverMetadata(res, i, writes[0].at)
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
	for _, h := range liveHistory {
		got := generateLive(t, h.writes)
		path := filepath.Join("..", "..", "examples", "live", h.file)
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

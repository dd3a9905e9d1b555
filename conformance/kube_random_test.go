package conformance

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/value"
)

// The randomized differential test of package kube: each case starts from
// a real manifest, runs a few writes (applies, forced applies, updates of
// the main resource, the status and the scale subresource) built by
// mutating the manifest or the live object (fields added, removed and
// changed, list items added and removed, labels and annotations), by a few
// managers, on apimachinery's field manager and on package kube from the
// same state, and requires the same outcome: the same object, managedFields
// times and order included, or the same error (conflict messages
// identical).
//
//	go test -run KubernetesRandom -kube-seed 7 -kube-cases 20000
var (
	kubeSeedFlag  = flag.Uint64("kube-seed", 0, "seed of TestKubernetesRandomDifferential (0: $KUBE_SEED, else a fixed default)")
	kubeCasesFlag = flag.Int("kube-cases", 2500, "number of cases TestKubernetesRandomDifferential generates")
)

const kubeDefaultSeed = 0x6b756265

func kubeSeed(t *testing.T) uint64 {
	if *kubeSeedFlag != 0 {
		return *kubeSeedFlag
	}
	if s := os.Getenv("KUBE_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("KUBE_SEED=%q: %v", s, err)
		}
		return n
	}
	return kubeDefaultSeed
}

// randomManifests are the starting points, real objects of several kinds.
var randomManifests = []string{`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web, tier: frontend}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: web}, annotations: {prometheus.io/scrape: "true"}}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - {containerPort: 80, name: http}
        - {containerPort: 443, name: https, protocol: TCP}
        env:
        - {name: MODE, value: prod}
        - {name: LOG, value: info}
        resources: {limits: {cpu: 500m, memory: 128Mi}}
      - name: sidecar
        image: envoy:1.30
        args: [--config, /etc/envoy.yaml]
      volumes:
      - {name: config, configMap: {name: web-config}}
      tolerations:
      - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
`, `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  type: ClusterIP
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: dns, port: 53, protocol: UDP}
  - {name: dns-tcp, port: 53, protocol: TCP}
`, `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default, annotations: {owner: team-a}}
data: {color: blue, size: large, "app.properties": "a=1\nb=2"}
`, `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {app: p}}
spec:
  restartPolicy: Always
  nodeSelector: {disktype: ssd}
  containers:
  - name: app
    image: busybox
    command: [sh, -c, sleep 3600]
    env:
    - {name: A, value: "1"}
    volumeMounts:
    - {name: data, mountPath: /data}
  volumes:
  - {name: data, emptyDir: {}}
`, `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - {name: db, image: "postgres:16", ports: [{containerPort: 5432}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`}

// widgetManifest is a custom resource of testdata's Widget CRD.
const widgetManifest = `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default, labels: {app: w}}
spec:
  replicas: 2
  size: large
  ports:
  - {name: http, port: 80}
  - {name: http, protocol: UDP, port: 8080}
  tags: [blue, green]
  selector: {app: w}
  config:
    logging: {level: debug}
    features: [a, b]
`

var randomManagers = []string{"kubectl", "helm", "controller", "autoscaler", "operator", ""}

// kubeGen draws the writes of one case.
type kubeGen struct {
	r *rand.Rand
	n int // a counter for fresh names and values
}

func (g *kubeGen) fresh(prefix string) string {
	g.n++
	return prefix + strconv.Itoa(g.n)
}

// mutate returns a copy of obj with a few random changes below its
// metadata (labels, annotations) and spec or data; the changes keep the
// object valid for its schema.
func (g *kubeGen) mutate(obj map[string]any, changes int) map[string]any {
	out := cloneAny(obj).(map[string]any)
	for i := 0; i < changes; i++ {
		g.change(out)
	}
	return out
}

func (g *kubeGen) change(obj map[string]any) {
	md, _ := obj["metadata"].(map[string]any)
	switch g.r.IntN(6) {
	case 0, 1:
		key := "labels"
		if g.r.IntN(2) == 0 {
			key = "annotations"
		}
		if md == nil {
			return
		}
		m, _ := md[key].(map[string]any)
		if m == nil {
			m = map[string]any{}
			md[key] = m
		}
		g.changeMap(m, []string{"app", "tier", "team", "env"})
		if len(m) == 0 && g.r.IntN(2) == 0 {
			delete(md, key)
		}
	default:
		for _, top := range []string{"spec", "data"} {
			if v, ok := obj[top]; ok {
				if nv, keep := g.changeValue(v, 0); keep {
					obj[top] = nv
				} else {
					delete(obj, top)
				}
				return
			}
		}
	}
}

func (g *kubeGen) changeMap(m map[string]any, names []string) {
	keys := sortedKeys(m)
	switch {
	case len(keys) > 0 && g.r.IntN(3) == 0:
		delete(m, keys[g.r.IntN(len(keys))])
	case len(keys) > 0 && g.r.IntN(2) == 0:
		m[keys[g.r.IntN(len(keys))]] = g.fresh("v")
	default:
		m[names[g.r.IntN(len(names))]] = g.fresh("v")
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// changeValue changes v somewhere below it; keep is false when v itself
// should be removed.
func (g *kubeGen) changeValue(v any, depth int) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		keys := sortedKeys(x)
		if len(keys) == 0 {
			return x, g.r.IntN(2) == 0
		}
		k := keys[g.r.IntN(len(keys))]
		if depth > 0 && g.r.IntN(6) == 0 {
			return x, false
		}
		nv, keep := g.changeValue(x[k], depth+1)
		if keep {
			x[k] = nv
		} else {
			delete(x, k)
		}
		return x, true
	case []any:
		if len(x) == 0 {
			return x, false
		}
		i := g.r.IntN(len(x))
		switch g.r.IntN(4) {
		case 0:
			// Remove an item.
			return append(x[:i:i], x[i+1:]...), true
		case 1:
			// Add an item like an existing one, under a fresh key, or
			// now and then the same item again (a duplicate key).
			if g.r.IntN(15) == 0 {
				return append(x, cloneAny(x[i])), true
			}
			item := g.rekey(cloneAny(x[i]))
			if item == nil {
				return x, true
			}
			return append(x, item), true
		default:
			nv, keep := g.changeValue(x[i], depth+1)
			if !keep {
				return append(x[:i:i], x[i+1:]...), true
			}
			if s, ok := nv.(string); ok {
				// A member of a list of strings: keep the list free of duplicates.
				if slices.Contains(x, any(s)) {
					return x, true
				}
			}
			x[i] = nv
			return x, true
		}
	case string:
		switch x {
		case "TCP", "UDP", "RollingUpdate", "ClusterIP", "Always", "Equal", "NoSchedule", "ReadWriteOnce":
			return x, true
		}
		return g.fresh("s"), true
	case int64:
		return int64(g.r.IntN(20) + 1), true
	case float64:
		return float64(g.r.IntN(20) + 1), true
	case bool:
		return !x, true
	}
	return v, true
}

// rekey gives a list item fresh values for the fields that key such lists
// (name, containerPort, port, mountPath, key), or returns nil for items of
// lists keyed otherwise.
func (g *kubeGen) rekey(item any) any {
	switch x := item.(type) {
	case map[string]any:
		changed := false
		for _, k := range []string{"name", "mountPath", "key"} {
			if _, ok := x[k]; ok {
				x[k] = g.fresh("k")
				changed = true
			}
		}
		for _, k := range []string{"containerPort", "port"} {
			if _, ok := x[k]; ok {
				x[k] = int64(1000 + g.r.IntN(50000))
				changed = true
			}
		}
		if !changed {
			return nil
		}
		return x
	case string:
		return g.fresh("s")
	}
	return nil
}

func cloneAny(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneAny(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneAny(e)
		}
		return out
	}
	return v
}

// withoutManagedFields returns a copy of obj without metadata.managedFields.
func withoutManagedFields(obj map[string]any) map[string]any {
	out := cloneAny(obj).(map[string]any)
	if md, ok := out["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
	return out
}

// op draws one write given the manifest and the live object (nil when
// there is none yet).
func (g *kubeGen) op(manifest, live map[string]any) scenario.KubernetesOperation {
	op := scenario.KubernetesOperation{Manager: randomManagers[g.r.IntN(len(randomManagers))]}
	kind, _ := manifest["kind"].(string)
	scalable := kind == "Deployment" || kind == "StatefulSet" || kind == "Widget"
	statusful := kind != "ConfigMap"
	switch k := g.r.IntN(10); {
	case live != nil && scalable && k == 0:
		op.Subresource = "scale"
		md := manifest["metadata"].(map[string]any)
		op.Object = map[string]any{
			"apiVersion": "autoscaling/v1", "kind": "Scale",
			"metadata": map[string]any{"name": md["name"], "namespace": md["namespace"]},
			"spec":     map[string]any{"replicas": int64(g.r.IntN(4))},
		}
		op.Op = []string{scenario.OpUpdate, scenario.OpApply, scenario.OpForceApply}[g.r.IntN(3)]
		return op
	case live != nil && statusful && k == 1:
		op.Subresource = "status"
		obj := withoutManagedFields(live)
		status := map[string]any{"replicas": int64(g.r.IntN(4))}
		if kind == "Pod" || kind == "Service" {
			status = map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": []string{"True", "False"}[g.r.IntN(2)]}}}
		}
		if g.r.IntN(3) == 0 {
			obj = g.mutate(obj, 1)
		}
		obj["status"] = status
		op.Object = obj
		op.Op = scenario.OpUpdate
		if g.r.IntN(3) == 0 {
			op.Op = scenario.OpApply
		}
		return op
	case live != nil && k < 5:
		op.Op = scenario.OpUpdate
		op.Object = g.mutate(withoutManagedFields(live), 1+g.r.IntN(3))
		return op
	}
	op.Op = scenario.OpApply
	if g.r.IntN(4) == 0 {
		op.Op = scenario.OpForceApply
	}
	op.Object = g.mutate(manifest, g.r.IntN(4))
	return op
}

func TestKubernetesRandomDifferential(t *testing.T) {
	seed := kubeSeed(t)
	cases := *kubeCasesFlag
	if testing.Short() {
		cases /= 10
	}
	crd, err := os.ReadFile(filepath.Join(scenarioRoot, "kubernetes", "crds", "widget.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seed %#x, %d cases (rerun with -kube-seed %#x)", seed, cases, seed)
	// Nine cases in ten on built-in kinds, one on a custom resource.
	runRandomKube(t, seed, 0, cases-cases/10, nil, randomManifests)
	runRandomKube(t, seed, cases-cases/10, cases, []scenario.Source{{File: "widget.yaml", Text: crd}}, []string{widgetManifest})
}

// runRandomKube runs cases [from, to) on the manifests.
func runRandomKube(t *testing.T, seed uint64, from, to int, crds []scenario.Source, texts []string) {
	t.Helper()
	ref, err := refKube.CompileKubernetes(crds)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := oursKube.CompileKubernetes(crds)
	if err != nil {
		t.Fatal(err)
	}
	manifests := make([]map[string]any, len(texts))
	for i, s := range texts {
		v, err := value.FromYAML([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		manifests[i] = v.Unstructured().(map[string]any)
	}
	var ops, failedSteps, conflictsSeen int
	errorsSeen := map[string]int{}
	for c := from; c < to; c++ {
		g := &kubeGen{r: rand.New(rand.NewPCG(seed, uint64(c)))}
		manifest := manifests[g.r.IntN(len(manifests))]
		state := scenario.State{}
		steps := 1 + g.r.IntN(6)
		var trace []string
		for i := 0; i < steps; i++ {
			var live map[string]any
			if state.HasObject {
				live = state.Object.(map[string]any)
			}
			op := g.op(manifest, live)
			op.Time = scenario.StepTime(i)
			trace = append(trace, fmt.Sprintf("%s %s by %q", op.Op, op.Subresource, op.Manager))
			want, werr := ref.Do(state, op)
			got, gerr := ours.Do(state, op)
			ops++
			if d := compareOutcome(want, werr, got, gerr); d != "" {
				v, _ := value.FromUnstructured(op.Object)
				s, _ := value.FromUnstructured(state.Object)
				t.Fatalf("case %d (seed %#x), step %d of %v: %s\nlive: %s\nsent: %s", c, seed, i+1, trace, d, value.ToJSON(s), value.ToJSON(v))
			}
			if werr != nil {
				failedSteps++
				if _, ok := werr.(*scenario.ConflictsError); ok {
					conflictsSeen++
				} else {
					msg := werr.Error()
					if len(msg) > 60 {
						msg = msg[:60]
					}
					errorsSeen[msg]++
				}
				continue
			}
			state = want
		}
	}
	t.Logf("cases %d to %d: %d writes, %d failed (%d with conflicts)", from, to, ops, failedSteps, conflictsSeen)
	for _, msg := range sortedKeys(anyMap(errorsSeen)) {
		t.Logf("%5d errors like %q", errorsSeen[msg], msg)
	}
}

func anyMap(m map[string]int) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

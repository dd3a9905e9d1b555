package kube_test

import (
	"os"
	"sync"
	"testing"
	"time"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// testKinds maps the kinds of testdata/k8s.yaml to their type names.
var testKinds = map[kube.GroupVersionKind]string{
	{Version: "v1", Kind: "Pod"}:                         "io.k8s.api.core.v1.Pod",
	{Version: "v1", Kind: "Service"}:                     "io.k8s.api.core.v1.Service",
	{Version: "v1", Kind: "ConfigMap"}:                   "io.k8s.api.core.v1.ConfigMap",
	{Version: "v1", Kind: "Secret"}:                      "io.k8s.api.core.v1.Secret",
	{Version: "v1", Kind: "Namespace"}:                   "io.k8s.api.core.v1.Namespace",
	{Version: "v1", Kind: "Node"}:                        "io.k8s.api.core.v1.Node",
	{Version: "v1", Kind: "PersistentVolume"}:            "io.k8s.api.core.v1.PersistentVolume",
	{Version: "v1", Kind: "PersistentVolumeClaim"}:       "io.k8s.api.core.v1.PersistentVolumeClaim",
	{Group: "apps", Version: "v1", Kind: "Deployment"}:   "io.k8s.api.apps.v1.Deployment",
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}:  "io.k8s.api.apps.v1.StatefulSet",
	{Group: "apps", Version: "v1", Kind: "DaemonSet"}:    "io.k8s.api.apps.v1.DaemonSet",
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"}:   "io.k8s.api.apps.v1.ReplicaSet",
	{Group: "batch", Version: "v1", Kind: "Job"}:         "io.k8s.api.batch.v1.Job",
	{Group: "autoscaling", Version: "v1", Kind: "Scale"}: "io.k8s.api.autoscaling.v1.Scale",
}

var (
	resolverOnce sync.Once
	resolver     kube.TypeResolver
	resolverErr  error
)

// testResolver compiles testdata/k8s.yaml once per test binary.
func testResolver(t testing.TB) kube.TypeResolver {
	t.Helper()
	resolverOnce.Do(func() {
		data, err := os.ReadFile("testdata/k8s.yaml")
		if err != nil {
			resolverErr = err
			return
		}
		s, err := schema.CompileYAML(data)
		if err != nil {
			resolverErr = err
			return
		}
		resolver, resolverErr = kube.NewSchemaResolver(s, testKinds)
	})
	if resolverErr != nil {
		t.Fatal(resolverErr)
	}
	return resolver
}

// stepClock returns a clock that starts at 2020-01-01T00:00:00Z and moves
// one second each time it is read.
func stepClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now := t
		t = t.Add(time.Second)
		return now
	}
}

func newManager(t testing.TB, opts ...kube.Option) *kube.FieldManager {
	t.Helper()
	m, err := kube.NewFieldManager(testResolver(t), append([]kube.Option{kube.WithClock(stepClock())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func yv(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.FromYAML([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

package kube_test

import (
	"sync"
	"testing"
	"time"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

// testResolver resolves the built-in kinds of Kubernetes.
func testResolver(t testing.TB) kube.TypeResolver {
	t.Helper()
	return kube.BuiltinTypes()
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

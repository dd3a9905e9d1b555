package stress

import (
	"testing"
	"time"

	"github.com/structmerge/structmerge/value"
)

func TestTmpDeep(t *testing.T) {
	for _, n := range []int{1000, 100000, 1000000} {
		var x any = "leaf"
		for range n {
			x = map[string]any{"a": x}
		}
		st := time.Now()
		_, err := value.FromUnstructured(x)
		t.Logf("depth %d: %v in %v", n, err, time.Since(st))
	}
}

func TestTmpCycle(t *testing.T) {
	m := map[string]any{}
	m["a"] = m
	_, err := value.FromUnstructured(m)
	t.Logf("cycle: %v", err)
}

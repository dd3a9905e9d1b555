package bench

import (
	"testing"

	"github.com/structmerge/structmerge/value"
)

// BenchmarkKubeBoundary prices the conversions at the boundary of the end
// to end table against their limit, a plain recursive walk of the same
// map[string]any tree: FromUnstructured against a walk that reads every
// key and value, Unstructured() against a walk that builds the same tree
// anew (one map and slice per node, as Unstructured does). The objects
// are the stored objects of BenchmarkKubeEndToEnd. Neither side modifies
// its input, so one input serves every iteration.
func BenchmarkKubeBoundary(b *testing.B) {
	s := kubeE2E(b)
	for _, o := range s.objects {
		obj := decodeJSON(b, o.stored)
		v, err := value.FromUnstructured(obj)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("FromUnstructured/"+o.name+"/walk", func(b *testing.B) {
			bench(b, func() error {
				sinkInt += readWalk(obj)
				return nil
			})
		})
		b.Run("FromUnstructured/"+o.name+"/structmerge", func(b *testing.B) {
			bench(b, func() error {
				_, err := value.FromUnstructured(obj)
				return err
			})
		})
		b.Run("Unstructured/"+o.name+"/walk", func(b *testing.B) {
			bench(b, func() error {
				sinkAny = copyWalk(obj)
				return nil
			})
		})
		b.Run("Unstructured/"+o.name+"/structmerge", func(b *testing.B) {
			bench(b, func() error {
				sinkAny = v.Unstructured()
				return nil
			})
		})
	}
	benchKubeBoundaryStruct(b, s) // FromStruct/..., ToStruct/..., kube_boundary_struct_test.go
}

var (
	sinkInt int
	sinkAny any
)

// readWalk visits every node of x and returns a number that depends on
// all of them.
func readWalk(x any) int {
	switch t := x.(type) {
	case map[string]any:
		n := len(t)
		for k, v := range t {
			n += len(k) + readWalk(v)
		}
		return n
	case []any:
		n := len(t)
		for _, v := range t {
			n += readWalk(v)
		}
		return n
	case string:
		return len(t)
	case int64:
		return int(t & 1)
	case float64:
		return int(t) & 1
	case bool:
		if t {
			return 1
		}
		return 0
	}
	return 0
}

// copyWalk builds a new tree equal to x.
func copyWalk(x any) any {
	switch t := x.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, v := range t {
			m[k] = copyWalk(v)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, v := range t {
			l[i] = copyWalk(v)
		}
		return l
	}
	return x
}

// TestKubeBoundaryWalks checks that the limit walks do the work they
// stand for: the copy equals the original and shares no map with it, and
// the read walk sees every node.
func TestKubeBoundaryWalks(t *testing.T) {
	s := kubeE2E(t)
	for _, o := range s.objects {
		obj := decodeJSON(t, o.stored)
		c := copyWalk(obj).(map[string]any)
		c["e2e-probe"] = true
		if _, ok := obj["e2e-probe"]; ok {
			t.Errorf("%s: the copy shares its root with the original", o.name)
		}
		delete(c, "e2e-probe")
		cv, err := value.FromUnstructured(c)
		if err != nil {
			t.Fatal(err)
		}
		ov, err := value.FromUnstructured(obj)
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(cv, ov) {
			t.Errorf("%s: the copy differs from the original", o.name)
		}
		before := readWalk(obj)
		metadataOf(obj)["e2e-probe"] = "x"
		if readWalk(obj) == before {
			t.Errorf("%s: the read walk does not see a new field", o.name)
		}
	}
}

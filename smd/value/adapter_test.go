package value_test

import (
	"sync"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// TestNumbersAndOrder: JSON numbers are float64 as in SMD, integers and
// floats compare numerically, and kinds order numbers < strings < booleans
// < lists < maps < null.
func TestNumbersAndOrder(t *testing.T) {
	v, err := value.FromJSON([]byte(`{"a":1,"b":[2.5,"x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v.Unstructured().(map[string]interface{})["a"].(float64); !ok {
		t.Errorf("a JSON integer is %T, want float64", v.Unstructured().(map[string]interface{})["a"])
	}
	if !value.Equals(value.NewValueInterface(1), value.NewValueInterface(1.0)) {
		t.Error("1 and 1.0 differ")
	}
	order := []interface{}{1, 2.5, "a", false, true, []interface{}{}, map[string]interface{}{}, nil}
	for i := range order {
		for j := range order {
			got := value.Compare(value.NewValueInterface(order[i]), value.NewValueInterface(order[j]))
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
}

// TestConcurrentReads compares and prints one shared value from many
// goroutines; under -race this shows nothing is written.
func TestConcurrentReads(t *testing.T) {
	v, err := value.FromJSON([]byte(`{"spec":{"containers":[{"name":"a","ports":[1,2]}],"x":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := value.ToString(v)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if value.ToString(v) != want || !value.Equals(v, v) || value.Compare(v, v) != 0 {
					t.Error("a shared value read differently")
					return
				}
			}
		})
	}
	wg.Wait()
}

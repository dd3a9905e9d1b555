package value_test

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
)

// TestConcurrentUse runs the read-only operations from 8 goroutines on one
// shared value and shared input bytes; run it with -race.
func TestConcurrentUse(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	fields := make([]value.Field, 20)
	for i := range fields {
		fields[i] = value.Field{Name: valuetest.Names[i%len(valuetest.Names)] + string(rune('a'+i)), Value: valuetest.Random(r, 4)}
	}
	shared := value.NewMap(fields)
	other := valuetest.Mutate(r, shared)
	wantJSON := value.ToJSON(shared)
	wantYAML := value.ToYAML(shared)
	wantIndent := value.AppendJSONIndent(nil, shared, "", "  ")
	wantCmp := value.Compare(shared, other)
	wantText := value.Text(shared)
	snapshotJSON, snapshotYAML := bytes.Clone(wantJSON), bytes.Clone(wantYAML)

	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				if got := value.ToJSON(shared); !bytes.Equal(got, wantJSON) {
					errs <- "ToJSON differs"
					return
				}
				if got := value.AppendJSONIndent(nil, shared, "", "  "); !bytes.Equal(got, wantIndent) {
					errs <- "AppendJSONIndent differs"
					return
				}
				if (g+i)%5 == 0 {
					if got := value.ToYAML(shared); !bytes.Equal(got, wantYAML) {
						errs <- "ToYAML differs"
						return
					}
					v, err := value.FromYAML(wantYAML)
					if err != nil || !value.Equal(v, shared) {
						errs <- "FromYAML differs"
						return
					}
				}
				v, err := value.FromJSON(wantJSON)
				if err != nil || !value.Equal(v, shared) {
					errs <- "FromJSON differs"
					return
				}
				if value.Compare(shared, other) != wantCmp || value.Compare(other, shared) != -wantCmp {
					errs <- "Compare differs"
					return
				}
				if value.Text(shared) != wantText {
					errs <- "Text differs"
					return
				}
				u, err := value.FromUnstructured(shared.Unstructured())
				if err != nil || !value.Equal(u, shared) {
					errs <- "Unstructured round trip differs"
					return
				}
				for _, f := range shared.Fields() {
					if got, ok := shared.Get(f.Name); !ok || !value.Equal(got, f.Value) {
						errs <- "Get differs"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if !bytes.Equal(wantJSON, snapshotJSON) || !bytes.Equal(wantYAML, snapshotYAML) {
		t.Error("decoding modified its shared input")
	}
	if !bytes.Equal(value.ToJSON(shared), wantJSON) {
		t.Error("the shared value changed")
	}
}

package openapi

import (
	"bytes"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/schema"
)

// The converters share nothing between calls: eight goroutines converting
// the same inputs at once get the same results (run with -race).
func TestConcurrentConversions(t *testing.T) {
	var docs [][]byte
	for _, tc := range convertCases {
		docs = append(docs, v3Doc(tc.schemas))
	}
	crds := make([][]byte, len(crdCases))
	for i, tc := range crdCases {
		crds[i] = crd(tc.versions)
	}
	marshal := func(res *Result, err error) []byte {
		if err != nil {
			t.Error(err)
			return nil
		}
		y, err := schema.Marshal(res.Document)
		if err != nil {
			t.Error(err)
		}
		return y
	}
	var want [][]byte
	for _, d := range docs {
		want = append(want, marshal(FromV3(d)))
	}
	for _, c := range crds {
		want = append(want, marshal(FromCRD(c)))
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				for i, d := range docs {
					if got := marshal(FromV3(d)); !bytes.Equal(got, want[i]) {
						t.Error("FromV3 gave a different result")
					}
				}
				for i, c := range crds {
					if got := marshal(FromCRD(c)); !bytes.Equal(got, want[len(docs)+i]) {
						t.Error("FromCRD gave a different result")
					}
				}
			}
		}()
	}
	wg.Wait()
}

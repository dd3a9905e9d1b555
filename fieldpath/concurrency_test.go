package fieldpath_test

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/fieldpath/fieldpathtest"
)

// TestConcurrentUse runs set operations and encoding from 8 goroutines on
// shared sets (run it with -race) and checks every result against the one
// computed beforehand on a single goroutine.
func TestConcurrentUse(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 42))
	a := fieldpathtest.RandomSet(r, 60)
	b := fieldpathtest.RandomRelatedSet(r, a, 60)
	pod, _ := fieldpath.ParseFieldsV1(podFieldsV1(t))
	type result struct{ union, inter, diff, rdiff, leaves, enc, podEnc []byte }
	compute := func() result {
		return result{
			union:  a.Union(b).MarshalFieldsV1(),
			inter:  a.Intersection(b).MarshalFieldsV1(),
			diff:   a.Difference(b).MarshalFieldsV1(),
			rdiff:  a.RecursiveDifference(b).MarshalFieldsV1(),
			leaves: a.Leaves().MarshalFieldsV1(),
			enc:    a.MarshalFieldsV1(),
			podEnc: pod.Union(a).Difference(b).MarshalFieldsV1(),
		}
	}
	want := compute()
	var paths []fieldpath.Path
	for p := range b.All() {
		paths = append(paths, p.Copy())
	}

	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				got := compute()
				for _, c := range []struct {
					name      string
					got, want []byte
				}{
					{"union", got.union, want.union}, {"intersection", got.inter, want.inter},
					{"difference", got.diff, want.diff}, {"recursive difference", got.rdiff, want.rdiff},
					{"leaves", got.leaves, want.leaves}, {"encoding", got.enc, want.enc}, {"pod", got.podEnc, want.podEnc},
				} {
					if !bytes.Equal(c.got, c.want) {
						errs <- c.name + " differs under concurrency"
						return
					}
				}
				// Persistent inserts and parsing on shared inputs.
				s := a
				for _, p := range paths[(g+i)%len(paths):] {
					s = s.Insert(p)
				}
				if !s.Difference(a).Difference(b).Empty() {
					errs <- "insert produced paths from nowhere"
					return
				}
				if back, err := fieldpath.ParseFieldsV1(want.enc); err != nil || !bytes.Equal(back.MarshalFieldsV1(), want.enc) {
					errs <- "parse differs under concurrency"
					return
				}
				n := 0
				for p := range a.All() {
					if !a.Has(p) {
						errs <- "Has is false for a yielded path"
						return
					}
					n++
				}
				if n != a.Size() || a.String() == "" {
					errs <- "iteration differs under concurrency"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if !bytes.Equal(a.MarshalFieldsV1(), want.enc) {
		t.Error("a shared input was modified")
	}
}

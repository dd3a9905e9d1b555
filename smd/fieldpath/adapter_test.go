package fieldpath_test

import (
	"strings"
	"sync"
	"testing"

	corefieldpath "github.com/structmerge/structmerge/fieldpath"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

func sample() *fieldpath.Set {
	return fieldpath.NewSet(
		fieldpath.MakePathOrDie("spec", "replicas"),
		fieldpath.MakePathOrDie("spec", "containers", fieldpath.KeyByFields("name", "web")),
		fieldpath.MakePathOrDie("spec", "containers", fieldpath.KeyByFields("name", "web"), "image"),
		fieldpath.MakePathOrDie("spec", "ports", fieldpath.KeyByFields("port", 80, "protocol", "TCP"), "name"),
		fieldpath.MakePathOrDie("finalizers", value.NewValueInterface("a<b")),
		fieldpath.MakePathOrDie("args", 2),
		fieldpath.MakePathOrDie("metadata", "labels", "app.kubernetes.io/name"),
	)
}

// TestFieldsV1LikeStructmerge: the FieldsV1 form written here is byte for
// byte the one structmerge's fieldpath writes (which conformance tests
// against SMD), and reading it back gives the same set.
func TestFieldsV1LikeStructmerge(t *testing.T) {
	s := sample()
	got, err := s.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	core, err := corefieldpath.ParseFieldsV1(got)
	if err != nil {
		t.Fatal(err)
	}
	if want := core.MarshalFieldsV1(); string(got) != string(want) {
		t.Errorf("FieldsV1:\n got %s\nwant %s", got, want)
	}
	back := fieldpath.NewSet()
	if err := back.FromJSON(strings.NewReader(string(got))); err != nil {
		t.Fatal(err)
	}
	if !back.Equals(s) {
		t.Errorf("round trip:\n got %v\nwant %v", back, s)
	}
}

// TestResultsShareNothing: inserting into the result of an operation does
// not change its inputs.
func TestResultsShareNothing(t *testing.T) {
	a, b := sample(), fieldpath.NewSet(fieldpath.MakePathOrDie("spec", "paused"))
	u := a.Union(b)
	u.Insert(fieldpath.MakePathOrDie("spec", "containers", fieldpath.KeyByFields("name", "web"), "command"))
	u.Insert(fieldpath.MakePathOrDie("spec", "new"))
	if !a.Equals(sample()) || b.Size() != 1 {
		t.Errorf("Union's result shares nodes with its inputs:\n%v\n%v", a, b)
	}
}

// TestConcurrentReads runs the read-only operations from many goroutines
// on shared sets; under -race this shows they write nothing.
func TestConcurrentReads(t *testing.T) {
	a, b := sample(), fieldpath.NewSet(fieldpath.MakePathOrDie("spec", "replicas"), fieldpath.MakePathOrDie("status"))
	want, _ := a.Union(b).Difference(b).ToJSON()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				got, err := a.Union(b).Difference(b).ToJSON()
				if err != nil || string(got) != string(want) {
					t.Errorf("got %s, %v; want %s", got, err, want)
					return
				}
				_ = a.Has(fieldpath.MakePathOrDie("spec", "replicas"))
				_ = a.Leaves().Intersection(b).String()
				_ = a.RecursiveDifference(b).Size()
			}
		})
	}
	wg.Wait()
}

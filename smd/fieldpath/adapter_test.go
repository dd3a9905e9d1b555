package fieldpath_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/internal/bridge"
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

// TestResultsShareLikeSMD: the set operations leave their inputs as they
// were, and share with their result the child sets that they take whole
// from one input, as SMD's do (Kubernetes' field manager relies on that
// for speed: it takes the difference of every manager's set on every
// request): inserting below such a child of the result shows in the input
// too, inserting anywhere else does not.
func TestResultsShareLikeSMD(t *testing.T) {
	a, b := sample(), fieldpath.NewSet(fieldpath.MakePathOrDie("spec", "paused"))
	strip := fieldpath.NewSet(fieldpath.MakePathOrDie("status"))
	u, d, r := a.Union(b), a.Difference(strip), a.RecursiveDifference(strip)
	if !a.Equals(sample()) || b.Size() != 1 {
		t.Fatalf("an operation changed its inputs:\n%v\n%v", a, b)
	}
	for _, res := range []*fieldpath.Set{u, d, r} {
		res.Insert(fieldpath.MakePathOrDie("new"))
	}
	if !a.Equals(sample()) {
		t.Errorf("inserting a new member into a result changed the input:\n%v", a)
	}
	command := fieldpath.MakePathOrDie("metadata", "labels", "command")
	d.Insert(command)
	if !a.Has(command) {
		t.Errorf("Difference copied the child it took whole (SMD shares it)")
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

// TestIteratePathsAreKept: callers keep the paths Iterate gives them
// (k8s.io/apimachinery's conflict tests build expected conflicts so).
func TestIteratePathsAreKept(t *testing.T) {
	s := fieldpath.NewSet(
		fieldpath.MakePathOrDie("spec", "nodeName"),
		fieldpath.MakePathOrDie("spec", "nodeSelector"),
		fieldpath.MakePathOrDie("spec", "template", "spec", "containers", fieldpath.KeyByFields("name", "c"), "image"),
		fieldpath.MakePathOrDie("spec", "template", "spec", "containers", fieldpath.KeyByFields("name", "c"), "name"),
		fieldpath.MakePathOrDie("spec", "template", "spec"),
	)
	var kept []fieldpath.Path
	s.Iterate(func(p fieldpath.Path) { kept = append(kept, p) })
	var got []string
	for _, p := range kept {
		got = append(got, p.String())
	}
	want := []string{
		".spec.nodeName",
		".spec.nodeSelector",
		".spec.template.spec",
		`.spec.template.spec.containers[name="c"].image`,
		`.spec.template.spec.containers[name="c"].name`,
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("kept paths:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKeyErrorWords: a key that is not a JSON object is reported in the
// words of SMD's JSON reader, which callers match on; a null key is a key
// without fields, as in SMD. (The texts are SMD v6.4.2's.)
func TestKeyErrorWords(t *testing.T) {
	for in, want := range map[string]string{
		`k:{invalid json}`: `ReadObjectCB: expect " after {, but found i, error found in #2 byte of ...|{invalid jso|..., bigger context ...|{invalid json}|...`,
		`k:[1]`:            `ReadObjectCB: expect { or n, but found [, error found in #1 byte of ...|[1]|..., bigger context ...|[1]|...`,
		`k:{ invalid}`:     `ReadObjectCB: expect " after {, but found i, error found in #3 byte of ...|{ invalid}|..., bigger context ...|{ invalid}|...`,
		`k:`:               "ReadObjectCB: expect { or n, but found \x00, error found in #0 byte of ...||..., bigger context ...||...",
	} {
		_, err := fieldpath.DeserializePathElement(in)
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", in, err, want)
		}
	}
	pe, err := fieldpath.DeserializePathElement("k:null")
	if err != nil || pe.Key == nil || len(*pe.Key) != 0 {
		t.Errorf("k:null: %v, %v; want a key without fields", pe, err)
	}
}

// randomSet builds a set of paths through fields, keyed items, set items
// and indices, with names and values that JSON escapes (quotes,
// backslashes, HTML characters, U+2028, non-ASCII, control characters).
func randomSet(r *rand.Rand) *fieldpath.Set {
	names := []string{"a", "spec", "containers", "x<y>&z", `q"uote`, `back\slash`, "é", "\u2028", "tab\t", "", "f:a", "."}
	scalar := func() interface{} {
		switch r.IntN(6) {
		case 0:
			return names[r.IntN(len(names))]
		case 1:
			return int64(r.IntN(200) - 100)
		case 2:
			floats := []float64{1.5, -0.25, 1e21, 1e-7, 3, 0, math.Copysign(0, -1), -80, 1e15, 1e15 - 1}
			return floats[r.IntN(len(floats))]
		case 3:
			return r.IntN(2) == 0
		case 4:
			return nil
		}
		return "web-" + strconv.Itoa(r.IntN(3))
	}
	element := func() interface{} {
		switch r.IntN(5) {
		case 0:
			return fieldpath.KeyByFields("name", scalar())
		case 1:
			return fieldpath.KeyByFields("port", r.IntN(3), "protocol", names[r.IntN(len(names))])
		case 2:
			return value.NewValueInterface(scalar())
		case 3:
			return r.IntN(4)
		}
		return names[r.IntN(len(names))]
	}
	s := fieldpath.NewSet()
	for range 1 + r.IntN(12) {
		parts := make([]interface{}, 1+r.IntN(4))
		for i := range parts {
			parts[i] = element()
		}
		p, err := fieldpath.MakePath(parts...)
		if err != nil {
			panic(err)
		}
		s.Insert(p)
	}
	return s
}

// TestFieldsV1LikeStructmerge: for a sample and for random sets of every
// kind of element, ToJSON writes byte for byte what structmerge's encoder
// (which conformance tests against SMD) writes for the same set built node
// by node, and that set converts back to the set, as FromJSON reads the
// text back to it.
func TestFieldsV1LikeStructmerge(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 2000 {
		s := sample()
		if i > 0 {
			s = randomSet(r)
		}
		got, err := s.ToJSON()
		if err != nil {
			t.Fatal(err)
		}
		cs, err := bridge.Set(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := cs.MarshalFieldsV1(); !bytes.Equal(got, want) {
			t.Fatalf("set %d %v:\n got %s\nwant %s", i, s, got, want)
		}
		if conv := bridge.FromSet(cs); !conv.Equals(s) {
			t.Fatalf("set %d: converted back:\n got %v\nwant %v", i, conv, s)
		}
		back := fieldpath.NewSet()
		if err := back.FromJSON(bytes.NewReader(got)); err != nil {
			t.Fatalf("set %d: FromJSON(%s): %v", i, got, err)
		}
		if !back.Equals(s) {
			t.Fatalf("set %d: round trip of %s:\n got %v\nwant %v", i, got, back, s)
		}
	}
}

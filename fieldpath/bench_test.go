package fieldpath_test

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/value"
)

// podFieldsV1 returns the managed fields of a realistic Pod (spec applied by
// kubectl, status written by the kubelet) in canonical FieldsV1 form.
func podFieldsV1(tb testing.TB) []byte {
	tb.Helper()
	data, err := os.ReadFile("testdata/pod-fieldsv1.json")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := fieldpath.ParseFieldsV1(data)
	if err != nil {
		tb.Fatal(err)
	}
	return s.MarshalFieldsV1()
}

// podHalves splits the Pod's set into two overlapping sets parsed separately,
// so that they share no structure: everything but the status, and the status
// plus the metadata.
func podHalves(tb testing.TB) (full, spec, statusAndMeta *fieldpath.Set) {
	data := podFieldsV1(tb)
	full, _ = fieldpath.ParseFieldsV1(data)
	other, _ := fieldpath.ParseFieldsV1(data)
	spec = other.RecursiveDifference(fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("status")}))
	again, _ := fieldpath.ParseFieldsV1(data)
	statusAndMeta = again.RecursiveDifference(fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("spec")}))
	return full, spec, statusAndMeta
}

func TestPodFixture(t *testing.T) {
	full, spec, status := podHalves(t)
	if full.Size() < 200 || spec.Empty() || status.Empty() {
		t.Fatalf("fixture too small: %d %d %d", full.Size(), spec.Size(), status.Size())
	}
	if !spec.Union(status).Equal(full) {
		t.Error("the halves do not make up the whole")
	}
}

func BenchmarkParseFieldsV1Pod(b *testing.B) {
	data := podFieldsV1(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fieldpath.ParseFieldsV1(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalFieldsV1Pod(b *testing.B) {
	data := podFieldsV1(b)
	s, _ := fieldpath.ParseFieldsV1(data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		_ = s.MarshalFieldsV1()
	}
}

func BenchmarkAppendFieldsV1Pod(b *testing.B) {
	data := podFieldsV1(b)
	s, _ := fieldpath.ParseFieldsV1(data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	buf := make([]byte, 0, len(data))
	for b.Loop() {
		buf = s.AppendFieldsV1(buf[:0])
	}
}

func BenchmarkSetOperationsPod(b *testing.B) {
	full, spec, status := podHalves(b)
	other, _ := fieldpath.ParseFieldsV1(podFieldsV1(b))
	ops := []struct {
		name string
		op   func() *fieldpath.Set
	}{
		{"Union", func() *fieldpath.Set { return spec.Union(status) }},
		{"UnionEqual", func() *fieldpath.Set { return full.Union(other) }},
		{"Intersection", func() *fieldpath.Set { return spec.Intersection(status) }},
		{"Difference", func() *fieldpath.Set { return full.Difference(status) }},
		{"RecursiveDifference", func() *fieldpath.Set { return full.RecursiveDifference(spec) }},
		{"Leaves", func() *fieldpath.Set { return full.Leaves() }},
		{"Equal", func() *fieldpath.Set {
			if !full.Equal(other) {
				b.Fatal("not equal")
			}
			return nil
		}},
	}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				o.op()
			}
		})
	}
}

func BenchmarkBuildPod(b *testing.B) {
	s, _ := fieldpath.ParseFieldsV1(podFieldsV1(b))
	var paths []fieldpath.Path
	for p := range s.All() {
		paths = append(paths, p.Copy())
	}
	b.ReportAllocs()
	for b.Loop() {
		fieldpath.NewSet(paths...)
	}
}

func BenchmarkBuildPodSorted(b *testing.B) {
	s, _ := fieldpath.ParseFieldsV1(podFieldsV1(b))
	var paths []fieldpath.Path
	for p := range s.All() {
		paths = append(paths, p.Copy())
	}
	slices.SortFunc(paths, fieldpath.Path.Compare)
	b.ReportAllocs()
	for b.Loop() {
		fieldpath.NewSet(paths...)
	}
}

// BenchmarkFieldsV1ValuePod: the Pod's set as the value of its encoding,
// built from the set (value) and through the text (text), as the field
// manager writes a changed entry into an object; and as maps.
func BenchmarkFieldsV1ValuePod(b *testing.B) {
	s, err := fieldpath.ParseFieldsV1(podFieldsV1(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("value", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.FieldsV1Value()
		}
	})
	b.Run("text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := value.FromJSON(s.MarshalFieldsV1()); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The map form, as the field manager's map methods write a new
	// entry: built from the set (maps), and as the value converted (value-maps).
	b.Run("maps", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.FieldsV1Unstructured()
		}
	})
	b.Run("value-maps", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.FieldsV1Value().Unstructured()
		}
	})
}

// BenchmarkParseFieldsV1ValuePod: the Pod's set read from the value of its
// encoding (value) and through the text (text), as the field manager reads
// managedFields.
func BenchmarkParseFieldsV1ValuePod(b *testing.B) {
	v, err := value.FromJSON(podFieldsV1(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("value", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := fieldpath.ParseFieldsV1Value(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fieldpath.ParseFieldsV1(value.ToJSON(v)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkParseFieldsV1UnstructuredPod: the Pod's set read from the map
// form of its encoding, as encoding/json decodes it: straight from the
// maps (maps), and converted to a value first (value-maps). Each round
// reads a map decoded afresh, as a request's object arrives.
func BenchmarkParseFieldsV1UnstructuredPod(b *testing.B) {
	text := podFieldsV1(b)
	const batch = 256
	decoded := func() []map[string]any {
		ms := make([]map[string]any, batch)
		for i := range ms {
			if err := json.Unmarshal(text, &ms[i]); err != nil {
				b.Fatal(err)
			}
		}
		return ms
	}
	run := func(b *testing.B, parse func(map[string]any) error) {
		b.ReportAllocs()
		ms := decoded()
		i := 0
		for b.Loop() {
			if i == batch {
				b.StopTimer()
				ms, i = decoded(), 0
				b.StartTimer()
			}
			if err := parse(ms[i]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	}
	b.Run("maps", func(b *testing.B) {
		run(b, func(m map[string]any) error {
			_, _, err := fieldpath.ParseFieldsV1Unstructured(m)
			return err
		})
	})
	b.Run("value-maps", func(b *testing.B) {
		run(b, func(m map[string]any) error {
			v, err := value.FromUnstructured(m)
			if err == nil {
				_, _, err = fieldpath.ParseFieldsV1Value(v)
			}
			return err
		})
	})
}

package conformance

import (
	"bytes"
	"os"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	smdfp "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// fpPodSets returns the Pod fixture of package fieldpath in canonical
// FieldsV1 form and, parsed separately by each library, the whole set, the
// set without the status and the set without the spec.
func fpPodSets(b *testing.B) (data []byte, ours [3]*fieldpath.Set, smd [3]*smdfp.Set) {
	raw, err := os.ReadFile("../fieldpath/testdata/pod-fieldsv1.json")
	if err != nil {
		b.Fatal(err)
	}
	s, err := fieldpath.ParseFieldsV1(raw)
	if err != nil {
		b.Fatal(err)
	}
	data = s.MarshalFieldsV1()
	strip := []string{"", "status", "spec"}
	for i, name := range strip {
		o, _ := fieldpath.ParseFieldsV1(data)
		m := smdfp.NewSet()
		if err := m.FromJSON(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
		if name != "" {
			o = o.RecursiveDifference(fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName(name)}))
			m = m.RecursiveDifference(smdfp.NewSet(smdfp.MakePathOrDie(name)))
		}
		ours[i], smd[i] = o, m
	}
	return data, ours, smd
}

// BenchmarkFieldpathVsSMD runs the same FieldsV1 and set operations on a
// Pod's managed fields with structmerge ("ours") and SMD ("smd").
func BenchmarkFieldpathVsSMD(b *testing.B) {
	data, o, m := fpPodSets(b)
	o2, _ := fieldpath.ParseFieldsV1(data)
	m2 := smdfp.NewSet()
	_ = m2.FromJSON(bytes.NewReader(data))
	var ourPaths []fieldpath.Path
	var smdPaths []smdfp.Path
	for p := range o[0].All() {
		ourPaths = append(ourPaths, p.Copy())
		smdPaths = append(smdPaths, fpToSMDPath(b, p))
	}
	cases := []struct {
		name      string
		ours, smd func()
	}{
		{"ParseFieldsV1",
			func() { _, _ = fieldpath.ParseFieldsV1(data) },
			func() { s := smdfp.NewSet(); _ = s.FromJSON(bytes.NewReader(data)) }},
		{"MarshalFieldsV1",
			func() { _ = o[0].MarshalFieldsV1() },
			func() { _, _ = m[0].ToJSON() }},
		{"Union",
			func() { o[1].Union(o[2]) },
			func() { m[1].Union(m[2]) }},
		{"UnionEqual",
			func() { o[0].Union(o2) },
			func() { m[0].Union(m2) }},
		{"Intersection",
			func() { o[1].Intersection(o[2]) },
			func() { m[1].Intersection(m[2]) }},
		{"Difference",
			func() { o[0].Difference(o[2]) },
			func() { m[0].Difference(m[2]) }},
		{"RecursiveDifference",
			func() { o[0].RecursiveDifference(o[1]) },
			func() { m[0].RecursiveDifference(m[1]) }},
		{"Leaves",
			func() { o[0].Leaves() },
			func() { m[0].Leaves() }},
		{"NewSet",
			func() { fieldpath.NewSet(ourPaths...) },
			func() { smdfp.NewSet(smdPaths...) }},
		{"Equal",
			func() { o[0].Equal(o2) },
			func() { m[0].Equals(m2) }},
	}
	for _, c := range cases {
		b.Run(c.name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.ours()
			}
		})
		b.Run(c.name+"/smd", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.smd()
			}
		})
	}
}

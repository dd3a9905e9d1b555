package schema

import (
	"testing"
)

// BenchmarkCompileK8s measures CompileYAML (Parse, then Compile) on the
// built-in Kubernetes schema and on SMD's larger test schema, and each step
// on its own. Run with: go test -run - -bench CompileK8s -benchmem ./schema/
func BenchmarkCompileK8s(b *testing.B) {
	for _, name := range []string{"k8s.yaml", "smd/k8s-schema.yaml"} {
		data := readSchema(b, name)
		b.Run("CompileYAML/"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := CompileYAML(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Parse/"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		doc, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("Compile/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFieldLookup measures Map.Field on a large (indexed) and a small
// (scanned) map.
func BenchmarkFieldLookup(b *testing.B) {
	s := compileFile(b, "k8s.yaml")
	podSpec, _ := s.Type("io.k8s.api.core.v1.PodSpec")
	port, _ := s.Type("io.k8s.api.core.v1.ContainerPort")
	for _, tc := range []struct {
		name  string
		m     *Map
		names []string
	}{
		{"PodSpec", podSpec.Map(), []string{"containers", "volumes", "nodeName", "tolerations", "missing"}},
		{"ContainerPort", port.Map(), []string{"containerPort", "protocol", "name", "missing"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, n := range tc.names {
					tc.m.Field(n)
				}
			}
		})
	}
}

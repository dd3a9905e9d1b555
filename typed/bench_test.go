package typed_test

import (
	"testing"

	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

const benchObject = `{name: a, replicas: 3, labels: {app: web, tier: front},
  containers: [{name: web, image: nginx}, {name: side, image: envoy}],
  ports: [{port: 80}, {port: 443, protocol: TCP}], tags: [x, y], args: [a, b]}`

// BenchmarkNew prices validation, with and without an option: taking
// options must not cost an allocation.
func BenchmarkNew(b *testing.B) {
	w := widget(b)
	v := yv(b, benchObject)
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := typed.New(w, v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AllowDuplicates", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := typed.New(w, v, typed.AllowDuplicates()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := typed.Validate(w, v, typed.AllowDuplicates()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMerge prices a merge of a configuration into a live object.
func BenchmarkMerge(b *testing.B) {
	w := widget(b)
	live, err := typed.New(w, yv(b, benchObject), typed.AllowDuplicates())
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := typed.New(w, yv(b, `{replicas: 5, labels: {tier: back}, containers: [{name: web, image: nginx2}]}`))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("validated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := live.Merge(cfg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestOptionsDoNotAllocate: taking an option costs no allocation. A null
// value needs no walk and no scratch memory, so New of one allocates
// nothing, with options or without.
func TestOptionsDoNotAllocate(t *testing.T) {
	w := widget(t)
	null := value.NewNull()
	for name, f := range map[string]func(){
		"New":                           func() { _, _ = typed.New(w, null) },
		"New with AllowDuplicates":      func() { _, _ = typed.New(w, null, typed.AllowDuplicates()) },
		"Validate with AllowDuplicates": func() { _ = typed.Validate(w, null, typed.AllowDuplicates()) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s of null: %v allocations", name, n)
		}
	}
}

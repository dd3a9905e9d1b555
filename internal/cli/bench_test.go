package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/manifest"
)

// commandObjects is how many manifests BenchmarkCommand works on.
const commandObjects = 1000

// writeCommandFixture writes commandObjects manifests (the example
// Deployment and Service under distinct names, one per file) and their live
// objects, with the managedFields an API server wrote, into dir.
func writeCommandFixture(tb testing.TB, dir string) (manifests, live string) {
	tb.Helper()
	manifests, live = filepath.Join(dir, "manifests"), filepath.Join(dir, "live")
	for _, d := range []string{manifests, live} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	name := regexp.MustCompile(`(?m)^  name: web$`)
	for i := range commandObjects {
		kind := []string{"deployment", "service"}[i%2]
		for _, f := range []struct{ from, to string }{
			{filepath.Join("..", "..", "examples", kind+".yaml"), manifests},
			{filepath.Join("..", "..", "examples", "live", kind+".yaml"), live},
		} {
			data, err := os.ReadFile(f.from)
			if err != nil {
				tb.Fatal(err)
			}
			if !name.Match(data) {
				tb.Fatalf("%s: no metadata name to rename", f.from)
			}
			data = name.ReplaceAll(data, fmt.Appendf(nil, "  name: web-%d", i))
			if err := os.WriteFile(filepath.Join(f.to, fmt.Sprintf("%s-%d.yaml", kind, i)), data, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return manifests, live
}

// BenchmarkCommand: structmerge apply and diff on 1,000 manifests (YAML
// in, YAML out), in process as the command runs them, next to the limit:
// reading the same files, decoding their YAML and encoding it again. Each
// reports ns/object.
func BenchmarkCommand(b *testing.B) {
	manifests, live := writeCommandFixture(b, b.TempDir())
	perObject := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*commandObjects), "ns/object")
	}
	run := func(b *testing.B, want int, args ...string) {
		var out, errs bytes.Buffer
		b.ReportAllocs()
		for b.Loop() {
			out.Reset()
			errs.Reset()
			if code := Main(args, nil, &out, &errs); code != want {
				b.Fatalf("%v: exit %d, want %d: %s", args, code, want, errs.String())
			}
		}
		perObject(b)
	}
	b.Run("apply", func(b *testing.B) { run(b, 0, "apply", "-f", manifests, "--live", live) })
	b.Run("diff", func(b *testing.B) { run(b, 1, "diff", "-f", manifests, "--live", live) })
	b.Run("limit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, dir := range []string{manifests, live} {
				ents, err := os.ReadDir(dir)
				if err != nil {
					b.Fatal(err)
				}
				for _, e := range ents {
					data, err := os.ReadFile(filepath.Join(dir, e.Name()))
					if err != nil {
						b.Fatal(err)
					}
					docs, err := manifest.Decode(data)
					if err != nil {
						b.Fatal(err)
					}
					for _, d := range docs {
						if _, err := io.Discard.Write(value.ToYAML(d.Value)); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		}
		perObject(b)
	})
}

// TestCommandFixture: the benchmark's apply sees every object with its
// live object (a conflict-free apply of each, printed), so that it times
// the whole job and not an early failure.
func TestCommandFixture(t *testing.T) {
	manifests, live := writeCommandFixture(t, t.TempDir())
	var out, errs bytes.Buffer
	if code := Main([]string{"apply", "-f", manifests, "--live", live}, nil, &out, &errs); code != 0 {
		t.Fatalf("apply: exit %d: %s", code, errs.String())
	}
	if n := bytes.Count(out.Bytes(), []byte("managedFields:")); n != commandObjects {
		t.Fatalf("apply printed %d objects with managedFields, want %d", n, commandObjects)
	}
	if errs.Len() > 0 {
		t.Errorf("apply wrote to stderr: %s", errs.String())
	}
}

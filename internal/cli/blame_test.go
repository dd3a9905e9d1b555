package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/value"
)

// tricky holds scalars whose YAML form is easy to get wrong.
const tricky = `apiVersion: v1
kind: ConfigMap
metadata:
  name: tricky
  annotations:
    a: "true"
    b: "1.0"
    c: "null"
    d: "multi\nline\n"
    e: ""
    f: "- not a list"
    g: "# not a comment"
    h: "0x10"
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1: {"f:metadata":{"f:annotations":{"f:a":{},"f:d":{},"f:g":{}}},"f:data":{}}
    manager: m
    operation: Update
    time: "2026-01-05T09:00:00Z"
data: {}
binaryData: {}
`

// TestBlameReparses checks that blame's output re-parses as YAML equal to
// its input, for the examples and for awkward scalars.
func TestBlameReparses(t *testing.T) {
	inputs := map[string][]byte{"tricky": []byte(tricky)}
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "live", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no examples/live files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = b
	}
	for name, in := range inputs {
		for _, mode := range []string{"relative", "absolute", "none"} {
			var out, errb bytes.Buffer
			code := Main([]string{"blame", "-f", "-", "--time", mode}, bytes.NewReader(in), &out, &errb)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", name, code, errb.String())
			}
			if !strings.Contains(out.String(), " # ") {
				t.Errorf("%s: no annotations:\n%s", name, out.String())
			}
			want, err := value.FromYAML(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := value.FromYAML(out.Bytes())
			if err != nil {
				t.Fatalf("%s: output does not parse: %v\n%s", name, err, out.String())
			}
			if !value.Equal(got, want) {
				t.Errorf("%s --time %s: re-parsed output differs from the input:\n%s", name, mode, out.String())
			}
		}
	}
}

// TestConcurrentCommands runs commands from 8 goroutines on shared input
// (run with -race): the command keeps no shared mutable state.
func TestConcurrentCommands(t *testing.T) {
	t.Setenv(nowEnv, "2026-02-01T00:00:00Z")
	ex := filepath.Join("..", "..", "examples")
	cmds := [][]string{
		{"apply", "-f", filepath.Join(ex, "deployment.yaml"), "--live", filepath.Join(ex, "live")},
		{"diff", "-f", filepath.Join(ex, "service.yaml"), "--live", filepath.Join(ex, "live"), "--summary"},
		{"blame", "-f", filepath.Join(ex, "live", "deployment.yaml"), "--time", "none"},
		{"owners", "-f", filepath.Join(ex, "live")},
		{"validate", "-f", ex},
	}
	want := make([]string, len(cmds))
	for i, c := range cmds {
		var out bytes.Buffer
		Main(c, nil, &out, &out)
		want[i] = out.String()
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, c := range cmds {
				var out bytes.Buffer
				Main(c, nil, &out, &out)
				if out.String() != want[i] {
					t.Errorf("%v: output differs between runs", c)
				}
			}
		}()
	}
	wg.Wait()
}

package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/manifest"
	yaml2 "go.yaml.in/yaml/v2"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// The manifest tests check that structmerge reads a manifest file as
// kubectl does: manifest.Decode against k8s.io/apimachinery's
// YAML-or-JSON stream decoder (sigs.k8s.io/yaml, YAML 1.1 through
// go.yaml.in/yaml/v2) followed by the JSON decoding of unstructured
// objects, which is what kubectl's resource builder does with -f FILE.

// manifestHeader makes a table document a ConfigMap, so that kubectl can
// read it too.
const manifestHeader = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\n"

// trickyManifests are documents whose reading differs between YAML 1.1 and
// 1.2, or between a YAML parser and kubectl's stream decoder.
var trickyManifests = []struct{ name, doc string }{
	{"bool-1.1", manifestHeader + "data:\n  a: yes\n  b: no\n  c: on\n  d: off\n  e: y\n  f: n\n  g: Yes\n  h: NO\n  i: On\n  j: OFF\n  k: Y\n  l: N\n  m: True\n  o: FALSE\n"},
	{"bool-quoted", manifestHeader + "data:\n  a: \"yes\"\n  b: 'no'\n  c: !!str on\n"},
	{"bool-keys", manifestHeader + "data:\n  yes: 1\n  off: 2\n  y: 3\n  n: 4\n"},
	{"null-spellings", manifestHeader + "data:\n  a: ~\n  b: null\n  c: Null\n  d: NULL\n  e:\n  f: nULL\n"},
	{"null-key", manifestHeader + "data:\n  ~: 1\n"},
	{"ints", manifestHeader + "data:\n  a: 0777\n  b: 0x1F\n  c: 0o17\n  d: 0b101\n  e: -0b11\n  f: 1_000\n  g: +12\n  h: -0\n  i: 012_3\n  j: 9223372036854775807\n  k: 9223372036854775808\n  l: 18446744073709551616\n  m: -9223372036854775808\n"},
	{"floats", manifestHeader + "data:\n  a: 1.0\n  b: 1e3\n  c: 1E-7\n  d: .5\n  e: -.5e2\n  f: 1.5\n  g: 6.02e23\n  h: 1e21\n  i: 1e20\n  j: 0.1\n  k: 3.\n  l: 1_0.5\n  m: 4611686018427387904.0\n"},
	{"floats-not", manifestHeader + "data:\n  a: 1e\n  b: 0x1p3\n  c: inf\n  d: NaN\n  e: 1.2.3\n  f: +.5\n  g: 1__0\n"},
	{"infinity", manifestHeader + "data:\n  a: .inf\n"},
	{"neg-infinity", manifestHeader + "data:\n  a: -.Inf\n"},
	{"nan", manifestHeader + "data:\n  a: .NaN\n"},
	{"number-keys", manifestHeader + "data:\n  1: a\n  0x10: b\n  1.5: c\n  2.0: d\n  1e3: e\n  .inf: f\n"},
	{"timestamps", manifestHeader + "data:\n  a: 2001-12-14t21:59:43.10-05:00\n  b: 2002-12-14\n  c: !!timestamp 2001-12-14\n  d: 2001-12-14 21:59:43.10 -5\n"},
	{"bad-timestamp", manifestHeader + "data:\n  c: !!timestamp 2001-12-14 21:59:43.10 -5\n"},
	{"binary", manifestHeader + "data:\n  a: !!binary aGVsbG8=\n"},
	{"tags", manifestHeader + "data:\n  a: !!int \"12\"\n  b: !!float 3\n  c: !!bool yes\n  d: !custom 5\n  e: ! 7\n  f: !!str 8\n  g: !!null ''\n"},
	{"bad-tag", manifestHeader + "data:\n  a: !!int abc\n"},
	{"anchors", manifestHeader + "data:\n  a: &x hello\n  b: *x\n  c: &m {p: 1, q: [1, 2]}\n  d: *m\n"},
	{"merge", manifestHeader + "base: &b\n  x: 1\n  y: 2\nother: &o\n  y: 3\n  z: 4\nm1:\n  <<: *b\n  y: 9\nm2:\n  y: 9\n  <<: *b\nm3:\n  <<: [*b, *o]\nm4:\n  <<: [*o, *b]\n  x: 0\n"},
	{"merge-inline", manifestHeader + "m:\n  <<: {a: 1, b: 2}\n  b: 3\n"},
	{"merge-quoted", manifestHeader + "m:\n  '<<': {a: 1}\n"},
	{"merge-bad", manifestHeader + "m:\n  <<: 5\n"},
	{"duplicates", manifestHeader + "data:\n  a: \"1\"\n  a: \"2\"\n  b: x\nspec: 1\nspec: 2\n"},
	{"duplicate-merge", manifestHeader + "b: &b {x: 1}\nm:\n  <<: *b\n  <<: {x: 2, y: 3}\n"},
	{"comments", "# leading comment\n" + manifestHeader + "data: # trailing\n  a: b # c\n  d: \"e # f\"\n# end\n"},
	{"crlf", strings.ReplaceAll(manifestHeader+"data:\n  a: |\n    line1\n    line2\n  b: plain\n---\n"+manifestHeader, "\n", "\r\n")},
	{"bom", "\ufeff" + manifestHeader + "data:\n  a: b\n"},
	{"bom-separator", "\ufeff---\n" + manifestHeader},
	{"multi", manifestHeader + "---\n" + manifestHeader + "---\n---\n# only a comment\n---\n" + manifestHeader + "data: {a: b}\n"},
	{"separator-comment", "--- # first\n" + manifestHeader + "--- \t\n" + manifestHeader},
	{"separator-content", manifestHeader + "--- a\n" + manifestHeader},
	{"separator-glued", "---#x\n"},
	{"separator-leading", "--- # c\n" + manifestHeader + "---\n---\n" + manifestHeader},
	{"separator-dashes", manifestHeader + "----\n" + manifestHeader},
	{"document-end", manifestHeader + "...\n"},
	{"null-document", "null\n---\n~\n---\n" + manifestHeader},
	{"scalar-document", "hello\n"},
	{"list-document", "- a\n- b\n"},
	{"json", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "probe"}, "data": {"a": "yes"}, "n": 1.0, "i": 12, "big": 12345678901234567890}`},
	{"json-stream", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}} {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}}`},
	{"json-duplicates", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "x": 1, "x": 2}`},
	{"json-then-yaml", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}\n" + manifestHeader},
	{"flow-yaml", "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {a: yes}}\n"},
	{"json-null", "null"},
	{"json-bad", `{"apiVersion": "v1",`},
	{"kind-list", "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(manifestHeader, "\n", "\n  ") + "data: {a: on}\n"},
	{"items-of-any-kind", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nitems:\n- " + strings.ReplaceAll(manifestHeader, "\n", "\n  ") + "data: {a: on}\n"},
	{"empty-list", "apiVersion: v1\nkind: List\nitems: []\n---\n" + manifestHeader},
	{"block-scalars", manifestHeader + "data:\n  a: |\n    x\n    y\n  b: >\n    x\n    y\n  c: |-\n    z\n  d: >+\n    w\n\n"},
	{"quoted-escapes", manifestHeader + "data:\n  a: \"\\u00e9\\t\\x41\"\n  b: 'it''s'\n"},
	{"complex-key", manifestHeader + "data:\n  ? [a, b]\n  : c\n"},
	{"tabs", manifestHeader + "data:\n\ta: b\n"},
	{"empty", ""},
	{"only-comments", "# nothing\n"},
	{"unicode", manifestHeader + "data:\n  é: ü\n  \"\\U0001F600\": x\n"},
	{"octal-like-strings", manifestHeader + "data:\n  a: 08\n  b: 0o8\n  c: 1:20\n  d: 190:20:30\n"},
	{"sexagesimal", manifestHeader + "data:\n  a: 1:30\n"},
}

// readLikeKubectl reads a manifest file as kubectl's resource builder does
// and gives the objects as kubectl sends them: documents from
// apimachinery's YAML-or-JSON decoder, empty and null ones skipped, each
// decoded as an unstructured object and encoded again.
func readLikeKubectl(data []byte) ([]any, error) {
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []any
	for {
		var ext runtime.RawExtension
		if err := d.Decode(&ext); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		var obj any
		if err := utiljson.Unmarshal(raw, &obj); err != nil {
			return nil, err
		}
		// kubectl sends the object encoded again (runtime.Encode of the
		// unstructured object): 1.0 read from JSON goes as 1.
		sent, err := json.Marshal(obj)
		if err != nil {
			return nil, err
		}
		obj = nil
		if err := utiljson.Unmarshal(sent, &obj); err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
}

// readLikeStructmerge reads a manifest file with manifest.Decode. skip
// is true when the input hits one of structmerge's documented limits.
func readLikeStructmerge(data []byte) (docs []any, skip bool, err error) {
	ds, err := manifest.Decode(data)
	if err != nil {
		return nil, errors.Is(err, value.ErrTooDeep) || errors.Is(err, value.ErrTooLarge), err
	}
	for _, d := range ds {
		docs = append(docs, d.Value.Unstructured())
	}
	return docs, false, nil
}

// ambiguousKeys reports whether a YAML mapping of the input has two keys
// of different types that sigs.k8s.io/yaml turns into the same text (1 and
// "1"): kubectl then keeps one of them at random, so there is no single
// answer to compare with.
func ambiguousKeys(data []byte) bool {
	for _, chunk := range bytes.Split(data, []byte("\n---")) {
		var x any
		func() {
			defer func() { _ = recover() }()
			_ = yaml2.Unmarshal(chunk, &x)
		}()
		if ambiguousIn(x, 0) {
			return true
		}
	}
	return false
}

func ambiguousIn(x any, depth int) bool {
	if depth > 200 {
		return false
	}
	switch x := x.(type) {
	case []any:
		for _, it := range x {
			if ambiguousIn(it, depth+1) {
				return true
			}
		}
	case map[any]any:
		seen := map[string]bool{}
		for k, v := range x {
			text := keyText(k)
			if seen[text] {
				return true
			}
			seen[text] = true
			if ambiguousIn(v, depth+1) {
				return true
			}
		}
	}
	return false
}

func keyText(k any) string {
	switch k := k.(type) {
	case string:
		return k
	case float64:
		s := strconv.FormatFloat(k, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s
	}
	b, _ := json.Marshal(k)
	return strings.Trim(string(b), `"`)
}

// compareManifest decodes data both ways and reports a difference.
func compareManifest(t *testing.T, data []byte) {
	t.Helper()
	want, wantErr := readLikeKubectl(data)
	got, skip, gotErr := readLikeStructmerge(data)
	if skip {
		t.Skipf("structmerge's documented limits: %v", gotErr)
	}
	switch {
	case wantErr != nil && gotErr != nil:
		return
	case wantErr != nil:
		t.Fatalf("kubectl's decoder refuses the input (%v); structmerge reads %v\ninput: %q", wantErr, got, data)
	case gotErr != nil:
		t.Fatalf("structmerge refuses the input (%v); kubectl's decoder reads %v\ninput: %q", gotErr, want, data)
	}
	if ambiguousKeys(data) {
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("objects differ (-kubectl's decoder +structmerge):\n%s\ninput: %q", diff, data)
	}
}

func TestManifestTricky(t *testing.T) {
	for _, tc := range trickyManifests {
		t.Run(tc.name, func(t *testing.T) { compareManifest(t, []byte(tc.doc)) })
	}
}

// manifestFiles lists every YAML and JSON file under examples/ and
// testdata/ of the main module.
func manifestFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"../examples", "../testdata"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".yaml", ".yml", ".json":
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 50 {
		t.Fatalf("found only %d files under examples/ and testdata/", len(files))
	}
	return files
}

func TestManifestFiles(t *testing.T) {
	for _, f := range manifestFiles(t) {
		t.Run(strings.TrimPrefix(filepath.ToSlash(f), "../"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			compareManifest(t, data)
		})
	}
}

// FuzzManifest checks on random input that structmerge and kubectl's
// decoder both refuse it or both read the same objects.
func FuzzManifest(f *testing.F) {
	for _, tc := range trickyManifests {
		f.Add([]byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		compareManifest(t, data)
	})
}

// TestManifestKubectl compares structmerge's reading with the kubectl
// binary's: `kubectl label --local -f FILE probe=1 -o json` prints the
// objects as kubectl read them (plus the label). It is skipped when kubectl
// is not on the PATH.
func TestManifestKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on the PATH: the comparison with the kubectl binary is skipped (the one with its decoder library runs in TestManifestTricky and TestManifestFiles)")
	}
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, tc := range trickyManifests {
		inputs = append(inputs, input{tc.name, []byte(tc.doc)})
	}
	for _, f := range manifestFiles(t) {
		if !strings.HasPrefix(filepath.ToSlash(f), "../examples/") {
			continue // testdata holds scenario and schema files, not objects
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{strings.TrimPrefix(filepath.ToSlash(f), "../"), data})
	}
	dir := t.TempDir()
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			file := filepath.Join(dir, "manifest.yaml")
			if err := os.WriteFile(file, in.data, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(kubectl, "label", "--local", "-f", file, "probe=1", "-o", "json", "--show-managed-fields")
			cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "no-kubeconfig"))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			kerr := cmd.Run()
			got, gotErr := readObjectsLikeStructmerge(in.data)
			if kerr != nil {
				if gotErr != nil {
					return
				}
				if _, err := readLikeKubectl(in.data); err == nil && looksLikeJSONStart(in.data) {
					t.Skipf("kubectl %s refuses input that starts with { but is not only JSON; apimachinery v0.37 (the reference) reads it as structmerge does: %s",
						kubectlVersion(kubectl), strings.TrimSpace(stderr.String()))
				}
				t.Fatalf("kubectl refuses the input (%s); structmerge reads %v\ninput: %q", strings.TrimSpace(stderr.String()), got, in.data)
			}
			want, err := kubectlObjects(stdout.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if gotErr != nil {
				t.Fatalf("structmerge refuses the input (%v); kubectl reads %v\ninput: %q", gotErr, want, in.data)
			}
			if ambiguousKeys(in.data) {
				return
			}
			for i := range want {
				if i < len(got) {
					unlabel(want[i], got[i])
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("objects differ (-kubectl +structmerge):\n%s\ninput: %q", diff, in.data)
			}
		})
	}
}

// readObjectsLikeStructmerge reads the objects of a manifest file as the
// command does: manifest.Decode, with the items of an object whose
// items are a list (a List, whatever its kind) read instead of it.
func readObjectsLikeStructmerge(data []byte) ([]any, error) {
	docs, err := manifest.Decode(data)
	if err != nil {
		return nil, err
	}
	var out []any
	for _, d := range docs {
		obj := d.Value.Unstructured()
		if d.Value.Kind() != value.Map {
			return nil, errors.New("a document is not an object")
		}
		if m, ok := obj.(map[string]any); ok {
			if items, ok := m["items"].([]any); ok {
				out = append(out, items...)
				continue
			}
		}
		out = append(out, obj)
	}
	return out, nil
}

func looksLikeJSONStart(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))
}

func kubectlVersion(kubectl string) string {
	out, err := exec.Command(kubectl, "version", "--client", "-o", "json").Output()
	if err != nil {
		return "(version unknown)"
	}
	var v struct {
		ClientVersion struct{ GitVersion string } `json:"clientVersion"`
	}
	_ = json.Unmarshal(out, &v)
	return v.ClientVersion.GitVersion
}

// kubectlObjects returns the objects kubectl printed: a stream of JSON
// objects, one per object read.
func kubectlObjects(out []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	var objs []any
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return objs, nil
			}
			return nil, err
		}
		var obj any
		if err := utiljson.Unmarshal(raw, &obj); err != nil {
			return nil, err
		}
		objs = append(objs, obj)
	}
}

// unlabel removes the probe label kubectl added (and the labels map it
// created for it).
func unlabel(kubectlObj, smObj any) {
	md, ok := kubectlObj.(map[string]any)["metadata"].(map[string]any)
	if !ok {
		return
	}
	labels, ok := md["labels"].(map[string]any)
	if !ok {
		return
	}
	delete(labels, "probe")
	if len(labels) > 0 {
		return
	}
	if sm, ok := smObj.(map[string]any); ok {
		if smd, ok := sm["metadata"].(map[string]any); ok {
			if _, had := smd["labels"]; had {
				return
			}
		}
	}
	delete(md, "labels")
}

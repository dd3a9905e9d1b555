package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const inlineSchema = `schema:
  inline: |
    types:
    - name: widget
`

// parseString parses a scenario held in a string, as if read from
// dir/test.yaml.
func parseString(t *testing.T, dir, text string) (*File, error) {
	t.Helper()
	return Parse(filepath.Join(dir, "test.yaml"), []byte(text))
}

func TestParseDefaults(t *testing.T) {
	dir := t.TempDir()
	schemaText := "types:\n- name: widget\n"
	if err := os.MkdirAll(filepath.Join(dir, "schemas"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schemas", "w.yaml"), []byte(schemaText), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	f, err := parseString(t, sub, `description: defaults
schema:
  file: ../schemas/w.yaml
type: widget
live:
  object: {a: 1, b: 1.5, c: "1", d: true, e: null, f: [x, 2], 3: key}
  managers:
    m:
      fields: {"f:a": {}}
steps:
- op: update
  manager: u
  object:
    big: 9007199254740993
    neg: -0x10
    float: 1e3
    when: 2020-01-01
- op: apply
  manager: a
  apiVersion: v2
  object: null
  expect:
    conflicts:
    - {manager: m, path: .a}
    error: conflict
    object: {}
    managers: {}
expect:
  object: null
`)
	if err != nil {
		t.Fatal(err)
	}
	if f.Description != "defaults" || f.Kubernetes || f.Type != "widget" {
		t.Errorf("header: %+v", f)
	}
	if want := filepath.Join(dir, "schemas", "w.yaml"); f.Schema.File != want || string(f.Schema.Text) != schemaText {
		t.Errorf("schema = %q from %q, want %q", f.Schema.Text, f.Schema.File, want)
	}
	wantLive := State{
		Object:    map[string]any{"a": int64(1), "b": 1.5, "c": "1", "d": true, "e": nil, "f": []any{"x", int64(2)}, "3": "key"},
		HasObject: true,
		Managers:  map[string]Manager{"m": {APIVersion: "v1", Applied: false, FieldsV1: []byte(`{"f:a":{}}`)}},
	}
	if d := cmp.Diff(wantLive, f.Live); d != "" {
		t.Errorf("live (-want +got):\n%s", d)
	}
	if len(f.Steps) != 2 {
		t.Fatalf("got %d steps", len(f.Steps))
	}
	s0, s1 := f.Steps[0], f.Steps[1]
	if s0.Op != OpUpdate || s0.Manager != "u" || s0.APIVersion != "v1" || s0.Expect != nil || s0.Line != 11 {
		t.Errorf("step 0: %+v", s0)
	}
	wantObj := map[string]any{"big": int64(9007199254740993), "neg": int64(-16), "float": 1000.0, "when": "2020-01-01"}
	if d := cmp.Diff(wantObj, s0.Object); d != "" {
		t.Errorf("step 0 object (-want +got):\n%s", d)
	}
	if s1.APIVersion != "v2" || s1.Object != nil || s1.Expect == nil {
		t.Fatalf("step 1: %+v", s1)
	}
	x := s1.Expect
	if !x.HasObject || !x.HasManagers || len(x.Managers) != 0 || !x.HasError || x.Error != "conflict" ||
		!cmp.Equal(x.Conflicts, []Conflict{{Manager: "m", Path: ".a"}}) || x.Line != 22 {
		t.Errorf("step 1 expect: %+v", x)
	}
	if f.Expect == nil || !f.Expect.HasObject || f.Expect.Object != nil || f.Expect.HasManagers {
		t.Errorf("final expect: %+v", f.Expect)
	}
}

func TestParseNoLive(t *testing.T) {
	f, err := parseString(t, t.TempDir(), inlineSchema+`type: widget
steps:
- {op: forceApply, manager: m, object: {a: 1}}
`)
	if err != nil {
		t.Fatal(err)
	}
	if f.Live.HasObject || f.Live.Managers != nil || f.Expect != nil || f.Description != "" {
		t.Errorf("got %+v", f)
	}
	if f.Schema.File != "" || !strings.Contains(string(f.Schema.Text), "name: widget") {
		t.Errorf("schema %+v", f.Schema)
	}
}

func TestParseFieldsAsJSONStringAndNullExpect(t *testing.T) {
	f, err := parseString(t, t.TempDir(), inlineSchema+`type: widget
live:
  managers:
    m: {fields: '{"f:a": {}}'}
steps:
- {op: apply, manager: m, object: {}, expect: null}
expect:
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(f.Live.Managers["m"].FieldsV1); got != `{"f:a": {}}` {
		t.Errorf("fields = %s", got)
	}
	if f.Steps[0].Expect != nil || f.Expect != nil {
		t.Errorf("null expect must mean no expectations")
	}
	_, err = parseString(t, t.TempDir(), inlineSchema+"type: widget\nlive: {managers: {m: {fields: 'f:a'}}}\nsteps:\n- {op: apply, manager: m, object: {}}\n")
	if err == nil || !strings.Contains(err.Error(), "must hold a FieldsV1 JSON object") {
		t.Errorf("got %v", err)
	}
}

func TestParseInlineSchemaAsMapping(t *testing.T) {
	f, err := parseString(t, t.TempDir(), `schema:
  inline:
    types:
    - name: widget
type: widget
steps:
- {op: apply, manager: m, object: {}}
`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(f.Schema.Text), "types:") || !strings.Contains(string(f.Schema.Text), "name: widget") {
		t.Errorf("schema text %q", f.Schema.Text)
	}
}

func TestParseKubernetes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), []byte("kind: CustomResourceDefinition\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := parseString(t, dir, `description: k
kubernetes: true
crds: [crd.yaml]
live: null
steps:
- op: update
  manager: kcm
  subresource: scale
  object: {spec: {replicas: 2}}
  expect:
    error: boom
expect:
  object: {kind: Deployment}
`)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Kubernetes || len(f.CRDs) != 1 || f.CRDs[0].File != filepath.Join(dir, "crd.yaml") || f.Schema != nil {
		t.Errorf("got %+v", f)
	}
	if f.Live.HasObject {
		t.Errorf("live: null must mean no object")
	}
	if s := f.Steps[0]; s.Subresource != "scale" || s.APIVersion != "" {
		t.Errorf("step %+v", s)
	}
}

func TestParseErrors(t *testing.T) {
	const head = inlineSchema + "type: widget\n"
	const step = "steps:\n- {op: apply, manager: m, object: {}}\n"
	tests := []struct {
		name, text string
		line       int
		want       string
	}{
		{"empty", "", 0, "the file is empty"},
		{"not a mapping", "- a\n", 1, "a scenario must be a mapping, not a list"},
		{"bad yaml", "a: [\n", 1, "invalid YAML"},
		{"two documents", head + step + "---\na: 1\n", 8, "more than one YAML document"},
		{"unknown top key", head + step + "expects: {}\n", 8, `unknown key "expects"`},
		{"kubernetes key in structured", head + step + "crds: []\n", 8, `key "crds" is not valid in a structured scenario`},
		{"structured key in kubernetes", "kubernetes: true\ntype: x\n" + step, 2, `key "type" is not valid in a kubernetes scenario`},
		{"kubernetes not bool", "kubernetes: yes please\n" + step, 1, "kubernetes must be true or false"},
		{"missing schema", "type: widget\n" + step, 1, `missing key "schema"`},
		{"missing type", inlineSchema + step, 1, `missing key "type"`},
		{"missing steps", head, 1, `missing key "steps"`},
		{"empty steps", head + "steps: []\n", 6, "steps must not be empty"},
		{"steps not list", head + "steps: {}\n", 6, "steps must be a list"},
		{"schema both", "schema: {file: a.yaml, inline: x}\ntype: w\n" + step, 1, "either file or inline"},
		{"schema neither", "schema: {}\ntype: w\n" + step, 1, "give file or inline"},
		{"schema file missing", "schema: {file: nope.yaml}\ntype: w\n" + step, 1, "cannot read"},
		{"type not string", inlineSchema + "type: [a]\n" + step, 5, "type must be a string"},
		{"unknown op", head + "steps:\n- {op: patch, manager: m, object: {}}\n", 7, `unknown operation "patch"`},
		{"missing op", head + "steps:\n- {manager: m, object: {}}\n", 7, `missing key "op"`},
		{"missing manager", head + "steps:\n- {op: apply, object: {}}\n", 7, `missing key "manager"`},
		{"empty manager", head + "steps:\n- {op: apply, manager: '', object: {}}\n", 7, "must not be empty"},
		{"missing object", head + "steps:\n- {op: apply, manager: m}\n", 7, `missing key "object"`},
		{"unknown step key", head + "steps:\n- {op: apply, manager: m, object: {}, objekt: {}}\n", 7, `unknown key "objekt"`},
		{"subresource in structured", head + "steps:\n- {op: apply, manager: m, object: {}, subresource: status}\n", 7, `key "subresource" is not valid in a step of a structured scenario`},
		{"conflicts on update", head + "steps:\n- op: update\n  manager: m\n  object: {}\n  expect: {conflicts: [{manager: a, path: .x}]}\n", 10, "only a non-forced apply can conflict"},
		{"empty conflicts", head + "steps:\n- op: apply\n  manager: m\n  object: {}\n  expect: {conflicts: []}\n", 10, "must not be empty"},
		{"conflict missing path", head + "steps:\n- op: apply\n  manager: m\n  object: {}\n  expect: {conflicts: [{manager: a}]}\n", 10, `missing key "path"`},
		{"duplicate conflict", head + "steps:\n- op: apply\n  manager: m\n  object: {}\n  expect: {conflicts: [{manager: a, path: .x}, {manager: a, path: .x}]}\n", 10, "listed twice"},
		{"error not string", head + "steps:\n- op: apply\n  manager: m\n  object: {}\n  expect: {error: 3}\n", 10, "must be a string"},
		{"conflicts in final expect", head + step + "expect: {conflicts: [{manager: a, path: .x}]}\n", 8, "only valid in the expect of a step"},
		{"managers in kubernetes", "kubernetes: true\n" + step + "expect: {managers: {}}\n", 4, "not valid in a kubernetes scenario"},
		{"duplicate key", head + step + "description: a\ndescription: b\n", 9, `key "description" appears twice`},
		{"duplicate key in object", head + "steps:\n- op: apply\n  manager: m\n  object: {a: 1, a: 2}\n", 9, `mapping key "a" appears twice`},
		{"merge key", head + "steps:\n- op: apply\n  manager: m\n  object: {<<: {a: 1}}\n", 9, "merge keys"},
		{"int overflow", head + "steps:\n- op: apply\n  manager: m\n  object: {a: 9223372036854775808}\n", 9, "does not fit in 64 bits"},
		{"custom tag", head + "steps:\n- op: apply\n  manager: m\n  object: {a: !thing x}\n", 9, "unsupported YAML tag !thing"},
		{"manager without fields", head + "live: {managers: {m: {applied: true}}}\n" + step, 6, `live.managers.m: missing key "fields"`},
		{"fields not mapping", head + "live: {managers: {m: {fields: [a]}}}\n" + step, 6, "must be a mapping in FieldsV1 form"},
		{"applied not bool", head + "live: {managers: {m: {applied: yes, fields: {}}}}\n" + step, 6, "applied must be true or false"},
		{"unknown manager key", head + "live: {managers: {m: {fields: {}, owner: x}}}\n" + step, 6, `unknown key "owner"`},
		{"live not mapping", head + "live: [a]\n" + step, 6, "live must be a mapping"},
		{"unknown live key", head + "live: {objects: {}}\n" + step, 6, `unknown key "objects"`},
		{"description not string", "description: [a]\n" + head + step, 1, "description must be a string"},
		{"crds not list", "kubernetes: true\ncrds: a.yaml\n" + step, 2, "crds must be a list"},
		{"crd missing", "kubernetes: true\ncrds: [nope.yaml]\n" + step, 2, "cannot read"},
		{"deep nesting", head + "steps:\n- op: apply\n  manager: m\n  object: " + strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2) + "\n", 9, "nested more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := parseString(t, dir, tt.text)
			if err == nil {
				t.Fatalf("no error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if pe.File != filepath.Join(dir, "test.yaml") || !strings.HasPrefix(err.Error(), pe.File+":") {
				t.Errorf("error does not name the file: %v", err)
			}
			if pe.Line != tt.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestLoadFileMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "none.yaml")
	_, err := LoadFile(p)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != p || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
}

func TestAliasBomb(t *testing.T) {
	// Each level doubles the size; the node budget must stop the expansion.
	var b strings.Builder
	b.WriteString(inlineSchema + "type: widget\nx:\n")
	b.WriteString("      - &a0 [x, x]\n")
	for i := 1; i < 40; i++ {
		b.WriteString("      - &a" + itoa(i) + " [*a" + itoa(i-1) + ", *a" + itoa(i-1) + "]\n")
	}
	text := strings.Replace(b.String(), "x:\n", "steps:\n- op: apply\n  manager: m\n  object:\n    all:\n", 1) + "    k: *a39\n"
	_, err := parseString(t, t.TempDir(), text)
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("got %v", err)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

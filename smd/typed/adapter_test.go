package typed_test

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// A schema as SMD accepts it in a Parser built as a struct literal: the
// type "b" twice (the last counts), a reference to an undefined type, an
// unknown scalar word. (NewParser, like SMD's, rejects the duplicate.)
const laxSchema = `types:
- name: a
  map:
    fields:
    - name: b
      type:
        namedType: b
    - name: gone
      type:
        namedType: nowhere
- name: b
  scalar: string
- name: b
  map:
    fields:
    - name: count
      type:
        scalar: number
- name: unrelated
  scalar: numeric
`

// TestParserLiteral: a Parser built as a struct literal, as
// k8s.io/apimachinery builds one, works like one from NewParser, and both
// take what SMD takes. (The test passes on SMD v6.4.2 as well.)
func TestParserLiteral(t *testing.T) {
	var s schema.Schema
	if err := yaml.Unmarshal([]byte(laxSchema), &s); err != nil {
		t.Fatal(err)
	}
	if _, err := typed.NewParser(laxSchema); err == nil || !strings.Contains(err.Error(), `duplicate entries for key [name="b"]`) {
		t.Errorf("NewParser must reject the duplicate type, as SMD's does: %v", err)
	}
	parsed, err := typed.NewParser(typed.YAMLObject(strings.Replace(laxSchema, "- name: b\n  scalar: string\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*typed.Parser{"literal": {Schema: s}, "NewParser": parsed} {
		a := p.Type("a")
		if _, err := a.FromYAML(`{b: {}}`); err != nil {
			t.Errorf("%s: the last definition of b must count: %v", name, err)
		}
		_, err := a.FromYAML(`{b: {count: 1}}`)
		if err == nil || !strings.Contains(err.Error(), "unexpected scalar type in schema: number") {
			t.Errorf("%s: unknown scalar: %v", name, err)
		}
		_, err = a.FromYAML(`{gone: 1}`)
		if err == nil || !strings.Contains(err.Error(), "no type found matching: nowhere") {
			t.Errorf("%s: dangling reference: %v", name, err)
		}
		if _, err := p.Type("missing").FromYAML(`{}`); err == nil {
			t.Errorf("%s: a missing type must be an error", name)
		}
	}
}

// TestResultsOwnTheirMaps: a caller may write into a result's separable
// maps (the Kubernetes field manager sets metadata.managedFields in the
// merged object) without changing the inputs, as with SMD, whose merge
// builds each of them anew; an atomic list is the input's own, as in
// SMD's results.
func TestResultsOwnTheirMaps(t *testing.T) {
	p, err := typed.NewParser(`types:
- name: obj
  map:
    fields:
    - name: metadata
      type: {namedType: meta}
    - name: spec
      type: {namedType: meta}
    - name: tags
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: atomic
- name: meta
  map:
    elementType: {scalar: string}
`)
	if err != nil {
		t.Fatal(err)
	}
	tags := []interface{}{"a", "b"}
	live := map[string]interface{}{"metadata": map[string]interface{}{"name": "a"}, "spec": map[string]interface{}{"x": "1"}, "tags": tags}
	cfg := map[string]interface{}{"metadata": map[string]interface{}{"name": "a"}}
	lv, err := p.Type("obj").FromUnstructured(live)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := p.Type("obj").FromUnstructured(cfg)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := lv.Merge(cv)
	if err != nil {
		t.Fatal(err)
	}
	out := merged.AsValue().Unstructured().(map[string]interface{})
	out["metadata"].(map[string]interface{})["managedFields"] = "x"
	out["spec"].(map[string]interface{})["y"] = "2"
	if len(live["metadata"].(map[string]interface{})) != 1 || len(cfg["metadata"].(map[string]interface{})) != 1 || len(live["spec"].(map[string]interface{})) != 1 {
		t.Errorf("writing into the result changed an input: live %v, config %v", live, cfg)
	}
	if got, ok := out["tags"].([]interface{}); !ok || len(got) != 2 || &got[0] != &tags[0] {
		t.Errorf("the atomic list of the result is not the input's: %#v", out["tags"])
	}
}

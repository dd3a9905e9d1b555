package typed_test

import (
	"strings"
	"testing"

	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// TestValidateAcceptsAnyInAtomic: inside an atomic list the check passes
// over parts of a type that accepts any value (schema.Type.AcceptsAny),
// as the fieldsV1 of managedFields entries, and still checks everything
// else there, at any depth.
func TestValidateAcceptsAnyInAtomic(t *testing.T) {
	s, err := schema.CompileYAML([]byte(`types:
- name: obj
  map:
    fields:
    - {name: entries, type: {list: {elementType: {namedType: entry}, elementRelationship: atomic}}}
    - name: free
      type:
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
        map: {elementType: {namedType: __untyped_deduced_}}
- name: entry
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: fields, type: {map: {elementType: {namedType: __untyped_deduced_}}}}
    - {name: labels, type: {map: {elementType: {scalar: string}}}}
    - {name: keyed, type: {list: {elementType: {namedType: kv}, elementRelationship: associative, keys: [k]}}}
- name: kv
  map:
    fields:
    - {name: k, type: {scalar: string}}
` + testfixture.UntypedTypes))
	if err != nil {
		t.Fatal(err)
	}
	typ, _ := s.Type("obj")
	for _, c := range []struct {
		name, yaml string
		wantErr    string // a substring of the error; "" for none
	}{
		{"anything in fields", `entries: [{name: a, fields: {"f:x": {}, "k:{\"a\":1}": {".": {}}, n: 1, l: [1, {a: [true]}], s: null}}]`, ""},
		{"anything in free, outside an atomic value", `free: {a: [1, {b: 2}], c: {d: x}}`, ""},
		{"a wrong name next to free-form fields", `entries: [{name: 5, fields: {a: [1]}}]`, ".entries[0].name"},
		{"a wrong label deep in an atomic list", `entries: [{fields: {}}, {name: b, labels: {x: [1]}}]`, ".entries[1].labels.x"},
		{"an undeclared field in an atomic list", `entries: [{name: a, fields: {}, other: 1}]`, ".entries[0].other"},
		{"a repeated key in an atomic list", `entries: [{keyed: [{k: a}, {k: a}]}]`, "duplicate"},
		{"fields that are not a map", `entries: [{fields: [1]}]`, ".entries[0].fields"},
	} {
		v, err := value.FromYAML([]byte(c.yaml))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = typed.Validate(typ, v)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want one about %s", c.name, err, c.wantErr)
		}
	}
}

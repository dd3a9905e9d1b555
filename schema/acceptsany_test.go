package schema_test

import (
	"testing"

	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/schema"
)

// TestAcceptsAny: Compile marks the types every value fits, and only
// those: SMD's untyped types, Kubernetes' FieldsV1, types that refer to
// themselves; not a type with a declared field, a keyed or untyped-less
// part, or an element type that does not accept any value, however deep.
func TestAcceptsAny(t *testing.T) {
	const in = `types:` + testfixture.UntypedTypes + `
- name: fieldsV1
  map:
    elementType:
      scalar: untyped
      list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
      map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
- name: self
  scalar: untyped
  list: {elementType: {namedType: self}}
  map: {elementType: {namedType: self}}
- name: withField
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}}
  map: {fields: [{name: a, type: {scalar: string}}], elementType: {namedType: __untyped_atomic_}}
- name: keyed
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: associative}
  map: {elementType: {namedType: __untyped_atomic_}}
- name: stringScalar
  scalar: string
  list: {elementType: {namedType: __untyped_atomic_}}
  map: {elementType: {namedType: __untyped_atomic_}}
- name: noList
  scalar: untyped
  map: {elementType: {namedType: __untyped_atomic_}}
- name: deepString
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}}
  map: {elementType: {namedType: level1}}
- name: level1
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}}
  map: {elementType: {namedType: level2}}
- name: level2
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}}
  map: {elementType: {scalar: string}}
- name: cycleWithString
  scalar: untyped
  list: {elementType: {namedType: cycleWithString}}
  map: {elementType: {namedType: stringScalar}}
`
	s, err := schema.CompileYAML([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"__untyped_atomic_": true, "__untyped_deduced_": true, "self": true,
		"withField": false, "keyed": false, "stringScalar": false, "noList": false,
		"deepString": false, "level1": false, "level2": false, "cycleWithString": false,
	} {
		if got := typeOf(t, s, name).AcceptsAny(); got != want {
			t.Errorf("%s: AcceptsAny = %v, want %v", name, got, want)
		}
	}
	fv := typeOf(t, s, "fieldsV1")
	if fv.AcceptsAny() {
		t.Error("fieldsV1: AcceptsAny = true for a map without an untyped scalar")
	}
	if !fv.Map().ElementType().AcceptsAny() {
		t.Error("fieldsV1's entries: AcceptsAny = false")
	}
	if !schema.Deduced().AcceptsAny() || !schema.UntypedAtomic().AcceptsAny() {
		t.Error("the built-in deduced types do not accept any value")
	}
	var nilType *schema.Type
	if nilType.AcceptsAny() {
		t.Error("a nil type accepts any value")
	}
}

func typeOf(t *testing.T, s *schema.Schema, name string) *schema.Type {
	t.Helper()
	typ, ok := s.Type(name)
	if !ok {
		t.Fatalf("no type %s", name)
	}
	return typ
}

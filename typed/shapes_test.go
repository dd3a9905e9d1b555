package typed_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// shapesSchema has what the validator's remembered shapes must tell
// apart: two lists whose items have the same field names with other types
// (pods' port is a number, hosts' a string), maps of undeclared fields
// (element types), and a recursive type whose maps at one depth each
// have their own names.
const shapesSchema = `types:
- name: root
  map:
    fields:
    - name: pods
      type:
        list:
          elementType:
            map:
              fields:
              - name: name
                type: {scalar: string}
              - name: port
                type: {scalar: numeric}
              - name: ref
                type: {namedType: ref}
          elementRelationship: atomic
    - name: hosts
      type:
        list:
          elementType:
            map:
              fields:
              - name: name
                type: {scalar: string}
              - name: port
                type: {scalar: string}
              - name: ref
                type: {namedType: ref}
          elementRelationship: atomic
    - name: labels
      type:
        list:
          elementType:
            map:
              elementType: {scalar: string}
          elementRelationship: atomic
    - name: tree
      type: {namedType: node}
- name: ref
  map:
    fields:
    - name: kind
      type: {scalar: string}
    - name: uid
      type: {scalar: string}
- name: node
  map:
    fields:
    - name: a
      type: {namedType: node}
    - name: b
      type: {namedType: node}
    - name: n
      type: {scalar: numeric}
`

// TestShapesChangeNoResult checks that validating with the remembered
// shapes, and checking only the first item of a uniform list, finds
// exactly the problems that looking up every field of every item finds, on
// objects converted from maps (whose list items share their name strings,
// and whose lists are uniform when their items are alike) and decoded from
// JSON (whose do not), with problems in the first item, in a later one, in
// every item of a uniform list, and in items whose names are those of a
// list of another type at the same depth.
func TestShapesChangeNoResult(t *testing.T) {
	s, err := schema.CompileYAML([]byte(shapesSchema))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := s.Type("root")
	item := func(name string, port any) map[string]any {
		return map[string]any{"name": name, "port": port, "ref": map[string]any{"kind": "K", "uid": name}}
	}
	list := func(n int, bad int, port, badPort any) []any {
		var l []any
		for i := range n {
			p := port
			if i == bad {
				p = badPort
			}
			l = append(l, item(fmt.Sprint("i", i), p))
		}
		return l
	}
	objects := map[string]map[string]any{
		"valid": {"pods": list(5, -1, 80, nil), "hosts": list(5, -1, "80", nil)},
		// The same names in both lists, each with the other's types: a
		// shape that kept the types of the first list would pass the
		// second or fail both.
		"swapped":   {"pods": list(4, -1, "80", nil), "hosts": list(4, -1, 80, nil)},
		"bad first": {"pods": list(4, 0, 80, "x"), "hosts": list(4, 0, "80", 1)},
		"bad later": {"pods": list(6, 4, 80, "x"), "hosts": list(6, 5, "80", true)},
		"unknown":   {"pods": []any{item("a", 1), map[string]any{"name": "b", "port": 2, "rev": map[string]any{}}, item("c", 3)}},
		"bad ref":   {"pods": []any{item("a", 1), map[string]any{"name": "b", "port": 2, "ref": map[string]any{"kind": 1, "uid": "u"}}}},
		"bad refs": {"hosts": []any{
			map[string]any{"name": "a", "port": "1", "ref": map[string]any{"kind": 1, "uid": "u"}},
			map[string]any{"name": "b", "port": "2", "ref": map[string]any{"kind": 2, "uid": "v"}},
		}},
		"element map": {"labels": []any{map[string]any{"a": "x", "b": "y"}, map[string]any{"a": "x", "b": 2}, map[string]any{"a": 3}}},
		"recursive": {"tree": map[string]any{
			"a": map[string]any{"a": map[string]any{"n": 1}, "b": map[string]any{"n": "x"}},
			"b": map[string]any{"a": map[string]any{"n": "y"}, "b": map[string]any{"a": map[string]any{"n": 2}, "n": 3}},
		}},
	}
	problems, uniform := 0, 0
	for name, obj := range objects {
		fromMaps, err := value.FromUnstructured(obj)
		if err != nil {
			t.Fatal(err)
		}
		uniform += typed.UniformLists(fromMaps)
		fromJSON, err := value.FromJSON(value.ToJSON(fromMaps))
		if err != nil {
			t.Fatal(err)
		}
		for form, v := range map[string]value.Value{"maps": fromMaps, "JSON": fromJSON} {
			want := typed.ValidateWithoutShapes(root, v)
			for range 2 { // twice: the result depends on nothing kept between walks
				if got := typed.Validate(root, v); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s from %s: with shapes\n%v\nwithout\n%v", name, form, got, want)
				}
			}
			if want != nil {
				problems += strings.Count(want.Error(), "\n") + 1
			}
			if (want == nil) != (name == "valid") {
				t.Errorf("%s from %s: problems %v", name, form, want)
			}
		}
	}
	if problems < 20 {
		t.Errorf("only %d problems found: the objects no longer test the shapes", problems)
	}
	if uniform < 5 {
		t.Errorf("only %d uniform lists: the objects no longer test them", uniform)
	}
	if dirty := typed.PooledScratchDirty(); dirty != "" {
		t.Fatal(dirty)
	}
}

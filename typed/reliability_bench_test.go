package typed_test

import (
	"strconv"
	"testing"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// Benchmarks that show how the cost of the typed operations grows with two
// kinds of hostile input (docs/reliability.md, internal/hostile): a keyed
// list whose items all repeat one key, and keyed lists nested in each other.
// Both should grow about linearly (n log n at most); compare the ns/op of
// successive sizes:
//
//	go test -run '^$' -bench 'RepeatedKeys|NestedKeyedLists' ./typed/

// BenchmarkRepeatedKeys validates, takes the field set of and merges into
// a list of n items that all have the key name=a.
func BenchmarkRepeatedKeys(b *testing.B) {
	w := fvWidget(b)
	for _, n := range []int{1000, 2000, 4000, 8000} {
		items := make([]value.Value, n)
		item := value.NewMap([]value.Field{{Name: "name", Value: value.NewString("a")}})
		for i := range items {
			items[i] = item
		}
		v := value.NewMap([]value.Field{{Name: "containers", Value: value.NewList(items)}})
		b.Run("Validate/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				_ = typed.Validate(w, v)
			}
		})
		b.Run("FieldSet/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := typed.FieldSet(w, v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Compare/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := typed.Compare(w, v, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNestedKeyedLists takes the field set of, and compares with the
// empty object, a value of depth keyed lists nested in each other (each
// item holds the next list).
func BenchmarkNestedKeyedLists(b *testing.B) {
	s, err := schema.CompileYAML([]byte(`types:
- name: node
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: items
      type:
        list:
          elementType: {namedType: node}
          elementRelationship: associative
          keys: [name]
`))
	if err != nil {
		b.Fatal(err)
	}
	n, _ := s.Type("node")
	for _, depth := range []int{1000, 2000, 4000, 8000} {
		v := value.NewMap([]value.Field{{Name: "name", Value: value.NewString("leaf")}})
		for range depth {
			v = value.NewMap([]value.Field{{Name: "name", Value: value.NewString("x")}, {Name: "items", Value: value.NewList([]value.Value{v})}})
		}
		b.Run("FieldSet/depth="+strconv.Itoa(depth), func(b *testing.B) {
			for b.Loop() {
				if _, err := typed.FieldSet(n, v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Compare/depth="+strconv.Itoa(depth), func(b *testing.B) {
			for b.Loop() {
				if _, err := typed.Compare(n, v, value.NewMap(nil)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

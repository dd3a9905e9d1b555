package fieldpath_test

import (
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/outside"
	"github.com/structmerge/structmerge/value"
)

// TestCallersCannotCorruptSets tries, as a caller of the public API, each
// way a set or a path element used to share memory with its caller: the
// slice given to Key changed or sorted afterwards, the members, children
// and key fields an accessor gives changed. The shared set and element
// stay as they were.
func TestCallersCannotCorruptSets(t *testing.T) {
	fields := []value.Field{{Name: "port", Value: value.NewInt(80)}, {Name: "name", Value: value.NewString("http")}}
	key := fieldpath.Key(fields)
	if fields[0].Name != "port" {
		t.Errorf("Key sorted the caller's slice: %v", fields)
	}
	want := `[name="http",port=80]`
	fields[0].Value = value.NewInt(1)
	fields[1] = value.Field{Name: "aaa", Value: value.NewNull()}
	if got := key.String(); got != want {
		t.Errorf("changing the slice given to Key changed the element: %s, want %s", got, want)
	}
	for _, f := range key.Key() {
		f.Name = "changed"
	}

	s := fieldpath.NewSet(
		fieldpath.Path{fieldpath.FieldName("a")},
		fieldpath.Path{fieldpath.FieldName("ports"), key, fieldpath.FieldName("port")},
	)
	before := s.String()
	for _, pe := range s.Members() {
		pe = fieldpath.FieldName("changed")
		_ = pe
	}
	for _, c := range s.Children() {
		c.Set = nil
		c.Element = fieldpath.FieldName("changed")
	}
	if got := s.String(); got != before || key.String() != want {
		t.Errorf("changing what the accessors gave changed the set: %s, want %s", got, before)
	}
}

// TestOutsideCannotReachSetInternals builds packages of another module:
// path elements cannot be compared with == (which compared pointers), the
// accessors cannot be indexed, and the element of a value by pointer is
// internal.
func TestOutsideCannotReachSetInternals(t *testing.T) {
	const imp = "import \"github.com/structmerge/structmerge/fieldpath\"\n\n"
	outside.Refused(t, "..", [][3]string{
		{"compare with ==", imp + "var F = fieldpath.FieldName(\"a\") == fieldpath.FieldName(\"a\")\n", "cannot be compared"},
		{"map key", imp + "var F = map[fieldpath.PathElement]bool{}\n", "invalid map key"},
		{"index Members", imp + "func F(s *fieldpath.Set) fieldpath.PathElement { return s.Members()[0] }\n", "cannot index"},
		{"index Children", imp + "func F(s *fieldpath.Set) { s.Children()[0].Set = nil }\n", "cannot index"},
		{"index Key", imp + "func F(e fieldpath.PathElement) { e.Key()[0].Name = \"x\" }\n", "cannot index"},
		{"element of a pointer", imp + "var F = fieldpath.MemberValueOf\n", "undefined: fieldpath.MemberValueOf"},
	})
}

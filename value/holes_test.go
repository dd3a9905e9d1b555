package value_test

import (
	"testing"

	"github.com/structmerge/structmerge/internal/outside"
	"github.com/structmerge/structmerge/value"
)

// TestCallersCannotCorruptValues tries, as a caller of the public API,
// each way a value used to share memory with its caller: a constructor's
// slice changed or sorted afterwards, an accessor's elements changed. The
// value and the caller's slice stay as they were.
func TestCallersCannotCorruptValues(t *testing.T) {
	fields := []value.Field{{Name: "b", Value: value.NewInt(2)}, {Name: "a", Value: value.NewInt(1)}}
	m := value.NewMap(fields)
	if fields[0].Name != "b" || fields[1].Name != "a" {
		t.Errorf("NewMap sorted the caller's slice: %v", fields)
	}
	want := `{"a":1,"b":2}`
	fields[0] = value.Field{Name: "a", Value: value.NewString("changed")}
	fields[1].Value = value.NewString("changed")
	if got := string(value.ToJSON(m)); got != want {
		t.Errorf("changing the slice given to NewMap changed the map: %s, want %s", got, want)
	}

	items := []value.Value{value.NewInt(1), value.NewInt(2)}
	l := value.NewList(items)
	items[0] = value.NewString("changed")
	if got := string(value.ToJSON(l)); got != "[1,2]" {
		t.Errorf("changing the slice given to NewList changed the list: %s", got)
	}

	// Accessors yield copies: changing them changes nothing.
	for _, f := range m.Fields() {
		f.Name = "changed"
		f.Value = value.NewNull()
	}
	for _, it := range l.Items() {
		it = value.NewNull()
		_ = it
	}
	f := m.FieldAt(0)
	f.Name = "changed"
	if got := string(value.ToJSON(m)) + string(value.ToJSON(l)); got != want+"[1,2]" {
		t.Errorf("changing what the accessors gave changed the values: %s", got)
	}
}

// TestOutsideCannotReachBackingArrays builds packages of another module:
// the accessors are iterators, which cannot be indexed or appended to, and
// the module's ownership-taking operations are internal.
func TestOutsideCannotReachBackingArrays(t *testing.T) {
	outside.Refused(t, "..", [][3]string{
		{"index Items", "import \"github.com/structmerge/structmerge/value\"\n\nfunc F(v value.Value) { v.Items()[0] = value.NewNull() }\n", "cannot index"},
		{"append to Fields", "import \"github.com/structmerge/structmerge/value\"\n\nvar F = append(value.NewMap(nil).Fields(), value.Field{})\n", "iter.Seq2"},
		{"compare with ==", "import \"github.com/structmerge/structmerge/value\"\n\nvar F = value.NewInt(1) == value.NewInt(1)\n", "cannot be compared"},
		{"internal ownership", "import \"github.com/structmerge/structmerge/internal/valueown\"\n\nvar F = valueown.Register[int, int]\n", "use of internal package"},
		{"internal codec operations", "import \"github.com/structmerge/structmerge/internal/valueown\"\n\nvar F = valueown.DecodeOf[int, int]\n", "use of internal package"},
	})
}

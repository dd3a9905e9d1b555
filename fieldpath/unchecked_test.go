package fieldpath_test

import (
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/outside"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
)

func TestValueOf(t *testing.T) {
	v := value.NewString("x")
	pe := own.Set.ValueOf(&v)
	if !pe.Equal(fieldpath.MemberValue(value.NewString("x"))) || pe.String() != `[="x"]` {
		t.Errorf("ValueOf = %v, want [=\"x\"]", pe)
	}
}

// TestUncheckedSealed: a package outside the module cannot reach the
// Assembler, its operations that trust their caller, nor the memory sets
// are made of, so none of these compiles.
func TestUncheckedSealed(t *testing.T) {
	outside.Refused(t, "..", [][3]string{
		{"import valueown", `import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/valueown"
)

var F = valueown.NodesOf[*fieldpath.Set, fieldpath.PathElement, fieldpath.Child]
`, "use of internal package"},
		{"import own", `import "github.com/structmerge/structmerge/internal/own"

var F = own.Set.Members
`, "use of internal package"},
		{"import setasm", `import "github.com/structmerge/structmerge/internal/setasm"

func F(a *setasm.Assembler) { a.SetOf(nil, nil) }
`, "use of internal package"},
		{"import setarena", `import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/setarena"
)

var F setarena.Arena[fieldpath.PathElement, fieldpath.Child, fieldpath.Set]
`, "use of internal package"},
		{"the Assembler", `import "github.com/structmerge/structmerge/fieldpath"

func F(a *fieldpath.Assembler) *fieldpath.Set { return a.CloseInOrder(a.Open()) }
`, "undefined: fieldpath.Assembler"},
		{"the Assembler's level", `import "github.com/structmerge/structmerge/fieldpath"

var F fieldpath.Level
`, "undefined: fieldpath.Level"},
		{"the old unchecked operations", `import "github.com/structmerge/structmerge/fieldpath"

var F = fieldpath.Unchecked
`, "undefined: fieldpath.Unchecked"},
	})
}

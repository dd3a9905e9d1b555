package fieldpath_test

import (
	"strings"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/outside"
	"github.com/structmerge/structmerge/internal/own"
)

func mustPanic(t *testing.T, what, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("%s: no panic", what)
		}
		if msg, _ := r.(string); !strings.Contains(msg, want) {
			t.Fatalf("%s: panic %v, want %q", what, r, want)
		}
	}()
	f()
}

// TestUncheckedInvariants: in the checking build (-race, as CI runs the
// tests, or -tags invariants) a set made from broken entries panics.
func TestUncheckedInvariants(t *testing.T) {
	if !fieldpath.InvariantsChecked {
		t.Skip("invariants are checked only with -race or -tags invariants")
	}
	a, b := fieldpath.FieldName("a"), fieldpath.FieldName("b")
	child := fieldpath.NewSet(fieldpath.Path{a})
	var asm fieldpath.Assembler
	mustPanic(t, "members out of order", "out of order", func() {
		own.Assembler.SetOf(&asm, []fieldpath.PathElement{b, a}, nil)
	})
	mustPanic(t, "repeated member", "out of order or repeated", func() {
		own.Assembler.SetOf(&asm, []fieldpath.PathElement{a, a}, nil)
	})
	mustPanic(t, "children out of order", "children out of order", func() {
		own.Assembler.SetOf(&asm, nil, []fieldpath.Child{{Element: b, Set: child}, {Element: a, Set: child}})
	})
	mustPanic(t, "empty child", "empty child", func() {
		own.Assembler.SetOf(&asm, nil, []fieldpath.Child{{Element: a}})
	})
	mustPanic(t, "CloseInOrder out of order", "out of order", func() {
		var asm fieldpath.Assembler
		l := asm.Open()
		asm.AddMember(b)
		asm.AddMember(a)
		own.Assembler.CloseInOrder(&asm, l)
	})
	// In order, the same entries make a good set.
	if s := own.Assembler.SetOf(&asm, []fieldpath.PathElement{a, b}, nil); s.Size() != 2 {
		t.Errorf("good set: %v", s)
	}
}

// TestUncheckedSealed: a package outside the module cannot reach the
// operations that trust their caller, so a call does not compile.
func TestUncheckedSealed(t *testing.T) {
	outside.Refused(t, "..", [][3]string{
		{"import valueown", `import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/valueown"
)

var F = valueown.AssemblerOf[*fieldpath.Assembler, fieldpath.Level, *fieldpath.Set, fieldpath.PathElement, fieldpath.Child]
`, "use of internal package"},
		{"import own", `import "github.com/structmerge/structmerge/internal/own"

var F = own.Assembler.SetOf
`, "use of internal package"},
		{"a method of the Assembler", `import "github.com/structmerge/structmerge/fieldpath"

func F(a *fieldpath.Assembler) *fieldpath.Set { return a.CloseInOrder(a.Open()) }
`, "a.CloseInOrder undefined"},
		{"the scratch stacks", `import "github.com/structmerge/structmerge/fieldpath"

func F(a *fieldpath.Assembler) { a.TakeScratch() }
`, "a.TakeScratch undefined"},
		{"the old unchecked operations", `import "github.com/structmerge/structmerge/fieldpath"

var F = fieldpath.Unchecked
`, "undefined: fieldpath.Unchecked"},
	})
}

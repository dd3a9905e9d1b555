package setasm_test

import (
	"strings"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/setasm"
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
	if !setasm.InvariantsChecked {
		t.Skip("invariants are checked only with -race or -tags invariants")
	}
	a, b := fieldpath.FieldName("a"), fieldpath.FieldName("b")
	child := fieldpath.NewSet(fieldpath.Path{a})
	var asm setasm.Assembler
	mustPanic(t, "members out of order", "out of order", func() {
		asm.SetOf([]fieldpath.PathElement{b, a}, nil)
	})
	mustPanic(t, "repeated member", "out of order or repeated", func() {
		asm.SetOf([]fieldpath.PathElement{a, a}, nil)
	})
	mustPanic(t, "children out of order", "children out of order", func() {
		asm.SetOf(nil, []fieldpath.Child{{Element: b, Set: child}, {Element: a, Set: child}})
	})
	mustPanic(t, "empty child", "empty child", func() {
		asm.SetOf(nil, []fieldpath.Child{{Element: a}})
	})
	mustPanic(t, "CloseInOrder out of order", "out of order", func() {
		var asm setasm.Assembler
		l := asm.Open()
		asm.AddMember(b)
		asm.AddMember(a)
		asm.CloseInOrder(l)
	})
	// In order, the same entries make a good set.
	if s := asm.SetOf([]fieldpath.PathElement{a, b}, nil); s.Size() != 2 {
		t.Errorf("good set: %v", s)
	}
}

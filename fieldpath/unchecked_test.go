package fieldpath_test

import (
	"strings"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/outside"
	"github.com/structmerge/structmerge/internal/seal"
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
		fieldpath.Unchecked.SetOf(seal.Allow, &asm, []fieldpath.PathElement{b, a}, nil)
	})
	mustPanic(t, "repeated member", "out of order or repeated", func() {
		fieldpath.Unchecked.SetOf(seal.Allow, &asm, []fieldpath.PathElement{a, a}, nil)
	})
	mustPanic(t, "children out of order", "children out of order", func() {
		fieldpath.Unchecked.SetOf(seal.Allow, &asm, nil, []fieldpath.Child{{Element: b, Set: child}, {Element: a, Set: child}})
	})
	mustPanic(t, "empty child", "empty child", func() {
		fieldpath.Unchecked.SetOf(seal.Allow, &asm, nil, []fieldpath.Child{{Element: a}})
	})
	mustPanic(t, "CloseInOrder out of order", "out of order", func() {
		var asm fieldpath.Assembler
		l := asm.Open()
		asm.AddMember(b)
		asm.AddMember(a)
		fieldpath.Unchecked.CloseInOrder(seal.Allow, &asm, l)
	})
	// In order, the same entries make a good set.
	if s := fieldpath.Unchecked.SetOf(seal.Allow, &asm, []fieldpath.PathElement{a, b}, nil); s.Size() != 2 {
		t.Errorf("good set: %v", s)
	}
}

// zeroArg returns the zero value of f's first parameter type: generic type
// inference is how code outside the module could get a seal.Token without
// naming it.
func zeroArg[T, A, L, R any](func(T, A, L) R) T {
	var t T
	return t
}

func TestUncheckedRefusesZeroToken(t *testing.T) {
	var asm fieldpath.Assembler
	tok := zeroArg(fieldpath.Unchecked.CloseInOrder)
	mustPanic(t, "zero token", "outside the module", func() {
		fieldpath.Unchecked.CloseInOrder(tok, &asm, asm.Open())
	})
}

// TestUncheckedSealed: a package outside the module cannot name the token
// the unchecked operations want, so a call does not compile.
func TestUncheckedSealed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	for _, tc := range []struct{ name, body, want string }{
		{"import seal", `import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/seal"
)

func F(a *fieldpath.Assembler) *fieldpath.Set { return fieldpath.Unchecked.CloseInOrder(seal.Allow, a, a.Open()) }
`, "use of internal package"},
		{"a literal token", `import "github.com/structmerge/structmerge/fieldpath"

func F(a *fieldpath.Assembler) *fieldpath.Set { return fieldpath.Unchecked.CloseInOrder(struct{ inside bool }{}, a, a.Open()) }
`, "cannot use"},
		{"a method of the Assembler", `import "github.com/structmerge/structmerge/fieldpath"

func F(a *fieldpath.Assembler) *fieldpath.Set { return a.CloseInOrder(a.Open()) }
`, "a.CloseInOrder undefined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := outside.Build(t, "..", tc.body)
			if err == nil {
				t.Fatalf("an outside package compiled a call of an unchecked operation")
			}
			if !strings.Contains(string(out), tc.want) {
				t.Fatalf("build failed, but not as expected (%q):\n%s", tc.want, out)
			}
		})
	}
}

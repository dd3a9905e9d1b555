package merge_test

import (
	"testing"

	"github.com/structmerge/structmerge/internal/outside"
)

// TestWriterFieldsNamed: outside the package, a Writer whose two strings
// are not named does not compile, so a version and a manager cannot be
// swapped silently; the named form compiles.
func TestWriterFieldsNamed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	for _, tc := range []struct {
		name, literal string
		compiles      bool
	}{
		{"named", `merge.Writer{Manager: "kubectl", APIVersion: "v1"}`, true},
		{"unnamed", `merge.Writer{"v1", "kubectl"}`, false},
		{"unnamed with the blank field", `merge.Writer{struct{}{}, "v1", "kubectl"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := outside.Build(t, "..", "import \"github.com/structmerge/structmerge/merge\"\n\nvar W = "+tc.literal+"\n")
			if tc.compiles && err != nil {
				t.Fatalf("%s does not compile:\n%s", tc.literal, out)
			}
			if !tc.compiles && err == nil {
				t.Fatalf("%s compiles", tc.literal)
			}
		})
	}
}

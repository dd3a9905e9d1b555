package typed_test

import (
	"testing"

	"github.com/structmerge/structmerge/internal/outside"
)

// TestMergeHelpersHidden: the merge's helpers are not typed's API, and the
// package that holds them for the merge is internal.
func TestMergeHelpersHidden(t *testing.T) {
	outside.Refused(t, "..", [][3]string{
		{"EnsureNamedFieldsAreMembers", "import \"github.com/structmerge/structmerge/typed\"\n\nvar F = typed.EnsureNamedFieldsAreMembers\n", "undefined: typed.EnsureNamedFieldsAreMembers"},
		{"NamedFieldsCovered", "import \"github.com/structmerge/structmerge/typed\"\n\nvar F = typed.NamedFieldsCovered\n", "undefined: typed.NamedFieldsCovered"},
		{"own", "import \"github.com/structmerge/structmerge/internal/own\"\n\nvar F = own.Typed.NamedFieldsCovered\n", "use of internal package"},
	})
}

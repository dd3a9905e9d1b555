package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/conformance/smdengine"
	"github.com/structmerge/structmerge/internal/scenario"
)

// TestReliabilityScenarioOnSMD runs the scenario files named in
// RELIABILITY_SCENARIOS (paths separated by the list separator) on the
// reference and prints each result. It is a tool for deciding whether an
// invariant the fuzz targets find broken (docs/reliability.md) is the
// reference's behaviour too; without the variable it is skipped.
func TestReliabilityScenarioOnSMD(t *testing.T) {
	list := os.Getenv("RELIABILITY_SCENARIOS")
	if list == "" {
		t.Skip("set RELIABILITY_SCENARIOS to scenario files to run them on the reference")
	}
	for _, p := range strings.Split(list, string(filepath.ListSeparator)) {
		f, err := scenario.LoadFile(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		r := scenario.Run(smdengine.Engine{}, f)
		if !r.Passed {
			t.Errorf("on the reference:\n%s", r)
		} else {
			t.Logf("%s: passed on the reference", p)
		}
	}
}

package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/conformance/smdengine"
	"github.com/structmerge/structmerge/internal/scenario"
)

// TestReliabilityQuirksOnSMD runs the scenarios of testdata/fuzz/quirks on
// the reference: each shows a case where an invariant FuzzApply checks
// (applying a configuration twice is a no-op, a result holds its
// configuration) does not hold exactly, and FuzzApply accepts it because the
// reference behaves the same. They must pass here, as they do on structmerge
// (merge.TestFuzzQuirkScenarios).
func TestReliabilityQuirksOnSMD(t *testing.T) {
	paths, err := filepath.Glob("../testdata/fuzz/quirks/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no quirk scenarios: %v", err)
	}
	for _, p := range paths {
		f, err := scenario.LoadFile(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if r := scenario.Run(smdengine.Engine{}, f); !r.Passed {
			t.Errorf("the reference does not do what %s says:\n%s", p, r)
		}
	}
}

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

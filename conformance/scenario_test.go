package conformance

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/conformance/smdengine"
	"github.com/structmerge/structmerge/internal/scenario"
)

// scenarioRoot holds the scenario corpus.
const scenarioRoot = "../testdata/scenarios"

// deviations lists the scenarios, by path relative to scenarioRoot, whose
// expectations describe what structmerge does where the reference is wrong
// (docs/compatibility.md explains each one). They must fail on the
// reference: if one passes, the reference was fixed or the scenario no
// longer shows the deviation.
var deviations = map[string]string{
	"quirks/q1.yaml": "SMD prunes a keyed item down to its key-less remains and then rejects its own result (element 0 omits all key fields)",
	"quirks/q2.yaml": "SMD drops an item with a defaulted key that another manager still applies (data loss, ownership silently lost)",
	"quirks/q3.yaml": "SMD rejects an apply of an unrelated field because an update left a null item in a list with a defaulted key",
	"quirks/q4.yaml": "SMD accepts a list schema whose relationship is neither atomic nor associative, then refuses every value of that list",
}

// structuredScenarios returns the structured scenario files of the corpus
// (Kubernetes-flavour files are run by the Kubernetes conformance tests).
func structuredScenarios(t *testing.T) []*scenario.File {
	t.Helper()
	paths, err := scenario.Files([]string{scenarioRoot})
	if err != nil {
		t.Fatal(err)
	}
	var out []*scenario.File
	for _, p := range paths {
		f, err := scenario.LoadFile(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if !f.Kubernetes {
			out = append(out, f)
		}
	}
	return out
}

func relName(t *testing.T, path string) string {
	t.Helper()
	rel, err := filepath.Rel(scenarioRoot, path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

// TestScenariosOnSMD runs every structured scenario on the reference. Each
// must pass, except the listed deviations, which must fail.
func TestScenariosOnSMD(t *testing.T) {
	files := structuredScenarios(t)
	if len(files) < 80 {
		t.Errorf("the corpus has %d structured scenarios, want at least 80", len(files))
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := relName(t, f.Path)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if f.Description == "" {
				t.Errorf("%s has no description", f.Path)
			}
			r := scenario.Run(smdengine.Engine{}, f)
			reason, deviation := deviations[name]
			switch {
			case deviation && r.Passed:
				t.Errorf("%s is a listed deviation (%s) but passes on SMD: the scenario no longer shows the deviation", f.Path, reason)
			case deviation:
				t.Logf("deviation confirmed: %s\n%s", reason, r)
			case !r.Passed:
				t.Errorf("\n%s", r)
			}
		})
	}
	for name := range deviations {
		if !seen[name] {
			t.Errorf("deviation %s: no such structured scenario", name)
		}
	}
}

// TestScenarioRunPathsOnSMD runs the corpus through RunPaths, as the
// command does: every non-deviation file passes, every deviation fails, and
// the summary and exit code say so.
func TestScenarioRunPathsOnSMD(t *testing.T) {
	files := structuredScenarios(t)
	var ok, dev []string
	for _, f := range files {
		if _, d := deviations[relName(t, f.Path)]; d {
			dev = append(dev, f.Path)
		} else {
			ok = append(ok, f.Path)
		}
	}
	var out bytes.Buffer
	if code := scenario.RunPaths(&out, smdengine.Engine{}, ok); code != 0 {
		t.Errorf("RunPaths on the non-deviation scenarios exited %d:\n%s", code, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if want := len(ok); len(lines) != want+1 || lines[len(lines)-1] != strconv.Itoa(want)+" passed, 0 failed" {
		t.Errorf("unexpected report (want %d ok lines and a summary):\n%s", want, out.String())
	}
	out.Reset()
	if code := scenario.RunPaths(&out, smdengine.Engine{}, dev); code != 1 {
		t.Errorf("RunPaths on the deviations exited %d, want 1:\n%s", code, out.String())
	}
	if want := "0 passed, " + strconv.Itoa(len(dev)) + " failed\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("report does not end with %q:\n%s", want, out.String())
	}
}

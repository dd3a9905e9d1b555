package main

import (
	"slices"
	"strings"
	"testing"
)

// headlineRows returns the table rows of the headlines section of rows'
// markdown report (the lines below the table's header), or nil when the
// report has no headlines.
func headlineRows(t *testing.T, rows []row) []string {
	t.Helper()
	saved := markdown
	markdown = true
	defer func() { markdown = saved }()
	var b strings.Builder
	report(&b, rows)
	_, sections := markedSections(b.String())
	sec, ok := sections["headlines"]
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "|  | time |") {
			out = append(out, l)
		}
	}
	return out
}

// The memory notes of the canned runs' means, as geomean states them.
const (
	noteKube   = `(allocations and bytes over 4 of the 5 rows, leaving out 1 where one library allocates nothing ("0 vs N"))`
	noteJSON   = `(allocations and bytes over 2 of the 3 rows, leaving out 1 where one library allocates nothing ("0 vs N"))`
	noteTarget = noteJSON
	noteAll    = `(allocations and bytes over 9 of the 11 rows, leaving out 1 where one library allocates nothing ("0 vs N") and 1 without allocations measured)`
)

// The engine's headlines of canned: the 3 target rows (Create 7x, 10x,
// 10x; ApplyTwice 4x, no memory ratio; Update 9x, 40x, 2x): time 252^(1/3)
// = 6.32, allocations 400^(1/2) = 20, bytes 20^(1/2) = 4.47; all 11
// like-for-like rows: 6.78, 9.03, 8.36 (worked out in TestReport).
const (
	headTarget = "| the engine alone, SMD's workload, 3 target rows | **6.3x faster** | 20.0x fewer | 4.5x fewer " + noteTarget + " |"
	headAll    = "| the engine alone, all 11 like-for-like rows | 6.8x | 9.0x | 8.4x " + noteAll + " |"
)

// TestHeadlines checks the headlines' figures against the geometric means
// worked out by hand from small runs, line by line, and that no line is
// printed whose rows were not run.
func TestHeadlines(t *testing.T) {
	// cannedKube's JSON/Pod/Reapply at twice structmerge's speed: 16x.
	fasterJSON := strings.Replace(cannedKube,
		"BenchmarkKubeEndToEnd/JSON/Pod/Reapply/structmerge-2           	       5	   150000 ns/op",
		"BenchmarkKubeEndToEnd/JSON/Pod/Reapply/structmerge-2           	       5	    75000 ns/op", 1)
	if fasterJSON == cannedKube {
		t.Fatal("cannedKube has no JSON/Pod/Reapply row to change")
	}
	for _, tc := range []struct {
		name string
		run  string
		want []string
	}{{
		// cannedKube, per row (time, allocations, bytes):
		// Unstructured/Pod/Create 3x 20x 2x, Unstructured/Pod/Reapply
		// 12x 10x 3x, JSON/Pod/Create 0.75x 20x 4x, JSON/Pod/Reapply 8x
		// 10x 3x, JSON/Endpoints/Reapply 2x and no memory ratio.
		// All 5: time 432^(1/5) = 3.37, allocations 14.14, bytes 2.91.
		// JSON: time 12^(1/3) = 2.29, allocations 14.14, bytes 3.46.
		// Unstructured: time 6, allocations 14.14, bytes 2.45; the two
		// are new-user rows, the slowest Pod/Create at 3x. Over the
		// reads (20 and 30 µs): structmerge 5x and 3.33x, mean 4.08;
		// apimachinery 15x and 40x, mean 24.49.
		name: "kube and engine",
		run:  canned + cannedKube,
		want: []string{
			"| through the Kubernetes field manager, end to end, 5 rows | **3.4x faster** | 14.1x fewer | 2.9x fewer " + noteKube + " |",
			"| &nbsp;&nbsp;JSON bytes in and out, 3 rows | 2.3x | 14.1x | 3.5x " + noteJSON + " |",
			"| &nbsp;&nbsp;`map[string]any` in and out, 2 rows | 6.0x | 14.1x | 2.4x |",
			"| &nbsp;&nbsp;the new-user path (below), 2 rows | 6.0x (target 6.5x, no row under 3x: not judged: 2 of 12 rows run; slowest Pod/Create 3.0x) | 14.1x | 2.4x |",
			"| the same requests from maps, against only reading their input once (the floor, below), 2 rows | " +
				"structmerge 4.1x the read, apimachinery 24.5x in the geometric mean; per row 3.3x to 5.0x and 15.0x to 40.0x |  |  |",
			headTarget,
			headAll,
		},
	}, {
		// JSON/Pod/Reapply at 16x: JSON time 24^(1/3) = 2.88, all 5
		// 864^(1/5) = 3.87; nothing else moves.
		name: "a faster JSON re-apply",
		run:  canned + fasterJSON,
		want: []string{
			"| through the Kubernetes field manager, end to end, 5 rows | **3.9x faster** | 14.1x fewer | 2.9x fewer " + noteKube + " |",
			"| &nbsp;&nbsp;JSON bytes in and out, 3 rows | 2.9x | 14.1x | 3.5x " + noteJSON + " |",
			"| &nbsp;&nbsp;`map[string]any` in and out, 2 rows | 6.0x | 14.1x | 2.4x |",
			"| &nbsp;&nbsp;the new-user path (below), 2 rows | 6.0x (target 6.5x, no row under 3x: not judged: 2 of 12 rows run; slowest Pod/Create 3.0x) | 14.1x | 2.4x |",
			"| the same requests from maps, against only reading their input once (the floor, below), 2 rows | " +
				"structmerge 4.1x the read, apimachinery 24.5x in the geometric mean; per row 3.3x to 5.0x and 15.0x to 40.0x |  |  |",
			headTarget,
			headAll,
		},
	}, {
		// The 12 new-user rows at 7x, 10x, 10x: the target is met, the
		// slowest row the first of the least ratio. No reads, no floor;
		// no engine rows, no engine lines.
		name: "the new-user path, met",
		run:  string(newUserRun("", "")),
		want: []string{
			"| through the Kubernetes field manager, end to end, 12 rows | **7.0x faster** | 10.0x fewer | 10.0x fewer |",
			"| &nbsp;&nbsp;`map[string]any` in and out, 12 rows | 7.0x | 10.0x | 10.0x |",
			"| &nbsp;&nbsp;the new-user path (below), 12 rows | 7.0x (target 6.5x, no row under 3x: met; slowest Pod/Create 7.0x) | 10.0x | 10.0x |",
		},
	}, {
		// Endpoints/Create at 1.4x: time 7 * 0.2^(1/12) = 6.12, over the
		// 6.5x target, and a row under 3x.
		name: "the new-user path, not met",
		run:  string(newUserRun("KubeEndToEnd/Unstructured/Endpoints/Create", "")),
		want: []string{
			"| through the Kubernetes field manager, end to end, 12 rows | **6.1x faster** | 10.0x fewer | 10.0x fewer |",
			"| &nbsp;&nbsp;`map[string]any` in and out, 12 rows | 6.1x | 10.0x | 10.0x |",
			"| &nbsp;&nbsp;the new-user path (below), 12 rows | 6.1x (target 6.5x, no row under 3x: not met; slowest Endpoints/Create 1.4x) | 10.0x | 10.0x |",
		},
	}, {
		// A struct row only (4x, 10x, 2x): its form's line, no new-user
		// path, no floor.
		name: "one struct row",
		run: "BenchmarkKubeEndToEnd/Struct/Pod/Create/apimachinery-2 5 400000 ns/op 20000 B/op 1000 allocs/op\n" +
			"BenchmarkKubeEndToEnd/Struct/Pod/Create/structmerge-2 5 100000 ns/op 10000 B/op 100 allocs/op\n",
		want: []string{
			"| through the Kubernetes field manager, end to end, 1 rows | **4.0x faster** | 10.0x fewer | 2.0x fewer |",
			"| &nbsp;&nbsp;Go structs of the k8s.io/api types in and out, 1 rows | 4.0x | 10.0x | 2.0x |",
		},
	}, {
		name: "the engine only",
		run:  canned,
		want: []string{headTarget, headAll},
	}, {
		// Compile/k8s alone: no target row, no memory measured.
		name: "one engine row without memory",
		run:  "BenchmarkCompile/k8s/smd 3 90000000 ns/op\nBenchmarkCompile/k8s/structmerge 3 10000000 ns/op\n",
		want: []string{
			"| the engine alone, all 1 like-for-like rows | 9.0x | - | - (allocations and bytes over 0 of the 1 rows, leaving out 1 without allocations measured) |",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := headlineRows(t, parse([]byte(tc.run)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("headlines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}

	// A changed input row changes the headlines: the comparison above
	// can fail.
	if slices.Equal(headlineRows(t, parse([]byte(canned+cannedKube))), headlineRows(t, parse([]byte(canned+fasterJSON)))) {
		t.Error("a 2x faster row changed no headline")
	}
	// Boundary rows alone have no headline.
	var boundary []string
	for _, l := range strings.Split(cannedKube, "\n") {
		if strings.Contains(l, "KubeBoundary/") {
			boundary = append(boundary, l)
		}
	}
	if got := headlineRows(t, parse([]byte(strings.Join(boundary, "\n")))); got != nil {
		t.Errorf("headlines of boundary rows alone:\n%s", strings.Join(got, "\n"))
	}
}

// TestHeadlinesPlainText: without -md the headlines are an aligned table
// like the other sections, the first of the report, without markdown's
// marks.
func TestHeadlinesPlainText(t *testing.T) {
	var b strings.Builder
	report(&b, parse([]byte(canned+cannedKube)))
	out := b.String()
	if !strings.HasPrefix(out, "headlines: geometric means") {
		t.Errorf("the report does not begin with the headlines:\n%s", out)
	}
	head := out[:strings.Index(out, "kube layer end to end (not in the SMD means)")]
	for _, want := range []string{
		"time allocations bytes",
		"through the Kubernetes field manager, end to end, 5 rows 3.4x faster 14.1x fewer 2.9x fewer " + noteKube,
		"map[string]any in and out, 2 rows 6.0x 14.1x 2.4x",
		"the engine alone, SMD's workload, 3 target rows 6.3x faster 20.0x fewer 4.5x fewer " + noteTarget,
	} {
		if !strings.Contains(squeeze(head), squeeze(want)) {
			t.Errorf("headlines lack %q:\n%s", want, head)
		}
	}
	for _, mark := range []string{"**", "`", "&nbsp;", "|", "<!--"} {
		if strings.Contains(head, mark) {
			t.Errorf("plain-text headlines have %q:\n%s", mark, head)
		}
	}
	// Columns are aligned: the cells of the header and of a line end at
	// the same column.
	lines := strings.Split(head, "\n")
	header := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(l, "bytes") && strings.Contains(l, "allocations") })
	if header < 0 || len(lines[header]) != len(lines[header+1]) {
		t.Errorf("header and first line not aligned:\n%s", head)
	}
}

func TestShortRatio(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{4, "4.0x"},
		{6.74, "6.7x"},
		{58.08, "58.1x"},
		{99.94, "99.9x"},
		{99.96, "100x"}, // 100.0 in one decimal: no decimal
		{128.36, "128x"},
		{218.67, "219x"},
	} {
		if got := shortRatio(c.x); got != c.want {
			t.Errorf("shortRatio(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// TestHeadlineFormsAreTheForms: every form of the end to end rows has its
// headline, and no headline names a form that is not one.
func TestHeadlineFormsAreTheForms(t *testing.T) {
	var heads, all []string
	for _, f := range headlineForms {
		heads = append(heads, f.name)
	}
	for _, f := range forms {
		all = append(all, f.name)
	}
	slices.Sort(heads)
	slices.Sort(all)
	if !slices.Equal(heads, all) {
		t.Errorf("headline forms %q, forms %q", heads, all)
	}
}

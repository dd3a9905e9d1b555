package main

import (
	"math"
	"strings"
	"testing"
)

// canned is `go test -bench` output in the shape package bench produces,
// with round numbers so the expected figures can be worked out by hand.
// Smd over structmerge, per row (time, allocations, bytes):
//
//	Operations/Pod/Create               7x   10x  10x (median of 3 runs)
//	Operations/Pod/ApplyTwice           4x   structmerge allocates nothing
//	Operations/Pod/ApplyTwiceNoCompare  1x    1x  10x
//	Operations/Pod/Update               9x   40x   2x
//	InMemoryReapply/Pod/Update         90x   80x  40x (kept out of the means)
//	Compile/k8s                         9x   (no -benchmem)
//	KeyedList/{1000,10000,100000}/...   4x, 6x, 8x; 10x, 10x
//	ConcurrentValidate/{g1,g2,gmax}    10x, 16x, 20x; 10x, 10x
const canned = `goos: linux
goarch: amd64
pkg: github.com/structmerge/structmerge/conformance/bench
cpu: Some CPU @ 2.00GHz
BenchmarkOperations/Pod/Create/smd-2         	     100	    80000 ns/op	   20000 B/op	     400 allocs/op
BenchmarkOperations/Pod/Create/structmerge-2 	    1000	    10000 ns/op	    2000 B/op	      40 allocs/op
BenchmarkOperations/Pod/Create/smd-2         	     100	    60000 ns/op	   20000 B/op	     400 allocs/op
BenchmarkOperations/Pod/Create/structmerge-2 	    1000	    10000 ns/op	    2000 B/op	      40 allocs/op
BenchmarkOperations/Pod/Create/smd-2         	     100	    70000 ns/op	   20000 B/op	     400 allocs/op
BenchmarkOperations/Pod/Create/structmerge-2 	    1000	    10000 ns/op	    2000 B/op	      40 allocs/op
BenchmarkOperations/Pod/ApplyTwice/smd-2     	     100	    40000 ns/op	   20000 B/op	     200 allocs/op
BenchmarkOperations/Pod/ApplyTwice/structmerge-2	    1000	    10000 ns/op	       0 B/op	       0 allocs/op
BenchmarkOperations/Pod/ApplyTwiceNoCompare/smd-2	     100	    10000 ns/op	   20000 B/op	     100 allocs/op
BenchmarkOperations/Pod/ApplyTwiceNoCompare/structmerge-2	    1000	    10000 ns/op	    2000 B/op	     100 allocs/op
BenchmarkOperations/Pod/Update/smd-2         	     100	    90000 ns/op	   40000 B/op	     800 allocs/op
BenchmarkOperations/Pod/Update/structmerge-2 	    1000	    10000 ns/op	   20000 B/op	      20 allocs/op
BenchmarkInMemoryReapply/Pod/Update/smd-2    	     100	    90000 ns/op	   40000 B/op	     800 allocs/op
BenchmarkInMemoryReapply/Pod/Update/structmerge-2	   10000	     1000 ns/op	    1000 B/op	      10 allocs/op
BenchmarkCompile/k8s/smd-2                   	       3	 90000000 ns/op
BenchmarkCompile/k8s/structmerge-2           	       3	 10000000 ns/op
BenchmarkOnlyOne/smd-2                       	       3	     1000 ns/op	       0 B/op	       0 allocs/op
BenchmarkKeyedList/1000/FirstApply/smd-2     	       3	  2000000 ns/op	  100000 B/op	    5000 allocs/op
BenchmarkKeyedList/1000/FirstApply/structmerge-2	       3	   500000 ns/op	   10000 B/op	     500 allocs/op
BenchmarkKeyedList/10000/FirstApply/smd-2    	       3	 30000000 ns/op	 1000000 B/op	   50000 allocs/op
BenchmarkKeyedList/10000/FirstApply/structmerge-2	       3	  5000000 ns/op	  100000 B/op	    5000 allocs/op
BenchmarkKeyedList/100000/FirstApply/smd-2   	       1	400000000 ns/op	10000000 B/op	  500000 allocs/op
BenchmarkKeyedList/100000/FirstApply/structmerge-2	       1	 50000000 ns/op	 1000000 B/op	   50000 allocs/op
BenchmarkConcurrentValidate/g1/smd-2         	       3	  1000000 ns/op	   10000 B/op	     100 allocs/op
BenchmarkConcurrentValidate/g1/structmerge-2 	       3	   100000 ns/op	    1000 B/op	      10 allocs/op
BenchmarkConcurrentValidate/g2/smd-2         	       3	   800000 ns/op	   10000 B/op	     100 allocs/op
BenchmarkConcurrentValidate/g2/structmerge-2 	       3	    50000 ns/op	    1000 B/op	      10 allocs/op
BenchmarkConcurrentValidate/gmax/smd-2       	       3	   800000 ns/op	   10000 B/op	     100 allocs/op
BenchmarkConcurrentValidate/gmax/structmerge-2	       3	    40000 ns/op	    1000 B/op	      10 allocs/op
PASS
ok  	github.com/structmerge/structmerge/conformance/bench	12.345s
`

func TestParse(t *testing.T) {
	rows := parse([]byte(canned))
	var names []string
	for _, r := range rows {
		names = append(names, r.name)
	}
	want := []string{
		"Compile/k8s",
		"ConcurrentValidate/g1", "ConcurrentValidate/g2", "ConcurrentValidate/gmax",
		"InMemoryReapply/Pod/Update",
		"KeyedList/1000/FirstApply", "KeyedList/10000/FirstApply", "KeyedList/100000/FirstApply",
		"Operations/Pod/ApplyTwice", "Operations/Pod/ApplyTwiceNoCompare", "Operations/Pod/Create", "Operations/Pod/Update",
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("rows:\n got %q\nwant %q", names, want)
	}
	for _, r := range rows {
		switch r.name {
		case "Operations/Pod/Create":
			if len(r.smd.ns) != 3 || median(r.smd.ns) != 70000 || median(r.smrg.allocs) != 40 || median(r.smrg.bytes) != 2000 {
				t.Errorf("%s: smd ns %v, structmerge allocs %v bytes %v", r.name, r.smd.ns, r.smrg.allocs, r.smrg.bytes)
			}
		case "Operations/Pod/ApplyTwice":
			if _, st := memRatiosState(r); st != memZero {
				t.Errorf("%s: memory state %d, want memZero", r.name, st)
			}
		case "Compile/k8s":
			if !math.IsNaN(median(r.smd.allocs)) || !math.IsNaN(median(r.smd.bytes)) {
				t.Errorf("%s: allocations %v, bytes %v, want none measured", r.name, r.smd.allocs, r.smd.bytes)
			}
			if _, st := memRatiosState(r); st != memUnmeasured {
				t.Errorf("%s: memory state %d, want memUnmeasured", r.name, st)
			}
		case "ConcurrentValidate/gmax":
			if r.procs != 2 {
				t.Errorf("%s: procs %d, want 2", r.name, r.procs)
			}
		}
	}
}

func TestParseProcsSuffix(t *testing.T) {
	for _, c := range []struct {
		line          string
		name          string
		procs         int
		ns            float64
		bytes, allocs float64 // NaN: not measured
	}{
		{"BenchmarkX/g1/smd \t 3\t 12.5 ns/op", "X/g1", 1, 12.5, math.NaN(), math.NaN()},
		{"BenchmarkX/g1/smd-16 \t 3\t 12.5 ns/op\t 7 B/op\t 2 allocs/op", "X/g1", 16, 12.5, 7, 2},
		{"BenchmarkX/Node100%override/smd-4 1 7 ns/op 3.00 items/op 5 B/op 1 allocs/op", "X/Node100%override", 4, 7, 5, 1},
	} {
		rows := parse([]byte(c.line + "\n" + strings.Replace(c.line, "/smd", "/structmerge", 1) + "\n"))
		if len(rows) != 1 {
			t.Errorf("%q: %d rows", c.line, len(rows))
			continue
		}
		r := rows[0]
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if r.name != c.name || r.procs != c.procs || median(r.smd.ns) != c.ns || median(r.smrg.ns) != c.ns ||
			!same(median(r.smd.bytes), c.bytes) || !same(median(r.smrg.allocs), c.allocs) {
			t.Errorf("%q: got %s procs %d ns %v bytes %v allocs %v", c.line, r.name, r.procs, r.smd.ns, r.smd.bytes, r.smrg.allocs)
		}
	}
}

func TestReport(t *testing.T) {
	var b strings.Builder
	report(&b, parse([]byte(canned)))
	out := b.String()
	for _, want := range []string{
		"like-for-like rows (in the means)",
		"benchmark smd time structmerge time time ratio smd allocs structmerge allocs alloc ratio smd bytes structmerge bytes bytes ratio",
		// Table rows: medians and a ratio for each of time, allocations
		// and bytes; "-" where allocations and bytes were not measured.
		"Operations/Pod/Create 70.0 µs 10.0 µs 7.0x 400 40 10.0x 20.0 kB 2.0 kB 10.0x",
		"Operations/Pod/Update 90.0 µs 10.0 µs 9.0x 800 20 40.0x 40.0 kB 20.0 kB 2.0x",
		"Compile/k8s 90.00 ms 10.00 ms 9.0x - - - - - -",
		// ApplyTwice: structmerge allocates nothing: no ratio.
		"Operations/Pod/ApplyTwice 40.0 µs 10.0 µs 4.0x 200 0 0 vs 200 20.0 kB 0 B 0 vs 20.0 kB",
		`note: "0 vs N": one library allocates nothing`,
		"note: Compile/*: same schema bytes in",
		// The 11 like-for-like rows: time ratios 9,10,16,20,4,6,8,4,1,7,9;
		// allocations and bytes over the 9 rows measured with no zero
		// (not Compile, not ApplyTwice): allocations six 10s, 1, 10, 40;
		// bytes six 10s, 10, 10, 2.
		"geometric mean over all 11 like-for-like rows: time 6.78x faster, allocations 9.03x fewer, bytes 8.36x fewer " +
			`(allocations and bytes over 9 of the 11 rows, leaving out 1 where one library allocates nothing ("0 vs N") and 1 without allocations measured)`,
		// Create (7x, 10x, 10x), ApplyTwice (4x, no memory ratio) and
		// Update (9x, 40x, 2x), not ApplyTwiceNoCompare.
		"geometric mean over 3 target operations (Create, Apply, ApplyTwice, Update, UpdateVersion): time 6.32x faster, allocations 20.00x fewer, bytes 4.47x fewer " +
			`(allocations and bytes over 2 of the 3 rows, leaving out 1 where one library allocates nothing ("0 vs N"))`,
		// The in-memory re-apply row, apart and with its reason.
		"not in the means: InMemoryReapply/*: in-memory re-apply of the previous result",
		"InMemoryReapply/Pod/Update 90.0 µs 1.0 µs 90.0x 800 10 80.0x 40.0 kB 1.0 kB 40.0x",
		"keyed lists: time per item",
		"FirstApply   1000  2.0 µs  500 ns  4.0x",
		"FirstApply  10000  3.0 µs  500 ns  6.0x",
		"FirstApply 100000  4.0 µs  500 ns  8.0x",
		"FirstApply time(100000)/time(1000) (100x = linear): smd 200x, structmerge 100x",
		"FirstApply smd/structmerge at 10000 items: time 6.0x, allocations 10.0x fewer, bytes 10.0x fewer",
		"concurrency: ConcurrentValidate, throughput scaling time(g1)/time(gN)",
		"smd  1.00 ms  1.25x  1.25x",
		"structmerge  100.0 µs  2.00x  2.50x",
		"gmax/g1 (gmax=2)",
	} {
		if !strings.Contains(squeeze(out), squeeze(want)) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "OnlyOne") {
		t.Errorf("unpaired benchmark printed:\n%s", out)
	}
	// The excluded row is printed after the means, never in the first table.
	means := strings.Index(out, "geometric mean over all")
	if i := strings.Index(out, "InMemoryReapply/Pod/Update "); i < means {
		t.Errorf("the in-memory row is printed before the means (at %d, means at %d):\n%s", i, means, out)
	}
	// Every headline states bytes beside counts.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "geometric mean") && !(strings.Contains(l, "allocations") && strings.Contains(l, "bytes")) {
			t.Errorf("headline without allocations and bytes: %q", l)
		}
	}
}

// TestExcludedRowsFeedNoMean checks that the rows kept out of the means
// change no mean: the summary is the same with and without them, although
// their ratios (90x, 80x, 40x) would move every mean.
func TestExcludedRowsFeedNoMean(t *testing.T) {
	summary := func(data string) string {
		var b strings.Builder
		rows := parse([]byte(data))
		var fair []row
		for _, r := range rows {
			if _, ok := exclusionOf(r); !ok {
				fair = append(fair, r)
			}
		}
		printGeomeans(&b, fair)
		var all strings.Builder
		report(&all, rows)
		if !strings.Contains(all.String(), b.String()) {
			t.Errorf("report's means differ from those of its like-for-like rows:\n%s\nwant\n%s", all.String(), b.String())
		}
		return b.String()
	}
	var without []string
	for _, l := range strings.Split(canned, "\n") {
		if !strings.Contains(l, "InMemoryReapply") {
			without = append(without, l)
		}
	}
	with, wo := summary(canned), summary(strings.Join(without, "\n"))
	if with != wo {
		t.Errorf("means change with the in-memory rows:\nwith:\n%s\nwithout:\n%s", with, wo)
	}
	// Counted as a like-for-like row, the in-memory row would change the
	// mean: the comparison above can fail.
	renamed := strings.ReplaceAll(canned, "BenchmarkInMemoryReapply/", "BenchmarkOperations/Again/")
	if summary(renamed) == wo {
		t.Error("a 90x row changed no mean")
	}
}

func TestReportOmitsSections(t *testing.T) {
	var only []string
	for _, l := range strings.Split(canned, "\n") {
		if strings.Contains(l, "Compile") {
			only = append(only, l)
		}
	}
	var b strings.Builder
	report(&b, parse([]byte(strings.Join(only, "\n"))))
	out := b.String()
	for _, absent := range []string{"target operations", "keyed lists", "concurrency", "time(100000)", "not in the means", "0 vs"} {
		if strings.Contains(out, absent) {
			t.Errorf("output has %q though no such benchmark ran:\n%s", absent, out)
		}
	}
	if !strings.Contains(out, "geometric mean over all 1 like-for-like rows: time 9.00x faster, allocations and bytes: no row with both measured and non-zero on both sides\n") {
		t.Errorf("unexpected summary:\n%s", out)
	}

	// Only the 1000-item keyed list: per-item rows, no growth or 10000 line.
	only = only[:0]
	for _, l := range strings.Split(canned, "\n") {
		if strings.Contains(l, "KeyedList/1000/") {
			only = append(only, l)
		}
	}
	b.Reset()
	report(&b, parse([]byte(strings.Join(only, "\n"))))
	out = b.String()
	if !strings.Contains(out, "keyed lists") || strings.Contains(out, "time(100000)") || strings.Contains(out, "at 10000") {
		t.Errorf("keyed lists section wrong for one size:\n%s", out)
	}
}

func TestRatioCell(t *testing.T) {
	for _, c := range []struct {
		smd, sm float64
		inMean  bool
		want    string
	}{
		{400, 40, true, "10.0x"},
		{400, 40, false, "[10.0x]"},
		{400, 0, true, "0 vs 400"},
		{0, 400, true, "0 vs 400"},
		{0, 0, true, "0 vs 0"},
		{math.NaN(), 3, true, "-"},
	} {
		if got := ratioCell(c.smd, c.sm, allocCount, c.inMean); got != c.want {
			t.Errorf("ratioCell(%v, %v, %v) = %q, want %q", c.smd, c.sm, c.inMean, got, c.want)
		}
	}
}

// TestGoTestArgs checks that the benchmarks are run with bytes and
// allocations reported, no tests, and the package named so that the
// command works from any directory of the module.
func TestGoTestArgs(t *testing.T) {
	got := strings.Join(goTestArgs("Operations", "100ms", 2, "1h"), " ")
	want := "test -run ^$ -bench Operations -benchmem -benchtime 100ms -count 2 -timeout 1h github.com/structmerge/structmerge/conformance/bench"
	if got != want {
		t.Errorf("go %s\nwant go %s", got, want)
	}
}

// squeeze collapses runs of spaces so tests do not depend on column widths.
func squeeze(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

package main

import (
	"math"
	"strings"
	"testing"
)

// canned is `go test -bench` output in the shape package bench produces,
// with round numbers so the expected figures can be worked out by hand.
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
BenchmarkOperations/Pod/ApplyTwice/structmerge-2	    1000	    10000 ns/op	    2000 B/op	       0 allocs/op
BenchmarkOperations/Pod/ApplyTwiceNoCompare/smd-2	     100	    10000 ns/op	   20000 B/op	     100 allocs/op
BenchmarkOperations/Pod/ApplyTwiceNoCompare/structmerge-2	    1000	    10000 ns/op	    2000 B/op	     100 allocs/op
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
		"KeyedList/1000/FirstApply", "KeyedList/10000/FirstApply", "KeyedList/100000/FirstApply",
		"Operations/Pod/ApplyTwice", "Operations/Pod/ApplyTwiceNoCompare", "Operations/Pod/Create",
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("rows:\n got %q\nwant %q", names, want)
	}
	for _, r := range rows {
		switch r.name {
		case "Operations/Pod/Create":
			if len(r.smd.ns) != 3 || median(r.smd.ns) != 70000 || median(r.smrg.allocs) != 40 {
				t.Errorf("%s: smd ns %v, structmerge allocs %v", r.name, r.smd.ns, r.smrg.allocs)
			}
		case "Compile/k8s":
			if !math.IsNaN(median(r.smd.allocs)) {
				t.Errorf("%s: allocations %v, want none measured", r.name, r.smd.allocs)
			}
			if _, ok := allocRatio(r); ok {
				t.Errorf("%s: an allocation ratio without allocations", r.name)
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
		line  string
		name  string
		procs int
		ns    float64
	}{
		{"BenchmarkX/g1/smd \t 3\t 12.5 ns/op", "X/g1", 1, 12.5},
		{"BenchmarkX/g1/smd-16 \t 3\t 12.5 ns/op\t 0 B/op\t 0 allocs/op", "X/g1", 16, 12.5},
		{"BenchmarkX/Node100%override/smd-4 1 7 ns/op", "X/Node100%override", 4, 7},
	} {
		rows := parse([]byte(c.line + "\n" + strings.Replace(c.line, "/smd", "/structmerge", 1) + "\n"))
		if len(rows) != 1 {
			t.Errorf("%q: %d rows", c.line, len(rows))
			continue
		}
		r := rows[0]
		if r.name != c.name || r.procs != c.procs || median(r.smd.ns) != c.ns || median(r.smrg.ns) != c.ns {
			t.Errorf("%q: got %s procs %d ns %v", c.line, r.name, r.procs, r.smd.ns)
		}
	}
}

func TestReport(t *testing.T) {
	var b strings.Builder
	report(&b, parse([]byte(canned)))
	out := b.String()
	for _, want := range []string{
		// Table rows: medians, ratios, "-" where allocations are missing.
		"Operations/Pod/Create  70.0 µs  10.0 µs  7.0x  400  40  10.0x",
		"Compile/k8s  90.00 ms  10.00 ms  9.0x  -  -  -",
		// ApplyTwice: 0 allocations count as 1.
		"Operations/Pod/ApplyTwice  40.0 µs  10.0 µs  4.0x  200  0  200.0x",
		// All 10 rows: time ratios 7,4,1,9,4,6,8,10,16,20; allocation
		// ratios of the 9 rows that have them: 10,200,1 and six 10s.
		"geometric mean over 10 benchmarks: time 6.59x faster, allocations 10.80x fewer",
		// Create (7x, 10x) and ApplyTwice (4x, 200x), not ApplyTwiceNoCompare.
		"geometric mean over 2 target operations (Create, Apply, ApplyTwice, Update, UpdateVersion): time 5.29x faster, allocations 44.72x fewer",
		"keyed lists: time per item",
		"FirstApply   1000  2.0 µs  500 ns  4.0x",
		"FirstApply  10000  3.0 µs  500 ns  6.0x",
		"FirstApply 100000  4.0 µs  500 ns  8.0x",
		"FirstApply time(100000)/time(1000) (100x = linear): smd 200x, structmerge 100x",
		"FirstApply smd/structmerge at 10000 items: 6.0x",
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
	for _, absent := range []string{"target operations", "keyed lists", "concurrency", "time(100000)"} {
		if strings.Contains(out, absent) {
			t.Errorf("output has %q though no such benchmark ran:\n%s", absent, out)
		}
	}
	if !strings.Contains(out, "geometric mean over 1 benchmarks: time 9.00x faster\n") {
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

// squeeze collapses runs of spaces so tests do not depend on column widths.
func squeeze(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

//go:build ignore

// Command k8s-bench-compare prints two `go test -bench -benchmem` outputs
// side by side: for each benchmark in both, time, bytes and allocations per
// operation on each side and the ratio first/second (above 1: the second is
// better), then the geometric mean of each ratio. Where a benchmark ran
// more than once (-count), the median of its runs counts.
//
// Used by scripts/k8s-bench.sh:
//
//	go run scripts/k8s-bench-compare.go -names SMD,structmerge smd.txt adapter.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

type result struct{ ns, bytes, allocs []float64 }

// parse reads benchmark lines ("BenchmarkX/y-2  N  T ns/op  B B/op  A
// allocs/op") and returns the results by name (without the -GOMAXPROCS
// suffix) and the names in order of first appearance.
func parse(path string) (map[string]*result, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	out := map[string]*result{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		r := out[name]
		if r == nil {
			r = &result{}
			out[name] = r
			order = append(order, name)
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case "ns/op":
				r.ns = append(r.ns, v)
			case "B/op":
				r.bytes = append(r.bytes, v)
			case "allocs/op":
				r.allocs = append(r.allocs, v)
			}
		}
	}
	return out, order, sc.Err()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func human(v float64, unit string) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case unit == "ns" && v >= 1e6:
		return fmt.Sprintf("%.2fms", v/1e6)
	case unit == "ns" && v >= 1e3:
		return fmt.Sprintf("%.1fµs", v/1e3)
	case unit == "ns":
		return fmt.Sprintf("%.0fns", v)
	case unit == "B" && v >= 1<<20:
		return fmt.Sprintf("%.1fMiB", v/(1<<20))
	case unit == "B" && v >= 1<<10:
		return fmt.Sprintf("%.1fKiB", v/(1<<10))
	}
	return fmt.Sprintf("%.0f%s", v, unit)
}

func main() {
	names := flag.String("names", "old,new", "the two sides' names, comma-separated")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s-bench-compare [-names a,b] first.txt second.txt")
		os.Exit(2)
	}
	side := strings.SplitN(*names+",", ",", 3)
	a, order, err := parse(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b, _, err := parse(flag.Arg(1))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := 0
	for _, n := range order {
		w = max(w, len(strings.TrimPrefix(n, "Benchmark")))
	}
	fmt.Printf("%-*s  %10s %10s %6s  %9s %9s %6s  %7s %7s %6s\n", w, "benchmark",
		"time "+side[0], side[1], "x", "B "+side[0], side[1], "x", "allocs", side[1], "x")
	var logT, logB, logA []float64
	slower := 0
	for _, n := range order {
		ra, rb := a[n], b[n]
		if rb == nil {
			continue
		}
		ta, tb := median(ra.ns), median(rb.ns)
		ba, bb := median(ra.bytes), median(rb.bytes)
		aa, ab := median(ra.allocs), median(rb.allocs)
		ratio := func(x, y float64, logs *[]float64) string {
			if math.IsNaN(x) || math.IsNaN(y) || x <= 0 || y <= 0 {
				return "-"
			}
			*logs = append(*logs, math.Log(x/y))
			return fmt.Sprintf("%.2f", x/y)
		}
		if tb > ta {
			slower++
		}
		fmt.Printf("%-*s  %10s %10s %6s  %9s %9s %6s  %7s %7s %6s\n", w, strings.TrimPrefix(n, "Benchmark"),
			human(ta, "ns"), human(tb, "ns"), ratio(ta, tb, &logT),
			human(ba, "B"), human(bb, "B"), ratio(ba, bb, &logB),
			human(aa, ""), human(ab, ""), ratio(aa, ab, &logA))
	}
	geo := func(logs []float64) string {
		if len(logs) == 0 {
			return "-"
		}
		s := 0.0
		for _, l := range logs {
			s += l
		}
		return fmt.Sprintf("%.2f", math.Exp(s/float64(len(logs))))
	}
	fmt.Printf("geometric mean of %s/%s over %d benchmarks: time %sx, bytes %sx, allocations %sx; %d rows slower on %s\n",
		side[0], side[1], len(logT), geo(logT), geo(logB), geo(logA), slower, side[1])
}

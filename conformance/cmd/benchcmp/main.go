// Command benchcmp runs the side-by-side benchmarks of package bench (or
// reads `go test -bench` output from a file or standard input) and prints
// one table: each benchmark, the reference's time and allocations,
// structmerge's, and the ratios, with the geometric means at the end.
// Benchmarks are paired by the last element of their names, .../smd and
// .../structmerge; run it from the conformance module.
//
// Usage:
//
//	go run ./cmd/benchcmp [-bench regexp] [-benchtime d] [-count n] [-in file]
//
//	go run ./cmd/benchcmp                     # run every benchmark (long)
//	go run ./cmd/benchcmp -bench 'Operations/Pod' -benchtime 2s
//	go run ./cmd/benchcmp -bench 'KeyedList/^1000$/|Compile|FieldsV1|ConcurrentValidate|Validate' -benchtime 3x
//	go test -run '^$' -bench . -benchmem ./bench | go run ./cmd/benchcmp -in -
//
// -bench is go test's pattern: one unanchored regular expression per
// level of the name, so KeyedList/1000/ also selects the 10000- and
// 100000-item sizes; anchor the size (KeyedList/^1000$/) to run one.
//
// With -count n the median of the n runs is used. After the table come:
//
//   - the geometric mean of the time and allocation ratios over all rows,
//     and over the target rows only: Operations/<workload>/<op> with op one
//     of Create, Apply, ApplyTwice, Update, UpdateVersion;
//   - "keyed lists", when KeyedList/<items>/<op> rows were run: the time
//     per item for each size and library, the growth time(100000)/time(1000)
//     per library and op (100x is linear), and the smd/structmerge ratio at
//     10000 items;
//   - "concurrency", when <name>/g1, g2 and gmax rows were run (as in
//     ConcurrentValidate, which does a fixed amount of work per op): the
//     throughput scaling time(g1)/time(g2) and time(g1)/time(gmax) per
//     library.
//
// A section whose benchmarks were not run is left out.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	bench := flag.String("bench", ".", "benchmarks to run (go test -bench)")
	benchtime := flag.String("benchtime", "1s", "go test -benchtime")
	count := flag.Int("count", 1, "go test -count; the median of the runs is used")
	in := flag.String("in", "", "read benchmark output from this file (- for standard input) instead of running")
	flag.Parse()
	var data []byte
	var err error
	switch *in {
	case "":
		cmd := exec.Command("go", "test", "-run", "^$", "-bench", *bench, "-benchmem",
			"-benchtime", *benchtime, "-count", strconv.Itoa(*count), "./bench")
		cmd.Stderr = os.Stderr
		data, err = cmd.Output()
	case "-":
		data, err = io.ReadAll(os.Stdin)
	default:
		data, err = os.ReadFile(*in)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(2)
	}
	rows := parse(data)
	if len(rows) == 0 {
		fmt.Fprintln(os.Stderr, "benchcmp: no paired .../smd and .../structmerge benchmarks found")
		os.Exit(2)
	}
	report(os.Stdout, rows)
}

type measure struct {
	ns     []float64
	allocs []float64
}

// row is one benchmark measured on both libraries.
type row struct {
	name      string
	smd, smrg measure
	// procs is the GOMAXPROCS the benchmarks ran with (the -N suffix of
	// their names; none means 1).
	procs int
}

var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-(\d+))?\s+\d+\s+([\d.]+) ns/op(?:.*?\s([\d.]+) allocs/op)?`)

// parse reads `go test -bench` output and returns the benchmarks that ran
// on both libraries, sorted by name.
func parse(data []byte) []row {
	byName := map[string]*row{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		full := m[1]
		i := strings.LastIndexByte(full, '/')
		if i < 0 {
			continue
		}
		name, engine := full[:i], full[i+1:]
		procs := 1
		if m[2] != "" {
			procs, _ = strconv.Atoi(m[2])
		}
		ns, _ := strconv.ParseFloat(m[3], 64)
		allocs := math.NaN()
		if m[4] != "" {
			allocs, _ = strconv.ParseFloat(m[4], 64)
		}
		r := byName[name]
		if r == nil {
			r = &row{name: name}
			byName[name] = r
		}
		switch engine {
		case "smd":
			r.smd.ns = append(r.smd.ns, ns)
			r.smd.allocs = append(r.smd.allocs, allocs)
		case "structmerge":
			r.smrg.ns = append(r.smrg.ns, ns)
			r.smrg.allocs = append(r.smrg.allocs, allocs)
		default:
			continue
		}
		r.procs = procs
	}
	var rows []row
	for _, r := range byName {
		if len(r.smd.ns) > 0 && len(r.smrg.ns) > 0 {
			rows = append(rows, *r)
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	return rows
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	case ns >= 10:
		return fmt.Sprintf("%.0f ns", ns)
	}
	return fmt.Sprintf("%.1f ns", ns)
}

// report prints the table and the sections that apply to rows.
func report(w io.Writer, rows []row) {
	printTable(w, rows)
	printGeomeans(w, rows)
	printKeyedLists(w, rows)
	printConcurrency(w, rows)
}

func printTable(w io.Writer, rows []row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tsmd time\tstructmerge time\ttime ratio\tsmd allocs\tstructmerge allocs\talloc ratio\t")
	for _, r := range rows {
		st, mt := median(r.smd.ns), median(r.smrg.ns)
		sa, ma := median(r.smd.allocs), median(r.smrg.allocs)
		ar := "-"
		if ratio, ok := allocRatio(r); ok {
			ar = fmt.Sprintf("%.1fx", ratio)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1fx\t%s\t%s\t%s\t\n", r.name, duration(st), duration(mt), st/mt, allocCount(sa), allocCount(ma), ar)
	}
	tw.Flush()
}

// allocCount formats an allocation count; "-" when it was not measured.
func allocCount(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

// allocRatio is smd's allocations over structmerge's (at least 1), when
// both were measured.
func allocRatio(r row) (float64, bool) {
	sa, ma := median(r.smd.allocs), median(r.smrg.allocs)
	if math.IsNaN(sa) || math.IsNaN(ma) {
		return 0, false
	}
	return sa / math.Max(ma, 1), true
}

// geomean is the geometric mean of the time and allocation ratios of rows.
type geomean struct {
	n, nAllocs   int
	time, allocs float64
}

func geomeanOf(rows []row) geomean {
	var g geomean
	var logT, logA float64
	for _, r := range rows {
		logT += math.Log(median(r.smd.ns) / median(r.smrg.ns))
		g.n++
		if ratio, ok := allocRatio(r); ok {
			logA += math.Log(ratio)
			g.nAllocs++
		}
	}
	g.time = math.Exp(logT / float64(g.n))
	if g.nAllocs > 0 {
		g.allocs = math.Exp(logA / float64(g.nAllocs))
	}
	return g
}

func (g geomean) String() string {
	s := fmt.Sprintf("time %.2fx faster", g.time)
	if g.nAllocs > 0 {
		s += fmt.Sprintf(", allocations %.2fx fewer", g.allocs)
	}
	return s
}

// targetOps are the operations of BenchmarkOperations the project's
// performance target is stated for.
var targetOps = []string{"Create", "Apply", "ApplyTwice", "Update", "UpdateVersion"}

func isTarget(name string) bool {
	parts := strings.Split(name, "/")
	return len(parts) == 3 && parts[0] == "Operations" && slices.Contains(targetOps, parts[2])
}

func printGeomeans(w io.Writer, rows []row) {
	fmt.Fprintf(w, "geometric mean over %d benchmarks: %s\n", len(rows), geomeanOf(rows))
	var target []row
	for _, r := range rows {
		if isTarget(r.name) {
			target = append(target, r)
		}
	}
	if len(target) > 0 {
		fmt.Fprintf(w, "geometric mean over %d target operations (%s): %s\n",
			len(target), strings.Join(targetOps, ", "), geomeanOf(target))
	}
}

// keyed is one KeyedList/<items>/<op> row.
type keyed struct {
	items   int
	op      string
	smd, sm float64 // median ns/op
}

func keyedRows(rows []row) []keyed {
	var ks []keyed
	for _, r := range rows {
		parts := strings.Split(r.name, "/")
		if len(parts) != 3 || parts[0] != "KeyedList" {
			continue
		}
		n, err := strconv.Atoi(parts[1])
		if err != nil || n <= 0 {
			continue
		}
		ks = append(ks, keyed{items: n, op: parts[2], smd: median(r.smd.ns), sm: median(r.smrg.ns)})
	}
	sort.SliceStable(ks, func(i, j int) bool {
		if ks[i].op != ks[j].op {
			return ks[i].op < ks[j].op
		}
		return ks[i].items < ks[j].items
	})
	return ks
}

func printKeyedLists(w io.Writer, rows []row) {
	ks := keyedRows(rows)
	if len(ks) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "keyed lists: time per item")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "op\titems\tsmd\tstructmerge\tsmd/structmerge\t")
	for _, k := range ks {
		n := float64(k.items)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.1fx\t\n", k.op, k.items, duration(k.smd/n), duration(k.sm/n), k.smd/k.sm)
	}
	tw.Flush()
	find := func(op string, items int) (keyed, bool) {
		for _, k := range ks {
			if k.op == op && k.items == items {
				return k, true
			}
		}
		return keyed{}, false
	}
	var ops []string
	for _, k := range ks {
		if !slices.Contains(ops, k.op) {
			ops = append(ops, k.op)
		}
	}
	for _, op := range ops {
		small, ok1 := find(op, 1000)
		large, ok2 := find(op, 100000)
		if ok1 && ok2 {
			fmt.Fprintf(w, "%s time(100000)/time(1000) (100x = linear): smd %.0fx, structmerge %.0fx\n",
				op, large.smd/small.smd, large.sm/small.sm)
		}
	}
	for _, op := range ops {
		if k, ok := find(op, 10000); ok {
			fmt.Fprintf(w, "%s smd/structmerge at 10000 items: %.1fx\n", op, k.smd/k.sm)
		}
	}
}

// scaling is one group of <prefix>/g1, g2, gmax rows.
type scaling struct {
	prefix   string
	smd, sm  map[string]float64 // level -> median ns/op
	maxProcs int
}

func scalingGroups(rows []row) []scaling {
	var groups []scaling
	for _, r := range rows {
		i := strings.LastIndexByte(r.name, '/')
		if i < 0 {
			continue
		}
		prefix, level := r.name[:i], r.name[i+1:]
		if level != "g1" && level != "g2" && level != "gmax" {
			continue
		}
		j := slices.IndexFunc(groups, func(g scaling) bool { return g.prefix == prefix })
		if j < 0 {
			groups = append(groups, scaling{prefix: prefix, smd: map[string]float64{}, sm: map[string]float64{}})
			j = len(groups) - 1
		}
		groups[j].smd[level] = median(r.smd.ns)
		groups[j].sm[level] = median(r.smrg.ns)
		if level == "gmax" {
			groups[j].maxProcs = r.procs
		}
	}
	return groups
}

func printConcurrency(w io.Writer, rows []row) {
	for _, g := range scalingGroups(rows) {
		if _, ok := g.smd["g1"]; !ok {
			continue // scaling is relative to g1
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "concurrency: %s, throughput scaling time(g1)/time(gN)\n", g.prefix)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		header := "library\tg1 time\t"
		_, has2 := g.smd["g2"]
		_, hasMax := g.smd["gmax"]
		if has2 {
			header += "g2/g1\t"
		}
		if hasMax {
			header += fmt.Sprintf("gmax/g1 (gmax=%d)\t", g.maxProcs)
		}
		fmt.Fprintln(tw, header)
		for _, lib := range []struct {
			name string
			ns   map[string]float64
		}{{"smd", g.smd}, {"structmerge", g.sm}} {
			fmt.Fprintf(tw, "%s\t%s\t", lib.name, duration(lib.ns["g1"]))
			if has2 {
				fmt.Fprintf(tw, "%.2fx\t", lib.ns["g1"]/lib.ns["g2"])
			}
			if hasMax {
				fmt.Fprintf(tw, "%.2fx\t", lib.ns["g1"]/lib.ns["gmax"])
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
}

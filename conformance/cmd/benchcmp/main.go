// Command benchcmp runs the side-by-side benchmarks of package bench (or
// reads `go test -bench` output from a file or standard input) and prints
// one table: each benchmark, the reference's time and allocations,
// structmerge's, and the ratios, with the geometric means at the end.
//
//	go run ./cmd/benchcmp                     # run every benchmark once
//	go run ./cmd/benchcmp -bench 'Operations/Pod' -benchtime 2s
//	go test -bench . -benchmem ./bench | go run ./cmd/benchcmp -in -
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
	print(os.Stdout, rows)
}

type measure struct {
	ns     []float64
	allocs []float64
}

type row struct {
	name      string
	smd, smrg measure
}

var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:.*?\s([\d.]+) allocs/op)?`)

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
		ns, _ := strconv.ParseFloat(m[2], 64)
		allocs := math.NaN()
		if m[3] != "" {
			allocs, _ = strconv.ParseFloat(m[3], 64)
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
		}
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
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func print(w io.Writer, rows []row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tsmd time\tstructmerge time\ttime ratio\tsmd allocs\tstructmerge allocs\talloc ratio\t")
	var logT, logA float64
	var nT, nA int
	for _, r := range rows {
		st, mt := median(r.smd.ns), median(r.smrg.ns)
		sa, ma := median(r.smd.allocs), median(r.smrg.allocs)
		tr := st / mt
		logT += math.Log(tr)
		nT++
		ar := "-"
		if !math.IsNaN(sa) && !math.IsNaN(ma) {
			ratio := sa / math.Max(ma, 1)
			ar = fmt.Sprintf("%.1fx", ratio)
			logA += math.Log(ratio)
			nA++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1fx\t%.0f\t%.0f\t%s\t\n", r.name, duration(st), duration(mt), tr, sa, ma, ar)
	}
	tw.Flush()
	fmt.Fprintf(w, "geometric mean over %d benchmarks: time %.2fx faster", nT, math.Exp(logT/float64(nT)))
	if nA > 0 {
		fmt.Fprintf(w, ", allocations %.2fx fewer", math.Exp(logA/float64(nA)))
	}
	fmt.Fprintln(w)
}

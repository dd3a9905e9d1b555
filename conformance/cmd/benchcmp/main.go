// Command benchcmp runs the side-by-side benchmarks of package bench (or
// reads `go test -bench` output from a file or standard input) and prints
// tables: each benchmark, the reference's time, allocations and bytes per
// operation, structmerge's, and the ratio of each, with the geometric
// means of all three at the end. Benchmarks are paired by the last element
// of their names, .../smd and .../structmerge, except in the kube layer's
// benchmarks: KubeEndToEnd/<form>/<object>/<op>/apimachinery and
// .../structmerge, KubeBoundary/<conversion>/<object>/walk and
// .../structmerge. Run it from anywhere in the conformance module.
//
// First come the headlines, one line each: the geometric means of the
// kube layer end to end, of each of its forms and of the new-user path
// (with its target judged), the floor (each side's time over a read of
// the input), and the SMD engine's target and like-for-like means: the
// figures of the sections below, summed up as the first table of
// docs/performance.md shows them.
//
// When KubeEndToEnd rows were run, their table follows, with the same
// columns and rules as the SMD table below (ratios apimachinery/structmerge,
// "0 vs N"), then the line
//
//	kube layer end to end: geometric mean over N rows: time X.XXx faster, allocations Y.YYx fewer, bytes Z.ZZx fewer
//
// and the same mean per form (Unstructured, Struct, JSON). When end to end
// rows were run with a third side, .../read (reading the same fresh inputs
// once, converting nothing: the floor of any field manager), a table of
// each side's time over the read's follows, with what the row's target
// (5x, 10x for Reapply) leaves for the whole request, in reads. When KubeBoundary rows
// were run, a table of structmerge's time over the walk's ("x the limit",
// lower is better, the target within 3x) and the allocations and bytes of
// both follows. Neither kind of kube row enters the SMD means below, and
// the boundary rows enter no mean at all.
//
// Usage:
//
//	go run ./cmd/benchcmp [-bench regexp] [-benchtime d] [-count n] [-timeout d] [-in file] [-md | -doc file]
//
//	go run ./cmd/benchcmp                     # run every benchmark (long)
//	go run ./cmd/benchcmp -bench 'Operations/Pod/' -benchtime 2s
//	go run ./cmd/benchcmp -bench 'KeyedList/^1000$/|Compile|FieldsV1|ConcurrentValidate|Validate' -benchtime 3x
//	go test -run '^$' -bench . -benchmem ./bench | go run ./cmd/benchcmp -in -
//	go run ./cmd/benchcmp -bench 'KubeEndToEnd/JSON/Pod/|KubeBoundary/FromUnstructured/Pod' -benchtime 5x
//
// -bench is go test's pattern: one unanchored regular expression per
// level of the name, so KeyedList/1000/ also selects the 10000- and
// 100000-item sizes; anchor the size (KeyedList/^1000$/) to run one.
// Alternatives at the top level are each split by level on their own, so
// 'KubeEndToEnd/JSON/Pod/|Operations/Pod/Create' runs both groups.
//
// With -count n the median of the n runs is used. The first SMD table holds the
// like-for-like rows, where both libraries start from the same form with
// the same inputs and do the same work; only they feed the means. A row
// where one library allocates nothing shows "0 vs N" instead of a ratio and
// is left out of the allocation and bytes means (the summary says how many
// were). After the table come:
//
//   - the geometric mean of the time, allocation and bytes ratios over all
//     like-for-like rows, and over the target rows only:
//     Operations/<workload>/<op> with op one of Create, Apply, ApplyTwice,
//     Update, UpdateVersion;
//   - the rows kept out of the means (InMemoryReapply/..., whose steps
//     share one in-memory input), in a table of their own with the reason;
//   - "keyed lists", when KeyedList/<items>/<op> rows were run: the time
//     per item for each size and library, the growth time(100000)/time(1000)
//     per library and op (100x is linear), and the smd/structmerge ratios
//     of time, allocations and bytes at 10000 items;
//   - "concurrency", when <name>/g1, g2 and gmax rows were run (as in
//     ConcurrentValidate, which does a fixed amount of work per op): the
//     throughput scaling time(g1)/time(g2) and time(g1)/time(gmax) per
//     library.
//
// A section whose benchmarks were not run is left out.
//
// With -md the tables are markdown tables, and each section stands between
// the markers <!-- benchcmp NAME --> and <!-- end benchcmp NAME -->. With
// -doc FILE the sections between those markers in FILE are replaced by
// this run's, which is how docs/performance.md gets its tables from the
// committed run docs/bench-raw.txt (a test checks that they agree).
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
	timeout := flag.String("timeout", "3h", "go test -timeout (a run of every benchmark takes many minutes)")
	in := flag.String("in", "", "read benchmark output from this file (- for standard input) instead of running")
	md := flag.Bool("md", false, "print markdown: tables as markdown tables, each section between the markers -doc replaces")
	doc := flag.String("doc", "", "rewrite the sections of this markdown file (between <!-- benchcmp NAME --> and <!-- end benchcmp NAME -->) with this run's, instead of printing")
	flag.Parse()
	var data []byte
	var err error
	switch *in {
	case "":
		args := goTestArgs(*bench, *benchtime, *count, *timeout)
		fmt.Fprintln(os.Stderr, "benchcmp: running go", strings.Join(args, " "))
		cmd := exec.Command("go", args...)
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
		fmt.Fprintln(os.Stderr, "benchcmp: no paired benchmarks found (.../structmerge beside .../smd, or beside .../apimachinery in KubeEndToEnd, .../walk in KubeBoundary)")
		os.Exit(2)
	}
	if *doc == "" {
		markdown = *md
		report(os.Stdout, rows)
		return
	}
	text, err := os.ReadFile(*doc)
	if err == nil {
		var out string
		out, err = updateDoc(string(text), rows)
		if err == nil {
			err = os.WriteFile(*doc, []byte(out), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(2)
	}
}

// benchPackage is the package of the side-by-side benchmarks, named by
// import path so that the command works from any directory of the module.
const benchPackage = "github.com/structmerge/structmerge/conformance/bench"

// goTestArgs are the arguments of the go command that runs the benchmarks:
// no tests, allocations and bytes reported.
func goTestArgs(bench, benchtime string, count int, timeout string) []string {
	return []string{"test", "-run", "^$", "-bench", bench, "-benchmem",
		"-benchtime", benchtime, "-count", strconv.Itoa(count), "-timeout", timeout, benchPackage}
}

type measure struct {
	ns     []float64
	allocs []float64 // NaN when not measured
	bytes  []float64 // NaN when not measured
}

// row is one benchmark measured on both sides: the reference (smd, or
// the reference side of the benchmark's family) and structmerge.
type row struct {
	name      string
	ref, smrg measure
	// floor is the read of the same inputs (.../read), when a
	// KubeEndToEnd row has one.
	floor measure
	// procs is the GOMAXPROCS the benchmarks ran with (the -N suffix of
	// their names; none means 1).
	procs int
}

var (
	line        = regexp.MustCompile(`^Benchmark(\S+?)(?:-(\d+))?\s+\d+\s+([\d.]+) ns/op(.*)$`)
	bytesMetric = regexp.MustCompile(`\s([\d.]+) B/op`)
	allocMetric = regexp.MustCompile(`\s([\d.]+) allocs/op`)
)

// metric is the value of the metric re matches in rest; NaN when absent.
func metric(re *regexp.Regexp, rest string) float64 {
	m := re.FindStringSubmatch(rest)
	if m == nil {
		return math.NaN()
	}
	x, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// family is a group of benchmarks whose reference side is not smd: its
// rows pair .../<ref> with .../structmerge.
type family struct {
	prefix, ref string
}

const (
	e2ePrefix      = "KubeEndToEnd/"
	boundaryPrefix = "KubeBoundary/"
)

// families are the benchmarks of the kube layer, each with its reference
// side; every other benchmark pairs .../smd with .../structmerge.
var families = []family{
	{e2ePrefix, "apimachinery"}, // apimachinery's field manager, the API server's
	{boundaryPrefix, "walk"},    // a plain recursive walk of the same map tree or struct, the limit
}

// floorSide is the third side of some KubeEndToEnd rows: reading the same
// fresh inputs once, converting nothing, the floor of any field manager.
const floorSide = "read"

// refSide is the name of the reference side of the benchmark name (without
// its side): smd, or that of the family name belongs to.
func refSide(name string) string {
	for _, f := range families {
		if strings.HasPrefix(name, f.prefix) {
			return f.ref
		}
	}
	return "smd"
}

// parse reads `go test -bench` output and returns the benchmarks that ran
// on both sides, sorted by name: .../smd and .../structmerge, or in a kube
// family, its reference side and .../structmerge.
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
		allocs, by := metric(allocMetric, m[4]), metric(bytesMetric, m[4])
		r := byName[name]
		if r == nil {
			r = &row{name: name}
			byName[name] = r
		}
		var ms *measure
		switch engine {
		case refSide(name):
			ms = &r.ref
		case "structmerge":
			ms = &r.smrg
		case floorSide:
			if !strings.HasPrefix(name, e2ePrefix) {
				continue
			}
			ms = &r.floor
		default:
			continue
		}
		ms.ns = append(ms.ns, ns)
		ms.allocs = append(ms.allocs, allocs)
		ms.bytes = append(ms.bytes, by)
		r.procs = procs
	}
	var rows []row
	for _, r := range byName {
		if len(r.ref.ns) > 0 && len(r.smrg.ns) > 0 {
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

// size formats a number of bytes (decimal units); "-" when not measured.
func size(b float64) string {
	switch {
	case math.IsNaN(b):
		return "-"
	case b >= 1e9:
		return fmt.Sprintf("%.2f GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.2f MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", b/1e3)
	}
	return fmt.Sprintf("%.0f B", b)
}

// exclusion is a group of rows kept out of the means, and why.
type exclusion struct {
	prefix, reason string
}

// excluded lists the rows that do not compare like with like: they are
// shown in their own table, with the reason, and feed no mean.
var excluded = []exclusion{
	{"InMemoryReapply/", "in-memory re-apply of the previous result: the steps of an operation share one input, " +
		"which structmerge's comparison recognises at the root (value.Same) and SMD walks; requests over the wire never share memory"},
}

// exclusionOf returns the reason r is kept out of the means, if it is.
func exclusionOf(r row) (exclusion, bool) {
	for _, e := range excluded {
		if strings.HasPrefix(r.name, e.prefix) {
			return e, true
		}
	}
	return exclusion{}, false
}

// notes are said of rows that stay in the means: a difference in what the
// two sides do that is inherent to the libraries and does not favour
// structmerge.
var notes = []exclusion{
	{"Compile/", "same schema bytes in, a usable schema out; SMD defers building its field indexes to first use, " +
		"structmerge's Compile builds them, so the row favours SMD"},
}

// report prints the tables and the sections that apply to rows: the
// headlines first, then the kube layer's end to end table and its
// boundary table, then the SMD engine's tables. The kube rows feed no SMD
// mean.
func report(w io.Writer, rows []row) {
	var e2e, boundary, fair, apart []row
	for _, r := range rows {
		switch _, ok := exclusionOf(r); {
		case strings.HasPrefix(r.name, e2ePrefix):
			e2e = append(e2e, r)
		case strings.HasPrefix(r.name, boundaryPrefix):
			boundary = append(boundary, r)
		case ok:
			apart = append(apart, r)
		default:
			fair = append(fair, r)
		}
	}
	cw := &countingWriter{w: w}
	w = cw
	section(w, "headlines", func(w io.Writer) { printHeadlines(w, e2e, fair) })
	if len(e2e) > 0 && cw.n > 0 {
		fmt.Fprintln(w)
	}
	section(w, "end-to-end", func(w io.Writer) { printEndToEnd(w, e2e) })
	if len(newUserRows(e2e)) > 0 {
		fmt.Fprintln(w)
	}
	section(w, "new-user", func(w io.Writer) { printNewUser(w, e2e) })
	section(w, "floor", func(w io.Writer) { printFloor(w, e2e) })
	if len(boundary) > 0 && cw.n > 0 {
		fmt.Fprintln(w)
	}
	section(w, "boundary", func(w io.Writer) { printBoundary(w, boundary) })
	if len(fair) > 0 {
		if cw.n > 0 {
			fmt.Fprintln(w)
		}
		section(w, "like-for-like", func(w io.Writer) {
			fmt.Fprintln(w, "like-for-like rows (in the means): both libraries start from the same form, with the same inputs, and do the same work;")
			fmt.Fprintln(w, "ratios are smd/structmerge (above 1: structmerge is faster, allocates less)")
			printTable(w, fair, "smd")
			printNotes(w, fair)
			fmt.Fprintln(w)
			printGeomeans(w, fair)
		})
	}
	section(w, "apart", func(w io.Writer) { printApart(w, apart) })
	section(w, "keyed-lists", func(w io.Writer) { printKeyedLists(w, fair) })
	section(w, "concurrency", func(w io.Writer) { printConcurrency(w, fair) })
}

// markdown makes report print markdown (-md): each table a markdown table
// with blank lines around it, each section between its markers.
var markdown bool

// table is where a section writes a table: tab-separated cells, each
// ending in a tab, a row a line.
type table interface {
	io.Writer
	Flush() error
}

// newTable returns a table that writes to w when flushed: aligned columns,
// or a markdown table (first column left-aligned, the others right).
func newTable(w io.Writer) table {
	if markdown {
		return &mdTable{w: w}
	}
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

type mdTable struct {
	w   io.Writer
	buf bytes.Buffer
}

func (t *mdTable) Write(p []byte) (int, error) { return t.buf.Write(p) }

func (t *mdTable) Flush() error {
	var b strings.Builder
	b.WriteString("\n")
	for i, line := range strings.Split(strings.TrimRight(t.buf.String(), "\n"), "\n") {
		cells := strings.Split(strings.TrimSuffix(line, "\t"), "\t")
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		if i == 0 {
			b.WriteString("|---" + strings.Repeat("|---:", len(cells)-1) + "|\n")
		}
	}
	b.WriteString("\n")
	t.buf.Reset()
	_, err := io.WriteString(t.w, b.String())
	return err
}

// section writes what print writes; in markdown, without blank lines at
// its ends or two in a row, between the markers of name, and nothing when
// print writes nothing.
func section(w io.Writer, name string, print func(io.Writer)) {
	var b bytes.Buffer
	print(&b)
	if !markdown || b.Len() == 0 {
		w.Write(b.Bytes())
		return
	}
	var lines []string
	for _, l := range strings.Split(strings.Trim(b.String(), "\n"), "\n") {
		if l == "" && len(lines) > 0 && lines[len(lines)-1] == "" {
			continue
		}
		lines = append(lines, l)
	}
	fmt.Fprintf(w, "%s\n\n%s\n\n%s\n", beginMarker(name), strings.Join(lines, "\n"), endMarker(name))
}

func beginMarker(name string) string { return "<!-- benchcmp " + name + " -->" }
func endMarker(name string) string   { return "<!-- end benchcmp " + name + " -->" }

// updateDoc returns doc with each section between markers replaced by the
// section of rows' markdown report. A section of the doc that the report
// lacks, or of the report that the doc lacks, is an error: the doc is of a
// whole run.
func updateDoc(doc string, rows []row) (string, error) {
	saved := markdown
	markdown = true
	defer func() { markdown = saved }()
	var b strings.Builder
	report(&b, rows)
	names, sections := markedSections(b.String())
	for _, name := range names {
		begin, end := strings.Index(doc, beginMarker(name)), strings.Index(doc, endMarker(name))
		if begin < 0 || end < begin {
			return "", fmt.Errorf("the document has no section %q (%s ... %s)", name, beginMarker(name), endMarker(name))
		}
		doc = doc[:begin] + sections[name] + doc[end+len(endMarker(name)):]
	}
	docNames, _ := markedSections(doc)
	for _, name := range docNames {
		if _, ok := sections[name]; !ok {
			return "", fmt.Errorf("the run has no rows for the document's section %q", name)
		}
	}
	return doc, nil
}

// markedSections returns the names of the sections of text, in order, and
// each section with its markers. A section without its end marker runs to
// the end of text.
func markedSections(text string) (names []string, sections map[string]string) {
	sections = map[string]string{}
	const open = "<!-- benchcmp "
	for rest := text; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			return names, sections
		}
		rest = rest[i:]
		name, _, _ := strings.Cut(rest[len(open):], " -->")
		end := len(rest)
		if j := strings.Index(rest, endMarker(name)); j >= 0 {
			end = j + len(endMarker(name))
		}
		names = append(names, name)
		sections[name] = rest[:end]
		rest = rest[len(open):]
	}
}

// printTable prints rows with their reference side, named ref, beside
// structmerge, and the ratios reference/structmerge.
// countingWriter counts the bytes written through it, so that report
// knows whether a section is the first.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// forms are the forms of the end to end rows, KubeEndToEnd/<form>/..., in
// the order of their means.
var forms = []struct{ name, what string }{
	{"Unstructured", "map[string]any in and out"},
	{"Struct", "Go structs of the k8s.io/api types in and out, an apply's body map[string]any"},
	{"JSON", "JSON bytes in and out, decoding and encoding timed"},
}

// printEndToEnd prints the end to end rows of the kube layer, apimachinery
// beside structmerge, the geometric mean of their ratios and the mean of
// each form. They are not in the SMD means.
func printEndToEnd(w io.Writer, rows []row) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "kube layer end to end (not in the SMD means): apimachinery's field manager and structmerge's kube.FieldManager, "+
		"from an object in the caller's form to the object with its managedFields in the same form;")
	fmt.Fprintln(w, "ratios are apimachinery/structmerge (above 1: structmerge is faster, allocates less)")
	printTable(w, rows, "apimachinery")
	printZeroNote(w, rows)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "kube layer end to end: geometric mean over %d rows: %s\n", len(rows), geomeanOf(rows))
	for _, f := range forms {
		if in := formRows(rows, f.name); len(in) > 0 {
			fmt.Fprintf(w, "  %s (%s): geometric mean over %d rows: %s\n", f.name, f.what, len(in), geomeanOf(in))
		}
	}
}

// formRows returns the end to end rows of form (Unstructured, Struct or
// JSON), in their order.
func formRows(rows []row, form string) []row {
	var in []row
	for _, r := range rows {
		if strings.HasPrefix(r.name, e2ePrefix+form+"/") {
			in = append(in, r)
		}
	}
	return in
}

// The new-user path: what a caller who knows only the obvious names gets,
// kube.FieldManager's ApplyUnstructured and UpdateUnstructured on maps,
// on apimachinery's own fixtures (Pod, Node, Endpoints) and the four
// requests every object gets. Its target: newUserTarget in the geometric
// mean of the time ratios, no row under newUserFloor.
var (
	newUserObjects = []string{"Pod", "Node", "Endpoints"}
	newUserOps     = []string{"Create", "Reapply", "ApplyChange", "ControllerUpdate"}
)

const (
	newUserTarget = 6.5
	newUserFloor  = 3.0
)

// newUserRows returns the rows of the new-user path that were run, in
// object and operation order.
func newUserRows(rows []row) []row {
	var out []row
	for _, o := range newUserObjects {
		for _, op := range newUserOps {
			name := e2ePrefix + "Unstructured/" + o + "/" + op
			if i := slices.IndexFunc(rows, func(r row) bool { return r.name == name }); i >= 0 {
				out = append(out, rows[i])
			}
		}
	}
	return out
}

// timeRatio is a row's time ratio, the reference's median over
// structmerge's.
func timeRatio(r row) float64 { return median(r.ref.ns) / median(r.smrg.ns) }

// newUserJudgement is the new-user path judged against its targets.
type newUserJudgement struct {
	rows    []row   // the path's rows that were run
	mean    geomean // of their ratios
	slowest row     // the row of the least time ratio
	verdict string  // "met", "not met", or "not judged: ..." when rows are missing
}

// judgeNewUser judges the new-user path's rows of rows against its
// targets; ok is false when none of them was run.
func judgeNewUser(rows []row) (j newUserJudgement, ok bool) {
	in := newUserRows(rows)
	if len(in) == 0 {
		return j, false
	}
	j = newUserJudgement{rows: in, mean: geomeanOf(in), slowest: in[0], verdict: "met"}
	for _, r := range in[1:] {
		if timeRatio(r) < timeRatio(j.slowest) {
			j.slowest = r
		}
	}
	if all := len(newUserObjects) * len(newUserOps); len(in) < all {
		j.verdict = fmt.Sprintf("not judged: %d of %d rows run", len(in), all)
	} else if j.mean.time < newUserTarget || timeRatio(j.slowest) < newUserFloor {
		j.verdict = "not met"
	}
	return j, true
}

// printNewUser prints the new-user path's rows, their geometric mean and
// the slowest row against the targets.
func printNewUser(w io.Writer, rows []row) {
	j, ok := judgeNewUser(rows)
	if !ok {
		return
	}
	fmt.Fprintf(w, "new-user path (a row group of the end to end table): kube.FieldManager.ApplyUnstructured and UpdateUnstructured, maps in and out, "+
		"on apimachinery's Pod, Node and Endpoints fixtures (%s);\n", strings.Join(newUserOps, ", "))
	fmt.Fprintf(w, "ratios are apimachinery/structmerge; target: a geometric mean of at least %gx in time, no row under %gx\n", newUserTarget, newUserFloor)
	printTable(w, j.rows, "apimachinery")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "new-user path: geometric mean over %d rows: %s; slowest row %s at %.1fx; target %s\n",
		len(j.rows), j.mean, j.slowest.name, timeRatio(j.slowest), j.verdict)
}

// e2eTarget is the time ratio the end to end rows are to reach,
// reapplyTarget that of re-applying with no change.
const (
	e2eTarget     = 5.0
	reapplyTarget = 10.0
)

// targetOf is the time ratio the end to end row name is to reach.
func targetOf(name string) float64 {
	if strings.HasSuffix(name, "/Reapply") {
		return reapplyTarget
	}
	return e2eTarget
}

// floorRows returns the end to end rows that have a read of their inputs.
func floorRows(rows []row) []row {
	var in []row
	for _, r := range rows {
		if len(r.floor.ns) > 0 {
			in = append(in, r)
		}
	}
	return in
}

// spread is the geometric mean, the least and the most of some ratios.
type spread struct {
	mean, least, most float64
}

// overRead is the spread of a side's time over the read's, on rows that
// all have a read; side picks the side's measure from a row.
func overRead(rows []row, side func(row) measure) spread {
	s := spread{least: math.Inf(1), most: math.Inf(-1)}
	logSum := 0.0
	for _, r := range rows {
		x := median(side(r).ns) / median(r.floor.ns)
		logSum += math.Log(x)
		s.least, s.most = min(s.least, x), max(s.most, x)
	}
	s.mean = math.Exp(logSum / float64(len(rows)))
	return s
}

// The sides of a row, for overRead.
func refOf(r row) measure  { return r.ref }
func smrgOf(r row) measure { return r.smrg }

// printFloor prints, for the end to end rows that have a read of their
// inputs, each side's time over the read's, and the time the row's target
// leaves for the whole request in reads: apimachinery's over the target.
func printFloor(w io.Writer, rows []row) {
	in := floorRows(rows)
	if len(in) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "kube layer floor (in no mean): reading the request's fresh input maps once, every key and value, converting nothing, "+
		"the least a field manager that reads its input does;\n"+
		"x the read is a time over the read's: apimachinery's bounds the time ratio any such design can reach; "+
		"the target's is apimachinery's over the row's target ratio (%gx, %gx for Reapply), what the target leaves for the whole request\n",
		e2eTarget, reapplyTarget)
	tw := newTable(w)
	fmt.Fprintln(tw, "benchmark\tread time\tapimachinery x the read\tstructmerge x the read\ttarget x the read\t")
	type left struct {
		name string
		x    float64
	}
	var lefts []left
	for _, r := range in {
		ft, at, mt := median(r.floor.ns), median(r.ref.ns), median(r.smrg.ns)
		tx := at / targetOf(r.name) / ft
		lefts = append(lefts, left{r.name, tx})
		fmt.Fprintf(tw, "%s\t%s\t%.1fx\t%.1fx\t%.2fx\t\n", r.name, duration(ft), at/ft, mt/ft, tx)
	}
	tw.Flush()
	sort.SliceStable(lefts, func(i, j int) bool { return lefts[i].x < lefts[j].x })
	var least []string
	for _, l := range lefts[:min(3, len(lefts))] {
		least = append(least, fmt.Sprintf("%s (%.2fx)", l.name, l.x))
	}
	fmt.Fprintf(w, "structmerge x the read: geometric mean over %d rows %.2fx; the targets leave the least on %s\n",
		len(in), overRead(in, smrgOf).mean, strings.Join(least, ", "))
}

// boundaryTarget is the target for the boundary rows: structmerge
// within this many times the walk's time.
const boundaryTarget = 3.0

// printBoundary prints the boundary rows of the kube layer: structmerge's
// time over the walk's ("x the limit", lower is better), and the
// allocations and bytes of both. They are in no mean.
func printBoundary(w io.Writer, rows []row) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "kube layer boundary (in no mean): structmerge's conversion against its limit, a plain recursive walk of the same map tree or struct;\n"+
		"x the limit is structmerge's time over the walk's (lower is better; the target is within %gx)\n", boundaryTarget)
	tw := newTable(w)
	fmt.Fprintln(tw, "benchmark\twalk time\tstructmerge time\tx the limit\twalk allocs\tstructmerge allocs\twalk bytes\tstructmerge bytes\t")
	var over []string
	for _, r := range rows {
		wt, mt := median(r.ref.ns), median(r.smrg.ns)
		x := mt / wt
		if !(x <= boundaryTarget) {
			over = append(over, fmt.Sprintf("%s (%.2fx)", r.name, x))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2fx\t%s\t%s\t%s\t%s\t\n", r.name, duration(wt), duration(mt), x,
			allocCount(median(r.ref.allocs)), allocCount(median(r.smrg.allocs)),
			size(median(r.ref.bytes)), size(median(r.smrg.bytes)))
	}
	tw.Flush()
	s := fmt.Sprintf("within %gx of the limit: %d of %d rows", boundaryTarget, len(rows)-len(over), len(rows))
	if len(over) > 0 {
		s += "; over: " + strings.Join(over, ", ")
	}
	fmt.Fprintln(w, s)
}

func printTable(w io.Writer, rows []row, ref string) {
	tw := newTable(w)
	fmt.Fprintf(tw, "benchmark\t%[1]s time\tstructmerge time\ttime ratio\t%[1]s allocs\tstructmerge allocs\talloc ratio\t%[1]s bytes\tstructmerge bytes\tbytes ratio\t\n", ref)
	for _, r := range rows {
		st, mt := median(r.ref.ns), median(r.smrg.ns)
		sa, ma := median(r.ref.allocs), median(r.smrg.allocs)
		sb, mb := median(r.ref.bytes), median(r.smrg.bytes)
		_, state := memRatiosState(r)
		inMean := state == memRatio
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1fx\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.name,
			duration(st), duration(mt), st/mt,
			allocCount(sa), allocCount(ma), ratioCell(sa, ma, allocCount, inMean),
			size(sb), size(mb), ratioCell(sb, mb, size, inMean))
	}
	tw.Flush()
}

// ratioCell is the reference/structmerge ratio of a memory metric: "-" when it
// was not measured, "0 vs N" when one side is 0 (no ratio), and the ratio
// in brackets when the row is out of the means for the other metric.
func ratioCell(smd, sm float64, format func(float64) string, inMean bool) string {
	switch {
	case math.IsNaN(smd) || math.IsNaN(sm):
		return "-"
	case smd == 0 && sm == 0:
		return "0 vs 0"
	case sm == 0:
		return "0 vs " + format(smd)
	case smd == 0:
		return "0 vs " + format(sm)
	case !inMean:
		return fmt.Sprintf("[%.1fx]", smd/sm)
	}
	return fmt.Sprintf("%.1fx", smd/sm)
}

// allocCount formats an allocation count; "-" when it was not measured.
func allocCount(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

// memState says whether a row's memory ratios can enter a mean.
type memState int

const (
	memRatio      memState = iota // both sides allocate: ratios of allocations and bytes
	memZero                       // one side allocates nothing: "0 vs N", no ratio
	memUnmeasured                 // allocations or bytes not measured (no -benchmem)
)

// memRatiosState returns smd's allocations and bytes over structmerge's,
// and whether they can enter the means: only when both were measured and
// no side has zero allocations or zero bytes.
func memRatiosState(r row) ([2]float64, memState) {
	xs := [4]float64{median(r.ref.allocs), median(r.smrg.allocs), median(r.ref.bytes), median(r.smrg.bytes)}
	for _, x := range xs {
		if math.IsNaN(x) {
			return [2]float64{}, memUnmeasured
		}
	}
	for _, x := range xs {
		if x == 0 {
			return [2]float64{}, memZero
		}
	}
	return [2]float64{xs[0] / xs[1], xs[2] / xs[3]}, memRatio
}

// geomean is the geometric mean of the time, allocation and bytes ratios
// of rows.
type geomean struct {
	n                   int // rows, all in the time mean
	nMem                int // rows in the allocation and bytes means
	nZero, nUnmeasured  int // rows left out of them, by reason
	time, allocs, bytes float64
}

func geomeanOf(rows []row) geomean {
	var g geomean
	var logT, logA, logB float64
	for _, r := range rows {
		logT += math.Log(median(r.ref.ns) / median(r.smrg.ns))
		g.n++
		ratios, st := memRatiosState(r)
		switch st {
		case memRatio:
			logA += math.Log(ratios[0])
			logB += math.Log(ratios[1])
			g.nMem++
		case memZero:
			g.nZero++
		case memUnmeasured:
			g.nUnmeasured++
		}
	}
	g.time = math.Exp(logT / float64(g.n))
	if g.nMem > 0 {
		g.allocs = math.Exp(logA / float64(g.nMem))
		g.bytes = math.Exp(logB / float64(g.nMem))
	}
	return g
}

// String states the time, allocation and bytes means, and which rows the
// allocation and bytes means leave out.
func (g geomean) String() string {
	s := fmt.Sprintf("time %.2fx faster", g.time)
	if g.nMem == 0 {
		return s + ", allocations and bytes: no row with both measured and non-zero on both sides"
	}
	s += fmt.Sprintf(", allocations %.2fx fewer, bytes %.2fx fewer", g.allocs, g.bytes)
	if note := g.memNote(); note != "" {
		s += " " + note
	}
	return s
}

// memNote says, in brackets, which rows the allocation and bytes means
// leave out; "" when they leave out none.
func (g geomean) memNote() string {
	if g.nMem == g.n {
		return ""
	}
	var why []string
	if g.nZero > 0 {
		why = append(why, fmt.Sprintf("%d where one library allocates nothing (\"0 vs N\")", g.nZero))
	}
	if g.nUnmeasured > 0 {
		why = append(why, fmt.Sprintf("%d without allocations measured", g.nUnmeasured))
	}
	return fmt.Sprintf("(allocations and bytes over %d of the %d rows, leaving out %s)", g.nMem, g.n, strings.Join(why, " and "))
}

// printNotes states the notes that apply to rows.
func printNotes(w io.Writer, rows []row) {
	for _, n := range notes {
		if slices.ContainsFunc(rows, func(r row) bool { return strings.HasPrefix(r.name, n.prefix) }) {
			fmt.Fprintf(w, "note: %s*: %s\n", n.prefix, n.reason)
		}
	}
	printZeroNote(w, rows)
}

// printZeroNote explains "0 vs N" when a row of rows shows it.
func printZeroNote(w io.Writer, rows []row) {
	if slices.ContainsFunc(rows, func(r row) bool { _, st := memRatiosState(r); return st == memZero }) {
		fmt.Fprintln(w, `note: "0 vs N": one library allocates nothing (see its columns), the other N; no ratio is given, `+
			`and the row is left out of the allocation and bytes means (a ratio in brackets is the other metric of such a row)`)
	}
}

// printApart prints the rows kept out of the means, group by group, with
// the reason.
func printApart(w io.Writer, rows []row) {
	for _, e := range excluded {
		var group []row
		for _, r := range rows {
			if strings.HasPrefix(r.name, e.prefix) {
				group = append(group, r)
			}
		}
		if len(group) == 0 {
			continue
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "not in the means: %s*: %s\n", e.prefix, e.reason)
		printTable(w, group, "smd")
	}
}

// targetOps are the operations of BenchmarkOperations the project's
// performance target is stated for.
var targetOps = []string{"Create", "Apply", "ApplyTwice", "Update", "UpdateVersion"}

func isTarget(name string) bool {
	parts := strings.Split(name, "/")
	return len(parts) == 3 && parts[0] == "Operations" && slices.Contains(targetOps, parts[2])
}

// targetRows returns the rows of the target operations.
func targetRows(rows []row) []row {
	var target []row
	for _, r := range rows {
		if isTarget(r.name) {
			target = append(target, r)
		}
	}
	return target
}

func printGeomeans(w io.Writer, rows []row) {
	fmt.Fprintf(w, "geometric mean over all %d like-for-like rows: %s\n", len(rows), geomeanOf(rows))
	if target := targetRows(rows); len(target) > 0 {
		fmt.Fprintf(w, "geometric mean over %d target operations (%s): %s\n",
			len(target), strings.Join(targetOps, ", "), geomeanOf(target))
	}
}

// keyed is one KeyedList/<items>/<op> row.
type keyed struct {
	items   int
	op      string
	smd, sm float64 // median ns/op
	r       row
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
		ks = append(ks, keyed{items: n, op: parts[2], smd: median(r.ref.ns), sm: median(r.smrg.ns), r: r})
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
	tw := newTable(w)
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
			fmt.Fprintf(w, "%s smd/structmerge at 10000 items: time %.1fx, %s\n", op, k.smd/k.sm, memSummary(k.r))
		}
	}
}

// memSummary states a row's allocation and bytes ratios, or why there are
// none.
func memSummary(r row) string {
	ratios, st := memRatiosState(r)
	switch st {
	case memZero:
		return fmt.Sprintf("allocations %s, bytes %s (smd vs structmerge)",
			allocCount(median(r.ref.allocs))+" vs "+allocCount(median(r.smrg.allocs)),
			size(median(r.ref.bytes))+" vs "+size(median(r.smrg.bytes)))
	case memUnmeasured:
		return "allocations and bytes not measured"
	}
	return fmt.Sprintf("allocations %.1fx fewer, bytes %.1fx fewer", ratios[0], ratios[1])
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
		groups[j].smd[level] = median(r.ref.ns)
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
		tw := newTable(w)
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

// Command suitecount reads `go test -json` output on stdin and prints, per
// package and in total, how many tests and subtests passed, failed, failed
// as known deviations, and were skipped, and how many of the top-level
// tests passed and failed (a known deviation counts as failed there). It is the verdict of the scripts
// that run other projects' tests on structmerge (scripts/smd-suite.sh,
// scripts/k8s-suite.sh, scripts/k8s-integration.sh).
//
// Usage:
//
//	go test -json ... | suitecount [-known FILE] [-min N] [-min-file FILE] [-exit CODE] [-trim PREFIX]
//
//	-known FILE  known deviations, one per line: "<package> <Test[/sub]> <reason>";
//	             listing a test covers its subtests; '#' starts a comment
//	-min N       the least number of tests (and subtests) that must report a
//	             result in all; fewer means part of the suite did not run
//	-min-file FILE  the least number per package, one per line:
//	             "<package> <N>"; checked for each package in the input
//	-exit CODE   the exit status of the `go test` that wrote the input
//	-trim PREFIX removed from package paths in the report
//
// The verdict cannot lie: it exits 1, and says why, when
//   - a test failed that is not a known deviation;
//   - a package did not build, or failed at package level (a failure with
//     no failed test: TestMain, a crash or exit outside a test, a timeout);
//   - a test started and never reported a result (a timeout, a crash, an
//     os.Exit), or a package started and never ended;
//   - `go test` exited non-zero while its JSON shows no failure, or it
//     wrote no JSON at all;
//   - fewer tests reported a result than -min, or than a package's line of
//     -min-file.
//
// It exits 0 otherwise, and 2 on bad arguments.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type event struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

type pkgCounts struct {
	pass, fail, known, skip int
	topPass, topFail        int  // top-level tests that passed; failed (known or not)
	testFails               int  // fail events of tests, known or not
	started, ended          bool // a "start" event; a package-level result
	pkgFailed, buildFailed  bool
	failed                  []string
	running                 map[string]bool // tests run with no result yet
}

// run is the command, with its arguments, input and outputs given.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("suitecount", flag.ContinueOnError)
	fs.SetOutput(stderr)
	knownFile := fs.String("known", "", "known deviations file")
	minTotal := fs.Int("min", 0, "least number of tests that must report a result")
	goExit := fs.Int("exit", 0, "exit status of go test")
	trim := fs.String("trim", "", "prefix removed from package paths")
	minFile := fs.String("min-file", "", "least number of tests per package")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	pkgMin := map[string]int{}
	if *minFile != "" {
		rows, err := readTable(*minFile)
		if err != nil {
			fmt.Fprintln(stderr, "suitecount:", err)
			return 2
		}
		for _, r := range rows {
			n, err := strconv.Atoi(r.fields[len(r.fields)-1])
			if len(r.fields) != 2 || err != nil || n < 0 {
				fmt.Fprintf(stderr, "suitecount: %s:%d: want \"<package> <minimum>\", got %q\n", *minFile, r.line, strings.Join(r.fields, " "))
				return 2
			}
			pkgMin[r.fields[0]] = n
		}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "suitecount: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	known := map[string]bool{}
	if *knownFile != "" {
		rows, err := readTable(*knownFile)
		if err != nil {
			fmt.Fprintln(stderr, "suitecount:", err)
			return 2
		}
		for _, r := range rows {
			if len(r.fields) >= 2 {
				known[r.fields[0]+" "+r.fields[1]] = true
			}
		}
	}

	byPkg := map[string]*pkgCounts{}
	get := func(p string) *pkgCounts {
		p = strings.TrimPrefix(p, *trim)
		if byPkg[p] == nil {
			byPkg[p] = &pkgCounts{running: map[string]bool{}}
		}
		return byPkg[p]
	}
	events, badLines := 0, 0
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		var e event
		if json.Unmarshal(line, &e) != nil {
			badLines++
			continue
		}
		events++
		switch e.Action {
		case "build-output":
			fmt.Fprint(stdout, e.Output) // build errors, as they come
			continue
		case "build-fail":
			continue // the package's own fail event follows, with FailedBuild
		}
		if e.Package == "" {
			continue
		}
		c := get(e.Package)
		if e.Test == "" {
			switch e.Action {
			case "start":
				c.started = true
			case "pass", "skip":
				c.ended = true
			case "fail":
				c.ended = true
				c.pkgFailed = true
				if e.FailedBuild != "" {
					c.buildFailed = true
				}
			}
			continue
		}
		switch e.Action {
		case "run":
			c.running[e.Test] = true
		case "pass":
			delete(c.running, e.Test)
			c.pass++
			if !strings.Contains(e.Test, "/") {
				c.topPass++
			}
		case "skip":
			delete(c.running, e.Test)
			c.skip++
		case "fail":
			delete(c.running, e.Test)
			c.testFails++
			if !strings.Contains(e.Test, "/") {
				c.topFail++
			}
			name := strings.TrimPrefix(e.Package, *trim) + " " + e.Test
			if known[name] || knownParent(name, known) {
				c.known++
			} else {
				c.fail++
				c.failed = append(c.failed, e.Test)
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(stderr, "suitecount: reading the input:", err)
		return 2
	}

	var problems []string
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	var total pkgCounts
	anyFail := false
	for _, p := range pkgs {
		c := byPkg[p]
		var notes []string
		switch {
		case c.buildFailed:
			notes = append(notes, "did not build")
		case c.pkgFailed && c.testFails == 0:
			notes = append(notes, "failed outside any test (TestMain, a crash, an exit or a timeout)")
		}
		if m, ok := pkgMin[p]; ok && c.pass+c.fail+c.known < m {
			notes = append(notes, fmt.Sprintf("only %d tests reported a result, fewer than the minimum %d", c.pass+c.fail+c.known, m))
		}
		if c.started && !c.ended {
			notes = append(notes, "started and never ended")
		}
		unreported := make([]string, 0, len(c.running))
		for t := range c.running {
			unreported = append(unreported, t)
		}
		slices.Sort(unreported)
		if len(unreported) > 0 {
			notes = append(notes, fmt.Sprintf("%d test(s) started and never reported a result", len(unreported)))
		}
		note := ""
		if len(notes) > 0 {
			note = " (" + strings.Join(notes, "; ") + ")"
			problems = append(problems, p+": "+strings.Join(notes, "; "))
		}
		fmt.Fprintf(stdout, "%-10s %d passed, %d failed, %d known deviations, %d skipped (top-level tests: %d passed, %d failed)%s\n",
			p, c.pass, c.fail, c.known, c.skip, c.topPass, c.topFail, note)
		for _, t := range c.failed {
			fmt.Fprintf(stdout, "  FAIL %s\n", t)
		}
		for _, t := range unreported {
			fmt.Fprintf(stdout, "  NO RESULT %s\n", t)
		}
		total.add(c)
		anyFail = anyFail || c.pkgFailed || c.testFails > 0
	}
	fmt.Fprintf(stdout, "total      %d passed, %d failed, %d known deviations, %d skipped (top-level tests: %d passed, %d failed)\n",
		total.pass, total.fail, total.known, total.skip, total.topPass, total.topFail)

	if total.fail > 0 {
		problems = append(problems, fmt.Sprintf("%d test(s) failed", total.fail))
	}
	if events == 0 {
		problems = append(problems, fmt.Sprintf("go test wrote no JSON (exit status %d, %d other lines)", *goExit, badLines))
	} else if *goExit != 0 && !anyFail {
		problems = append(problems, fmt.Sprintf("go test exited with status %d but its JSON shows no failure", *goExit))
	}
	if reported := total.pass + total.fail + total.known; reported < *minTotal {
		problems = append(problems, fmt.Sprintf("only %d tests reported a result, fewer than the minimum %d", reported, *minTotal))
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(stdout, "suitecount: FAILED:", p)
		}
		return 1
	}
	return 0
}

// add adds c's counts of results to t's.
func (t *pkgCounts) add(c *pkgCounts) {
	t.pass += c.pass
	t.fail += c.fail
	t.known += c.known
	t.skip += c.skip
	t.topPass += c.topPass
	t.topFail += c.topFail
}

// row is a line of a table file: its number and its fields.
type row struct {
	line   int
	fields []string
}

// readTable reads a file of whitespace-separated fields, leaving out blank
// lines and lines that start with '#'.
func readTable(path string) ([]row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []row
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			rows = append(rows, row{line: i + 1, fields: f})
		}
	}
	return rows, nil
}

// knownParent reports whether an ancestor of a subtest name is listed, so
// that listing a test covers its subtests.
func knownParent(name string, known map[string]bool) bool {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '/' && known[name[:i]] {
			return true
		}
	}
	return false
}

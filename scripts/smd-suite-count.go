//go:build ignore

// Command smd-suite-count reads `go test -json` output on stdin and prints,
// per package and in total, how many tests and subtests passed and failed.
// Failures named in the known-deviations file given as the first argument
// (lines "package TestName[/sub] reason") are counted apart. It exits 1 if
// any failure is not listed, or a package did not build.
//
// Used by scripts/smd-suite.sh: go run scripts/smd-suite-count.go FILE.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

type counts struct {
	pass, fail, known, skip int
	buildFailed             bool
	failed                  []string
}

func main() {
	known := map[string]bool{}
	if len(os.Args) > 1 {
		data, err := os.ReadFile(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && !strings.HasPrefix(f[0], "#") {
				known[f[0]+" "+f[1]] = true
			}
		}
	}
	byPkg := map[string]*counts{}
	get := func(p string) *counts {
		p = strings.TrimPrefix(p, "sigs.k8s.io/structured-merge-diff/v6/")
		if byPkg[p] == nil {
			byPkg[p] = &counts{}
		}
		return byPkg[p]
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.Action == "build-output" {
			// Build errors: shown as they come, the package's line says so.
			fmt.Print(e.Output)
			continue
		}
		if e.Package == "" {
			continue
		}
		c := get(e.Package)
		switch {
		case e.Test == "" && e.Action == "fail" && c.pass+c.fail+c.known == 0:
			c.buildFailed = true
		case e.Test == "":
		case e.Action == "pass":
			c.pass++
		case e.Action == "skip":
			c.skip++
		case e.Action == "fail":
			name := strings.TrimPrefix(e.Package, "sigs.k8s.io/structured-merge-diff/v6/") + " " + e.Test
			if known[name] || known[parentOf(name, known)] {
				c.known++
			} else {
				c.fail++
				c.failed = append(c.failed, e.Test)
			}
		}
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	var total counts
	ok := true
	for _, p := range pkgs {
		c := byPkg[p]
		note := ""
		if c.buildFailed {
			note = " (did not build or the run failed outside a test)"
			ok = false
		}
		fmt.Printf("%-10s %d passed, %d failed, %d known deviations, %d skipped%s\n", p, c.pass, c.fail, c.known, c.skip, note)
		for _, t := range c.failed {
			fmt.Printf("  FAIL %s\n", t)
		}
		total.pass += c.pass
		total.fail += c.fail
		total.known += c.known
		total.skip += c.skip
	}
	fmt.Printf("total      %d passed, %d failed, %d known deviations, %d skipped\n", total.pass, total.fail, total.known, total.skip)
	if total.fail > 0 || !ok {
		os.Exit(1)
	}
}

// parentOf returns the listed ancestor of a subtest name, so that listing a
// test covers its subtests; "" if none is listed.
func parentOf(name string, known map[string]bool) string {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '/' && known[name[:i]] {
			return name[:i]
		}
	}
	return ""
}

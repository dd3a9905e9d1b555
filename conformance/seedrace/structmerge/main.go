// Command structmerge runs the seed-race workload (package seedrace) on
// structmerge: the schema and objects on which structured-merge-diff v6.3.0
// races (see ../smd), validated, field-set and merged by many goroutines on
// freshly compiled schemas. Built with -race it should report nothing. It
// exits 1 if any goroutine got a result different from a reference run.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/structmerge/structmerge/conformance/seedrace"
)

func main() {
	rounds := flag.Int("rounds", 200, "fresh schemas to run on")
	workers := flag.Int("goroutines", 8, "goroutines per round")
	flag.Parse()

	if err := seedrace.Run(*rounds, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "structmerge:", err)
		os.Exit(1)
	}
	fmt.Printf("structmerge: %d rounds of %d goroutines, all results identical\n", *rounds, *workers)
}

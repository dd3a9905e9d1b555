// Command smd reproduces the data race that structured-merge-diff v6.3.0
// has in its schema package, the race this project was started to remove.
//
// A struct type ("endpoint") is used twice by the root type: plainly by the
// field "plain", and through an element-relationship override by the field
// "frozen" (namedType: endpoint, elementRelationship: atomic). Goroutines
// validate objects against one shared parser. Validating "plain" fills the
// field index of endpoint's *schema.Map lazily in (*Map).FindField (a write);
// validating "frozen" makes (*Schema).Resolve copy that same *Map with
// (*Map).CopyInto, which reads the index without synchronisation. Run with
// -race, v6.3.0 reports WARNING: DATA RACE between the two; v6.3.1 and later
// guard the index with atomics and report nothing.
//
// The lazy state is filled once per schema, so each round parses a fresh
// schema and starts the goroutines together; many rounds make the report
// certain rather than likely.
//
// The race is not harmless: when the copy is taken while the index is being
// filled, the override's copy keeps an empty index for good and rejects valid
// objects ("field not declared in schema"). The program counts such wrong
// rejections and exits 1 if there were any; otherwise it exits 0, which the
// race detector turns into 66 when it has reported a race.
package main

import (
	"flag"
	"fmt"
	"os"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

const schemaYAML = `types:
- name: root
  map:
    fields:
    - name: plain
      type:
        namedType: endpoint
    - name: frozen
      type:
        namedType: endpoint
        elementRelationship: atomic
- name: endpoint
  map:
    fields:
    - name: host
      type:
        scalar: string
    - name: port
      type:
        scalar: numeric
`

// objects alternate between goroutines: even ones reach endpoint plainly,
// odd ones through the override.
var objects = [2]typed.YAMLObject{
	"plain: {host: a.example, port: 80}\n",
	"frozen: {host: b.example, port: 443}\n",
}

func main() {
	rounds := flag.Int("rounds", 200, "fresh schemas to race on")
	workers := flag.Int("goroutines", 8, "goroutines validating per round")
	flag.Parse()

	var rejected int
	var first error
	for range *rounds {
		parser, err := typed.NewParser(schemaYAML)
		if err != nil {
			fmt.Fprintln(os.Stderr, "smd:", err)
			os.Exit(2)
		}
		root := parser.Type("root")
		start := make(chan struct{})
		errs := make(chan error, *workers)
		var wg sync.WaitGroup
		for g := range *workers {
			obj := objects[g%2]
			wg.Go(func() {
				<-start
				if _, err := root.FromYAML(obj); err != nil {
					errs <- err
				}
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if first == nil {
				first = err
			}
			rejected++
		}
	}
	fmt.Printf("smd: validated %d rounds of %d goroutines\n", *rounds, *workers)
	if rejected > 0 {
		fmt.Printf("smd: %d valid objects rejected, first: %v\n", rejected, first)
		os.Exit(1)
	}
}

// Package seedrace_test runs, through the drop-in's API (SMD's API), the
// workload on which structured-merge-diff v6.3.0 has its data race (see
// scripts/seed-race.sh and conformance/seedrace in the repository): a
// schema whose root type uses the struct "endpoint" plainly and through an
// element-relationship override, and goroutines that, started together on
// each freshly made parser, validate objects, take their field sets, merge
// them into a live object and resolve the overridden reference. Run with
// -race it must report nothing, and every goroutine must get the results of
// a run on a parser of its own.
//
// The schema and objects are those of conformance/seedrace (a module of its
// own, which this module cannot import). Run on SMD v6.3.0 instead of the
// drop-in, this test reports the race between (*Map).CopyInto and
// (*Map).FindField at the default 200 rounds (checked when it was written;
// 20 rounds, the -short setting, are usually too few to catch it).
package seedrace_test

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
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

const liveYAML = "plain: {host: live.example, port: 1}\nfrozen: {host: live.example, port: 2}\n"

var cases = []struct{ name, yaml string }{
	{"plain", "plain: {host: a.example, port: 80}\n"},
	{"frozen", "frozen: {host: b.example, port: 443}\n"},
	{"plain-partial", "plain: {host: c.example}\n"},
	{"frozen-partial", "frozen: {host: d.example}\n"},
	{"both", "plain: {port: 8080}\nfrozen: {host: e.example}\n"},
	{"frozen-bad-port", "frozen: {host: f.example, port: eighty}\n"},
	{"plain-undeclared", "plain: {host: g.example, zone: x}\n"},
	{"frozen-undeclared", "frozen: {zone: y}\n"},
}

// result is what the operations give for one case, as text.
type result struct {
	err, fields, merged, resolved string
}

// outcome validates the case's object and, when it is valid, takes its
// field set and merges it into the live object; it also resolves the
// overridden reference and looks up a field, the two schema reads that
// raced in SMD v6.3.0.
func outcome(p *typed.Parser, yaml string) result {
	var r result
	atomic := schema.Atomic
	name := "endpoint"
	a, ok := p.Schema.Resolve(schema.TypeRef{NamedType: &name, ElementRelationship: &atomic})
	if ok && a.Map != nil {
		f, found := a.Map.FindField("port")
		r.resolved = fmt.Sprintf("%s %v %s", a.Map.ElementRelationship, found, *f.Type.Inlined.Scalar)
	}
	root := p.Type("root")
	live, err := root.FromYAML(liveYAML)
	if err != nil {
		r.err = "live: " + err.Error()
		return r
	}
	tv, err := root.FromYAML(typed.YAMLObject(yaml))
	if err != nil {
		r.err = err.Error()
		return r
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		r.err = "field set: " + err.Error()
		return r
	}
	fields, err := set.ToJSON()
	if err != nil {
		r.err = "fields: " + err.Error()
		return r
	}
	r.fields = string(fields)
	merged, err := live.Merge(tv)
	if err != nil {
		r.err = "merge: " + err.Error()
		return r
	}
	j, err := value.ToJSON(merged.AsValue())
	if err != nil {
		r.err = "json: " + err.Error()
		return r
	}
	r.merged = string(j)
	return r
}

func TestSeedRaceWorkload(t *testing.T) {
	rounds := 200
	if testing.Short() {
		rounds = 20
	}
	if s := os.Getenv("SEEDRACE_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		rounds = n
	}
	const goroutines = 8

	ref, err := typed.NewParser(schemaYAML)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]result, len(cases))
	for i, c := range cases {
		want[i] = outcome(ref, c.yaml)
	}
	// The workload must exercise both paths: valid objects through the
	// plain and the overridden reference, and rejected ones.
	if want[0].err != "" || want[1].err != "" || want[0].merged == "" || want[1].merged == "" {
		t.Fatalf("valid objects rejected: %+v, %+v", want[0], want[1])
	}
	if want[5].err == "" || want[6].err == "" {
		t.Fatalf("invalid objects accepted: %+v, %+v", want[5], want[6])
	}
	if want[0].resolved != "atomic true numeric" {
		t.Fatalf("resolved override: %q", want[0].resolved)
	}

	for round := range rounds {
		p, err := typed.NewParser(schemaYAML)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]result, goroutines)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				<-start
				res := make([]result, len(cases))
				for k := range cases {
					i := (g + k) % len(cases)
					res[i] = outcome(p, cases[i].yaml)
				}
				got[g] = res
			})
		}
		close(start)
		wg.Wait()
		for g, res := range got {
			for i := range cases {
				if res[i] != want[i] {
					t.Fatalf("round %d, goroutine %d, case %s: got %+v, want %+v", round, g, cases[i].name, res[i], want[i])
				}
			}
		}
	}
}

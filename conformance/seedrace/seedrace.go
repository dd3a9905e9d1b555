package seedrace

import (
	"fmt"
	"sync"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// SchemaYAML is the schema of the workload, the same text as in ./smd.
const SchemaYAML = `types:
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

// RootType is the type the objects are validated against.
const RootType = "root"

// LiveYAML is the live object every case is merged into.
const LiveYAML = "plain: {host: live.example, port: 1}\nfrozen: {host: live.example, port: 2}\n"

// Case is one object of the workload.
type Case struct {
	Name string
	YAML string
}

// Cases are the objects of the workload: the first two are the ones the SMD
// program validates; the others reach the same two fields with more than one
// field set, or are invalid.
var Cases = []Case{
	{"plain", "plain: {host: a.example, port: 80}\n"},
	{"frozen", "frozen: {host: b.example, port: 443}\n"},
	{"plain-partial", "plain: {host: c.example}\n"},
	{"frozen-partial", "frozen: {host: d.example}\n"},
	{"both", "plain: {port: 8080}\nfrozen: {host: e.example}\n"},
	{"frozen-bad-port", "frozen: {host: f.example, port: eighty}\n"},
	{"plain-undeclared", "plain: {host: g.example, zone: x}\n"},
	{"frozen-undeclared", "frozen: {zone: y}\n"},
}

// Result is what the operations give for one case, as text so results can be
// compared and printed: the validation error (empty when valid) and, for a
// valid object, its field set as FieldsV1 and the result of merging it into
// the live object as JSON.
type Result struct {
	Err    string
	Fields string
	Merged string
}

// Input is a decoded case.
type Input struct {
	Case  Case
	Value value.Value
}

// Decode decodes the live object and the cases.
func Decode() (live value.Value, inputs []Input, err error) {
	live, err = value.FromYAML([]byte(LiveYAML))
	if err != nil {
		return value.Value{}, nil, fmt.Errorf("live object: %w", err)
	}
	for _, c := range Cases {
		v, err := value.FromYAML([]byte(c.YAML))
		if err != nil {
			return value.Value{}, nil, fmt.Errorf("case %s: %w", c.Name, err)
		}
		inputs = append(inputs, Input{Case: c, Value: v})
	}
	return live, inputs, nil
}

// Compile compiles SchemaYAML and returns its root type.
func Compile() (*schema.Type, error) {
	s, err := schema.CompileYAML([]byte(SchemaYAML))
	if err != nil {
		return nil, err
	}
	t, ok := s.Type(RootType)
	if !ok {
		return nil, fmt.Errorf("schema has no type %q", RootType)
	}
	return t, nil
}

// Outcome validates v against t and, when it is valid, takes its field set
// and merges it into live.
func Outcome(t *schema.Type, live, v value.Value) Result {
	if err := typed.Validate(t, v); err != nil {
		return Result{Err: err.Error()}
	}
	var r Result
	set, err := typed.FieldSet(t, v)
	if err != nil {
		r.Err = "field set: " + err.Error()
		return r
	}
	r.Fields = string(set.MarshalFieldsV1())
	mergedT, err := typed.NewUnvalidated(t, live).Merge(typed.NewUnvalidated(t, v))
	merged := mergedT.Value()
	if err != nil {
		r.Err = "merge: " + err.Error()
		return r
	}
	r.Merged = string(value.ToJSON(merged))
	return r
}

// Run compiles the schema rounds times. On each fresh schema, goroutines
// goroutines, released together, each run Outcome on every case (starting
// at a different case each, so that the first use of each field of the
// schema is contended). Every result must equal the one a single goroutine
// got on a schema of its own; Run returns an error naming the first that does
// not.
func Run(rounds, goroutines int) error {
	live, inputs, err := Decode()
	if err != nil {
		return err
	}
	t, err := Compile()
	if err != nil {
		return err
	}
	want := make([]Result, len(inputs))
	for i, in := range inputs {
		want[i] = Outcome(t, live, in.Value)
	}

	for round := range rounds {
		t, err := Compile()
		if err != nil {
			return err
		}
		got := make([][]Result, goroutines)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				<-start
				res := make([]Result, len(inputs))
				for k := range inputs {
					i := (g + k) % len(inputs)
					res[i] = Outcome(t, live, inputs[i].Value)
				}
				got[g] = res
			})
		}
		close(start)
		wg.Wait()
		for g, res := range got {
			for i := range inputs {
				if res[i] != want[i] {
					return fmt.Errorf("round %d, goroutine %d, case %s: got %+v, want %+v",
						round, g, inputs[i].Case.Name, res[i], want[i])
				}
			}
		}
	}
	return nil
}

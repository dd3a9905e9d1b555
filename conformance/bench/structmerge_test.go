package bench

import (
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

type structmergeEngine struct{}

func (structmergeEngine) name() string { return "structmerge" }

type smRunner struct {
	t  *schema.Type
	op operation
	// inputs[i] is the object step i writes (validated with duplicates
	// allowed for an update, as SMD's fixture does).
	inputs  []typed.Value
	updater *merge.Updater
}

func (structmergeEngine) prepare(tb testing.TB, w workload, op operation, mode inputMode) runner {
	tb.Helper()
	t := smType(tb, w.schemaFile, w.typeName)
	objectYAML := readTestdata(tb, w.objectFile)
	decode := func(s step) typed.Value {
		v, err := value.FromYAML(objectYAML)
		if err != nil {
			tb.Fatal(err)
		}
		var opts []typed.ValidateOption
		if !s.apply {
			opts = append(opts, typed.AllowDuplicates())
		}
		tv, err := typed.New(t, v, opts...)
		if err != nil {
			tb.Fatal(err)
		}
		return tv
	}
	u, err := merge.NewUpdater()
	if err != nil {
		tb.Fatal(err)
	}
	r := &smRunner{t: t, op: op, updater: u}
	r.inputs = stepInputs(op, mode, decode)
	return r
}

// exec runs the steps from no object; observe, when not nil, sees each
// step's live object and input before the step.
func (r *smRunner) exec(observe func(i int, live, input typed.Value)) (typed.Value, fieldpath.Managers, error) {
	live, err := typed.New(r.t, value.Value{}, typed.AllowDuplicates())
	if err != nil {
		return typed.Value{}, nil, err
	}
	var managers fieldpath.Managers
	for i, s := range r.op.steps {
		if observe != nil {
			observe(i, live, r.inputs[i])
		}
		if s.apply {
			live, managers, err = r.updater.Apply(live, r.inputs[i], managers, merge.Writer{Manager: s.manager, APIVersion: s.version})
		} else {
			live, managers, err = r.updater.Update(live, r.inputs[i], managers, merge.Writer{Manager: s.manager, APIVersion: s.version})
		}
		if err != nil {
			return typed.Value{}, nil, err
		}
	}
	return live, managers, nil
}

func (r *smRunner) run() error {
	_, _, err := r.exec(nil)
	return err
}

func (r *smRunner) result() (result, error) {
	live, managers, err := r.exec(nil)
	if err != nil {
		return result{}, err
	}
	return smState(live, managers), nil
}

func (r *smRunner) trace() ([]stepCall, error) {
	var calls []stepCall
	var earlier []value.Value
	_, _, err := r.exec(func(i int, live, input typed.Value) {
		in := input.Value()
		calls = append(calls, stepCall{
			step:   r.op.steps[i],
			live:   string(value.ToJSON(live.Value())),
			input:  string(value.ToJSON(in)),
			shared: sharedValueNodes(in, append(earlier, live.Value())...),
		})
		earlier = append(earlier, in)
	})
	return calls, err
}

// sharedValueNodes counts the lists and maps of v whose items or fields
// are those of a node in one of others: the nodes for which value.Same
// holds, so that a walk over v and another value can stop there.
func sharedValueNodes(v value.Value, others ...value.Value) int {
	seen := map[any]bool{}
	for _, o := range others {
		walkValueNodes(o, func(id any) { seen[id] = true })
	}
	n := 0
	walkValueNodes(v, func(id any) {
		if seen[id] {
			n++
		}
	})
	return n
}

// walkValueNodes calls f with the identity of every non-empty list and map
// in v: the address of its first item or field.
func walkValueNodes(v value.Value, f func(id any)) {
	switch v.Kind() {
	case value.List:
		items := own.Value.Items(v)
		if len(items) > 0 {
			f(&items[0])
		}
		for _, it := range items {
			walkValueNodes(it, f)
		}
	case value.Map:
		fields := own.Value.Fields(v)
		if len(fields) > 0 {
			f(&fields[0])
		}
		for _, fl := range fields {
			walkValueNodes(fl.Value, f)
		}
	}
}

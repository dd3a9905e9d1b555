package bench

import (
	"reflect"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	smvalue "github.com/structmerge/structmerge/value"
)

type smdEngine struct{}

func (smdEngine) name() string { return "smd" }

// noConversion is the reference fixture's converter: every version is the same.
type noConversion struct{}

func (noConversion) Convert(v *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}
func (noConversion) IsMissingVersionError(error) bool { return false }

type smdRunner struct {
	pt typed.ParseableType
	op operation
	// inputs[i] is the object step i writes (duplicates allowed for an
	// update, as in the reference's fixture).
	inputs  []*typed.TypedValue
	updater *merge.Updater
}

func (smdEngine) prepare(tb testing.TB, w workload, op operation, mode inputMode) runner {
	tb.Helper()
	pt := smdParser(tb, w.schemaFile).Type(w.typeName)
	objectYAML := readTestdata(tb, w.objectFile)
	decode := func(s step) *typed.TypedValue {
		var opts []typed.ValidationOptions
		if !s.apply {
			opts = append(opts, typed.AllowDuplicates)
		}
		tv, err := pt.FromYAML(typed.YAMLObject(objectYAML), opts...)
		if err != nil {
			tb.Fatal(err)
		}
		return tv
	}
	u := (&merge.UpdaterBuilder{Converter: noConversion{}, ReturnInputOnNoop: op.noCompare}).BuildUpdater()
	r := &smdRunner{pt: pt, op: op, updater: u}
	r.inputs = stepInputs(op, mode, decode)
	return r
}

// exec runs the steps from no object; observe, when not nil, sees each
// step's live object and input before the step.
func (r *smdRunner) exec(observe func(i int, live, input *typed.TypedValue)) (*typed.TypedValue, fieldpath.ManagedFields, error) {
	live, err := r.pt.FromUnstructured(nil)
	if err != nil {
		return nil, nil, err
	}
	managers := fieldpath.ManagedFields{}
	for i, s := range r.op.steps {
		if observe != nil {
			observe(i, live, r.inputs[i])
		}
		v := fieldpath.APIVersion(s.version)
		if s.apply {
			out, m, err := r.updater.Apply(live, r.inputs[i], v, managers, s.manager, false)
			if err != nil {
				return nil, nil, err
			}
			managers = m
			if out != nil {
				live = out
			}
		} else {
			out, m, err := r.updater.Update(live, r.inputs[i], v, managers, s.manager)
			if err != nil {
				return nil, nil, err
			}
			live, managers = out, m
		}
	}
	return live, managers, nil
}

func (r *smdRunner) run() error {
	_, _, err := r.exec(nil)
	return err
}

func (r *smdRunner) result() (result, error) {
	live, managers, err := r.exec(nil)
	if err != nil {
		return result{}, err
	}
	return smdState(live, managers)
}

func (r *smdRunner) trace() ([]stepCall, error) {
	var calls []stepCall
	var earlier []any
	var failed error
	_, _, err := r.exec(func(i int, live, input *typed.TypedValue) {
		liveU, inU := live.AsValue().Unstructured(), input.AsValue().Unstructured()
		liveJS, err1 := canonicalJSON(liveU)
		inJS, err2 := canonicalJSON(inU)
		if failed == nil && err1 != nil {
			failed = err1
		}
		if failed == nil && err2 != nil {
			failed = err2
		}
		calls = append(calls, stepCall{
			step:   r.op.steps[i],
			live:   liveJS,
			input:  inJS,
			shared: sharedUnstructuredNodes(inU, append(earlier, liveU)...),
		})
		earlier = append(earlier, inU)
	})
	if err == nil {
		err = failed
	}
	return calls, err
}

// canonicalJSON is an unstructured object as canonical JSON.
func canonicalJSON(u any) (string, error) {
	v, err := smvalue.FromUnstructured(u)
	if err != nil {
		return "", err
	}
	return string(smvalue.ToJSON(v)), nil
}

// sharedUnstructuredNodes counts the maps and non-empty slices of u that
// are also nodes of one of others (the same map, or a slice with the same
// first element).
func sharedUnstructuredNodes(u any, others ...any) int {
	seen := map[any]bool{}
	for _, o := range others {
		walkUnstructuredNodes(o, func(id any) { seen[id] = true })
	}
	n := 0
	walkUnstructuredNodes(u, func(id any) {
		if seen[id] {
			n++
		}
	})
	return n
}

type mapID uintptr

// walkUnstructuredNodes calls f with the identity of every map and
// non-empty slice in u.
func walkUnstructuredNodes(u any, f func(id any)) {
	switch x := u.(type) {
	case map[string]any:
		f(mapID(reflect.ValueOf(x).Pointer()))
		for _, v := range x {
			walkUnstructuredNodes(v, f)
		}
	case map[any]any:
		f(mapID(reflect.ValueOf(x).Pointer()))
		for _, v := range x {
			walkUnstructuredNodes(v, f)
		}
	case []any:
		if len(x) > 0 {
			f(&x[0])
		}
		for _, v := range x {
			walkUnstructuredNodes(v, f)
		}
	}
}

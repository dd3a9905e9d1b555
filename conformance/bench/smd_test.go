package bench

import (
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
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
	pt      typed.ParseableType
	op      operation
	obj     *typed.TypedValue // for applies
	updObj  *typed.TypedValue // for updates (duplicates allowed)
	updater *merge.Updater
}

func (smdEngine) prepare(tb testing.TB, schemaYAML []byte, typeName string, objectYAML []byte, op operation) runner {
	tb.Helper()
	parser, err := typed.NewParser(typed.YAMLObject(schemaYAML))
	if err != nil {
		tb.Fatal(err)
	}
	pt := parser.Type(typeName)
	obj, err := pt.FromYAML(typed.YAMLObject(objectYAML))
	if err != nil {
		tb.Fatal(err)
	}
	upd, err := pt.FromYAML(typed.YAMLObject(objectYAML), typed.AllowDuplicates)
	if err != nil {
		tb.Fatal(err)
	}
	u := (&merge.UpdaterBuilder{Converter: noConversion{}, ReturnInputOnNoop: op.noCompare}).BuildUpdater()
	return &smdRunner{pt: pt, op: op, obj: obj, updObj: upd, updater: u}
}

func (r *smdRunner) exec() (*typed.TypedValue, fieldpath.ManagedFields, error) {
	live, err := r.pt.FromUnstructured(nil)
	if err != nil {
		return nil, nil, err
	}
	managers := fieldpath.ManagedFields{}
	for _, s := range r.op.steps {
		v := fieldpath.APIVersion(s.version)
		if s.apply {
			out, m, err := r.updater.Apply(live, r.obj, v, managers, s.manager, false)
			if err != nil {
				return nil, nil, err
			}
			managers = m
			if out != nil {
				live = out
			}
		} else {
			out, m, err := r.updater.Update(live, r.updObj, v, managers, s.manager)
			if err != nil {
				return nil, nil, err
			}
			live, managers = out, m
		}
	}
	return live, managers, nil
}

func (r *smdRunner) run() error {
	_, _, err := r.exec()
	return err
}

func (r *smdRunner) result() (result, error) {
	live, managers, err := r.exec()
	if err != nil {
		return result{}, err
	}
	return smdState(live, managers)
}

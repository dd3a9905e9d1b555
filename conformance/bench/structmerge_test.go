package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

type structmergeEngine struct{}

func (structmergeEngine) name() string { return "structmerge" }

type smRunner struct {
	t       *schema.Type
	op      operation
	obj     typed.Value
	updObj  typed.Value
	updater *merge.Updater
}

func (structmergeEngine) prepare(tb testing.TB, schemaYAML []byte, typeName string, objectYAML []byte, op operation) runner {
	tb.Helper()
	s, err := schema.CompileYAML(schemaYAML)
	if err != nil {
		tb.Fatal(err)
	}
	t, ok := s.Type(typeName)
	if !ok {
		tb.Fatalf("no type %s", typeName)
	}
	v, err := value.FromYAML(objectYAML)
	if err != nil {
		tb.Fatal(err)
	}
	obj, err := typed.New(t, v)
	if err != nil {
		tb.Fatal(err)
	}
	upd, err := typed.New(t, v, typed.AllowDuplicates())
	if err != nil {
		tb.Fatal(err)
	}
	u, err := merge.NewUpdater()
	if err != nil {
		tb.Fatal(err)
	}
	return &smRunner{t: t, op: op, obj: obj, updObj: upd, updater: u}
}

func (r *smRunner) exec() (typed.Value, fieldpath.Managers, error) {
	live, err := typed.New(r.t, value.Value{}, typed.AllowDuplicates())
	if err != nil {
		return typed.Value{}, nil, err
	}
	var managers fieldpath.Managers
	for _, s := range r.op.steps {
		if s.apply {
			live, managers, err = r.updater.Apply(live, r.obj, s.version, managers, s.manager)
		} else {
			live, managers, err = r.updater.Update(live, r.updObj, s.version, managers, s.manager)
		}
		if err != nil {
			return typed.Value{}, nil, err
		}
	}
	return live, managers, nil
}

func (r *smRunner) run() error {
	_, _, err := r.exec()
	return err
}

func (r *smRunner) result() (result, error) {
	live, managers, err := r.exec()
	if err != nil {
		return result{}, err
	}
	var b strings.Builder
	for _, n := range managers.Names() {
		m := managers[n]
		fmt.Fprintf(&b, "%s %s %v %s\n", n, m.APIVersion, m.Applied, m.Set.MarshalFieldsV1())
	}
	return result{object: string(value.ToJSON(live.Value())), managers: b.String()}, nil
}

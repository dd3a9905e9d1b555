// Package native runs scenario files on structmerge's own engine through
// the plain-data engine interface of internal/scenario.
//
// Concurrency: an Engine and the Typed values it returns hold only a
// compiled schema, which is immutable; safe for concurrent use.
package native

import (
	"errors"
	"fmt"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// Engine is structmerge's implementation of scenario.Engine. The zero value
// is ready to use.
type Engine struct{}

var _ scenario.Engine = Engine{}

// Compile compiles the schema and looks up the root type.
func (Engine) Compile(schemaYAML []byte, typeName string) (scenario.Typed, error) {
	s, err := schema.CompileYAML(schemaYAML)
	if err != nil {
		return nil, err
	}
	t, ok := s.Type(typeName)
	if !ok {
		return nil, fmt.Errorf("type %q is not defined in the schema", typeName)
	}
	u, err := merge.NewUpdater()
	if err != nil {
		return nil, err
	}
	return &Typed{t: t, updater: u}, nil
}

// Typed runs operations on objects of one compiled type.
type Typed struct {
	t       *schema.Type
	updater *merge.Updater
}

// CanonicalFields parses a FieldsV1 document and encodes it again.
func (t *Typed) CanonicalFields(fieldsV1 []byte) ([]byte, error) {
	s, err := fieldpath.ParseFieldsV1(fieldsV1)
	if err != nil {
		return nil, err
	}
	return s.MarshalFieldsV1(), nil
}

// Do runs one operation. On failure it returns the state it was given.
func (t *Typed) Do(state scenario.State, op scenario.Operation) (scenario.State, error) {
	out, err := t.do(state, op)
	if err != nil {
		return state, err
	}
	return out, nil
}

func (t *Typed) do(state scenario.State, op scenario.Operation) (scenario.State, error) {
	var liveObj value.Value
	if state.HasObject {
		v, err := value.FromUnstructured(state.Object)
		if err != nil {
			return state, fmt.Errorf("live object: %w", err)
		}
		liveObj = v
	}
	live, err := typed.New(t.t, liveObj, typed.AllowDuplicates())
	if err != nil {
		return state, fmt.Errorf("live object: %w", err)
	}
	managers := fieldpath.Managers{}
	for name, m := range state.Managers {
		set, err := fieldpath.ParseFieldsV1(m.FieldsV1)
		if err != nil {
			return state, fmt.Errorf("fields of manager %q: %w", name, err)
		}
		managers[name] = fieldpath.VersionedSet{Set: set, APIVersion: m.APIVersion, Applied: m.Applied}
	}
	objValue, err := value.FromUnstructured(op.Object)
	if err != nil {
		return state, err
	}
	var (
		newObj typed.Value
		newMgr fieldpath.Managers
	)
	switch op.Op {
	case scenario.OpApply, scenario.OpForceApply:
		obj, err := typed.New(t.t, objValue)
		if err != nil {
			return state, err
		}
		var opts []merge.ApplyOption
		if op.Op == scenario.OpForceApply {
			opts = append(opts, merge.Force())
		}
		newObj, newMgr, err = t.updater.Apply(live, obj, managers, merge.Writer{Manager: op.Manager, APIVersion: op.APIVersion}, opts...)
		if err != nil {
			return state, conflictsError(err)
		}
	case scenario.OpUpdate:
		obj, err := typed.New(t.t, objValue, typed.AllowDuplicates())
		if err != nil {
			return state, err
		}
		newObj, newMgr, err = t.updater.Update(live, obj, managers, merge.Writer{Manager: op.Manager, APIVersion: op.APIVersion})
		if err != nil {
			return state, err
		}
	default:
		return state, fmt.Errorf("unknown operation %q", op.Op)
	}
	out := scenario.State{Object: newObj.Value().Unstructured(), HasObject: true, Managers: map[string]scenario.Manager{}}
	for _, name := range newMgr.Names() {
		m := newMgr[name]
		out.Managers[name] = scenario.Manager{APIVersion: m.APIVersion, Applied: m.Applied, FieldsV1: m.Set.MarshalFieldsV1()}
	}
	return out, nil
}

// conflictsError turns merge.Conflicts into *scenario.ConflictsError and
// leaves other errors as they are.
func conflictsError(err error) error {
	var cs merge.Conflicts
	if !errors.As(err, &cs) {
		return err
	}
	out := &scenario.ConflictsError{Message: cs.Error()}
	for _, c := range cs {
		out.Conflicts = append(out.Conflicts, scenario.Conflict{Manager: c.Manager, Path: c.Path.String()})
	}
	return out
}

// Package smdengine runs scenario files on structured-merge-diff v6.4.2,
// the behavioural reference, through the plain-data engine interface of
// internal/scenario. The conformance tests use it to check that every
// structured scenario in testdata/scenarios describes what the reference
// does (or, for a listed deviation, that the reference really differs).
//
// The adapter mirrors the reference's own test fixture: no live object is
// the typed null object, every write goes through one merge.Updater with a
// converter that does not convert, update objects and the live object are
// parsed allowing duplicates (as the Kubernetes field manager does) and
// applied objects are not.
//
// Concurrency: an Engine and the Typed values it returns hold only the
// parsed schema, which this package never writes after Compile, and each
// call builds its own Updater. SMD fills caches inside its schema lazily;
// v6.4.2 guards them, so one Typed may be used from several goroutines.
package smdengine

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/structmerge/structmerge/internal/scenario"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Engine is the SMD implementation of scenario.Engine. The zero value is
// ready to use.
type Engine struct{}

var _ scenario.Engine = Engine{}

// Compile parses the schema and checks that it defines typeName.
func (Engine) Compile(schemaYAML []byte, typeName string) (scenario.Typed, error) {
	parser, err := typed.NewParser(typed.YAMLObject(schemaYAML))
	if err != nil {
		return nil, err
	}
	pt := parser.Type(typeName)
	if !pt.IsValid() {
		return nil, fmt.Errorf("type %q is not defined in the schema (it defines %s)", typeName, strings.Join(parser.TypeNames(), ", "))
	}
	return &Typed{pt: pt}, nil
}

// Typed runs operations with one parsed type.
type Typed struct {
	pt typed.ParseableType
}

// identity is a converter that accepts every version and converts nothing,
// like the reference's test fixture.
type identity struct{}

func (identity) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if version == "" {
		return nil, fmt.Errorf("cannot convert to invalid version: %q", version)
	}
	return v, nil
}

func (identity) IsMissingVersionError(error) bool { return false }

// Do runs one operation. On failure it returns the input state unchanged.
func (t *Typed) Do(state scenario.State, op scenario.Operation) (scenario.State, error) {
	out, err := t.do(state, op)
	if err != nil {
		return state, err
	}
	return out, nil
}

func (t *Typed) do(state scenario.State, op scenario.Operation) (scenario.State, error) {
	var liveObj any
	if state.HasObject {
		liveObj = state.Object
	}
	live, err := t.pt.FromUnstructured(liveObj, typed.AllowDuplicates)
	if err != nil {
		return state, fmt.Errorf("live object: %w", err)
	}
	managers := fieldpath.ManagedFields{}
	for _, name := range sortedNames(state.Managers) {
		m := state.Managers[name]
		set := &fieldpath.Set{}
		if err := set.FromJSON(bytes.NewReader(m.FieldsV1)); err != nil {
			return state, fmt.Errorf("fields of manager %q: %w", name, err)
		}
		managers[name] = fieldpath.NewVersionedSet(set, fieldpath.APIVersion(m.APIVersion), m.Applied)
	}
	version := fieldpath.APIVersion(op.APIVersion)
	updater := (&merge.UpdaterBuilder{Converter: identity{}}).BuildUpdater()

	var (
		newObj *typed.TypedValue
		newMgr fieldpath.ManagedFields
	)
	switch op.Op {
	case scenario.OpApply, scenario.OpForceApply:
		obj, err := t.pt.FromUnstructured(op.Object)
		if err != nil {
			return state, err
		}
		newObj, newMgr, err = updater.Apply(live, obj, version, managers, op.Manager, op.Op == scenario.OpForceApply)
		if err != nil {
			return state, conflictsError(err)
		}
		if newObj == nil { // nothing changed
			newObj = live
		}
	case scenario.OpUpdate:
		obj, err := t.pt.FromUnstructured(op.Object, typed.AllowDuplicates)
		if err != nil {
			return state, err
		}
		newObj, newMgr, err = updater.Update(live, obj, version, managers, op.Manager)
		if err != nil {
			return state, conflictsError(err)
		}
	default:
		return state, fmt.Errorf("unknown operation %q", op.Op)
	}

	out := scenario.State{Object: newObj.AsValue().Unstructured(), HasObject: true, Managers: map[string]scenario.Manager{}}
	for name, vs := range newMgr {
		js, err := vs.Set().ToJSON()
		if err != nil {
			return state, fmt.Errorf("encoding fields of manager %q: %w", name, err)
		}
		out.Managers[name] = scenario.Manager{APIVersion: string(vs.APIVersion()), Applied: vs.Applied(), FieldsV1: js}
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
	slices.SortFunc(out.Conflicts, func(a, b scenario.Conflict) int {
		if c := strings.Compare(a.Manager, b.Manager); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

// CanonicalFields parses a FieldsV1 document with SMD and encodes it again.
func (t *Typed) CanonicalFields(fieldsV1 []byte) ([]byte, error) {
	set := &fieldpath.Set{}
	if err := set.FromJSON(bytes.NewReader(fieldsV1)); err != nil {
		return nil, err
	}
	return set.ToJSON()
}

func sortedNames(m map[string]scenario.Manager) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

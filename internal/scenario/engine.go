package scenario

import (
	"strconv"
	"strings"
	"time"
)

// Engine is a server-side apply engine that scenarios run on. Its inputs and
// outputs are plain data so that an adapter for any implementation is a few
// lines long.
type Engine interface {
	// Compile prepares the schema (SMD schema YAML text) with the given root
	// type name.
	Compile(schemaYAML []byte, typeName string) (Typed, error)
}

// Typed is a compiled schema with its root type: it runs operations on
// objects of that type.
type Typed interface {
	// Do runs one write operation on a state and returns the new state. A
	// conflict failure returns *ConflictsError. Do must not modify state or
	// op; when it fails it returns the state it was given, unchanged, along
	// with the error.
	Do(state State, op Operation) (State, error)
	// CanonicalFields parses a FieldsV1 document and re-encodes it
	// canonically (used to compare field sets).
	CanonicalFields(fieldsV1 []byte) ([]byte, error)
}

// State is a live object and its managers.
//
// Objects are unstructured: map[string]any, []any, string, int64, float64,
// bool or nil. HasObject is false when there is no live object yet (before
// the first write of a scenario that gives no `live.object`); an engine
// treats that like a null object, as the reference's own test fixture does.
type State struct {
	Object    any
	HasObject bool
	// Managers maps a manager name to what it owns. A manager whose set is
	// empty is not listed.
	Managers map[string]Manager
}

// Manager is what one manager owns.
type Manager struct {
	// APIVersion is the version the fields are expressed in.
	APIVersion string
	// Applied is true when the fields come from an apply, false when they
	// come from an update.
	Applied bool
	// FieldsV1 is the field set in the Kubernetes FieldsV1 JSON form.
	FieldsV1 []byte
}

// Operation is one write.
type Operation struct {
	// Op is "apply", "forceApply" or "update".
	Op string
	// Manager is the name of the manager doing the write.
	Manager string
	// APIVersion is the version Object is expressed in.
	APIVersion string
	// Object is the unstructured object sent.
	Object any
}

// Conflict is one field another manager owns that an apply would change.
type Conflict struct {
	// Manager is the manager owning the field.
	Manager string
	// Path is the field path in the form Kubernetes prints in conflict
	// errors, for example `.spec.containers[name="nginx"].image`.
	Path string
}

// ConflictsError is the error of an apply that failed because of conflicts.
type ConflictsError struct {
	Conflicts []Conflict
	// Message is the error message the engine reports.
	Message string
}

func (e *ConflictsError) Error() string {
	if e.Message != "" {
		return e.Message
	}
	parts := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		parts[i] = "conflict with " + strconv.Quote(c.Manager) + ": " + c.Path
	}
	return strings.Join(parts, "\n")
}

// KubernetesEngine is implemented by engines that can also run scenarios of
// the Kubernetes flavour (`kubernetes: true`). Run reports a Kubernetes
// scenario as failed on an engine that does not implement it.
type KubernetesEngine interface {
	Engine
	// CompileKubernetes prepares the built-in Kubernetes schema extended with
	// the given CustomResourceDefinition documents.
	CompileKubernetes(crds []Source) (KubernetesTyped, error)
}

// KubernetesTyped runs operations on whole Kubernetes objects.
type KubernetesTyped interface {
	// Do runs one write operation on the stored object (live.Object, with
	// metadata.managedFields; live.HasObject is false when nothing is stored
	// yet) and returns the new stored object. live.Managers is unused. A
	// conflict failure returns *ConflictsError. Do must not modify live or
	// op; when it fails it returns live unchanged along with the error.
	Do(live State, op KubernetesOperation) (State, error)
}

// KubernetesOperation is one write of a Kubernetes-flavour scenario.
type KubernetesOperation struct {
	// Op is "apply", "forceApply" or "update".
	Op string
	// Manager is the field manager name.
	Manager string
	// Subresource is "" for the main resource, or "status", "scale", ...
	Subresource string
	// Object is the whole object sent (for the scale subresource, a Scale).
	Object any
	// Time is the instant of the write, the time the field manager stamps.
	Time time.Time
}

// StepTime returns the instant of step i (0-based) of a Kubernetes-flavour
// scenario: the clock starts at 2020-01-01T00:00:00Z and each step happens
// one second after the previous one.
func StepTime(i int) time.Time {
	return time.Date(2020, time.January, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
}

// Package own is how the packages of this module above value and
// fieldpath reach their operations that take or lend slices without a
// copy (see package valueown): own.Value.Map(fields), own.Set.Members(s).
// (typed builds its sets with the Assembler of package setasm.) It also
// holds the operations one package of the module gives only another:
// typed's set helpers for the merge (Typed), and merge's Updater that
// reads a caller's map without copying it, for kube (Merge). Code outside
// the module cannot import it.
//
// Concurrency: its variables are set during initialisation and never
// written again; safe for concurrent use.
package own

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/valueown"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

var (
	// Value holds value's operations.
	Value = valueown.Of[value.Value, value.Field]()
	// Set holds fieldpath's operations.
	Set = valueown.SetOf[*fieldpath.Set, fieldpath.PathElement, fieldpath.Child, value.Field, value.Value]()
)

// Typed holds the operations of package typed that only the merge uses;
// typed sets them when it is initialised, before any package that imports
// it runs, and nothing writes them again.
var Typed struct {
	// EnsureNamedFieldsAreMembers returns set plus, as members, the
	// fields that the schema declares by name and under which set has
	// paths.
	EnsureNamedFieldsAreMembers func(t *schema.Type, set *fieldpath.Set) *fieldpath.Set
	// NamedFieldsCovered reports whether every member path of
	// EnsureNamedFieldsAreMembers(t, set) is one of
	// EnsureNamedFieldsAreMembers(t, by), without building either set.
	NamedFieldsCovered func(t *schema.Type, set, by *fieldpath.Set) bool
}

// Merge holds the operations of package merge that only kube uses; merge
// sets them when it is initialised, and nothing writes them again.
var Merge struct {
	// UpdaterIgnoring returns a *merge.Updater (as any: this package
	// cannot name the type) that ignores the fields of ignored, as
	// NewUpdater(WithIgnoredFields(ignored)) does, reading the map as
	// given rather than a copy of it: for a caller that builds an Updater
	// per request and never changes the map.
	UpdaterIgnoring func(ignored map[string]*fieldpath.Set) any
}

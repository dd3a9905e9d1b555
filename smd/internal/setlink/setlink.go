// Package setlink lets the bridge convert the drop-in's field sets to and
// from the engine's with the fieldpath package's own converters (which
// read and fill a set's unexported arrays directly), without making them
// public API.
//
// # Concurrency
//
// The variables are set once, by package fieldpath's initialisation, before
// any other code of the program can run, and only read afterwards.
package setlink

import core "github.com/structmerge/structmerge/fieldpath"

var (
	// FromCore returns s as a new *fieldpath.Set whose key and value
	// numbers are int64 (float64 when they are floats).
	FromCore func(s *core.Set) any

	// ToCore converts s, a *fieldpath.Set, to structmerge's set, node by
	// node (each element converted once). An element structmerge cannot
	// hold (a NaN value) is left out, and the first such is the error.
	ToCore func(s any) (*core.Set, error)
)

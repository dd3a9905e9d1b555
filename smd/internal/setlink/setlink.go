// Package setlink lets the bridge convert the drop-in's field sets and path
// elements with the fieldpath package's own converters (which fill a set's
// unexported arrays directly), without making them public API.
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

	// Element converts pe, a fieldpath.PathElement, to structmerge's path
	// element; a value JSON cannot hold (NaN, an infinity) is an error.
	Element func(pe any) (core.PathElement, error)
)

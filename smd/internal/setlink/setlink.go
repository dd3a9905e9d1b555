// Package setlink lets the bridge build the drop-in's fieldpath.Set from
// structmerge's set with the fieldpath package's own converter, which fills
// the set's unexported arrays directly, without making it public API.
//
// # Concurrency
//
// The variable is set once, by package fieldpath's initialisation, before
// any other code of the program can run, and only read afterwards.
package setlink

import core "github.com/structmerge/structmerge/fieldpath"

// FromCore returns s as a new *fieldpath.Set whose key and value numbers
// are int64 (float64 when they are floats).
var FromCore func(s *core.Set) any

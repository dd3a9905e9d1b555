// Package gen generates random, reproducible inputs for the differential
// tests of the conformance module: schemas in the structured-merge-diff
// schema format, objects that fit them, mutations of those objects (the
// configurations managers write), and scenario files (SCENARIOS.md) that
// replay a case.
//
// A Schema is a small model of the types it describes: it emits its own YAML
// text (which both engines compile), resolves field-level element
// relationship overrides, and drives value generation, so that values fit
// the schema by construction. Names and keys come from small alphabets so
// that list items overlap and managers collide.
//
// Everything is driven by a *rand.Rand the caller owns: the same generator
// state gives the same schema and the same values, so a failing case is
// reproduced from its seed.
//
// Concurrency: a Schema is immutable after Generate; safe for concurrent
// use. Generating values needs a *rand.Rand, which is not safe for
// concurrent use: give each goroutine its own.
package gen

// Package seedrace is the structmerge half of the seed-race demonstration:
// the workload on which structured-merge-diff v6.3.0 has a data race (see the
// program in ./smd and docs/race.md), run on structmerge.
//
// The schema's root type uses the struct "endpoint" twice: plainly in the
// field "plain", and with an element-relationship override (namedType:
// endpoint, elementRelationship: atomic) in the field "frozen". In SMD
// v6.3.0, validating the first lazily fills endpoint's field index while
// resolving the second copies it, unsynchronised. Run compiles the same
// schema and has many goroutines, started together on each freshly compiled
// schema, validate, take the field set of and merge the same objects; every
// goroutine must get exactly the results of a reference run.
//
// # Concurrency
//
// Run and Outcome only read the compiled schema, which is immutable after
// Compile, and values, which are immutable; nothing in the package writes
// Cases. Both may be called from any number of goroutines.
package seedrace

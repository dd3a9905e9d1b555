// Package gen generates random, reproducible test cases for the merge
// engine's fuzz targets and the conformance module's differential tests
// (it needs no reference engine): schemas in the structured-merge-diff
// schema format, objects that fit them, configurations derived from those
// objects, and scenario files (docs/scenarios.md) that replay a case.
//
//   - Generate draws a Schema: named struct types whose fields cover every
//     relationship the engines treat differently (scalars, atomic and
//     granular maps, maps of structs and of lists, structs and atomic
//     structs, field-level element relationship overrides, atomic lists,
//     sets, lists keyed by one or two fields, some with a defaulted key,
//     nested keyed lists, untyped deduced and atomic fields, named scalar
//     types, and now and then recursive references). A Schema is a small
//     model of its types: it writes its own YAML text, which both engines
//     compile, and drives value generation, so values fit by construction.
//     Changed returns the schema with one relationship flipped (a schema
//     change); Pruned drops fields a minimised case does not use.
//   - Values draws objects (Object, Value), configurations derived from an
//     object (Mutate: fields, entries and items dropped, changed, added or
//     set to null, lists reordered), invalid variants (Invalidate) and
//     variants that repeat a list item, as updates may (Duplicate). Names,
//     keys and set members come from small alphabets so that list items
//     overlap and managers collide; odd strings and numbers appear rarely.
//   - Diff compares two objects of a schema place by place, and KeyElement
//     and ItemKey compute the identity of a keyed list item as the
//     reference does (defaults fill in absent key fields).
//   - Scenario writes a case as a scenario file; FormatValue writes a value
//     as YAML flow text that reads back with the same kinds.
//
// Everything is driven by a *rand.Rand the caller owns: the same generator
// state gives the same schema and the same values, so a failing case is
// reproduced from its seed.
//
// Concurrency: a Schema is immutable after Generate (Changed and Pruned
// return new schemas); safe for concurrent use. A Values owns a *rand.Rand,
// which is not safe for concurrent use: give each goroutine its own.
package gen

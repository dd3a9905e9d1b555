// Package schema reads structured-merge-diff's schema format and compiles it
// into an immutable, fully resolved graph of types.
//
// The format is SMD's: a list of named types, each an atom that may accept a
// scalar (numeric, string, boolean or untyped), a list (atomic or
// associative, with key fields) and a map (declared fields with optional
// defaults, an element type for the others, separable or atomic). A
// reference to a type is either its name, optionally with an
// elementRelationship override, or an inline atom.
//
// There are two forms:
//
//   - Document, the source form: plain, mutable Go structs that mirror the
//     YAML, with line numbers. Parse reads one from YAML, Marshal writes one
//     back; code that converts other formats (OpenAPI) builds one directly.
//   - Schema, the compiled form: Compile checks a Document and turns it into
//     *Type nodes. Named references become pointers (recursive types make
//     cycles), every override on a reference becomes its own node, field
//     lookups go through an index built at Compile, and the defaults of
//     associative-list keys are looked up once. CompileYAML does both steps.
//
// Parse reads the plain YAML that schema files are written in (block
// mappings and sequences, one-line scalars and flow collections, comments)
// with a small reader of its own, several times faster than the YAML library
// and with few allocations; it builds the same node tree the library builds
// (a differential test and fuzz target hold it to that) and hands any other
// input, and any input with a problem, to the library.
//
// Deduced and UntypedAtomic are SMD's built-in types for values without a
// schema. Equal compares two compiled types structurally.
//
// Errors name the line and the place inside a type, for example
//
//	type "io.k8s.api.core.v1.PodSpec" field "containers": unknown named type "Foo" (line 12)
//
// and every problem is reported, not just the first. Each wraps one of the
// Err kinds (ErrUnknownType, ErrDuplicate, ...). Input is bounded: YAML
// nesting and inline types deeper than MaxDepth, and alias expansion beyond a
// budget proportional to the input, are errors; nothing recurses without a
// bound.
//
// # Differences from SMD
//
// SMD parses a schema leniently and fails later, when a value reaches the bad
// part. Compile reports these at once instead: unknown named types, unknown
// scalar words, duplicate names. Like SMD it accepts any elementRelationship
// word: a map is atomic only for "atomic" and separable otherwise, and a list
// is associative only for "associative" and atomic otherwise (SMD walks such
// a list item by item and makes path elements it cannot encode). Like SMD it
// also accepts keys on a list that is not associative, key names that are
// not fields of the element type, and an override on a type with neither a
// list nor a map (see Type.Unresolvable). A list without an elementRelationship
// is atomic; the YAML is read as YAML 1.2 (SMD uses a YAML 1.1 reader: there
// an unquoted yes or on is a boolean, here a string, except in boolean keys).
//
// # Concurrency
//
// A Schema and every Type, List, Map, Field and Union reachable from it are
// immutable after Compile and safe for concurrent use: they hold no lazily
// built index, cache, lock or atomic, and nothing writes to them after
// Compile returns. Deduced and UntypedAtomic are built during package
// initialisation and never written afterwards. Slices returned by accessors
// are borrowed and must not be modified. A Document is ordinary mutable data
// owned by its creator; Parse, Compile and Marshal only read their arguments.
package schema

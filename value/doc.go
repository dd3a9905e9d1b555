// Package value holds JSON-shaped data as an immutable tree and converts it
// to and from JSON, YAML and plain Go data.
//
// A Value is null, a boolean, an int64, a float64, a string, a list of values
// or a map from strings to values whose fields are kept sorted by name. The
// zero Value is null. Values are built with NewNull, NewBool, NewInt,
// NewFloat, NewString, NewList and NewMap, or decoded:
//
//   - FromJSON decodes JSON directly into a Value (no interface{} step).
//     Integers that fit an int64 stay integers; other numbers are floats.
//     Repeated object keys and trailing data are errors.
//   - FromYAML and FromYAMLDocuments decode YAML 1.2 (the core schema, as
//     go.yaml.in/yaml/v3 resolves it). Anchors and aliases are expanded with
//     a budget, merge keys (<<) are supported, and non-string keys are
//     turned into their text, as sigs.k8s.io/yaml does.
//   - Package manifest reads a manifest file as kubectl does (YAML 1.1 or
//     a JSON stream, sent through JSON as kubectl sends it), keeping the
//     positions of fields and the repeated keys for messages; FromYAML,
//     like the scenario and schema formats, stays YAML 1.2.
//   - FromUnstructured converts the map[string]any form that encoding/json
//     and Kubernetes' unstructured objects use; Unstructured converts back,
//     and UnstructuredFrom converts back only what an operation changed,
//     giving back the caller's own maps and lists for the rest (so the
//     result aliases them).
//   - Package gostruct converts Go structs (such as the k8s.io/api types)
//     to values and back by their json tags, as Kubernetes' unstructured
//     converter does; it builds on this package's decode options.
//   - The option Like(v) makes FromJSON, FromUnstructured and the struct
//     conversions of package gostruct give, for each part equal to the
//     part of v at the same path, that part itself (the same stored node,
//     value.Same): an update's object converted like the live object,
//     converted before it, shares what did not change, which makes
//     comparing the two (and, with typed.Like, checking the new one)
//     proportional to what changed.
//     LikeOrigin also gives the Go value v came from: a struct below the
//     root, or a part with its own marshalling, equal in Go to the
//     origin's at the same place takes v's node without being converted.
//
// and encoded: AppendJSON and ToJSON write compact JSON byte for byte like
// encoding/json.Marshal of v.Unstructured(); AppendJSONIndent matches
// json.MarshalIndent; ToYAML writes block-style YAML with sorted keys,
// quoting strings only where a reader would take them for something else
// (including YAML 1.1 booleans such as "yes", for older readers).
// String formats a value as compact JSON for debugging.
//
// A Value is 24 bytes: a kind, a scalar payload or length, and one pointer
// to string bytes, list items or map fields. Decoders (FromJSON, and
// FromUnstructured) allocate the items and fields of small containers in
// chunks, and strings decoded from JSON share one private copy of the input.
//
// Equal, Compare and Less follow sigs.k8s.io/structured-merge-diff: numbers
// compare by value whether int or float, and Compare is the total order that
// library uses to sort values. Like that library, an int and a float are
// compared as float64s, so integers beyond 2^53 can be equal to a float that
// is also equal to a neighbouring integer.
//
// The subpackage valuetest generates random values for property and
// differential tests.
//
// Decoding errors are *SyntaxError values that give the byte offset (JSON)
// or line and column (YAML) and the JSON pointer of the enclosing value.
// Input size and nesting depth are bounded (MaxBytes, MaxDepth); exceeding a
// bound gives an error wrapping ErrTooLarge or ErrTooDeep.
//
// # Concurrency
//
// A Value is immutable; safe for concurrent use. Nothing in this package
// keeps state between calls: every decoder and encoder works on scratch
// space owned by one call, and no package-level variable is written after
// program start; the package has no pool. Its uses of unsafe are in
// value.go: the representation of a Value (a kind, a word and a pointer
// into an immutable string or slice). No caller can change a value that
// others share: NewList and NewMap copy the slices they are given, Items
// and Fields yield the elements (Len, Index and FieldAt read one), and a
// Value cannot be compared with == (use Equal or Same). The module's own
// decoders, its struct codec and its merge hand their slices over without
// a copy, through an internal package.
package value

// Package schema is structmerge's implementation of the API of
// sigs.k8s.io/structured-merge-diff/v6/schema (SMD v6.4.2): the schema
// format as plain Go structs, with the same shapes and YAML tags as SMD's so
// that callers can keep building schemas as struct literals or decoding them
// from YAML.
//
// It is part of the drop-in module in structmerge's smd/ directory. The
// types here are only the source form of a schema: the typed package
// compiles a Schema into structmerge's immutable type graph once, when a
// parser is made, and never reads these structs again on its own paths.
//
// # Concurrency
//
// Unlike SMD's, these types hold no lazily built index or cache: FindField,
// FindNamedType and Resolve only read the structs (they search linearly), so
// any number of goroutines may call them on a schema nobody modifies. This
// removes the data race SMD v6.3.0 had between (*Map).CopyInto and
// (*Map).FindField. The package has no variables that are written.
package schema

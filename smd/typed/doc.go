// Package typed is structmerge's implementation of the API of
// sigs.k8s.io/structured-merge-diff/v6/typed (SMD v6.4.2): values paired
// with their schema type, validated, turned into field sets, compared,
// merged and pruned.
//
// It is part of the drop-in module in structmerge's smd/ directory. The
// operations are structmerge's (github.com/structmerge/structmerge/typed).
// A Parser compiles its schema into structmerge's immutable type graph once,
// in NewParser; a TypedValue carries its compiled type and the value
// converted to structmerge's immutable form, both made when the TypedValue
// is made, so no operation builds anything lazily.
//
// # Concurrency
//
// A Parser, a ParseableType and a TypedValue are not modified by any method:
// any number of goroutines may use them at once, as long as nobody modifies
// the schema structs or the Go data they were made from. There is no lock,
// lazily initialised state or cache anywhere on these paths.
package typed

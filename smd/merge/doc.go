// Package merge is structmerge's implementation of the API of
// sigs.k8s.io/structured-merge-diff/v6/merge (SMD v6.4.2): server-side
// apply and update of objects by named managers, with field ownership and
// conflicts.
//
// It is part of the drop-in module in structmerge's smd/ directory. An
// Updater runs structmerge's merge.Updater: each call converts the
// managers' sets to structmerge's immutable sets, runs the engine, and
// converts the result back. Where SMD's behaviour is a bug that
// structmerge fixes (docs/compatibility.md in the repository), the fix
// applies here too.
//
// # Concurrency
//
// An Updater's methods do not modify it, their TypedValue arguments or the
// managers they are given; any number of goroutines may call them on one
// Updater, as long as nobody modifies its fields meanwhile.
package merge

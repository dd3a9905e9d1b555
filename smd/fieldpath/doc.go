// Package fieldpath is structmerge's implementation of the API of
// sigs.k8s.io/structured-merge-diff/v6/fieldpath (SMD v6.4.2): path
// elements, paths, sets of paths (the mutable tries SMD callers insert
// into), their FieldsV1 JSON form, managed-field maps and set filters.
//
// It is part of the drop-in module in structmerge's smd/ directory. A Set
// here is the caller's mutable state; the typed and merge packages convert
// it to structmerge's immutable fieldpath.Set (and back) at their
// boundary, so the engine only ever sees immutable values.
//
// # Concurrency
//
// Reading a Set (Has, Equals, Union and the other operations that return
// new sets, ToJSON) from many goroutines is safe while nobody modifies it;
// Insert, FromJSON and the SetNodeMap's Descend modify it. Operations never
// modify their arguments, and unlike SMD's their results share no mutable
// node with their inputs, so inserting into a result never changes an
// input. Package variables are never written.
package fieldpath

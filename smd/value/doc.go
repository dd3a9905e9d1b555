// Package value is structmerge's implementation of the API of
// sigs.k8s.io/structured-merge-diff/v6/value (SMD v6.4.2): a Value interface
// that views ordinary Go data (the "unstructured" form of JSON:
// map[string]interface{}, []interface{}, strings, numbers, booleans and nil)
// as a tree, with SMD's equality, total order, JSON and YAML conversions.
//
// It is part of the drop-in module in structmerge's smd/ directory, which
// answers to SMD's import path so that a program can switch engines with a
// replace directive. The code is structmerge's own; only the API follows SMD.
//
// # Concurrency
//
// A Value is a view over the caller's data and holds no state of its own:
// reading one from many goroutines is safe as long as nobody writes the
// underlying data. Map.Set and Map.Delete write the caller's map. Package
// variables (HeapAllocator, EmptyRange) are never written.
package value

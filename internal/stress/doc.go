// Package stress holds the mixed readers-and-writers stress test of
// structmerge's immutable data: many goroutines compute unions,
// differences, encodings, comparisons and merges of shared field sets and
// values, while others build new sets and values from them (which share
// their subtrees), and every result is checked against one computed
// serially beforehand. It has no code of its own; scripts/stress.sh runs the
// test repeatedly under the race detector (docs/reliability.md).
//
// # Concurrency
//
// The test's goroutines share only immutable inputs and a mutex-guarded
// list of the sets and values they publish; the package holds no state.
package stress

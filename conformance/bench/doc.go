// Package bench runs the same workloads on structured-merge-diff v6.4.2 and
// on structmerge in one `go test -bench` run, so that the two can be
// compared on one machine at one time. Each benchmark has two
// sub-benchmarks, .../smd and .../structmerge; `go run ./cmd/benchcmp`
// (from the conformance module) runs them and prints the ratios of time,
// allocations and bytes.
//
// Inputs are prepared outside the timed loop the same way for both. In
// BenchmarkOperations every step of an operation writes its own object,
// decoded and validated on its own, as requests arriving over the wire do:
// no step's input shares memory with the live object or another step's
// input (TestOperationsEqualWork checks this, and that both libraries get
// the same steps and inputs; TestOperationsAgree that they end the same).
// BenchmarkInMemoryReapply shares one in-memory input between the steps,
// which lets structmerge's comparison stop at the root; benchcmp shows its
// rows apart and keeps them out of its means.
package bench

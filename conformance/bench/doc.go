// Package bench runs the same workloads on structured-merge-diff v6.4.2 and
// on structmerge in one `go test -bench` run, so that the two can be
// compared on one machine at one time. Each benchmark has two
// sub-benchmarks, .../smd and .../structmerge; `go run ./cmd/benchcmp`
// (from the conformance module) runs them and prints the ratios of time,
// allocations and bytes.
//
// Every row starts both libraries from the same form, with the same inputs
// prepared outside the timed loop, and times the same work: Validate and
// ConcurrentValidate convert from the same decoded map inside the loop on
// both sides, and SecondApply of KeyedList reads its live object back as
// from storage. In BenchmarkOperations every step of an operation writes
// its own object, decoded and validated on its own, as requests arriving
// over the wire do: no step's input shares memory with the live object or
// another step's input (TestOperationsEqualWork checks this, and that both
// libraries get the same steps and inputs; TestOperationsAgree that they
// end the same). BenchmarkInMemoryReapply shares one in-memory input
// between the steps, which lets structmerge's comparison stop at the root;
// benchcmp shows its rows apart and keeps them out of its means.
//
// BenchmarkKubeEndToEnd compares whole Kubernetes requests, object in to
// object with managedFields out, with apimachinery's field manager: its
// sub-benchmarks are Form/Object/Operation/apimachinery and
// .../structmerge, and TestKubeEndToEndAgree proves equal results.
// BenchmarkKubeBoundary prices value.FromUnstructured and
// Value.Unstructured against a plain walk of the same map tree
// (.../walk and .../structmerge).
package bench

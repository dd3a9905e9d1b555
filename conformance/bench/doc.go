// Package bench runs the same workloads on structured-merge-diff v6.4.2 and
// on structmerge in one `go test -bench` run, so that the two can be
// compared on one machine at one time. Each benchmark has two
// sub-benchmarks, .../smd and .../structmerge; `go run ./cmd/benchcmp`
// (from the conformance module) runs them and prints the ratios.
//
// Inputs are prepared outside the timed loop in each library's natural
// form (typed values parsed and validated once), the same way for both.
//
// BenchmarkKubeEndToEnd compares whole Kubernetes requests, object in to
// object with managedFields out, with apimachinery's field manager: its
// sub-benchmarks are Form/Object/Operation/apimachinery and
// .../structmerge, and TestKubeEndToEndAgree proves equal results.
// BenchmarkKubeBoundary prices value.FromUnstructured and
// Value.Unstructured against a plain walk of the same map tree
// (.../walk and .../structmerge).
package bench

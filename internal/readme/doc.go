// Package readme holds the test that keeps the README's Go code the code
// of runnable Examples: each Go block of README.md is preceded by a marker
//
//	<!-- example: merge/example_test.go ExampleUpdater_Apply -->
//
// and must equal the body of that Example function (one tab of indentation
// removed), so that it compiles and runs, with the output it shows, as
// `go test` runs the Example. `go test ./internal/readme -update` rewrites
// the README's blocks from the Examples.
//
// Concurrency: the package has no code outside its test.
package readme

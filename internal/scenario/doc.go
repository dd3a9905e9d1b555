// Package scenario reads scenario files (the format described in
// docs/scenarios.md) and runs them against a server-side apply engine.
//
// A scenario names a schema, an optional starting state, a list of write
// operations by named managers and the expectations that must hold after
// them. The engine is reached through the small Engine and Typed interfaces,
// whose inputs and outputs are plain data (unstructured objects and FieldsV1
// bytes), so that the same file runs on structmerge and, in the conformance
// module, on the behavioural reference.
//
// The entry points are LoadFile (parse and validate one file), Run (run one
// parsed file on an engine) and RunPaths (the `structmerge scenario run`
// command: files and directories in, a report and an exit code out).
//
// Extension to the published format: a step may carry its own `schema:`
// (same shape as the top-level one). The object's schema changes to it before
// that step runs and stays changed for the following steps; this covers
// "the schema changed between two writes".
//
// Concurrency: a *File is never modified after LoadFile returns, and Run only
// reads it, so one File may be run from many goroutines at once (each on an
// engine that is itself safe for concurrent use). RunPaths writes to its
// writer from the calling goroutine only.
package scenario

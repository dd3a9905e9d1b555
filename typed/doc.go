// Package typed runs operations over a value together with its compiled
// schema type: validation, the set of fields a value sets, comparison of two
// values, merging a configuration into a live value, and removing or
// extracting the fields of a set.
//
// Every operation is a single walk over the type graph and the value tree(s)
// at the same time; lists with keys are indexed once per walk.
//
// # Concurrency
//
// Operations are pure functions of their arguments: they never modify a value,
// a type or a set they are given, and no result depends on an earlier call.
// Their results may share unchanged subtrees with their inputs. A Value is
// immutable; safe for concurrent use.
//
// The one thing kept between calls is scratch memory: the walks take their
// stacks, path and list indexes from a sync.Pool (bufs.go, the package's
// only pool and only use of unsafe, for the size of a pooled stack) and give
// them back cleared, so that a call allocates little. Nothing pooled is
// reachable from a result (TestResultsOwnTheirMemory, TestScratchLeftClean).
package typed

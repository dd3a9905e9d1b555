// Package hostile holds the hostile-input table test: malformed, huge,
// deeply nested and adversarial input to every decoder and operation of
// structmerge, each case with the error it must get (or the success it must
// have) and bounds on the time (1 s) and memory (512 MiB allocated) it may
// take. It has no code of its own; see hostile_test.go and
// docs/reliability.md.
//
// # Concurrency
//
// The cases run one at a time, so that each one's allocation can be
// measured; the package holds no state.
package hostile

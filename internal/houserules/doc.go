// Package houserules checks the repository's house rules on its own
// source, in the test command and so in CI:
//
//   - no hand-written Go file of the root module (tests aside, generated
//     files, marked "Code generated ... DO NOT EDIT.", exempt) is longer
//     than MaxLines lines: a longer file holds more than one job;
//   - a file that imports unsafe is named in its package's documentation,
//     which says what the unsafe code trusts: a new use is documented
//     where readers of the package look.
//
// It has no code of its own besides these checks, which read files only.
package houserules

// MaxLines is the length a hand-written file may reach.
const MaxLines = 900

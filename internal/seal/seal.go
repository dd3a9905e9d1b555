// Package seal lets the core packages of this module share operations that
// must not be part of their public API. A method meant only for this
// module takes a Token; code outside the module cannot import this package,
// so it cannot name Allow, and a zero Token (which generic type inference
// could produce) is refused with a panic.
//
// Concurrency: Allow is never written; safe for concurrent use.
package seal

// Token proves that a call comes from inside this module.
type Token struct{ inside bool }

// Allow is the only Token that is accepted.
var Allow = Token{inside: true}

// Check panics unless t is Allow: the caller is outside this module and
// used an internal operation, a programming error.
func Check(t Token) {
	if !t.inside {
		panic("structmerge: an internal operation was called from outside the module")
	}
}

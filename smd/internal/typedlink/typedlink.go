// Package typedlink lets the drop-in's merge package reach what a
// typed.TypedValue holds for the engine (its structmerge typed.Value)
// without making it public API.
//
// # Concurrency
//
// The variables are set once, by package typed's initialisation, before
// any other code of the program can run, and only read afterwards.
package typedlink

import coretyped "github.com/structmerge/structmerge/typed"

var (
	// Core returns the structmerge form of tv, a *typed.TypedValue, or why
	// it has none (a schema that did not compile, a value structmerge
	// cannot hold).
	Core func(tv any) (coretyped.Value, error)

	// Equal reports whether two *typed.TypedValue of one type are known
	// equal without a walk (read from the same JSON text): either one's
	// structmerge form can then stand for both.
	Equal func(a, b any) bool

	// Wrap returns a new *typed.TypedValue with the schema and type of
	// like (a *typed.TypedValue) holding v, computed from sources (each a
	// *typed.TypedValue; see bridge.FromValueLike).
	Wrap func(like any, v coretyped.Value, sources ...any) any
)

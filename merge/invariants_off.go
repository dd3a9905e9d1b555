//go:build !invariants && !race

package merge

// checkPrunes is false in a normal build: the shortcut's argument is
// checked by the tests, which run in the checking build.
const checkPrunes = false

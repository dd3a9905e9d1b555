//go:build !invariants && !race

package fieldpath

// checkEntries checks nothing in a normal build (export.go does not even
// register it): the callers of the unchecked operations of package
// setasm's Assembler are the walks of package typed, whose tests run in
// the checking build (go test -race, or -tags invariants).
func checkEntries([]PathElement, []Child) {}

// invariants reports whether this build checks the sets the operations
// that trust their caller make (export.go).
const invariants = false

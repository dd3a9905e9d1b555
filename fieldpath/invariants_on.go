//go:build invariants || race

package fieldpath

// checkEntries panics when entries handed to the Assembler's unchecked
// operations would make a broken set: members or children out of order or
// repeated, or an empty child. This build (the race detector's, which CI
// runs, or the invariants tag) checks every such set.
func checkEntries(ms []PathElement, cs []Child) {
	if !membersInOrder(ms) {
		panic("fieldpath: invariant broken: set members out of order or repeated")
	}
	if !childrenInOrder(cs) {
		panic("fieldpath: invariant broken: set children out of order or repeated")
	}
	for _, c := range cs {
		if c.Set.Empty() {
			panic("fieldpath: invariant broken: an empty child set")
		}
	}
}

// invariants reports whether this build checks the sets the operations
// that trust their caller make (export.go).
const invariants = true

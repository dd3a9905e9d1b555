//go:build invariants || race

package fieldpath

// checkEntries panics when entries handed to the unchecked operations of
// package setasm's Assembler would make a broken set: members or children
// out of order or repeated, or an empty child. This build (the race
// detector's, which CI runs, or the invariants tag) checks every such set.
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

// membersInOrder reports whether ms is sorted without repeats.
func membersInOrder(ms []PathElement) bool {
	for i := 1; i < len(ms); i++ {
		if ms[i-1].Compare(ms[i]) >= 0 {
			return false
		}
	}
	return true
}

// childrenInOrder reports whether cs is sorted by element without repeats.
func childrenInOrder(cs []Child) bool {
	for i := 1; i < len(cs); i++ {
		if cs[i-1].Element.Compare(cs[i].Element) >= 0 {
			return false
		}
	}
	return true
}

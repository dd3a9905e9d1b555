package fieldpath

import "github.com/structmerge/structmerge/internal/valueown"

// The Assembler of package setasm, with which typed's walks build sets,
// makes its nodes with these functions, in the memory of its own arena
// (package setarena). They reach it through internal/valueown, which code
// outside the module cannot import, so that no caller outside it can
// build a broken Set.
func init() {
	f := valueown.NodeFuncs[*Set, PathElement, Child]{
		Init:         (*Set).init,
		Same:         sameEntries,
		SortMembers:  sortMembers,
		SortChildren: sortChildren,
	}
	if invariants {
		f.Check = checkEntries
	}
	valueown.RegisterNodes(f)
}

// sameEntries reports whether s has the members ms and the children cs (the
// same sets under equal elements).
func sameEntries(s *Set, ms []PathElement, cs []Child) bool {
	sm, sc := s.ms(), s.cs()
	if len(sm) != len(ms) || len(sc) != len(cs) {
		return false
	}
	for i := range ms {
		if !ms[i].Equal(sm[i]) {
			return false
		}
	}
	for i := range cs {
		if cs[i].Set != sc[i].Set || !cs[i].Element.Equal(sc[i].Element) {
			return false
		}
	}
	return true
}

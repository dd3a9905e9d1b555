package fieldpath

import "github.com/structmerge/structmerge/internal/setarena"

// arena hands out the nodes of sets and their entries, carved from blocks
// that grow with use (package setarena): the Builder and the FieldsV1
// decoder make their sets from one, and so does the Assembler of package
// setasm, through the functions export.go registers.
type arena = setarena.Arena[PathElement, Child, Set]

// arenaNode returns a new set from a holding copies of members and
// children, which must be sorted and valid.
func arenaNode(a *arena, members []PathElement, children []Child) *Set {
	ms, cs := a.Room(len(members), len(children))
	return arenaOwning(a, append(ms, members...), append(cs, children...))
}

// arenaOwning returns a new set from a whose entries are members and
// children, which must be sorted and valid; the set keeps the slices.
func arenaOwning(a *arena, members []PathElement, children []Child) *Set {
	s := a.Node()
	s.init(members, children)
	return s
}

// init makes the zero node s the set of members and children, which must
// be sorted and valid; s keeps the slices.
func (s *Set) init(members []PathElement, children []Child) {
	s.setEntries(members, children)
	s.size = len(members)
	for i := range children {
		s.size += children[i].Set.size
	}
}

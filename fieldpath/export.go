package fieldpath

import "github.com/structmerge/structmerge/internal/valueown"

// The Assembler's operations that trust their caller (entries added in
// order and without repeats, sets made from memory the walk filled itself)
// are for typed's walks only: they reach them
// through internal/valueown, which code outside the module cannot import.
func init() {
	valueown.RegisterAssembler(valueown.AssemblerFuncs[*Assembler, Level, *Set, PathElement, Child]{
		CloseInOrder:     (*Assembler).closeInOrder,
		CloseInOrderLike: (*Assembler).closeInOrderLike,
		Room: func(a *Assembler, members, children int) ([]PathElement, []Child) {
			return a.arena.room(members, children)
		},
		SetOf: (*Assembler).setOf,
		Stacks: func(a *Assembler) ([]PathElement, []Child) {
			return a.members[:0], a.children[:0]
		},
	})
}

package fieldpath

// arena hands out sets and slices carved from blocks that grow with use.
type arena struct {
	elems                         []PathElement
	kids                          []Child
	sets                          []Set
	elemChunk, kidChunk, setChunk int // the sizes of the next blocks
	started                       bool
	// Whether the next block of a kind has a reserved size.
	elemsReserved, kidsReserved, setsReserved bool
}

// firstBlock and firstBlockMedium are an arena's first blocks of each kind
// in one allocation, so that a small set costs one.
type firstBlock struct {
	sets  [4]Set
	elems [12]PathElement
	kids  [4]Child
}

type firstBlockMedium struct {
	sets  [8]Set
	elems [24]PathElement
	kids  [8]Child
}

// grow returns the size of the next block of a kind, at least 8, and
// doubles the size after it up to 1024, so that small sets stay small and
// large ones need few blocks.
func grow(next *int) int {
	n := max(*next, 8)
	*next = min(2*n, 1024)
	return n
}

// growReserved is grow for a block whose size was reserved (see
// Assembler.Reserve): the reservation is used once, and if it falls short
// the blocks after it start small again.
func growReserved(next *int, reserved *bool) int {
	if !*reserved {
		return grow(next)
	}
	*reserved = false
	n := max(*next, 8)
	*next = max(n/4, 8)
	return n
}

// reserve sizes the first blocks for about the given numbers of members
// and nodes (see Assembler.Reserve).
func (a *arena) reserve(members, nodes int) {
	if a.started || members <= 0 || nodes <= 0 {
		return
	}
	a.elemChunk, a.setChunk, a.kidChunk = members, nodes, max(nodes-1, 1)
	a.elemsReserved, a.setsReserved, a.kidsReserved = true, true, true
}

// expect sizes the first blocks for about the given numbers of members and
// nodes, growing from there as usual (unlike reserve, for an estimate that
// may fall short).
func (a *arena) expect(members, nodes int) {
	if a.started {
		return
	}
	a.elemChunk, a.setChunk, a.kidChunk = members, nodes, nodes
}

// node returns a new set holding copies of members and children, which must
// be sorted and valid.
func (a *arena) node(members []PathElement, children []Child) *Set {
	ms, cs := a.room(len(members), len(children))
	return a.owning(append(ms, members...), append(cs, children...))
}

// room returns empty slices with room for members and children entries,
// carved from the blocks, for a set made with owning.
func (a *arena) room(members, children int) ([]PathElement, []Child) {
	if !a.started {
		a.started = true
		switch {
		case a.setChunk <= 4 && a.elemChunk <= 12 && a.kidChunk <= 4:
			fb := new(firstBlock)
			a.sets, a.elems, a.kids = fb.sets[:], fb.elems[:], fb.kids[:]
			a.setChunk, a.elemChunk, a.kidChunk = 8, 16, 8
		case a.elemsReserved && a.setChunk <= 8 && a.elemChunk <= 24 && a.kidChunk <= 8:
			fb := new(firstBlockMedium)
			a.sets, a.elems, a.kids = fb.sets[:], fb.elems[:], fb.kids[:]
			a.setChunk, a.elemChunk, a.kidChunk = 8, 16, 8
		}
		a.elemsReserved, a.setsReserved, a.kidsReserved = false, false, false
	}
	var ms []PathElement
	if members > 0 {
		if len(a.elems) < members {
			a.elems = make([]PathElement, max(members, growReserved(&a.elemChunk, &a.elemsReserved)))
		}
		ms = a.elems[:0:members]
		a.elems = a.elems[members:]
	}
	var cs []Child
	if children > 0 {
		if len(a.kids) < children {
			a.kids = make([]Child, max(children, growReserved(&a.kidChunk, &a.kidsReserved)))
		}
		cs = a.kids[:0:children]
		a.kids = a.kids[children:]
	}
	return ms, cs
}

// owning returns a new set whose entries are members and children, which
// must be sorted and valid; the set keeps the slices.
func (a *arena) owning(members []PathElement, children []Child) *Set {
	if len(a.sets) == 0 {
		a.sets = make([]Set, growReserved(&a.setChunk, &a.setsReserved))
	}
	s := &a.sets[0]
	a.sets = a.sets[1:]
	s.setEntries(members, children)
	s.size = len(members)
	for i := range children {
		s.size += children[i].Set.size
	}
	return s
}

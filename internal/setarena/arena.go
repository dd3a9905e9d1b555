package setarena

// Arena hands out nodes (S) and slices of members (E) and children (C),
// carved from blocks that grow with use. The zero Arena is ready to use.
type Arena[E, C, S any] struct {
	elems                         []E
	kids                          []C
	sets                          []S
	elemChunk, kidChunk, setChunk int // the sizes of the next blocks
	started                       bool
	// Whether the next block of a kind has a reserved size.
	elemsReserved, kidsReserved, setsReserved bool
}

// firstBlock and firstBlockMedium are an arena's first blocks of each kind
// in one allocation, so that a small set costs one.
type firstBlock[E, C, S any] struct {
	sets  [4]S
	elems [12]E
	kids  [4]C
}

type firstBlockMedium[E, C, S any] struct {
	sets  [8]S
	elems [24]E
	kids  [8]C
}

// grow returns the size of the next block of a kind, at least 8, and
// doubles the size after it up to 1024, so that small sets stay small and
// large ones need few blocks.
func grow(next *int) int {
	n := max(*next, 8)
	*next = min(2*n, 1024)
	return n
}

// growReserved is grow for a block whose size was reserved (see Reserve):
// the reservation is used once, and if it falls short the blocks after it
// start small again.
func growReserved(next *int, reserved *bool) int {
	if !*reserved {
		return grow(next)
	}
	*reserved = false
	n := max(*next, 8)
	*next = max(n/4, 8)
	return n
}

// Reserve sizes the first blocks for sets of about the given numbers of
// members and nodes (each node but the top one is a child). It has no
// effect once something was handed out, nor for zeros.
func (a *Arena[E, C, S]) Reserve(members, nodes int) {
	if a.started || members <= 0 || nodes <= 0 {
		return
	}
	a.elemChunk, a.setChunk, a.kidChunk = members, nodes, max(nodes-1, 1)
	a.elemsReserved, a.setsReserved, a.kidsReserved = true, true, true
}

// Expect sizes the first blocks for about the given numbers of members and
// nodes, growing from there as usual (unlike Reserve, for an estimate that
// may fall short). It has no effect once something was handed out.
func (a *Arena[E, C, S]) Expect(members, nodes int) {
	if a.started {
		return
	}
	a.elemChunk, a.setChunk, a.kidChunk = members, nodes, nodes
}

// Room returns empty slices with room for members and children entries,
// carved from the blocks (nil for zeros).
func (a *Arena[E, C, S]) Room(members, children int) ([]E, []C) {
	if !a.started {
		a.started = true
		switch {
		case a.setChunk <= 4 && a.elemChunk <= 12 && a.kidChunk <= 4:
			fb := new(firstBlock[E, C, S])
			a.sets, a.elems, a.kids = fb.sets[:], fb.elems[:], fb.kids[:]
			a.setChunk, a.elemChunk, a.kidChunk = 8, 16, 8
		case a.elemsReserved && a.setChunk <= 8 && a.elemChunk <= 24 && a.kidChunk <= 8:
			fb := new(firstBlockMedium[E, C, S])
			a.sets, a.elems, a.kids = fb.sets[:], fb.elems[:], fb.kids[:]
			a.setChunk, a.elemChunk, a.kidChunk = 8, 16, 8
		}
		a.elemsReserved, a.setsReserved, a.kidsReserved = false, false, false
	}
	var ms []E
	if members > 0 {
		if len(a.elems) < members {
			a.elems = make([]E, max(members, growReserved(&a.elemChunk, &a.elemsReserved)))
		}
		ms = a.elems[:0:members]
		a.elems = a.elems[members:]
	}
	var cs []C
	if children > 0 {
		if len(a.kids) < children {
			a.kids = make([]C, max(children, growReserved(&a.kidChunk, &a.kidsReserved)))
		}
		cs = a.kids[:0:children]
		a.kids = a.kids[children:]
	}
	return ms, cs
}

// Node returns a zero node carved from the blocks, for the caller to fill
// in.
func (a *Arena[E, C, S]) Node() *S {
	if len(a.sets) == 0 {
		a.sets = make([]S, growReserved(&a.setChunk, &a.setsReserved))
	}
	s := &a.sets[0]
	a.sets = a.sets[1:]
	return s
}

package value

// chunks hands out the slices of the maps and lists one decoding builds,
// cut from larger arrays, so that a decoded tree costs a few allocations
// per object rather than one per container. The arrays are owned by the
// values built from them, which never modify them; a chunks belongs to one
// call. Fields and items grow apart: each kind's next array is twice its
// last (from firstChunk up to maxChunk), so a tree of mostly maps does not
// also get ever larger arrays of list items, and the other way round.
type chunks struct {
	fieldArena []Field
	itemArena  []Value
	fieldChunk int // the size of the next array of fields (0: firstChunk)
	itemChunk  int // the same for items
}

const (
	firstChunk = 8
	maxChunk   = 512
)

func (c *chunks) allocFields(n int) []Field {
	if n > maxChunk/4 {
		return make([]Field, n)
	}
	if len(c.fieldArena) < n {
		c.fieldArena = make([]Field, max(nextChunk(&c.fieldChunk), n))
	}
	out := c.fieldArena[:n:n]
	c.fieldArena = c.fieldArena[n:]
	return out
}

func (c *chunks) allocItems(n int) []Value {
	if n > maxChunk/4 {
		return make([]Value, n)
	}
	if len(c.itemArena) < n {
		c.itemArena = make([]Value, max(nextChunk(&c.itemChunk), n))
	}
	out := c.itemArena[:n:n]
	c.itemArena = c.itemArena[n:]
	return out
}

// nextChunk returns the size of the next array of a kind whose sizes so
// far *size records, and records it.
func nextChunk(size *int) int {
	n := *size
	if n == 0 {
		n = firstChunk
	}
	if n < maxChunk {
		*size = n * 2
	}
	return n
}

// giveBackFields undoes the last allocFields of n fields, when it was the
// last allocation of fields and was cut from the array the arena held
// before it, saved: the fields are free again. An allocation that began a
// new array, or was made apart, is left to the collector (going back to
// the old array would only make the next allocation begin another).
func (c *chunks) giveBackFields(saved []Field, n int) {
	if len(saved) >= n && n <= maxChunk/4 {
		c.fieldArena = saved
	}
}

// giveBackItems is giveBackFields for items.
func (c *chunks) giveBackItems(saved []Value, n int) {
	if len(saved) >= n && n <= maxChunk/4 {
		c.itemArena = saved
	}
}

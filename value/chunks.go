package value

// chunks hands out the slices of the maps and lists one decoding builds,
// cut from larger arrays, so that a decoded tree costs a few allocations
// per object rather than one per container. The arrays are owned by the
// values built from them, which never modify them; a chunks belongs to one
// call.
type chunks struct {
	fieldArena []Field
	itemArena  []Value
	chunk      int // the size of the next array (firstChunk, doubling up to maxChunk)
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
		c.fieldArena = make([]Field, max(c.nextChunk(), n))
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
		c.itemArena = make([]Value, max(c.nextChunk(), n))
	}
	out := c.itemArena[:n:n]
	c.itemArena = c.itemArena[n:]
	return out
}

func (c *chunks) nextChunk() int {
	n := c.chunk
	if n == 0 {
		n = firstChunk
	}
	if n < maxChunk {
		c.chunk = n * 2
	}
	return n
}

package valueown

// Chunks hands out the slices of the maps and lists one conversion builds
// (F is value's Field, V its Value), cut from larger arrays, so that a
// decoded tree costs a few allocations per object rather than one per
// container. The arrays are owned by the values built from them, which
// never modify them; a Chunks belongs to one call. Fields and items grow
// apart: each kind's next array is twice its last (from firstChunk up to
// maxChunk), so a tree of mostly maps does not also get ever larger arrays
// of list items, and the other way round.
//
// Package value's decoders and the struct codec (package gostruct) share
// one type so that a conversion can lend its Chunks to the JSON decoder of
// a type that marshals itself.
type Chunks[F, V any] struct {
	// FieldArena and ItemArena are what is left of the current arrays; a
	// caller saves them before an allocation it may give back.
	FieldArena []F
	ItemArena  []V
	fieldChunk int // the size of the next array of fields (0: firstChunk)
	itemChunk  int // the same for items
}

const (
	firstChunk = 8
	maxChunk   = 512
)

// AllocFields returns n fields, zeroed.
func (c *Chunks[F, V]) AllocFields(n int) []F {
	if n > maxChunk/4 {
		return make([]F, n)
	}
	if len(c.FieldArena) < n {
		c.FieldArena = make([]F, max(nextChunk(&c.fieldChunk), n))
	}
	out := c.FieldArena[:n:n]
	c.FieldArena = c.FieldArena[n:]
	return out
}

// AllocItems returns n items, zeroed.
func (c *Chunks[F, V]) AllocItems(n int) []V {
	if n > maxChunk/4 {
		return make([]V, n)
	}
	if len(c.ItemArena) < n {
		c.ItemArena = make([]V, max(nextChunk(&c.itemChunk), n))
	}
	out := c.ItemArena[:n:n]
	c.ItemArena = c.ItemArena[n:]
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

// GiveBackFields undoes the last AllocFields of n fields, when it was the
// last allocation of fields and was cut from the array the arena held
// before it, saved: the fields, which the caller has cleared, are free
// again. An allocation that began a new array, or was made apart, is left
// to the collector (going back to the old array would only make the next
// allocation begin another).
func (c *Chunks[F, V]) GiveBackFields(saved []F, n int) {
	if len(saved) >= n && n <= maxChunk/4 {
		c.FieldArena = saved
	}
}

// GiveBackItems is GiveBackFields for items.
func (c *Chunks[F, V]) GiveBackItems(saved []V, n int) {
	if len(saved) >= n && n <= maxChunk/4 {
		c.ItemArena = saved
	}
}

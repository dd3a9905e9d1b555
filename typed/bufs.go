package typed

import (
	"github.com/structmerge/structmerge/internal/setasm"
	"sync"
	"unsafe"

	"github.com/structmerge/structmerge/fieldpath"
)

// bufs is the scratch memory of one walk: the stacks of its assemblers, its
// path and its list indexes. Walks take one from a pool and give it back
// when they end, so that repeated operations reuse the memory instead of
// allocating it again. Nothing in it is reachable from a result: sets copy
// their entries out of the assemblers' stacks, path elements are copied out
// of the index scratch, and the key fields that path elements point to
// (scratch.keys) are never pooled. put clears everything before the bufs
// go back, so a pooled bufs holds no reference to any value or set.
type bufs struct {
	asm  [3]setasm.Assembler
	path fieldpath.Path
	sc   scratch
}

var bufPool = sync.Pool{New: func() any { return new(bufs) }}

// maxPooled is the largest stack, in bytes, kept for reuse (enough for the
// indexes of a list of 100,000 items). A pool lets go of what it holds
// within two garbage collections, so even large stacks are not pinned for
// long; beyond this size a walk allocates its own.
const maxPooled = 32 << 20

func getBufs() *bufs { return bufPool.Get().(*bufs) }

// put resets b and returns it to the pool. Reset clears the assemblers'
// stacks and lets go of the blocks their sets were made from (which the
// results own), and an index is cleared when it is released, so only the
// path, which a walk truncates without clearing, is cleared here.
func (b *bufs) put() {
	for i := range b.asm {
		b.asm[i].Reset()
	}
	b.path = keepStack(b.path)
	clear(b.path[:cap(b.path)])
	b.sc.pes = keepStack(b.sc.pes)
	b.sc.strs = keepStack(b.sc.strs)
	b.sc.flags = keepStack(b.sc.flags)
	b.sc.ints = keepStack(b.sc.ints)
	b.sc.sets = keepStack(b.sc.sets)
	b.sc.words = keepStack(b.sc.words)
	b.sc.sorted = keepStack(b.sc.sorted)
	b.sc.keys = nil // path elements in results point into it
	bufPool.Put(b)
}

// keepStack returns s emptied, or nil when it is too large to keep.
func keepStack[T any](s []T) []T {
	var entry T
	if uintptr(cap(s))*unsafe.Sizeof(entry) > maxPooled {
		return nil
	}
	return s[:0]
}

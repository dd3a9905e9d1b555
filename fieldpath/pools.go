package fieldpath

import (
	"sync"

	"github.com/structmerge/structmerge/value"
)

// This file holds the package's pools (the only file that may, as doc.go
// says; .ci/run checks it): scratch memory
// of one call, taken at its start and given back, cleared, at its end.
// Nothing in them is reachable from a result (TestMarshalResultsAreOwn; a
// parsed set lives in the decoder's own arenas).

// encodePool holds MarshalFieldsV1's buffers, of at most maxPooledEncode
// bytes: the text is written there and copied out at its exact length.
var encodePool = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledEncode = 1 << 20

func getEncodeBuffer() *[]byte { return encodePool.Get().(*[]byte) }

// putEncodeBuffer gives back bp, which buf (grown from it) replaces, unless
// buf grew too large to keep. The buffer holds bytes only: nothing to
// clear.
func putEncodeBuffer(bp *[]byte, buf []byte) {
	if cap(buf) <= maxPooledEncode {
		*bp = buf[:0]
		encodePool.Put(bp)
	}
}

// decodeScratch is a decoder's working memory, reused through a pool: the
// stacks of the nodes being read, the buffers for escaped text and the
// tables of the names and nodes read so far. Nothing in it is reachable
// from a parsed set (whose nodes, names and key values live in the
// decoder's arenas), and put clears it before it goes back.
type decodeScratch struct {
	buf, buf2 []byte
	keyStack  []value.Field
	members   []PathElement
	children  []Child
	names     []internSlot[string]
	nodes     []internSlot[*Set]
}

var decodePool = sync.Pool{New: func() any { return new(decodeScratch) }}

func getDecodeScratch() *decodeScratch { return decodePool.Get().(*decodeScratch) }

// maxPooledScratch is the largest stack, in entries, kept for reuse.
const maxPooledScratch = 1 << 16

// put takes d's (possibly grown) scratch, clears it and returns it to the
// pool.
func (sc *decodeScratch) put(d *decoder) {
	sc.buf, sc.buf2 = reuse(d.buf), reuse(d.buf2)
	sc.keyStack, sc.members, sc.children = reuse(d.keyStack), reuse(d.members), reuse(d.children)
	sc.names, sc.nodes = reuse(d.names.slots), reuse(d.nodes.slots)
	decodePool.Put(sc)
}

// reuse returns s emptied and cleared over its capacity, or nil when it is
// too large to keep.
func reuse[T any](s []T) []T {
	if cap(s) > maxPooledScratch {
		return nil
	}
	s = s[:cap(s)]
	clear(s)
	return s[:0]
}

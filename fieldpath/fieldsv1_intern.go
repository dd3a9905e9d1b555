package fieldpath

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
)

// Interning for the FieldsV1 decoder: inputs of shareFrom bytes or more
// store equal names and equal finished nodes once, in tables that probe a
// bounded number of slots.

// hashWords mixes the words of a into the hash h.
func hashWords[T PathElement | Child](h uint64, a []T) uint64 {
	for _, w := range words(a) {
		h = mix(h, uint64(w))
	}
	return mix(h, uint64(len(a)))
}

// mix is one round of the decoder's table hash (a multiply and a shift; the
// tables bound their probing, so a weak hash costs sharing, not time).
func mix(h, w uint64) uint64 {
	h = (h ^ w) * 0x9e3779b97f4a7c15
	return h ^ h>>32
}

// hashBytes hashes a name, eight bytes at a time.
func hashBytes(h uint64, b []byte) uint64 {
	n := len(b)
	for ; len(b) >= 8; b = b[8:] {
		h = mix(h, binary.LittleEndian.Uint64(b))
	}
	var w uint64
	switch {
	case len(b) >= 4:
		w = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<32
	case len(b) > 0:
		w = uint64(b[0]) | uint64(b[len(b)/2])<<8 | uint64(b[len(b)-1])<<16
	}
	return mix(h, w^uint64(n)<<56)
}

// sameWords reports whether a and b hold the same bits: for path elements
// and children, the same elements (pointing to the same names, keys and
// values) and the same child nodes.
func sameWords[T PathElement | Child](a, b []T) bool {
	return slices.Equal(words(a), words(b))
}

// internSeed seeds the hashes of the decoder's tables, differently in each
// process.
var internSeed = new(maphash.Hash).Sum64()

// maxProbe bounds the slots a table lookup visits: past it, a name or node
// is not shared, so that input made to collide costs memory, not time.
const maxProbe = 8

// internTable is an open-addressing hash table of values by a 64-bit hash
// of their contents; a slot with a zero value is free. It is at most half
// full.
type internTable[T comparable] struct {
	slots []internSlot[T]
	n     int
}

type internSlot[T comparable] struct {
	hash uint64
	val  T
}

// probe returns the first slot to look at for hash h, and the mask that
// wraps the index of the next one.
func (t *internTable[T]) probe(h uint64) (uint64, uint64) {
	if len(t.slots) == 0 {
		t.slots = make([]internSlot[T], 64)
	}
	mask := uint64(len(t.slots) - 1)
	return h & mask, mask
}

// findName and findNode return the slot of the name or node looked for, or
// the free slot where it goes, or nil when neither is within maxProbe slots.

func findName(t *internTable[string], h uint64, b []byte) *internSlot[string] {
	i, mask := t.probe(h)
	for range maxProbe {
		s := &t.slots[i]
		if s.val == "" || s.hash == h && s.val == string(b) {
			return s
		}
		i = (i + 1) & mask
	}
	return nil
}

func findNode(t *internTable[*Set], h uint64, ms []PathElement, cs []Child) *internSlot[*Set] {
	i, mask := t.probe(h)
	for range maxProbe {
		s := &t.slots[i]
		if s.val == nil || s.hash == h && int(s.val.nm) == len(ms) && int(s.val.nk) == len(cs) &&
			sameWords(ms, s.val.ms()) && sameWords(cs, s.val.cs()) {
			return s
		}
		i = (i + 1) & mask
	}
	return nil
}

// add stores v with hash h in the free slot found for it (none when slot is
// nil), growing the table when it is half full. Growing keeps the values
// that fit within maxProbe slots of their place.
func (t *internTable[T]) add(slot *internSlot[T], h uint64, v T) {
	if slot == nil {
		return
	}
	slot.hash, slot.val = h, v
	t.n++
	if 2*t.n <= len(t.slots) {
		return
	}
	var zero T
	old := t.slots
	t.slots = make([]internSlot[T], 2*len(old))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.val == zero {
			continue
		}
		i := s.hash & mask
		for range maxProbe {
			if t.slots[i].val == zero {
				t.slots[i] = s
				break
			}
			i = (i + 1) & mask
		}
	}
}

// presize sizes the first blocks of the node arena. A short input is
// stored as it is read, in blocks reserved from its length: compact
// FieldsV1 text has about one member per 24 bytes and one node per 46 (the
// Pod's and the CRD's managed fields, and what kubectl and the API server
// write, are close to that; the blocks after a short reservation grow as
// needed). A long one (at least shareFrom bytes) stores equal names and
// nodes once, and so needs far fewer: its first blocks are sized for a
// short input, and the blocks after them double.
func (d *decoder) presize() {
	if d.mode.share == shareOn || d.mode.share == shareAuto && len(d.data) >= shareFrom {
		d.share = true
		d.nodeArena.Expect(64, 32)
		return
	}
	if len(d.data) >= 400 {
		d.nodeArena.Reserve(len(d.data)/24+1, len(d.data)/46+1)
	}
}

// shareFrom is the length of the shortest input whose equal names and nodes
// are stored once: on shorter ones the memory saved does not pay for the
// lookups.
const shareFrom = 4096

// estimate returns how many items to allocate in the next arena chunk when
// about one item is expected per bytesPer bytes of the input left to read.
func (d *decoder) estimate(bytesPer int) int {
	return min(d.left()/bytesPer+4, 1024)
}

// left returns the length of the input left to read: of the text, or the
// estimate of the text's length for a value being read
// (ParseFieldsV1Value).
func (d *decoder) left() int {
	if d.data == nil {
		return d.virtual
	}
	return len(d.data) - d.pos
}

// take returns n items from the arena, refilling it with a chunk of
// max(n, chunk) items when it runs short.
func take[T any](arena *[]T, n, chunk int) []T {
	if len(*arena) < n {
		*arena = make([]T, max(n, chunk))
	}
	out := (*arena)[:n:n]
	*arena = (*arena)[n:]
	return out
}

// name returns b as a string backed by the names arena: the string returned
// before for the same bytes, if any.
func (d *decoder) name(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if !d.share {
		return d.copyName(b)
	}
	h := hashBytes(internSeed, b)
	slot := findName(&d.names, h, b)
	if slot != nil && slot.val != "" {
		return slot.val
	}
	s := d.copyName(b)
	d.names.add(slot, h, s)
	return s
}

// copyName returns a copy of b in the names arena. A chunk is sized for the
// names of the input left to read: about a third of unshared FieldsV1 text,
// a small part of shared.
func (d *decoder) copyName(b []byte) string {
	if cap(d.nameArena)-len(d.nameArena) < len(b) {
		n := d.left() / 2
		if d.share {
			n /= 4
		}
		d.nameArena = make([]byte, 0, max(len(b), min(n, 8<<10), 64))
	}
	off := len(d.nameArena)
	d.nameArena = append(d.nameArena, b...)
	return stringAt(&d.nameArena[off], len(b))
}

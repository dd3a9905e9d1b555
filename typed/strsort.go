package typed

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
)

// radixMin is the number of positions below which sortByStrings compares
// strings instead of sorting by radix.
const radixMin = 64

// sortByStrings sorts positions by (strs[p], p), where order is given in
// increasing position. Lists keyed by a name are the common large lists, and
// comparing their strings in a comparison sort costs a cache miss per
// comparison once the strings outgrow the cache; this sorts by the strings'
// first seven bytes (and whether they go on) as 64-bit words, with radix
// passes over an array, and goes on seven bytes further only within runs of
// strings that agree so far. keys, tmpKeys and tmpPos are memory for it, as
// long as order; next is memory as long as strs, where the first pass keeps
// the next seven bytes of the strings that go on, so that the runs sorted by
// them need not visit the strings again (a cache miss each, in the order of
// the first pass's result).
//
// eq, as long as order, gets for each i > 0 whether the strings at order[i]
// and order[i-1] are equal, which the sort learns from its words.
func sortByStrings(order []int32, strs []string, keys, tmpKeys, next []uint64, tmpPos []int32, eq []bool) {
	sortStringsFrom(order, strs, 0, keys, tmpKeys, next, tmpPos, eq)
}

// sortStringsFrom sorts the positions in order (agreeing on the first off
// bytes of their strings) by the rest of their strings, and sets eq[i] for
// 0 < i < len(order).
func sortStringsFrom(order []int32, strs []string, off int, keys, tmpKeys, next []uint64, tmpPos []int32, eq []bool) {
	n := len(order)
	if n < radixMin {
		slices.SortFunc(order, func(a, b int32) int {
			if c := strings.Compare(strs[a][off:], strs[b][off:]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for i := 1; i < n; i++ {
			eq[i] = strs[order[i]][off:] == strs[order[i-1]][off:]
		}
		return
	}
	switch off {
	case 0:
		first, second := newWordBits(), newWordBits()
		for i, p := range order {
			k := chunkAt(strs[p], 0)
			keys[i] = k
			first.add(k)
			n := uint64(0)
			if k&0xff == 8 {
				n = chunkAt(strs[p], 7)
			}
			next[p] = n
			second.add(n)
		}
		if plan, ok := planPack(first, second); ok {
			sortPacked(order, strs, keys, tmpKeys, next, tmpPos, eq, &plan)
			return
		}
	case 7:
		for i, p := range order {
			keys[i] = next[p]
		}
	default:
		for i, p := range order {
			keys[i] = chunkAt(strs[p], off)
		}
	}
	radixSort(keys, order, tmpKeys, tmpPos)
	// Strings whose words differ differ; equal words that end the strings
	// are equal strings.
	sortRuns(order, strs, off+7, keys, tmpKeys, next, tmpPos, eq, func(lo int) bool { return keys[lo]&0xff == 8 })
}

// sortRuns finishes a sort of positions by their strings' words, keys
// (sorted, the positions in order along with them): it sets eq[i] for
// 0 < i < len(order) to whether keys[i] equals keys[i-1], and orders each
// run of equal keys whose strings go on past them (goesOn, given the run's
// first index) by their strings from byte off. The memory of a run's
// positions is the run's own.
func sortRuns(order []int32, strs []string, off int, keys, tmpKeys, next []uint64, tmpPos []int32, eq []bool, goesOn func(lo int) bool) {
	n := len(order)
	for lo := 0; lo < n; {
		if lo > 0 {
			eq[lo] = false
		}
		hi := lo + 1
		for hi < n && keys[hi] == keys[lo] {
			eq[hi] = true
			hi++
		}
		if hi-lo > 1 && goesOn(lo) {
			sortStringsFrom(order[lo:hi], strs, off, keys[lo:hi], tmpKeys[lo:hi], next, tmpPos[lo:hi], eq[lo:hi])
		}
		lo = hi
	}
}

// chunkAt returns the word that orders s[off:] by its first seven bytes: the
// bytes, big-endian, in the top 56 bits (zeros past the end), and in the low
// byte how many bytes are left, 8 standing for more than seven. Words
// compare as the strings do except that strings agreeing on seven bytes and
// both going on are equal.
func chunkAt(s string, off int) uint64 {
	rest := s[off:]
	if len(rest) >= 8 {
		return binary.BigEndian.Uint64([]byte(rest[:8]))&^0xff | 8
	}
	var w uint64
	for i := 0; i < 7; i++ {
		w <<= 8
		if i < len(rest) {
			w |= uint64(rest[i])
		}
	}
	return w<<8 | uint64(min(len(rest), 8))
}

// radixSort sorts keys, and pos along with them, stably, a byte at a time
// from the lowest, skipping the bytes in which all keys agree. tmpKeys and
// tmpPos are memory as long as keys.
func radixSort(keys []uint64, pos []int32, tmpKeys []uint64, tmpPos []int32) {
	if len(keys) < 2 {
		return
	}
	// The bytes that vary, from the bits some keys have and others lack:
	// only those are counted and sorted on. (Counting a byte all keys share
	// is a chain of increments of one counter, the slowest part otherwise.)
	words := newWordBits()
	for _, k := range keys {
		words.add(k)
	}
	var vary [8]uint
	nv := 0
	for b := range uint(8) {
		if byte(words.varying()>>(8*b)) != 0 {
			vary[nv] = 8 * b
			nv++
		}
	}
	var counts [8][256]int32
	for _, k := range keys {
		for v, shift := range vary[:nv] {
			counts[v][byte(k>>shift)]++
		}
	}
	src, srcPos, dst, dstPos := keys, pos, tmpKeys, tmpPos
	for v, shift := range vary[:nv] {
		radixPass(counts[v][:], shift, 0xff, src, srcPos, dst, dstPos)
		src, srcPos, dst, dstPos = dst, dstPos, src, srcPos
	}
	settle(keys, pos, src, srcPos)
}

// radixPass moves the keys of src and their positions (srcPos) to dst and
// dstPos, stably, in the order of their digits k>>shift&mask; c holds how
// many keys have each digit.
func radixPass(c []int32, shift uint, mask uint64, src []uint64, srcPos []int32, dst []uint64, dstPos []int32) {
	var sum int32
	for i := range c {
		c[i], sum = sum, sum+c[i]
	}
	for i, k := range src {
		d := k >> shift & mask
		dst[c[d]], dstPos[c[d]] = k, srcPos[i]
		c[d]++
	}
}

// settle leaves in keys and pos the result of radix passes that ended in
// src and srcPos (one or the other pair of buffers).
func settle(keys []uint64, pos []int32, src []uint64, srcPos []int32) {
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(pos, srcPos)
	}
}

// wordBits gathers which bits of a set of words vary: or has the bits some
// words have, and the bits all of them have.
type wordBits struct{ or, and uint64 }

func newWordBits() wordBits { return wordBits{and: ^uint64(0)} }

func (b *wordBits) add(w uint64) {
	b.or |= w
	b.and &= w
}

// varying returns the bits in which the words differ.
func (b wordBits) varying() uint64 { return b.or ^ b.and }

// packPlan packs the first two words of a string's order into one key that
// keeps, byte by byte, only the span of bits in which the keys differ:
// keys then compare as the word pairs do, and sorting takes a few wide
// radix passes instead of one per varying byte of each word. (Lists keyed
// by "item-0" to "item-99999" vary in 34 bits of their two words, which
// are 3 passes of 12 bits instead of 7 of 8.)
type packPlan struct {
	words [2]packWord
	bits  int // total width of the packed key
}

// packWord says where each byte of a word goes in the packed key: bits
// shift[b] up of the word, masked by mask[b], go to bit out[b] (mask 0 for
// the bytes in which all keys agree). Every byte has its term, so packing
// is a fixed sequence of independent shifts and masks.
type packWord struct {
	shift, out [8]uint8
	mask       [8]uint64
}

// planPack returns the plan for words varying in first and second, and
// false when they vary in more than 64 bits.
func planPack(first, second wordBits) (packPlan, bool) {
	var p packPlan
	var widths [2][8]int
	for w, diff := range [2]uint64{first.varying(), second.varying()} {
		for b := range 8 {
			if m := uint8(diff >> (8 * b)); m != 0 {
				lo := bits.TrailingZeros8(m)
				widths[w][b] = bits.Len8(m) - lo
				p.words[w].shift[b] = uint8(8*b + lo)
				p.bits += widths[w][b]
			}
		}
	}
	if p.bits > 64 {
		return p, false
	}
	// From the lowest byte of the second word up to the highest of the
	// first.
	out := 0
	for w := 1; w >= 0; w-- {
		for b := range 8 {
			if width := widths[w][b]; width > 0 {
				p.words[w].mask[b] = 1<<width - 1
				p.words[w].out[b] = uint8(out)
				out += width
			}
		}
	}
	return p, true
}

// pack returns the part of the packed key that comes from w.
func (f *packWord) pack(w uint64) uint64 {
	return (w>>(f.shift[0]&63)&f.mask[0])<<(f.out[0]&63) |
		(w>>(f.shift[1]&63)&f.mask[1])<<(f.out[1]&63) |
		(w>>(f.shift[2]&63)&f.mask[2])<<(f.out[2]&63) |
		(w>>(f.shift[3]&63)&f.mask[3])<<(f.out[3]&63) |
		(w>>(f.shift[4]&63)&f.mask[4])<<(f.out[4]&63) |
		(w>>(f.shift[5]&63)&f.mask[5])<<(f.out[5]&63) |
		(w>>(f.shift[6]&63)&f.mask[6])<<(f.out[6]&63) |
		(w>>(f.shift[7]&63)&f.mask[7])<<(f.out[7]&63)
}

// sortPacked finishes sortStringsFrom at offset 0 when the keys' first two
// words pack into one: keys holds the first words and next the second
// (zero where the string ends within the first), by position.
func sortPacked(order []int32, strs []string, keys, tmpKeys, next []uint64, tmpPos []int32, eq []bool, plan *packPlan) {
	n := len(order)
	first, second := &plan.words[0], &plan.words[1]
	for i, p := range order {
		keys[i] = first.pack(keys[i]) | second.pack(next[p])
	}
	radixSortBits(keys, order, tmpKeys, tmpPos, plan.bits, digitBits(n))
	// Equal packed keys are equal word pairs: equal strings when they end
	// within 14 bytes, else ordered by what follows.
	sortRuns(order, strs, 14, keys, tmpKeys, next, tmpPos, eq, func(lo int) bool { return len(strs[order[lo]]) > 14 })
}

// digitBits is the widest radix digit worth counting for n keys: a pass
// costs its n keys plus its 2^width counters.
func digitBits(n int) int {
	return min(max(bits.Len(uint(n))-4, 8), 12)
}

// radixSortBits sorts keys, which are below 2^width, and pos along with
// them, stably, in digits of at most maxDigit bits from the lowest. tmpKeys
// and tmpPos are memory as long as keys.
func radixSortBits(keys []uint64, pos []int32, tmpKeys []uint64, tmpPos []int32, width, maxDigit int) {
	if len(keys) < 2 || width == 0 {
		return
	}
	passes := (width + maxDigit - 1) / maxDigit
	digit := uint((width + passes - 1) / passes)
	mask := uint64(1)<<digit - 1
	var counts [1 << 12]int32
	c := counts[:1<<digit]
	src, srcPos, dst, dstPos := keys, pos, tmpKeys, tmpPos
	for shift := uint(0); shift < uint(width); shift += digit {
		clear(c)
		for _, k := range src {
			c[k>>shift&mask]++
		}
		radixPass(c, shift, mask, src, srcPos, dst, dstPos)
		src, srcPos, dst, dstPos = dst, dstPos, src, srcPos
	}
	settle(keys, pos, src, srcPos)
}

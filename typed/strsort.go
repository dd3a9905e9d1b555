package typed

import (
	"cmp"
	"encoding/binary"
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
		for i, p := range order {
			k := chunkAt(strs[p], 0)
			keys[i] = k
			if k&0xff == 8 {
				next[p] = chunkAt(strs[p], 7)
			}
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
	// Runs of equal words whose strings all go on are ordered by what
	// follows; the memory of a run's positions is the run's own.
	// Strings whose words differ differ; equal words that end the strings
	// are equal strings.
	for lo := 0; lo < n; {
		if lo > 0 {
			eq[lo] = false
		}
		hi := lo + 1
		for hi < n && keys[hi] == keys[lo] {
			eq[hi] = true
			hi++
		}
		if hi-lo > 1 && keys[lo]&0xff == 8 {
			sortStringsFrom(order[lo:hi], strs, off+7, keys[lo:hi], tmpKeys[lo:hi], next, tmpPos[lo:hi], eq[lo:hi])
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
	or, and := uint64(0), ^uint64(0)
	for _, k := range keys {
		or |= k
		and &= k
	}
	var vary [8]uint
	nv := 0
	for b := range uint(8) {
		if byte((or^and)>>(8*b)) != 0 {
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
		c := &counts[v]
		var sum int32
		for i := range c {
			c[i], sum = sum, sum+c[i]
		}
		for i, k := range src {
			d := byte(k >> shift)
			dst[c[d]], dstPos[c[d]] = k, srcPos[i]
			c[d]++
		}
		src, srcPos, dst, dstPos = dst, dstPos, src, srcPos
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(pos, srcPos)
	}
}

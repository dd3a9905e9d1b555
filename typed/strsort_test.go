package typed

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSortByStrings checks the radix sort of positions by key strings
// against a comparison sort by (string, position), on lists of every shape
// that makes radix sorts go wrong: shared prefixes of every length around
// the seven-byte chunks, zero bytes (which the chunks pad with), strings
// that are prefixes of others, empty strings, repeats, bytes above 0x7f.
func TestSortByStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	gens := map[string]func(i int) string{
		"numbered": func(i int) string { return "item-" + strconv.Itoa(i) },
		"shared prefix": func(i int) string {
			return strings.Repeat("p", r.IntN(30)) + strconv.Itoa(r.IntN(50))
		},
		"zeros and prefixes": func(i int) string {
			b := make([]byte, r.IntN(17))
			for j := range b {
				b[j] = []byte{0, 1, 'a', 0xff}[r.IntN(4)]
			}
			return string(b)
		},
		// Strings that agree on their first 14 bytes (the two words the
		// sort packs into one) in groups, and go on.
		"long numbered": func(i int) string {
			return fmt.Sprintf("node-%09d%s", r.IntN(500), []string{"", "a", "b", "ab", "b\x00"}[r.IntN(5)])
		},
		// Strings short and long enough that the two first words vary in
		// more than 64 bits, so the sort cannot pack them.
		"wide": func(i int) string {
			b := make([]byte, 7+r.IntN(9))
			for j := range b {
				b[j] = byte(r.IntN(256))
			}
			return string(b)
		},
		"repeats": func(i int) string { return []string{"", "a", "a\x00", "abcdefg", "abcdefgh", "abcdefg\x00"}[r.IntN(6)] },
		"long": func(i int) string {
			return strings.Repeat("0123456789", 3) + string(rune('a'+r.IntN(3))) + strings.Repeat("z", r.IntN(20))
		},
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, radixMin - 1, radixMin, radixMin + 1, 200, 3000, 20000} {
			for subset := range 2 {
				strs := make([]string, n)
				for i := range strs {
					strs[i] = gen(i)
				}
				r.Shuffle(n, func(i, j int) { strs[i], strs[j] = strs[j], strs[i] })
				// The positions sorted: all of them, or (as when some items
				// have no key) every one but each third.
				var want []int32
				for i := range n {
					if subset == 0 || i%3 != 0 {
						want = append(want, int32(i))
					}
				}
				got := slices.Clone(want)
				slices.SortFunc(want, func(a, b int32) int {
					if c := strings.Compare(strs[a], strs[b]); c != 0 {
						return c
					}
					return cmp.Compare(a, b)
				})
				m := len(got)
				keys, tmpKeys, next, tmpPos := make([]uint64, m), make([]uint64, m), make([]uint64, n), make([]int32, m)
				eq := make([]bool, m)
				for i := range eq {
					eq[i] = i%2 == 0 // stale values the sort must overwrite
				}
				sortByStrings(got, strs, keys, tmpKeys, next, tmpPos, eq)
				for i := 1; i < m; i++ {
					if want := strs[got[i]] == strs[got[i-1]]; eq[i] != want {
						t.Fatalf("%s, %d strings (subset %d): eq[%d] = %v for %q after %q", name, n, subset, i, eq[i], strs[got[i]], strs[got[i-1]])
					}
				}
				if !slices.Equal(got, want) {
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s, %d strings (subset %d): at %d got %q (position %d), want %q (position %d)", name, n, subset, i, strs[got[i]], got[i], strs[want[i]], want[i])
						}
					}
				}
			}
		}
	}
}

// BenchmarkSortByStrings sorts the positions of lists keyed "item-0",
// "item-1", ... as BenchmarkKeyedList's are; ns/op over the item count is
// the per-item cost at each size.
func BenchmarkSortByStrings(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			strs := make([]string, n)
			for i := range strs {
				strs[i] = "item-" + strconv.Itoa(i)
			}
			order := make([]int32, n)
			keys, tmpKeys, next, tmpPos := make([]uint64, n), make([]uint64, n), make([]uint64, n), make([]int32, n)
			eq := make([]bool, n)
			for b.Loop() {
				for i := range order {
					order[i] = int32(i)
				}
				sortByStrings(order, strs, keys, tmpKeys, next, tmpPos, eq)
			}
		})
	}
}

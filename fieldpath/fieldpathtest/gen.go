// Package fieldpathtest generates random paths and sets for property,
// differential and fuzz tests of package fieldpath.
//
// The alphabets are small so that independently generated sets overlap, and
// they cover all four element kinds, nesting, and the characters that the
// FieldsV1 and path string encodings must escape. Generated field names never
// contain '.' or '[' and values are never maps, so every generated path
// round-trips through Path.String and fieldpath.ParsePath.
//
// Concurrency: the functions use only the *rand.Rand they are given, which
// must not be shared between goroutines without synchronisation.
package fieldpathtest

import (
	"math/rand/v2"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/value"
)

// commonNames are picked most of the time so that sets overlap.
var commonNames = []string{"a", "b", "c", "spec", "name"}

// rareNames exercise escaping in FieldsV1 and String.
var rareNames = []string{
	"", "x-y", "a<b>&c", `q"uote`, `back\slash`, "tab\there", "nl\nx", "ctl\x01\x1f",
	"é", "日本", "line\u2028sep", "del\x7f", "bad\xffutf8", "=,]",
}

var keyNames = []string{"name", "port", "protocol", "a<b"}

// RandomFieldName returns a random field name from a small alphabet.
func RandomFieldName(r *rand.Rand) string {
	if r.IntN(8) == 0 {
		return rareNames[r.IntN(len(rareNames))]
	}
	return commonNames[r.IntN(len(commonNames))]
}

// RandomValue returns a random value from a small alphabet of strings,
// integers, floats, booleans, null and (rarely) short lists of those.
func RandomValue(r *rand.Rand) value.Value {
	switch r.IntN(24) {
	case 0, 1, 2, 3, 4:
		return value.NewString([]string{"a", "b", "web", "TCP"}[r.IntN(4)])
	case 5:
		return value.NewString([]string{"", "x<y&z>", `"q"`, "nl\n", "\u2028", "bad\xff", "é", "\x00\x08\x0c"}[r.IntN(8)])
	case 6, 7, 8, 9, 10:
		return value.NewInt([]int64{0, 1, 2, 80, 443}[r.IntN(5)])
	case 11:
		return value.NewInt([]int64{-5, 1 << 40, -1 << 63, 1<<63 - 1}[r.IntN(4)])
	case 12, 13:
		return value.NewFloat([]float64{1.5, -2.25, 1e-7, 1.25e-5, 1e21, 2e22, 123456.789, 0.1}[r.IntN(8)])
	case 14, 15:
		return value.NewBool(r.IntN(2) == 0)
	case 16:
		return value.NewNull()
	case 17:
		n := r.IntN(3)
		items := make([]value.Value, n)
		for i := range items {
			items[i] = scalar(r)
		}
		return value.NewList(items)
	}
	return scalar(r)
}

func scalar(r *rand.Rand) value.Value {
	switch r.IntN(3) {
	case 0:
		return value.NewString([]string{"a", "b", "c"}[r.IntN(3)])
	case 1:
		return value.NewInt(int64(r.IntN(3)))
	}
	return value.NewBool(r.IntN(2) == 0)
}

// hotElements are picked often so that random sets overlap.
var hotElements = []fieldpath.PathElement{
	fieldpath.FieldName("a"),
	fieldpath.FieldName("b"),
	fieldpath.FieldName("spec"),
	fieldpath.KeyByFields("name", "a"),
	fieldpath.KeyByFields("name", "b", "port", 80),
	fieldpath.MemberValue(value.NewString("a")),
	fieldpath.MemberValue(value.NewInt(1)),
	fieldpath.Index(0),
	fieldpath.Index(1),
}

// RandomElement returns a random path element of any of the four kinds.
// About half the time it is one of a handful of common elements.
func RandomElement(r *rand.Rand) fieldpath.PathElement {
	if r.IntN(2) == 0 {
		return hotElements[r.IntN(len(hotElements))]
	}
	switch r.IntN(10) {
	case 0, 1, 2, 3, 4:
		return fieldpath.FieldName(RandomFieldName(r))
	case 5, 6:
		n := 1 + r.IntN(2)
		if r.IntN(16) == 0 {
			n = 3
		}
		fields := make([]value.Field, 0, n)
		for _, i := range r.Perm(len(keyNames))[:n] {
			fields = append(fields, value.Field{Name: keyNames[i], Value: RandomValue(r)})
		}
		return fieldpath.Key(fields)
	case 7, 8:
		return fieldpath.MemberValue(RandomValue(r))
	}
	if r.IntN(10) == 0 {
		return fieldpath.Index([]int{-1, 10, 1 << 40}[r.IntN(3)])
	}
	return fieldpath.Index(r.IntN(4))
}

// RandomPath returns a random path of 1 to depth elements (at least one).
func RandomPath(r *rand.Rand, depth int) fieldpath.Path {
	n := 1
	if depth > 1 {
		n = 1 + r.IntN(depth)
	}
	p := make(fieldpath.Path, n)
	for i := range p {
		p[i] = RandomElement(r)
	}
	return p
}

// RandomSet returns a set built from n random paths of up to 4 elements.
// Paths often extend each other, so that nodes are both members and parents.
func RandomSet(r *rand.Rand, n int) *fieldpath.Set {
	var b fieldpath.Builder
	var prev fieldpath.Path
	for range n {
		var p fieldpath.Path
		if prev != nil && r.IntN(3) == 0 {
			// Share a prefix with the previous path.
			k := 1 + r.IntN(len(prev))
			p = append(prev[:k:k], RandomPath(r, 2)...)
			if r.IntN(2) == 0 {
				p = prev[:k:k]
			}
		} else {
			p = RandomPath(r, 4)
		}
		b.Insert(p)
		prev = p
	}
	return b.Build()
}

// RandomRelatedSet returns a set of n paths that overlaps s: each path is,
// at random, a member path of s, a proper prefix of one, an extension of one
// or a fresh random path. It makes pairs of sets whose union, intersection
// and differences are all non-trivial.
func RandomRelatedSet(r *rand.Rand, s *fieldpath.Set, n int) *fieldpath.Set {
	var paths []fieldpath.Path
	for p := range s.All() {
		paths = append(paths, p.Copy())
	}
	var b fieldpath.Builder
	for range n {
		if len(paths) == 0 {
			b.Insert(RandomPath(r, 4))
			continue
		}
		p := paths[r.IntN(len(paths))]
		switch r.IntN(5) {
		case 0, 1:
			b.Insert(p)
		case 2:
			if len(p) > 1 {
				b.Insert(p[:1+r.IntN(len(p)-1)])
			} else {
				b.Insert(RandomPath(r, 2))
			}
		case 3:
			b.Insert(append(p.Copy(), RandomPath(r, 2)...))
		default:
			b.Insert(RandomPath(r, 4))
		}
	}
	return b.Build()
}

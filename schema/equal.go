package schema

import (
	"slices"

	"github.com/structmerge/structmerge/value"
)

// Equal reports whether two compiled types are structurally the same: the
// same scalar kind; lists with the same relationship, keys, key defaults and
// equal element types; maps with the same relationship, the same fields in
// the same order (names, defaults, equal types), equal element types and the
// same unions. Names are not compared, so a type built from OpenAPI and one
// parsed from YAML compare equal when they behave the same.
//
// The graphs may have cycles: Equal explores pairs of nodes with a worklist
// (no recursion) and assumes a pair equal while it is being compared, which
// gives the largest consistent answer.
func Equal(a, b *Type) bool {
	return equalPairs([]typePair{{a, b}})
}

// EqualSchemas reports whether two schemas have the same type names and each
// named type of one is Equal to the type of the same name in the other. It
// shares its work between the types, so it is much cheaper than calling Equal
// for each.
func EqualSchemas(a, b *Schema) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !slices.Equal(a.names, b.names) {
		return false
	}
	pairs := make([]typePair, len(a.names))
	for i, n := range a.names {
		pairs[i] = typePair{a.byName[n], b.byName[n]}
	}
	return equalPairs(pairs)
}

type typePair struct{ a, b *Type }

// equalPairs reports whether every pair is equal. Pairs met again are
// assumed equal (a bisimulation); since the answer is one conjunction, the
// assumption may be shared by all the starting pairs.
func equalPairs(work []typePair) bool {
	var seen map[typePair]struct{}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if p.a == p.b {
			continue
		}
		if p.a == nil || p.b == nil {
			return false
		}
		if seen == nil {
			seen = make(map[typePair]struct{})
		}
		if _, ok := seen[p]; ok {
			continue
		}
		seen[p] = struct{}{}
		x, y := p.a, p.b
		if x.scalar != y.scalar || x.scalarWord != y.scalarWord || x.unresolvable != y.unresolvable {
			return false
		}
		if (x.list == nil) != (y.list == nil) || (x.m == nil) != (y.m == nil) {
			return false
		}
		if x.list != nil {
			if !listShallowEqual(x.list, y.list) {
				return false
			}
			work = append(work, typePair{x.list.elem, y.list.elem})
		}
		if xm, ym := x.m, y.m; xm != nil {
			if xm.rel != ym.rel || len(xm.fields) != len(ym.fields) || (xm.elem == nil) != (ym.elem == nil) {
				return false
			}
			if !slices.EqualFunc(xm.unions, ym.unions, unionEqual) {
				return false
			}
			for i := range xm.fields {
				fx, fy := &xm.fields[i], &ym.fields[i]
				if fx.name != fy.name || fx.hasDef != fy.hasDef || (fx.hasDef && !value.Equal(fx.def, fy.def)) {
					return false
				}
				work = append(work, typePair{fx.typ, fy.typ})
			}
			if xm.elem != nil {
				work = append(work, typePair{xm.elem, ym.elem})
			}
		}
	}
	return true
}

func listShallowEqual(x, y *List) bool {
	if x.rel != y.rel || !slices.Equal(x.keys, y.keys) {
		return false
	}
	for i := range x.keys {
		vx, okx := x.KeyDefault(i)
		vy, oky := y.KeyDefault(i)
		if okx != oky || (okx && !value.Equal(vx, vy)) {
			return false
		}
	}
	return true
}

func unionEqual(x, y Union) bool {
	return x.discriminator == y.discriminator && x.hasDiscriminator == y.hasDiscriminator &&
		x.deduceInvalid == y.deduceInvalid && slices.Equal(x.fields, y.fields)
}

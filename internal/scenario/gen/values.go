package gen

import (
	"maps"
	"math/rand/v2"
	"slices"
)

// Values generates objects that fit a schema, and configurations derived
// from them. It is not safe for concurrent use (it owns a *rand.Rand).
type Values struct {
	S *Schema
	R *rand.Rand
	// MaxDepth bounds the nesting of generated values (0 means 6); it is
	// what keeps values of recursive types finite.
	MaxDepth int
}

// Small alphabets, so that items, keys and managers collide; and a few
// odd values, drawn rarely, that exercise escaping and number formatting.
var (
	stringPool = []any{"x", "y", "z"}
	extraKeys  = []any{"u", "v", "w"}
	oddStrings = []any{"", "a b", "q\"uote", "back\\slash", "<a&b>", "é", "line\nbreak", "k:{}", "."}
	// Integers stay within ±2^53: SMD reads FieldsV1 numbers as float64, so
	// larger ones in set members change when SMD re-encodes a field set, a
	// deviation the fieldpath conformance tests document.
	oddNumbers = []any{int64(-1), int64(1) << 53, -(int64(1) << 53), 1e21, -0.25, 1e-7, 123456789.125}
	mapKeys    = []string{"k1", "k2", "k3"}
	oddKeys    = []string{"", "a.b", "f:x", "q\"k"}
	extraNames = []string{"u1", "u2"}
)

func (g *Values) chance(p float64) bool { return g.R.Float64() < p }

func (g *Values) maxDepth() int {
	if g.MaxDepth <= 0 {
		return 6
	}
	return g.MaxDepth
}

// Object returns a random object of the root type (always a map).
func (g *Values) Object() any {
	v, ok := g.Value(g.S.RootType(), 0)
	if !ok || v == nil {
		return map[string]any{}
	}
	return v
}

// Value returns a random value of type t at nesting depth; ok is false when
// the depth bound leaves no room for a value of a container type.
func (g *Values) Value(t *Type, depth int) (any, bool) {
	e := g.S.Resolve(t)
	if e == nil {
		return nil, false
	}
	if e.Kind == KindScalar {
		return g.scalar(e.Scalar), true
	}
	if depth >= g.maxDepth() {
		return nil, false
	}
	switch e.Kind {
	case KindStruct:
		return g.structValue(e, depth, nil), true
	case KindMap:
		out := map[string]any{}
		for _, k := range g.pickKeys() {
			if v, ok := g.Value(e.Elem, depth+1); ok {
				out[k] = v
			}
		}
		return out, true
	case KindList:
		return g.listValue(e, depth), true
	case KindUntyped:
		return g.untyped(depth), true
	}
	return nil, false
}

func (g *Values) pickKeys() []string {
	keys := slices.Clone(mapKeys)
	if g.chance(0.02) {
		keys[0] = oddKeys[g.R.IntN(len(oddKeys))]
	}
	g.R.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys[:g.R.IntN(len(keys)+1)]
}

func (g *Values) scalar(kind string) any {
	switch kind {
	case "numeric":
		switch k := g.R.IntN(50); {
		case k < 2:
			return 0.5
		case k < 5:
			return 2.0
		case k == 5:
			return oddNumbers[g.R.IntN(len(oddNumbers))]
		default:
			return int64(g.R.IntN(4))
		}
	case "boolean":
		return g.chance(0.5)
	case "string":
		if g.chance(0.04) {
			return oddStrings[g.R.IntN(len(oddStrings))]
		}
		return stringPool[g.R.IntN(len(stringPool))]
	}
	// untyped
	switch g.R.IntN(3) {
	case 0:
		return g.scalar("numeric")
	case 1:
		return g.scalar("boolean")
	}
	return g.scalar("string")
}

// member returns a value for a set member: a scalar, from a slightly
// larger alphabet so that long sets are possible.
func (g *Values) member(kind string) any {
	if (kind == "string" || kind == "numeric") && g.chance(0.2) {
		return g.keyValue(kind)
	}
	return g.scalar(kind)
}

// keyValue returns a value for a key field.
func (g *Values) keyValue(kind string) any {
	if kind == "numeric" {
		switch k := g.R.IntN(40); {
		case k == 0:
			return 2.0 // equal to the integer 2
		case k == 1:
			return 1.5
		}
		if g.chance(0.2) {
			return int64(4 + g.R.IntN(3))
		}
		return int64(1 + g.R.IntN(3))
	}
	if g.chance(0.02) {
		return oddStrings[g.R.IntN(len(oddStrings))]
	}
	if g.chance(0.2) {
		return extraKeys[g.R.IntN(len(extraKeys))]
	}
	return stringPool[g.R.IntN(len(stringPool))]
}

func (g *Values) fieldChance(depth int) float64 {
	if depth == 0 {
		return 0.6
	}
	return 0.45
}

// structValue generates the fields of a struct; the fields in skip are
// left out (the key fields of an item, set by the caller).
func (g *Values) structValue(e *Type, depth int, skip []string) map[string]any {
	out := map[string]any{}
	for _, f := range e.Fields {
		if slices.Contains(skip, f.Name) || !g.chance(g.fieldChance(depth)) {
			continue
		}
		if g.chance(0.04) {
			out[f.Name] = nil
			continue
		}
		if v, ok := g.Value(f.Type, depth+1); ok {
			out[f.Name] = v
		}
	}
	if e.Extra != nil && g.chance(0.25) {
		name := extraNames[g.R.IntN(len(extraNames))]
		if v, ok := g.Value(e.Extra, depth+1); ok {
			out[name] = v
		}
	}
	return out
}

func (g *Values) listValue(e *Type, depth int) []any {
	n := g.R.IntN(4)
	if g.chance(0.15) {
		n = 3 + g.R.IntN(4) // a longer list, to exercise ordering
	}
	out := make([]any, 0, n)
	switch {
	case e.Atomic:
		for range n {
			if v, ok := g.Value(e.Elem, depth+1); ok {
				out = append(out, v)
			}
		}
	case len(e.Keys) == 0:
		elem := g.S.Resolve(e.Elem)
		for range n {
			v := g.member(elem.Scalar)
			if !slices.ContainsFunc(out, func(x any) bool { return SameValue(x, v) }) {
				out = append(out, v)
			}
		}
	default:
		var used []string
		for range n {
			if item, ok := g.item(e, depth+1, &used); ok {
				out = append(out, item)
			}
		}
	}
	return out
}

// item generates an item of the keyed list e whose key is not in used, and
// adds its key to used.
func (g *Values) item(e *Type, depth int, used *[]string) (map[string]any, bool) {
	it := g.S.Resolve(e.Elem)
	if it == nil || it.Kind != KindStruct {
		return nil, false
	}
	for range 4 {
		keys := map[string]any{}
		for _, k := range e.Keys {
			f := it.Field(k)
			if f == nil {
				return nil, false
			}
			if f.Default != nil && g.chance(0.35) {
				continue // the key takes its default
			}
			if len(e.Keys) > 1 && g.chance(0.04) {
				continue // a key field left out (allowed while another is there)
			}
			keys[k] = g.keyValue(f.Type.Scalar)
		}
		if _, ok := KeyElement(it, e.Keys, keys); !ok {
			continue
		}
		id := ItemKey(it, e.Keys, keys)
		if slices.Contains(*used, id) {
			continue
		}
		*used = append(*used, id)
		out := g.structValue(it, depth, e.Keys)
		for k, v := range keys {
			out[k] = v
		}
		return out, true
	}
	return nil, false
}

// ItemKey returns a string that identifies the key of an item of a keyed
// list whose item type is it: the key fields' values, defaults filling in
// absent ones.
func ItemKey(it *Type, keys []string, item map[string]any) string {
	s := ""
	for _, k := range keys {
		v, ok := item[k]
		if !ok {
			if f := it.Field(k); f != nil && f.Default != nil {
				v, ok = f.Default, true
			}
		}
		if ok {
			if f, isFloat := v.(float64); isFloat && f == float64(int64(f)) {
				v = int64(f) // 2.0 and 2 are the same key
			}
			s += k + "=" + FormatValue(v) + ","
		} else {
			s += k + " absent,"
		}
	}
	return s
}

func (g *Values) untyped(depth int) any {
	k := g.R.IntN(10)
	switch {
	case k < 5 || depth+1 >= g.maxDepth():
		return g.scalar("untyped")
	case k < 8:
		out := map[string]any{}
		for _, key := range g.pickKeys() {
			out[key] = g.untyped(depth + 1)
		}
		return out
	}
	n := g.R.IntN(3)
	out := make([]any, 0, n)
	for range n {
		out = append(out, g.untyped(depth+1))
	}
	return out
}

// Mutate returns a configuration derived from v, a value of type t: fields,
// entries and items dropped, changed, added or set to null, lists
// reordered. The result fits the schema when v does (except that it may
// repeat what v repeats).
func (g *Values) Mutate(t *Type, v any) any {
	return g.mutate(t, v, 0)
}

func (g *Values) mutate(t *Type, v any, depth int) any {
	e := g.S.Resolve(t)
	if e == nil {
		return v
	}
	if depth > 0 && g.chance(0.06) {
		if nv, ok := g.Value(t, depth); ok {
			return nv
		}
	}
	if v == nil {
		if g.chance(0.5) {
			if nv, ok := g.Value(t, depth); ok {
				return nv
			}
		}
		return nil
	}
	switch e.Kind {
	case KindScalar:
		if g.chance(0.3) {
			return g.scalar(e.Scalar)
		}
		return v
	case KindStruct:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		return g.mutateStruct(e, m, depth, nil)
	case KindMap:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		return g.mutateMap(e.Elem, m, depth)
	case KindList:
		l, ok := v.([]any)
		if !ok {
			return v
		}
		return g.mutateList(e, l, depth)
	case KindUntyped:
		if m, ok := v.(map[string]any); ok && !g.chance(0.2) {
			return g.mutateMap(&Type{Kind: KindRef, Ref: UntypedDeduced}, m, depth)
		}
		if g.chance(0.3) {
			return g.untyped(depth)
		}
		return v
	}
	return v
}

func (g *Values) mutateStruct(e *Type, m map[string]any, depth int, keep []string) map[string]any {
	out := map[string]any{}
	for _, k := range SortedKeys(m) {
		val := m[k]
		if slices.Contains(keep, k) {
			out[k] = val
			continue
		}
		switch {
		case g.chance(0.3):
			continue
		case g.chance(0.04):
			out[k] = nil
			continue
		}
		ft, known := e.FieldType(k)
		if !known {
			out[k] = val
			continue
		}
		out[k] = g.mutate(ft, val, depth+1)
	}
	for _, f := range e.Fields {
		if _, ok := m[f.Name]; ok || !g.chance(0.12) {
			continue
		}
		if nv, ok := g.Value(f.Type, depth+1); ok {
			out[f.Name] = nv
		}
	}
	return out
}

func (g *Values) mutateMap(elem *Type, m map[string]any, depth int) map[string]any {
	out := map[string]any{}
	for _, k := range SortedKeys(m) {
		switch {
		case g.chance(0.3):
			continue
		case g.chance(0.04):
			out[k] = nil
			continue
		}
		out[k] = g.mutate(elem, m[k], depth+1)
	}
	if g.chance(0.2) {
		k := mapKeys[g.R.IntN(len(mapKeys))]
		if _, ok := out[k]; !ok {
			if nv, ok := g.Value(elem, depth+1); ok {
				out[k] = nv
			}
		}
	}
	return out
}

func (g *Values) shuffle(l []any) {
	g.R.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
}

func (g *Values) mutateList(e *Type, l []any, depth int) []any {
	out := make([]any, 0, len(l)+1)
	switch {
	case e.Atomic:
		switch k := g.R.IntN(10); {
		case k < 3:
			out = append(out, l...)
			g.shuffle(out)
		case k < 6:
			for _, item := range l {
				if !g.chance(0.25) {
					out = append(out, g.mutate(e.Elem, item, depth+1))
				}
			}
		case k < 8:
			out = append(out, l...)
			if nv, ok := g.Value(e.Elem, depth+1); ok {
				out = append(out, nv)
			}
		default:
			out = append(out, l...)
		}
	case len(e.Keys) == 0:
		elem := g.S.Resolve(e.Elem)
		for _, item := range l {
			if g.chance(0.25) || slices.ContainsFunc(out, func(x any) bool { return SameValue(x, item) }) {
				continue
			}
			out = append(out, item)
		}
		if g.chance(0.3) {
			nv := g.member(elem.Scalar)
			if !slices.ContainsFunc(out, func(x any) bool { return SameValue(x, nv) }) {
				out = append(out, nv)
			}
		}
		if g.chance(0.25) {
			g.shuffle(out)
		}
	default:
		it := g.S.Resolve(e.Elem)
		var used []string
		for _, item := range l {
			m, ok := item.(map[string]any)
			if !ok || it == nil || it.Kind != KindStruct {
				continue
			}
			id := ItemKey(it, e.Keys, m)
			if g.chance(0.25) || slices.Contains(used, id) {
				continue
			}
			used = append(used, id)
			out = append(out, g.mutateStruct(it, m, depth+1, e.Keys))
		}
		if g.chance(0.3) {
			if nv, ok := g.item(e, depth+1, &used); ok {
				out = slices.Insert(out, g.R.IntN(len(out)+1), any(nv))
			}
		}
		if g.chance(0.25) {
			g.shuffle(out)
		}
	}
	return out
}

// Invalidate returns v, a value of type t, with one thing somewhere in it
// made invalid: a scalar of the wrong kind, an unknown field, a list where
// a map belongs (or the reverse), a repeated item or set member, an item
// without its keys or a null item. A value with no place that can be made
// invalid is returned as it is.
func (g *Values) Invalidate(t *Type, v any) any {
	n := 0
	g.walkInvalidate(t, v, &n, -1)
	if n == 0 {
		return v
	}
	target := g.R.IntN(n)
	n = 0
	return g.walkInvalidate(t, v, &n, target)
}

// walkInvalidate counts the nodes that can be broken (target < 0) or
// returns v with node number target broken.
func (g *Values) walkInvalidate(t *Type, v any, n *int, target int) any {
	e := g.S.Resolve(t)
	if e == nil || e.Kind == KindUntyped {
		return v
	}
	if *n == target {
		*n++
		return g.breakValue(e, v)
	}
	*n++
	switch x := v.(type) {
	case map[string]any:
		if e.Kind != KindStruct && e.Kind != KindMap {
			return v
		}
		var out map[string]any
		if target >= 0 {
			out = make(map[string]any, len(x))
		}
		for _, k := range SortedKeys(x) {
			var ft *Type
			if e.Kind == KindMap {
				ft = e.Elem
			} else if ft, _ = e.FieldType(k); ft == nil {
				if out != nil {
					out[k] = x[k]
				}
				continue
			}
			r := g.walkInvalidate(ft, x[k], n, target)
			if out != nil {
				out[k] = r
			}
		}
		if out == nil {
			return v
		}
		return out
	case []any:
		if e.Kind != KindList {
			return v
		}
		var out []any
		for _, item := range x {
			r := g.walkInvalidate(e.Elem, item, n, target)
			if target >= 0 {
				out = append(out, r)
			}
		}
		if target < 0 {
			return v
		}
		return out
	}
	return v
}

func (g *Values) breakValue(e *Type, v any) any {
	switch e.Kind {
	case KindScalar:
		switch e.Scalar {
		case "string":
			return int64(7)
		case "numeric":
			return "seven"
		}
		return "yes"
	case KindStruct:
		m, _ := v.(map[string]any)
		if e.Extra != nil || g.chance(0.2) {
			return []any{"x"}
		}
		out := make(map[string]any, len(m)+1)
		for k, x := range m {
			out[k] = x
		}
		out["bogus"] = "x"
		return out
	case KindMap:
		return []any{"x"}
	case KindList:
		l, _ := v.([]any)
		if e.Atomic {
			return map[string]any{"k1": "x"}
		}
		out := slices.Clone(l)
		switch k := g.R.IntN(4); {
		case k < 2 && len(l) > 0:
			return append(out, l[g.R.IntN(len(l))]) // a repeated item
		case k == 2:
			return append(out, nil)
		}
		if len(e.Keys) == 0 {
			return append(out, map[string]any{"k1": "x"})
		}
		if len(l) > 0 && g.chance(0.5) {
			// An item whose key is null.
			m, _ := l[g.R.IntN(len(l))].(map[string]any)
			c := make(map[string]any, len(m))
			for k, x := range m {
				c[k] = x
			}
			c[e.Keys[g.R.IntN(len(e.Keys))]] = nil
			return append(out, c)
		}
		return append(out, map[string]any{}) // an item without its keys
	}
	return v
}

// Duplicate returns v, a value of type t, with an item of one of its
// associative lists (a keyed list or a set) repeated, as an update may
// write it; ok is false when v has no non-empty associative list.
func (g *Values) Duplicate(t *Type, v any) (out any, ok bool) {
	n := 0
	g.walkDuplicate(t, v, &n, -1)
	if n == 0 {
		return v, false
	}
	target := g.R.IntN(n)
	n = 0
	return g.walkDuplicate(t, v, &n, target), true
}

// walkDuplicate counts the non-empty associative lists (target < 0) or
// returns v with an item of list number target repeated.
func (g *Values) walkDuplicate(t *Type, v any, n *int, target int) any {
	e := g.S.Resolve(t)
	if e == nil || e.Kind == KindUntyped || e.Atomic {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if e.Kind != KindStruct && e.Kind != KindMap {
			return v
		}
		out := make(map[string]any, len(x))
		for _, k := range SortedKeys(x) {
			ft := e.Elem
			if e.Kind == KindStruct {
				ft, _ = e.FieldType(k)
			}
			out[k] = x[k]
			if ft != nil {
				out[k] = g.walkDuplicate(ft, x[k], n, target)
			}
		}
		return out
	case []any:
		if e.Kind != KindList {
			return v
		}
		out := make([]any, 0, len(x)+1)
		for _, item := range x {
			out = append(out, g.walkDuplicate(e.Elem, item, n, target))
		}
		if len(x) > 0 {
			if *n == target {
				i := g.R.IntN(len(out))
				dup := out[i]
				if m, ok := dup.(map[string]any); ok && len(e.Keys) > 0 && g.chance(0.5) {
					// The same key with other fields.
					c := make(map[string]any, len(m))
					for _, k := range e.Keys {
						if kv, ok := m[k]; ok {
							c[k] = kv
						}
					}
					dup = c
				}
				out = slices.Insert(out, g.R.IntN(len(out)+1), dup)
			}
			*n++
		}
		return out
	}
	return v
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// SameValue reports whether two unstructured values are equal, numbers by
// value (1 equals 1.0), maps regardless of order.
func SameValue(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, x := range a {
			y, ok := b[k]
			if !ok || !SameValue(x, y) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !SameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	case nil:
		return b == nil
	}
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return a == b
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

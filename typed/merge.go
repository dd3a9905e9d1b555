package typed

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// merge runs a merger with pooled scratch memory.
func merge(t *schema.Type, lhs, rhs value.Value, lhsValid, rhsValid bool) (value.Value, error) {
	if t == nil {
		return value.Value{}, ErrNoType
	}
	b := getBufs()
	w := merger{lhsValid: lhsValid, rhsValid: rhsValid, path: b.path, sc: b.sc}
	out, err := w.run(t, lhs, rhs)
	b.path, b.sc = w.path, w.sc
	b.put()
	return out, err
}

type merger struct {
	path fieldpath.Path
	errs errorList
	// lhsValid and rhsValid say that a side is known to be valid (the live
	// side possibly with repeated keys): a subtree present on one side only
	// is then the result as it is, with no walk.
	lhsValid, rhsValid bool
	sc                 scratch
	// fields is the rest of the block the merged maps take their fields
	// from, and fieldChunk the size of the next block: the maps of one
	// merge (a long list's items, mostly) are a few allocations, next to
	// each other in memory, instead of one allocation each.
	fields     []value.Field
	fieldChunk int
}

// maxFieldChunk is the largest block of merged fields, in fields.
const maxFieldChunk = 4096

// takeFields returns room for n fields, empty with capacity n, from the
// merge's blocks.
func (w *merger) takeFields(n int) []value.Field {
	if len(w.fields) < n {
		w.fieldChunk = min(max(2*w.fieldChunk, 16), maxFieldChunk)
		w.fields = make([]value.Field, max(n, w.fieldChunk))
	}
	out := w.fields[:0:n]
	w.fields = w.fields[n:]
	return out
}

func (w *merger) run(t *schema.Type, lhs, rhs value.Value) (value.Value, error) {
	out, _ := w.walk(t, &lhs, &rhs)
	if err := w.errs.result(); err != nil {
		return value.Value{}, err
	}
	return out, nil
}

// walk merges rhs into lhs (either nil when absent) and returns the result;
// ok is false when there is none.
func (w *merger) walk(t *schema.Type, lhs, rhs *value.Value) (out value.Value, ok bool) {
	switch {
	case rhs == nil && lhs != nil && w.lhsValid:
		return *lhs, true
	case lhs == nil && rhs != nil && w.rhsValid:
		return *rhs, true
	case lhs != nil && lhs.IsNull() && rhs != nil && w.rhsValid:
		// Merging into null gives the configuration: the walk would
		// rebuild it field by field and item by item.
		return *rhs, true
	case lhs != nil && rhs != nil && w.lhsValid && w.rhsValid && value.Same(*lhs, *rhs):
		// A valid value merged into itself is itself (a configuration
		// converted like the live object shares its unchanged parts).
		return *lhs, true
	}
	alhs, arhs := deduce(t, lhs), deduce(t, rhs)
	switch {
	case rhs == nil:
		return w.handle(t, alhs, lhs, rhs)
	case lhs == nil || alhs == arhs:
		return w.handle(t, arhs, lhs, rhs)
	}
	// The two sides are of different kinds: the configuration's view decides
	// the result; the live side's view is still checked.
	w.handle(t, alhs, lhs, rhs)
	return w.handle(t, arhs, lhs, rhs)
}

func keepRHS(lhs, rhs *value.Value) (value.Value, bool) {
	if rhs != nil {
		return *rhs, true
	}
	if lhs != nil {
		return *lhs, true
	}
	return value.Value{}, false
}

func (w *merger) handle(t *schema.Type, a atom, lhs, rhs *value.Value) (value.Value, bool) {
	switch a.kind() {
	case atomMap:
		return w.doMap(a.m, lhs, rhs)
	case atomScalar:
		if !w.errs.checkScalarSides(w.path, a, lhs, rhs) {
			return value.Value{}, false
		}
		return keepRHS(lhs, rhs)
	case atomList:
		return w.doList(a.list, lhs, rhs)
	}
	w.errs.add(w.path, SchemaProblem, invalidAtomMessage(t))
	return value.Value{}, false
}

func (w *merger) doMap(m *schema.Map, lhs, rhs *value.Value) (value.Value, bool) {
	lm, rm := asKind(lhs, value.Map), asKind(rhs, value.Map)
	if m.Relationship() == schema.Atomic || ((lm == nil || lm.Len() == 0) && (rm == nil || rm.Len() == 0)) {
		return keepRHS(lhs, rhs)
	}
	saved := w.fields
	out := w.takeFields(unionLen(lm, rm))
	zipFields(lm, rm, func(name string, l, r *value.Value) {
		ft, _ := fieldType(m, name)
		w.path = append(w.path, fieldpath.FieldName(name))
		if v, ok := w.walk(ft, l, r); ok {
			out = out[:len(out)+1] // within its capacity: no block copy (see value's putField)
			out[len(out)-1].Name, out[len(out)-1].Value = name, v
		}
		w.path = w.path[:len(w.path)-1]
	})
	if len(out) == 0 {
		return value.Value{}, false
	}
	if lm != nil && sameFields(out, own.Value.Fields(*lm)) {
		// The merge changed nothing here: the result is the live map
		// itself, which later steps recognise as unchanged without
		// reading it. Every map merged below gave back its room too (or
		// this one would differ), so the block is rewound to before it.
		clear(out)
		w.fields = saved
		return *lhs, true
	}
	return own.Value.Map(out), true
}

// sameFields reports whether a and b are the same names with the same
// stored values (value.Same), in the same order.
func sameFields(a, b []value.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !value.Same(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

func (w *merger) doList(l *schema.List, lhs, rhs *value.Value) (value.Value, bool) {
	ll, rl := asKind(lhs, value.List), asKind(rhs, value.List)
	if l.Relationship() == schema.Atomic || ((ll == nil || ll.Len() == 0) && (rl == nil || rl.Len() == 0)) {
		return keepRHS(lhs, rhs)
	}
	if l.Relationship() != schema.Associative {
		return value.Value{}, false
	}
	var litems, ritems []value.Value
	if ll != nil {
		litems = own.Value.Items(*ll)
	}
	if rl != nil {
		ritems = own.Value.Items(*rl)
	}
	nerr := len(w.errs.errs)
	m := w.sc.mark()
	defer w.sc.release(m)
	ridx := w.index(l, ritems, false)
	lidx := w.index(l, litems, true)
	if len(w.errs.errs) > nerr {
		return value.Value{}, false
	}
	elem := l.ElementType()
	out := make([]value.Value, 0, max(len(litems), len(ritems)))
	mergeItem := func(pe fieldpath.PathElement, lv, rv *value.Value) {
		w.path = append(w.path, pe)
		if v, ok := w.walk(elem, lv, rv); ok {
			out = append(out, v)
		}
		w.path = w.path[:len(w.path)-1]
	}
	var null value.Value
	// Lookups try next to the last item found first: lists usually agree on
	// order.
	lhint, rhint := 0, 0
	// liveItem is the live item for a key: nil when absent, null when the
	// live list repeats the key.
	liveItem := func(pe fieldpath.PathElement) *value.Value {
		first, n := lidx.find(pe, lhint)
		if n > 0 {
			lhint = first + 1
		}
		switch {
		case n == 0:
			return nil
		case n > 1:
			return &null
		}
		return &litems[first]
	}
	rpos := func(pe fieldpath.PathElement) int {
		first, n := ridx.find(pe, rhint)
		if n > 0 {
			rhint = first + 1
		}
		return first
	}
	// The configuration's items that the live list also has, in the
	// configuration's order: live items are emitted around them.
	shared := take(&w.sc.ints, len(ritems))[:0]
	for r := range ritems {
		if first, _ := lidx.find(ridx.pes[r], lhint); first >= 0 {
			shared = append(shared, int32(r))
			lhint = first + 1
		}
	}
	next := -1
	popShared := func() {
		next = -1
		if len(shared) > 0 {
			next, shared = int(shared[0]), shared[1:]
		}
	}
	popShared()
	lhint = 0
	merged := take(&w.sc.flags, len(ritems))
	for li, ri := 0, 0; li < len(litems) || ri < len(ritems); {
		if li < len(litems) && ri < len(ritems) {
			pe := lidx.pes[li]
			if pe.Equal(ridx.pes[ri]) {
				merged[ri] = true
				mergeItem(pe, liveItem(pe), &ritems[ri])
				li++
				ri++
				popShared()
				continue
			}
			if rpos(pe) >= 0 && next >= 0 && !ridx.pes[next].Equal(pe) {
				li++
				continue
			}
		}
		if li < len(litems) {
			pe := lidx.pes[li]
			if p := rpos(pe); p < 0 {
				mergeItem(pe, &litems[li], nil)
				li++
				continue
			} else if merged[p] {
				li++
			}
		}
		if ri < len(ritems) {
			pe := ridx.pes[ri]
			merged[ri] = true
			mergeItem(pe, liveItem(pe), &ritems[ri])
			if next >= 0 && ridx.pes[next].Equal(pe) {
				popShared()
			}
			ri++
		}
	}
	if len(out) == 0 {
		return value.Value{}, false
	}
	if ll != nil && sameItems(out, litems) {
		return *lhs, true // as in doMap
	}
	return own.Value.List(out), true
}

// sameItems reports whether a and b are the same stored values, in the
// same order.
func sameItems(a, b []value.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !value.Same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// index computes the path elements of a list's items, recording an error for
// each item that has none and, unless duplicates are allowed, for each
// repeated key.
func (w *merger) index(l *schema.List, items []value.Value, allowDuplicates bool) itemIndex {
	idx := w.sc.index(l, items, func(i int, err error) {
		w.errs.add(w.path, InvalidListItem, itemProblem(i, err))
	})
	if !allowDuplicates {
		for i := range items {
			if idx.ok[i] && idx.isDuplicate(i) {
				w.errs.add(w.path, DuplicateKey, "duplicate entries for key "+idx.pes[i].String())
			}
		}
	}
	return idx
}

// unionLen returns how many distinct field names the maps lm and rm (nil
// when absent) have together.
func unionLen(lm, rm *value.Value) int {
	switch {
	case lm == nil:
		return rm.Len()
	case rm == nil:
		return lm.Len()
	}
	lf, rf := own.Value.Fields(*lm), own.Value.Fields(*rm)
	n, i, j := 0, 0, 0
	for i < len(lf) && j < len(rf) {
		switch {
		case lf[i].Name < rf[j].Name:
			i++
		case lf[i].Name > rf[j].Name:
			j++
		default:
			i++
			j++
		}
		n++
	}
	return n + len(lf) - i + len(rf) - j
}

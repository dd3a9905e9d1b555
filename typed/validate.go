package typed

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// ValidateOption changes what Validate and New accept. Like every option
// of this module, it maps settings to settings by value, so that taking
// options costs no allocation.
type ValidateOption func(validateOptions) validateOptions

type validateOptions struct {
	allowDuplicates bool
	like            Value
}

// validateOpts combines opts.
func validateOpts(opts []ValidateOption) validateOptions {
	var o validateOptions
	for _, opt := range opts {
		o = opt(o)
	}
	return o
}

// AllowDuplicates accepts associative lists with two items of the same key,
// as a live object stored before such lists were checked may have.
func AllowDuplicates() ValidateOption {
	return func(o validateOptions) validateOptions {
		o.allowDuplicates = true
		return o
	}
}

// Like tells New and Validate that parts of the value checked may be parts
// of tv itself, at the same paths (as value.FromUnstructuredLike makes
// them): tv was checked by New against the same type, so those parts fit
// and are not walked again. Results and errors are what they would be
// without it. tv is ignored unless New made it with that type, and, for a
// check without AllowDuplicates, found no repeated key in it.
func Like(tv Value) ValidateOption {
	return func(o validateOptions) validateOptions {
		o.like = tv
		return o
	}
}

// likeValue returns what o.like vouches for when checking a value of type
// t: its value, or null.
func (o validateOptions) likeValue(t *schema.Type) value.Value {
	l := o.like
	if l.typ != t || l.checked == unchecked || (l.checked == validWithDuplicates && !o.allowDuplicates) {
		return value.Value{}
	}
	return l.val
}

// Validate checks that v fits t and returns every problem found (an Errors),
// sorted by path, or nil.
func Validate(t *schema.Type, v value.Value, opts ...ValidateOption) error {
	o := validateOpts(opts)
	return validate(t, v, o)
}

func validate(t *schema.Type, v value.Value, o validateOptions) error {
	_, _, err := validateCounting(t, v, o)
	return err
}

// validateCounting validates v and estimates the size of its field set;
// dups reports that v may repeat a key of an associative list (which is
// an error unless o allows it).
func validateCounting(t *schema.Type, v value.Value, o validateOptions) (hint sizeHint, dups bool, err error) {
	if t == nil {
		return sizeHint{}, false, ErrNoType
	}
	if v.IsNull() {
		// Nothing to walk into: no need for scratch memory.
		w := validator{opts: o}
		w.walk(t, v)
		return sizeHint{}, false, w.errs.result()
	}
	b := getBufs()
	w := validator{opts: o, path: b.path, sc: b.sc}
	w.walkLike(t, v, o.likeValue(t))
	b.path, b.sc = w.path, w.sc
	b.put()
	if err := w.errs.result(); err != nil {
		return sizeHint{}, false, err
	}
	h := sizeHint{entries: clamp32(w.entries), mapChildren: clamp32(w.mapChildren), nodes: clamp32(w.nodes + 1)}
	if w.skipped {
		// What was not walked was not counted: the like value's counts
		// stand in for it (a hint, not a bound).
		lh := o.like.hint
		h = sizeHint{entries: max(h.entries, lh.entries), mapChildren: max(h.mapChildren, lh.mapChildren), nodes: max(h.nodes, lh.nodes)}
	}
	return h, w.dups, nil
}

// sizeHint is the size of the sets built from a valid value, estimated while
// validating it, so that walks building them can allocate them in one go:
// the entries (fields and keyed items) a set may hold, how many of those
// are non-empty maps, and how many nodes (child sets) there are.
type sizeHint struct{ entries, mapChildren, nodes int32 }

// fieldSet returns the members and nodes of the value's field set, where a
// non-empty map is a child but not a member.
func (h sizeHint) fieldSet() (members, nodes int) {
	return int(h.entries - h.mapChildren), int(h.nodes)
}

// added returns the members and nodes of the set of paths added when the
// value replaces nothing, where every entry is a member.
func (h sizeHint) added() (members, nodes int) {
	return int(h.entries), int(h.nodes)
}

func clamp32(n int) int32 { return int32(min(n, 1<<30)) }

type validator struct {
	opts validateOptions
	path fieldpath.Path
	errs errorList
	sc   scratch
	// shapes remembers the field types of maps checked, by depth;
	// lookupEach leaves it unused and walks every item of a uniform list
	// (the tests' reference walk).
	shapes     shapes
	lookupEach bool
	// The counts behind a sizeHint: entries (fields and keyed items) that
	// the field set may hold, those that are non-empty maps (children, not
	// members), and non-empty maps and lists (nodes). Nothing inside an
	// atomic map or list is counted: it is one member.
	entries, mapChildren, nodes int
	inAtomic                    int
	skipped                     bool // a part of the like value was not walked
	dups                        bool // a repeated key was seen, or may be in a part not walked
}

func (w *validator) walk(t *schema.Type, v value.Value) { w.walkLike(t, v, value.Value{}) }

// walkLike is walk where like, when not null, is the part of a value
// known to fit at the same path (see Like): a map or list that is that
// part itself is not walked again.
func (w *validator) walkLike(t *schema.Type, v, like value.Value) {
	if w.inAtomic > 0 && t.AcceptsAny() {
		// Every value fits; inside an atomic value nothing is counted, and
		// such a type has no keyed lists to repeat a key in. (The fieldsV1
		// of each managedFields entry, half of a typical live object.)
		return
	}
	if k := like.Kind(); k == value.Map || k == value.List {
		if value.Same(v, like) && v.Len() > 0 {
			w.skipped = true
			w.dups = w.dups || w.opts.like.checked != valid
			return
		}
		if v.Kind() != k {
			like = value.Value{}
		}
	} else {
		like = value.Value{}
	}
	// The common case, a value of a kind its type describes, without
	// building an atom (see deduce: the same choice).
	if t != nil {
		switch v.Kind() {
		case value.Map:
			if m := t.Map(); m != nil {
				w.doMap(m, v, like)
				return
			}
		case value.List:
			if l := t.List(); l != nil {
				w.doList(l, v, like)
				return
			}
		case value.Bool, value.Int, value.Float, value.String:
			if s := t.Scalar(); s != schema.NoScalar {
				if msg := scalarKindProblem(s, unknownWord(t), v); msg != "" {
					w.errs.add(w.path, WrongKind, msg)
				}
				return
			}
		}
	}
	a := deduce(t, &v)
	switch a.kind() {
	case atomMap:
		w.doMap(a.m, v, like)
	case atomScalar:
		if msg := scalarProblem(a, v); msg != "" {
			w.errs.add(w.path, WrongKind, msg)
		}
	case atomList:
		w.doList(a.list, v, like)
	default:
		w.errs.add(w.path, SchemaProblem, invalidAtomMessage(t))
	}
}

func (w *validator) doMap(m *schema.Map, v, like value.Value) {
	switch v.Kind() {
	case value.Null:
		return
	case value.Map:
	default:
		w.errs.add(w.path, WrongKind, "expected map, got "+describeKind(v))
		return
	}
	atomic := m.Relationship() == schema.Atomic
	if atomic {
		w.inAtomic++
		defer func() { w.inAtomic-- }()
	}
	counted := !atomic && w.inAtomic == 0 && v.Len() > 0
	if counted {
		w.nodes++
		w.entries += v.Len()
	}
	fields := own.Value.Fields(v)
	var sh *mapShape
	if !w.lookupEach {
		sh = w.shapes.shapeOf(m, len(w.path), fields)
	}
	for i, f := range fields {
		var ft *schema.Type
		var declared bool
		if sh != nil {
			if sh.fits[i]&(1<<f.Value.Kind()) != 0 {
				continue // a leaf scalar that fits its type
			}
			ft, declared = sh.types[i], sh.declared[i]
		} else {
			ft, declared = fieldType(m, f.Name)
		}
		if leafScalar(ft, f.Value) {
			// Checked here: its path is needed only for an error.
			if msg := scalarKindProblem(ft.Scalar(), unknownWord(ft), f.Value); msg != "" {
				w.path = append(w.path, fieldpath.FieldName(f.Name))
				w.errs.add(w.path, WrongKind, msg)
				w.path = w.path[:len(w.path)-1]
			}
			continue
		}
		if counted && f.Value.Kind() == value.Map && f.Value.Len() > 0 {
			w.mapChildren++
		}
		w.path = append(w.path, fieldpath.FieldName(f.Name))
		if !declared && ft == nil {
			w.errs.add(w.path, UnknownField, "field not declared in schema")
		} else {
			var lf value.Value
			if like.Kind() == value.Map {
				lf, _ = like.Get(f.Name)
			}
			w.walkLike(ft, f.Value, lf)
		}
		w.path = w.path[:len(w.path)-1]
	}
}

func (w *validator) doList(l *schema.List, v, like value.Value) {
	switch v.Kind() {
	case value.Null:
		return
	case value.List:
	default:
		w.errs.add(w.path, WrongKind, "expected list, got "+describeKind(v))
		return
	}
	items := own.Value.Items(v)
	likeItems := own.Value.Items(like) // by index (nil unless like is a list)
	likeItem := func(i int) value.Value {
		if i < len(likeItems) {
			return likeItems[i]
		}
		return value.Value{}
	}
	if l.Relationship() != schema.Associative {
		w.inAtomic++ // no item is a path of the field set
		defer func() { w.inAtomic-- }()
		// In a uniform list each item is alike to the one before it:
		// whether an item fits the element type depends on nothing else,
		// so when the first fits, all do. Nothing inside is counted
		// (inAtomic), and no item holds a list, so no repeated key either.
		uniform := !w.lookupEach && own.Value.Uniform(v)
		before := len(w.errs.errs)
		for i, item := range items {
			if i == 1 && uniform && len(w.errs.errs) == before {
				return
			}
			w.path = append(w.path, fieldpath.Index(i))
			w.walkLike(l.ElementType(), item, likeItem(i))
			w.path = w.path[:len(w.path)-1]
		}
		return
	}
	if w.inAtomic == 0 && len(items) > 0 {
		w.nodes++
		w.entries += len(items)
	}
	m := w.sc.mark()
	defer w.sc.release(m)
	idx := w.sc.index(l, items, func(i int, err error) {
		w.errs.add(w.path, InvalidListItem, itemProblem(i, err))
	})
	pes := idx.pes
	prev := -1
	for i, item := range items {
		if !idx.ok[i] {
			continue
		}
		if idx.isDuplicate(i) {
			w.dups = true
			if !w.opts.allowDuplicates {
				w.errs.add(w.path, DuplicateKey, "duplicate entries for key "+pes[i].String())
			}
		}
		w.path = append(w.path, pes[i])
		w.walkLike(l.ElementType(), item, likeItem(i))
		w.path = w.path[:len(w.path)-1]
		if w.inAtomic == 0 && !idx.hasDuplicates(i) {
			if prev >= 0 && sameScalarFields(items[prev], item) {
				// The field set walk shares the set of the item before
				// (see fieldSetter.doItems): no node and no members.
				w.nodes--
				w.entries -= item.Len()
			}
			prev = i
		}
	}
}

// sameScalarFields reports whether a and b are maps with fields of the same
// names, in the same order, all holding scalars: items whose field sets are
// the same members and nothing else.
func sameScalarFields(a, b value.Value) bool {
	if a.Kind() != value.Map || b.Kind() != value.Map || a.Len() != b.Len() || a.Len() == 0 {
		return false
	}
	af, bf := own.Value.Fields(a), own.Value.Fields(b)
	for i := range af {
		if af[i].Name != bf[i].Name || !isScalar(af[i].Value) || !isScalar(bf[i].Value) {
			return false
		}
	}
	return true
}

// isScalar reports whether v is neither a map nor a list.
func isScalar(v value.Value) bool {
	k := v.Kind()
	return k != value.Map && k != value.List
}

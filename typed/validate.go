package typed

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// ValidateOption changes what Validate accepts.
type ValidateOption func(*validateOptions)

type validateOptions struct {
	allowDuplicates bool
}

// AllowDuplicates accepts associative lists with two items of the same key,
// as a live object stored before such lists were checked may have.
func AllowDuplicates() ValidateOption {
	return func(o *validateOptions) { o.allowDuplicates = true }
}

// Validate checks that v fits t and returns every problem found (an Errors),
// sorted by path, or nil.
func Validate(t *schema.Type, v value.Value, opts ...ValidateOption) error {
	var o validateOptions
	for _, opt := range opts {
		opt(&o)
	}
	return validate(t, v, o)
}

func validate(t *schema.Type, v value.Value, o validateOptions) error {
	b := getBufs()
	w := validator{opts: o, path: b.path, sc: b.sc}
	w.walk(t, v)
	b.path, b.sc = w.path, w.sc
	b.put()
	return w.errs.result()
}

type validator struct {
	opts validateOptions
	path fieldpath.Path
	errs errorList
	sc   scratch
}

func (w *validator) walk(t *schema.Type, v value.Value) {
	a := deduce(t, &v)
	switch a.kind() {
	case atomMap:
		w.doMap(a.m, v)
	case atomScalar:
		if msg := scalarProblem(a.scalar, v); msg != "" {
			w.errs.add(w.path, WrongKind, msg)
		}
	case atomList:
		w.doList(a.list, v)
	default:
		w.errs.add(w.path, SchemaProblem, invalidAtomMessage(t))
	}
}

func (w *validator) doMap(m *schema.Map, v value.Value) {
	switch v.Kind() {
	case value.Null:
		return
	case value.Map:
	default:
		w.errs.add(w.path, WrongKind, "expected map, got "+describeKind(v))
		return
	}
	for _, f := range v.Fields() {
		ft, declared := fieldType(m, f.Name)
		w.path = append(w.path, fieldpath.FieldName(f.Name))
		if !declared && ft == nil {
			w.errs.add(w.path, UnknownField, "field not declared in schema")
		} else {
			w.walk(ft, f.Value)
		}
		w.path = w.path[:len(w.path)-1]
	}
}

func (w *validator) doList(l *schema.List, v value.Value) {
	switch v.Kind() {
	case value.Null:
		return
	case value.List:
	default:
		w.errs.add(w.path, WrongKind, "expected list, got "+describeKind(v))
		return
	}
	items := v.Items()
	if l.Relationship() != schema.Associative {
		for i, item := range items {
			w.path = append(w.path, fieldpath.Index(i))
			w.walk(l.ElementType(), item)
			w.path = w.path[:len(w.path)-1]
		}
		return
	}
	m := w.sc.mark()
	defer w.sc.release(m)
	idx := w.sc.index(l, items, func(i int, err error) {
		w.errs.add(w.path, InvalidListItem, itemProblem(i, err))
	})
	pes := idx.pes
	for i, item := range items {
		if !idx.ok[i] {
			continue
		}
		if !w.opts.allowDuplicates && idx.isDuplicate(i) {
			w.errs.add(w.path, DuplicateKey, "duplicate entries for key "+pes[i].String())
		}
		w.path = append(w.path, pes[i])
		w.walk(l.ElementType(), item)
		w.path = w.path[:len(w.path)-1]
	}
}

package typed

import (
	"fmt"
	"strconv"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// atom is the part of a type that applies to one value: a type may describe
// a scalar, a list and a map at once (the untyped types do), and the value's
// kind picks which.
type atom struct {
	scalar schema.ScalarKind
	word   string // the schema's word of an UnknownScalar
	list   *schema.List
	m      *schema.Map
}

func fullAtom(t *schema.Type) atom {
	if t == nil {
		return atom{}
	}
	// Each field is computed before the struct is built in one go:
	// assigning word into a built atom made the compiler store the atom
	// byte by byte and read it back whole, a stalled load on every node of
	// every walk.
	return atom{scalar: t.Scalar(), word: unknownWord(t), list: t.List(), m: t.Map()}
}

// unknownWord is the schema's word of t's scalar when it is an
// UnknownScalar, else "".
func unknownWord(t *schema.Type) string {
	if t.Scalar() != schema.UnknownScalar {
		return ""
	}
	return t.ScalarWord()
}

// deduce narrows the atom of t to the part that fits v. When v is absent,
// null, or of a kind t does not describe, the whole atom is kept.
func deduce(t *schema.Type, v *value.Value) atom {
	if t != nil && v != nil {
		switch v.Kind() {
		case value.Bool, value.Int, value.Float, value.String:
			if s := t.Scalar(); s != schema.NoScalar {
				return atom{scalar: s, word: unknownWord(t)}
			}
		case value.List:
			if l := t.List(); l != nil {
				return atom{list: l}
			}
		case value.Map:
			if m := t.Map(); m != nil {
				return atom{m: m}
			}
		}
	}
	return fullAtom(t)
}

// kind says which handler an atom goes to: maps first, then scalars, then lists.
type atomKind uint8

const (
	atomInvalid atomKind = iota
	atomMap
	atomScalar
	atomList
)

func (a atom) kind() atomKind {
	switch {
	case a.m != nil:
		return atomMap
	case a.scalar != schema.NoScalar:
		return atomScalar
	case a.list != nil:
		return atomList
	}
	return atomInvalid
}

func invalidAtomMessage(t *schema.Type) string {
	if t != nil && t.Unresolvable() {
		if t.Name() == "" {
			return "schema error: no type found matching: inlined type"
		}
		return "schema error: no type found matching: " + t.Name()
	}
	if t != nil && t.Name() != "" {
		return "schema error: invalid atom: named type: " + t.Name()
	}
	return "schema error: invalid atom: inlined"
}

// fieldType returns the type of the field called name in m: the declared
// field's type, else the element type (nil when the map has none).
func fieldType(m *schema.Map, name string) (*schema.Type, bool) {
	if f, ok := m.Field(name); ok {
		return f.Type(), true
	}
	return m.ElementType(), false
}

// leafScalar reports whether v is a boolean, number or string of t, a
// scalar type: the most common node, a leaf with nothing below it (see
// deduce), which the walks take in their map's loop.
func leafScalar(t *schema.Type, v value.Value) bool {
	switch v.Kind() {
	case value.Bool, value.Int, value.Float, value.String:
		return t != nil && t.Scalar() != schema.NoScalar
	}
	return false
}

// describeKind names the kind of a value for error messages.
func describeKind(v value.Value) string {
	switch v.Kind() {
	case value.Null:
		return "null"
	case value.Bool:
		return "boolean"
	case value.Int:
		return "int"
	case value.Float:
		return "float"
	case value.String:
		return "string"
	case value.List:
		return "list"
	case value.Map:
		return "map"
	}
	return v.Kind().String()
}

// scalarProblem returns a message when v (present and not null) does not fit
// the scalar of a, else "".
func scalarProblem(a atom, v value.Value) string {
	return scalarKindProblem(a.scalar, a.word, v)
}

// scalarKindProblem is scalarProblem for the scalar kind k (word: the
// schema's word of an UnknownScalar).
func scalarKindProblem(k schema.ScalarKind, word string, v value.Value) string {
	if scalarKindFits(k, v.Kind()) {
		return ""
	}
	switch k {
	case schema.Numeric:
		return "expected numeric (int or float), got " + describeKind(v)
	case schema.String:
		return "expected string, got " + describeKind(v)
	case schema.Boolean:
		return "expected boolean, got " + describeKind(v)
	case schema.Untyped:
		return "expected any scalar, got " + describeKind(v)
	case schema.UnknownScalar:
		return "unexpected scalar type in schema: " + word
	default:
		return fmt.Sprintf("unexpected scalar type in schema: %v", k)
	}
}

// scalarKindFits reports whether a value of kind vk fits the scalar kind
// k: null fits any; a scalar kind the schema does not know fits nothing
// else.
func scalarKindFits(k schema.ScalarKind, vk value.Kind) bool {
	switch {
	case vk == value.Null:
		return true
	case k == schema.Numeric:
		return vk == value.Int || vk == value.Float
	case k == schema.String:
		return vk == value.String
	case k == schema.Boolean:
		return vk == value.Bool
	case k == schema.Untyped:
		return vk == value.Bool || vk == value.Int || vk == value.Float || vk == value.String
	}
	return false
}

// itemElement returns the path element naming an item of an associative
// list: its key fields for a list with keys (defaults filled in from the
// schema), or the item itself for a set.
func itemElement(l *schema.List, item value.Value) (fieldpath.PathElement, error) {
	return itemElementIn(l, &item, nil)
}

// itemElementIn is itemElement taking the key fields' storage from *buf when
// it has room, so that a list's items share one allocation. The element of a
// set's item points to *item, which must not change.
func itemElementIn(l *schema.List, item *value.Value, buf *[]value.Field) (fieldpath.PathElement, error) {
	keys := l.Keys()
	if len(keys) == 0 {
		switch item.Kind() {
		case value.Map:
			return fieldpath.PathElement{}, errItemMapInSet
		case value.List:
			return fieldpath.PathElement{}, errItemListInSet
		case value.Null:
			return fieldpath.PathElement{}, errItemNullInSet
		}
		return own.Set.ValueOf(item), nil
	}
	switch item.Kind() {
	case value.Null:
		return fieldpath.PathElement{}, errItemNullKeyed
	case value.Map:
	default:
		return fieldpath.PathElement{}, errItemNotMapKeyed
	}
	if len(keys) == 1 {
		// The key is one of the item's own fields, which values never
		// change: the element points to it, and nothing is copied.
		if i, ok := item.FieldIndex(keys[0]); ok {
			return own.Set.Key(own.Value.Fields(*item)[i : i+1 : i+1]), nil
		}
	}
	var fields []value.Field
	if buf != nil && cap(*buf)-len(*buf) >= len(keys) {
		n := len(*buf)
		fields = (*buf)[n : n : n+len(keys)]
		*buf = (*buf)[:n+len(keys)]
	} else {
		fields = make([]value.Field, 0, len(keys))
	}
	for i, k := range keys {
		if v, ok := item.Get(k); ok {
			fields = fields[:len(fields)+1] // within its capacity: no block copy (see value's putField)
			fields[len(fields)-1].Name, fields[len(fields)-1].Value = k, v
		} else if d, ok := l.KeyDefault(i); ok {
			fields = fields[:len(fields)+1] // within its capacity: no block copy (see value's putField)
			fields[len(fields)-1].Name, fields[len(fields)-1].Value = k, d
		}
	}
	if len(fields) == 0 {
		return fieldpath.PathElement{}, &missingKeysError{keys: keys}
	}
	return own.Set.Key(fields), nil
}

type itemError string

func (e itemError) Error() string { return string(e) }

const (
	errItemMapInSet    itemError = "associative list without keys has an element that's a map type"
	errItemListInSet   itemError = "not supported: associative list with lists as elements"
	errItemNullInSet   itemError = "associative list without keys has an element that's an explicit null"
	errItemNullKeyed   itemError = "associative list with keys may not have a null element"
	errItemNotMapKeyed itemError = "associative list with keys may not have non-map elements"
)

type missingKeysError struct{ keys []string }

func (e *missingKeysError) Error() string {
	q := "["
	for i, k := range e.keys {
		if i > 0 {
			q += " "
		}
		q += strconv.Quote(k)
	}
	q += "]"
	return "associative list with keys has an element that omits all key fields " + q + " (and doesn't have default values for any key fields)"
}

// itemProblem formats the message of a bad list item.
func itemProblem(i int, err error) string {
	return "element " + strconv.Itoa(i) + ": " + err.Error()
}

// zipFields calls f for each field name of the maps lm and rm (either nil),
// in name order, with the field's value on each side (nil where absent).
func zipFields(lm, rm *value.Value, f func(name string, l, r *value.Value)) {
	var lf, rf []value.Field
	if lm != nil {
		lf = own.Value.Fields(*lm)
	}
	if rm != nil {
		rf = own.Value.Fields(*rm)
	}
	i, j := 0, 0
	for i < len(lf) || j < len(rf) {
		switch {
		case j >= len(rf) || (i < len(lf) && lf[i].Name < rf[j].Name):
			f(lf[i].Name, &lf[i].Value, nil)
			i++
		case i >= len(lf) || rf[j].Name < lf[i].Name:
			f(rf[j].Name, nil, &rf[j].Value)
			j++
		default:
			f(lf[i].Name, &lf[i].Value, &rf[j].Value)
			i++
			j++
		}
	}
}

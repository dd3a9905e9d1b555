package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// ScalarKind is the kind of scalar a type accepts.
type ScalarKind uint8

// The scalar kinds. NoScalar means the type accepts no scalar.
const (
	NoScalar ScalarKind = iota
	Numeric
	String
	Boolean
	Untyped
	// UnknownScalar is a scalar word Compile does not know, accepted only
	// with Lenient (as SMD accepts it): every non-null scalar value of such
	// a type is invalid. Type.ScalarWord returns the word.
	UnknownScalar
)

// String returns SMD's word for the kind ("numeric", "string", "boolean",
// "untyped"), or "none" for NoScalar.
func (k ScalarKind) String() string {
	switch k {
	case NoScalar:
		return "none"
	case Numeric:
		return "numeric"
	case String:
		return "string"
	case Boolean:
		return "boolean"
	case Untyped:
		return "untyped"
	case UnknownScalar:
		return "unknown"
	}
	return "ScalarKind(" + strconv.Itoa(int(k)) + ")"
}

func scalarKind(word string) (ScalarKind, bool) {
	switch word {
	case "numeric":
		return Numeric, true
	case "string":
		return String, true
	case "boolean":
		return Boolean, true
	case "untyped":
		return Untyped, true
	}
	return NoScalar, false
}

// Relationship says how the elements of a list or map relate to each other.
// A map is Separable or Atomic; a list is Atomic or Associative.
type Relationship uint8

// The relationships.
const (
	// Separable: each element of a map is owned and merged on its own.
	Separable Relationship = iota
	// Atomic: the list or map is one leaf, owned and replaced as a whole.
	Atomic
	// Associative: a list whose items are identified by their keys (or, for
	// scalar items, by their value: a set) and owned one by one.
	Associative
)

// String returns SMD's word for the relationship.
func (r Relationship) String() string {
	switch r {
	case Separable:
		return "separable"
	case Atomic:
		return "atomic"
	case Associative:
		return "associative"
	}
	return "Relationship(" + strconv.Itoa(int(r)) + ")"
}

// mapRelationship interprets a map's elementRelationship word as SMD
// does: "atomic" makes the map atomic, and every other word ("" and
// "separable", but also "granular", "associative" or a typo, which SMD's
// own test schemas use) leaves it separable.
func mapRelationship(word string) Relationship {
	if word == "atomic" {
		return Atomic
	}
	return Separable
}

// listRelationship interprets a list's elementRelationship word:
// "associative" makes the list associative, and every other word makes it
// atomic, as a list without a word is. SMD accepts the same schemas but
// walks such a list item by item, giving its items path elements it cannot
// print or encode (docs/compatibility.md, q4).
func listRelationship(word string) Relationship {
	if word == "associative" {
		return Associative
	}
	return Atomic
}

// Schema is a compiled schema: named types resolved into a graph of *Type
// nodes (which may have cycles).
//
// Schema is immutable after Compile; safe for concurrent use.
type Schema struct {
	byName map[string]*Type
	names  []string // sorted
}

// Type returns the named type.
func (s *Schema) Type(name string) (*Type, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// TypeNames returns the names of the schema's types, sorted. The slice is
// the caller's.
func (s *Schema) TypeNames() []string { return slices.Clone(s.names) }

// Type is one compiled atom: the scalar kind, list and map a value of this
// type may be. Named references are resolved: Field and element types point
// straight at their *Type.
//
// Type is immutable; safe for concurrent use.
type Type struct {
	name         string
	scalar       ScalarKind
	scalarWord   string // the word of an UnknownScalar
	unresolvable bool
	anyValue     bool // every value fits (see AcceptsAny)
	list         *List
	m            *Map
}

// AcceptsAny reports whether every value fits t: any scalar, any list
// (atomic, of items of a type that accepts any value) and any map (of no
// declared fields, no unions, whose entries are of a type that accepts any
// value), as for SMD's __untyped_atomic_ and __untyped_deduced_ and the
// FieldsV1 of Kubernetes' managedFields. Compile works it out for every
// type it builds.
func (t *Type) AcceptsAny() bool { return t != nil && t.anyValue }

// String describes t in one line without following references, so that
// recursive types print too: a named type by its name ("widget"), an
// inline one by its parts ("inline map (separable)", "inline list
// (associative, keys [name])", "inline scalar string").
func (t *Type) String() string {
	if t == nil {
		return "<nil type>"
	}
	if t.name != "" {
		return t.name
	}
	var parts []string
	if t.scalar != NoScalar {
		parts = append(parts, "scalar "+t.scalar.String())
	}
	if t.list != nil {
		d := "list (" + t.list.rel.String()
		if len(t.list.keys) > 0 {
			d += ", keys [" + strings.Join(t.list.keys, " ") + "]"
		}
		parts = append(parts, d+")")
	}
	if t.m != nil {
		parts = append(parts, "map ("+t.m.rel.String()+")")
	}
	switch {
	case t.unresolvable:
		return "unresolvable inline type"
	case len(parts) == 0:
		return "empty inline type"
	}
	return "inline " + strings.Join(parts, " or ")
}

// Name returns the name of the named type t was compiled from ("" for an
// inline type), for error messages. A node made for an element-relationship
// override on a reference to X is named X.
func (t *Type) Name() string { return t.name }

// Scalar returns the scalar kind t accepts, NoScalar if none.
func (t *Type) Scalar() ScalarKind { return t.scalar }

// ScalarWord returns the schema's word for t's scalar: the kind's word, or
// for an UnknownScalar the word the schema used; "" if t has no scalar.
func (t *Type) ScalarWord() string {
	switch t.scalar {
	case NoScalar:
		return ""
	case UnknownScalar:
		return t.scalarWord
	}
	return t.scalar.String()
}

// List returns t's list part, nil if t accepts no list.
func (t *Type) List() *List { return t.list }

// Map returns t's map part, nil if t accepts no map.
func (t *Type) Map() *Map { return t.m }

// IsEmpty reports whether t has no scalar, list or map part. SMD reports
// "schema error: invalid atom" for any value of such a type.
func (t *Type) IsEmpty() bool { return t.scalar == NoScalar && t.list == nil && t.m == nil }

// Unresolvable reports whether t stands for a reference SMD cannot resolve:
// an elementRelationship override on a type that has neither a list nor a
// map. SMD accepts such a schema and fails every operation that reaches the
// reference with "schema error: no type found matching: NAME" (NAME being
// Name(), or "inlined type" when Name is ""). An unresolvable type is also
// empty.
func (t *Type) Unresolvable() bool { return t.unresolvable }

// List is the list part of a type.
//
// List is immutable; safe for concurrent use.
type List struct {
	elem        *Type
	rel         Relationship
	keys        []string
	keyDefaults []keyDefault // nil when no key has a default
}

type keyDefault struct {
	v  value.Value
	ok bool
}

// ElementType returns the type of the items. It is never nil; when the schema
// gave no element type it is an empty type.
func (l *List) ElementType() *Type { return l.elem }

// Relationship returns Atomic or Associative.
func (l *List) Relationship() Relationship { return l.rel }

// Keys returns the names of the key fields of an associative list of maps
// (nil for a set or an atomic list). Borrowed: do not modify.
func (l *List) Keys() []string { return l.keys }

// KeyDefault returns the default of key field i: the `default` of the field
// called Keys()[i] in the element type's map, looked up at Compile. ok is
// false when that field has no default, does not exist, or the element type
// has no map. (SMD, when an item omits a key, reports "associative list may
// not have non-map types" if the element type has no map, and "invalid
// elementType for list" if it is Unresolvable; check ElementType for those.)
func (l *List) KeyDefault(i int) (v value.Value, ok bool) {
	if i < 0 || i >= len(l.keyDefaults) {
		return value.Value{}, false
	}
	d := l.keyDefaults[i]
	return d.v, d.ok
}

// Map is the map part of a type: declared fields, the type of undeclared
// ones, and the relationship.
//
// Map is immutable; safe for concurrent use.
type Map struct {
	fields []Field
	slots  []int32 // hash table of field positions (-1: empty); nil for small maps
	elem   *Type
	rel    Relationship
	unions []Union
}

// smallMap is the number of fields up to which Field scans instead of
// looking the name up in a hash table.
const smallMap = 8

// Fields returns the declared fields in declaration order. Borrowed: do not
// modify.
func (m *Map) Fields() []Field { return m.fields }

// Field returns the declared field called name. The pointer is borrowed.
func (m *Map) Field(name string) (*Field, bool) {
	if m.slots == nil {
		for i := range m.fields {
			if m.fields[i].name == name {
				return &m.fields[i], true
			}
		}
		return nil, false
	}
	mask := uint32(len(m.slots) - 1)
	for h := fieldHash(name) & mask; ; h = (h + 1) & mask {
		i := m.slots[h]
		if i < 0 {
			return nil, false
		}
		if f := &m.fields[i]; f.name == name {
			return f, true
		}
	}
}

// fieldHash mixes a field name's length and three of its bytes: enough to
// spread the names of one map, and cheap.
func fieldHash(name string) uint32 {
	n := len(name)
	h := uint32(n) * 0x9e3779b1
	if n > 0 {
		h ^= uint32(name[0]) * 0x85ebca6b
		h ^= uint32(name[n-1]) * 0xc2b2ae35
		h ^= uint32(name[n/2]) * 0x27d4eb2f
	}
	return h ^ h>>15
}

// ElementType returns the type of fields not declared in Fields, or nil when
// the map has none (then such fields are errors).
func (m *Map) ElementType() *Type { return m.elem }

// Relationship returns Separable or Atomic.
func (m *Map) Relationship() Relationship { return m.rel }

// Unions returns the map's unions as declared. SMD keeps them but no longer
// acts on them. Borrowed: do not modify.
func (m *Map) Unions() []Union { return m.unions }

// Field is one declared field of a map.
//
// Field is immutable; safe for concurrent use.
type Field struct {
	name   string
	typ    *Type
	def    value.Value
	hasDef bool
}

// Name returns the field's name.
func (f *Field) Name() string { return f.name }

// Type returns the field's type (never nil).
func (f *Field) Type() *Type { return f.typ }

// Default returns the field's default value; ok is false when it has none.
func (f *Field) Default() (v value.Value, ok bool) { return f.def, f.hasDef }

// Union is a group of fields of which at most one is meant to be set.
//
// Union is immutable; safe for concurrent use.
type Union struct {
	discriminator    string
	hasDiscriminator bool
	deduceInvalid    bool
	fields           []UnionField
}

// Discriminator returns the name of the field that says which member is set;
// ok is false when the union has none.
func (u *Union) Discriminator() (name string, ok bool) {
	return u.discriminator, u.hasDiscriminator
}

// DeduceInvalidDiscriminator returns the union's deduceInvalidDiscriminator flag.
func (u *Union) DeduceInvalidDiscriminator() bool { return u.deduceInvalid }

// Fields returns the members of the union. Borrowed: do not modify.
func (u *Union) Fields() []UnionField { return u.fields }

// UnionField is one member of a union.
type UnionField struct {
	FieldName          string
	DiscriminatorValue string
}

// emptyType is the type of a list whose schema gave no element type. It is
// never written after package initialisation.
var emptyType = &Type{}

// The deduced types, built once at package initialisation and never written
// afterwards.
var untypedAtomic, deduced = newDeducedTypes()

func newDeducedTypes() (atomic, deducedType *Type) {
	a := &Type{name: "__untyped_atomic_", scalar: Untyped, anyValue: true}
	a.list = &List{elem: a, rel: Atomic}
	a.m = &Map{elem: a, rel: Atomic}
	d := &Type{name: "__untyped_deduced_", scalar: Untyped, anyValue: true}
	d.list = &List{elem: a, rel: Atomic}
	d.m = &Map{elem: d, rel: Separable}
	return a, d
}

// Deduced returns the type SMD uses when there is no schema
// (__untyped_deduced_): any scalar; lists atomic, with items of
// UntypedAtomic; maps separable, with fields of Deduced.
func Deduced() *Type { return deduced }

// UntypedAtomic returns SMD's __untyped_atomic_: any scalar, list or map,
// lists and maps atomic, elements of UntypedAtomic.
func UntypedAtomic() *Type { return untypedAtomic }

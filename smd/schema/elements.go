package schema

// Schema is a list of named types.
type Schema struct {
	Types []TypeDef `yaml:"types,omitempty"`
}

// TypeSpecifier is a type reference together with the schema it refers into.
type TypeSpecifier struct {
	Type   TypeRef `yaml:"type,omitempty"`
	Schema Schema  `yaml:"schema,omitempty"`
}

// TypeDef is a named type.
type TypeDef struct {
	// Name is how TypeRefs refer to the type.
	Name string `yaml:"name,omitempty"`

	Atom `yaml:"atom,omitempty,inline"`
}

// TypeRef refers to a named type or holds one inline. When NamedType is set
// the inline atom is ignored.
type TypeRef struct {
	// NamedType, if set, names a TypeDef of the schema.
	NamedType *string `yaml:"namedType,omitempty"`
	// Inlined is the type when NamedType is nil.
	Inlined Atom `yaml:",inline,omitempty"`

	// ElementRelationship, if set, replaces the relationship of the
	// referenced map or list.
	ElementRelationship *ElementRelationship `yaml:"elementRelationship,omitempty"`

	// Nullable is kept for round trips; it changes nothing.
	Nullable bool `yaml:"nullable,omitempty"`
}

// Atom is the shapes a value of a type may take: a scalar, a list, a map,
// or several of them (an untyped type allows all).
type Atom struct {
	*Scalar `yaml:"scalar,omitempty"`
	*List   `yaml:"list,omitempty"`
	*Map    `yaml:"map,omitempty"`
}

// Scalar names a kind of scalar value.
type Scalar string

// The scalar kinds.
const (
	// Numeric is an integer or a floating-point number.
	Numeric = Scalar("numeric")
	// String is a string.
	String = Scalar("string")
	// Boolean is true or false.
	Boolean = Scalar("boolean")
	// Untyped is any scalar.
	Untyped = Scalar("untyped")
)

// ElementRelationship says how the elements of a list or map relate to each
// other, which decides how they merge and who owns them.
type ElementRelationship string

// The element relationships.
const (
	// Associative: a list whose items are identified by key fields (or, with
	// no keys, a set of scalars); each item merges and is owned on its own.
	Associative = ElementRelationship("associative")
	// Atomic: the list or map is one value, replaced and owned as a whole.
	Atomic = ElementRelationship("atomic")
	// Separable: a map whose fields merge and are owned one by one.
	Separable = ElementRelationship("separable")
)

// Map is a struct (declared fields) or a map (ElementType for every key), or
// both.
type Map struct {
	// Fields are the declared fields, in order.
	Fields []StructField `yaml:"fields,omitempty"`

	// Unions are kept for round trips; they change nothing.
	Unions []Union `yaml:"unions,omitempty"`

	// ElementType is the type of fields not declared in Fields. When it is
	// the zero TypeRef such fields are errors.
	ElementType TypeRef `yaml:"elementType,omitempty"`

	// ElementRelationship is separable (the default) or atomic.
	ElementRelationship ElementRelationship `yaml:"elementRelationship,omitempty"`
}

// FindField returns the declared field called name. It searches Fields on
// every call and keeps nothing, so it is safe to call concurrently on a map
// nobody modifies. When two fields have the name, the last one is returned.
func (m *Map) FindField(name string) (StructField, bool) {
	for i := len(m.Fields) - 1; i >= 0; i-- {
		if m.Fields[i].Name == name {
			return m.Fields[i], true
		}
	}
	return StructField{}, false
}

// CopyInto makes dst a shallow copy of m (the slices are shared). A nil dst
// is ignored.
func (m *Map) CopyInto(dst *Map) {
	if dst == nil {
		return
	}
	*dst = *m
}

// UnionField is a member of a union.
type UnionField struct {
	// FieldName names the member field.
	FieldName string `yaml:"fieldName"`
	// DiscriminatorValue is the discriminator's value that selects it.
	DiscriminatorValue string `yaml:"discriminatorValue"`
}

// Union is a group of fields of which at most one is set. It is kept for
// round trips and changes nothing.
type Union struct {
	// Discriminator names the field that says which member is set.
	Discriminator *string `yaml:"discriminator,omitempty"`
	// DeduceInvalidDiscriminator is kept for round trips.
	DeduceInvalidDiscriminator bool `yaml:"deduceInvalidDiscriminator,omitempty"`
	// Fields are the members.
	Fields []UnionField `yaml:"fields,omitempty"`
}

// StructField is a declared field of a map.
type StructField struct {
	// Name is the field's name.
	Name string `yaml:"name,omitempty"`
	// Type is the field's type.
	Type TypeRef `yaml:"type,omitempty"`
	// Default is the value the field takes when absent; it matters for the
	// key fields of associative lists.
	Default interface{} `yaml:"default,omitempty"`
}

// List is a list type.
type List struct {
	// ElementType is the type of the items.
	ElementType TypeRef `yaml:"elementType,omitempty"`

	// ElementRelationship is atomic (the default) or associative.
	ElementRelationship ElementRelationship `yaml:"elementRelationship,omitempty"`

	// Keys are the fields that identify an item of an associative list of
	// maps.
	Keys []string `yaml:"keys,omitempty"`
}

// FindNamedType returns the type called name. It searches Types on every
// call and keeps nothing; when two types have the name, the last one is
// returned.
func (s *Schema) FindNamedType(name string) (TypeDef, bool) {
	for i := len(s.Types) - 1; i >= 0; i-- {
		if s.Types[i].Name == name {
			return s.Types[i], true
		}
	}
	return TypeDef{}, false
}

// Resolve returns the atom tr refers to: the named type's, or the inline
// one. An ElementRelationship override gives a copy of the map (or, if the
// atom has no map, the list) with that relationship; an override on an atom
// with neither, or a name the schema lacks, resolves to nothing.
//
// Resolve computes its result on every call and writes nothing, so unlike
// SMD's it takes no lock and cannot race.
func (s *Schema) Resolve(tr TypeRef) (Atom, bool) {
	var a Atom
	if tr.NamedType != nil {
		t, ok := s.FindNamedType(*tr.NamedType)
		if !ok {
			return Atom{}, false
		}
		a = t.Atom
	} else {
		a = tr.Inlined
	}
	if tr.ElementRelationship == nil {
		return a, true
	}
	switch {
	case a.Map != nil:
		m := *a.Map
		m.ElementRelationship = *tr.ElementRelationship
		a.Map = &m
	case a.List != nil:
		l := *a.List
		l.ElementRelationship = *tr.ElementRelationship
		a.List = &l
	default:
		return Atom{}, false
	}
	return a, true
}

// CopyInto makes dst a shallow copy of s (Types is shared). A nil dst is
// ignored.
func (s *Schema) CopyInto(dst *Schema) {
	if dst == nil {
		return
	}
	dst.Types = s.Types
}

package schema

import "github.com/structmerge/structmerge/value"

// Document is the source form of a schema: SMD's schema YAML format as plain
// Go structs. Parse fills one from YAML; code (an OpenAPI converter, a test)
// may also build or edit one and hand it to Compile.
//
// A Document is ordinary mutable data: it is not safe to modify from several
// goroutines at once. Compile only reads it, and the Schema it returns shares
// no mutable memory with it.
//
// Line fields hold the 1-based source line of the element when it came from
// YAML, and 0 otherwise; Compile puts them in its error messages.
type Document struct {
	Types []NamedType
}

// NamedType is one entry of the top-level types list: a name and an atom.
type NamedType struct {
	Name string
	Atom
	Line int
}

// Atom lists the shapes a value of a type may take. Any combination of the
// three may be set (the untyped types set all of them); none set is an
// "invalid atom" that no value satisfies.
type Atom struct {
	// Scalar is "numeric", "string", "boolean" or "untyped", or "" for none.
	Scalar string
	List   *ListDef
	Map    *MapDef
}

// TypeRef refers to a named type or declares a type inline.
type TypeRef struct {
	// NamedType, when not "", names the referenced type; the inline Atom is
	// then ignored, as SMD ignores it.
	NamedType string
	// Atom is the inline type, used when NamedType is "".
	Atom
	// ElementRelationship, when not "", overrides the relationship of the
	// referenced type's map (or, if it has no map, of its list): "atomic",
	// "separable" (or its old name "granular") for a map; "atomic" or
	// "associative" for a list.
	ElementRelationship string
	// Nullable is accepted and kept for round trips; SMD gives it no meaning.
	Nullable bool
	Line     int
}

// IsZero reports whether r is the zero TypeRef. A map whose ElementType is
// the zero TypeRef has no element type: fields it does not declare are
// errors.
func (r *TypeRef) IsZero() bool {
	return r.NamedType == "" && r.Scalar == "" && r.List == nil && r.Map == nil &&
		r.ElementRelationship == "" && !r.Nullable
}

// ListDef is the source form of a list type.
type ListDef struct {
	ElementType TypeRef
	// ElementRelationship is "atomic" or "associative"; "" means an atomic list.
	ElementRelationship string
	// Keys names the fields of the element map that identify an item of an
	// associative list.
	Keys []string
	Line int
}

// MapDef is the source form of a map (struct) type.
type MapDef struct {
	Fields []FieldDef
	Unions []UnionDef
	// ElementType is the type of fields not listed in Fields; the zero
	// TypeRef means there is none and such fields are errors.
	ElementType TypeRef
	// ElementRelationship is "separable" or "atomic" ("granular" is an old
	// name for separable); "" means separable.
	ElementRelationship string
	Line                int
}

// FieldDef is one declared field of a map.
type FieldDef struct {
	Name string
	Type TypeRef
	// Default is the field's default value; null means none (as in SMD, an
	// explicit `default: null` is the same as no default).
	Default value.Value
	Line    int
}

// UnionDef is the source form of a union of fields. SMD parses unions but no
// longer acts on them; they are kept so that nothing is lost.
type UnionDef struct {
	Discriminator              string
	HasDiscriminator           bool
	DeduceInvalidDiscriminator bool
	Fields                     []UnionFieldDef
	Line                       int
}

// UnionFieldDef names one member of a union and its discriminator value.
type UnionFieldDef struct {
	FieldName          string
	DiscriminatorValue string
	Line               int
}

package schema

import (
	"reflect"
	"slices"
)

// Each Equals method reports whether two schema elements are the same;
// two nil pointers are equal, a nil and a non-nil one are not.

// both reports whether a and b are both non-nil; done is true when the
// answer is already known (one or both nil), with eq the answer.
func both[T any](a, b *T) (done, eq bool) {
	if a == nil || b == nil {
		return true, a == nil && b == nil
	}
	return false, false
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func equalSlices[T any](a, b []T, eq func(a, b *T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eq(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// Equals reports whether the schemas have equal types in the same order.
func (a *Schema) Equals(b *Schema) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return equalSlices(a.Types, b.Types, (*TypeDef).Equals)
}

// Equals reports whether the references are the same. Unlike SMD, which
// compares the ElementRelationship pointers, it compares the relationships
// they point to.
func (a *TypeRef) Equals(b *TypeRef) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return equalPtr(a.NamedType, b.NamedType) &&
		equalPtr(a.ElementRelationship, b.ElementRelationship) &&
		a.Nullable == b.Nullable &&
		a.Inlined.Equals(&b.Inlined)
}

// Equals reports whether the named types are the same.
func (a *TypeDef) Equals(b *TypeDef) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return a.Name == b.Name && a.Atom.Equals(&b.Atom)
}

// Equals reports whether the atoms have the same shapes. As in SMD, when
// both have a scalar only the scalars are compared, and otherwise when both
// have a list only the lists are.
func (a *Atom) Equals(b *Atom) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	if (a.Scalar == nil) != (b.Scalar == nil) || (a.List == nil) != (b.List == nil) || (a.Map == nil) != (b.Map == nil) {
		return false
	}
	switch {
	case a.Scalar != nil:
		return *a.Scalar == *b.Scalar
	case a.List != nil:
		return a.List.Equals(b.List)
	case a.Map != nil:
		return a.Map.Equals(b.Map)
	}
	return true
}

// Equals reports whether the maps are the same.
func (a *Map) Equals(b *Map) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return a.ElementType.Equals(&b.ElementType) &&
		a.ElementRelationship == b.ElementRelationship &&
		equalSlices(a.Fields, b.Fields, (*StructField).Equals) &&
		equalSlices(a.Unions, b.Unions, (*Union).Equals)
}

// Equals reports whether the unions are the same.
func (a *Union) Equals(b *Union) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return equalPtr(a.Discriminator, b.Discriminator) &&
		a.DeduceInvalidDiscriminator == b.DeduceInvalidDiscriminator &&
		equalSlices(a.Fields, b.Fields, (*UnionField).Equals)
}

// Equals reports whether the union members are the same.
func (a *UnionField) Equals(b *UnionField) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return *a == *b
}

// Equals reports whether the fields are the same; defaults are compared
// with reflect.DeepEqual.
func (a *StructField) Equals(b *StructField) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return a.Name == b.Name && reflect.DeepEqual(a.Default, b.Default) && a.Type.Equals(&b.Type)
}

// Equals reports whether the lists are the same.
func (a *List) Equals(b *List) bool {
	if done, eq := both(a, b); done {
		return eq
	}
	return a.ElementType.Equals(&b.ElementType) &&
		a.ElementRelationship == b.ElementRelationship &&
		slices.Equal(a.Keys, b.Keys)
}

package typed

import (
	coreschema "github.com/structmerge/structmerge/schema"
	coretyped "github.com/structmerge/structmerge/typed"
	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/internal/bridge"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// ValidationOptions changes what validation accepts.
type ValidationOptions int

const (
	// AllowDuplicates accepts associative lists with two items of the same
	// key.
	AllowDuplicates ValidationOptions = iota
)

type extractItemsOptions struct {
	appendKeyFields bool
}

// ExtractItemsOption changes what ExtractItems keeps.
type ExtractItemsOption func(*extractItemsOptions)

// WithAppendKeyFields makes ExtractItems keep the key fields of the
// associative-list items it keeps.
func WithAppendKeyFields() ExtractItemsOption {
	return func(o *extractItemsOptions) { o.appendKeyFields = true }
}

// TypedValue is a value with its type in a schema. It also holds the type
// compiled into structmerge's graph and the value converted to structmerge's
// form, both made when the TypedValue is made.
type TypedValue struct {
	value   value.Value
	typeRef schema.TypeRef
	schema  *schema.Schema

	t    *coreschema.Type // nil when terr says why
	terr error
	cv   corevalue.Value // the value, converted; cerr says why not
	cerr error
}

// newTyped makes a TypedValue of v with the compiled type t (or its error),
// converting v now.
func newTyped(v value.Value, s *schema.Schema, tr schema.TypeRef, t *coreschema.Type, terr error) *TypedValue {
	tv := &TypedValue{value: v, typeRef: tr, schema: s, t: t, terr: terr}
	tv.cv, tv.cerr = bridge.Value(v)
	return tv
}

// compile compiles s for tr, as a TypedValue made without a parser needs.
func compile(s *schema.Schema, tr schema.TypeRef) (*coreschema.Type, error) {
	refs := []schema.TypeRef{tr}
	c, err := bridge.Compile(s, refs...)
	if err != nil {
		return nil, err
	}
	return bridge.Resolve(c, refs, 0)
}

// AsTyped returns v as a value of the type typeRef of s, validated. The
// schema is compiled here, for this value; values made through a Parser
// share the parser's compiled schema instead.
func AsTyped(v value.Value, s *schema.Schema, typeRef schema.TypeRef, opts ...ValidationOptions) (*TypedValue, error) {
	tv := AsTypedUnvalidated(v, s, typeRef)
	if err := tv.Validate(opts...); err != nil {
		return nil, err
	}
	return tv, nil
}

// AsTypedUnvalidated is AsTyped without the validation.
func AsTypedUnvalidated(v value.Value, s *schema.Schema, typeRef schema.TypeRef) *TypedValue {
	t, err := compile(s, typeRef)
	return newTyped(v, s, typeRef, t, err)
}

// TypeRef returns the value's type.
func (tv TypedValue) TypeRef() schema.TypeRef { return tv.typeRef }

// AsValue returns the value.
func (tv TypedValue) AsValue() value.Value { return tv.value }

// Schema returns the schema of the value's type.
func (tv TypedValue) Schema() *schema.Schema { return tv.schema }

// ready returns the error that keeps the value from being operated on: a
// schema that did not compile or a value structmerge cannot hold.
func (tv *TypedValue) ready() error {
	if tv.terr != nil {
		return errorf("schema error: %v", tv.terr)
	}
	if tv.cerr != nil {
		return errorf("%v", tv.cerr)
	}
	return nil
}

// Validate checks the value against its type and returns every problem
// found, as ValidationErrors.
func (tv TypedValue) Validate(opts ...ValidationOptions) error {
	if err := tv.ready(); err != nil {
		return err
	}
	var o []coretyped.ValidateOption
	for _, opt := range opts {
		if opt == AllowDuplicates {
			o = append(o, coretyped.AllowDuplicates())
		}
	}
	return validationErrors(coretyped.Validate(tv.t, tv.cv, o...))
}

// ToFieldSet returns the set of fields the value sets.
func (tv TypedValue) ToFieldSet() (*fieldpath.Set, error) {
	if err := tv.ready(); err != nil {
		return nil, err
	}
	s, err := coretyped.FieldSet(tv.t, tv.cv)
	if err != nil {
		return nil, validationErrors(err)
	}
	return bridge.FromSet(s), nil
}

// sameType checks that two values can be merged or compared: the same
// schema (the same pointer) and equal types.
func sameType(lhs, rhs *TypedValue) error {
	if lhs.schema != rhs.schema {
		return errorf("expected objects with types from the same schema")
	}
	if !lhs.typeRef.Equals(&rhs.typeRef) {
		return errorf("expected objects of the same type, but got %v and %v", lhs.typeRef, rhs.typeRef)
	}
	if err := lhs.ready(); err != nil {
		return err
	}
	return rhs.ready()
}

// derived returns a TypedValue of the same type holding v.
func (tv *TypedValue) derived(v corevalue.Value) *TypedValue {
	out := *tv
	out.cv, out.cerr = v, nil
	out.value = bridge.FromValue(v)
	return &out
}

// Merge returns the value with pso merged into it: pso's fields win.
func (tv TypedValue) Merge(pso *TypedValue) (*TypedValue, error) {
	if err := sameType(&tv, pso); err != nil {
		return nil, err
	}
	v, err := coretyped.Merge(tv.t, tv.cv, pso.cv)
	if err != nil {
		return nil, validationErrors(err)
	}
	return tv.derived(v), nil
}

// Compare returns which fields rhs adds, modifies and removes relative to
// the value.
func (tv TypedValue) Compare(rhs *TypedValue) (c *Comparison, err error) {
	if err := sameType(&tv, rhs); err != nil {
		return nil, err
	}
	cc, err := coretyped.Compare(tv.t, tv.cv, rhs.cv)
	if err != nil {
		return nil, validationErrors(err)
	}
	return &Comparison{
		Removed:  bridge.FromSet(cc.Removed),
		Modified: bridge.FromSet(cc.Modified),
		Added:    bridge.FromSet(cc.Added),
	}, nil
}

// RemoveItems returns the value without the fields in items.
func (tv TypedValue) RemoveItems(items *fieldpath.Set) *TypedValue {
	if tv.ready() != nil {
		return &tv
	}
	s, err := bridge.Set(items)
	if err != nil {
		return &tv
	}
	return tv.derived(coretyped.RemoveItems(tv.t, tv.cv, s))
}

// ExtractItems returns the part of the value that the fields in items
// select.
func (tv TypedValue) ExtractItems(items *fieldpath.Set, opts ...ExtractItemsOption) *TypedValue {
	var o extractItemsOptions
	for _, opt := range opts {
		opt(&o)
	}
	if tv.ready() != nil {
		return &tv
	}
	s, err := bridge.Set(items)
	if err != nil {
		return &tv
	}
	var co []coretyped.ExtractOption
	if o.appendKeyFields {
		co = append(co, coretyped.WithKeyFields())
	}
	return tv.derived(coretyped.ExtractItems(tv.t, tv.cv, s, co...))
}

// Empty returns a null value of the same type.
func (tv TypedValue) Empty() *TypedValue {
	return tv.derived(corevalue.Value{})
}

// ReconcileFieldSetWithSchema adapts a field set recorded under an older
// schema to tv's: fields below what is now atomic become the atomic field
// itself. It returns nil when nothing changes.
func ReconcileFieldSetWithSchema(fieldset *fieldpath.Set, tv *TypedValue) (*fieldpath.Set, error) {
	if err := tv.ready(); err != nil {
		return nil, err
	}
	s, err := bridge.Set(fieldset)
	if err != nil {
		return nil, err
	}
	r, err := coretyped.ReconcileFieldSet(tv.t, s)
	if err != nil {
		return nil, validationErrors(err)
	}
	if r == nil || r == s {
		return nil, nil
	}
	return bridge.FromSet(r), nil
}

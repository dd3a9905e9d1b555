package typed

import (
	coreschema "github.com/structmerge/structmerge/schema"
	coretyped "github.com/structmerge/structmerge/typed"
	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/internal/bridge"
	"sigs.k8s.io/structured-merge-diff/v6/internal/typedlink"
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

// TypedValue is a value with its type in a schema. It also holds the value
// in structmerge's form with its compiled type, made when the TypedValue is
// made.
type TypedValue struct {
	value   value.Value // nil with fromCore: AsValue makes it from core
	typeRef schema.TypeRef
	schema  *schema.Schema

	core coretyped.Value // the engine's form; err says why there is none
	err  error

	// fromCore marks a value made from a Go object (FromStructured): it
	// keeps only the engine's form, and AsValue makes SMD's from it.
	fromCore bool
	// text is the JSON encoding of the Go object a FromStructured value
	// was read from ("" for others); the engine's value shares its
	// strings, so keeping it costs no copy.
	text string
}

func init() {
	typedlink.Core = func(tv any) (coretyped.Value, error) {
		t := tv.(*TypedValue)
		return t.core, t.ready()
	}
	typedlink.Equal = func(a, b any) bool { return equalText(a.(*TypedValue), b.(*TypedValue)) }
	typedlink.Wrap = func(like any, v coretyped.Value, sources ...any) any {
		srcs := make([]*TypedValue, len(sources))
		for i, s := range sources {
			srcs[i] = s.(*TypedValue)
		}
		return like.(*TypedValue).derived(v, srcs...)
	}
}

// newTyped makes a TypedValue of v with the compiled type t (or terr, why
// there is none), converting v now. With validate, the value is validated
// (with opts) and an invalid one is an error.
func newTyped(v value.Value, s *schema.Schema, tr schema.TypeRef, t *coreschema.Type, terr error, validate bool, opts []ValidationOptions) (*TypedValue, error) {
	tv := &TypedValue{value: v, typeRef: tr, schema: s}
	if terr != nil {
		tv.err = schemaError(terr)
		return tv, tv.err
	}
	cv, err := bridge.Value(v)
	if err != nil {
		tv.err = errorf("%v", err)
		return tv, tv.err
	}
	return typedCore(tv, cv, t, validate, opts)
}

// schemaError is the error of a value whose type did not compile.
func schemaError(terr error) error { return errorf("schema error: %v", terr) }

// typedCore gives tv the engine's form cv of type t, validated (with
// opts) when validate is set; an invalid value is an error.
func typedCore(tv *TypedValue, cv corevalue.Value, t *coreschema.Type, validate bool, opts []ValidationOptions) (*TypedValue, error) {
	var err error
	if !validate {
		tv.core = coretyped.NewUnvalidated(t, cv)
		return tv, nil
	}
	tv.core, err = coretyped.New(t, cv, validateOptions(opts)...)
	if err != nil {
		return nil, validationErrors(err)
	}
	return tv, nil
}

func validateOptions(opts []ValidationOptions) []coretyped.ValidateOption {
	var o []coretyped.ValidateOption
	for _, opt := range opts {
		if opt == AllowDuplicates {
			o = append(o, coretyped.AllowDuplicates())
		}
	}
	return o
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
	t, err := compile(s, typeRef)
	tv, err := newTyped(v, s, typeRef, t, err, true, opts)
	if err != nil {
		return nil, err
	}
	return tv, nil
}

// AsTypedUnvalidated is AsTyped without the validation.
func AsTypedUnvalidated(v value.Value, s *schema.Schema, typeRef schema.TypeRef) *TypedValue {
	t, err := compile(s, typeRef)
	tv, _ := newTyped(v, s, typeRef, t, err, false, nil)
	return tv
}

// TypeRef returns the value's type.
func (tv TypedValue) TypeRef() schema.TypeRef { return tv.typeRef }

// AsValue returns the value. For a value made by FromStructured it is a
// read-only view of the engine's value (see bridge.View): reading a field
// converts only that field, and writes through it reach neither the Go
// object nor the TypedValue.
func (tv TypedValue) AsValue() value.Value {
	if tv.fromCore {
		return bridge.View(tv.core.Value())
	}
	return tv.value
}

// Schema returns the schema of the value's type.
func (tv TypedValue) Schema() *schema.Schema { return tv.schema }

// ready returns the error that keeps the value from being operated on: a
// schema that did not compile or a value structmerge cannot hold.
func (tv *TypedValue) ready() error { return tv.err }

// Validate checks the value against its type and returns every problem
// found, as ValidationErrors.
func (tv TypedValue) Validate(opts ...ValidationOptions) error {
	if err := tv.ready(); err != nil {
		return err
	}
	return validationErrors(coretyped.Validate(tv.core.Type(), tv.core.Value(), validateOptions(opts)...))
}

// ToFieldSet returns the set of fields the value sets.
func (tv TypedValue) ToFieldSet() (*fieldpath.Set, error) {
	if err := tv.ready(); err != nil {
		return nil, err
	}
	s, err := tv.core.FieldSet()
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

// derived returns a TypedValue of the same type holding v, computed from
// sources: what v shares with them is their own Go data (see
// bridge.FromValueLike).
func (tv *TypedValue) derived(v coretyped.Value, sources ...*TypedValue) *TypedValue {
	srcs := make([]bridge.Source, 0, len(sources))
	for _, s := range sources {
		if s.ready() == nil && s.value != nil {
			srcs = append(srcs, bridge.Source{Go: s.value.Unstructured(), Core: s.core.Value()})
		}
	}
	return &TypedValue{
		value:   bridge.FromValueLike(v.Value(), v.Type(), srcs...),
		typeRef: tv.typeRef,
		schema:  tv.schema,
		core:    v,
	}
}

// Merge returns the value with pso merged into it: pso's fields win.
func (tv TypedValue) Merge(pso *TypedValue) (*TypedValue, error) {
	if err := sameType(&tv, pso); err != nil {
		return nil, err
	}
	v, err := tv.core.Merge(pso.core)
	if err != nil {
		return nil, validationErrors(err)
	}
	return tv.derived(v, pso, &tv), nil
}

// equalText reports whether a and b are of the same compiled type and were
// read from the same JSON text (FromStructured of two equal Go objects):
// their engine values are then equal, and either can stand for both, so
// that the engine's walks of the two stop at once where they meet the same
// node (comparing two values of 8,000 nodes costs a comparison of their
// texts instead of a walk).
func equalText(a, b *TypedValue) bool {
	return a.text != "" && a.err == nil && b.err == nil && a.core.Type() == b.core.Type() && a.text == b.text
}

// Compare returns which fields rhs adds, modifies and removes relative to
// the value.
func (tv TypedValue) Compare(rhs *TypedValue) (c *Comparison, err error) {
	if err := sameType(&tv, rhs); err != nil {
		return nil, err
	}
	other := rhs.core
	if equalText(&tv, rhs) {
		other = tv.core
	}
	cc, err := tv.core.Compare(other)
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
	return tv.derived(tv.core.RemoveItems(s), &tv)
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
	t, v := tv.core.Type(), tv.core.Value()
	if o.appendKeyFields {
		s = withKeyFields(t, v, s)
	}
	return tv.derived(coretyped.NewUnvalidated(t, extractLikeSMD(t, v, s)), &tv)
}

// Empty returns a null value of the same type.
func (tv TypedValue) Empty() *TypedValue {
	if tv.ready() != nil {
		tv.value = value.NewValueInterface(nil)
		return &tv
	}
	return tv.derived(coretyped.NewUnvalidated(tv.core.Type(), corevalue.Value{}))
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
	r, err := coretyped.ReconcileFieldSet(tv.core.Type(), s)
	if err != nil {
		return nil, validationErrors(err)
	}
	if r == nil || r == s {
		return nil, nil
	}
	return bridge.FromSet(r), nil
}

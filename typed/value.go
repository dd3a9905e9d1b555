package typed

import (
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// Value is a value together with the schema type that describes it.
// Immutable; safe for concurrent use.
type Value struct {
	typ *schema.Type
	val value.Value
}

// New validates v against t and returns them as a typed Value.
func New(t *schema.Type, v value.Value, opts ...ValidateOption) (Value, error) {
	if err := Validate(t, v, opts...); err != nil {
		return Value{}, err
	}
	return Value{typ: t, val: v}, nil
}

// NewUnvalidated pairs v with t without checking that v fits t.
func NewUnvalidated(t *schema.Type, v value.Value) Value { return Value{typ: t, val: v} }

// Type returns the schema type.
func (tv Value) Type() *schema.Type { return tv.typ }

// Value returns the value.
func (tv Value) Value() value.Value { return tv.val }

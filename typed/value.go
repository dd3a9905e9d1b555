package typed

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// Value is a value together with the schema type that describes it, and
// what is known of its validity. Immutable; safe for concurrent use.
type Value struct {
	typ     *schema.Type
	val     value.Value
	checked validity
	hint    sizeHint // of the field set, when made by New
}

// validity records what a Value is known to satisfy, so that operations can
// skip checks the reference engine would make again on every walk.
type validity uint8

const (
	unchecked validity = iota
	// validWithDuplicates: fits the type; associative lists may repeat keys.
	validWithDuplicates
	// valid: fits the type with no repeated keys.
	valid
)

// New validates v against t and returns them as a typed Value.
func New(t *schema.Type, v value.Value, opts ...ValidateOption) (Value, error) {
	o := validateOpts(opts)
	hint, dups, err := validateCounting(t, v, o)
	if err != nil {
		return Value{}, err
	}
	// A value checked with AllowDuplicates that repeats no key is valid
	// without it too: it vouches (Like) for a strict check.
	c := valid
	if dups {
		c = validWithDuplicates
	}
	return Value{typ: t, val: v, checked: c, hint: hint}, nil
}

// NewUnvalidated pairs v with t without checking that v fits t.
func NewUnvalidated(t *schema.Type, v value.Value) Value { return Value{typ: t, val: v} }

// Validated reports whether tv is known to fit its type: it was made by
// New, or derived by an operation from values made by New.
func (tv Value) Validated() bool { return tv.checked != unchecked }

// String prints tv as its type's name (schema.Type.String) and its value
// as JSON, for example `widget {"name":"web"}`; a Value without a type
// prints `<no type>` before the value.
func (tv Value) String() string {
	name := "<no type>"
	if tv.typ != nil {
		name = tv.typ.String()
	}
	return name + " " + tv.val.String()
}

// Type returns the schema type.
func (tv Value) Type() *schema.Type { return tv.typ }

// Value returns the value.
func (tv Value) Value() value.Value { return tv.val }

// derived is the validity of a value computed from inputs of the given
// validity: operations on valid values give values that are valid except
// that live lists may repeat keys.
func derived(inputs ...validity) validity {
	for _, c := range inputs {
		if c == unchecked {
			return unchecked
		}
	}
	return validWithDuplicates
}

// Merge merges the configuration config into the live value tv, as the
// type of tv directs: the configuration wins on leaves, atomic lists and
// maps are replaced whole, granular maps are merged field by field, and
// associative lists are merged by key, in the configuration's order,
// keeping the live items it does not mention. An associative list of the
// configuration must not repeat a key; the live value's may (the repeated
// items are merged as one). Parts of either side that the other does not
// touch are shared with the result, not walked again, when both were
// validated by New.
func (tv Value) Merge(config Value) (Value, error) {
	same := tv.typ == config.typ
	out, err := merge(tv.typ, tv.val, config.val, tv.checked >= validWithDuplicates, same && config.checked == valid)
	if err != nil {
		return Value{}, err
	}
	c := unchecked
	if same {
		c = derived(tv.checked, config.checked)
	}
	return Value{typ: tv.typ, val: out, checked: c}, nil
}

// Compare returns what changed from tv to rhs (see the function Compare).
// Subtrees the two share are skipped when both were validated.
func (tv Value) Compare(rhs Value) (*Comparison, error) {
	skip := tv.typ == rhs.typ && tv.checked >= validWithDuplicates && rhs.checked >= validWithDuplicates
	var hint sizeHint
	if tv.val.Len() == 0 {
		hint = rhs.hint // everything rhs sets is added
		if skip && rhs.val.Kind() == value.Map && (tv.val.Kind() == value.Null || tv.val.Kind() == value.Map) {
			// From nothing to a valid object (a create): only additions,
			// which a walk of rhs alone finds.
			added, err := addedSet(rhs.typ, rhs.val, hint)
			if err != nil {
				return nil, err
			}
			return &Comparison{Added: added}, nil
		}
	}
	if skip && value.Equal(tv.val, rhs.val) {
		// Two valid values that are equal have no changes and no problems:
		// a walk that only reads them (it stops at the first difference)
		// costs a fraction of the comparison's.
		return &Comparison{}, nil
	}
	return compare(tv.typ, tv.val, rhs.val, skip, hint)
}

// FieldSet returns the fields tv sets (see the function FieldSet).
func (tv Value) FieldSet() (*fieldpath.Set, error) { return fieldSet(tv.typ, tv.val, tv.hint) }

// RemoveItems returns tv without the fields in set (see the function RemoveItems).
func (tv Value) RemoveItems(set *fieldpath.Set) Value {
	return Value{typ: tv.typ, val: RemoveItems(tv.typ, tv.val, set), checked: derived(tv.checked)}
}

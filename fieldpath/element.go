package fieldpath

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// ElementKind says how a PathElement selects a child of its container.
type ElementKind uint8

// The kinds of path element, in the order in which PathElement.Compare sorts
// them. The zero ElementKind marks an invalid (zero) PathElement.
const (
	// FieldNameKind selects a field of a map or structure by name.
	FieldNameKind ElementKind = iota + 1
	// KeyKind selects the item of an associative list (a list of maps) whose
	// key fields have the given values.
	KeyKind
	// ValueKind selects the item of a set (an associative list of scalars)
	// equal to the given value.
	ValueKind
	// IndexKind selects the item of an atomic list by its position.
	IndexKind
)

// String returns the lower-case name of the kind.
func (k ElementKind) String() string {
	switch k {
	case FieldNameKind:
		return "field"
	case KeyKind:
		return "key"
	case ValueKind:
		return "value"
	case IndexKind:
		return "index"
	}
	return "invalid"
}

const (
	tagBits  = 2
	tagMask  = 1<<tagBits - 1
	fieldTag = 1
	keyTag   = 2
	valueTag = 3
)

// Sentinels whose addresses tag index elements and empty keys. They are
// never written.
var (
	indexSentinel byte
	emptyKey      [1]value.Field
)

// FieldName returns a path element that selects the field name of a map.
func FieldName(name string) PathElement {
	return fieldElement(name)
}

// isField reports whether e is a field name.
func (e PathElement) isField() bool { return e.n&tagMask == fieldTag }

// Key returns a path element that selects the item of an associative list
// whose key fields have the given values, sorted by name (stably, so
// repeated names keep their order). Key keeps a copy of fields: the caller
// keeps the slice, which Key does not modify.
func Key(fields []value.Field) PathElement { return ownKey(slices.Clone(fields)) }

// ownKey is Key on a slice it takes: it sorts the slice in place.
func ownKey(fields []value.Field) PathElement {
	if !keySorted(fields) {
		slices.SortStableFunc(fields, func(a, b value.Field) int { return strings.Compare(a.Name, b.Name) })
	}
	return keyElement(fields)
}

// keyElement builds a KeyKind element from fields already sorted by name.
func keyElement(fields []value.Field) PathElement {
	return keyFieldsElement(fields)
}

func keySorted(fields []value.Field) bool {
	for i := 1; i < len(fields); i++ {
		if fields[i-1].Name > fields[i].Name {
			return false
		}
	}
	return true
}

// KeyByFields returns a key path element from alternating names and values:
// KeyByFields("name", "web", "port", 80). Each name must be a string; each
// value a value.Value or a Go scalar (string, bool, any integer or float
// type, or nil for null). It is meant for literals in code and tests, and
// panics when the arguments do not have that shape.
func KeyByFields(nameValues ...any) PathElement {
	if len(nameValues)%2 != 0 {
		panic("fieldpath.KeyByFields: odd number of arguments; want name, value pairs")
	}
	fields := make([]value.Field, 0, len(nameValues)/2)
	for i := 0; i < len(nameValues); i += 2 {
		name, ok := nameValues[i].(string)
		if !ok {
			panic(fmt.Sprintf("fieldpath.KeyByFields: argument %d is %T, want a string field name", i, nameValues[i]))
		}
		v, err := scalarValue(nameValues[i+1])
		if err != nil {
			panic(fmt.Sprintf("fieldpath.KeyByFields: argument %d: %v", i+1, err))
		}
		fields = append(fields, value.Field{Name: name, Value: v})
	}
	return ownKey(fields)
}

// scalarValue converts a value.Value or a Go scalar to a value.Value.
func scalarValue(x any) (value.Value, error) {
	switch t := x.(type) {
	case value.Value:
		return t, nil
	case nil:
		return value.NewNull(), nil
	case string:
		return value.NewString(t), nil
	case bool:
		return value.NewBool(t), nil
	case int:
		return value.NewInt(int64(t)), nil
	case int8:
		return value.NewInt(int64(t)), nil
	case int16:
		return value.NewInt(int64(t)), nil
	case int32:
		return value.NewInt(int64(t)), nil
	case int64:
		return value.NewInt(t), nil
	case uint:
		return value.NewInt(int64(t)), nil
	case uint8:
		return value.NewInt(int64(t)), nil
	case uint16:
		return value.NewInt(int64(t)), nil
	case uint32:
		return value.NewInt(int64(t)), nil
	case uint64:
		return value.NewInt(int64(t)), nil
	case float32:
		return value.NewFloat(float64(t)), nil
	case float64:
		return value.NewFloat(t), nil
	}
	return value.Value{}, fmt.Errorf("cannot use %T as a value", x)
}

// MemberValue returns a path element that selects the member of a set (an
// associative list of scalars) equal to v. It prints as [="a"].
func MemberValue(v value.Value) PathElement {
	p := new(value.Value)
	*p = v
	return valueElement(p)
}

// Index returns a path element that selects item i of an atomic list.
func Index(i int) PathElement {
	if i < math.MinInt>>tagBits || i > math.MaxInt>>tagBits {
		p := new(int)
		*p = i
		return boxedIndex(p)
	}
	return PathElement{ptr: indexTag(), n: i << tagBits}
}

// Kind returns the kind of e, or 0 for the zero PathElement.
func (e PathElement) Kind() ElementKind {
	switch e.n & tagMask {
	case fieldTag:
		return FieldNameKind
	case keyTag:
		return KeyKind
	case valueTag:
		return ValueKind
	}
	if e.ptr == nil {
		return 0
	}
	return IndexKind
}

// FieldName returns the field name of a FieldNameKind element, else "".
func (e PathElement) FieldName() string {
	if !e.isField() {
		return ""
	}
	return e.name()
}

// Key yields the position and each key field of a KeyKind element, sorted
// by name (nothing for other kinds): for i, f := range e.Key().
func (e PathElement) Key() iter.Seq2[int, value.Field] {
	return func(yield func(int, value.Field) bool) {
		for i, f := range e.keyFields() {
			if !yield(i, f) {
				return
			}
		}
	}
}

// KeyLen returns the number of key fields of a KeyKind element, else 0.
func (e PathElement) KeyLen() int { return len(e.keyFields()) }

// keyFields returns the key fields of a KeyKind element sorted by name,
// else nil.
func (e PathElement) keyFields() []value.Field {
	if e.Kind() != KeyKind || e.n>>tagBits == 0 {
		return nil
	}
	return e.key()
}

// Value returns the value of a ValueKind element, else null.
func (e PathElement) Value() value.Value {
	if e.Kind() != ValueKind {
		return value.Value{}
	}
	return *e.value()
}

func (e PathElement) value() *value.Value { return (*value.Value)(e.ptr) }

// Index returns the index of an IndexKind element, else 0.
func (e PathElement) Index() int {
	switch {
	case e.ptr == indexTag():
		return e.n >> tagBits
	case e.Kind() == IndexKind:
		return *(*int)(e.ptr) // boxed
	}
	return 0
}

// kindRank orders kinds for Compare; the invalid kind sorts last.
func kindRank(k ElementKind) int {
	if k == 0 {
		return int(IndexKind) + 1
	}
	return int(k)
}

// Compare orders path elements: field names before keys before values before
// indexes; field names bytewise; keys lexically by (field name, value) pairs
// and then by length; values by value.Compare; indexes numerically. It
// returns -1, 0 or +1. This is the order structured-merge-diff uses.
func (e PathElement) Compare(o PathElement) int {
	if e.isField() && o.isField() {
		return strings.Compare(e.name(), o.name())
	}
	ek, ok := e.Kind(), o.Kind()
	if ek != ok {
		return cmp.Compare(kindRank(ek), kindRank(ok))
	}
	switch ek {
	case KeyKind:
		if e.ptr == o.ptr && e.n == o.n {
			return 0
		}
		return compareKeys(e.key(), o.key())
	case ValueKind:
		if e.ptr == o.ptr {
			return 0
		}
		return value.Compare(*e.value(), *o.value())
	case IndexKind:
		return cmp.Compare(e.Index(), o.Index())
	}
	return 0
}

func compareKeys(a, b []value.Field) int {
	for i := 0; ; i++ {
		switch {
		case i >= len(a) && i >= len(b):
			return 0
		case i >= len(a):
			return -1
		case i >= len(b):
			return 1
		}
		if c := strings.Compare(a[i].Name, b[i].Name); c != 0 {
			return c
		}
		if c := value.Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
}

// Equal reports whether e and o select the same child: same kind and equal
// name, key fields (by value.Equal), value or index.
func (e PathElement) Equal(o PathElement) bool {
	if e.isField() {
		return o.n == e.n && (e.ptr == o.ptr || e.name() == o.name())
	}
	ek := e.Kind()
	if ek != o.Kind() {
		return false
	}
	switch ek {
	case KeyKind:
		if e.n != o.n {
			return false
		}
		if e.ptr == o.ptr {
			return true
		}
		a, b := e.key(), o.key()
		for i := range a {
			if a[i].Name != b[i].Name || !value.Equal(a[i].Value, b[i].Value) {
				return false
			}
		}
		return true
	case ValueKind:
		return e.ptr == o.ptr || value.Equal(*e.value(), *o.value())
	}
	if ek == IndexKind {
		return e.Index() == o.Index()
	}
	return true // both invalid
}

// String formats e the way structured-merge-diff prints path elements:
// ".name", `[name="web",port=80]`, `[="a"]` or "[3]".
func (e PathElement) String() string {
	if e.isField() {
		return "." + e.name()
	}
	return string(e.appendText(nil))
}

// appendText appends the String form of e to dst.
func (e PathElement) appendText(dst []byte) []byte {
	switch e.Kind() {
	case FieldNameKind:
		dst = append(dst, '.')
		return append(dst, e.name()...)
	case KeyKind:
		dst = append(dst, '[')
		for i, f := range e.key() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, f.Name...)
			dst = append(dst, '=')
			dst = appendValueText(dst, f.Value)
		}
		return append(dst, ']')
	case ValueKind:
		dst = append(dst, "[="...)
		dst = appendValueText(dst, *e.value())
		return append(dst, ']')
	case IndexKind:
		dst = append(dst, '[')
		dst = strconv.AppendInt(dst, int64(e.Index()), 10)
		return append(dst, ']')
	}
	return append(dst, "{{invalid path element}}"...)
}

// appendValueText appends value.Text(v) to dst without an intermediate
// string for the common scalar kinds.
func appendValueText(dst []byte, v value.Value) []byte {
	switch v.Kind() {
	case value.String:
		return strconv.AppendQuote(dst, v.AsString())
	case value.Int:
		return strconv.AppendInt(dst, v.AsInt(), 10)
	case value.Bool:
		return strconv.AppendBool(dst, v.AsBool())
	case value.Null:
		return append(dst, "null"...)
	}
	return append(dst, value.Text(v)...)
}

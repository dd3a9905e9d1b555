package value

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Kind says which of the JSON kinds a Value holds.
type Kind uint8

// The kinds of value. The zero Kind is Null, so the zero Value is null.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	List
	Map
)

// String returns the lower-case name of the kind ("null", "int", ...).
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "bool"
	case Int:
		return "int"
	case Float:
		return "float"
	case String:
		return "string"
	case List:
		return "list"
	case Map:
		return "map"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one node of a value tree: null, a boolean, an integer, a float, a
// string, a list of values or a map from strings to values. The zero Value is
// null.
//
// Value is immutable; safe for concurrent use. The slices returned by Items
// and Fields are borrowed from the value and must not be modified.
type Value struct {
	kind   Kind
	bits   uint64  // bool (0/1), int64 or float64 bits
	str    string  // String
	items  []Value // List, in order
	fields []Field // Map, sorted by name, names unique
}

// Field is one entry of a map value.
type Field struct {
	Name  string
	Value Value
}

// NewNull returns the null value (the same as the zero Value).
func NewNull() Value { return Value{} }

// NewBool returns a boolean value.
func NewBool(b bool) Value {
	v := Value{kind: Bool}
	if b {
		v.bits = 1
	}
	return v
}

// NewInt returns an integer value.
func NewInt(i int64) Value { return Value{kind: Int, bits: uint64(i)} }

// NewFloat returns a floating-point value.
func NewFloat(f float64) Value { return Value{kind: Float, bits: math.Float64bits(f)} }

// NewString returns a string value.
func NewString(s string) Value { return Value{kind: String, str: s} }

// NewList returns a list value. It takes ownership of items: the caller must
// not modify the slice afterwards. A nil slice gives an empty list.
func NewList(items []Value) Value { return Value{kind: List, items: items} }

// NewMap returns a map value. It takes ownership of fields, which it sorts by
// name in place; when a name occurs more than once the last occurrence wins.
// A nil slice gives an empty map. Decoders that must reject duplicate names
// check for them before calling NewMap.
func NewMap(fields []Field) Value {
	if !fieldsSorted(fields) {
		slices.SortStableFunc(fields, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
		fields = dedupeLastWins(fields)
	}
	return Value{kind: Map, fields: fields}
}

// newSortedMap builds a map from fields already sorted with unique names.
func newSortedMap(fields []Field) Value { return Value{kind: Map, fields: fields} }

func fieldsSorted(fields []Field) bool {
	for i := 1; i < len(fields); i++ {
		if fields[i-1].Name >= fields[i].Name {
			return false
		}
	}
	return true
}

func dedupeLastWins(fields []Field) []Field {
	out := fields[:0]
	for i := 0; i < len(fields); i++ {
		if i+1 < len(fields) && fields[i+1].Name == fields[i].Name {
			continue
		}
		out = append(out, fields[i])
	}
	return out
}

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == Null }

// IsNumber reports whether v is an integer or a float.
func (v Value) IsNumber() bool { return v.kind == Int || v.kind == Float }

// AsBool returns the boolean held by v, or false if v is not a boolean.
func (v Value) AsBool() bool { return v.kind == Bool && v.bits != 0 }

// AsInt returns the integer held by v; a float is truncated; other kinds give 0.
func (v Value) AsInt() int64 {
	switch v.kind {
	case Int:
		return int64(v.bits)
	case Float:
		return int64(math.Float64frombits(v.bits))
	}
	return 0
}

// AsFloat returns the number held by v as a float64; other kinds give 0.
func (v Value) AsFloat() float64 {
	switch v.kind {
	case Int:
		return float64(int64(v.bits))
	case Float:
		return math.Float64frombits(v.bits)
	}
	return 0
}

// AsString returns the string held by v, or "" if v is not a string.
func (v Value) AsString() string { return v.str }

// Len returns the number of items of a list or fields of a map, else 0.
func (v Value) Len() int {
	switch v.kind {
	case List:
		return len(v.items)
	case Map:
		return len(v.fields)
	}
	return 0
}

// Items returns the items of a list (nil for other kinds). Borrowed: do not modify.
func (v Value) Items() []Value { return v.items }

// Index returns item i of a list. It panics if i is out of range, like a slice.
func (v Value) Index(i int) Value { return v.items[i] }

// Fields returns the fields of a map sorted by name (nil for other kinds).
// Borrowed: do not modify.
func (v Value) Fields() []Field { return v.fields }

// Get returns the field of a map with the given name.
func (v Value) Get(name string) (Value, bool) {
	i, ok := v.fieldIndex(name)
	if !ok {
		return Value{}, false
	}
	return v.fields[i].Value, true
}

// Has reports whether a map has a field with the given name.
func (v Value) Has(name string) bool {
	_, ok := v.fieldIndex(name)
	return ok
}

func (v Value) fieldIndex(name string) (int, bool) {
	f := v.fields
	if len(f) <= 8 {
		for i := range f {
			if f[i].Name == name {
				return i, true
			}
		}
		return 0, false
	}
	lo, hi := 0, len(f)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f[m].Name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(f) && f[lo].Name == name {
		return lo, true
	}
	return 0, false
}

// Equal reports whether a and b are the same value: numbers are equal by
// value (1 equals 1.0), maps regardless of key order, lists item by item.
func Equal(a, b Value) bool {
	if a.kind == Float || b.kind == Float {
		if !a.IsNumber() || !b.IsNumber() {
			return false
		}
		return a.AsFloat() == b.AsFloat()
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Null:
		return true
	case Bool, Int:
		return a.bits == b.bits
	case String:
		return a.str == b.str
	case List:
		if len(a.items) != len(b.items) {
			return false
		}
		for i := range a.items {
			if !Equal(a.items[i], b.items[i]) {
				return false
			}
		}
		return true
	case Map:
		if len(a.fields) != len(b.fields) {
			return false
		}
		for i := range a.fields {
			if a.fields[i].Name != b.fields[i].Name || !Equal(a.fields[i].Value, b.fields[i].Value) {
				return false
			}
		}
		return true
	}
	return false
}

// rank orders kinds for Compare: numbers < strings < booleans < lists < maps < null.
func rank(k Kind) int {
	switch k {
	case Int, Float:
		return 0
	case String:
		return 1
	case Bool:
		return 2
	case List:
		return 3
	case Map:
		return 4
	}
	return 5
}

// Compare is a total order on values, the one structured-merge-diff uses:
// numbers < strings < booleans < lists < maps < null; numbers by value,
// strings bytewise, false < true, lists lexically, maps by their sorted keys.
// It returns -1, 0 or +1.
func Compare(a, b Value) int {
	ra, rb := rank(a.kind), rank(b.kind)
	if ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	switch a.kind {
	case Int, Float:
		if a.kind == Int && b.kind == Int {
			return cmp3(int64(a.bits), int64(b.bits))
		}
		return compareFloat(a.AsFloat(), b.AsFloat())
	case String:
		return strings.Compare(a.str, b.str)
	case Bool:
		return cmp3(a.bits, b.bits)
	case List:
		for i := 0; ; i++ {
			switch {
			case i >= len(a.items) && i >= len(b.items):
				return 0
			case i >= len(a.items):
				return -1
			case i >= len(b.items):
				return 1
			}
			if c := Compare(a.items[i], b.items[i]); c != 0 {
				return c
			}
		}
	case Map:
		return compareMaps(a.fields, b.fields)
	}
	return 0
}

// compareMaps walks the union of both maps' keys in order. The i-th key of the
// union decides when one map has run out of fields by count, when the key is
// missing on one side (that side is greater), or by comparing the values.
func compareMaps(a, b []Field) int {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	i, j, n := 0, 0, 0
	for i < len(a) || j < len(b) {
		var c int
		switch {
		case n == len(a):
			c = -1
		case n == len(b):
			c = 1
		case j >= len(b) || (i < len(a) && a[i].Name < b[j].Name):
			c = -1 // key only in a: b is missing it
			i++
		case i >= len(a) || b[j].Name < a[i].Name:
			c = 1 // key only in b
			j++
		default:
			c = Compare(a[i].Value, b[j].Value)
			i++
			j++
		}
		if c != 0 {
			return c
		}
		n++
	}
	return 0
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmp3[T int64 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Less reports whether Compare(a, b) < 0.
func Less(a, b Value) bool { return Compare(a, b) < 0 }

// Text formats v the way Kubernetes prints values inside field paths:
// strings quoted, numbers and booleans bare, lists as [a,b], maps as k=v pairs
// in key order, null as null.
func Text(v Value) string {
	var b strings.Builder
	writeText(&b, v)
	return b.String()
}

func writeText(b *strings.Builder, v Value) {
	switch v.kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.AsBool()))
	case Int:
		b.WriteString(strconv.FormatInt(int64(v.bits), 10))
	case Float:
		fmt.Fprint(b, v.AsFloat())
	case String:
		b.WriteString(strconv.Quote(v.str))
	case List:
		b.WriteByte('[')
		for i, it := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeText(b, it)
		}
		b.WriteByte(']')
	case Map:
		for _, f := range v.fields {
			b.WriteString(f.Name)
			b.WriteByte('=')
			writeText(b, f.Value)
		}
	}
}

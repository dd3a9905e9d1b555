package value

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/structmerge/structmerge/internal/valueown"
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
// Value is immutable; safe for concurrent use. Constructors copy the slices
// they are given and accessors yield elements, so no caller can change a
// value that others share.
type Value struct {
	_    [0]func() // not comparable with ==: use Equal
	kind Kind
	// n holds a bool (0/1), the bits of an int64 or a float64, or the
	// length of a string, list or map; a list's has uniformBit too when
	// its converter found each item alike to the one before it (of the
	// same kind; a map with the same names in order, whose values are
	// alike in turn; no list), so that a validator may check the first
	// item for all. The
	// bit is kept in n rather than in a field of its own: a struct of
	// more than four fields is kept in memory rather than in registers
	// by the compiler, which made converting an object 40% slower.
	n uint64
	// p points to the first byte of a string, the first item of a list
	// ([]Value) or the first field of a map ([]Field, sorted by name, names
	// unique); nil when the length is 0. Keeping one pointer and the length
	// makes a Value 24 bytes instead of the 80 of separate fields.
	p unsafe.Pointer
}

// sameNode reports whether a and b are the same node: the same kind and
// scalar, or the same stored string, list or map (not only equal ones).
func sameNode(a, b Value) bool { return a.kind == b.kind && a.n == b.n && a.p == b.p }

// str returns the string held by a String value ("" for other kinds).
func (v Value) str() string {
	if v.kind != String || v.p == nil {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.n))
}

// items returns the items of a List value (nil for other kinds).
func (v Value) items() []Value {
	if v.kind != List || v.p == nil {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), int(v.n&^uniformBit))
}

// fields returns the fields of a Map value (nil for other kinds).
func (v Value) fields() []Field {
	if v.kind != Map || v.p == nil {
		return nil
	}
	return unsafe.Slice((*Field)(v.p), int(v.n))
}

// bits returns the scalar payload of a Bool, Int or Float value.
func (v Value) bits() uint64 {
	switch v.kind {
	case Bool, Int, Float:
		return v.n
	}
	return 0
}

func stringValue(s string) Value {
	return Value{kind: String, n: uint64(len(s)), p: unsafe.Pointer(unsafe.StringData(s))}
}

// arenaString returns the bytes b as a string without copying them: b
// must be bytes of an arena that are never written again.
func arenaString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func listValue(items []Value) Value {
	if len(items) == 0 {
		return Value{kind: List}
	}
	return Value{kind: List, n: uint64(len(items)), p: unsafe.Pointer(unsafe.SliceData(items))}
}

// uniformBit is the bit of a list's n that marks it uniform; no length
// comes near it.
const uniformBit = 1 << 63

// uniformList is listValue for items each alike to the item before it.
func uniformList(items []Value) Value {
	v := listValue(items)
	if len(items) > 1 {
		v.n |= uniformBit
	}
	return v
}

// isUniform reports whether v is a list whose items were each found alike
// to the item before it when it was built.
func (v Value) isUniform() bool { return v.kind == List && v.n&uniformBit != 0 }

// mapValue builds a map from fields sorted by name with unique names.
func mapValue(fields []Field) Value {
	if len(fields) == 0 {
		return Value{kind: Map}
	}
	return Value{kind: Map, n: uint64(len(fields)), p: unsafe.Pointer(unsafe.SliceData(fields))}
}

// Field is one entry of a map value.
type Field struct {
	Name  string
	Value Value
}

func init() {
	valueown.Register(valueown.Funcs[Value, Field]{Map: ownMap, List: listValue, Fields: Value.fields, Items: Value.items, Uniform: Value.isUniform})
}

// NewNull returns the null value (the same as the zero Value).
func NewNull() Value { return Value{} }

// NewBool returns a boolean value.
func NewBool(b bool) Value {
	v := Value{kind: Bool}
	if b {
		v.n = 1
	}
	return v
}

// NewInt returns an integer value.
func NewInt(i int64) Value { return Value{kind: Int, n: uint64(i)} }

// NewFloat returns a floating-point value.
func NewFloat(f float64) Value { return Value{kind: Float, n: math.Float64bits(f)} }

// NewString returns a string value.
func NewString(s string) Value { return stringValue(s) }

// NewList returns a list of a copy of items: the caller keeps the slice. A
// nil slice gives an empty list.
func NewList(items []Value) Value { return listValue(slices.Clone(items)) }

// NewMap returns a map of a copy of fields, sorted by name; when a name
// occurs more than once the last occurrence wins. The caller keeps the
// slice, which NewMap does not modify. A nil slice gives an empty map.
// Decoders that must reject duplicate names check for them before calling
// NewMap.
func NewMap(fields []Field) Value { return ownMap(slices.Clone(fields)) }

// ownMap is NewMap on a slice it takes: it sorts the slice in place.
func ownMap(fields []Field) Value {
	if !fieldsSorted(fields) {
		slices.SortStableFunc(fields, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
		fields = dedupeLastWins(fields)
	}
	return mapValue(fields)
}

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
func (v Value) AsBool() bool { return v.kind == Bool && v.n != 0 }

// AsInt returns the integer held by v; a float is truncated; other kinds give 0.
func (v Value) AsInt() int64 {
	switch v.kind {
	case Int:
		return int64(v.n)
	case Float:
		return int64(math.Float64frombits(v.n))
	}
	return 0
}

// AsFloat returns the number held by v as a float64; other kinds give 0.
func (v Value) AsFloat() float64 {
	switch v.kind {
	case Int:
		return float64(int64(v.n))
	case Float:
		return math.Float64frombits(v.n)
	}
	return 0
}

// AsString returns the string held by v, or "" if v is not a string.
func (v Value) AsString() string { return v.str() }

// Len returns the number of items of a list or fields of a map, else 0.
func (v Value) Len() int {
	switch v.kind {
	case List, Map:
		return int(v.n &^ uniformBit)
	}
	return 0
}

// Items yields the position and the value of each item of a list, in
// order (nothing for other kinds): for i, item := range v.Items().
func (v Value) Items() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		for i, it := range v.items() {
			if !yield(i, it) {
				return
			}
		}
	}
}

// Index returns item i of a list. It panics if i is out of range, like a slice.
func (v Value) Index(i int) Value { return v.items()[i] }

// Fields yields the position and each field of a map, sorted by name
// (nothing for other kinds): for i, f := range v.Fields().
func (v Value) Fields() iter.Seq2[int, Field] {
	return func(yield func(int, Field) bool) {
		for i, f := range v.fields() {
			if !yield(i, f) {
				return
			}
		}
	}
}

// FieldAt returns field i of a map in the order of Fields. It panics if i
// is out of range, like a slice.
func (v Value) FieldAt(i int) Field { return v.fields()[i] }

// Get returns the field of a map with the given name.
func (v Value) Get(name string) (Value, bool) {
	i, ok := v.fieldIndex(name)
	if !ok {
		return Value{}, false
	}
	return v.fields()[i].Value, true
}

// FieldIndex returns the position in Fields of the field of a map with the
// given name.
func (v Value) FieldIndex(name string) (int, bool) { return v.fieldIndex(name) }

// Has reports whether a map has a field with the given name.
func (v Value) Has(name string) bool {
	_, ok := v.fieldIndex(name)
	return ok
}

func (v Value) fieldIndex(name string) (int, bool) {
	f := v.fields()
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

// Same reports whether a and b are the same node: the same scalar, or
// lists, maps or strings sharing one backing array. Same values are Equal;
// operations that share unchanged subtrees with their inputs use it to skip
// work. It costs no more than comparing three words.
func Same(a, b Value) bool {
	return a.kind == b.kind && a.n == b.n && a.p == b.p
}

// Equal reports whether a and b are the same value: numbers are equal by
// value (1 equals 1.0), maps regardless of key order, lists item by item.
func Equal(a, b Value) bool {
	if Same(a, b) {
		return true
	}
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
		return a.n == b.n
	case String:
		return a.str() == b.str()
	case List:
		ai, bi := a.items(), b.items()
		if len(ai) != len(bi) {
			return false
		}
		for i := range ai {
			if !Equal(ai[i], bi[i]) {
				return false
			}
		}
		return true
	case Map:
		af, bf := a.fields(), b.fields()
		if len(af) != len(bf) {
			return false
		}
		for i := range af {
			if af[i].Name != bf[i].Name || !Equal(af[i].Value, bf[i].Value) {
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
			return cmp3(int64(a.n), int64(b.n))
		}
		return compareFloat(a.AsFloat(), b.AsFloat())
	case String:
		return strings.Compare(a.str(), b.str())
	case Bool:
		return cmp3(a.n, b.n)
	case List:
		ai, bi := a.items(), b.items()
		for i := 0; ; i++ {
			switch {
			case i >= len(ai) && i >= len(bi):
				return 0
			case i >= len(ai):
				return -1
			case i >= len(bi):
				return 1
			}
			if c := Compare(ai[i], bi[i]); c != 0 {
				return c
			}
		}
	case Map:
		return compareMaps(a.fields(), b.fields())
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
		b.WriteString(strconv.FormatInt(int64(v.n), 10))
	case Float:
		fmt.Fprint(b, v.AsFloat())
	case String:
		b.WriteString(strconv.Quote(v.str()))
	case List:
		b.WriteByte('[')
		for i, it := range v.items() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeText(b, it)
		}
		b.WriteByte(']')
	case Map:
		for _, f := range v.fields() {
			b.WriteString(f.Name)
			b.WriteByte('=')
			writeText(b, f.Value)
		}
	}
}

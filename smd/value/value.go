package value

import (
	"cmp"
	"fmt"
	"strings"
)

// Value is a node of a value tree. Exactly one of the Is methods reports
// true for a well-formed value; the matching As method returns its content
// and the other As methods panic.
type Value interface {
	// IsMap reports whether the value is a map.
	IsMap() bool
	// IsList reports whether the value is a list.
	IsList() bool
	// IsBool reports whether the value is a boolean.
	IsBool() bool
	// IsInt reports whether the value is an integer.
	IsInt() bool
	// IsFloat reports whether the value is a floating-point number.
	IsFloat() bool
	// IsString reports whether the value is a string.
	IsString() bool
	// IsNull reports whether the value is null.
	IsNull() bool
	// AsMap returns the map; it panics if the value is not one.
	AsMap() Map
	// AsMapUsing is AsMap with an allocator.
	AsMapUsing(Allocator) Map
	// AsList returns the list; it panics if the value is not one.
	AsList() List
	// AsListUsing is AsList with an allocator.
	AsListUsing(Allocator) List
	// AsBool returns the boolean; it panics if the value is not one.
	AsBool() bool
	// AsInt returns the integer; it panics if the value is not one.
	AsInt() int64
	// AsFloat returns the number; it panics if the value is not a float.
	AsFloat() float64
	// AsString returns the string; it panics if the value is not one.
	AsString() string
	// Unstructured returns the value as plain Go data.
	Unstructured() interface{}
}

// NewValueInterface views v, plain Go data of the unstructured form, as a
// Value. The Value refers to v; it does not copy it.
func NewValueInterface(v interface{}) Value {
	return anyValue{v}
}

// anyValue is a Value over unstructured Go data.
type anyValue struct{ v interface{} }

func (a anyValue) IsMap() bool {
	switch a.v.(type) {
	case map[string]interface{}, map[interface{}]interface{}:
		return true
	}
	return false
}

func (a anyValue) IsList() bool {
	_, ok := a.v.([]interface{})
	return ok
}

func (a anyValue) IsBool() bool {
	_, ok := a.v.(bool)
	return ok
}

func (a anyValue) IsInt() bool {
	switch a.v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32:
		return true
	}
	return false
}

func (a anyValue) IsFloat() bool {
	switch a.v.(type) {
	case float64, float32:
		return true
	}
	return false
}

func (a anyValue) IsString() bool {
	_, ok := a.v.(string)
	return ok
}

func (a anyValue) IsNull() bool { return a.v == nil }

func (a anyValue) AsMap() Map { return a.AsMapUsing(HeapAllocator) }

func (a anyValue) AsMapUsing(Allocator) Map {
	switch m := a.v.(type) {
	case map[string]interface{}:
		return stringMap(m)
	case map[interface{}]interface{}:
		return anyMap(m)
	case nil:
		panic("value: AsMap of null")
	}
	panic(fmt.Errorf("value: AsMap of a %T, not a map", a.v))
}

func (a anyValue) AsList() List { return a.AsListUsing(HeapAllocator) }

func (a anyValue) AsListUsing(Allocator) List {
	return anyList(a.v.([]interface{}))
}

func (a anyValue) AsBool() bool { return a.v.(bool) }

func (a anyValue) AsInt() int64 {
	switch n := a.v.(type) {
	case int:
		return int64(n)
	case int8:
		return int64(n)
	case int16:
		return int64(n)
	case int32:
		return int64(n)
	case uint:
		return int64(n)
	case uint8:
		return int64(n)
	case uint16:
		return int64(n)
	case uint32:
		return int64(n)
	}
	return a.v.(int64)
}

func (a anyValue) AsFloat() float64 {
	if f, ok := a.v.(float32); ok {
		return float64(f)
	}
	return a.v.(float64)
}

func (a anyValue) AsString() string { return a.v.(string) }

func (a anyValue) Unstructured() interface{} { return a.v }

// rank orders the kinds of values: numbers, strings, booleans, lists, maps,
// null. A value of no known kind ranks last.
func rank(v Value) int {
	switch {
	case v.IsFloat() || v.IsInt():
		return 0
	case v.IsString():
		return 1
	case v.IsBool():
		return 2
	case v.IsList():
		return 3
	case v.IsMap():
		return 4
	case v.IsNull():
		return 5
	}
	return 6
}

// number returns a numeric value as a float, and whether it was one.
func number(v Value) (float64, bool) {
	if v.IsFloat() {
		return v.AsFloat(), true
	}
	if v.IsInt() {
		return float64(v.AsInt()), true
	}
	return 0, false
}

// Equals reports whether lhs and rhs are the same value. An integer equals a
// float of the same numeric value.
func Equals(lhs, rhs Value) bool { return EqualsUsing(HeapAllocator, lhs, rhs) }

// EqualsUsing is Equals with an allocator.
func EqualsUsing(a Allocator, lhs, rhs Value) bool {
	if lhs.IsFloat() || rhs.IsFloat() {
		l, lok := number(lhs)
		r, rok := number(rhs)
		return lok && rok && l == r
	}
	rl, rr := rank(lhs), rank(rhs)
	if rl != rr {
		return false
	}
	switch rl {
	case 0:
		return lhs.AsInt() == rhs.AsInt()
	case 1:
		return lhs.AsString() == rhs.AsString()
	case 2:
		return lhs.AsBool() == rhs.AsBool()
	case 3:
		return ListEqualsUsing(a, lhs.AsListUsing(a), rhs.AsListUsing(a))
	case 4:
		return MapEqualsUsing(a, lhs.AsMapUsing(a), rhs.AsMapUsing(a))
	}
	return true
}

// Less reports whether lhs sorts before rhs in Compare's order.
func Less(lhs, rhs Value) bool { return Compare(lhs, rhs) == -1 }

// Compare orders values totally: numbers (compared numerically, integers and
// floats alike), then strings, booleans, lists, maps and null. It returns
// -1, 0 or 1.
func Compare(lhs, rhs Value) int { return CompareUsing(HeapAllocator, lhs, rhs) }

// CompareUsing is Compare with an allocator.
func CompareUsing(a Allocator, lhs, rhs Value) int {
	rl, rr := rank(lhs), rank(rhs)
	if rl != rr {
		if rl < rr {
			return -1
		}
		return 1
	}
	switch rl {
	case 0:
		if lhs.IsInt() && rhs.IsInt() {
			return IntCompare(lhs.AsInt(), rhs.AsInt())
		}
		l, _ := number(lhs)
		r, _ := number(rhs)
		return FloatCompare(l, r)
	case 1:
		return strings.Compare(lhs.AsString(), rhs.AsString())
	case 2:
		return BoolCompare(lhs.AsBool(), rhs.AsBool())
	case 3:
		return ListCompareUsing(a, lhs.AsListUsing(a), rhs.AsListUsing(a))
	case 4:
		return MapCompareUsing(a, lhs.AsMapUsing(a), rhs.AsMapUsing(a))
	}
	return 0
}

// FloatCompare returns -1, 0 or 1 as lhs is less than, equal to or greater
// than rhs.
func FloatCompare(lhs, rhs float64) int {
	switch {
	case lhs > rhs:
		return 1
	case lhs < rhs:
		return -1
	}
	return 0
}

// IntCompare returns -1, 0 or 1 as lhs is less than, equal to or greater
// than rhs.
func IntCompare(lhs, rhs int64) int { return cmp.Compare(lhs, rhs) }

// BoolCompare orders false before true.
func BoolCompare(lhs, rhs bool) int {
	switch {
	case lhs == rhs:
		return 0
	case !lhs:
		return -1
	}
	return 1
}

// ToString renders v in the compact form SMD uses in paths and messages:
// strings quoted, lists as [a,b], maps as k=v pairs in key order.
func ToString(v Value) string {
	var b strings.Builder
	writeString(&b, v)
	return b.String()
}

func writeString(b *strings.Builder, v Value) {
	switch {
	case v.IsNull():
		b.WriteString("null")
	case v.IsFloat():
		fmt.Fprintf(b, "%v", v.AsFloat())
	case v.IsInt():
		fmt.Fprintf(b, "%v", v.AsInt())
	case v.IsString():
		fmt.Fprintf(b, "%q", v.AsString())
	case v.IsBool():
		fmt.Fprintf(b, "%v", v.AsBool())
	case v.IsList():
		l := v.AsList()
		b.WriteByte('[')
		for i := range l.Length() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, l.At(i))
		}
		b.WriteByte(']')
	case v.IsMap():
		MapZip(v.AsMap(), nil, LexicalKeyOrder, func(k string, item, _ Value) bool {
			b.WriteString(k)
			b.WriteByte('=')
			writeString(b, item)
			return true
		})
	default:
		b.WriteString("{{undefined}}")
	}
}

package value

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Unstructured returns v as plain Go data, the form encoding/json decodes
// into an interface{} (except that integers are int64): nil, bool, int64,
// float64, string, []any and map[string]any. The result is newly allocated
// and owned by the caller; empty lists and maps are non-nil.
func (v Value) Unstructured() any {
	switch v.kind {
	case Bool:
		return v.n != 0
	case Int:
		return int64(v.n)
	case Float:
		return math.Float64frombits(v.n)
	case String:
		return v.str()
	case List:
		items := v.items()
		out := make([]any, len(items))
		for i := range items {
			out[i] = items[i].Unstructured()
		}
		return out
	case Map:
		fields := v.fields()
		out := make(map[string]any, len(fields))
		for i := range fields {
			out[fields[i].Name] = fields[i].Value.Unstructured()
		}
		return out
	}
	return nil
}

// Origin is a Value and the plain Go data FromUnstructured made it from,
// for UnstructuredFrom.
type Origin struct {
	Value Value
	Data  any
}

// UnstructuredFrom returns v as plain Go data, as Unstructured does, except
// that each part of v that is a part of an origin's Value at the same path
// (the same stored map, list or string, as an operation's result shares
// unchanged subtrees with its inputs) is that origin's Data there: the
// caller's own maps and lists, not copies. Only the parts of v that
// changed are allocated.
//
// The result therefore aliases the origins' Data: changing one changes the
// other, and a shared subtree keeps the Go types the caller put in it (an
// int stays an int, where Unstructured gives int64). Each origin's Data must
// be what its Value was converted from by FromUnstructured, unmodified
// since; a Data of another shape than its Value is not shared.
func (v Value) UnstructuredFrom(origins ...Origin) any {
	return unstructuredFrom(v, origins)
}

func unstructuredFrom(v Value, origins []Origin) any {
	if len(origins) == 0 {
		return v.Unstructured()
	}
	for _, o := range origins {
		if d, ok := o.reuse(v); ok {
			return d
		}
	}
	var buf [4]Origin
	switch v.kind {
	case Map:
		fields := v.fields()
		out := make(map[string]any, len(fields))
		for i := range fields {
			subs := buf[:0]
			for _, o := range origins {
				if s, ok := o.field(fields[i].Name); ok && len(subs) < len(buf) {
					subs = append(subs, s)
				}
			}
			out[fields[i].Name] = unstructuredFrom(fields[i].Value, subs)
		}
		return out
	case List:
		items := v.items()
		out := make([]any, len(items))
		for i := range items {
			subs := buf[:0]
			for _, o := range origins {
				if s, ok := o.item(i); ok && len(subs) < len(buf) {
					subs = append(subs, s)
				}
			}
			out[i] = unstructuredFrom(items[i], subs)
		}
		return out
	}
	return v.Unstructured()
}

// reuse returns o's Data when v is o's Value itself and Data has the Go
// type Unstructured would give it (an empty map or list is not reused: a
// nil one would encode as null).
func (o Origin) reuse(v Value) (any, bool) {
	if !sameNode(v, o.Value) {
		return nil, false
	}
	var ok bool
	switch v.kind {
	case Map:
		_, ok = o.Data.(map[string]any)
		ok = ok && v.n > 0
	case List:
		_, ok = o.Data.([]any)
		ok = ok && v.n > 0
	case String:
		_, ok = o.Data.(string)
	case Int:
		_, ok = o.Data.(int64)
	case Float:
		_, ok = o.Data.(float64)
	case Bool:
		_, ok = o.Data.(bool)
	}
	return o.Data, ok
}

// field returns the origin of the field name of o's map.
func (o Origin) field(name string) (Origin, bool) {
	m, ok := o.Data.(map[string]any)
	if !ok || o.Value.kind != Map {
		return Origin{}, false
	}
	fields := o.Value.fields()
	i, found := slices.BinarySearchFunc(fields, name, func(f Field, n string) int { return strings.Compare(f.Name, n) })
	if !found {
		return Origin{}, false
	}
	d, ok := m[name]
	if !ok {
		return Origin{}, false
	}
	return Origin{Value: fields[i].Value, Data: d}, true
}

// item returns the origin of item i of o's list.
func (o Origin) item(i int) (Origin, bool) {
	l, ok := o.Data.([]any)
	items := o.Value.items()
	if !ok || o.Value.kind != List || i >= len(items) || i >= len(l) || len(l) != len(items) {
		return Origin{}, false
	}
	return Origin{Value: items[i], Data: l[i]}, true
}

// FromUnstructured converts plain Go data to a Value. It accepts nil, bool,
// every integer kind (a uint64 above math.MaxInt64 is an error), float32 and
// float64 (NaN and infinities are errors), string, json.Number, []any,
// []map[string]any, []string, map[string]any, map[string]string,
// map[any]any with string keys, and Value. Anything else is an error that
// names the path (".spec.x") and the Go type, and so is nesting deeper than
// MaxDepth (DefaultMaxDepth unless given). With Like, the parts equal to
// the like value's are its own (see Like). x is not modified or retained.
func FromUnstructured(x any, opts ...DecodeOption) (Value, error) {
	cfg, err := resolveOptions(opts)
	if err != nil {
		return Value{}, err
	}
	c := unstructuredConverter{maxDepth: cfg.MaxDepth}
	v, ok := c.convertLike(x, cfg.Like.Value)
	if !ok && !c.ordered {
		// The quick conversion failed somewhere; the error reported is
		// the first in key order, which only the ordered conversion finds.
		c = unstructuredConverter{ordered: true, maxDepth: cfg.MaxDepth}
		v, ok = c.convert(x)
	}
	if !ok {
		msg := c.msg
		if path := unstructuredPath(c.segs); path != "" {
			msg = path + ": " + msg
		}
		if c.err != nil {
			return Value{}, fmt.Errorf("value: %s (%w)", msg, c.err)
		}
		return Value{}, errors.New("value: " + msg)
	}
	return v, nil
}

type unstructuredConverter struct {
	// ordered converts every map in key order (see stringMap).
	ordered bool
	// maxDepth bounds the nesting.
	maxDepth int

	msg   string
	err   error     // the kind of error (ErrTooDeep), or nil
	segs  []pathSeg // innermost first
	depth int

	// pairs is a stack of the entries of the maps being converted,
	// sorted by name before their values are converted.
	pairs []namedAny
	chunks
}

// namedAny is one entry of a Go map being converted.
type namedAny struct {
	name string
	x    any
}

// tooDeep fails on a list or map nested deeper than maxDepth (a list or
// map at the top is at depth 1, as in the decoders).
func (c *unstructuredConverter) tooDeep() (Value, bool) {
	c.err = ErrTooDeep
	return c.fail("nesting deeper than %d levels", c.maxDepth)
}

// scalarData reports whether x converts to a scalar, which adds no level.
func scalarData(x any) bool {
	switch x.(type) {
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, json.Number:
		return true
	}
	return false
}

func (c *unstructuredConverter) fail(format string, args ...any) (Value, bool) {
	c.msg = fmt.Sprintf(format, args...)
	return Value{}, false
}

func unstructuredPath(segs []pathSeg) string {
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i].index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(segs[i].index))
			b.WriteByte(']')
		} else {
			b.WriteByte('.')
			b.WriteString(segs[i].name)
		}
	}
	return b.String()
}

// convert converts x, refusing nesting deeper than maxDepth (which also
// stops a map or slice that contains itself).
func (c *unstructuredConverter) convert(x any) (Value, bool) {
	if s, isString := x.(string); isString {
		return NewString(s), true // the most common entry, before the switch
	}
	if c.depth >= c.maxDepth && !scalarData(x) {
		return c.tooDeep()
	}
	c.depth++
	v, ok := c.convertAt(x)
	c.depth--
	return v, ok
}

func (c *unstructuredConverter) convertAt(x any) (Value, bool) {
	switch x := x.(type) {
	case nil:
		return Value{}, true
	case Value:
		return x, true
	case bool:
		return NewBool(x), true
	case string:
		return NewString(x), true
	case int:
		return NewInt(int64(x)), true
	case int8:
		return NewInt(int64(x)), true
	case int16:
		return NewInt(int64(x)), true
	case int32:
		return NewInt(int64(x)), true
	case int64:
		return NewInt(x), true
	case uint:
		return c.uint(uint64(x))
	case uint8:
		return NewInt(int64(x)), true
	case uint16:
		return NewInt(int64(x)), true
	case uint32:
		return NewInt(int64(x)), true
	case uint64:
		return c.uint(x)
	case uintptr:
		return c.uint(uint64(x))
	case float32:
		return c.float(float64(x))
	case float64:
		return c.float(x)
	case json.Number:
		return c.number(x)
	case []any:
		return shapedList(c, x, Value{})
	case []string:
		if len(x) == 0 {
			return Value{kind: List}, true
		}
		items := c.AllocItems(len(x))
		for i := range x {
			items[i] = NewString(x[i])
		}
		return listValue(items), true
	case []map[string]any:
		return shapedList(c, x, Value{})
	case map[string]any:
		return c.stringMap(x)
	case map[string]string:
		fields := c.AllocFields(len(x))[:0]
		for k, s := range x {
			fields = fields[:len(fields)+1]
			fields[len(fields)-1].Name, fields[len(fields)-1].Value = k, NewString(s)
		}
		sortFields(fields)
		return mapValue(fields), true
	case map[any]any:
		return c.anyMap(x)
	}
	return c.fail("unsupported type %T", x)
}

// shapedList converts the items of l, each shaped like the one before it
// (see convertShaped); the first like guide's first item, when guide is a
// list too (the same place in the item before the one l is in). It serves
// []any and []map[string]any. The list is uniform when each item after
// the first is alike to the one before it.
func shapedList[T any](c *unstructuredConverter, l []T, guide Value) (Value, bool) {
	if len(l) == 0 {
		return Value{kind: List}, true
	}
	items := c.AllocItems(len(l))
	var shape Value
	if gi := guide.items(); len(gi) > 0 {
		shape = gi[0]
	}
	uniform := true
	for i := range l {
		v, ok, same := c.convertShaped(l[i], shape)
		if !ok {
			c.segs = append(c.segs, pathSeg{index: i})
			return Value{}, false
		}
		uniform = uniform && (same || i == 0)
		items[i], shape = v, v
	}
	if uniform {
		return uniformList(items), true
	}
	return listValue(items), true
}

// convertShaped converts x as convert does, expecting it to have the
// shape of shape, the value converted before it at the same place of the
// list item before (the items of a list mostly have the same keys): a map
// with shape's keys is read by looking them up, in their order, rather
// than by iterating it (which starts at a random place, a call to the
// random number generator per map) and sorting its keys. A map of other
// keys is converted as convert does. The result is convert's, and whether
// it is alike to shape (see alike), as far as the conversion saw: a false
// same says nothing.
func (c *unstructuredConverter) convertShaped(x any, shape Value) (v Value, ok, same bool) {
	if c.ordered {
		v, ok = c.convert(x)
		return v, ok, false
	}
	switch shape.kind {
	case Map:
		if m, isMap := x.(map[string]any); isMap && len(m) == len(shape.fields()) && len(m) <= smallMap {
			if c.depth >= c.maxDepth {
				v, ok = c.tooDeep()
				return v, ok, false
			}
			c.depth++
			v, ok, hit, same := c.shapedMap(m, shape.fields())
			c.depth--
			if hit {
				return v, ok, same
			}
		}
	case List:
		if l, isList := x.([]any); isList {
			if c.depth >= c.maxDepth {
				v, ok = c.tooDeep()
				return v, ok, false
			}
			c.depth++
			v, ok = shapedList(c, l, shape)
			c.depth--
			return v, ok, false
		}
	}
	v, ok = c.convert(x)
	return v, ok, v.kind == shape.kind && v.kind != Map && v.kind != List
}

// shapedMap converts m if its keys are the names of sf, a small map's
// fields (hit false, and nothing converted, when they are not): each entry
// shaped like sf's. same reports that the map is alike to sf's map.
func (c *unstructuredConverter) shapedMap(m map[string]any, sf []Field) (v Value, ok, hit, same bool) {
	var xs [smallMap]any
	for i := range sf {
		x, found := m[sf[i].Name]
		if !found {
			return Value{}, false, false, false
		}
		xs[i] = x
	}
	// m has len(sf) keys, and each name of sf is one: they are its keys,
	// in order.
	fields := c.AllocFields(len(sf))
	same = true
	for i := range sf {
		// A string, the most common entry, without the calls and the
		// type switch of convert.
		if s, isString := xs[i].(string); isString {
			fields[i].Name, fields[i].Value = sf[i].Name, NewString(s)
			same = same && sf[i].Value.kind == String
			continue
		}
		v, ok, sameField := c.convertShaped(xs[i], sf[i].Value)
		if !ok {
			return Value{}, false, true, false
		}
		fields[i].Name, fields[i].Value = sf[i].Name, v
		same = same && sameField
	}
	return mapValue(fields), true, true, same
}

// convertLike converts x as convert does, giving like, or like's parts,
// for what converts to a value equal to them (see Like).
func (c *unstructuredConverter) convertLike(x any, like Value) (Value, bool) {
	switch like.kind {
	case Map:
		if m, ok := x.(map[string]any); ok && len(m) > 0 {
			return c.nested(func() (Value, bool) { return c.stringMapLike(m, like) })
		}
	case List:
		if l, ok := x.([]any); ok && len(l) > 0 {
			return c.nested(func() (Value, bool) { return c.listLike(l, like) })
		}
	case String:
		if s, ok := x.(string); ok && s == like.str() {
			return like, true
		}
	}
	return c.convert(x)
}

// nested runs convert, one level deeper, as convert does.
func (c *unstructuredConverter) nested(convert func() (Value, bool)) (Value, bool) {
	if c.depth >= c.maxDepth {
		return c.tooDeep()
	}
	c.depth++
	v, ok := convert()
	c.depth--
	return v, ok
}

// stringMapLike is stringMap giving like when every entry of m converts
// to like's field of the same name (and m has no other). It reads m by
// looking up like's names in it, in like's (sorted) order, rather than by
// ranging over it: a lookup costs less than a step of map iteration plus a
// search of like's fields, and the fields come out sorted. While every
// entry so far is like's, nothing is written; the first that is not
// starts the fields (mapLikeFrom).
func (c *unstructuredConverter) stringMapLike(m map[string]any, like Value) (Value, bool) {
	lf := like.fields()
	j := 0
	if len(m) == len(lf) {
		for ; j < len(lf); j++ {
			x, found := m[lf[j].Name]
			if !found {
				break
			}
			v, ok := c.convertLike(x, lf[j].Value)
			if !ok {
				return Value{}, false
			}
			if !Same(v, lf[j].Value) {
				return c.mapLikeFrom(m, lf, j, v, true)
			}
		}
		if j == len(lf) {
			return like, true
		}
	}
	return c.mapLikeFrom(m, lf, j, Value{}, false)
}

// mapLikeFrom builds the map of m's entries converted like lf's fields of
// the same name, knowing that the first j of lf are m's entries as they
// are and, when first is set, that v is m's entry named lf[j].Name.
func (c *unstructuredConverter) mapLikeFrom(m map[string]any, lf []Field, j int, v Value, first bool) (Value, bool) {
	// A small map is gathered on the stack and copied to the heap once
	// (see stringMap).
	if len(m) <= smallMap {
		var small [smallMap]Field
		if !c.mapFieldsLike(small[:len(m)], m, lf, j, v, first) {
			return Value{}, false
		}
		fields := c.AllocFields(len(m))
		for i := range fields {
			putField(&fields[i], small[i])
		}
		return mapValue(fields), true
	}
	fields := c.AllocFields(len(m))
	if !c.mapFieldsLike(fields, m, lf, j, v, first) {
		return Value{}, false
	}
	return mapValue(fields), true
}

// mapFieldsLike fills fields, len(m) of them, sorted by name, from m's
// entries converted like lf's fields of the same name (see mapLikeFrom
// for j, v and first). Only when m has names lf lacks does it range over
// m for them, and sort.
func (c *unstructuredConverter) mapFieldsLike(fields []Field, m map[string]any, lf []Field, j int, v Value, first bool) bool {
	n := copy(fields, lf[:j])
	if first {
		fields[n].Name, fields[n].Value = lf[j].Name, v
		n++
		j++
	}
	for ; j < len(lf); j++ {
		x, found := m[lf[j].Name]
		if !found {
			continue
		}
		v, ok := c.convertLike(x, lf[j].Value)
		if !ok {
			return false
		}
		fields[n].Name, fields[n].Value = lf[j].Name, v
		n++
	}
	if n == len(m) {
		return true
	}
	like := mapValue(lf)
	for k, x := range m {
		if _, found := like.fieldIndex(k); found {
			continue
		}
		v, ok := c.convert(x)
		if !ok {
			return false
		}
		fields[n].Name, fields[n].Value = k, v
		n++
	}
	sortFieldsByName(fields)
	return true
}

// listLike converts the items of l, giving like when each converts to
// like's item at the same index (and l has no other). While every item so
// far is like's, nothing is written.
func (c *unstructuredConverter) listLike(l []any, like Value) (Value, bool) {
	li := like.items()
	i := 0
	if len(l) == len(li) {
		for ; i < len(li); i++ {
			v, ok := c.convertLike(l[i], li[i])
			if !ok {
				return Value{}, false
			}
			if !Same(v, li[i]) {
				return c.listLikeFrom(l, li, i, v)
			}
		}
		return like, true
	}
	return c.listLikeFrom(l, li, -1, Value{})
}

// listLikeFrom builds the list of l's items converted like li's items at
// the same index, knowing, when at >= 0, that the first at of li are l's
// items as they are and v is l[at] converted.
func (c *unstructuredConverter) listLikeFrom(l []any, li []Value, at int, v Value) (Value, bool) {
	items := c.AllocItems(len(l))
	i := 0
	if at >= 0 {
		i = copy(items, li[:at])
		items[i] = v
		i++
	}
	for ; i < len(l); i++ {
		var v Value
		var ok bool
		if i < len(li) {
			v, ok = c.convertLike(l[i], li[i])
		} else {
			v, ok = c.convert(l[i])
		}
		if !ok {
			return Value{}, false
		}
		items[i] = v
	}
	return listValue(items), true
}

// putField stores f at *dst a part at a time. A Field is five words, which
// the compiler copies as a block, and a block copy into the heap while the
// collector marks goes through runtime.wbMove, which reads the heap's
// pointer bitmap; the parts copy with the plain barriers of two pointers.
func putField(dst *Field, f Field) {
	dst.Name = f.Name
	dst.Value = f.Value
}

// appendField is append(fields, Field{Name: name, Value: v}), storing the
// new field a part at a time (see putField).
func appendField(fields []Field, name string, v Value) []Field {
	fields = slices.Grow(fields, 1)[:len(fields)+1]
	f := &fields[len(fields)-1]
	f.Name, f.Value = name, v
	return fields
}

func sortFields(fields []Field) {
	slices.SortFunc(fields, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
}

func (c *unstructuredConverter) uint(u uint64) (Value, bool) {
	if u > math.MaxInt64 {
		return c.fail("integer %d overflows int64", u)
	}
	return NewInt(int64(u)), true
}

func (c *unstructuredConverter) float(f float64) (Value, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return c.fail("unsupported float value %v", f)
	}
	return NewFloat(f), true
}

func (c *unstructuredConverter) number(n json.Number) (Value, bool) {
	s := string(n)
	if s == "" || isJSONSpace(s[0]) || isJSONSpace(s[len(s)-1]) {
		return c.fail("invalid json.Number %q", s)
	}
	v, err := FromJSON([]byte(s))
	if err != nil || !v.IsNumber() {
		return c.fail("invalid json.Number %q", string(n))
	}
	return v, true
}

// stringMap converts the entries in Go's map order straight into the
// map's fields and sorts those. A failure is reported for the first failing
// entry in key order, whatever the map order: after a failure anywhere,
// FromUnstructured converts the whole input again in order (c.ordered),
// once, with orderedStringMap.
func (c *unstructuredConverter) stringMap(m map[string]any) (Value, bool) {
	if len(m) == 0 {
		return Value{kind: Map}, true
	}
	if c.ordered {
		return c.orderedStringMap(m)
	}
	// A small map is gathered on the stack, sorted there as indexes, and
	// written to the heap once, in order: moving fields around in heap
	// memory costs a write barrier per move while the collector runs. The
	// stack array is cleared on each use, so a map of a few entries gets
	// a small one.
	if len(m) <= tinyMap {
		var small [tinyMap]Field
		return c.smallMapFields(small[:len(m)], m)
	}
	if len(m) <= smallMap {
		var small [smallMap]Field
		return c.smallMapFields(small[:len(m)], m)
	}
	fields := c.AllocFields(len(m))
	if !c.mapFields(fields, m) {
		return Value{}, false
	}
	return mapValue(fields), true
}

// smallMapFields converts m into fields gathered in small, on the
// caller's stack, and copies them to the heap in name order (smallOrder).
func (c *unstructuredConverter) smallMapFields(small []Field, m map[string]any) (Value, bool) {
	i := 0
	for k, x := range m {
		v, ok := c.convert(x)
		if !ok {
			return Value{}, false
		}
		small[i].Name, small[i].Value = k, v
		i++
	}
	order := smallOrder(small)
	fields := c.AllocFields(len(small))
	for i := range fields {
		putField(&fields[i], small[order[i]])
	}
	return mapValue(fields), true
}

// mapFields converts the entries of m into fields, sorted by name.
func (c *unstructuredConverter) mapFields(fields []Field, m map[string]any) bool {
	i := 0
	for k, x := range m {
		v, ok := c.convert(x)
		if !ok {
			return false
		}
		fields[i].Name, fields[i].Value = k, v
		i++
	}
	sortFieldsByName(fields)
	return true
}

// smallMap is the size up to which stringMap sorts on the stack;
// tinyMap that of its smaller stack array.
const (
	smallMap = 12
	tinyMap  = 4
)

// sortFieldsByName sorts the fields of a map being built; most maps are
// small, and an insertion sort with the string comparison inline beats the
// general sort there.
func sortFieldsByName(fields []Field) {
	if len(fields) > smallMap {
		sortFields(fields)
		return
	}
	for i := 1; i < len(fields); i++ {
		for j := i; j > 0 && nameLess(fields[j].Name, fields[j-1].Name); j-- {
			f := fields[j]
			putField(&fields[j], fields[j-1])
			putField(&fields[j-1], f)
		}
	}
}

// smallOrder returns the indexes of fields, at most smallMap of them, in
// name order, sorted by insertion as bytes: the sort moves no fields.
func smallOrder(fields []Field) (order [smallMap]uint8) {
	for i := range fields {
		order[i] = uint8(i)
		for j := i; j > 0 && nameLess(fields[i].Name, fields[order[j-1]].Name); j-- {
			order[j], order[j-1] = order[j-1], uint8(i)
		}
	}
	return order
}

// nameLess is a < b, deciding by the first bytes inline when they differ
// (the names of a map mostly do), where the string comparison is a call.
func nameLess(a, b string) bool {
	if a != "" && b != "" && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}

// orderedStringMap converts the values in key order so that the first
// error found does not depend on Go's map iteration order. The entries are
// read once, onto the pairs stack, and sorted there.
func (c *unstructuredConverter) orderedStringMap(m map[string]any) (Value, bool) {
	base := len(c.pairs)
	for k, x := range m {
		c.pairs = append(c.pairs, namedAny{k, x})
	}
	return c.sortedPairs(base)
}

// sortedPairs converts the entries of c.pairs from base on, sorted by
// name, into a map value, and pops them.
func (c *unstructuredConverter) sortedPairs(base int) (Value, bool) {
	slices.SortFunc(c.pairs[base:], func(a, b namedAny) int { return strings.Compare(a.name, b.name) })
	n := len(c.pairs) - base
	fields := c.AllocFields(n)
	for i := range n {
		// Converting a value pushes onto c.pairs, which may move it:
		// index it afresh each time.
		p := c.pairs[base+i]
		v, ok := c.convert(p.x)
		if !ok {
			c.segs = append(c.segs, pathSeg{name: p.name, index: -1})
			clear(c.pairs[base:])
			c.pairs = c.pairs[:base]
			return Value{}, false
		}
		fields[i].Name, fields[i].Value = p.name, v
	}
	clear(c.pairs[base:])
	c.pairs = c.pairs[:base]
	return mapValue(fields), true
}

func (c *unstructuredConverter) anyMap(m map[any]any) (Value, bool) {
	base := len(c.pairs)
	var badKeys []string
	for k, x := range m {
		s, ok := k.(string)
		if !ok {
			badKeys = append(badKeys, fmt.Sprintf("%T %v", k, k))
			continue
		}
		c.pairs = append(c.pairs, namedAny{s, x})
	}
	if len(badKeys) > 0 {
		clear(c.pairs[base:])
		c.pairs = c.pairs[:base]
		slices.Sort(badKeys)
		return c.fail("unsupported map key of type %s", badKeys[0])
	}
	if len(c.pairs) == base {
		return Value{kind: Map}, true
	}
	return c.sortedPairs(base)
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

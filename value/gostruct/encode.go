package gostruct

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// structEncoder converts Go values to Values; it belongs to one call.
type structEncoder struct {
	chunks
	maxDepth int        // the nesting bound
	keep     []int32    // the indexes of the fields kept, of the structs being converted
	entries  []mapEntry // the entries of the maps being converted
	segs     []goSeg    // the path to an error, innermost first
	depth    int
	msg      string
	err      error       // a sentinel for the error, or nil
	dynamic  planBuilder // plans of the dynamic types of interfaces, for this call
	json     any         // decodes what types that marshal themselves give (see codec.JSON)
}

// mapEntry is one entry of a Go map being converted.
type mapEntry struct {
	name string
	v    reflect.Value
}

func (e *structEncoder) fail(format string, args ...any) (value.Value, bool) {
	e.msg = fmt.Sprintf(format, args...)
	return value.Value{}, false
}

func (e *structEncoder) error(t reflect.Type) error {
	return &Error{Type: t, Path: goPath(e.segs), Msg: e.msg, Err: e.err}
}

// value converts rv, planned by p; like is the part of the like value at
// the same path (null when there is none): a part that converts to
// exactly like is like itself (see value.Like). orig, when valid, is
// the origin's Go value at the same place, of rv's type, which like is
// the conversion of where it is not null (see value.LikeOrigin).
func (e *structEncoder) value(p *goPlan, rv, orig reflect.Value, like value.Value) (value.Value, bool) {
	switch p.kind {
	case goBool:
		return value.NewBool(rv.Bool()), true
	case goInt:
		return value.NewInt(rv.Int()), true
	case goUint:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return e.fail("integer %d overflows int64", u)
		}
		return value.NewInt(int64(u)), true
	case goFloat:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return e.fail("unsupported float value %v", f)
		}
		return value.NewFloat(f), true
	case goString:
		return sharedString(rv.String(), like), true
	case goBytes:
		if rv.IsNil() {
			return value.Value{}, true
		}
		return sharedString(base64.StdEncoding.EncodeToString(rv.Bytes()), like), true
	}
	if e.depth >= e.maxDepth {
		e.err = value.ErrTooDeep
		return e.fail("nesting deeper than %d levels (%v)", e.maxDepth, value.ErrTooDeep)
	}
	e.depth++
	v, ok := e.container(p, rv, orig, like)
	e.depth--
	return v, ok
}

// nextLike finds name among like's fields lf, sorted by name, from j on,
// the names before it being smaller: it returns the field's value and the
// position after it, or null and -1 minus the position of the first field
// with a larger name when there is none.
func nextLike(lf []value.Field, j int, name string) (value.Value, int) {
	for j < len(lf) && lf[j].Name < name {
		j++
	}
	if j < len(lf) && lf[j].Name == name {
		return lf[j].Value, j + 1
	}
	return value.Value{}, -j - 1
}

// sharedString is like when it holds s, else s as a new value.
func sharedString(s string, like value.Value) value.Value {
	if like.Kind() == value.String && like.AsString() == s {
		return like
	}
	return value.NewString(s)
}

func (e *structEncoder) container(p *goPlan, rv, orig reflect.Value, like value.Value) (value.Value, bool) {
	switch p.kind {
	case goPointer:
		if rv.IsNil() {
			return value.Value{}, true
		}
		ep, ok := e.elemPlan(p)
		if !ok {
			return value.Value{}, false
		}
		if orig.IsValid() && !orig.IsNil() {
			orig = orig.Elem()
		} else {
			orig = reflect.Value{}
		}
		return e.value(ep, rv.Elem(), orig, like)
	case goInterface:
		if rv.IsNil() {
			return value.Value{}, true
		}
		dv := rv.Elem()
		dp, ok := e.planOf(dv.Type())
		if !ok {
			return value.Value{}, false
		}
		if orig.IsValid() && !orig.IsNil() && orig.Elem().Type() == dv.Type() {
			orig = orig.Elem()
		} else {
			orig = reflect.Value{}
		}
		return e.value(dp, dv, orig, like)
	case goSlice, goArray:
		if p.kind == goSlice && rv.IsNil() {
			return value.Value{}, true
		}
		n := rv.Len()
		if n == 0 {
			return emptyList, true
		}
		ep, ok := e.elemPlan(p)
		if !ok {
			return value.Value{}, false
		}
		// The list is like itself when each item is like's at its index:
		// then nothing was taken from the arenas after items (each shared
		// item gave its own back), and items goes back too.
		saved := e.ItemArena
		items := e.AllocItems(n)
		li := own.Items(like)
		same := like.Kind() == value.List && len(li) == n
		on := 0 // the origin's items
		if orig.IsValid() {
			on = orig.Len()
		}
		for i := range n {
			var lv value.Value
			if i < len(li) {
				lv = li[i]
			}
			var oi reflect.Value
			if i < on {
				oi = orig.Index(i)
			}
			v, ok := e.value(ep, rv.Index(i), oi, lv)
			if !ok {
				e.segs = append(e.segs, goSeg{index: i})
				return value.Value{}, false
			}
			same = same && value.Same(v, lv)
			items[i] = v
		}
		if same {
			clear(items)
			e.GiveBackItems(saved, len(items))
			return like, true
		}
		return own.List(items), true
	case goMap:
		return e.goMap(p, rv, like) // (no origin inside a Go map)
	case goStruct:
		if orig.IsValid() && like.Kind() == value.Map && e.depth > 1 && structEqual(p, rv, orig, 0) {
			// Below the root (which an update always changes), a struct
			// equal in Go to the origin's converts to the origin's value:
			// comparing costs a fraction of converting.
			return like, true
		}
		return e.goStruct(p, rv, orig, like)
	case goCustom:
		return e.custom(p, rv, orig, like)
	}
	return e.fail("unsupported type %s", p.t)
}

func (e *structEncoder) goStruct(p *goPlan, rv, orig reflect.Value, like value.Value) (value.Value, bool) {
	// First the fields that are not left out, by index onto e.keep (no
	// pointers: no write barriers), then their values straight into the
	// map's fields.
	base := len(e.keep)
	var m structMem // read through reflect when rv is not addressable
	if rv.CanAddr() {
		m = structMemOf(rv)
	}
	for i := range p.fields {
		f := &p.fields[i]
		if m.p != nil && f.flat && !f.omitZero {
			if !f.omitEmpty {
				e.keep = append(e.keep, int32(i))
				continue
			}
			if empty, known := f.emptyIn(m); known {
				if !empty {
					e.keep = append(e.keep, int32(i))
				}
				continue
			}
		}
		fv, ok := fieldOf(rv, f.index)
		if !ok {
			continue // behind a nil embedded pointer
		}
		if f.omitEmpty && isEmptyValue(fv) || f.omitZero && isZeroValue(fv, f.zero) {
			continue
		}
		e.keep = append(e.keep, int32(i))
	}
	n := len(e.keep) - base
	if n == 0 {
		return emptyMap, true
	}
	// A small map's fields are gathered on the stack and copied to the
	// arena once, and only when the map is not like itself: writing them
	// one by one into heap memory costs a write barrier each while the
	// collector runs.
	if n <= smallMap {
		var small [smallMap]value.Field
		same, ok := e.structFields(small[:n], p, rv, m, orig, like, base)
		if !ok {
			return value.Value{}, false
		}
		if same {
			return like, true
		}
		fields := e.AllocFields(n)
		copy(fields, small[:n])
		return codec.SortedMap(fields), true
	}
	// The map is like itself when its fields are like's (see container).
	saved := e.FieldArena
	fields := e.AllocFields(n)
	same, ok := e.structFields(fields, p, rv, m, orig, like, base)
	if !ok {
		return value.Value{}, false
	}
	if same {
		clear(fields)
		e.GiveBackFields(saved, len(fields))
		return like, true
	}
	return codec.SortedMap(fields), true
}

// structFields converts the fields of rv kept on e.keep from base on into
// fields, pops them, and reports whether they are like's. m is rv's
// memory, its scalar fields are read from (none when rv is not
// addressable: all go through reflect).
func (e *structEncoder) structFields(fields []value.Field, p *goPlan, rv reflect.Value, m structMem, orig reflect.Value, like value.Value, base int) (same, ok bool) {
	defer func() { e.keep = e.keep[:base] }()
	lf := own.Fields(like)
	same = like.Kind() == value.Map && len(lf) == len(fields)
	j := 0 // like's fields, sorted by name as these are, up to this one's
	for k := range fields {
		f := &p.fields[e.keep[base+k]] // converting may move e.keep: index afresh
		var lv value.Value
		if lv, j = nextLike(lf, j, f.name); j < 0 {
			same, j = false, -j-1
		}
		var v value.Value
		read := false
		if m.p != nil && f.leaf.kind != memNone {
			v, read = e.leafIn(f, m, lv)
		}
		if !read {
			if v, ok = e.field(f, rv, orig, lv); !ok {
				e.segs = append(e.segs, goSeg{field: f.goName, index: -1})
				return false, false
			}
		}
		same = same && value.Same(v, lv)
		fields[k] = value.Field{Name: f.name, Value: v}
	}
	return same, true
}

// field converts the field f of rv through reflect, the field of orig at
// the same index being its origin.
func (e *structEncoder) field(f *goField, rv, orig reflect.Value, like value.Value) (value.Value, bool) {
	fv, _ := fieldOf(rv, f.index)
	fp := f.plan
	if fp == nil { // a lazy plan's field, met for the first time
		var ok bool
		if fp, ok = e.planOf(f.typ); !ok {
			return value.Value{}, false
		}
		f.plan = fp
	}
	var ofv reflect.Value
	if orig.IsValid() && !like.IsNull() {
		ofv, _ = fieldOf(orig, f.index)
	}
	return e.value(fp, fv, ofv, like)
}

// emptyIn is omitempty's test of f in m, its struct's memory; known is
// false when the test goes through reflect.
func (f *goField) emptyIn(m structMem) (empty, known bool) {
	switch f.mem.kind {
	case memBool:
		return !m.bool(f.offset), true
	case memInt:
		return m.int(f.offset, f.mem.size) == 0, true
	case memUint:
		return m.uint(f.offset, f.mem.size) == 0, true
	case memFloat:
		return m.float(f.offset, f.mem.size) == 0, true
	case memString:
		return m.string(f.offset) == "", true
	case memSlice:
		return m.sliceLen(f.offset) == 0, true
	case memPointer:
		return m.isNil(f.offset), true
	}
	return false, false
}

// leafIn reads the value of f, a scalar or a pointer to one
// (f.leaf), from m, its struct's memory; read is false when the field is
// left to the conversion through reflect (which reports what is wrong with
// it: a uint above math.MaxInt64, a float that is not a number, a pointer
// nested too deep).
func (e *structEncoder) leafIn(f *goField, m structMem, like value.Value) (v value.Value, read bool) {
	off := f.offset
	if f.mem.kind == memPointer {
		if e.depth >= e.maxDepth {
			return value.Value{}, false
		}
		if m.isNil(off) {
			return value.Value{}, true
		}
		m, off = m.elem(off), 0
	}
	switch r := f.leaf; r.kind {
	case memBool:
		return value.NewBool(m.bool(off)), true
	case memInt:
		return value.NewInt(m.int(off, r.size)), true
	case memUint:
		if u := m.uint(off, r.size); u <= math.MaxInt64 {
			return value.NewInt(int64(u)), true
		}
	case memFloat:
		if x := m.float(off, r.size); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return value.NewFloat(x), true
		}
	case memString:
		return sharedString(m.string(off), like), true
	}
	return value.Value{}, false
}

// planOf returns the plan of t from the call's lazy builder, whose plans
// belong to this conversion alone.
func (e *structEncoder) planOf(t reflect.Type) (*goPlan, bool) {
	if e.dynamic.plans == nil {
		e.dynamic = planBuilder{plans: map[reflect.Type]*goPlan{}, lazy: true}
	}
	p, err := e.dynamic.plan(t, "")
	if err != nil {
		e.fail("%s", err.(*Error).Msg)
		return nil, false
	}
	return p, true
}

// elemPlan returns the plan of p's element type, filling it in when p is
// a lazy plan of this call's (a Codec's plans always have it).
func (e *structEncoder) elemPlan(p *goPlan) (*goPlan, bool) {
	if p.elem != nil {
		return p.elem, true
	}
	ep, ok := e.planOf(p.t.Elem())
	if ok {
		p.elem = ep
	}
	return ep, ok
}

func (e *structEncoder) goMap(p *goPlan, rv reflect.Value, like value.Value) (value.Value, bool) {
	if rv.IsNil() {
		return value.Value{}, true
	}
	if rv.Len() == 0 {
		return emptyMap, true
	}
	lf := own.Fields(like)
	same := like.Kind() == value.Map && len(lf) == rv.Len()
	saved := e.FieldArena
	if p.stringMap {
		m := rv.Interface().(map[string]string)
		if len(m) <= smallMap {
			var small [smallMap]value.Field
			return e.smallStringMap(small[:0], m, like)
		}
		fields := e.AllocFields(len(m))[:0]
		for k, s := range m {
			fields = append(fields, value.Field{Name: k, Value: value.NewString(s)})
		}
		sortFields(fields)
		j := 0
		for i := range fields {
			var lv value.Value
			if lv, j = nextLike(lf, j, fields[i].Name); j < 0 {
				same, j = false, -j-1
			} else if lv.Kind() == value.String && lv.AsString() == fields[i].Value.AsString() {
				fields[i].Value = lv
			} else {
				same = false
			}
		}
		if same {
			clear(fields)
			e.GiveBackFields(saved, len(fields))
			return like, true
		}
		return codec.SortedMap(fields), true
	}
	ep, ok := e.elemPlan(p)
	if !ok {
		return value.Value{}, false
	}
	base := len(e.entries)
	it := rv.MapRange()
	for it.Next() {
		name, err := keyName(p.key, it.Key())
		if err != nil {
			clear(e.entries[base:])
			e.entries = e.entries[:base]
			return e.fail("map key %v: %v", it.Key(), err)
		}
		e.entries = append(e.entries, mapEntry{name, it.Value()})
	}
	sortEntries(e.entries[base:])
	n := len(e.entries) - base
	j := 0 // like's fields, sorted by name as the entries are
	saved = e.FieldArena
	fields := e.AllocFields(n)
	for i := range n {
		en := e.entries[base+i] // converting may move e.entries: index afresh
		var lv value.Value
		if lv, j = nextLike(lf, j, en.name); j < 0 {
			same, j = false, -j-1
		}
		v, ok := e.value(ep, en.v, reflect.Value{}, lv)
		same = same && ok && value.Same(v, lv)
		if !ok {
			e.segs = append(e.segs, goSeg{key: strconv.Quote(en.name), index: -1})
			clear(e.entries[base:])
			e.entries = e.entries[:base]
			return value.Value{}, false
		}
		fields[i] = value.Field{Name: en.name, Value: v}
	}
	clear(e.entries[base:])
	e.entries = e.entries[:base]
	if i, dup := duplicateName(fields); dup {
		return e.fail("two map keys both give the name %q", fields[i].Name)
	}
	if same {
		clear(fields)
		e.GiveBackFields(saved, len(fields))
		return like, true
	}
	return codec.SortedMap(fields), true
}

// duplicateName reports a name given by two keys of a map (two
// TextMarshaler keys may give the same text).
func duplicateName(fields []value.Field) (int, bool) {
	for i := 1; i < len(fields); i++ {
		if fields[i].Name == fields[i-1].Name {
			return i, true
		}
	}
	return 0, false
}

func keyName(k keyKind, key reflect.Value) (string, error) {
	switch k {
	case keyString:
		return key.String(), nil
	case keyInt:
		return strconv.FormatInt(key.Int(), 10), nil
	case keyUint:
		return strconv.FormatUint(key.Uint(), 10), nil
	}
	b, err := addressable(key).Addr().Interface().(encoding.TextMarshaler).MarshalText()
	return string(b), err
}

func (e *structEncoder) custom(p *goPlan, rv, orig reflect.Value, like value.Value) (value.Value, bool) {
	if orig.IsValid() && !like.IsNull() && goEqual(rv, orig, 0) {
		return like, true // the origin's value converts to like
	}
	ptr := addressable(rv).Addr().Interface()
	switch {
	case p.toUnstructured:
		x := ptr.(unstructuredMarshaler).ToUnstructured()
		if s, ok := x.(string); ok {
			return sharedString(s, like), true
		}
		v, ok, msg, sentinel := codec.Unstructured(x, like, e.maxDepth)
		if !ok {
			e.err = sentinel
			return e.fail("ToUnstructured of %s: %s", p.t, msg)
		}
		return v, true
	case p.marshalJSON:
		b, err := ptr.(json.Marshaler).MarshalJSON()
		if err != nil {
			return e.fail("MarshalJSON of %s: %v", p.t, err)
		}
		v, err := e.fromJSON(b, like)
		if err != nil {
			return e.fail("MarshalJSON of %s: %v", p.t, err)
		}
		return v, true
	case p.marshalText:
		b, err := ptr.(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return e.fail("MarshalText of %s: %v", p.t, err)
		}
		return sharedString(string(b), like), true
	}
	return e.value(p.base, rv, orig, like)
}

// fromJSON decodes the JSON a type marshalled itself to as value.FromJSON
// does, with the conversion's arenas and one decoder for all such values.
func (e *structEncoder) fromJSON(b []byte, like value.Value) (value.Value, error) {
	v, dec, c, err := codec.JSON(e.json, b, like, e.chunks)
	e.json, e.chunks = dec, c
	return v, err
}

// smallStringMap converts m, a map[string]string of up to smallMap
// entries, gathering its fields in small, on the caller's stack, in name
// order (smallOrder): like itself when they are like's fields,
// else a map written to the arena once, with like's values where equal.
func (e *structEncoder) smallStringMap(small []value.Field, m map[string]string, like value.Value) (value.Value, bool) {
	for k, s := range m {
		small = append(small, value.Field{Name: k, Value: value.NewString(s)})
	}
	order := smallOrder(small)
	lf := own.Fields(like)
	same := like.Kind() == value.Map && len(lf) == len(small)
	j := 0
	for i := range small {
		f := &small[order[i]]
		var lv value.Value
		if lv, j = nextLike(lf, j, f.Name); j < 0 {
			same, j = false, -j-1
		} else if lv.Kind() == value.String && lv.AsString() == f.Value.AsString() {
			f.Value = lv
		} else {
			same = false
		}
	}
	if same {
		return like, true
	}
	fields := e.AllocFields(len(small))
	for i := range fields {
		fields[i] = small[order[i]]
	}
	return codec.SortedMap(fields), true
}

// sortEntries sorts a map's entries by name: by insertion for the few
// entries of most maps (labels, annotations, resources), deciding most
// comparisons by the first byte inline.
func sortEntries(entries []mapEntry) {
	if len(entries) > smallMap {
		slices.SortFunc(entries, func(a, b mapEntry) int { return strings.Compare(a.name, b.name) })
		return
	}
	for i := 1; i < len(entries); i++ {
		for j := i; j > 0 && nameLess(entries[j].name, entries[j-1].name); j-- {
			entries[j], entries[j-1] = entries[j-1], entries[j]
		}
	}
}

package gostruct

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// structDecoder sets Go values from Values; it belongs to one call.
type structDecoder struct {
	segs  []goSeg
	depth int
	msg   string
	err   error
	buf   []byte // JSON for an Unmarshaler
}

func (d *structDecoder) fail(format string, args ...any) bool {
	d.msg = fmt.Sprintf(format, args...)
	return false
}

func (d *structDecoder) error(t reflect.Type) error {
	return &Error{Type: t, Path: goPath(d.segs), Msg: d.msg, Err: d.err}
}

func (d *structDecoder) mismatch(p *goPlan, v value.Value) bool {
	return d.fail("cannot set %s from %s", p.t, v.Kind())
}

// set sets rv, which is settable, to the conversion of v.
func (d *structDecoder) set(p *goPlan, v value.Value, rv reflect.Value) bool {
	if v.Kind() == value.Null {
		rv.SetZero()
		return true
	}
	switch p.kind {
	case goBool:
		if v.Kind() != value.Bool {
			return d.mismatch(p, v)
		}
		rv.SetBool(v.AsBool())
		return true
	case goInt:
		var i int64
		switch v.Kind() {
		case value.Int:
			i = v.AsInt()
		case value.Float:
			f := v.AsFloat()
			if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
				return d.fail("cannot set %s from float %v", p.t, f)
			}
			i = int64(f)
		default:
			return d.mismatch(p, v)
		}
		if rv.OverflowInt(i) {
			return d.fail("%d overflows %s", i, p.t)
		}
		rv.SetInt(i)
		return true
	case goUint:
		var u uint64
		switch v.Kind() {
		case value.Int:
			if v.AsInt() < 0 {
				return d.fail("cannot set %s from %d", p.t, v.AsInt())
			}
			u = uint64(v.AsInt())
		case value.Float:
			f := v.AsFloat()
			if f != math.Trunc(f) || f < 0 || f >= math.MaxUint64 {
				return d.fail("cannot set %s from float %v", p.t, f)
			}
			u = uint64(f)
		default:
			return d.mismatch(p, v)
		}
		if rv.OverflowUint(u) {
			return d.fail("%d overflows %s", u, p.t)
		}
		rv.SetUint(u)
		return true
	case goFloat:
		if v.Kind() != value.Int && v.Kind() != value.Float {
			return d.mismatch(p, v)
		}
		f := v.AsFloat()
		if rv.OverflowFloat(f) {
			return d.fail("%v overflows %s", f, p.t)
		}
		rv.SetFloat(f)
		return true
	case goString:
		if v.Kind() != value.String {
			return d.mismatch(p, v)
		}
		rv.SetString(v.AsString())
		return true
	case goBytes:
		if v.Kind() != value.String {
			return d.mismatch(p, v)
		}
		b, err := base64.StdEncoding.DecodeString(v.AsString())
		if err != nil {
			return d.fail("base64 of a %s: %v", p.t, err)
		}
		rv.SetBytes(b)
		return true
	}
	if d.depth >= value.DefaultMaxDepth {
		d.err = value.ErrTooDeep
		return d.fail("nesting deeper than %d levels (%v)", value.DefaultMaxDepth, value.ErrTooDeep)
	}
	d.depth++
	ok := d.setContainer(p, v, rv)
	d.depth--
	return ok
}

// structOrigin is a Go value and the Value FromStruct made of it, at one
// path of the conversion back.
type structOrigin struct {
	v  value.Value
	rv reflect.Value
}

// setFrom sets rv as set does, copying an origin's Go value where v is
// that origin's Value (see ToStructFrom), and following the origins down
// the structs, pointers and slices on the way to the parts that changed.
func (d *structDecoder) setFrom(p *goPlan, v value.Value, rv reflect.Value, orgs []structOrigin) bool {
	if len(orgs) == 0 || v.Kind() == value.Null {
		return d.set(p, v, rv)
	}
	switch p.kind {
	case goPointer, goSlice, goArray, goMap, goStruct, goCustom:
	default:
		return d.set(p, v, rv)
	}
	for _, o := range orgs {
		if value.Same(v, o.v) && o.rv.CanInterface() {
			rv.Set(o.rv)
			return true
		}
	}
	if d.depth >= value.DefaultMaxDepth {
		d.err = value.ErrTooDeep
		return d.fail("nesting deeper than %d levels (%v)", value.DefaultMaxDepth, value.ErrTooDeep)
	}
	d.depth++
	ok := d.setFromContainer(p, v, rv, orgs)
	d.depth--
	return ok
}

func (d *structDecoder) setFromContainer(p *goPlan, v value.Value, rv reflect.Value, orgs []structOrigin) bool {
	var buf [4]structOrigin
	subs := buf[:0]
	switch {
	case p.kind == goPointer:
		for _, o := range orgs {
			if !o.rv.IsNil() {
				subs = append(subs, structOrigin{v: o.v, rv: o.rv.Elem()})
			}
		}
		if rv.IsNil() {
			rv.Set(reflect.New(p.t.Elem()))
		}
		return d.setFrom(p.elem, v, rv.Elem(), subs)
	case p.kind == goSlice && v.Kind() == value.List:
		items := own.Items(v)
		rv.Set(reflect.MakeSlice(p.t, len(items), len(items)))
		for i := range items {
			subs = subs[:0]
			for _, o := range orgs {
				if its := own.Items(o.v); i < len(its) && len(its) == o.rv.Len() {
					subs = append(subs, structOrigin{v: its[i], rv: o.rv.Index(i)})
				}
			}
			if !d.setFrom(p.elem, items[i], rv.Index(i), subs) {
				d.segs = append(d.segs, goSeg{index: i})
				return false
			}
		}
		return true
	case p.kind == goStruct && v.Kind() == value.Map:
		return d.setStruct(p, v, rv, orgs)
	}
	return d.setContainer(p, v, rv)
}

func (d *structDecoder) setContainer(p *goPlan, v value.Value, rv reflect.Value) bool {
	switch p.kind {
	case goPointer:
		if rv.IsNil() {
			rv.Set(reflect.New(p.t.Elem()))
		}
		return d.set(p.elem, v, rv.Elem())
	case goInterface:
		if p.t.NumMethod() != 0 {
			return d.fail("cannot set the interface %s", p.t)
		}
		rv.Set(reflect.ValueOf(v.Unstructured()))
		return true
	case goSlice, goArray:
		if v.Kind() != value.List {
			return d.mismatch(p, v)
		}
		items := own.Items(v)
		n := len(items)
		if p.kind == goSlice {
			rv.Set(reflect.MakeSlice(p.t, n, n))
		} else {
			n = min(n, rv.Len())
			rv.SetZero()
		}
		for i := range n {
			if !d.set(p.elem, items[i], rv.Index(i)) {
				d.segs = append(d.segs, goSeg{index: i})
				return false
			}
		}
		return true
	case goMap:
		return d.setMap(p, v, rv)
	case goStruct:
		return d.setStruct(p, v, rv, nil)
	case goCustom:
		return d.setCustom(p, v, rv)
	}
	return d.fail("unsupported type %s", p.t)
}

// setStruct sets the fields of rv from v's, following the origins down
// (see setFrom) when there are any.
func (d *structDecoder) setStruct(p *goPlan, v value.Value, rv reflect.Value, orgs []structOrigin) bool {
	if v.Kind() != value.Map {
		return d.mismatch(p, v)
	}
	rv.SetZero()
	fields := own.Fields(v)
	var buf [4]structOrigin
	// Both are sorted by name: one walk matches them.
	i, j := 0, 0
	for i < len(fields) && j < len(p.fields) {
		switch c := strings.Compare(fields[i].Name, p.fields[j].name); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			f := &p.fields[j]
			var ok bool
			if len(orgs) == 0 {
				ok = d.set(f.plan, fields[i].Value, fieldForSet(rv, f.index))
			} else {
				subs := buf[:0]
				for _, o := range orgs {
					if ov, found := o.v.Get(f.name); found {
						if orv, found := fieldOf(o.rv, f.index); found {
							subs = append(subs, structOrigin{v: ov, rv: orv})
						}
					}
				}
				ok = d.setFrom(f.plan, fields[i].Value, fieldForSet(rv, f.index), subs)
			}
			if !ok {
				d.segs = append(d.segs, goSeg{field: f.goName, index: -1})
				return false
			}
			i++
			j++
		}
	}
	return true
}

// fieldForSet returns the field of rv at index, allocating the embedded
// pointers on the way.
func fieldForSet(rv reflect.Value, index []int) reflect.Value {
	if len(index) == 1 {
		return rv.Field(index[0])
	}
	for i, x := range index {
		if i > 0 && rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				rv.Set(reflect.New(rv.Type().Elem()))
			}
			rv = rv.Elem()
		}
		rv = rv.Field(x)
	}
	return rv
}

func (d *structDecoder) setMap(p *goPlan, v value.Value, rv reflect.Value) bool {
	if v.Kind() != value.Map {
		return d.mismatch(p, v)
	}
	fields := own.Fields(v)
	if p.stringMap {
		m := make(map[string]string, len(fields))
		for i := range fields {
			if fields[i].Value.Kind() != value.String {
				d.segs = append(d.segs, goSeg{key: strconv.Quote(fields[i].Name), index: -1})
				if fields[i].Value.Kind() == value.Null {
					return d.fail("cannot set string from null")
				}
				return d.mismatch(p.elem, fields[i].Value)
			}
			m[fields[i].Name] = fields[i].Value.AsString()
		}
		rv.Set(reflect.ValueOf(m))
		return true
	}
	m := reflect.MakeMapWithSize(p.t, len(fields))
	kt, et := p.t.Key(), p.t.Elem()
	for i := range fields {
		name := fields[i].Name
		key := reflect.New(kt).Elem()
		if err := setKey(p.key, name, key); err != nil {
			d.segs = append(d.segs, goSeg{key: strconv.Quote(name), index: -1})
			return d.fail("map key: %v", err)
		}
		ev := reflect.New(et).Elem()
		if !d.set(p.elem, fields[i].Value, ev) {
			d.segs = append(d.segs, goSeg{key: strconv.Quote(name), index: -1})
			return false
		}
		m.SetMapIndex(key, ev)
	}
	rv.Set(m)
	return true
}

func setKey(k keyKind, name string, key reflect.Value) error {
	switch k {
	case keyString:
		key.SetString(name)
	case keyInt:
		i, err := strconv.ParseInt(name, 10, 64)
		if err != nil || key.OverflowInt(i) {
			return fmt.Errorf("%q is not a %s", name, key.Type())
		}
		key.SetInt(i)
	case keyUint:
		u, err := strconv.ParseUint(name, 10, 64)
		if err != nil || key.OverflowUint(u) {
			return fmt.Errorf("%q is not a %s", name, key.Type())
		}
		key.SetUint(u)
	case keyText:
		return key.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(name))
	}
	return nil
}

func (d *structDecoder) setCustom(p *goPlan, v value.Value, rv reflect.Value) bool {
	switch {
	case p.unmarshalJSON:
		d.buf = value.AppendJSON(d.buf[:0], v)
		if err := rv.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(d.buf); err != nil {
			return d.fail("UnmarshalJSON of %s: %v", p.t, err)
		}
		return true
	case p.unmarshalText:
		if v.Kind() != value.String {
			return d.mismatch(p, v)
		}
		if err := rv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(v.AsString())); err != nil {
			return d.fail("UnmarshalText of %s: %v", p.t, err)
		}
		return true
	}
	return d.set(p.base, v, rv)
}

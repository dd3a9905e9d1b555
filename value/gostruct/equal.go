package gostruct

import (
	"bytes"
	"maps"
	"reflect"
)

// maxEqualDepth bounds goEqual's recursion (a pointer cycle ends there).
const maxEqualDepth = 32

// goEqual reports whether a and b, of one type, hold equal Go values:
// equal scalars and strings, byte slices of equal bytes, and maps,
// slices, arrays, structs and pointed-to values equal entry by entry.
// Interfaces, functions and channels are never equal here, nor values
// nested deeper than maxEqualDepth: false only costs a conversion.
func goEqual(a, b reflect.Value, depth int) bool {
	if depth > maxEqualDepth {
		return false
	}
	switch a.Kind() {
	case reflect.Map:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Len() != b.Len() {
			return false
		}
		if a.Type() == stringMapType && a.CanInterface() && b.CanInterface() {
			return maps.Equal(a.Interface().(map[string]string), b.Interface().(map[string]string))
		}
		it := a.MapRange()
		for it.Next() {
			if bv := b.MapIndex(it.Key()); !bv.IsValid() || !goEqual(it.Value(), bv, depth+1) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return bytes.Equal(a.Bytes(), b.Bytes())
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if !goEqual(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !goEqual(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Pointer() == b.Pointer() || goEqual(a.Elem(), b.Elem(), depth+1)
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return a.Equal(b)
	}
	return false
}

// structEqual is goEqual of a and b, structs of plan p, over the fields
// p converts (the others do not change the conversion); the scalar fields
// of two addressable structs are compared in memory.
func structEqual(p *goPlan, a, b reflect.Value, depth int) bool {
	if depth > maxEqualDepth {
		return false
	}
	var ma, mb structMem
	if a.CanAddr() && b.CanAddr() {
		ma, mb = structMemOf(a), structMemOf(b)
	}
	for i := range p.fields {
		f := &p.fields[i]
		if ma.p != nil && f.flat {
			if eq, known := f.equalIn(ma, mb); known {
				if !eq {
					return false
				}
				continue
			}
		}
		fa, oka := fieldOf(a, f.index)
		fb, okb := fieldOf(b, f.index)
		if oka != okb || oka && !goEqual(fa, fb, depth+1) {
			return false
		}
	}
	return true
}

// equalIn compares f in the memory of two structs as goEqual does; known
// is false when the comparison goes through reflect.
func (f *goField) equalIn(a, b structMem) (eq, known bool) {
	off := f.offset
	r := f.mem
	if r.kind == memPointer {
		if f.leaf.kind == memNone {
			return false, false
		}
		pa, pb := a.isNil(off), b.isNil(off)
		if pa || pb {
			return pa == pb, true
		}
		a, b, off, r = a.elem(off), b.elem(off), 0, f.leaf
	}
	switch r.kind {
	case memBool:
		return a.bool(off) == b.bool(off), true
	case memInt:
		return a.int(off, r.size) == b.int(off, r.size), true
	case memUint:
		return a.uint(off, r.size) == b.uint(off, r.size), true
	case memFloat:
		return a.float(off, r.size) == b.float(off, r.size), true
	case memString:
		return a.string(off) == b.string(off), true
	}
	return false, false
}

package gostruct

import (
	"reflect"
	"unsafe"
)

// structMem is the memory of an addressable Go struct being converted by
// FromStruct or a Codec: a field of a plain kind read
// at its offset costs a load, where reflect.Value.Field costs a call that
// checks the field's name. The reads only read; each is of the kind and
// size the field's struct plan found for it (goField.mem, goField.leaf).
type structMem struct{ p unsafe.Pointer }

// structMemOf is the memory of rv, an addressable struct.
func structMemOf(rv reflect.Value) structMem { return structMem{unsafe.Pointer(rv.UnsafeAddr())} }

func (m structMem) at(off uintptr) unsafe.Pointer { return unsafe.Add(m.p, off) }

func (m structMem) bool(off uintptr) bool { return *(*bool)(m.at(off)) }

func (m structMem) string(off uintptr) string { return *(*string)(m.at(off)) }

// sliceLen is the length of the slice at off, of any element type.
func (m structMem) sliceLen(off uintptr) int { return len(*(*[]byte)(m.at(off))) }

// isNil reports whether the pointer at off, or the interface (its first
// word, the type or method table), is nil.
func (m structMem) isNil(off uintptr) bool { return *(*unsafe.Pointer)(m.at(off)) == nil }

// elem is the memory the pointer at off points to.
func (m structMem) elem(off uintptr) structMem { return structMem{*(*unsafe.Pointer)(m.at(off))} }

func (m structMem) int(off uintptr, size uint8) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(m.at(off)))
	case 2:
		return int64(*(*int16)(m.at(off)))
	case 4:
		return int64(*(*int32)(m.at(off)))
	}
	return *(*int64)(m.at(off))
}

func (m structMem) uint(off uintptr, size uint8) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(m.at(off)))
	case 2:
		return uint64(*(*uint16)(m.at(off)))
	case 4:
		return uint64(*(*uint32)(m.at(off)))
	}
	return *(*uint64)(m.at(off))
}

func (m structMem) float(off uintptr, size uint8) float64 {
	if size == 4 {
		return float64(*(*float32)(m.at(off)))
	}
	return *(*float64)(m.at(off))
}

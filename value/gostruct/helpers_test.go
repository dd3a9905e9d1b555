package gostruct_test

import (
	"reflect"

	"github.com/structmerge/structmerge/value"
)

// The helpers of value's tests that these tests use too.

// samePointer reports whether two maps or slices held in interfaces are the
// same one.
func samePointer(a, b any) bool {
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	return ra.Kind() == rb.Kind() && (ra.Kind() == reflect.Map || ra.Kind() == reflect.Slice) && ra.UnsafePointer() == rb.UnsafePointer()
}

var (
	vNull = value.NewNull()
	vStr  = value.NewString
)

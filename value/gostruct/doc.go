// Package gostruct converts Go structs, such as the k8s.io/api types, to
// values of package value and back, by their json tags, as Kubernetes'
// unstructured converter does: omitempty, omitzero, inline fields and
// types that marshal themselves included (Codec lists the rules).
//
// A Codec is built once per type by NewCodec, which walks the whole type
// graph; a server keeps one per type. Codec.FromStruct converts a Go value
// to a value.Value, Codec.ToStruct converts back, and Codec.ToStructFrom
// converts back only what an operation changed, copying the caller's own
// structs, pointers, slices and maps for the rest (so the result aliases
// them). The functions FromStruct and ToStruct build the conversion of
// the types they meet for one call.
//
// The conversions to values take value's decode options: value.MaxDepth
// bounds the nesting, and value.Like and value.LikeOrigin make the result
// share the parts equal to a value converted before (the live object an
// update's object is converted like). Errors are *Error values that name
// the Go field.
//
// # Concurrency
//
// A Codec is immutable after NewCodec; safe for concurrent use. Every
// conversion works on scratch space owned by one call, and no
// package-level variable is written after program start; the package has
// no pool. Its uses of unsafe are in mem.go: a Codec's reads of a struct's
// scalar fields, and of the pointers to them, at their offsets
// (structMem), which only read, each as the kind of its field. The values
// it builds take their slices without a copy, through an internal package
// that package value fills (internal/valueown); code outside this module
// cannot reach it.
package gostruct

package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// This file is SMD's per-type reflection API (TypeReflectEntryOf and the
// entries it returns), which k8s.io/apimachinery's runtime converter calls
// for every value it converts and k8s.io/apiserver's CEL code calls to read
// struct fields by their JSON names.
//
// SMD builds each entry once and keeps it in a process-wide cache written
// under a lock. Here nothing is cached: an entry holds only its
// reflect.Type, and each method works its answer out from the type when it
// is called (a few Implements checks; for Fields and OrderedFields, one walk
// over the struct's fields and tags). Type information never changes, so
// the answers are the same as a cache would give, and there is no shared
// state to race on: the package writes no variable after start (the
// drop-in keeps structmerge's rule). The runtime converter, the hot caller,
// uses only the Can*/To*/From* methods, which cost no allocation when the
// entry does not escape (TypeReflectEntryOf is small enough to inline).

// TypeReflectCacheEntry tells how values of one Go type convert to and from
// unstructured data: whether the type (or a pointer to it) converts itself
// (UnstructuredConverter, UnstructuredConverterWithError, json.Marshaler,
// json.Unmarshaler), and, for a struct, its fields by JSON name.
//
// An entry is immutable and safe for concurrent use. The zero entry
// describes a type that converts nothing and has no fields.
type TypeReflectCacheEntry struct {
	t reflect.Type
}

// FieldCacheEntry describes one field of a struct as encoding/json sees it:
// its JSON name, its omitempty and omitzero options, and where it is found
// (through inlined embedded structs). Immutable; safe for concurrent use.
type FieldCacheEntry struct {
	// JsonName is the field's name in JSON: the json tag's name, or the Go
	// field name when the tag gives none.
	JsonName string
	// TypeEntry describes the field's type.
	TypeEntry *TypeReflectCacheEntry

	omitEmpty bool
	omitZero  func(reflect.Value) bool
	// index is the path of field indexes from the outer struct, one
	// element per struct walked through (inlined embedded structs first).
	index     [][]int
	fieldType reflect.Type
}

var (
	marshalerType                      = reflect.TypeFor[json.Marshaler]()
	unmarshalerType                    = reflect.TypeFor[json.Unmarshaler]()
	unstructuredConverterType          = reflect.TypeFor[UnstructuredConverter]()
	unstructuredConverterWithErrorType = reflect.TypeFor[UnstructuredConverterWithError]()
	isZeroerType                       = reflect.TypeFor[interface{ IsZero() bool }]()
)

// TypeReflectEntryOf returns the entry of the type t. It is computed from t
// on each call, so two calls give equal but distinct entries.
func TypeReflectEntryOf(t reflect.Type) *TypeReflectCacheEntry {
	return &TypeReflectCacheEntry{t: t}
}

// implements reports whether t, and whether *t, implement the interface i.
func implements(t, i reflect.Type) (value, pointer bool) {
	if t == nil {
		return false, false
	}
	value = t.Implements(i)
	if t.Kind() == reflect.Interface {
		return value, false
	}
	// The method set of *T includes that of T.
	return value, value || reflect.PointerTo(t).Implements(i)
}

// CanConvertToUnstructured reports whether values of the type convert
// themselves: the type or a pointer to it is a json.Marshaler (which the
// two unstructured converter interfaces require too).
func (e TypeReflectCacheEntry) CanConvertToUnstructured() bool {
	v, p := implements(e.t, marshalerType)
	return v || p
}

// CanConvertFromUnstructured reports whether a pointer to the type is a
// json.Unmarshaler.
func (e TypeReflectCacheEntry) CanConvertFromUnstructured() bool {
	if e.t == nil {
		return false
	}
	return reflect.PointerTo(e.t).Implements(unmarshalerType)
}

// ToUnstructured converts sv, a value of the entry's type, to unstructured
// data with the type's own conversion, in this order of preference:
// UnstructuredConverterWithError, UnstructuredConverter, json.Marshaler
// (each on the value, then on its address when sv is addressable). A nil
// pointer gives nil. JSON from MarshalJSON is decoded with integers as
// int64 and other numbers as float64, and must hold exactly one value.
func (e TypeReflectCacheEntry) ToUnstructured(sv reflect.Value) (interface{}, error) {
	if sv.Kind() == reflect.Pointer && sv.IsNil() {
		return nil, nil
	}
	if e.t != nil && sv.IsValid() {
		if c, ok := e.converter(sv); ok {
			return c.ToUnstructuredWithError()
		}
		if m, ok := e.marshaler(sv); ok {
			return marshaledToUnstructured(m)
		}
	}
	return nil, fmt.Errorf("provided type cannot be converted: %v", typeOf(sv))
}

// typeOf is sv's type, or nil for the zero reflect.Value.
func typeOf(sv reflect.Value) reflect.Type {
	if !sv.IsValid() {
		return nil
	}
	return sv.Type()
}

// nonNil reports whether v is not a nil interface (which has no method to
// call).
func nonNil(v reflect.Value) bool {
	return v.Kind() != reflect.Interface || !v.IsNil()
}

type withNilError struct{ UnstructuredConverter }

func (c withNilError) ToUnstructuredWithError() (any, error) {
	return c.ToUnstructured(), nil
}

func (e TypeReflectCacheEntry) converter(v reflect.Value) (UnstructuredConverterWithError, bool) {
	if vw, pw := implements(e.t, unstructuredConverterWithErrorType); vw && nonNil(v) {
		c, ok := v.Interface().(UnstructuredConverterWithError)
		return c, ok
	} else if pw && v.Kind() != reflect.Pointer && v.CanAddr() {
		return v.Addr().Interface().(UnstructuredConverterWithError), true
	}
	if vc, pc := implements(e.t, unstructuredConverterType); vc && nonNil(v) {
		c, ok := v.Interface().(UnstructuredConverter)
		return withNilError{c}, ok
	} else if pc && v.Kind() != reflect.Pointer && v.CanAddr() {
		return withNilError{v.Addr().Interface().(UnstructuredConverter)}, true
	}
	return nil, false
}

func (e TypeReflectCacheEntry) marshaler(v reflect.Value) (json.Marshaler, bool) {
	vm, pm := implements(e.t, marshalerType)
	switch {
	case vm && nonNil(v):
		m, ok := v.Interface().(json.Marshaler)
		return m, ok
	case pm && v.Kind() != reflect.Pointer && v.CanAddr():
		return v.Addr().Interface().(json.Marshaler), true
	}
	return nil, false
}

// marshaledToUnstructured decodes what m.MarshalJSON writes.
func marshaledToUnstructured(m json.Marshaler) (interface{}, error) {
	data, err := m.MarshalJSON()
	if err != nil {
		return nil, err
	}
	switch {
	case len(data) == 0:
		return nil, fmt.Errorf("error decoding from json: empty value")
	case string(data) == "null":
		return nil, nil
	case string(data) == "true":
		return true, nil
	case string(data) == "false":
		return false, nil
	case data[0] == '"':
		var s string
		if err := decodeJSON(data, &s); err != nil {
			return nil, fmt.Errorf("error decoding string from json: %v", err)
		}
		return s, nil
	case data[0] == '{':
		m := map[string]interface{}{}
		if err := decodeJSON(data, &m); err != nil {
			return nil, fmt.Errorf("error decoding object from json: %v", err)
		}
		return m, nil
	case data[0] == '[':
		l := []interface{}{}
		if err := decodeJSON(data, &l); err != nil {
			return nil, fmt.Errorf("error decoding array from json: %v", err)
		}
		return l, nil
	}
	var i int64
	if err := decodeJSON(data, &i); err == nil {
		return i, nil
	}
	var f float64
	if err := decodeJSON(data, &f); err != nil {
		return nil, fmt.Errorf("error decoding number from json: %v", err)
	}
	return f, nil
}

// maxNumberDepth bounds the walk that turns json.Number into int64 or
// float64 (encoding/json refuses deeper input anyway).
const maxNumberDepth = 10000

// decodeJSON decodes exactly one JSON value from data into v, as
// k8s.io/apimachinery's JSON decoding does: numbers inside maps and slices
// become int64 when they are integers that fit, float64 otherwise.
func decodeJSON(data []byte, v interface{}) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	end := d.InputOffset()
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		rest := bytes.TrimLeft(data[end:], " \t\r\n")
		return fmt.Errorf("unexpected trailing data at offset %d", len(data)-len(rest))
	}
	switch t := v.(type) {
	case *map[string]interface{}:
		return numbersIn(*t, 0)
	case *[]interface{}:
		return numbersIn(*t, 0)
	case *interface{}:
		n, err := jsonNumber(*t, 0)
		if err == nil {
			*t = n
		}
		return err
	}
	return nil
}

// numbersIn replaces, in place, every json.Number in x (a map or a slice
// from the decoder) by int64 or float64.
func numbersIn(x interface{}, depth int) error {
	if depth > maxNumberDepth {
		return fmt.Errorf("exceeded max depth of %d", maxNumberDepth)
	}
	switch c := x.(type) {
	case map[string]interface{}:
		for k, v := range c {
			n, err := jsonNumber(v, depth)
			if err != nil {
				return err
			}
			c[k] = n
		}
	case []interface{}:
		for i, v := range c {
			n, err := jsonNumber(v, depth)
			if err != nil {
				return err
			}
			c[i] = n
		}
	}
	return nil
}

// jsonNumber converts a json.Number and the numbers inside a map or slice v,
// found at depth.
func jsonNumber(v interface{}, depth int) (interface{}, error) {
	switch n := v.(type) {
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, nil
		}
		return n.Float64()
	case map[string]interface{}, []interface{}:
		return v, numbersIn(v, depth+1)
	}
	return v, nil
}

// FromUnstructured sets dv, an addressable value of the entry's type, from
// the unstructured data sv through JSON: sv is encoded with encoding/json
// and decoded by the type's UnmarshalJSON.
func (e TypeReflectCacheEntry) FromUnstructured(sv, dv reflect.Value) error {
	data, err := json.Marshal(sv.Interface())
	if err != nil {
		return fmt.Errorf("error encoding %s to json: %v", typeOf(dv), err)
	}
	if e.CanConvertFromUnstructured() && dv.CanAddr() {
		if u, ok := dv.Addr().Interface().(json.Unmarshaler); ok {
			return u.UnmarshalJSON(data)
		}
	}
	return fmt.Errorf("unable to unmarshal %v into %v", typeOf(sv), typeOf(dv))
}

// Fields returns the struct's fields by JSON name, with the fields of
// inlined embedded structs (anonymous, without a json name) in place of the
// embedded field, as encoding/json sees them; nil for a type that is not a
// struct. Each call builds a new map; the caller may keep or change it.
func (e TypeReflectCacheEntry) Fields() map[string]*FieldCacheEntry {
	if e.t == nil || e.t.Kind() != reflect.Struct {
		return nil
	}
	fields := map[string]*FieldCacheEntry{}
	addFields(e.t, nil, fields)
	return fields
}

// OrderedFields returns the fields of Fields sorted by JSON name; nil for a
// type that is not a struct.
func (e TypeReflectCacheEntry) OrderedFields() []*FieldCacheEntry {
	fields := e.Fields()
	if fields == nil {
		return nil
	}
	ordered := make([]*FieldCacheEntry, 0, len(fields))
	for _, f := range fields {
		ordered = append(ordered, f)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].JsonName < ordered[j].JsonName })
	return ordered
}

// addFields adds the fields of the struct type t, reached from the outer
// struct through the field indexes at, to fields. A later field of the same
// JSON name replaces an earlier one (SMD's rule, not encoding/json's).
func addFields(t reflect.Type, at [][]int, fields map[string]*FieldCacheEntry) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.Anonymous && !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		path := make([][]int, len(at)+1)
		copy(path, at)
		path[len(at)] = f.Index
		if f.Anonymous && name == "" {
			inner := f.Type
			if inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct {
				addFields(inner, path, fields)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		entry := &FieldCacheEntry{
			JsonName:  name,
			TypeEntry: TypeReflectEntryOf(f.Type),
			omitEmpty: hasOption(opts, "omitempty"),
			index:     path,
			fieldType: f.Type,
		}
		if hasOption(opts, "omitzero") {
			entry.omitZero = OmitZeroFunc(f.Type)
		}
		fields[name] = entry
	}
}

// hasOption reports whether the comma-separated json tag options opts
// include name.
func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// CanOmit reports whether the field's value fieldVal is left out of JSON:
// with omitempty when it is nil or empty (false, 0, "", or no elements),
// with omitzero when it is the zero value (by its IsZero method if it has
// one).
func (f *FieldCacheEntry) CanOmit(fieldVal reflect.Value) bool {
	if f.omitEmpty && (safeIsNil(fieldVal) || isEmpty(fieldVal)) {
		return true
	}
	return f.omitZero != nil && f.omitZero(fieldVal)
}

// isEmpty is encoding/json's notion of an empty value for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// safeIsNil reports whether v is a nil of a kind that can be nil.
func safeIsNil(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Map, reflect.Pointer, reflect.UnsafePointer, reflect.Interface, reflect.Slice:
		return v.IsNil()
	}
	return false
}

// GetFrom returns the field's value in structVal, a struct (or a pointer
// to one) of the type whose Fields gave f. When a pointer on the way (the
// struct itself, or an inlined embedded pointer) is nil, it returns the
// zero value of the field's type.
func (f *FieldCacheEntry) GetFrom(structVal reflect.Value) reflect.Value {
	for _, index := range f.index {
		if safeIsNil(structVal) {
			return reflect.Zero(f.fieldType)
		}
		if k := structVal.Kind(); k == reflect.Pointer || k == reflect.Interface {
			structVal = structVal.Elem()
		}
		structVal = structVal.FieldByIndex(index)
	}
	return structVal
}

// OmitZeroFunc returns the test encoding/json's omitzero option makes on a
// value of type t: its IsZero method when t (or *t) has one, otherwise
// reflect.Value.IsZero. A nil pointer or interface counts as zero without
// calling IsZero on it.
func OmitZeroFunc(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if safeIsNil(v) || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) {
				return true
			}
			return v.Interface().(interface{ IsZero() bool }).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return safeIsNil(v) || v.Interface().(interface{ IsZero() bool }).IsZero()
		}
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.Interface().(interface{ IsZero() bool }).IsZero()
		}
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				c := reflect.New(v.Type()).Elem()
				c.Set(v)
				v = c
			}
			return v.Addr().Interface().(interface{ IsZero() bool }).IsZero()
		}
	}
	return reflect.Value.IsZero
}

package value

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// UnstructuredConverter is implemented by Go types that convert themselves
// to unstructured data (and, as SMD requires, to JSON).
type UnstructuredConverter interface {
	json.Marshaler
	// ToUnstructured returns the value as unstructured data.
	ToUnstructured() interface{}
}

// UnstructuredConverterWithError is UnstructuredConverter whose conversion
// may fail.
type UnstructuredConverterWithError interface {
	json.Marshaler
	// ToUnstructuredWithError returns the value as unstructured data.
	ToUnstructuredWithError() (any, error)
}

// NewValueReflect returns a Value of a Go value (a struct, map, slice or
// pointer to one) as encoding/json sees it: json tags and omitempty apply,
// and types that convert themselves (UnstructuredConverter,
// UnstructuredConverterWithError, json.Marshaler) do.
//
// Unlike SMD's, which views the Go value in place through reflection, the
// Value is a snapshot: unstructured data made once, here. Map.Set on it
// changes the snapshot, not the Go value. Integers become int64 and other
// numbers float64.
func NewValueReflect(value interface{}) (Value, error) {
	switch c := value.(type) {
	case UnstructuredConverterWithError:
		u, err := c.ToUnstructuredWithError()
		if err != nil {
			return nil, err
		}
		return NewValueInterface(u), nil
	case UnstructuredConverter:
		return NewValueInterface(c.ToUnstructured()), nil
	}
	data, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var u interface{}
	if err := d.Decode(&u); err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	return NewValueInterface(numbers(u)), nil
}

// numbers replaces json.Number in decoded data by int64 or float64.
func numbers(x interface{}) interface{} {
	switch t := x.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, err := t.Float64()
		if err != nil {
			return math.NaN()
		}
		return f
	case map[string]interface{}:
		for k, v := range t {
			t[k] = numbers(v)
		}
	case []interface{}:
		for i, v := range t {
			t[i] = numbers(v)
		}
	}
	return x
}

package scenario

import (
	"math"
	"reflect"
	"slices"
)

// cloneValue returns a deep copy of an unstructured value. Values of other
// Go types are returned as they are.
func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = cloneValue(x)
		}
		return out
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = cloneValue(x)
		}
		return out
	}
	return v
}

// cloneState returns a deep copy of s.
func cloneState(s State) State {
	out := State{Object: cloneValue(s.Object), HasObject: s.HasObject}
	if s.Managers != nil {
		out.Managers = make(map[string]Manager, len(s.Managers))
		for name, m := range s.Managers {
			m.FieldsV1 = slices.Clone(m.FieldsV1)
			out.Managers[name] = m
		}
	}
	return out
}

// identical reports whether a and b are the same unstructured value, down
// to the Go types of numbers (used to detect that an engine modified its
// input). NaNs equal themselves.
func identical(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || (a == nil) != (b == nil) || len(a) != len(b) {
			return false
		}
		for k, x := range a {
			y, ok := b[k]
			if !ok || !identical(x, y) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || (a == nil) != (b == nil) || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !identical(a[i], b[i]) {
				return false
			}
		}
		return true
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case nil:
		return b == nil
	case string, int64, bool:
		return a == b
	}
	// Not an unstructured value.
	return reflect.DeepEqual(a, b)
}

// identicalState reports whether a and b hold identical objects and
// managers.
func identicalState(a, b State) bool {
	if a.HasObject != b.HasObject || !identical(a.Object, b.Object) {
		return false
	}
	if (a.Managers == nil) != (b.Managers == nil) || len(a.Managers) != len(b.Managers) {
		return false
	}
	for name, m := range a.Managers {
		n, ok := b.Managers[name]
		if !ok || m.APIVersion != n.APIVersion || m.Applied != n.Applied ||
			string(m.FieldsV1) != string(n.FieldsV1) || (m.FieldsV1 == nil) != (n.FieldsV1 == nil) {
			return false
		}
	}
	return true
}

// maxExactInt is 2^53: every integer of smaller magnitude has an exact
// float64 representation.
const maxExactInt = 1 << 53

// semantic returns a copy of v in which numbers are normalized so that equal
// numbers compare equal whatever their Go type: a float64 holding an
// integer of magnitude below 2^53 becomes an int64, as do the other Go
// integer types.
func semantic(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = semantic(x)
		}
		return out
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = semantic(x)
		}
		return out
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < maxExactInt {
			return int64(v)
		}
		return v
	case float32:
		return semantic(float64(v))
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case uint32:
		return int64(v)
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v)
		}
		return float64(v)
	}
	return v
}

// serverOwnedMetadata are the metadata fields an API server sets on its
// own; Kubernetes-flavour comparisons ignore them unless the expected
// object names them.
var serverOwnedMetadata = [...]string{"resourceVersion", "uid", "creationTimestamp", "generation"}

// kubernetesView prepares an expected and an actual Kubernetes object for
// comparison: the time of managedFields entries is dropped from both, and
// server-owned metadata fields the expected object does not name are
// dropped from the actual one. Both results are fresh copies.
func kubernetesView(expected, actual any) (any, any) {
	expected, actual = semantic(expected), semantic(actual)
	em := metadataOf(expected)
	am := metadataOf(actual)
	if am != nil {
		for _, k := range serverOwnedMetadata {
			if _, named := em[k]; !named {
				delete(am, k)
			}
		}
	}
	for _, m := range []map[string]any{em, am} {
		entries, _ := m["managedFields"].([]any)
		for _, e := range entries {
			if e, ok := e.(map[string]any); ok {
				delete(e, "time")
			}
		}
	}
	return expected, actual
}

func metadataOf(obj any) map[string]any {
	m, _ := obj.(map[string]any)
	md, _ := m["metadata"].(map[string]any)
	return md
}

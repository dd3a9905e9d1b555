// Package jsondata compares data in the map[string]any form of
// encoding/json and of Kubernetes' unstructured objects. kube (an update
// body's managedFields against the live object's) and the scenario
// generator share it; they differ in how they compare the leaves.
//
// Concurrency: stateless; safe for concurrent use.
package jsondata

// Equal reports whether a and b are equal: maps with the same keys whose
// entries are equal, lists ([]any) of the same length whose items are
// equal, and other data (strings, numbers, booleans, nil, anything else)
// as leaf reports.
func Equal(a, b any, leaf func(a, b any) bool) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		if len(a) == 0 {
			return true // most maps of a fieldsV1, without starting an iteration
		}
		for k, x := range a {
			y, ok := b[k]
			if !ok || !Equal(x, y, leaf) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !Equal(a[i], b[i], leaf) {
				return false
			}
		}
		return true
	}
	return leaf(a, b)
}

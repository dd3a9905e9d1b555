package fieldpath

import (
	"slices"
)

// VersionedSet is the set of fields one manager owns, with the API version in
// which the paths are expressed and whether the manager set them by apply
// (true) or by update (false).
type VersionedSet struct {
	Set        *Set
	APIVersion string
	Applied    bool
}

// Equal reports whether v and o have the same version, the same Applied flag
// and equal sets.
func (v VersionedSet) Equal(o VersionedSet) bool {
	return v.APIVersion == o.APIVersion && v.Applied == o.Applied && v.Set.Equal(o.Set)
}

// Managers maps manager names to the fields they own.
//
// Library functions never modify a Managers value they are given; those that
// change ownership return a new map. Treat a Managers you share between
// goroutines as read-only.
type Managers map[string]VersionedSet

// Names returns the manager names, sorted.
func (m Managers) Names() []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Equal reports whether m and o have the same managers with equal versioned
// sets. A nil map equals an empty one.
func (m Managers) Equal(o Managers) bool {
	if len(m) != len(o) {
		return false
	}
	for name, v := range m {
		w, ok := o[name]
		if !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// Copy returns a new map with the same entries (the sets, which are
// immutable, are shared). Copy of nil is nil.
func (m Managers) Copy() Managers {
	if m == nil {
		return nil
	}
	out := make(Managers, len(m))
	for name, v := range m {
		out[name] = v
	}
	return out
}

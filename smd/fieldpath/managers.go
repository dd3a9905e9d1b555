package fieldpath

import (
	"fmt"
	"slices"
	"strings"
)

// APIVersion is the version of an API an object was expressed in, such as
// "v1" or "apps/v1".
type APIVersion string

// VersionedSet is a set of paths together with the API version they are
// expressed in and whether they were applied (rather than updated).
type VersionedSet interface {
	Set() *Set
	APIVersion() APIVersion
	Applied() bool
}

// NewVersionedSet returns a VersionedSet.
func NewVersionedSet(set *Set, apiVersion APIVersion, applied bool) VersionedSet {
	return versionedSet{set, apiVersion, applied}
}

type versionedSet struct {
	set        *Set
	apiVersion APIVersion
	applied    bool
}

func (v versionedSet) Set() *Set              { return v.set }
func (v versionedSet) APIVersion() APIVersion { return v.apiVersion }
func (v versionedSet) Applied() bool          { return v.applied }

// ManagedFields maps each manager to the fields it owns.
type ManagedFields map[string]VersionedSet

// Equals reports whether the two have the same managers, each with the same
// version, applied flag and set.
func (lhs ManagedFields) Equals(rhs ManagedFields) bool {
	if len(lhs) != len(rhs) {
		return false
	}
	for m, l := range lhs {
		r, ok := rhs[m]
		if !ok || l.APIVersion() != r.APIVersion() || l.Applied() != r.Applied() || !l.Set().Equals(r.Set()) {
			return false
		}
	}
	return true
}

// Copy returns a copy of the map (the versioned sets are shared).
func (lhs ManagedFields) Copy() ManagedFields {
	out := make(ManagedFields, len(lhs))
	for m, s := range lhs {
		out[m] = s
	}
	return out
}

// Difference returns, per manager, what changed from lhs to rhs: a manager
// in only one of them with a non-empty set appears with that set; one whose
// version changed appears with its rhs entry; otherwise the symmetric
// difference of its two sets, not applied, if it is not empty.
func (lhs ManagedFields) Difference(rhs ManagedFields) ManagedFields {
	out := ManagedFields{}
	for m, l := range lhs {
		r, ok := rhs[m]
		switch {
		case !ok:
			if !l.Set().Empty() {
				out[m] = l
			}
		case l.APIVersion() != r.APIVersion():
			out[m] = r
		default:
			d := l.Set().Difference(r.Set()).Union(r.Set().Difference(l.Set()))
			if !d.Empty() {
				out[m] = NewVersionedSet(d, r.APIVersion(), false)
			}
		}
	}
	for m, r := range rhs {
		if _, ok := lhs[m]; !ok && !r.Set().Empty() {
			out[m] = r
		}
	}
	return out
}

// String lists each manager with its applied flag, version and set. Unlike
// SMD's, the managers come out sorted by name.
func (lhs ManagedFields) String() string {
	names := make([]string, 0, len(lhs))
	for m := range lhs {
		names = append(names, m)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, m := range names {
		v := lhs[m]
		fmt.Fprintf(&b, "%s:\n- Applied: %v\n- APIVersion: %v\n- Set: %v\n", m, v.Applied(), v.APIVersion(), v.Set())
	}
	return b.String()
}

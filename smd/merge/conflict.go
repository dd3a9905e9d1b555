package merge

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Conflict is a field an operation would change although another manager
// owns it.
type Conflict struct {
	Manager string
	Path    fieldpath.Path
}

var _ error = Conflict{}

// Error returns `conflict with "MANAGER": PATH`.
func (c Conflict) Error() string {
	return fmt.Sprintf("conflict with %q: %v", c.Manager, c.Path)
}

// Equals reports whether the conflicts have the same manager and path.
func (c Conflict) Equals(c2 Conflict) bool {
	return c.Manager == c2.Manager && c.Path.Equals(c2.Path)
}

// Conflicts is the conflicts of one operation; it is the error Apply
// returns when it refuses to change fields other managers own.
type Conflicts []Conflict

var _ error = Conflicts{}

// Error returns one conflict as itself and several grouped by manager
// (sorted), each path on a line of its own after "- ".
func (conflicts Conflicts) Error() string {
	if len(conflicts) == 1 {
		return conflicts[0].Error()
	}
	byManager := map[string][]fieldpath.Path{}
	var managers []string
	for _, c := range conflicts {
		if _, ok := byManager[c.Manager]; !ok {
			managers = append(managers, c.Manager)
		}
		byManager[c.Manager] = append(byManager[c.Manager], c.Path)
	}
	slices.Sort(managers)
	var lines []string
	for _, m := range managers {
		lines = append(lines, fmt.Sprintf("conflicts with %q:", m))
		for _, p := range byManager[m] {
			lines = append(lines, fmt.Sprintf("- %v", p))
		}
	}
	return strings.Join(lines, "\n")
}

// Equals reports whether the lists hold equal conflicts in the same order.
func (c Conflicts) Equals(c2 Conflicts) bool {
	return slices.EqualFunc(c, c2, Conflict.Equals)
}

// ToSet returns the conflicts' paths as a set.
func (c Conflicts) ToSet() *fieldpath.Set {
	s := fieldpath.NewSet()
	for _, x := range c {
		s.Insert(x.Path)
	}
	return s
}

// ConflictsFromManagers returns a conflict for every path of every
// manager's set. Unlike SMD's, the managers come out sorted by name.
func ConflictsFromManagers(sets fieldpath.ManagedFields) Conflicts {
	names := make([]string, 0, len(sets))
	for m := range sets {
		names = append(names, m)
	}
	slices.Sort(names)
	conflicts := Conflicts{}
	for _, m := range names {
		sets[m].Set().Iterate(func(p fieldpath.Path) {
			conflicts = append(conflicts, Conflict{Manager: m, Path: p.Copy()})
		})
	}
	return conflicts
}

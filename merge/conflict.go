package merge

import (
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/fieldpath"
)

// Conflict is one field that an operation would change although another
// manager owns it.
type Conflict struct {
	Manager string
	Path    fieldpath.Path
}

// Error formats the conflict as `conflict with "manager": .path`.
func (c Conflict) Error() string {
	return "conflict with " + strconv.Quote(c.Manager) + ": " + c.Path.String()
}

// Conflicts is every conflict of one operation, sorted by manager and, for
// one manager, in the order of its field set. It is the error Apply returns
// when it refuses to change fields other managers own.
type Conflicts []Conflict

// Error formats one conflict as itself and several grouped by manager:
//
//	conflicts with "a":
//	- .spec.replicas
func (cs Conflicts) Error() string {
	if len(cs) == 1 {
		return cs[0].Error()
	}
	var b strings.Builder
	for i, c := range cs {
		if i == 0 || cs[i-1].Manager != c.Manager {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("conflicts with " + strconv.Quote(c.Manager) + ":")
		}
		b.WriteString("\n- " + c.Path.String())
	}
	return b.String()
}

// Set returns the paths of the conflicts as a set.
func (cs Conflicts) Set() *fieldpath.Set {
	var b fieldpath.Builder
	for _, c := range cs {
		b.Insert(c.Path)
	}
	return b.Build()
}

// conflictsFrom lists the conflicts of each manager, managers sorted.
func conflictsFrom(sets fieldpath.Managers) Conflicts {
	var out Conflicts
	for _, name := range sets.Names() {
		for p := range sets[name].Set.All() {
			out = append(out, Conflict{Manager: name, Path: p.Copy()})
		}
	}
	return out
}

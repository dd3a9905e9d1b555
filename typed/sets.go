package typed

import (
	"fmt"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
)

// The merge's helpers are not typed's API: the merge reaches them through
// internal/own.
func init() {
	own.Typed.EnsureNamedFieldsAreMembers = ensureNamedFieldsAreMembers
	own.Typed.NamedFieldsCovered = namedFieldsCovered
}

// ensureNamedFieldsAreMembers returns set plus, as members, the fields that
// the schema declares by name and under which set has paths. A set made of
// .a.b.c where a is a declared field of the root and b a key of a map with an
// element type then also has .a (but not .a.b).
func ensureNamedFieldsAreMembers(t *schema.Type, set *fieldpath.Set) *fieldpath.Set {
	var b fieldpath.Builder
	var path fieldpath.Path
	added := collectNamedFields(t, set, &path, &b)
	if !added {
		return set
	}
	return set.Union(b.Build())
}

func collectNamedFields(t *schema.Type, set *fieldpath.Set, path *fieldpath.Path, b *fieldpath.Builder) bool {
	a := fullAtom(t)
	added := false
	for _, c := range own.Set.Children(set) {
		var ct *schema.Type
		switch c.Element.Kind() {
		case fieldpath.FieldNameKind:
			if a.m != nil {
				f, declared := a.m.Field(c.Element.FieldName())
				if declared {
					ct = f.Type()
					if !set.HasMember(c.Element) {
						*path = append(*path, c.Element)
						b.Insert(*path)
						*path = (*path)[:len(*path)-1]
						added = true
					}
				} else {
					ct = a.m.ElementType()
				}
			}
		case fieldpath.KeyKind:
			if a.list != nil {
				ct = a.list.ElementType()
			}
		}
		*path = append(*path, c.Element)
		if collectNamedFields(ct, c.Set, path, b) {
			added = true
		}
		*path = (*path)[:len(*path)-1]
	}
	return added
}

// namedFieldsCovered reports whether every member path of
// ensureNamedFieldsAreMembers(t, set) is one of
// ensureNamedFieldsAreMembers(t, by), without building either set.
func namedFieldsCovered(t *schema.Type, set, by *fieldpath.Set) bool {
	a := fullAtom(t)
	for _, m := range own.Set.Members(set) {
		if by.HasMember(m) {
			continue
		}
		// by's named fields become members where by has paths below them.
		if m.Kind() == fieldpath.FieldNameKind && a.m != nil && by.WithPrefix(m) != nil {
			if _, declared := a.m.Field(m.FieldName()); declared {
				continue
			}
		}
		return false
	}
	for _, c := range own.Set.Children(set) {
		sub := by.WithPrefix(c.Element)
		if sub == nil {
			// set has member paths below c.Element and by has none.
			return false
		}
		var ct *schema.Type
		switch c.Element.Kind() {
		case fieldpath.FieldNameKind:
			if a.m != nil {
				if f, declared := a.m.Field(c.Element.FieldName()); declared {
					ct = f.Type()
				} else {
					ct = a.m.ElementType()
				}
			}
		case fieldpath.KeyKind:
			if a.list != nil {
				ct = a.list.ElementType()
			}
		}
		if !namedFieldsCovered(ct, c.Set, sub) {
			return false
		}
	}
	return true
}

// ReconcileFieldSet adapts a manager's field set to the schema of the live
// object after the schema changed: paths below a list or map that is now
// atomic are replaced by the list or map itself. It returns nil when nothing
// needs to change.
func ReconcileFieldSet(t *schema.Type, set *fieldpath.Set) (*fieldpath.Set, error) {
	b := getBufs()
	r := reconciler{path: b.path}
	r.walk(t, set, false)
	b.path = r.path
	b.put()
	if err := r.errs.result(); err != nil {
		return nil, fmt.Errorf("errors reconciling field set with schema: %w", err)
	}
	if !r.changed {
		return nil, nil
	}
	return set.RecursiveDifference(r.remove.Build()).Union(r.add.Build()), nil
}

type reconciler struct {
	path        fieldpath.Path
	remove, add fieldpath.Builder
	changed     bool
	errs        errorList
}

func (r *reconciler) makeAtomic() {
	r.remove.Insert(r.path)
	r.add.Insert(r.path)
	r.changed = true
}

func (r *reconciler) walk(t *schema.Type, node *fieldpath.Set, isAtomic bool) {
	a := fullAtom(t)
	switch a.kind() {
	case atomMap:
		if isUntypedDeducedMap(a.m) {
			return
		}
		if !isAtomic && a.m.Relationship() == schema.Atomic {
			if node.Size() > 0 {
				r.makeAtomic()
			}
			return
		}
		r.visit(node, func(pe fieldpath.PathElement) *schema.Type {
			if pe.Kind() == fieldpath.FieldNameKind {
				ft, _ := fieldType(a.m, pe.FieldName())
				return ft
			}
			return a.m.ElementType()
		})
	case atomScalar:
	case atomList:
		if !isAtomic && a.list.Relationship() == schema.Atomic {
			r.makeAtomic()
			return
		}
		r.visit(node, func(fieldpath.PathElement) *schema.Type { return a.list.ElementType() })
	default:
		r.errs.add(r.path, SchemaProblem, invalidAtomMessage(t))
	}
}

// visit descends into every element of node: those with children, with
// their children, and the members; typeOf gives each element's type (nil to
// skip it). Members and children are both sorted, so one merged pass finds
// the elements that are both.
func (r *reconciler) visit(node *fieldpath.Set, typeOf func(fieldpath.PathElement) *schema.Type) {
	ms, cs := own.Set.Members(node), own.Set.Children(node)
	for len(ms) > 0 || len(cs) > 0 {
		var c int
		switch {
		case len(ms) == 0:
			c = 1
		case len(cs) == 0:
			c = -1
		default:
			c = ms[0].Compare(cs[0].Element)
		}
		var pe fieldpath.PathElement
		var child *fieldpath.Set
		isMember := c <= 0
		if c <= 0 {
			pe, ms = ms[0], ms[1:]
		}
		if c >= 0 {
			pe, child, cs = cs[0].Element, cs[0].Set, cs[1:]
		}
		ct := typeOf(pe)
		if ct == nil {
			continue
		}
		r.path = append(r.path, pe)
		r.walk(ct, child, isMember && child.Empty())
		r.path = r.path[:len(r.path)-1]
	}
}

func isUntypedDeducedMap(m *schema.Map) bool {
	if len(m.Fields()) > 0 {
		return false
	}
	et := m.ElementType()
	if et == nil {
		return false
	}
	if et.Name() != "" {
		return et.Name() == "__untyped_deduced_"
	}
	return et.Scalar() == schema.Untyped
}

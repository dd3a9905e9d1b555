package fieldpath

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Set is a set of paths, kept as a trie: Members holds the paths of length
// one, and Children the longer paths grouped by their first element. The
// zero Set is empty and ready to use.
type Set struct {
	// Members are the paths of length one.
	Members PathElementSet
	// Children are the sets of the rest of the longer paths, by first
	// element.
	Children SetNodeMap
}

// NewSet returns a set holding paths.
func NewSet(paths ...Path) *Set {
	s := &Set{}
	for _, p := range paths {
		s.Insert(p)
	}
	return s
}

// Copy returns a deep copy of s.
func (s *Set) Copy() *Set {
	return &Set{Members: s.Members.Copy(), Children: s.Children.Copy()}
}

// Insert adds p to the set. The empty path is ignored.
func (s *Set) Insert(p Path) {
	if len(p) == 0 {
		return
	}
	for len(p) > 1 {
		s = s.Children.Descend(p[0])
		p = p[1:]
	}
	s.Members.Insert(p[0])
}

// Union returns the paths in s or s2.
func (s *Set) Union(s2 *Set) *Set {
	return &Set{Members: *s.Members.Union(&s2.Members), Children: *s.Children.Union(&s2.Children)}
}

// Intersection returns the paths in both s and s2.
func (s *Set) Intersection(s2 *Set) *Set {
	return &Set{Members: *s.Members.Intersection(&s2.Members), Children: *s.Children.Intersection(&s2.Children)}
}

// Difference returns the paths in s that are not in s2. A path of s2 does
// not remove the longer paths below it (see RecursiveDifference).
func (s *Set) Difference(s2 *Set) *Set {
	return &Set{Members: *s.Members.Difference(&s2.Members), Children: *s.Children.Difference(s2)}
}

// RecursiveDifference returns the paths in s that neither are in s2 nor
// have a prefix that is.
func (s *Set) RecursiveDifference(s2 *Set) *Set {
	return &Set{Members: *s.Members.Difference(&s2.Members), Children: *s.Children.RecursiveDifference(s2)}
}

// EnsureNamedFieldsAreMembers returns s with every child that is a field
// the type tr (resolved in sc) declares also listed as a member.
func (s *Set) EnsureNamedFieldsAreMembers(sc *schema.Schema, tr schema.TypeRef) *Set {
	atom, _ := sc.Resolve(tr)
	members := s.Members.Copy()
	if atom.Map != nil {
		for _, n := range s.Children.members {
			if n.pathElement.FieldName == nil {
				continue
			}
			if _, ok := atom.Map.FindField(*n.pathElement.FieldName); ok {
				members.Insert(n.pathElement)
			}
		}
	}
	return &Set{Members: members, Children: *s.Children.EnsureNamedFieldsAreMembers(sc, tr)}
}

// Size returns the number of paths.
func (s *Set) Size() int { return s.Members.Size() + s.Children.Size() }

// Empty reports whether the set has no paths.
func (s *Set) Empty() bool { return s.Members.Size() == 0 && s.Children.Empty() }

// Has reports whether p is in the set.
func (s *Set) Has(p Path) bool {
	if len(p) == 0 {
		return false
	}
	for len(p) > 1 {
		var ok bool
		if s, ok = s.Children.Get(p[0]); !ok {
			return false
		}
		p = p[1:]
	}
	return s.Members.Has(p[0])
}

// Equals reports whether the sets have the same members and the same
// children, node for node.
func (s *Set) Equals(s2 *Set) bool {
	return s.Members.Equals(&s2.Members) && s.Children.Equals(&s2.Children)
}

// String lists the paths, one per line, in order.
func (s *Set) String() string {
	var lines []string
	s.Iterate(func(p Path) { lines = append(lines, p.String()) })
	return strings.Join(lines, "\n")
}

// Iterate calls f for each path, members of a node before its children.
// Each call of f gets a path of its own, which f may keep (callers such as
// k8s.io/apimachinery's tests collect them).
func (s *Set) Iterate(f func(Path)) { s.iterate(nil, f) }

// All returns the paths in Iterate's order.
func (s *Set) All() iter.Seq[Path] {
	return func(yield func(Path) bool) {
		stop := false
		s.Iterate(func(p Path) {
			if !stop && !yield(p) {
				stop = true
			}
		})
	}
}

func (s *Set) iterate(prefix Path, f func(Path)) {
	// The full slice expression makes each append copy the prefix.
	prefix = prefix[:len(prefix):len(prefix)]
	for _, pe := range s.Members.members {
		f(append(prefix, pe))
	}
	for _, n := range s.Children.members {
		n.set.iterate(append(prefix, n.pathElement), f)
	}
}

// WithPrefix returns the child set under pe (shared with s, not copied), or
// an empty set.
func (s *Set) WithPrefix(pe PathElement) *Set {
	if c, ok := s.Children.Get(pe); ok {
		return c
	}
	return NewSet()
}

// Leaves returns the paths of s that are not a prefix of another path of s.
func (s *Set) Leaves() *Set {
	out := &Set{}
	walk(s.Members.members, s.Children.members, func(pe PathElement, n setNode) int { return pe.Compare(n.pathElement) },
		func(pe PathElement) { out.Members.members = append(out.Members.members, pe) }, nil, nil)
	out.Children = *s.Children.Leaves()
	return out
}

// FilterIncludeMatches returns the paths of s that pattern matches.
func (s *Set) FilterIncludeMatches(pattern *SetMatcher) *Set {
	if pattern.wildcard {
		return s
	}
	out := &Set{}
	for _, pe := range s.Members.members {
		if pattern.match(pe) != nil {
			out.Members.members = append(out.Members.members, pe)
		}
	}
	out.Children = *s.Children.FilterIncludeMatches(pattern)
	return out
}

// setNode is a child of a Set: the first element and the set of the rest.
type setNode struct {
	pathElement PathElement
	set         *Set
}

// SetNodeMap is the children of a Set, sorted by path element.
type SetNodeMap struct {
	members []setNode
}

func (s *SetNodeMap) find(pe PathElement) (int, bool) {
	return slices.BinarySearchFunc(s.members, pe, func(n setNode, pe PathElement) int {
		return n.pathElement.Compare(pe)
	})
}

func compareNodes(a, b setNode) int { return a.pathElement.Compare(b.pathElement) }

// Copy returns a deep copy.
func (s *SetNodeMap) Copy() SetNodeMap {
	out := make([]setNode, len(s.members))
	for i, n := range s.members {
		out[i] = setNode{n.pathElement.Copy(), n.set.Copy()}
	}
	return SetNodeMap{members: out}
}

// Descend returns the child set under pe, adding an empty one if there is
// none. The returned set belongs to s: inserting into it changes s.
func (s *SetNodeMap) Descend(pe PathElement) *Set {
	i, found := s.find(pe)
	if !found {
		s.members = slices.Insert(s.members, i, setNode{pathElement: pe, set: &Set{}})
	}
	return s.members[i].set
}

// Size returns the number of paths in the child sets.
func (s *SetNodeMap) Size() int {
	n := 0
	for _, c := range s.members {
		n += c.set.Size()
	}
	return n
}

// Empty reports whether every child set is empty.
func (s *SetNodeMap) Empty() bool {
	for _, c := range s.members {
		if !c.set.Empty() {
			return false
		}
	}
	return true
}

// Get returns the child set under pe (shared, not copied).
func (s *SetNodeMap) Get(pe PathElement) (*Set, bool) {
	if i, found := s.find(pe); found {
		return s.members[i].set, true
	}
	return nil, false
}

// Equals reports whether the maps have the same elements with equal sets.
func (s *SetNodeMap) Equals(s2 *SetNodeMap) bool {
	return slices.EqualFunc(s.members, s2.members, func(a, b setNode) bool {
		return a.pathElement.Equals(b.pathElement) && a.set.Equals(b.set)
	})
}

// Union returns the children of either map, merging the sets under the
// same element. As in SMD, a child set that only one map has is shared
// with the result, not copied (so are those of Difference and
// RecursiveDifference).
func (s *SetNodeMap) Union(s2 *SetNodeMap) *SetNodeMap {
	out := &SetNodeMap{}
	add := func(n setNode) { out.members = append(out.members, n) }
	walk(s.members, s2.members, compareNodes, add, add, func(a, b setNode) {
		out.members = append(out.members, setNode{a.pathElement, a.set.Union(b.set)})
	})
	return out
}

// Intersection returns the non-empty intersections of the sets under the
// elements both maps have.
func (s *SetNodeMap) Intersection(s2 *SetNodeMap) *SetNodeMap {
	out := &SetNodeMap{}
	walk(s.members, s2.members, compareNodes, nil, nil, func(a, b setNode) {
		if r := a.set.Intersection(b.set); !r.Empty() {
			out.members = append(out.members, setNode{a.pathElement, r})
		}
	})
	return out
}

// Difference returns the children of s less the paths of s2 below the same
// elements, dropping those left empty.
func (s *SetNodeMap) Difference(s2 *Set) *SetNodeMap {
	out := &SetNodeMap{}
	walk(s.members, s2.Children.members, compareNodes,
		func(a setNode) { out.members = append(out.members, a) },
		nil,
		func(a, b setNode) {
			if r := a.set.Difference(b.set); !r.Empty() {
				out.members = append(out.members, setNode{a.pathElement, r})
			}
		})
	return out
}

// RecursiveDifference is Difference that also drops every child whose
// element is a member of s2.
func (s *SetNodeMap) RecursiveDifference(s2 *Set) *SetNodeMap {
	out := &SetNodeMap{}
	walk(s.members, s2.Children.members, compareNodes,
		func(a setNode) {
			if !s2.Members.Has(a.pathElement) {
				out.members = append(out.members, a)
			}
		},
		nil,
		func(a, b setNode) {
			if s2.Members.Has(a.pathElement) {
				return
			}
			if r := a.set.RecursiveDifference(b.set); !r.Empty() {
				out.members = append(out.members, setNode{a.pathElement, r})
			}
		})
	return out
}

// EnsureNamedFieldsAreMembers applies Set.EnsureNamedFieldsAreMembers to
// each child, with the child's type within tr.
func (s *SetNodeMap) EnsureNamedFieldsAreMembers(sc *schema.Schema, tr schema.TypeRef) *SetNodeMap {
	atom, _ := sc.Resolve(tr)
	out := &SetNodeMap{members: make([]setNode, 0, len(s.members))}
	for _, n := range s.members {
		var child schema.TypeRef
		switch {
		case n.pathElement.FieldName != nil && atom.Map != nil:
			child = atom.Map.ElementType
			if f, ok := atom.Map.FindField(*n.pathElement.FieldName); ok {
				child = f.Type
			}
		case n.pathElement.Key != nil && atom.List != nil:
			child = atom.List.ElementType
		}
		out.members = append(out.members, setNode{n.pathElement, n.set.EnsureNamedFieldsAreMembers(sc, child)})
	}
	return out
}

// FilterIncludeMatches returns the children pattern matches, each filtered
// by the matching member's child pattern; children left empty are dropped.
func (s *SetNodeMap) FilterIncludeMatches(pattern *SetMatcher) *SetNodeMap {
	if pattern.wildcard {
		return s
	}
	out := &SetNodeMap{}
	for _, n := range s.members {
		m := pattern.match(n.pathElement)
		if m == nil {
			continue
		}
		if c := n.set.FilterIncludeMatches(m.Child); c.Size() > 0 {
			out.members = append(out.members, setNode{n.pathElement, c})
		}
	}
	return out
}

// Iterate calls f for each child's element, in order.
func (s *SetNodeMap) Iterate(f func(PathElement)) {
	for _, n := range s.members {
		f(n.pathElement)
	}
}

// All returns the children's elements, in order.
func (s *SetNodeMap) All() iter.Seq[PathElement] {
	return func(yield func(PathElement) bool) {
		for _, n := range s.members {
			if !yield(n.pathElement) {
				return
			}
		}
	}
}

// Leaves applies Set.Leaves to each child.
func (s *SetNodeMap) Leaves() *SetNodeMap {
	out := &SetNodeMap{members: make([]setNode, len(s.members))}
	for i, n := range s.members {
		out.members[i] = setNode{n.pathElement, n.set.Leaves()}
	}
	return out
}

// Filter selects paths from a set.
type Filter interface {
	// Filter returns the selected paths of the set.
	Filter(*Set) *Set
}

// NewExcludeSetFilter returns a filter that removes the paths of exclude and
// everything below them (RecursiveDifference).
func NewExcludeSetFilter(exclude *Set) Filter { return excludeFilter{exclude} }

// NewExcludeFilterSetMap returns an exclude filter per API version.
func NewExcludeFilterSetMap(resetFields map[APIVersion]*Set) map[APIVersion]Filter {
	out := make(map[APIVersion]Filter, len(resetFields))
	for v, s := range resetFields {
		out[v] = excludeFilter{s}
	}
	return out
}

type excludeFilter struct{ exclude *Set }

func (f excludeFilter) Filter(s *Set) *Set { return s.RecursiveDifference(f.exclude) }

// NewIncludeMatcherFilter returns a filter that keeps the paths any of the
// matchers matches; with no matchers it keeps everything.
func NewIncludeMatcherFilter(matchers ...*SetMatcher) Filter {
	if len(matchers) == 0 {
		return includeFilter{MatchAnySet()}
	}
	m := matchers[0]
	for _, n := range matchers[1:] {
		m = m.Merge(n)
	}
	return includeFilter{m}
}

type includeFilter struct{ matcher *SetMatcher }

func (f includeFilter) Filter(s *Set) *Set { return s.FilterIncludeMatches(f.matcher) }

// SetMatcher is a pattern over sets of paths: either a wildcard that matches
// every path, or member patterns for the first element, each with a pattern
// for the rest.
type SetMatcher struct {
	wildcard bool
	members  []*SetMemberMatcher
}

// SetMemberMatcher matches a first path element (Path) and the rest of the
// path (Child).
type SetMemberMatcher struct {
	// Path matches the first element.
	Path PathElementMatcher
	// Child matches the rest of the path.
	Child *SetMatcher
}

// PathElementMatcher matches one path element, or any element when Wildcard
// is set.
type PathElementMatcher struct {
	// Wildcard makes the matcher match every element.
	Wildcard bool
	// PathElement is the element matched when Wildcard is false.
	PathElement
}

// MatchAnyPathElement returns the matcher of every element.
func MatchAnyPathElement() PathElementMatcher { return PathElementMatcher{Wildcard: true} }

// MatchAnySet returns the matcher of every path.
func MatchAnySet() *SetMatcher { return &SetMatcher{wildcard: true} }

// NewSetMatcher returns a matcher from member patterns (sorted here); a
// wildcard matcher matches every path whatever its members.
func NewSetMatcher(wildcard bool, members ...*SetMemberMatcher) *SetMatcher {
	slices.SortStableFunc(members, func(a, b *SetMemberMatcher) int { return a.Path.Compare(b.Path) })
	return &SetMatcher{wildcard: wildcard, members: members}
}

// Equals reports whether the matchers are the same. Unlike SMD's, which
// reports true only when exactly one of the two is a wildcard, it reports
// whether both are wildcards or both match the same element.
func (p PathElementMatcher) Equals(p2 PathElementMatcher) bool {
	if p.Wildcard || p2.Wildcard {
		return p.Wildcard == p2.Wildcard
	}
	return p.PathElement.Equals(p2.PathElement)
}

// Less reports whether p sorts before p2: wildcards first, then by element.
func (p PathElementMatcher) Less(p2 PathElementMatcher) bool { return p.Compare(p2) < 0 }

// Compare orders matchers: a wildcard before an element matcher; two
// wildcards, or a matcher compared with a wildcard on the right, compare
// as SMD's do (the right wildcard sorts first).
func (p PathElementMatcher) Compare(p2 PathElementMatcher) int {
	switch {
	case p.Wildcard && !p2.Wildcard:
		return -1
	case p2.Wildcard:
		return 1
	}
	return p.PathElement.Compare(p2.PathElement)
}

// Merge returns a matcher of the paths either matcher matches.
func (s *SetMatcher) Merge(s2 *SetMatcher) *SetMatcher {
	if s.wildcard || s2.wildcard {
		return NewSetMatcher(true)
	}
	merged := slices.Clone(s.members)
	for _, m := range s2.members {
		i := slices.IndexFunc(s.members, func(x *SetMemberMatcher) bool { return x.Path.Compare(m.Path) == 0 })
		if i >= 0 {
			merged[i] = &SetMemberMatcher{Path: merged[i].Path, Child: merged[i].Child.Merge(m.Child)}
		} else {
			merged = append(merged, m)
		}
	}
	return NewSetMatcher(false, merged...)
}

// match returns the first member pattern that matches pe, or nil.
func (s *SetMatcher) match(pe PathElement) *SetMemberMatcher {
	for _, m := range s.members {
		if m.Path.Wildcard || m.Path.PathElement.Equals(pe) {
			return m
		}
	}
	return nil
}

// PrefixMatcher returns a matcher of the paths that start with parts (each
// as MakePath takes them, or a PathElementMatcher).
func PrefixMatcher(parts ...interface{}) (*SetMatcher, error) {
	current := MatchAnySet()
	for i := len(parts) - 1; i >= 0; i-- {
		var pm PathElementMatcher
		switch t := parts[i].(type) {
		case PathElementMatcher:
			pm = t
		case PathElement:
			pm = PathElementMatcher{PathElement: t}
		case *value.FieldList:
			if len(*t) == 0 {
				return nil, fmt.Errorf("associative list key type path elements must have at least one key (got zero)")
			}
			pm = PathElementMatcher{PathElement: PathElement{Key: t}}
		case value.Value:
			pm = PathElementMatcher{PathElement: PathElement{Value: &t}}
		case string:
			pm = PathElementMatcher{PathElement: PathElement{FieldName: &t}}
		case int:
			pm = PathElementMatcher{PathElement: PathElement{Index: &t}}
		default:
			return nil, fmt.Errorf("unexpected type %T", t)
		}
		current = &SetMatcher{members: []*SetMemberMatcher{{Path: pm, Child: current}}}
	}
	return current, nil
}

// MakePrefixMatcherOrDie is PrefixMatcher that panics on error.
func MakePrefixMatcherOrDie(parts ...interface{}) *SetMatcher {
	m, err := PrefixMatcher(parts...)
	if err != nil {
		panic(err)
	}
	return m
}

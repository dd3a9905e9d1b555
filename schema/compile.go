package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxCompiledAtoms bounds the number of inline types Compile builds. Only a
// Document built in code that shares a *MapDef or *ListDef in many places (or
// in a cycle) can come near it; parsed documents are bounded by Parse.
const maxCompiledAtoms = 1 << 20

// Compile checks a Document and compiles it into an immutable graph of types.
// Named references become pointers (recursive types make cycles), each
// element-relationship override on a reference becomes its own node (one per
// referenced type and relationship), field indexes are built and the
// defaults of associative-list keys are looked up.
//
// It reports, all at once and sorted by type name, path and message:
// duplicate type names, duplicate field names in a map, duplicate members of
// a union, references to unknown named types, unknown scalar words, and
// nesting deeper than MaxDepth.
//
// Like SMD, it accepts: any elementRelationship word (a map is atomic only
// for "atomic", a list associative only for "associative"; see
// mapRelationship and listRelationship), keys on a list that is not
// associative (they have no effect), keys that are not fields of the element
// type, and an override on a type that has neither a list nor a map (the
// node is then Unresolvable, as SMD's Resolve fails for it).
//
// Compile does not modify doc, and the Schema shares no mutable memory with it.
//
// With Lenient, Compile also accepts what SMD accepts and these checks
// reject: see Lenient.
func Compile(doc *Document, opts ...CompileOption) (*Schema, error) {
	if doc == nil {
		return nil, &Error{Problems: []Problem{{Kind: ErrMissing, Message: "nil Document"}}}
	}
	c := &compiler{doc: doc, budget: maxCompiledAtoms}
	for _, opt := range opts {
		c.opts = opt(c.opts)
	}
	c.indexNames()
	c.named = make([]Type, len(doc.Types))
	for i := range doc.Types {
		nt := &doc.Types[i]
		c.typeName = nt.Name
		c.named[i].name = nt.Name
		c.compileAtom(&c.named[i], &nt.Atom, 0, nt.Line)
	}
	c.typeName = ""
	c.fillOverrides()
	c.computeKeyDefaults()
	c.markAnyValue()
	if len(c.problems) > 0 {
		sortByType(c.problems)
		return nil, &Error{Problems: c.problems}
	}
	s := &Schema{byName: make(map[string]*Type, len(c.index)), names: make([]string, 0, len(c.index))}
	for i := range doc.Types {
		name := doc.Types[i].Name
		if j := c.index[name]; j == i {
			s.byName[name] = &c.named[i]
			s.names = append(s.names, name)
		}
	}
	slices.Sort(s.names)
	return s, nil
}

// CompileOption changes what Compile accepts.
type CompileOption func(compileOptions) compileOptions

type compileOptions struct {
	lenient bool
}

// Lenient makes Compile accept two things SMD accepts: a reference to a
// type the schema does not define, which becomes an Unresolvable type named
// after the reference (operations on a value of it fail with SMD's
// "schema error: no type found matching: NAME"), and a scalar word other
// than numeric, string, boolean and untyped, which becomes an UnknownScalar
// (every non-null scalar value of it is invalid: "unexpected scalar type in
// schema: WORD"). structmerge's drop-in for SMD's API compiles with it.
func Lenient() CompileOption {
	return func(o compileOptions) compileOptions {
		o.lenient = true
		return o
	}
}

type compiler struct {
	opts     compileOptions
	doc      *Document
	index    map[string]int // type name -> position of its first definition
	named    []Type         // the named types, in document order
	problems []Problem
	budget   int
	tooLarge bool // a bound was hit: stop building inline types

	made      []*Type               // every type newType made
	overrides map[overrideKey]*Type // memo, lives only during Compile
	pending   []pendingOverride     // override nodes to fill once all named types are compiled
	keyed     []*List               // lists with keys, for key defaults

	typeName string    // the named type being compiled
	path     []pathSeg // where inside it

	// Arenas: nodes are carved from chunks to keep allocations few.
	types  []Type
	lists  []List
	maps   []Map
	fields []Field
	idx    []int32
	strs   []string
}

type overrideKey struct {
	target *Type
	part   uint8 // partMap, partList or partNone
	rel    Relationship
}

const (
	partNone uint8 = iota
	partMap
	partList
)

type pendingOverride struct {
	node *Type
	key  overrideKey
}

type pathSeg struct {
	field string
	kind  uint8 // segField, segListElem, segMapElem
}

const (
	segField uint8 = iota
	segListElem
	segMapElem
)

func (c *compiler) pathString() string {
	var b strings.Builder
	for i, s := range c.path {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch s.kind {
		case segField:
			b.WriteString("field ")
			b.WriteString(strconv.Quote(s.field))
		case segListElem:
			b.WriteString("list.elementType")
		case segMapElem:
			b.WriteString("map.elementType")
		}
	}
	return b.String()
}

func (c *compiler) fail(kind error, line int, format string, args ...any) {
	c.problems = append(c.problems, Problem{
		Kind:    kind,
		Type:    c.typeName,
		Path:    c.pathString(),
		Line:    line,
		Message: fmt.Sprintf(format, args...),
	})
}

func (c *compiler) indexNames() {
	c.index = make(map[string]int, len(c.doc.Types))
	for i := range c.doc.Types {
		nt := &c.doc.Types[i]
		if nt.Name == "" {
			c.typeName = ""
			c.fail(ErrMissing, nt.Line, "type #%d has an empty name", i)
			continue
		}
		if j, dup := c.index[nt.Name]; dup {
			c.typeName = nt.Name
			c.fail(ErrDuplicate, nt.Line, "duplicate type name (first defined as type #%d%s)", j, atLine(c.doc.Types[j].Line))
			continue
		}
		c.index[nt.Name] = i
	}
	c.typeName = ""
}

func atLine(line int) string {
	if line <= 0 {
		return ""
	}
	return " at line " + strconv.Itoa(line)
}

func (c *compiler) newType() *Type {
	if len(c.types) == 0 {
		c.types = make([]Type, 128)
	}
	t := &c.types[0]
	c.types = c.types[1:]
	c.made = append(c.made, t)
	return t
}

func (c *compiler) newList() *List {
	if len(c.lists) == 0 {
		c.lists = make([]List, 64)
	}
	l := &c.lists[0]
	c.lists = c.lists[1:]
	return l
}

func (c *compiler) newMap() *Map {
	if len(c.maps) == 0 {
		c.maps = make([]Map, 64)
	}
	m := &c.maps[0]
	c.maps = c.maps[1:]
	return m
}

func (c *compiler) newFields(n int) []Field {
	if n == 0 {
		return nil
	}
	if len(c.fields) < n {
		c.fields = make([]Field, max(n, 512))
	}
	f := c.fields[:n:n]
	c.fields = c.fields[n:]
	return f
}

func (c *compiler) newIndex(n int) []int32 {
	if len(c.idx) < n {
		c.idx = make([]int32, max(n, 1024))
	}
	x := c.idx[:n:n]
	c.idx = c.idx[n:]
	return x
}

func (c *compiler) cloneStrings(s []string) []string {
	n := len(s)
	if len(c.strs) < n {
		c.strs = make([]string, max(n, 128))
	}
	out := c.strs[:n:n]
	c.strs = c.strs[n:]
	copy(out, s)
	return out
}

func (c *compiler) compileAtom(dst *Type, a *Atom, depth, line int) {
	if a.Scalar != "" {
		k, ok := scalarKind(a.Scalar)
		switch {
		case ok:
		case c.opts.lenient:
			k = UnknownScalar
			dst.scalarWord = a.Scalar
		default:
			c.fail(ErrScalar, line, "unknown scalar type %q (want numeric, string, boolean or untyped)", a.Scalar)
		}
		dst.scalar = k
	}
	if a.List != nil {
		dst.list = c.compileList(a.List, depth)
	}
	if a.Map != nil {
		dst.m = c.compileMap(a.Map, depth)
	}
}

func (c *compiler) compileList(ld *ListDef, depth int) *List {
	l := c.newList()
	l.rel = listRelationship(ld.ElementRelationship)
	c.path = append(c.path, pathSeg{kind: segListElem})
	l.elem = c.compileRef(&ld.ElementType, depth+1, ld.Line)
	c.path = c.path[:len(c.path)-1]
	if len(ld.Keys) > 0 {
		l.keys = c.cloneStrings(ld.Keys)
		c.keyed = append(c.keyed, l)
	}
	return l
}

func (c *compiler) compileMap(md *MapDef, depth int) *Map {
	m := c.newMap()
	m.rel = mapRelationship(md.ElementRelationship)
	n := len(md.Fields)
	m.fields = c.newFields(n)
	for i := range md.Fields {
		fd := &md.Fields[i]
		f := &m.fields[i]
		f.name = fd.Name
		c.path = append(c.path, pathSeg{field: fd.Name})
		f.typ = c.compileRef(&fd.Type, depth+1, fd.Line)
		c.path = c.path[:len(c.path)-1]
		if !fd.Default.IsNull() {
			f.def, f.hasDef = fd.Default, true
		}
	}
	c.indexFields(m, md)
	if !md.ElementType.IsZero() {
		c.path = append(c.path, pathSeg{kind: segMapElem})
		m.elem = c.compileRef(&md.ElementType, depth+1, md.Line)
		c.path = c.path[:len(c.path)-1]
	}
	if len(md.Unions) > 0 {
		c.compileUnions(m, md)
	}
	return m
}

// indexFields builds the sorted index of a large map and reports duplicate
// field names.
func (c *compiler) indexFields(m *Map, md *MapDef) {
	n := len(m.fields)
	dup := func(first, again int) {
		c.path = append(c.path, pathSeg{field: m.fields[again].name})
		c.fail(ErrDuplicate, md.Fields[again].Line, "duplicate field name (first declared as field #%d%s)", first, atLine(md.Fields[first].Line))
		c.path = c.path[:len(c.path)-1]
	}
	if n <= smallMap {
		for i := 1; i < n; i++ {
			for j := 0; j < i; j++ {
				if m.fields[i].name == m.fields[j].name {
					dup(j, i)
					break
				}
			}
		}
		return
	}
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return strings.Compare(m.fields[a].name, m.fields[b].name) })
	for i := 1; i < n; i++ {
		if m.fields[idx[i]].name == m.fields[idx[i-1]].name {
			first := i - 1
			for first > 0 && m.fields[idx[first-1]].name == m.fields[idx[i]].name {
				first--
			}
			dup(int(idx[first]), int(idx[i]))
		}
	}
	// The hash table: a power of two at least twice the fields, open
	// addressing with linear probing; a repeated name keeps its first field.
	size := 16
	for size < 2*n {
		size *= 2
	}
	slots := c.newIndex(size)
	for i := range slots {
		slots[i] = -1
	}
	mask := uint32(size - 1)
	for i := range m.fields {
		name := m.fields[i].name
		h := fieldHash(name) & mask
		for ; slots[h] >= 0; h = (h + 1) & mask {
			if m.fields[slots[h]].name == name {
				break
			}
		}
		if slots[h] < 0 {
			slots[h] = int32(i)
		}
	}
	m.slots = slots
}

func (c *compiler) compileUnions(m *Map, md *MapDef) {
	m.unions = make([]Union, len(md.Unions))
	for i := range md.Unions {
		ud := &md.Unions[i]
		u := &m.unions[i]
		u.discriminator, u.hasDiscriminator = ud.Discriminator, ud.HasDiscriminator
		u.deduceInvalid = ud.DeduceInvalidDiscriminator
		u.fields = make([]UnionField, len(ud.Fields))
		for j := range ud.Fields {
			uf := &ud.Fields[j]
			for k := 0; k < j; k++ {
				if ud.Fields[k].FieldName == uf.FieldName {
					c.fail(ErrDuplicate, uf.Line, "union #%d: field %q listed twice", i, uf.FieldName)
					break
				}
			}
			u.fields[j] = UnionField{FieldName: uf.FieldName, DiscriminatorValue: uf.DiscriminatorValue}
		}
	}
}

// compileRef resolves a reference: a named type is its node (or an override
// node); an inline type is compiled on the spot.
func (c *compiler) compileRef(r *TypeRef, depth, line int) *Type {
	if r.Line > 0 {
		line = r.Line
	}
	if r.NamedType != "" {
		i, ok := c.index[r.NamedType]
		if !ok {
			if c.opts.lenient {
				t := c.newType()
				t.name = r.NamedType
				t.unresolvable = true
				return t
			}
			c.fail(ErrUnknownType, line, "unknown named type %q", r.NamedType)
			return emptyType
		}
		target := &c.named[i]
		if r.ElementRelationship == "" {
			return target
		}
		return c.override(target, &c.doc.Types[i].Atom, r.ElementRelationship)
	}
	if r.Scalar == "" && r.List == nil && r.Map == nil && r.ElementRelationship == "" {
		return emptyType
	}
	if c.tooLarge {
		return emptyType
	}
	if depth > MaxDepth {
		c.fail(ErrTooDeep, line, "inline types nested deeper than %d", MaxDepth)
		c.tooLarge = true
		return emptyType
	}
	if c.budget--; c.budget < 0 {
		c.fail(ErrTooLarge, line, "more than %d inline types", maxCompiledAtoms)
		c.tooLarge = true
		return emptyType
	}
	t := c.newType()
	c.compileAtom(t, &r.Atom, depth, line)
	if r.ElementRelationship != "" {
		// The atom was compiled for this reference alone, so it is
		// changed in place.
		switch {
		case t.m != nil:
			t.m.rel = mapRelationship(r.ElementRelationship)
		case t.list != nil:
			t.list.rel = listRelationship(r.ElementRelationship)
		default:
			*t = Type{unresolvable: true}
		}
	}
	return t
}

// override returns the node for a reference to a named type with an
// element-relationship override. As in SMD, the override applies to the
// type's map if it has one, else to its list; a type with neither cannot be
// resolved.
func (c *compiler) override(target *Type, src *Atom, word string) *Type {
	key := overrideKey{target: target}
	switch {
	case src.Map != nil:
		key.part, key.rel = partMap, mapRelationship(word)
	case src.List != nil:
		key.part, key.rel = partList, listRelationship(word)
	}
	if t, ok := c.overrides[key]; ok {
		return t
	}
	if c.overrides == nil {
		c.overrides = make(map[overrideKey]*Type)
	}
	node := c.newType()
	node.name = target.name
	if key.part == partNone {
		node.unresolvable = true
	} else {
		c.pending = append(c.pending, pendingOverride{node: node, key: key})
	}
	c.overrides[key] = node
	return node
}

// fillOverrides copies each overridden named type, now compiled, into its
// override node with the relationship changed.
func (c *compiler) fillOverrides() {
	for _, po := range c.pending {
		target := po.key.target
		*po.node = *target
		switch po.key.part {
		case partMap:
			if target.m != nil {
				m := c.newMap()
				*m = *target.m
				m.rel = po.key.rel
				po.node.m = m
			}
		case partList:
			if target.list != nil {
				l := c.newList()
				*l = *target.list
				l.rel = po.key.rel
				po.node.list = l
				if len(l.keys) > 0 {
					c.keyed = append(c.keyed, l)
				}
			}
		}
	}
}

// markAnyValue works out which types accept every value (see
// Type.AcceptsAny): those of the right shape whose list items and map
// entries are of such types, the largest such set (a type may refer to
// itself, as __untyped_deduced_ does), by dropping until nothing changes
// the types whose elements are not of it.
func (c *compiler) markAnyValue() {
	all := make([]*Type, 0, len(c.named)+len(c.made))
	for i := range c.named {
		all = append(all, &c.named[i])
	}
	all = append(all, c.made...)
	for _, t := range all {
		t.anyValue = anyValueShape(t)
	}
	for changed := true; changed; {
		changed = false
		for _, t := range all {
			if t.anyValue && !(t.list.elem.AcceptsAny() && t.m.elem.AcceptsAny()) {
				t.anyValue, changed = false, true
			}
		}
	}
}

// anyValueShape reports whether t has the shape of a type that accepts any
// value, whatever its elements' types: an untyped scalar, an atomic list
// and a map of no declared fields or unions, with element types.
func anyValueShape(t *Type) bool {
	return !t.unresolvable && t.scalar == Untyped &&
		t.list != nil && t.list.rel == Atomic && len(t.list.keys) == 0 && t.list.elem != nil &&
		t.m != nil && len(t.m.fields) == 0 && len(t.m.unions) == 0 && t.m.elem != nil
}

// computeKeyDefaults looks up, for every list with keys, the default of each
// key field in the element type's map.
func (c *compiler) computeKeyDefaults() {
	for _, l := range c.keyed {
		em := l.elem.m
		if em == nil {
			continue
		}
		var defs []keyDefault
		for i, k := range l.keys {
			if f, ok := em.Field(k); ok && f.hasDef {
				if defs == nil {
					defs = make([]keyDefault, len(l.keys))
				}
				defs[i] = keyDefault{v: f.def, ok: true}
			}
		}
		l.keyDefaults = defs
	}
}

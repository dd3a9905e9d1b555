package gen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Kind is the shape of a Type.
type Kind uint8

// The kinds of types.
const (
	// KindScalar is a numeric, string or boolean scalar.
	KindScalar Kind = iota + 1
	// KindStruct is a map with named fields (and optionally an element
	// type for fields it does not name).
	KindStruct
	// KindMap is a map whose keys are free and whose values have one type.
	KindMap
	// KindList is a list: atomic, a set (associative, no keys) or keyed
	// (associative with keys).
	KindList
	// KindRef refers to a named type, optionally overriding its element
	// relationship.
	KindRef
	// KindUntyped is what a reference to one of the two untyped types
	// resolves to: any value, maps granular (deduced) or atomic.
	KindUntyped
)

// Relationships.
const (
	Atomic      = "atomic"
	Associative = "associative"
	Separable   = "separable"
)

// The names of the two untyped types, defined as the reference's
// deduced-type tests define them.
const (
	UntypedDeduced = "__untyped_deduced_"
	UntypedAtomic  = "__untyped_atomic_"
)

// Type is one type of a schema. Types are shared between fields and never
// modified after Generate.
type Type struct {
	Kind Kind
	// Scalar is "numeric", "string" or "boolean" (KindScalar).
	Scalar string
	// Fields are the fields of a struct (KindStruct).
	Fields []Field
	// Extra is the type of a struct's fields that Fields does not name; nil
	// when a struct has none.
	Extra *Type
	// Elem is the element type of a map or list.
	Elem *Type
	// Atomic is true for an atomic struct, map or list, and for untyped
	// values whose maps are atomic.
	Atomic bool
	// Keys are the key fields of a keyed list; a list that is associative
	// and has no keys is a set.
	Keys []string
	// Ref is the named type a KindRef refers to, and Override its element
	// relationship override ("" for none).
	Ref      string
	Override string
	// ExplicitSeparable makes a non-atomic struct or map spell out
	// `elementRelationship: separable`.
	ExplicitSeparable bool
}

// Field is one field of a struct.
type Field struct {
	Name string
	Type *Type
	// Default is the field's default value (nil for none). Only scalar
	// fields have one.
	Default any
}

// Named is a named type of the schema.
type Named struct {
	Name string
	Type *Type
}

// Schema is a generated schema. Immutable after Generate; safe for
// concurrent use.
type Schema struct {
	// Types are the named types; the first is the root.
	Types []*Named
	// Root is the name of the root type.
	Root string

	byName map[string]*Named
}

// Named returns the named type called name (nil when there is none).
func (s *Schema) Named(name string) *Named { return s.byName[name] }

// RootType is a reference to the root type.
func (s *Schema) RootType() *Type { return &Type{Kind: KindRef, Ref: s.Root} }

// Resolve returns the type t stands for: a reference is replaced by the
// named type with its element relationship override applied; references to
// the untyped types become KindUntyped.
func (s *Schema) Resolve(t *Type) *Type {
	if t == nil || t.Kind != KindRef {
		return t
	}
	switch t.Ref {
	case UntypedDeduced:
		return &Type{Kind: KindUntyped, Atomic: t.Override == Atomic}
	case UntypedAtomic:
		return &Type{Kind: KindUntyped, Atomic: true}
	}
	n := s.byName[t.Ref]
	if n == nil {
		return nil
	}
	r := n.Type
	if t.Override == "" {
		return r
	}
	c := *r
	switch c.Kind {
	case KindStruct, KindMap:
		c.Atomic = t.Override == Atomic
	case KindList:
		c.Atomic = t.Override == Atomic
	}
	return &c
}

// FieldType returns the type of the field called name in struct t (resolved
// with Resolve by the caller): the named field's type, or the struct's
// element type. ok is false when the struct has no such field.
func (t *Type) FieldType(name string) (ft *Type, ok bool) {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return t.Fields[i].Type, true
		}
	}
	if t.Extra != nil {
		return t.Extra, true
	}
	return nil, false
}

// Field returns the field called name (nil when the struct does not name
// it).
func (t *Type) Field(name string) *Field {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i]
		}
	}
	return nil
}

// IsKeyed reports whether t (resolved) is a granular keyed list.
func (t *Type) IsKeyed() bool {
	return t != nil && t.Kind == KindList && !t.Atomic && len(t.Keys) > 0
}

// IsSet reports whether t (resolved) is a granular set.
func (t *Type) IsSet() bool {
	return t != nil && t.Kind == KindList && !t.Atomic && len(t.Keys) == 0
}

// Options bounds the size of generated schemas.
type Options struct {
	// MaxTypes is the number of named struct and list types at most
	// (besides the untyped ones); 0 means 8.
	MaxTypes int
	// MaxDepth is how deep struct-valued fields nest in the type graph
	// (recursion aside); 0 means 3.
	MaxDepth int
}

// Generate returns a random schema.
func Generate(r *rand.Rand, opts Options) *Schema {
	if opts.MaxTypes <= 0 {
		opts.MaxTypes = 8
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 3
	}
	g := &schemaGen{r: r, opts: opts, s: &Schema{byName: map[string]*Named{}}}
	g.newStruct(nil, 0, nil)
	g.s.Root = g.s.Types[0].Name
	for _, name := range []string{UntypedAtomic, UntypedDeduced} {
		n := &Named{Name: name}
		g.s.Types = append(g.s.Types, n)
		g.s.byName[name] = n
	}
	return g.s
}

type schemaGen struct {
	r    *rand.Rand
	opts Options
	s    *Schema
}

// keySpec is a key field of a keyed list's item type.
type keySpec struct {
	name, scalar string
	def          any
}

// keyChoices are the key combinations keyed lists use.
var keyChoices = [][]keySpec{
	{{name: "name", scalar: "string"}},
	{{name: "id", scalar: "numeric"}},
	{{name: "port", scalar: "numeric"}, {name: "proto", scalar: "string"}},
	{{name: "name", scalar: "string"}, {name: "id", scalar: "numeric"}},
}

func (g *schemaGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *schemaGen) canAddType() bool {
	return len(g.s.Types) < g.opts.MaxTypes
}

func (g *schemaGen) addNamed(t *Type) *Named {
	n := &Named{Name: "t" + strconv.Itoa(len(g.s.Types)), Type: t}
	g.s.Types = append(g.s.Types, n)
	g.s.byName[n.Name] = n
	return n
}

// newStruct adds a named struct type with the given key fields first; the
// ancestors are the struct types enclosing it (for recursive references).
func (g *schemaGen) newStruct(keys []keySpec, depth int, ancestors []string) *Named {
	t := &Type{Kind: KindStruct}
	n := g.addNamed(t)
	g.fillStruct(t, keys, depth, append(ancestors, n.Name))
	return n
}

func (g *schemaGen) fillStruct(t *Type, keys []keySpec, depth int, ancestors []string) {
	for _, k := range keys {
		f := Field{Name: k.name, Type: &Type{Kind: KindScalar, Scalar: k.scalar}, Default: k.def}
		t.Fields = append(t.Fields, f)
	}
	n := 2 + g.r.IntN(4)
	if depth == 0 {
		n = 4 + g.r.IntN(5)
	}
	used := map[string]bool{}
	for _, k := range keys {
		used[k.name] = true
	}
	for i := 0; i < n; i++ {
		prefix, ft := g.fieldType(depth, ancestors)
		name := prefix
		for j := 2; used[name]; j++ {
			name = prefix + strconv.Itoa(j)
		}
		used[name] = true
		f := Field{Name: name, Type: ft}
		if ft.Kind == KindScalar && g.chance(0.1) {
			f.Default = g.scalarDefault(ft.Scalar)
		}
		t.Fields = append(t.Fields, f)
	}
	if g.chance(0.1) {
		t.Extra = &Type{Kind: KindRef, Ref: UntypedDeduced}
	}
	if g.chance(0.2) {
		t.ExplicitSeparable = true
	}
}

func (g *schemaGen) scalarDefault(scalar string) any {
	switch scalar {
	case "numeric":
		return int64(1)
	case "boolean":
		return true
	}
	return "x"
}

func scalarType(r *rand.Rand) *Type {
	switch r.IntN(3) {
	case 0:
		return &Type{Kind: KindScalar, Scalar: "numeric"}
	case 1:
		return &Type{Kind: KindScalar, Scalar: "boolean"}
	}
	return &Type{Kind: KindScalar, Scalar: "string"}
}

// structRef returns a reference to a struct type for a field at depth: a
// new struct, an existing one, or (rarely) an enclosing one, which makes the
// schema recursive.
func (g *schemaGen) structRef(depth int, ancestors []string) *Type {
	if len(ancestors) > 0 && g.chance(0.12) {
		return &Type{Kind: KindRef, Ref: ancestors[g.r.IntN(len(ancestors))]}
	}
	if g.canAddType() && (g.chance(0.7) || len(g.s.Types) < 2) {
		return &Type{Kind: KindRef, Ref: g.newStruct(nil, depth+1, ancestors).Name}
	}
	// An existing struct type (any but the root, to keep values small).
	var cands []string
	for _, n := range g.s.Types[1:] {
		if n.Type != nil && n.Type.Kind == KindStruct {
			cands = append(cands, n.Name)
		}
	}
	if len(cands) == 0 {
		return &Type{Kind: KindRef, Ref: g.s.Types[0].Name}
	}
	return &Type{Kind: KindRef, Ref: cands[g.r.IntN(len(cands))]}
}

// itemStruct returns a reference to a new struct type with the given key
// fields (an existing one when no type may be added).
func (g *schemaGen) itemStruct(keys []keySpec, depth int, ancestors []string) *Type {
	if !g.canAddType() {
		// Reuse an item type with the same keys if there is one.
		for _, n := range g.s.Types {
			if n.Type != nil && n.Type.Kind == KindStruct && hasKeyFields(n.Type, keys) {
				return &Type{Kind: KindRef, Ref: n.Name}
			}
		}
		// Inline struct: it does not count as a named type.
		t := &Type{Kind: KindStruct}
		for _, k := range keys {
			t.Fields = append(t.Fields, Field{Name: k.name, Type: &Type{Kind: KindScalar, Scalar: k.scalar}, Default: k.def})
		}
		t.Fields = append(t.Fields, Field{Name: "s", Type: &Type{Kind: KindScalar, Scalar: "string"}})
		return t
	}
	return &Type{Kind: KindRef, Ref: g.newStruct(keys, depth+1, ancestors).Name}
}

func hasKeyFields(t *Type, keys []keySpec) bool {
	for _, k := range keys {
		f := t.Field(k.name)
		if f == nil || f.Type.Kind != KindScalar || f.Type.Scalar != k.scalar || f.Default != k.def {
			return false
		}
	}
	return true
}

// fieldType picks the type of a new field and a name prefix saying what it
// is.
func (g *schemaGen) fieldType(depth int, ancestors []string) (string, *Type) {
	deep := depth >= g.opts.MaxDepth
	for {
		switch k := g.r.IntN(112); {
		case k >= 100:
			if t, prefix := g.moreFieldTypes(k-100, deep, depth, ancestors); t != nil {
				return prefix, t
			}
		case k < 8:
			return "str", &Type{Kind: KindScalar, Scalar: "string"}
		case k < 14:
			return "num", &Type{Kind: KindScalar, Scalar: "numeric"}
		case k < 18:
			return "flag", &Type{Kind: KindScalar, Scalar: "boolean"}
		case k < 23:
			return "amap", &Type{Kind: KindMap, Elem: scalarType(g.r), Atomic: true}
		case k < 29:
			return "map", &Type{Kind: KindMap, Elem: scalarType(g.r), ExplicitSeparable: g.chance(0.2)}
		case k < 34:
			if deep {
				continue
			}
			return "smap", &Type{Kind: KindMap, Elem: g.structRef(depth, ancestors), Atomic: g.chance(0.2)}
		case k < 44:
			if deep {
				continue
			}
			if g.chance(0.25) {
				// An inline struct.
				t := &Type{Kind: KindStruct}
				g.fillStruct(t, nil, depth+1, ancestors)
				return "obj", t
			}
			return "obj", g.structRef(depth, ancestors)
		case k < 49:
			if deep {
				continue
			}
			// An atomic struct: a named struct declared atomic.
			if !g.canAddType() {
				continue
			}
			n := g.newStruct(nil, depth+1, ancestors)
			n.Type.Atomic = true
			return "aobj", &Type{Kind: KindRef, Ref: n.Name}
		case k < 54:
			if deep {
				continue
			}
			// A field-level override of a struct type.
			ref := g.structRef(depth, ancestors)
			if ref.Kind != KindRef {
				continue
			}
			if n := g.s.byName[ref.Ref]; n != nil && n.Type.Kind == KindStruct && n.Type.Atomic {
				ref.Override = Separable
			} else {
				ref.Override = Atomic
			}
			return "oobj", ref
		case k < 59:
			return "alist", &Type{Kind: KindList, Elem: scalarType(g.r), Atomic: true}
		case k < 62:
			if deep {
				continue
			}
			return "slist", &Type{Kind: KindList, Elem: g.structRef(depth, ancestors), Atomic: true}
		case k < 69:
			elem := &Type{Kind: KindScalar, Scalar: "string"}
			if g.chance(0.3) {
				elem = &Type{Kind: KindScalar, Scalar: "numeric"}
			}
			return "set", &Type{Kind: KindList, Elem: elem}
		case k < 81:
			if deep {
				continue
			}
			keys := keyChoices[g.r.IntN(len(keyChoices))]
			if g.chance(0.3) {
				// One key field gets a default.
				ks := append([]keySpec(nil), keys...)
				i := g.r.IntN(len(ks))
				ks[i].def = g.scalarDefault(ks[i].scalar)
				keys = ks
			}
			return "list", &Type{Kind: KindList, Elem: g.itemStruct(keys, depth, ancestors), Keys: keyNames(keys)}
		case k < 85:
			if deep || !g.canAddType() {
				continue
			}
			// A named list type used with an override: a set or a keyed
			// list that this field makes atomic.
			var lt *Type
			if g.chance(0.5) {
				lt = &Type{Kind: KindList, Elem: &Type{Kind: KindScalar, Scalar: "string"}}
			} else {
				keys := keyChoices[0]
				lt = &Type{Kind: KindList, Elem: g.itemStruct(keys, depth, ancestors), Keys: keyNames(keys)}
			}
			n := g.addNamed(lt)
			return "olist", &Type{Kind: KindRef, Ref: n.Name, Override: Atomic}
		case k < 92:
			t := &Type{Kind: KindRef, Ref: UntypedDeduced}
			if g.chance(0.15) {
				t.Override = Atomic
			}
			return "any", t
		case k < 95:
			return "raw", &Type{Kind: KindRef, Ref: UntypedAtomic}
		default:
			if depth == 0 || len(ancestors) == 0 {
				continue
			}
			// A recursive reference to an enclosing type.
			return "self", &Type{Kind: KindRef, Ref: ancestors[g.r.IntN(len(ancestors))]}
		}
	}
}

// moreFieldTypes returns the rarer field types (k in [0, 12)), or nil to
// draw again.
func (g *schemaGen) moreFieldTypes(k int, deep bool, depth int, ancestors []string) (*Type, string) {
	switch {
	case k < 3:
		// An untyped scalar: any scalar kind.
		return &Type{Kind: KindScalar, Scalar: "untyped"}, "scalar"
	case k < 6:
		// A named scalar type.
		n := &Named{Name: "s" + strconv.Itoa(len(g.s.Types)), Type: scalarType(g.r)}
		g.s.Types = append(g.s.Types, n)
		g.s.byName[n.Name] = n
		return &Type{Kind: KindRef, Ref: n.Name}, "nscalar"
	case k < 9:
		// A granular map whose values are lists.
		var lt *Type
		switch {
		case !deep && g.chance(0.4):
			keys := keyChoices[0]
			lt = &Type{Kind: KindList, Elem: g.itemStruct(keys, depth, ancestors), Keys: keyNames(keys)}
		case g.chance(0.5):
			lt = &Type{Kind: KindList, Elem: &Type{Kind: KindScalar, Scalar: "string"}}
		default:
			lt = &Type{Kind: KindList, Elem: scalarType(g.r), Atomic: true}
		}
		return &Type{Kind: KindMap, Elem: lt}, "lmap"
	default:
		// An atomic list of lists or of maps.
		elem := &Type{Kind: KindList, Elem: scalarType(g.r), Atomic: true}
		if g.chance(0.5) {
			elem = &Type{Kind: KindMap, Elem: scalarType(g.r), Atomic: g.chance(0.5)}
		}
		return &Type{Kind: KindList, Elem: elem, Atomic: true}, "llist"
	}
}

func keyNames(keys []keySpec) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.name
	}
	return out
}

// YAML returns the schema in the structured-merge-diff schema format.
func (s *Schema) YAML() []byte {
	var b strings.Builder
	b.WriteString("types:\n")
	for _, n := range s.Types {
		switch n.Name {
		case UntypedAtomic:
			b.WriteString(untypedAtomicYAML)
			continue
		case UntypedDeduced:
			b.WriteString(untypedDeducedYAML)
			continue
		}
		b.WriteString("- name: " + n.Name + "\n")
		writeAtom(&b, "  ", n.Type)
	}
	return []byte(b.String())
}

const untypedAtomicYAML = `- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
`

const untypedDeducedYAML = `- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
`

// writeAtom writes the keys that describe t at the given indentation.
func writeAtom(b *strings.Builder, ind string, t *Type) {
	switch t.Kind {
	case KindRef:
		b.WriteString(ind + "namedType: " + t.Ref + "\n")
		if t.Override != "" {
			b.WriteString(ind + "elementRelationship: " + t.Override + "\n")
		}
	case KindScalar:
		b.WriteString(ind + "scalar: " + t.Scalar + "\n")
	case KindStruct:
		b.WriteString(ind + "map:\n")
		b.WriteString(ind + "  fields:\n")
		for _, f := range t.Fields {
			b.WriteString(ind + "  - name: " + f.Name + "\n")
			b.WriteString(ind + "    type:\n")
			writeAtom(b, ind+"      ", f.Type)
			if f.Default != nil {
				b.WriteString(ind + "    default: " + FormatValue(f.Default) + "\n")
			}
		}
		if t.Extra != nil {
			b.WriteString(ind + "  elementType:\n")
			writeAtom(b, ind+"    ", t.Extra)
		}
		writeRelationship(b, ind+"  ", t)
	case KindMap:
		b.WriteString(ind + "map:\n")
		b.WriteString(ind + "  elementType:\n")
		writeAtom(b, ind+"    ", t.Elem)
		writeRelationship(b, ind+"  ", t)
	case KindList:
		b.WriteString(ind + "list:\n")
		b.WriteString(ind + "  elementType:\n")
		writeAtom(b, ind+"    ", t.Elem)
		if t.Atomic {
			b.WriteString(ind + "  elementRelationship: atomic\n")
		} else {
			b.WriteString(ind + "  elementRelationship: associative\n")
		}
		if len(t.Keys) > 0 {
			b.WriteString(ind + "  keys:\n")
			for _, k := range t.Keys {
				b.WriteString(ind + "  - " + k + "\n")
			}
		}
	default:
		panic(fmt.Sprintf("gen: cannot write a type of kind %d", t.Kind))
	}
}

func writeRelationship(b *strings.Builder, ind string, t *Type) {
	switch {
	case t.Atomic:
		b.WriteString(ind + "elementRelationship: atomic\n")
	case t.ExplicitSeparable:
		b.WriteString(ind + "elementRelationship: separable\n")
	}
}

// Changed returns a copy of s with one relationship changed, as a schema
// changes between versions of a program: a struct, map or list made atomic,
// or an atomic one made granular (a list only when it can be: a list of
// scalars becomes a set, a keyed list regains its keys). ok is false when s
// has nothing to change.
func (s *Schema) Changed(r *rand.Rand) (out *Schema, ok bool) {
	out = &Schema{Root: s.Root, byName: map[string]*Named{}}
	var cands []*Type
	var cp func(t *Type) *Type
	cp = func(t *Type) *Type {
		if t == nil {
			return nil
		}
		c := *t
		c.Fields = make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			f.Type = cp(f.Type)
			c.Fields[i] = f
		}
		c.Elem, c.Extra = cp(t.Elem), cp(t.Extra)
		switch {
		case c.Kind == KindStruct, c.Kind == KindMap:
			cands = append(cands, &c)
		case c.Kind == KindList && (len(c.Keys) > 0 || c.Elem.Kind == KindScalar):
			cands = append(cands, &c)
		}
		return &c
	}
	for _, n := range s.Types {
		c := &Named{Name: n.Name, Type: cp(n.Type)}
		out.Types = append(out.Types, c)
		out.byName[c.Name] = c
	}
	if len(cands) == 0 {
		return s, false
	}
	t := cands[r.IntN(len(cands))]
	t.Atomic = !t.Atomic
	return out, true
}

// Pruned returns a copy of s without the struct fields that keep says
// are not needed (key fields always stay) and without the named types the
// root no longer reaches; it makes a minimised case readable.
func (s *Schema) Pruned(keep func(field string) bool) *Schema {
	keys := map[string]bool{}
	for _, n := range s.Types {
		walkAll(n.Type, func(t *Type) {
			for _, k := range t.Keys {
				keys[k] = true
			}
		})
	}
	var cp func(t *Type) *Type
	cp = func(t *Type) *Type {
		if t == nil {
			return nil
		}
		c := *t
		c.Fields = nil
		for _, f := range t.Fields {
			if keys[f.Name] || keep(f.Name) {
				f.Type = cp(f.Type)
				c.Fields = append(c.Fields, f)
			}
		}
		c.Elem, c.Extra = cp(t.Elem), cp(t.Extra)
		return &c
	}
	all := map[string]*Named{}
	for _, n := range s.Types {
		all[n.Name] = &Named{Name: n.Name, Type: cp(n.Type)}
	}
	reached := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if reached[name] || all[name] == nil {
			return
		}
		reached[name] = true
		if name == UntypedDeduced {
			visit(UntypedAtomic)
		}
		walkAll(all[name].Type, func(t *Type) {
			if t.Kind == KindRef {
				visit(t.Ref)
			}
		})
	}
	visit(s.Root)
	out := &Schema{Root: s.Root, byName: map[string]*Named{}}
	for _, n := range s.Types {
		if reached[n.Name] {
			out.Types = append(out.Types, all[n.Name])
			out.byName[n.Name] = all[n.Name]
		}
	}
	return out
}

func walkAll(t *Type, f func(*Type)) {
	if t == nil {
		return
	}
	f(t)
	for _, fl := range t.Fields {
		walkAll(fl.Type, f)
	}
	walkAll(t.Elem, f)
	walkAll(t.Extra, f)
}

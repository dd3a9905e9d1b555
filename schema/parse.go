package schema

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/structmerge/structmerge/internal/valueown"
	"github.com/structmerge/structmerge/internal/yamlnode"
	"github.com/structmerge/structmerge/value"
)

// CompileYAML parses SMD's schema YAML and compiles it: Parse, then Compile.
func CompileYAML(data []byte) (*Schema, error) {
	doc, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return Compile(doc)
}

// Parse reads SMD's schema YAML into its source form. It accepts the keys
// SMD's own schema-of-schemas accepts and no others:
//
//	types: [{name, scalar, list, map, untyped}]
//	typeRef: {namedType, scalar, list, map, untyped, elementRelationship, nullable}
//	list: {elementType, elementRelationship, keys}
//	map: {fields, unions, elementType, elementRelationship}
//	field: {name, type, default}
//	union: {discriminator, deduceInvalidDiscriminator, fields: [{fieldName, discriminatorValue}]}
//
// `untyped` ({elementRelationship}) is accepted and, as in SMD, ignored. A
// null value is the same as an absent key; a key given twice counts with its
// last value (SMD's reader does the same, and SMD's test schemas repeat
// keys). Boolean keys also accept the YAML 1.1 words yes/no/on/off/y/n.
// Parse checks the shape of the input only; names, references and
// relationship words are checked by Compile. Every problem is reported (as
// an *Error), each with its line; the input must be one YAML document.
//
// Parse does not keep data, but the strings of the Document (and so of a
// Schema compiled from it) may share one copy of the input's bytes.
func Parse(data []byte) (*Document, error) {
	root, err := yamlnode.Read(data)
	if err != nil {
		var e *yamlnode.Error
		if errors.As(err, &e) {
			return nil, &Error{Problems: []Problem{{Kind: ErrSyntax, Line: e.Line, Message: e.Msg, Err: err}}}
		}
		return nil, &Error{Problems: []Problem{{Kind: ErrSyntax, Message: err.Error(), Err: err}}}
	}
	p := parser{budget: 16*len(data) + 4095}
	doc := p.document(root)
	if len(p.problems) > 0 {
		sortByPosition(p.problems)
		return nil, &Error{Problems: p.problems}
	}
	return doc, nil
}

type parser struct {
	problems []Problem
	budget   int    // nodes still allowed to be visited (aliases may repeat nodes)
	typeName string // the named type being parsed, for messages
	stopped  bool   // the budget ran out; stop walking
}

func (p *parser) fail(kind error, n *yaml.Node, format string, args ...any) {
	pr := Problem{Kind: kind, Type: p.typeName, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		pr.Line, pr.Column = n.Line, n.Column
	}
	p.problems = append(p.problems, pr)
}

// enter resolves aliases and charges the node budget. It returns nil when the
// walk must not descend into n.
func (p *parser) enter(n *yaml.Node, depth int) *yaml.Node {
	if p.stopped {
		return nil
	}
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i > 100 {
			p.fail(ErrSyntax, n, "alias chain too long")
			return nil
		}
		n = n.Alias
	}
	if n == nil {
		return nil
	}
	p.budget--
	if p.budget < 0 {
		p.fail(ErrTooLarge, n, "input expands to too many nodes (YAML aliases?)")
		p.stopped = true
		return nil
	}
	if depth > MaxDepth {
		p.fail(ErrTooDeep, n, "nesting deeper than %d", MaxDepth)
		p.stopped = true
		return nil
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return "a string"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		}
		return "a scalar " + strconv.Quote(n.Value) + " (" + n.Tag + ")"
	case yaml.DocumentNode:
		return "a document"
	}
	return "an unexpected node"
}

// mapping calls fn for each key of the mapping n, after checking that keys
// are plain scalars. A key given more than once counts only for its last
// value, as in the YAML reader SMD uses (SMD's own test schemas repeat keys).
// what names the mapping in messages. It reports whether n is a mapping (null
// is reported as not one, silently).
func (p *parser) mapping(n *yaml.Node, what string, fn func(key string, k, v *yaml.Node)) bool {
	if isNull(n) {
		return false
	}
	if n.Kind != yaml.MappingNode {
		p.fail(ErrSyntax, n, "%s: expected a mapping, got %s", what, describe(n))
		return false
	}
	c := n.Content
	var last map[string]int // for large mappings; small ones are scanned
	if len(c) > 32 {
		last = make(map[string]int, len(c)/2)
		for i := 0; i+1 < len(c); i += 2 {
			last[c[i].Value] = i
		}
	}
	for i := 0; i+1 < len(c); i += 2 {
		k := c[i]
		if k.Kind != yaml.ScalarNode {
			p.fail(ErrSyntax, k, "%s: a key must be a string, got %s", what, describe(k))
			continue
		}
		if k.Tag == "!!merge" {
			p.fail(ErrSyntax, k, "%s: merge keys (<<) are not supported", what)
			continue
		}
		if laterKey(c, i, last) {
			continue
		}
		fn(k.Value, k, c[i+1])
	}
	return true
}

// laterKey reports whether the key at c[i] occurs again after i.
func laterKey(c []*yaml.Node, i int, last map[string]int) bool {
	if last != nil {
		return last[c[i].Value] != i
	}
	for j := i + 2; j+1 < len(c); j += 2 {
		if c[j].Kind == yaml.ScalarNode && c[j].Value == c[i].Value {
			return true
		}
	}
	return false
}

func (p *parser) unknownKey(k *yaml.Node, what, known string) {
	p.fail(ErrUnknownKey, k, "unknown key %q in %s (known keys: %s)", k.Value, what, known)
}

// str reads a string-typed key. Null gives "".
func (p *parser) str(n *yaml.Node, what string, depth int) string {
	if n = p.enter(n, depth); n == nil || isNull(n) {
		return ""
	}
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "!!timestamp") {
		p.fail(ErrSyntax, n, "%s: expected a string, got %s", what, describe(n))
		return ""
	}
	return n.Value
}

// boolean reads a boolean-typed key, accepting YAML 1.1 words (yes, on, ...)
// as the YAML library SMD uses does. Null gives false.
func (p *parser) boolean(n *yaml.Node, what string, depth int) bool {
	if n = p.enter(n, depth); n == nil || isNull(n) {
		return false
	}
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!bool" || (n.Tag == "!!str" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0)) {
		switch n.Value {
		case "true", "True", "TRUE", "y", "Y", "yes", "Yes", "YES", "on", "On", "ON":
			return true
		case "false", "False", "FALSE", "n", "N", "no", "No", "NO", "off", "Off", "OFF":
			return false
		}
	}
	p.fail(ErrSyntax, n, "%s: expected a boolean, got %s", what, describe(n))
	return false
}

// sequence calls fn for each item of the sequence n (null is empty).
func (p *parser) sequence(n *yaml.Node, what string, depth int, fn func(item *yaml.Node)) {
	if n = p.enter(n, depth); n == nil || isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		p.fail(ErrSyntax, n, "%s: expected a sequence, got %s", what, describe(n))
		return
	}
	for _, item := range n.Content {
		if p.stopped {
			return
		}
		fn(item)
	}
}

func (p *parser) document(root *yaml.Node) *Document {
	doc := &Document{}
	n := p.enter(root, 0)
	if n == nil { // no document: empty input
		return doc
	}
	p.mapping(n, "schema", func(key string, k, v *yaml.Node) {
		if key != "types" {
			p.unknownKey(k, "schema", "types")
			return
		}
		p.sequence(v, "types", 2, func(item *yaml.Node) {
			if t, ok := p.namedType(item, 3); ok {
				doc.Types = append(doc.Types, t)
			}
		})
	})
	return doc
}

const typeDefKeys = "name, scalar, list, map, untyped"

func (p *parser) namedType(n *yaml.Node, depth int) (NamedType, bool) {
	var t NamedType
	if n = p.enter(n, depth); n == nil {
		return t, false
	}
	t.Line = n.Line
	p.typeName = ""
	defer func() { p.typeName = "" }()
	// Read the name first so that messages about the other keys can name
	// the type.
	hasName := false
	if n.Kind == yaml.MappingNode {
		for i := len(n.Content) - 2; i >= 0; i -= 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "name" {
				t.Name = p.str(n.Content[i+1], "name", depth+1)
				hasName = true
				break
			}
		}
	}
	p.typeName = t.Name
	if !p.mapping(n, "type definition", func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
		case "scalar", "list", "map", "untyped":
			p.atomKey(&t.Atom, key, v, depth+1)
		default:
			p.unknownKey(k, "type definition", typeDefKeys)
		}
	}) {
		if isNull(n) {
			p.fail(ErrSyntax, n, "type definition: expected a mapping, got null")
		}
		return t, false
	}
	switch {
	case !hasName:
		p.fail(ErrMissing, n, "type definition has no name")
	case t.Name == "":
		p.fail(ErrMissing, n, "type definition has an empty name")
	}
	return t, true
}

// atomKey reads one of the atom keys (scalar, list, map, untyped) into a.
func (p *parser) atomKey(a *Atom, key string, v *yaml.Node, depth int) {
	switch key {
	case "scalar":
		vn := p.enter(v, depth)
		if vn == nil {
			return
		}
		a.Scalar = p.str(vn, "scalar", depth)
		if a.Scalar == "" && !isNull(vn) && vn.Kind == yaml.ScalarNode && vn.Tag == "!!str" {
			p.fail(ErrScalar, vn, "scalar: empty scalar type")
		}
	case "list":
		a.List = p.list(v, depth)
	case "map":
		a.Map = p.mapDef(v, depth)
	case "untyped":
		// SMD's schema-of-schemas allows {elementRelationship: string}
		// here and then ignores it.
		if v = p.enter(v, depth); v == nil {
			return
		}
		p.mapping(v, "untyped", func(key string, k, v *yaml.Node) {
			if key != "elementRelationship" {
				p.unknownKey(k, "untyped", "elementRelationship")
				return
			}
			p.str(v, "untyped.elementRelationship", depth+1)
		})
	}
}

const typeRefKeys = "namedType, scalar, list, map, untyped, elementRelationship, nullable"

func (p *parser) typeRef(n *yaml.Node, depth int) TypeRef {
	var r TypeRef
	if n = p.enter(n, depth); n == nil {
		return r
	}
	r.Line = n.Line
	p.mapping(n, "type reference", func(key string, k, v *yaml.Node) {
		switch key {
		case "namedType":
			vn := p.enter(v, depth+1)
			if vn == nil {
				return
			}
			r.NamedType = p.str(vn, "namedType", depth+1)
			if r.NamedType == "" && vn.Kind == yaml.ScalarNode && vn.Tag == "!!str" {
				p.fail(ErrMissing, vn, "namedType: empty type name")
			}
		case "scalar", "list", "map", "untyped":
			p.atomKey(&r.Atom, key, v, depth+1)
		case "elementRelationship":
			r.ElementRelationship = p.str(v, "elementRelationship", depth+1)
		case "nullable":
			r.Nullable = p.boolean(v, "nullable", depth+1)
		default:
			p.unknownKey(k, "type reference", typeRefKeys)
		}
	})
	return r
}

const listKeys = "elementType, elementRelationship, keys"

func (p *parser) list(n *yaml.Node, depth int) *ListDef {
	if n = p.enter(n, depth); n == nil || isNull(n) {
		return nil
	}
	l := &ListDef{Line: n.Line}
	if !p.mapping(n, "list", func(key string, k, v *yaml.Node) {
		switch key {
		case "elementType":
			l.ElementType = p.typeRef(v, depth+1)
		case "elementRelationship":
			l.ElementRelationship = p.str(v, "elementRelationship", depth+1)
		case "keys":
			p.sequence(v, "keys", depth+1, func(item *yaml.Node) {
				l.Keys = append(l.Keys, p.str(item, "keys", depth+2))
			})
		default:
			p.unknownKey(k, "list", listKeys)
		}
	}) {
		return nil
	}
	return l
}

const mapKeys = "fields, unions, elementType, elementRelationship"

func (p *parser) mapDef(n *yaml.Node, depth int) *MapDef {
	if n = p.enter(n, depth); n == nil || isNull(n) {
		return nil
	}
	m := &MapDef{Line: n.Line}
	if !p.mapping(n, "map", func(key string, k, v *yaml.Node) {
		switch key {
		case "fields":
			p.sequence(v, "fields", depth+1, func(item *yaml.Node) {
				if f, ok := p.field(item, depth+2); ok {
					m.Fields = append(m.Fields, f)
				}
			})
		case "unions":
			p.sequence(v, "unions", depth+1, func(item *yaml.Node) {
				if u, ok := p.union(item, depth+2); ok {
					m.Unions = append(m.Unions, u)
				}
			})
		case "elementType":
			m.ElementType = p.typeRef(v, depth+1)
		case "elementRelationship":
			m.ElementRelationship = p.str(v, "elementRelationship", depth+1)
		default:
			p.unknownKey(k, "map", mapKeys)
		}
	}) {
		return nil
	}
	return m
}

func (p *parser) field(n *yaml.Node, depth int) (FieldDef, bool) {
	var f FieldDef
	if n = p.enter(n, depth); n == nil {
		return f, false
	}
	f.Line = n.Line
	hasName := false
	if !p.mapping(n, "field", func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			f.Name = p.str(v, "field name", depth+1)
			hasName = true
		case "type":
			f.Type = p.typeRef(v, depth+1)
		case "default":
			f.Default = p.value(v, depth+1)
		default:
			p.unknownKey(k, "field", "name, type, default")
		}
	}) {
		if isNull(n) {
			p.fail(ErrSyntax, n, "field: expected a mapping, got null")
		}
		return f, false
	}
	if !hasName {
		p.fail(ErrMissing, n, "field has no name")
	}
	return f, true
}

func (p *parser) union(n *yaml.Node, depth int) (UnionDef, bool) {
	var u UnionDef
	if n = p.enter(n, depth); n == nil {
		return u, false
	}
	u.Line = n.Line
	ok := p.mapping(n, "union", func(key string, k, v *yaml.Node) {
		switch key {
		case "discriminator":
			vn := p.enter(v, depth+1)
			if vn == nil || isNull(vn) {
				return
			}
			u.Discriminator = p.str(vn, "discriminator", depth+1)
			u.HasDiscriminator = true
		case "deduceInvalidDiscriminator":
			u.DeduceInvalidDiscriminator = p.boolean(v, "deduceInvalidDiscriminator", depth+1)
		case "fields":
			p.sequence(v, "union fields", depth+1, func(item *yaml.Node) {
				if uf, ok := p.unionField(item, depth+2); ok {
					u.Fields = append(u.Fields, uf)
				}
			})
		default:
			p.unknownKey(k, "union", "discriminator, deduceInvalidDiscriminator, fields")
		}
	})
	if !ok && isNull(n) {
		p.fail(ErrSyntax, n, "union: expected a mapping, got null")
	}
	return u, ok
}

func (p *parser) unionField(n *yaml.Node, depth int) (UnionFieldDef, bool) {
	var uf UnionFieldDef
	if n = p.enter(n, depth); n == nil {
		return uf, false
	}
	uf.Line = n.Line
	hasName := false
	if !p.mapping(n, "union field", func(key string, k, v *yaml.Node) {
		switch key {
		case "fieldName":
			uf.FieldName = p.str(v, "fieldName", depth+1)
			hasName = true
		case "discriminatorValue":
			uf.DiscriminatorValue = p.str(v, "discriminatorValue", depth+1)
		default:
			p.unknownKey(k, "union field", "fieldName, discriminatorValue")
		}
	}) {
		if isNull(n) {
			p.fail(ErrSyntax, n, "union field: expected a mapping, got null")
		}
		return uf, false
	}
	if !hasName {
		p.fail(ErrMissing, n, "union field has no fieldName")
	}
	return uf, true
}

// value converts a YAML node (a field's default) to a value.
func (p *parser) value(n *yaml.Node, depth int) value.Value {
	if n = p.enter(n, depth); n == nil {
		return value.Value{}
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return p.scalarValue(n)
	case yaml.SequenceNode:
		items := make([]value.Value, 0, len(n.Content))
		for _, c := range n.Content {
			if p.stopped {
				break
			}
			items = append(items, p.value(c, depth+1))
		}
		return vown.List(items)
	case yaml.MappingNode:
		fields := make([]value.Field, 0, len(n.Content)/2)
		p.mapping(n, "default", func(key string, _, v *yaml.Node) {
			if p.stopped {
				return
			}
			fields = append(fields, value.Field{Name: key, Value: p.value(v, depth+1)})
		})
		return vown.Map(fields)
	}
	p.fail(ErrSyntax, n, "default: unsupported YAML node")
	return value.Value{}
}

func (p *parser) scalarValue(n *yaml.Node) value.Value {
	switch n.Tag {
	case "!!null":
		return value.Value{}
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			p.fail(ErrSyntax, n, "default: bad boolean %q", n.Value)
		}
		return value.NewBool(b)
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return value.NewInt(i)
		}
		var u uint64
		if err := n.Decode(&u); err == nil {
			return value.NewFloat(float64(u))
		}
		var f float64
		if err := n.Decode(&f); err == nil {
			return value.NewFloat(f)
		}
		p.fail(ErrSyntax, n, "default: bad integer %q", n.Value)
		return value.Value{}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			p.fail(ErrSyntax, n, "default: bad number %q", n.Value)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			p.fail(ErrSyntax, n, "default: %q is not a JSON number", n.Value)
			return value.Value{}
		}
		return value.NewFloat(f)
	case "!!binary":
		var s string
		if err := n.Decode(&s); err != nil {
			p.fail(ErrSyntax, n, "default: bad binary %q", strings.TrimSpace(n.Value))
		}
		return value.NewString(s)
	}
	return value.NewString(n.Value)
}

// vown builds values without copying their slices (see package valueown;
// schema is below internal/own).
var vown = valueown.Of[value.Value, value.Field]()

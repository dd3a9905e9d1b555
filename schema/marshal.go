package schema

import (
	"bytes"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/structmerge/structmerge/value"
)

// Marshal writes a Document in SMD's schema YAML format, keys in the order
// SMD's own schemas use, omitting empty values. Parse(Marshal(doc)) gives doc
// back (apart from Line fields). The output is deterministic.
func Marshal(doc *Document) ([]byte, error) {
	if doc == nil {
		return nil, fmt.Errorf("schema: Marshal: nil Document: %w", ErrMissing)
	}
	w := writer{}
	root := w.document(doc)
	if w.err != nil {
		return nil, w.err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("schema: Marshal: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("schema: Marshal: %w", err)
	}
	return buf.Bytes(), nil
}

type writer struct {
	err error
}

func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func mappingNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

func (w *writer) tooDeep(depth int) bool {
	if depth > MaxDepth {
		if w.err == nil {
			w.err = fmt.Errorf("schema: Marshal: nesting deeper than %d: %w", MaxDepth, ErrTooDeep)
		}
		return true
	}
	return w.err != nil
}

func (w *writer) document(doc *Document) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for i := range doc.Types {
		nt := &doc.Types[i]
		m := mappingNode()
		add(m, "name", str(nt.Name))
		w.atom(m, &nt.Atom, 1)
		seq.Content = append(seq.Content, m)
	}
	root := mappingNode()
	add(root, "types", seq)
	return root
}

func (w *writer) atom(m *yaml.Node, a *Atom, depth int) {
	if a.Scalar != "" {
		add(m, "scalar", str(a.Scalar))
	}
	if a.List != nil {
		add(m, "list", w.list(a.List, depth+1))
	}
	if a.Map != nil {
		add(m, "map", w.mapDef(a.Map, depth+1))
	}
}

func (w *writer) typeRef(r *TypeRef, depth int) *yaml.Node {
	m := mappingNode()
	if w.tooDeep(depth) {
		return m
	}
	if r.NamedType != "" {
		add(m, "namedType", str(r.NamedType))
	} else {
		w.atom(m, &r.Atom, depth)
	}
	if r.ElementRelationship != "" {
		add(m, "elementRelationship", str(r.ElementRelationship))
	}
	if r.Nullable {
		add(m, "nullable", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	return m
}

func (w *writer) list(l *ListDef, depth int) *yaml.Node {
	m := mappingNode()
	if w.tooDeep(depth) {
		return m
	}
	if !l.ElementType.IsZero() {
		add(m, "elementType", w.typeRef(&l.ElementType, depth+1))
	}
	if l.ElementRelationship != "" {
		add(m, "elementRelationship", str(l.ElementRelationship))
	}
	if len(l.Keys) > 0 {
		keys := &yaml.Node{Kind: yaml.SequenceNode}
		for _, k := range l.Keys {
			keys.Content = append(keys.Content, str(k))
		}
		add(m, "keys", keys)
	}
	return m
}

func (w *writer) mapDef(md *MapDef, depth int) *yaml.Node {
	m := mappingNode()
	if w.tooDeep(depth) {
		return m
	}
	if len(md.Fields) > 0 {
		fields := &yaml.Node{Kind: yaml.SequenceNode}
		for i := range md.Fields {
			fd := &md.Fields[i]
			f := mappingNode()
			add(f, "name", str(fd.Name))
			if !fd.Type.IsZero() {
				add(f, "type", w.typeRef(&fd.Type, depth+1))
			}
			if !fd.Default.IsNull() {
				add(f, "default", w.value(fd.Default, depth+1))
			}
			fields.Content = append(fields.Content, f)
		}
		add(m, "fields", fields)
	}
	if len(md.Unions) > 0 {
		unions := &yaml.Node{Kind: yaml.SequenceNode}
		for i := range md.Unions {
			unions.Content = append(unions.Content, unionNode(&md.Unions[i]))
		}
		add(m, "unions", unions)
	}
	if !md.ElementType.IsZero() {
		add(m, "elementType", w.typeRef(&md.ElementType, depth+1))
	}
	if md.ElementRelationship != "" {
		add(m, "elementRelationship", str(md.ElementRelationship))
	}
	return m
}

func unionNode(u *UnionDef) *yaml.Node {
	m := mappingNode()
	if u.HasDiscriminator {
		add(m, "discriminator", str(u.Discriminator))
	}
	if u.DeduceInvalidDiscriminator {
		add(m, "deduceInvalidDiscriminator", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if len(u.Fields) > 0 {
		fields := &yaml.Node{Kind: yaml.SequenceNode}
		for _, uf := range u.Fields {
			f := mappingNode()
			add(f, "fieldName", str(uf.FieldName))
			add(f, "discriminatorValue", str(uf.DiscriminatorValue))
			fields.Content = append(fields.Content, f)
		}
		add(m, "fields", fields)
	}
	return m
}

func (w *writer) value(v value.Value, depth int) *yaml.Node {
	if w.tooDeep(depth) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	switch v.Kind() {
	case value.Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.AsBool())}
	case value.Int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v.AsInt(), 10)}
	case value.Float:
		f := v.AsFloat()
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if f == float64(int64(f)) && !bytes.ContainsAny([]byte(s), ".eE") {
			s += ".0" // keep it a float when read back
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
	case value.String:
		return str(v.AsString())
	case value.List:
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, it := range v.Items() {
			seq.Content = append(seq.Content, w.value(it, depth+1))
		}
		return seq
	case value.Map:
		m := mappingNode()
		for _, f := range v.Fields() {
			add(m, f.Name, w.value(f.Value, depth+1))
		}
		return m
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

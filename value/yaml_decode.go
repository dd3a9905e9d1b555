package value

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/internal/decodetext"
	"go.yaml.in/yaml/v3"
)

// Document is one document of a YAML stream.
type Document struct {
	Value Value
	// Line is the 1-based line where the document's content starts.
	Line int
}

// FromYAML decodes a YAML document into a Value. Empty input (or input with
// only comments) gives null; more than one non-empty document is an error
// (use FromYAMLDocuments for streams).
//
// Scalars are resolved with the YAML 1.2 core schema as go.yaml.in/yaml/v3
// does: only true/false (any case style) are booleans, so yes, no, on and off
// are strings; integers (also 0x, 0o and 0b forms, and with _ separators)
// are Int, or Float when too large for an int64; floats are Float; ~, null
// and an empty value are null; .nan and .inf are errors, since JSON cannot
// hold them. Timestamps stay strings. Mapping keys that are not strings
// become their text the way sigs.k8s.io/yaml converts them (1 → "1",
// true → "true", null → "null"); a list or map used as a key is an error.
// Merge keys (<<) are supported. Aliases are expanded (sharing memory), but
// the expanded size is bounded: past max(10 × input size, 10⁶) nodes the
// decoder fails with an error wrapping ErrTooLarge. Repeated mapping keys
// are errors. Errors are *SyntaxError values with a line, a column where
// known, and the JSON pointer of the enclosing value.
func FromYAML(data []byte, opts ...DecodeOption) (Value, error) {
	docs, err := FromYAMLDocuments(data, opts...)
	if err != nil {
		return Value{}, err
	}
	switch len(docs) {
	case 0:
		return Value{}, nil
	case 1:
		return docs[0].Value, nil
	}
	return Value{}, &SyntaxError{Offset: -1, Line: docs[1].Line,
		Msg: "found a second document where one was expected"}
}

// FromYAMLDocuments decodes a stream of YAML documents separated by "---",
// skipping empty documents. Each document is decoded as FromYAML describes;
// the limits (MaxBytes and the alias expansion budget) apply to the stream
// as a whole.
func FromYAMLDocuments(data []byte, opts ...DecodeOption) ([]Document, error) {
	cfg, err := resolveOptions(opts)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > cfg.MaxBytes {
		line, col := decodetext.LineColumn(data, int(cfg.MaxBytes))
		return nil, &SyntaxError{
			Offset: -1, Line: line, Column: col, Err: ErrTooLarge,
			Msg: fmt.Sprintf("input of %d bytes exceeds the limit of %d bytes", len(data), cfg.MaxBytes),
		}
	}
	c := yamlConverter{
		maxDepth: cfg.MaxDepth,
		budget:   max(10*int64(len(data)), 1_000_000),
		cache:    map[*yaml.Node]yamlCached{},
		active:   map[*yaml.Node]bool{},
	}
	c.limit = c.budget
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []Document
	for {
		var doc yaml.Node
		if err := decodeNode(dec, &doc); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, yamlParseError(err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		if root.Kind == yaml.ScalarNode && root.Value == "" && root.Style == 0 && root.Tag == "!!null" && root.Anchor == "" {
			continue // an empty document
		}
		v, _, _, ok := c.convert(root, 1)
		if !ok {
			e := c.err
			e.Path = pointerFromReversed(c.segs)
			return nil, e
		}
		docs = append(docs, Document{Value: v, Line: root.Line})
	}
	return docs, nil
}

// decodeNode parses the next document. The YAML parser is third-party code;
// a panic in it on some input must not take the caller down.
func decodeNode(dec *yaml.Decoder, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: parser failed: %v", r)
		}
	}()
	return dec.Decode(doc)
}

// yamlParseError turns an error of the YAML parser ("yaml: line 3: ...")
// into a *SyntaxError.
func yamlParseError(err error) *SyntaxError {
	line, msg := decodetext.YAMLParseError(err)
	return &SyntaxError{Offset: -1, Line: line, Msg: msg}
}

type yamlCached struct {
	v      Value
	size   int64 // logical node count, aliases expanded
	height int   // container levels: 0 for a scalar
}

// yamlConverter converts yaml.Node trees to Values for one call.
type yamlConverter struct {
	maxDepth int
	budget   int64 // logical nodes that may still be produced
	limit    int64
	cache    map[*yaml.Node]yamlCached // converted anchored nodes
	active   map[*yaml.Node]bool       // anchored nodes being converted
	err      *SyntaxError
	segs     []pathSeg // path to the error, innermost first
}

func (c *yamlConverter) fail(n *yaml.Node, sentinel error, format string, args ...any) (Value, int64, int, bool) {
	c.err = &SyntaxError{Offset: -1, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...), Err: sentinel}
	return Value{}, 0, 0, false
}

func (c *yamlConverter) charge(n *yaml.Node, size int64) bool {
	c.budget -= size
	if c.budget < 0 {
		c.fail(n, ErrTooLarge, "alias expansion exceeds the limit of %d nodes", c.limit)
		return false
	}
	return true
}

// convert converts n, which sits at the given depth (1 for a document's
// root) if it is a list or a map. It returns the value, its logical size
// and its height.
func (c *yamlConverter) convert(n *yaml.Node, depth int) (Value, int64, int, bool) {
	if n.Kind == yaml.AliasNode {
		return c.alias(n, depth)
	}
	if n.Anchor != "" {
		if _, done := c.cache[n]; done {
			return c.reuse(n, n, depth)
		}
		c.active[n] = true
	}
	var (
		v      Value
		size   int64
		height int
		ok     bool
	)
	switch n.Kind {
	case yaml.ScalarNode:
		v, ok = c.scalar(n)
		size = 1
		if ok {
			ok = c.charge(n, 1)
		}
	case yaml.SequenceNode:
		v, size, height, ok = c.sequence(n, depth)
	case yaml.MappingNode:
		v, size, height, ok = c.mapping(n, depth)
	case yaml.DocumentNode:
		return c.fail(n, nil, "unexpected nested document")
	default:
		return c.fail(n, nil, "unexpected YAML node kind %d", n.Kind)
	}
	if !ok {
		return Value{}, 0, 0, false
	}
	if n.Anchor != "" {
		delete(c.active, n)
		c.cache[n] = yamlCached{v: v, size: size, height: height}
	}
	return v, size, height, true
}

func (c *yamlConverter) alias(n *yaml.Node, depth int) (Value, int64, int, bool) {
	target := n.Alias
	if target == nil {
		return c.fail(n, nil, "unknown anchor %q referenced", n.Value)
	}
	if c.active[target] {
		return c.fail(n, nil, "alias *%s refers to a value that contains it", n.Value)
	}
	if _, ok := c.cache[target]; !ok {
		// Not converted yet: the anchor sits in a merge value, which is
		// converted after the mapping's other entries.
		return c.convert(target, depth)
	}
	return c.reuse(n, target, depth)
}

// reuse returns the converted value of the anchored node target for node n.
func (c *yamlConverter) reuse(n, target *yaml.Node, depth int) (Value, int64, int, bool) {
	cached := c.cache[target]
	if cached.height > 0 && depth+cached.height-1 > c.maxDepth {
		return c.fail(n, ErrTooDeep, "nesting exceeds the maximum depth of %d", c.maxDepth)
	}
	if !c.charge(n, cached.size) {
		return Value{}, 0, 0, false
	}
	return cached.v, cached.size, cached.height, true
}

func (c *yamlConverter) sequence(n *yaml.Node, depth int) (Value, int64, int, bool) {
	if depth > c.maxDepth {
		return c.fail(n, ErrTooDeep, "nesting exceeds the maximum depth of %d", c.maxDepth)
	}
	if !c.charge(n, 1) {
		return Value{}, 0, 0, false
	}
	if tag := decodetext.ShortYAMLTag(n.Tag); tag != "!!seq" && strings.HasPrefix(tag, "!!") {
		return c.fail(n, nil, "cannot decode a sequence as %s", tag)
	}
	items := make([]Value, len(n.Content))
	size, height := int64(1), 0
	for i, child := range n.Content {
		v, s, h, ok := c.convert(child, depth+1)
		if !ok {
			c.segs = append(c.segs, pathSeg{index: i})
			return Value{}, 0, 0, false
		}
		items[i] = v
		size += s
		height = max(height, h)
	}
	return listValue(items), size, height + 1, true
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "" || k.Tag == "!" || decodetext.ShortYAMLTag(k.Tag) == "!!merge")
}

type yamlKey struct {
	name string
	node *yaml.Node
}

func (c *yamlConverter) mapping(n *yaml.Node, depth int) (Value, int64, int, bool) {
	if depth > c.maxDepth {
		return c.fail(n, ErrTooDeep, "nesting exceeds the maximum depth of %d", c.maxDepth)
	}
	if !c.charge(n, 1) {
		return Value{}, 0, 0, false
	}
	if tag := decodetext.ShortYAMLTag(n.Tag); tag != "!!map" && strings.HasPrefix(tag, "!!") {
		return c.fail(n, nil, "cannot decode a mapping as %s", tag)
	}
	if len(n.Content)%2 != 0 {
		return c.fail(n, nil, "mapping has a key without a value")
	}
	fields := make([]Field, 0, len(n.Content)/2)
	keys := make([]*yaml.Node, 0, len(n.Content)/2)
	size, height := int64(1), 0
	var mergeKey, mergeValue *yaml.Node
	for i := 0; i < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if isMergeKey(kn) {
			if mergeKey != nil {
				c.fail(kn, nil, "mapping key \"<<\" already defined at line %d, column %d", mergeKey.Line, mergeKey.Column)
				return Value{}, 0, 0, false
			}
			mergeKey, mergeValue = kn, vn
			continue
		}
		name, ok := c.key(kn)
		if !ok {
			return Value{}, 0, 0, false
		}
		v, s, h, ok := c.convert(vn, depth+1)
		if !ok {
			c.segs = append(c.segs, pathSeg{name: name, index: -1})
			return Value{}, 0, 0, false
		}
		fields = append(fields, Field{Name: name, Value: v})
		keys = append(keys, kn)
		size += s
		height = max(height, h)
	}
	if !fieldsSorted(fields) {
		// Sort keeping the input order of equal names, to report the
		// second occurrence of a repeated key.
		order := make([]int, len(fields))
		for i := range order {
			order[i] = i
		}
		sortStableIndex(order, fields)
		sorted := make([]Field, len(fields))
		for i, j := range order {
			sorted[i] = fields[j]
		}
		for i := 1; i < len(sorted); i++ {
			if sorted[i].Name != sorted[i-1].Name {
				continue
			}
			first, second := keys[order[i-1]], keys[order[i]]
			c.fail(second, nil, "mapping key %q already defined at line %d, column %d", sorted[i].Name, first.Line, first.Column)
			c.segs = append(c.segs, pathSeg{name: sorted[i].Name, index: -1})
			return Value{}, 0, 0, false
		}
		fields = sorted
	}
	if mergeValue != nil {
		var ok bool
		var s int64
		var h int
		fields, s, h, ok = c.merge(fields, mergeValue, depth)
		if !ok {
			c.segs = append(c.segs, pathSeg{name: "<<", index: -1})
			return Value{}, 0, 0, false
		}
		size += s
		height = max(height, h-1)
	}
	return mapValue(fields), size, height + 1, true
}

func sortStableIndex(order []int, fields []Field) {
	// Insertion sort for small maps, else a merge via the standard library.
	less := func(a, b int) bool { return fields[a].Name < fields[b].Name }
	if len(order) <= 16 {
		for i := 1; i < len(order); i++ {
			for j := i; j > 0 && less(order[j], order[j-1]); j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
		}
		return
	}
	sortIntsStableBy(order, less)
}

// merge adds to fields (sorted, unique) the fields of the maps named by the
// merge key's value m that fields does not have yet: explicit keys win over
// merged ones, and earlier merged maps over later ones. It returns the new
// fields and the size and height of the merged maps.
func (c *yamlConverter) merge(fields []Field, m *yaml.Node, depth int) ([]Field, int64, int, bool) {
	var sources []*yaml.Node
	switch target := aliasTarget(m); target.Kind {
	case yaml.MappingNode:
		sources = append(sources, m)
	case yaml.SequenceNode:
		if m.Kind == yaml.AliasNode {
			c.fail(m, nil, "map merge requires a map or a sequence of maps as the value")
			return nil, 0, 0, false
		}
		for _, item := range target.Content {
			if aliasTarget(item).Kind != yaml.MappingNode {
				c.fail(item, nil, "map merge requires a map or a sequence of maps as the value")
				return nil, 0, 0, false
			}
			sources = append(sources, item)
		}
	default:
		c.fail(m, nil, "map merge requires a map or a sequence of maps as the value")
		return nil, 0, 0, false
	}
	var size int64
	height := 0
	out := fields
	for _, src := range sources {
		v, s, h, ok := c.convert(src, depth)
		if !ok {
			return nil, 0, 0, false
		}
		size += s
		height = max(height, h)
		out = mergeMissing(out, v.fields())
	}
	return out, size, height, true
}

func aliasTarget(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// mergeMissing returns the union of two sorted field lists; on equal names
// the field of a wins.
func mergeMissing(a, b []Field) []Field {
	out := make([]Field, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Name < b[j].Name:
			out = append(out, a[i])
			i++
		case b[j].Name < a[i].Name:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// key returns the field name for a mapping key node.
func (c *yamlConverter) key(kn *yaml.Node) (string, bool) {
	n := aliasTarget(kn)
	if n.Kind != yaml.ScalarNode {
		c.fail(kn, nil, "a %s cannot be a mapping key", yamlKindName(n.Kind))
		return "", false
	}
	if kn.Kind == yaml.AliasNode && !c.charge(kn, 1) {
		return "", false
	}
	tag := decodetext.ShortYAMLTag(n.Tag)
	switch tag {
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		if u, err := strconv.ParseUint(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return strconv.FormatUint(u, 10), true
		}
	case "!!float":
		switch n.Value {
		case ".nan", ".NaN", ".NAN":
			return ".nan", true // the spelling sigs.k8s.io/yaml uses
		case "-.inf", "-.Inf", "-.INF":
			return "-.inf", true
		}
		if isYAMLNonFinite(n.Value) {
			return ".inf", true
		}
		v, ok := c.scalar(n)
		if !ok {
			return "", false
		}
		f := v.AsFloat()
		s := strconv.FormatFloat(f, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		}
		return s, true
	}
	v, ok := c.scalar(n)
	if !ok {
		return "", false
	}
	switch v.kind {
	case String:
		return v.str(), true
	case Null:
		return "null", true
	case Bool:
		return strconv.FormatBool(v.AsBool()), true
	case Int:
		return strconv.FormatInt(v.AsInt(), 10), true
	}
	return v.String(), true
}

func yamlKindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	case yaml.DocumentNode:
		return "document"
	}
	return "node"
}

func isYAMLNonFinite(s string) bool {
	switch s {
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return true
	}
	return false
}

// scalar resolves a scalar node by its tag (which the YAML parser has set,
// resolving plain scalars with the core schema).
func (c *yamlConverter) scalar(n *yaml.Node) (Value, bool) {
	s := n.Value
	bad := func(what string) (Value, bool) {
		c.fail(n, nil, "cannot decode %q as %s", s, what)
		return Value{}, false
	}
	switch tag := decodetext.ShortYAMLTag(n.Tag); tag {
	case "!!null":
		switch s {
		case "", "~", "null", "Null", "NULL":
			return Value{}, true
		}
		return bad("null")
	case "!!bool":
		switch s {
		case "true", "True", "TRUE":
			return NewBool(true), true
		case "false", "False", "FALSE":
			return NewBool(false), true
		}
		return bad("a boolean")
	case "!!int":
		plain := strings.ReplaceAll(s, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return NewInt(i), true
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return NewFloat(float64(u)), true // beyond int64, like JSON
		}
		return bad("an integer")
	case "!!float":
		if isYAMLNonFinite(s) {
			c.fail(n, nil, "%s cannot be represented in JSON", s)
			return Value{}, false
		}
		plain := strings.ReplaceAll(s, "_", "")
		if !decodetext.YAMLFloatSyntax(plain) {
			return bad("a float")
		}
		f, err := strconv.ParseFloat(plain, 64)
		if err != nil {
			if i, err2 := strconv.ParseInt(plain, 0, 64); err2 == nil {
				return NewFloat(float64(i)), true
			}
			if math.IsInf(f, 0) {
				c.fail(n, nil, "number %s is out of the range of a float64", decodetext.ShortLiteral(s))
				return Value{}, false
			}
			return bad("a float")
		}
		return NewFloat(f), true
	case "!!binary":
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
		if err != nil {
			return bad("base64 (!!binary)")
		}
		return NewString(string(b)), true
	case "!!map", "!!seq":
		c.fail(n, nil, "cannot decode a scalar as %s", tag)
		return Value{}, false
	}
	// !!str, !!timestamp, !!merge as a value, and unknown tags: the text.
	return NewString(s), true
}

func sortIntsStableBy(order []int, less func(a, b int) bool) {
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
}

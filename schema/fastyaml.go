package schema

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// fastYAML builds, for the plain subset of YAML that schema files are
// written in, the same node tree yaml.v3 builds (same kinds, tags, values,
// styles, lines and columns; comments are not kept), with a few large
// allocations instead of one per node. It reports ok=false as soon as the
// input leaves the subset, and the caller then uses yaml.v3 itself.
//
// The subset: ASCII only, no tabs or carriage returns; block mappings and
// sequences (including a sequence at its key's indentation and compact
// mappings in sequence items); single-line plain, single-quoted and
// double-quoted (without escapes) scalars; single-line flow sequences and
// mappings of those; comments. Not in it: documents markers and directives,
// anchors, aliases, tags, block scalars, multi-line scalars, empty values,
// complex keys.
//
// Plain scalars are resolved as yaml.v3 resolves them: words by the same
// table, and anything that starts like a number by asking yaml.v3.
func fastYAML(data []byte) (root *yaml.Node, ok bool) {
	for _, c := range data {
		if c >= 0x7f || c == '\t' || c == '\r' || (c < ' ' && c != '\n') {
			return nil, false
		}
	}
	f := &fastParser{src: string(data), contentPos: -1}
	ind := f.nextContent()
	if ind != 0 {
		return nil, false // empty document, or a document that starts indented
	}
	if f.isDocMarker() {
		return nil, false
	}
	body := f.blockNode(-1)
	if f.failed || body == nil || f.nextContent() >= 0 {
		return nil, false
	}
	doc := f.newNode()
	*doc = yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{body}}
	return doc, true
}

type fastParser struct {
	src       string
	pos       int // offset in src
	line      int // 0-based line of pos
	lineStart int // offset of the start of the current line
	// contentPos is where nextContent last stopped; while pos is still
	// there, the line has not been consumed.
	contentPos int
	depth      int // nesting of collections, bounded by MaxDepth
	failed     bool

	nodes []yaml.Node  // arena
	ptrs  []*yaml.Node // arena for Content slices
	stack []*yaml.Node // children being collected
}

func (f *fastParser) fail() *yaml.Node {
	f.failed = true
	return nil
}

func (f *fastParser) newNode() *yaml.Node {
	if len(f.nodes) == 0 {
		f.nodes = make([]yaml.Node, 1024)
	}
	n := &f.nodes[0]
	f.nodes = f.nodes[1:]
	return n
}

// collect moves the children pushed since start into an arena slice.
func (f *fastParser) collect(start int) []*yaml.Node {
	n := len(f.stack) - start
	if len(f.ptrs) < n {
		f.ptrs = make([]*yaml.Node, max(n, 4096))
	}
	out := f.ptrs[:n:n]
	f.ptrs = f.ptrs[n:]
	copy(out, f.stack[start:])
	clear(f.stack[start:])
	f.stack = f.stack[:start]
	return out
}

func (f *fastParser) col() int { return f.pos - f.lineStart }

func (f *fastParser) at(i int) byte {
	if i < len(f.src) {
		return f.src[i]
	}
	return '\n'
}

// nextContent moves to the first character of the next line that is not
// blank or a comment, and returns its indentation, or -1 at the end of the
// input. It must be called at the start of a line or at the end of one's
// content.
func (f *fastParser) nextContent() int {
	if f.pos == f.contentPos {
		return f.col()
	}
	for {
		// Finish the current line if pos is inside one.
		if f.pos > f.lineStart {
			for f.pos < len(f.src) && f.src[f.pos] != '\n' {
				f.pos++
			}
			if f.pos >= len(f.src) {
				return -1
			}
			f.pos++
			f.line++
			f.lineStart = f.pos
		}
		if f.pos >= len(f.src) {
			return -1
		}
		i := f.pos
		for i < len(f.src) && f.src[i] == ' ' {
			i++
		}
		if i >= len(f.src) {
			return -1
		}
		if c := f.src[i]; c != '\n' && c != '#' {
			f.pos = i
			f.contentPos = i
			return i - f.lineStart
		}
		// Blank or comment line: skip it.
		for i < len(f.src) && f.src[i] != '\n' {
			i++
		}
		if i >= len(f.src) {
			return -1
		}
		f.pos = i + 1
		f.line++
		f.lineStart = f.pos
	}
}

func (f *fastParser) isDocMarker() bool {
	rest := f.src[f.pos:]
	return strings.HasPrefix(rest, "---") || strings.HasPrefix(rest, "...") || strings.HasPrefix(rest, "%")
}

// restOfLineEmpty skips spaces and a comment and reports whether the line
// ends there.
func (f *fastParser) restOfLineEmpty() bool {
	i := f.pos
	for i < len(f.src) && f.src[i] == ' ' {
		i++
	}
	if i >= len(f.src) || f.src[i] == '\n' {
		f.pos = i
		return true
	}
	if f.src[i] == '#' && i > 0 && f.src[i-1] == ' ' {
		f.pos = i
		return true
	}
	return false
}

// blockNode parses the block node that starts at pos (the first content
// character of a line), whose indentation must be more than parent.
func (f *fastParser) blockNode(parent int) *yaml.Node {
	ind := f.col()
	if ind <= parent {
		return f.fail()
	}
	if f.isSeqEntry() {
		return f.sequence(ind, false)
	}
	return f.mapping(ind)
}

// maxSimpleKey keeps keys (from their first character to the ':') well under
// YAML's limit of 1024 characters for an implicit key, which the YAML library
// enforces.
const maxSimpleKey = 1000

// enter counts one more level of nesting; leave undoes it.
func (f *fastParser) enter() bool {
	f.depth++
	if f.depth > MaxDepth {
		f.failed = true
	}
	return !f.failed
}

func (f *fastParser) leave() { f.depth-- }

func (f *fastParser) isSeqEntry() bool {
	if f.at(f.pos) != '-' {
		return false
	}
	c := f.at(f.pos + 1)
	return c == ' ' || c == '\n'
}

// sequence parses a block sequence whose entries start at column ind.
// indentless: it is the value of a mapping key at the same indentation, so a
// line at that indentation that is not an entry ends it.
func (f *fastParser) sequence(ind int, indentless bool) *yaml.Node {
	if !f.enter() {
		return nil
	}
	defer f.leave()
	n := f.newNode()
	*n = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: f.line + 1, Column: ind + 1}
	start := len(f.stack)
	for {
		// pos is at the '-' of an entry.
		f.pos++
		for f.at(f.pos) == ' ' {
			f.pos++
		}
		var item *yaml.Node
		switch {
		case f.restOfLineEmpty():
			next := f.nextContent()
			if next <= ind {
				return f.fail() // an empty (null) item
			}
			item = f.blockNode(ind)
		case f.isSeqEntry():
			return f.fail() // "- - x"
		case f.isKeyLine():
			item = f.mapping(f.col())
		default:
			item = f.inlineValue()
		}
		if f.failed {
			return nil
		}
		f.stack = append(f.stack, item)
		next := f.nextContent()
		if next < ind || (next == ind && indentless && !f.isSeqEntry()) {
			break
		}
		if next > ind || !f.isSeqEntry() {
			return f.fail()
		}
	}
	n.Content = f.collect(start)
	return n
}

// inlineValue parses a scalar or flow collection that ends its line.
func (f *fastParser) inlineValue() *yaml.Node {
	var n *yaml.Node
	switch f.at(f.pos) {
	case '[', '{':
		n = f.flow()
	default:
		n = f.scalar(false)
	}
	if f.failed {
		return nil
	}
	// A more indented line after it would continue a scalar (a multi-line
	// scalar, not in the subset): the callers reject any such line.
	if !f.restOfLineEmpty() {
		return f.fail()
	}
	return n
}

// isKeyLine reports whether pos starts "key:" followed by a space or the end
// of the line.
func (f *fastParser) isKeyLine() bool {
	i := f.pos
	switch f.at(i) {
	case '"', '\'':
		q := f.src[i]
		i++
		for i < len(f.src) && f.src[i] != q && f.src[i] != '\n' {
			i++
		}
		if f.at(i) != q {
			return false
		}
		i++
		for f.at(i) == ' ' {
			i++
		}
		return f.at(i) == ':' && (f.at(i+1) == ' ' || f.at(i+1) == '\n')
	}
	for ; i < len(f.src) && f.src[i] != '\n'; i++ {
		switch f.src[i] {
		case ':':
			if c := f.at(i + 1); c == ' ' || c == '\n' {
				return true
			}
		case '#':
			if i > f.pos && f.src[i-1] == ' ' {
				return false
			}
		}
	}
	return false
}

// mapping parses a block mapping whose keys start at column ind; pos is at
// the first key.
func (f *fastParser) mapping(ind int) *yaml.Node {
	if !f.enter() {
		return nil
	}
	defer f.leave()
	n := f.newNode()
	*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: f.line + 1, Column: ind + 1}
	start := len(f.stack)
	for {
		keyStart := f.pos
		key := f.scalar(true)
		if f.failed {
			return nil
		}
		for f.at(f.pos) == ' ' {
			f.pos++
		}
		if f.at(f.pos) != ':' || f.pos-keyStart > maxSimpleKey {
			return f.fail()
		}
		f.pos++
		if c := f.at(f.pos); c != ' ' && c != '\n' {
			return f.fail()
		}
		for f.at(f.pos) == ' ' {
			f.pos++
		}
		var val *yaml.Node
		if f.restOfLineEmpty() {
			next := f.nextContent()
			switch {
			case next > ind:
				val = f.blockNode(ind)
			case next == ind && f.isSeqEntry():
				val = f.sequence(ind, true)
			default:
				return f.fail() // an empty (null) value
			}
		} else {
			val = f.inlineValue()
		}
		if f.failed {
			return nil
		}
		f.stack = append(f.stack, key, val)
		next := f.nextContent()
		if next < ind {
			break
		}
		if next > ind || f.isSeqEntry() || !f.isKeyLine() {
			return f.fail()
		}
	}
	n.Content = f.collect(start)
	return n
}

// flow parses a single-line flow sequence or mapping.
func (f *fastParser) flow() *yaml.Node {
	if !f.enter() {
		return nil
	}
	defer f.leave()
	open := f.src[f.pos]
	n := f.newNode()
	*n = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: f.line + 1, Column: f.col() + 1}
	closer := byte(']')
	if open == '{' {
		n.Kind, n.Tag, closer = yaml.MappingNode, "!!map", '}'
	}
	f.pos++
	start := len(f.stack)
	f.skipFlowSpaces()
	if f.at(f.pos) == closer {
		f.pos++
		n.Content = f.collect(start)
		return n
	}
	for {
		itemStart := f.pos
		item := f.flowItem()
		if f.failed {
			return nil
		}
		f.stack = append(f.stack, item)
		f.skipFlowSpaces()
		if open == '{' {
			if f.at(f.pos) != ':' || f.pos-itemStart > maxSimpleKey {
				return f.fail()
			}
			f.pos++
			if c := f.at(f.pos); c != ' ' {
				return f.fail()
			}
			f.skipFlowSpaces()
			val := f.flowItem()
			if f.failed {
				return nil
			}
			f.stack = append(f.stack, val)
			f.skipFlowSpaces()
		}
		switch f.at(f.pos) {
		case ',':
			f.pos++
			f.skipFlowSpaces()
			if c := f.at(f.pos); c == ',' || c == closer {
				return f.fail() // empty entry or trailing comma
			}
			continue
		case closer:
			f.pos++
			n.Content = f.collect(start)
			return n
		}
		return f.fail()
	}
}

func (f *fastParser) skipFlowSpaces() {
	for f.at(f.pos) == ' ' {
		f.pos++
	}
}

func (f *fastParser) flowItem() *yaml.Node {
	switch f.at(f.pos) {
	case '[', '{':
		return f.flow()
	}
	return f.flowScalar()
}

// flowScalar parses a scalar inside a flow collection.
func (f *fastParser) flowScalar() *yaml.Node {
	switch c := f.at(f.pos); c {
	case '"', '\'':
		return f.quoted()
	}
	start := f.pos
	if !plainStart(f.src, f.pos) {
		return f.fail()
	}
	for {
		c := f.at(f.pos)
		if c == ',' || c == ']' || c == '}' {
			break
		}
		if c == ':' {
			if d := f.at(f.pos + 1); d == ' ' || d == ',' || d == ']' || d == '}' || d == '\n' {
				break
			}
			return f.fail()
		}
		// The YAML library ends or rejects a plain scalar in flow context at
		// several characters ('?', '#', brackets, ...): keep to a plain
		// alphabet and let the library handle anything else.
		if !flowPlainChar(c) {
			return f.fail()
		}
		f.pos++
	}
	return f.plainNode(start, f.pos)
}

func flowPlainChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case ' ', '.', '_', '-', '/', '+', '=':
		return true
	}
	return false
}

// plainStart reports whether a plain scalar may start at src[i] (in either
// context; flow and block differ only for characters we reject anyway).
func plainStart(src string, i int) bool {
	if i >= len(src) {
		return false
	}
	switch src[i] {
	case '\n', ' ', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-', '?', ':':
		// Indicators unless followed by a "safe" character; be strict, as
		// the rules differ between block and flow context.
		if i+1 >= len(src) {
			return false
		}
		c := src[i+1]
		return c == '.' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
	}
	return true
}

// scalar parses a single-line scalar in block context: a key (ending before
// ':') or a value (ending at the end of the line or a comment).
func (f *fastParser) scalar(key bool) *yaml.Node {
	switch f.at(f.pos) {
	case '"', '\'':
		return f.quoted()
	}
	if !plainStart(f.src, f.pos) {
		return f.fail()
	}
	start := f.pos
	end := f.pos
	for f.pos < len(f.src) {
		c := f.src[f.pos]
		if c == '\n' {
			break
		}
		if c == ':' {
			if d := f.at(f.pos + 1); d == ' ' || d == '\n' {
				if key {
					break
				}
				return f.fail() // "a: b: c"
			}
		}
		if c == '#' && f.src[f.pos-1] == ' ' {
			break
		}
		f.pos++
		if c != ' ' {
			end = f.pos
		}
	}
	if key {
		f.pos = end
	}
	return f.plainNode(start, end)
}

func (f *fastParser) plainNode(start, end int) *yaml.Node {
	for end > start && f.src[end-1] == ' ' {
		end--
	}
	v := f.src[start:end]
	tag, ok := resolvePlain(v)
	if !ok {
		return f.fail()
	}
	n := f.newNode()
	*n = yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v, Line: f.line + 1, Column: start - f.lineStart + 1}
	return n
}

// quoted parses a single-line quoted scalar without escapes (except ” in
// single quotes).
func (f *fastParser) quoted() *yaml.Node {
	q := f.src[f.pos]
	col := f.col()
	f.pos++
	start := f.pos
	var b []byte // only for '' in single quotes
	for {
		c := f.at(f.pos)
		switch {
		case c == '\n':
			return f.fail()
		case c == '\\' && q == '"':
			return f.fail()
		case c == q && q == '\'' && f.at(f.pos+1) == '\'':
			b = append(b, f.src[start:f.pos+1]...)
			f.pos += 2
			start = f.pos
			continue
		case c == q:
			v := f.src[start:f.pos]
			if b != nil {
				v = string(append(b, v...))
			}
			f.pos++
			style := yaml.DoubleQuotedStyle
			if q == '\'' {
				style = yaml.SingleQuotedStyle
			}
			n := f.newNode()
			*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: style, Value: v, Line: f.line + 1, Column: col + 1}
			return n
		}
		f.pos++
	}
}

// resolvePlain returns the tag yaml.v3 gives a plain scalar. Words are looked
// up as yaml.v3 looks them up; a scalar that starts like a number (or with a
// dot) is handed to yaml.v3, which is rare in schemas.
func resolvePlain(v string) (string, bool) {
	switch v {
	case "":
		return "", false
	case "~", "null", "Null", "NULL":
		return "!!null", true
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool", true
	case "<<":
		return "!!merge", true
	}
	switch c := v[0]; {
	case c == '+' || c == '-' || c == '.' || ('0' <= c && c <= '9'):
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(v), &n); err != nil || n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
			return "", false
		}
		s := n.Content[0]
		if s.Kind != yaml.ScalarNode || s.Value != v || s.Style != 0 {
			return "", false
		}
		return s.Tag, true
	}
	return "!!str", true
}

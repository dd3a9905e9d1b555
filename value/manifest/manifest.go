package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
	"go.yaml.in/yaml/v3"

	"github.com/structmerge/structmerge/internal/decodetext"
	"github.com/structmerge/structmerge/internal/valueown"
	"github.com/structmerge/structmerge/value"
)

// Document is one document of a manifest file, as Decode reads it.
type Document struct {
	Value value.Value
	// Line and Column (1-based) are where the document's content starts;
	// 0 when not known.
	Line, Column int
	// Duplicates lists the mapping keys (or JSON object keys) the document
	// repeats, in document order. The value kept is the last one, as
	// kubectl keeps it.
	Duplicates []DuplicateKey
	// positions maps the JSON pointer of a value to where it is written:
	// for a field, its key; for a list item, the item. (YAML documents and
	// JSON values both keep them.)
	positions map[string]position
}

type position struct{ line, col int }

// DuplicateKey is a mapping key written more than once in one mapping.
type DuplicateKey struct {
	// Path is the JSON pointer of the repeated field ("/data/a").
	Path string
	// Line and Column are those of the last occurrence, whose value is
	// kept; FirstLine and FirstColumn those of the first.
	Line, Column           int
	FirstLine, FirstColumn int
}

// Position returns the line and column (1-based) where the value at the
// JSON pointer is written in the manifest: the key of a field, or a list
// item. ok is false when the position is not known (a field that comes
// from a merge key or an alias, or a pointer that names nothing).
func (d Document) Position(pointer string) (line, column int, ok bool) {
	p, ok := d.positions[pointer]
	return p.line, p.col, ok
}

// Decode decodes a manifest file the way kubectl reads one (through
// k8s.io/apimachinery's YAML-or-JSON stream decoder and sigs.k8s.io/yaml),
// so that the values are those kubectl would send:
//
//   - Input whose first non-space character (within the first 4096 bytes)
//     is "{" is read as a stream of JSON values; if the first or second
//     value does not parse as JSON, the rest is read as YAML from the end
//     of the last JSON value.
//   - Otherwise the input is split into documents at lines that start with
//     "---" (followed only by spaces or a comment; anything else there is
//     an error), and each document is read with YAML 1.1 rules as
//     go.yaml.in/yaml/v2 resolves them: yes, no, on, off, y, n and their
//     capitalised forms are booleans; 0777 is octal; timestamps stay
//     strings; anchors, aliases and merge keys are expanded; a repeated
//     key keeps its last value (listed in Duplicates).
//   - Each document then goes through JSON as kubectl sends it (kubectl
//     encodes the object it read again): non-string keys become their
//     text, a float with an integral value (1.0, 1e3) becomes an integer
//     when encoding/json writes it without a fraction or exponent and it
//     fits an int64, invalid UTF-8 becomes U+FFFD, and NaN and infinities
//     are errors.
//   - Empty documents and documents that are null are skipped.
//
// kind: List is not expanded here (that is the caller's business). The
// limits of value.MaxBytes and value.MaxDepth apply, and alias expansion
// is bounded as in value.FromYAML. Errors are *value.SyntaxError values
// with a line where known.
func Decode(data []byte, opts ...value.DecodeOption) ([]Document, error) {
	cfg, err := options(opts)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > cfg.MaxBytes {
		line, col := decodetext.LineColumn(data, int(cfg.MaxBytes))
		return nil, &value.SyntaxError{
			Offset: -1, Line: line, Column: col, Err: value.ErrTooLarge,
			Msg: fmt.Sprintf("input of %d bytes exceeds the limit of %d bytes", len(data), cfg.MaxBytes),
		}
	}
	r := manifestReader{data: data, maxDepth: cfg.MaxDepth, budget: max(10*int64(len(data)), 1_000_000)}
	r.limit = r.budget
	if looksLikeJSON(data) {
		if err := r.readJSON(); err != nil {
			return nil, err
		}
		return r.docs, nil
	}
	if err := r.readYAML(0); err != nil {
		return nil, err
	}
	return r.docs, nil
}

// jsonSniffSize is how far into the input kubectl looks for a "{".
const jsonSniffSize = 4096

func looksLikeJSON(data []byte) bool {
	head := data[:min(len(data), jsonSniffSize)]
	return bytes.HasPrefix(bytes.TrimLeftFunc(head, unicode.IsSpace), []byte("{"))
}

type manifestReader struct {
	data       []byte
	lineStarts []int // offsets of the lines of data, for JSON positions
	docs       []Document
	maxDepth   int
	budget     int64
	limit      int64
}

// readJSON reads a stream of JSON values; after a failure on the first or
// second value it reads the rest as YAML.
func (r *manifestReader) readJSON() error {
	dec := json.NewDecoder(bytes.NewReader(r.data))
	consumed, count := 0, 0
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return nil
		}
		if err == nil {
			count++
			start := consumed + leadingSpace(r.data[consumed:])
			consumed = int(dec.InputOffset())
			if err := r.addJSON(raw, start); err != nil {
				return err
			}
			continue
		}
		jsonErr := &value.SyntaxError{Offset: -1, Msg: err.Error()}
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			jsonErr.Offset = syn.Offset
			jsonErr.Msg = syn.Error()
		}
		if count > 1 {
			return jsonErr
		}
		// Read the rest as YAML, after the spaces up to the first newline.
		start, ok := skipSpaceLine(r.data, consumed)
		if !ok {
			return jsonErr
		}
		n := len(r.docs)
		if err := r.readYAML(start); err != nil {
			if len(r.docs) == n && !errors.Is(err, value.ErrTooDeep) && !errors.Is(err, value.ErrTooLarge) {
				// The first YAML document failed: report the JSON
				// error, as kubectl does (but a limit by its name).
				return jsonErr
			}
			return err
		}
		return nil
	}
}

// leadingSpace counts the JSON whitespace at the start of b.
func leadingSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipSpaceLine skips Unicode spaces from off up to and including the first
// newline. It fails, as kubectl's decoder does, when fewer than four bytes
// are left to look at or on invalid UTF-8.
func skipSpaceLine(data []byte, off int) (int, bool) {
	for {
		if len(data)-off < 4 {
			return 0, false
		}
		c, size := utf8.DecodeRune(data[off : off+4])
		if c == utf8.RuneError {
			return 0, false
		}
		if !unicode.IsSpace(c) {
			return off, true
		}
		off += size
		if c == '\n' {
			return off, true
		}
	}
}

func (r *manifestReader) addJSON(raw []byte, offset int) error {
	if bytes.Equal(raw, []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return &value.SyntaxError{Offset: int64(offset), Msg: err.Error()}
	}
	line, col := decodetext.LineColumn(r.data, offset)
	c := manifestConverter{r: r, line: line}
	v, ok := c.convert(x, 1)
	if !ok {
		return c.error()
	}
	doc := Document{Value: v, Line: line, Column: col}
	r.locateJSON(raw, offset, &doc)
	r.docs = append(r.docs, doc)
	return nil
}

// locateJSON records the positions of the fields and list items of a JSON
// value that starts at offset in the input, and its repeated keys.
func (r *manifestReader) locateJSON(raw []byte, offset int, doc *Document) {
	if r.lineStarts == nil {
		r.lineStarts = []int{0}
		for i, b := range r.data {
			if b == '\n' {
				r.lineStarts = append(r.lineStarts, i+1)
			}
		}
	}
	pos := func(off int) position {
		off += offset
		line := sort.SearchInts(r.lineStarts, off+1) // lines starting at or before off
		return position{line, off - r.lineStarts[line-1] + 1}
	}
	type frame struct {
		object bool
		ptr    string
		index  int
		key    string // the pending key of an object
		keyed  bool
		first  map[string]position
	}
	positions := map[string]position{}
	var dups []DuplicateKey
	var stack []frame
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for n := 0; n < maxLocatedNodes; n++ {
		start := int(dec.InputOffset())
		for start < len(raw) && strings.IndexByte(" \t\r\n,:", raw[start]) >= 0 {
			start++
		}
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if len(stack) > 0 && stack[len(stack)-1].object && !stack[len(stack)-1].keyed {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			f := &stack[len(stack)-1]
			name, _ := tok.(string)
			name = jsonString(name)
			p := pos(start)
			ptr := f.ptr + "/" + escapePointer(name)
			if first, ok := f.first[name]; ok {
				dups = append(dups, DuplicateKey{Path: ptr, Line: p.line, Column: p.col, FirstLine: first.line, FirstColumn: first.col})
			} else {
				f.first[name] = p
			}
			positions[ptr] = p
			f.key, f.keyed = ptr, true
			continue
		}
		// A value: the item of a list, the value of a key, or the root.
		ptr := ""
		if len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.object {
				ptr, f.keyed = f.key, false
			} else {
				if d, ok := tok.(json.Delim); ok && d == ']' {
					stack = stack[:len(stack)-1]
					continue
				}
				ptr = f.ptr + "/" + strconv.Itoa(f.index)
				positions[ptr] = pos(start)
				f.index++
			}
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{':
				stack = append(stack, frame{object: true, ptr: ptr, first: map[string]position{}})
			case '[':
				stack = append(stack, frame{ptr: ptr})
			}
		}
	}
	doc.positions, doc.Duplicates = positions, dups
}

// readYAML splits data[start:] into documents as kubectl's YAML reader does
// and decodes each.
func (r *manifestReader) readYAML(start int) error {
	line := 1 + bytes.Count(r.data[:start], []byte("\n"))
	var doc bytes.Buffer
	docLine := line
	rest := r.data[start:]
	for len(rest) > 0 {
		text := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			text, rest = rest[:i], rest[i+1:]
			text = bytes.TrimSuffix(text, []byte("\r"))
		} else {
			rest = nil
		}
		if after, ok := bytes.CutPrefix(text, []byte("---")); ok {
			trimmed := strings.TrimSpace(string(after))
			if trimmed != "" && trimmed[0] != '#' {
				return &value.SyntaxError{Offset: -1, Line: line, Column: 1,
					Msg: "invalid document separator \"---" + string(after) + "\" (only spaces or a comment may follow ---)"}
			}
			if doc.Len() > 0 {
				// The separator ends the document and is dropped.
				if err := r.addYAML(doc.Bytes(), docLine); err != nil {
					return err
				}
				doc.Reset()
				line++
				docLine = line
				continue
			}
			// A separator that starts a document stays in it, as in
			// kubectl's reader: "---#x" is then the string "---#x".
		}
		doc.Write(text)
		doc.WriteByte('\n')
		line++
	}
	if doc.Len() > 0 {
		return r.addYAML(doc.Bytes(), docLine)
	}
	return nil
}

// addYAML decodes one document that starts at line first of the input.
func (r *manifestReader) addYAML(chunk []byte, first int) error {
	var x any
	if err := unmarshalYAML11(chunk, &x); err != nil {
		line, msg := decodetext.YAMLParseError(err)
		e := &value.SyntaxError{Offset: -1, Line: line, Msg: msg}
		if strings.Contains(e.Msg, "excessive aliasing") {
			e.Err = value.ErrTooLarge
		}
		if e.Line > 0 {
			e.Line += first - 1
		} else if strings.HasPrefix(e.Msg, "unmarshal errors:") {
			e.Msg = shiftLines(e.Msg, first-1)
		}
		return e
	}
	if x == nil {
		return nil
	}
	doc := Document{Line: first}
	r.locate(chunk, first, &doc)
	c := manifestConverter{r: r, line: doc.Line}
	v, ok := c.convert(x, 1)
	if !ok {
		return c.error()
	}
	doc.Value = v
	r.docs = append(r.docs, doc)
	return nil
}

// shiftLines adds delta to the "line N:" numbers of a YAML unmarshal
// error's lines.
func shiftLines(msg string, delta int) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		rest, ok := strings.CutPrefix(trimmed, "line ")
		if !ok {
			continue
		}
		num, tail, ok := strings.Cut(rest, ":")
		if n, err := strconv.Atoi(num); ok && err == nil {
			lines[i] = l[:len(l)-len(trimmed)] + "line " + strconv.Itoa(n+delta) + ":" + tail
		}
	}
	return strings.Join(lines, "\n")
}

// unmarshalYAML11 decodes one YAML document with go.yaml.in/yaml/v2, the
// parser sigs.k8s.io/yaml uses. A panic in third-party code on some input
// must not take the caller down.
func unmarshalYAML11(data []byte, x *any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("yaml: parser failed: %v", p)
		}
	}()
	return yaml2.Unmarshal(data, x)
}

// locate records where the document's content starts, its fields' positions
// and its repeated keys, from a second parse that keeps positions. A
// document that parser refuses keeps only its first line.
func (r *manifestReader) locate(chunk []byte, first int, doc *Document) {
	var root yaml.Node
	if err := unmarshalNode(chunk, &root); err != nil || len(root.Content) == 0 {
		return
	}
	n := root.Content[0]
	doc.Line, doc.Column = n.Line+first-1, n.Column
	l := locator{delta: first - 1, positions: map[string]position{}, seen: map[*yaml.Node]bool{}}
	l.walk(n, "", 0)
	doc.positions = l.positions
	doc.Duplicates = l.dups
}

// unmarshalNode parses the first document of data; a panic in the parser
// is an error.
func unmarshalNode(data []byte, root *yaml.Node) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("yaml: parser failed: %v", p)
		}
	}()
	return yaml.Unmarshal(data, root)
}

type locator struct {
	delta     int
	positions map[string]position
	dups      []DuplicateKey
	seen      map[*yaml.Node]bool // anchored containers walked (aliases are not followed)
	nodes     int
}

// maxLocatedNodes bounds the positions recorded for one document, and
// maxLocatedDepth their depth (that of the deepest value MaxDepth allows).
const (
	maxLocatedNodes = 1_000_000
	maxLocatedDepth = 100_000
)

func (l *locator) walk(n *yaml.Node, pointer string, depth int) {
	if depth > maxLocatedDepth || l.nodes > maxLocatedNodes {
		return
	}
	l.nodes++
	switch n.Kind {
	case yaml.SequenceNode:
		for i, item := range n.Content {
			p := pointer + "/" + strconv.Itoa(i)
			l.positions[p] = position{item.Line + l.delta, item.Column}
			l.walk(item, p, depth+1)
		}
	case yaml.MappingNode:
		first := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Style == 0 || decodetext.ShortYAMLTag(k.Tag) == "!!merge") {
				continue
			}
			name, ok := yaml11KeyText(k)
			if !ok {
				continue
			}
			p := pointer + "/" + escapePointer(name)
			if f, ok := first[name]; ok {
				l.dups = append(l.dups, DuplicateKey{Path: p,
					Line: k.Line + l.delta, Column: k.Column, FirstLine: f.Line + l.delta, FirstColumn: f.Column})
			} else {
				first[name] = k
			}
			l.positions[p] = position{k.Line + l.delta, k.Column}
			l.walk(v, p, depth+1)
		}
	}
}

// pointerFromReversed is the JSON pointer of steps collected innermost
// first.
func pointerFromReversed(steps []string) string {
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(steps[i])
	}
	return b.String()
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// yaml11KeyText returns the text a scalar mapping key becomes under YAML
// 1.1 rules and sigs.k8s.io/yaml's conversion of keys (for locating fields
// and finding repeated keys; the values themselves come from the YAML 1.1
// parser).
func yaml11KeyText(k *yaml.Node) (string, bool) {
	if k.Kind != yaml.ScalarNode {
		return "", false
	}
	s := k.Value
	if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 ||
		(k.Style&yaml.TaggedStyle != 0 && decodetext.ShortYAMLTag(k.Tag) == "!!str") {
		return s, true
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return "true", true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return "false", true
	case "", "~", "null", "Null", "NULL":
		return "null", true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return strconv.FormatInt(i, 10), true
	}
	if decodetext.YAMLFloatSyntax(plain) && !strings.Contains(plain, "0x") && !strings.Contains(plain, "0o") && !strings.Contains(plain, "0b") {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 32), true
		}
	}
	return s, true
}

// manifestConverter turns what the YAML 1.1 parser (or encoding/json)
// produced into a Value, the way the JSON round trip of kubectl does.
type manifestConverter struct {
	r    *manifestReader
	line int
	msg  string
	err  error
	segs []string // the escaped steps of the JSON pointer to the failure, innermost first
}

func (c *manifestConverter) fail(sentinel error, format string, args ...any) (value.Value, bool) {
	c.msg, c.err = fmt.Sprintf(format, args...), sentinel
	return value.Value{}, false
}

func (c *manifestConverter) error() *value.SyntaxError {
	return &value.SyntaxError{Offset: -1, Line: c.line, Path: pointerFromReversed(c.segs), Msg: c.msg, Err: c.err}
}

func (c *manifestConverter) convert(x any, depth int) (value.Value, bool) {
	c.r.budget--
	if c.r.budget < 0 {
		return c.fail(value.ErrTooLarge, "alias expansion exceeds the limit of %d nodes", c.r.limit)
	}
	switch x := x.(type) {
	case nil:
		return value.Value{}, true
	case bool:
		return value.NewBool(x), true
	case int:
		return value.NewInt(int64(x)), true
	case int64:
		return value.NewInt(x), true
	case uint64:
		return value.NewFloat(float64(x)), true // an integer beyond int64 is a float in JSON
	case float64:
		return c.float(x)
	case json.Number:
		return c.number(x)
	case string:
		return value.NewString(jsonString(x)), true
	case []any:
		if depth > c.r.maxDepth {
			return c.fail(value.ErrTooDeep, "nesting exceeds the maximum depth of %d", c.r.maxDepth)
		}
		items := make([]value.Value, len(x))
		for i, it := range x {
			v, ok := c.convert(it, depth+1)
			if !ok {
				c.segs = append(c.segs, strconv.Itoa(i))
				return value.Value{}, false
			}
			items[i] = v
		}
		return own.List(items), true
	case map[string]any:
		if depth > c.r.maxDepth {
			return c.fail(value.ErrTooDeep, "nesting exceeds the maximum depth of %d", c.r.maxDepth)
		}
		fields := make([]value.Field, 0, len(x))
		for k, it := range x {
			v, ok := c.convert(it, depth+1)
			if !ok {
				c.segs = append(c.segs, escapePointer(k))
				return value.Value{}, false
			}
			fields = append(fields, value.Field{Name: jsonString(k), Value: v})
		}
		return own.Map(fields), true // sorted by name, stably; a repeated name keeps its last field
	case map[any]any:
		if depth > c.r.maxDepth {
			return c.fail(value.ErrTooDeep, "nesting exceeds the maximum depth of %d", c.r.maxDepth)
		}
		type entry struct {
			name string
			rank int
			f    value.Field
		}
		entries := make([]entry, 0, len(x))
		for k, it := range x {
			name, rank, ok := yamlKeyText(k)
			if !ok {
				return c.fail(nil, "unsupported map key of type %T: %v", k, k)
			}
			v, ok := c.convert(it, depth+1)
			if !ok {
				c.segs = append(c.segs, escapePointer(name))
				return value.Value{}, false
			}
			entries = append(entries, entry{name: jsonString(name), rank: rank, f: value.Field{Name: jsonString(name), Value: v}})
		}
		// Keys of different types can give the same text (1 and "1");
		// kubectl then keeps one of them at random. Keep the string key,
		// then the others in a fixed order, so that the result is
		// deterministic.
		sort.Slice(entries, func(i, j int) bool {
			if entries[i].name != entries[j].name {
				return entries[i].name < entries[j].name
			}
			if entries[i].rank != entries[j].rank {
				return entries[i].rank < entries[j].rank
			}
			return value.Compare(entries[i].f.Value, entries[j].f.Value) < 0
		})
		fields := make([]value.Field, len(entries))
		for i, e := range entries {
			fields[i] = e.f
		}
		return own.Map(fields), true // a repeated name keeps its last field
	}
	return c.fail(nil, "unsupported value of type %T", x)
}

// yamlKeyText converts a decoded YAML key to a field name as
// sigs.k8s.io/yaml does; rank orders the key types for keys with the same
// text (a string key ranks last, so that it wins).
func yamlKeyText(k any) (string, int, bool) {
	switch k := k.(type) {
	case string:
		return k, 4, true
	case int:
		return strconv.Itoa(k), 3, true
	case int64:
		return strconv.FormatInt(k, 10), 3, true
	case float64:
		s := strconv.FormatFloat(k, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, 2, true
	case bool:
		return strconv.FormatBool(k), 1, true
	}
	return "", 0, false
}

// float converts a float as encoding/json writes it and Kubernetes reads it
// back: an integral value written without a fraction or exponent that fits
// an int64 becomes an Int.
func (c *manifestConverter) float(f float64) (value.Value, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return c.fail(nil, "%s cannot be represented in JSON", strconv.FormatFloat(f, 'g', -1, 64))
	}
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		text := strconv.FormatFloat(f, 'f', -1, 64)
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return value.NewInt(i), true
		}
	}
	return value.NewFloat(f), true
}

// number converts a JSON number literal: an integer literal that fits an
// int64 is an Int, anything else a Float, then as float does.
func (c *manifestConverter) number(n json.Number) (value.Value, bool) {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return value.NewInt(i), true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return c.fail(nil, "number %s is out of the range of a float64", decodetext.ShortLiteral(s))
	}
	// kubectl encodes the object again to send it: 1.0 goes as 1.
	return c.float(f)
}

// jsonString replaces each byte of invalid UTF-8 with U+FFFD, as
// encoding/json does when it writes a string.
func jsonString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// own holds value's operations that take slices without a copy, and
// options resolves value's decode options (see package valueown); set
// during initialisation and never written again.
var own = valueown.Of[value.Value, value.Field]()

func options(opts []value.DecodeOption) (valueown.DecodeConfig[value.Origin], error) {
	return valueown.Resolve(opts, value.DefaultMaxDepth, value.DefaultMaxBytes)
}

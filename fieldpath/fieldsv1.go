package fieldpath

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/structmerge/structmerge/internal/jsonstr"
	"github.com/structmerge/structmerge/value"
)

// FieldsV1 is the JSON form in which Kubernetes stores field sets in
// metadata.managedFields: each trie node is an object whose keys are
// serialized path elements ("f:name", `k:{"name":"web"}`, `v:"a"`, "i:3")
// and whose values are the child nodes; a node that is itself a member has
// the extra key "." (listed first) and a member with no children is {}.

// MaxFieldsV1Depth is the deepest object nesting ParseFieldsV1 accepts (the
// top-level object is at depth 1), the same limit as the JSON reader
// structured-merge-diff uses.
const MaxFieldsV1Depth = 10000

// MarshalFieldsV1 returns the FieldsV1 JSON encoding of s, byte for byte what
// structured-merge-diff's Set.ToJSON produces for the same set. The empty set
// is {}.
//
// Values are written as that encoder writes them: strings in values are
// HTML-escaped (\u003c for <), object keys are not, and floats in exponent
// form keep a two-digit exponent (1e-07). A NaN or infinite float, which
// JSON cannot hold (and for which structured-merge-diff fails), is written
// as null; a zero PathElement is written as the key "".
func (s *Set) MarshalFieldsV1() []byte {
	// The length is not known before writing (members take from 10 to 40
	// bytes), so the text is written into pooled memory and copied out into
	// a result of its exact size: a larger guess costs more, in allocation
	// and clearing, than the copy.
	bp := encodePool.Get().(*[]byte)
	buf := s.AppendFieldsV1((*bp)[:0])
	out := make([]byte, len(buf))
	copy(out, buf)
	if cap(buf) <= maxPooledEncode {
		*bp = buf[:0] // bytes only: nothing to clear
		encodePool.Put(bp)
	}
	return out
}

// encodePool holds MarshalFieldsV1's buffers, of at most maxPooledEncode
// bytes.
var encodePool = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledEncode = 1 << 20

// AppendFieldsV1 appends the FieldsV1 encoding of s (see MarshalFieldsV1) to
// dst and returns the extended slice.
func (s *Set) AppendFieldsV1(dst []byte) []byte {
	dst = append(dst, '{')
	dst = appendContents(dst, s, false)
	return append(dst, '}')
}

// appendContents writes the entries of node s: "." first when self is true,
// then members and children merged in element order.
func appendContents(dst []byte, s *Set, self bool) []byte {
	if s.Empty() {
		return dst
	}
	first := true
	if self {
		dst = append(dst, `".":{}`...)
		first = false
	}
	m, c := s.ms(), s.cs()
	i, j := 0, 0
	for i < len(m) || j < len(c) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		var d int
		switch {
		case i >= len(m):
			d = 1
		case j >= len(c):
			d = -1
		default:
			d = m[i].Compare(c[j].Element)
		}
		if d < 0 {
			dst = appendKey(dst, m[i])
			dst = append(dst, ":{}"...)
			i++
			continue
		}
		dst = appendKey(dst, c[j].Element)
		dst = append(dst, ":{"...)
		dst = appendContents(dst, c[j].Set, d == 0)
		dst = append(dst, '}')
		if d == 0 {
			i++
		}
		j++
	}
	return dst
}

// appendKey writes the serialized path element as a JSON object key.
func appendKey(dst []byte, pe PathElement) []byte {
	switch pe.Kind() {
	case FieldNameKind:
		dst = append(dst, `"f:`...)
		dst = appendKeyText(dst, pe.name())
		return append(dst, '"')
	case IndexKind:
		dst = append(dst, `"i:`...)
		dst = strconv.AppendInt(dst, int64(pe.Index()), 10)
		return append(dst, '"')
	case KeyKind:
		if out, ok := appendPlainKey(dst, pe.key()); ok {
			return out
		}
		return appendEscapedKey(dst, pe.key())
	case ValueKind:
		dst = append(dst, '"')
		raw := len(dst)
		dst = append(dst, "v:"...)
		dst = appendValueJSON(dst, *pe.value())
		dst = escapeTail(dst, raw)
		return append(dst, '"')
	}
	return append(dst, `""`...)
}

// appendEscapedKey writes the key of a KeyKind element: its JSON, escaped
// for a JSON string.
func appendEscapedKey(dst []byte, fields []value.Field) []byte {
	dst = append(dst, '"')
	raw := len(dst)
	dst = append(dst, "k:{"...)
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = appendKeyText(dst, f.Name)
		dst = append(dst, `":`...)
		dst = appendValueJSON(dst, f.Value)
	}
	dst = append(dst, '}')
	dst = escapeTail(dst, raw)
	return append(dst, '"')
}

// appendPlainKey writes the key of a KeyKind element whose field names and
// values need no escaping, neither in the key's JSON nor in the JSON string
// that holds it (names and strings of printable ASCII other than '"', '\\'
// and the characters structured-merge-diff escapes in values, and numbers,
// booleans and null), straight into its escaped form. It reports false,
// and writes nothing, for any other key.
func appendPlainKey(dst []byte, fields []value.Field) ([]byte, bool) {
	start := len(dst)
	dst = append(dst, `"k:{`...)
	for i, f := range fields {
		if plainPrefix(f.Name) != len(f.Name) {
			return dst[:start], false
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `\"`...)
		dst = append(dst, f.Name...)
		dst = append(dst, `\":`...)
		switch f.Value.Kind() {
		case value.String:
			str := f.Value.AsString()
			if !plainValueString(str) {
				return dst[:start], false
			}
			dst = append(dst, `\"`...)
			dst = append(dst, str...)
			dst = append(dst, `\"`...)
		case value.Null, value.Bool, value.Int, value.Float:
			dst = appendValueJSON(dst, f.Value) // digits, letters, '.', '+', '-'
		default:
			return dst[:start], false
		}
	}
	return append(dst, `}"`...), true
}

// plainValueString reports whether s is written in JSON as it is, between
// quotes, by appendValueString, and needs no escaping in a key either.
func plainValueString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// keyEscapeExtra says how many bytes appendKeyText adds to escape c.
func keyEscapeExtra(c byte) int {
	switch {
	case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
		return 1
	case c < 0x20:
		return 5
	}
	return 0
}

// escapeTail escapes dst[from:] in place as appendKeyText would, growing dst
// and filling it from the end.
func escapeTail(dst []byte, from int) []byte {
	extra := 0
	for _, c := range dst[from+plainPrefix(dst[from:]):] {
		extra += keyEscapeExtra(c)
	}
	if extra == 0 {
		return dst
	}
	r := len(dst)
	dst = append(dst, make([]byte, extra)...)
	w := len(dst)
	for r > from {
		r--
		c := dst[r]
		switch keyEscapeExtra(c) {
		case 0:
			w--
			dst[w] = c
			continue
		case 1:
			switch c {
			case '\n':
				c = 'n'
			case '\r':
				c = 'r'
			case '\t':
				c = 't'
			}
			w -= 2
			dst[w], dst[w+1] = '\\', c
		default:
			w -= 6
			dst[w], dst[w+1], dst[w+2], dst[w+3], dst[w+4], dst[w+5] = '\\', 'u', '0', '0', jsonstr.HexDigits[c>>4], jsonstr.HexDigits[c&0xF]
		}
	}
	return dst
}

// appendKeyText escapes text for the inside of a JSON object key the way
// structured-merge-diff's JSON writer does: only '"', '\\' and control
// characters are escaped; other bytes, even invalid UTF-8, are copied.
func appendKeyText[T string | []byte](dst []byte, s T) []byte {
	start := 0
	for i := plainPrefix(s); i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', jsonstr.HexDigits[c>>4], jsonstr.HexDigits[c&0xF])
		}
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// appendValueString writes s as a JSON string the way structured-merge-diff
// writes string values: HTML-significant characters, U+2028 and U+2029 are
// escaped and invalid UTF-8 becomes \ufffd.
func appendValueString(dst []byte, s string) []byte {
	return jsonstr.Append(dst, s, jsonstr.SMD)
}

// appendValueJSON writes v as structured-merge-diff writes the values of k:
// and v: keys.
func appendValueJSON(dst []byte, v value.Value) []byte {
	switch v.Kind() {
	case value.Null:
		return append(dst, "null"...)
	case value.Bool:
		return strconv.AppendBool(dst, v.AsBool())
	case value.Int:
		return strconv.AppendInt(dst, v.AsInt(), 10)
	case value.Float:
		f := v.AsFloat()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return append(dst, "null"...)
		}
		format := byte('f')
		if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
			format = 'e'
		}
		return strconv.AppendFloat(dst, f, format, -1, 64)
	case value.String:
		return appendValueString(dst, v.AsString())
	case value.List:
		dst = append(dst, '[')
		for i, it := range v.Items() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValueJSON(dst, it)
		}
		return append(dst, ']')
	case value.Map:
		dst = append(dst, '{')
		for i, f := range v.Fields() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValueString(dst, f.Name)
			dst = append(dst, ':')
			dst = appendValueJSON(dst, f.Value)
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// ParseFieldsV1 decodes the FieldsV1 JSON form of a set, accepting what
// structured-merge-diff's Set.FromJSON accepts: keys in any order, repeated
// keys (members merge; for children the last object wins), "." anywhere in
// an object with any value, null in place of {} and keys with an unknown
// type letter (skipped with their values). Top-level null is the empty set.
//
// Values in k: and v: keys are decoded as value.FromJSON decodes them, with
// two visible differences from the reference, which reads every number as a
// float64 and keeps string bytes as they are: integers beyond ±2^53 keep
// their exact value, and invalid UTF-8 in a string becomes U+FFFD (written
// back as that character, where the reference writes the escape \ufffd).
// Input that is not valid JSON (including the JSON inside k: and v: keys) is
// rejected, even where the reference's lenient reader lets it pass; valid
// JSON that the reference rejects is rejected too.
//
// Errors are *SyntaxError values naming the byte offset and the offending
// key. Nesting deeper than MaxFieldsV1Depth is an error.
func ParseFieldsV1(data []byte) (*Set, error) {
	return parseFieldsV1(data, decodeMode{})
}

// decodeMode selects the decoder's strategies, for the tests that compare
// them: generalOnly turns off the shortcuts for common entries; share
// forces storing equal names and nodes once (shareOn) or not (shareOff)
// whatever the input's length.
type decodeMode struct {
	generalOnly bool
	share       int
}

const (
	shareAuto = iota
	shareOn
	shareOff
)

func parseFieldsV1(data []byte, mode decodeMode) (*Set, error) {
	sc := decodePool.Get().(*decodeScratch)
	d := decoder{data: data, mode: mode, buf: sc.buf, buf2: sc.buf2, keyStack: sc.keyStack, members: sc.members, children: sc.children,
		names: internTable[string]{slots: sc.names[:cap(sc.names)]}, nodes: internTable[*Set]{slots: sc.nodes[:cap(sc.nodes)]}}
	s, err := d.parse()
	sc.put(&d)
	return s, err
}

func (d *decoder) parse() (*Set, error) {
	d.presize()
	d.ws()
	if d.pos >= len(d.data) {
		return nil, d.errorf(d.pos, -1, "empty input; want a JSON object")
	}
	s, _, err := d.node(1, -1)
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.pos < len(d.data) {
		return nil, d.errorf(d.pos, -1, "unexpected data after the top-level object")
	}
	return s, nil
}

// decodeScratch is a decoder's working memory, reused through a pool: the
// stacks of the nodes being read, the buffers for escaped text and the
// tables of the names and nodes read so far. Nothing in it is reachable
// from a parsed set (whose nodes, names and key values live in the
// decoder's arenas), and put clears it before it goes back.
type decodeScratch struct {
	buf, buf2 []byte
	keyStack  []value.Field
	members   []PathElement
	children  []Child
	names     []internSlot[string]
	nodes     []internSlot[*Set]
}

var decodePool = sync.Pool{New: func() any { return new(decodeScratch) }}

// maxPooledScratch is the largest stack, in entries, kept for reuse.
const maxPooledScratch = 1 << 16

// put takes d's (possibly grown) scratch, clears it and returns it to the
// pool.
func (sc *decodeScratch) put(d *decoder) {
	sc.buf, sc.buf2 = reuse(d.buf), reuse(d.buf2)
	sc.keyStack, sc.members, sc.children = reuse(d.keyStack), reuse(d.members), reuse(d.children)
	sc.names, sc.nodes = reuse(d.names.slots), reuse(d.nodes.slots)
	decodePool.Put(sc)
}

// reuse returns s emptied and cleared over its capacity, or nil when it is
// too large to keep.
func reuse[T any](s []T) []T {
	if cap(s) > maxPooledScratch {
		return nil
	}
	s = s[:cap(s)]
	clear(s)
	return s[:0]
}

// decoder is the state of one ParseFieldsV1 call. Finished nodes take their
// slices and strings from arenas that are filled in chunks; bytes written to
// an arena are never changed afterwards.
//
// Equal names and equal nodes are stored once per call: a name read again
// is the string read first, and a node whose members and children are word
// for word those of a node already finished is that node (sets are
// immutable, so sharing a subtree is invisible). Field sets repeat a lot —
// a CRD's 829 field names are 157 distinct ones and its 307 nodes 74
// distinct ones, the items of a keyed list have the same leaves — and the
// memory not allocated is most of the saving: a decoded set is otherwise
// several times the size of its text.
type decoder struct {
	data []byte
	pos  int
	mode decodeMode

	buf      []byte        // unescaped key text
	buf2     []byte        // unescaped key field names inside a k: key
	keyStack []value.Field // the fields of the k: key being read
	members  []PathElement // stack of the members of the nodes being read
	children []Child       // stack of the children of the nodes being read

	share bool                // whether equal names and nodes are stored once
	names internTable[string] // the names read, by their bytes
	nodes internTable[*Set]   // the nodes finished, by their entries

	nameArena []byte // arena for field names
	nodeArena arena  // the nodes and their entries
	keyArena  []value.Field
	valArena  []value.Value
}

// errorf returns a *SyntaxError at offset at; keyOff is the offset of the
// object key being read, or -1.
func (d *decoder) errorf(at int, keyOff int, format string, args ...any) error {
	return &SyntaxError{Input: "FieldsV1", Offset: at, Key: d.keyAt(keyOff), Msg: fmt.Sprintf(format, args...)}
}

// keyAt returns the unescaped text of the object key at offset off of the
// input, or "" for -1. It is only called on errors.
func (d *decoder) keyAt(off int) string {
	if off < 0 || off >= len(d.data) {
		return ""
	}
	end, err := skipString(d.data, off)
	if err != nil {
		return string(d.data[off:min(len(d.data), off+80)])
	}
	var sub decoder
	sub.data = d.data[off:end]
	b, err2 := sub.str(-1)
	if err2 != nil {
		return string(d.data[off:end])
	}
	return string(b)
}

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
			continue
		}
		return
	}
}

// node reads the object (or null) at d.pos: one trie node. It returns the
// node's set (nil when it has no members or children) and whether the node
// is itself a member: true when the object holds "." or nothing else that
// was kept.
func (d *decoder) node(depth int, key int) (*Set, bool, error) {
	d.ws()
	if d.pos >= len(d.data) {
		return nil, false, d.errorf(d.pos, key, "unexpected end of input; want an object")
	}
	switch d.data[d.pos] {
	case 'n':
		if err := d.literal("null", key); err != nil {
			return nil, false, err
		}
		return nil, true, nil
	case '{':
	default:
		return nil, false, d.errorf(d.pos, key, "found %s; want an object or null", describeByte(d.data[d.pos]))
	}
	if depth > MaxFieldsV1Depth {
		return nil, false, d.errorf(d.pos, key, "objects nested more than %d deep", MaxFieldsV1Depth)
	}
	d.pos++
	mBase, cBase := len(d.members), len(d.children)
	self, sorted := false, true
	d.ws()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return nil, true, nil
	}
	for {
		d.ws()
		keyOff := d.pos
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, false, d.errorf(keyOff, key, "want a string object key")
		}
		if pe, ok := d.leafField(depth); ok {
			// Most entries are a field that is a member with no children.
			if n := len(d.members); n > mBase && d.members[n-1].Compare(pe) >= 0 {
				sorted = false
			}
			d.members = append(d.members, pe)
		} else if d.leafSelf(depth) {
			self = true
		} else if err := d.entry(depth, key, mBase, cBase, &self, &sorted); err != nil {
			return nil, false, err
		}
		d.ws()
		if d.pos >= len(d.data) {
			return nil, false, d.errorf(d.pos, key, "unexpected end of input; want ',' or '}'")
		}
		c := d.data[d.pos]
		d.pos++
		if c == ',' {
			continue
		}
		if c == '}' {
			break
		}
		return nil, false, d.errorf(d.pos-1, key, "found %s after an object entry; want ',' or '}'", describeByte(c))
	}
	ms, cs := d.members[mBase:], d.children[cBase:]
	if !sorted {
		ms, cs = normalizeDecoded(ms, cs)
	}
	var s *Set
	if len(ms) > 0 || len(cs) > 0 {
		s = d.finish(ms, cs)
	}
	// The popped entries are left as they are: the stacks are cleared over
	// their whole capacity when they go back to the pool (reuse).
	d.members, d.children = d.members[:mBase], d.children[:cBase]
	return s, self || s == nil, nil
}

// leafField reads, at d.pos, an entry of the form "f:name":{} whose name
// has no escapes and returns its element, or reports false and reads
// nothing. depth is the depth of the enclosing object.
func (d *decoder) leafField(depth int) (PathElement, bool) {
	data, p := d.data, d.pos
	if d.mode.generalOnly || depth >= MaxFieldsV1Depth || p+3 >= len(data) || data[p+1] != 'f' || data[p+2] != ':' {
		return PathElement{}, false
	}
	start := p + 3
	end := start + plainPrefix(data[start:])
	if end+3 >= len(data) || data[end] != '"' || data[end+1] != ':' || data[end+2] != '{' || data[end+3] != '}' {
		return PathElement{}, false
	}
	d.pos = end + 4
	return FieldName(d.name(data[start:end])), true
}

// plainKey reads, at d.pos, an object key and its ':' when the key is a k:
// key in the compact form the encoder writes, with string values that need
// no escapes and integer values of at most 18 digits, as in
// "k:{\"name\":\"web\",\"port\":80}". It returns the key's element, or
// reports false and reads nothing: other keys take the general path, which
// also reports errors.
func (d *decoder) plainKey() (PathElement, bool) {
	data, p := d.data, d.pos
	if d.mode.generalOnly || p+4 >= len(data) || string(data[p+1:p+4]) != "k:{" {
		return PathElement{}, false
	}
	p += 4
	fields := d.keyStack[:0]
	defer func() { clear(fields); d.keyStack = fields[:0] }()
	for {
		name, next, ok := plainKeyString(data, p)
		if !ok || next >= len(data) || data[next] != ':' {
			return PathElement{}, false
		}
		p = next + 1
		var v value.Value
		if str, next, ok := plainKeyString(data, p); ok {
			v, p = value.NewString(d.name(str)), next
		} else if n, next, ok := plainKeyInt(data, p); ok {
			v, p = value.NewInt(n), next
		} else {
			return PathElement{}, false
		}
		fields = append(fields, value.Field{Name: d.name(name), Value: v})
		if p >= len(data) {
			return PathElement{}, false
		}
		if data[p] == ',' {
			p++
			continue
		}
		if p+2 < len(data) && data[p] == '}' && data[p+1] == '"' && data[p+2] == ':' {
			break
		}
		return PathElement{}, false
	}
	out := take(&d.keyArena, len(fields), d.estimate(128))
	copy(out, fields)
	d.pos = p + 3
	return Key(out), true
}

// plainKeyString reads, at p, a string written inside a key as \"text\"
// whose text needs no escapes and is valid UTF-8, and returns the text and
// the offset after it.
func plainKeyString(data []byte, p int) ([]byte, int, bool) {
	if p+1 >= len(data) || data[p] != '\\' || data[p+1] != '"' {
		return nil, 0, false
	}
	start := p + 2
	end := start + plainPrefix(data[start:])
	if end+1 >= len(data) || data[end] != '\\' || data[end+1] != '"' || !utf8.Valid(data[start:end]) {
		return nil, 0, false
	}
	return data[start:end], end + 2, true
}

// plainKeyInt reads, at p, a JSON integer of at most 18 digits followed by
// ',' or '}' (not -0, which is a float), and returns it and the offset
// after it.
func plainKeyInt(data []byte, p int) (int64, int, bool) {
	start := p
	if p < len(data) && data[p] == '-' {
		p++
	}
	digits := p
	for p < len(data) && data[p] >= '0' && data[p] <= '9' {
		p++
	}
	n := p - digits
	if n == 0 || n > 18 || n > 1 && data[digits] == '0' || p >= len(data) || data[p] != ',' && data[p] != '}' {
		return 0, 0, false
	}
	if n == 1 && data[digits] == '0' && digits > start {
		return 0, 0, false // -0
	}
	v, _ := smallInt(data[start:p])
	return v, p, true
}

// leafSelf reads, at d.pos, the entry ".":{} or reports false and reads
// nothing. depth is the depth of the enclosing object.
func (d *decoder) leafSelf(depth int) bool {
	if p := d.pos; !d.mode.generalOnly && depth < MaxFieldsV1Depth && p+6 <= len(d.data) && string(d.data[p:p+6]) == `".":{}` {
		d.pos = p + 6
		return true
	}
	return false
}

// entry reads the object entry at d.pos in the general case of node: its
// key, and its value as a child node, a member or both, or skipped. key is
// the offset of the enclosing object's key; mBase and cBase are where the
// node's members and children start on the stacks.
func (d *decoder) entry(depth, key, mBase, cBase int, self, sorted *bool) error {
	keyOff := d.pos
	pe, ok := d.plainKey()
	if !ok {
		kb, err := d.str(key)
		if err != nil {
			return err
		}
		d.ws()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.errorf(d.pos, keyOff, "want ':' after the object key")
		}
		d.pos++
		if len(kb) == 1 && kb[0] == '.' {
			*self = true
			return d.skip(depth, keyOff)
		}
		var known bool
		pe, known, err = d.element(kb, keyOff)
		if err != nil {
			return err
		}
		if !known {
			return d.skip(depth, keyOff)
		}
	}
	sub, member, err := d.node(depth+1, keyOff)
	if err != nil {
		return err
	}
	if member {
		if n := len(d.members); n > mBase && d.members[n-1].Compare(pe) >= 0 {
			*sorted = false
		}
		d.members = append(d.members, pe)
	}
	if sub != nil {
		if n := len(d.children); n > cBase && d.children[n-1].Element.Compare(pe) >= 0 {
			*sorted = false
		}
		d.children = append(d.children, Child{pe, sub})
	}
	return nil
}

// normalizeDecoded sorts members and children read out of order and merges
// repeated elements: a member once is a member; for a repeated child the
// last object read wins, keeping the first spelling of the element.
func normalizeDecoded(ms []PathElement, cs []Child) ([]PathElement, []Child) {
	slices.SortStableFunc(ms, func(a, b PathElement) int { return a.Compare(b) })
	m := ms[:0]
	for i, pe := range ms {
		if i > 0 && pe.Compare(m[len(m)-1]) == 0 {
			continue
		}
		m = append(m, pe)
	}
	slices.SortStableFunc(cs, func(a, b Child) int { return a.Element.Compare(b.Element) })
	c := cs[:0]
	for i, ch := range cs {
		if i > 0 && ch.Element.Compare(c[len(c)-1].Element) == 0 {
			c[len(c)-1].Set = ch.Set
			continue
		}
		c = append(c, ch)
	}
	return m, c
}

// finish returns the node with members ms and children cs (read into the
// stacks): a node already finished with the same entries, or a new one
// with copies of them.
func (d *decoder) finish(ms []PathElement, cs []Child) *Set {
	if !d.share {
		return d.nodeArena.node(ms, cs)
	}
	h := hashWords(hashWords(internSeed, ms), cs)
	slot := findNode(&d.nodes, h, ms, cs)
	if slot != nil && slot.val != nil {
		return slot.val
	}
	s := d.nodeArena.node(ms, cs)
	d.nodes.add(slot, h, s)
	return s
}

// words returns the machine words of the path elements or children in a
// (both are made of pointers and ints, so they are whole words).
func words[T PathElement | Child](a []T) []uintptr {
	if len(a) == 0 {
		return nil
	}
	return unsafe.Slice((*uintptr)(unsafe.Pointer(&a[0])), len(a)*int(unsafe.Sizeof(a[0])/unsafe.Sizeof(uintptr(0))))
}

// hashWords mixes the words of a into the hash h.
func hashWords[T PathElement | Child](h uint64, a []T) uint64 {
	for _, w := range words(a) {
		h = mix(h, uint64(w))
	}
	return mix(h, uint64(len(a)))
}

// mix is one round of the decoder's table hash (a multiply and a shift; the
// tables bound their probing, so a weak hash costs sharing, not time).
func mix(h, w uint64) uint64 {
	h = (h ^ w) * 0x9e3779b97f4a7c15
	return h ^ h>>32
}

// hashBytes hashes a name, eight bytes at a time.
func hashBytes(h uint64, b []byte) uint64 {
	n := len(b)
	for ; len(b) >= 8; b = b[8:] {
		h = mix(h, binary.LittleEndian.Uint64(b))
	}
	var w uint64
	switch {
	case len(b) >= 4:
		w = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<32
	case len(b) > 0:
		w = uint64(b[0]) | uint64(b[len(b)/2])<<8 | uint64(b[len(b)-1])<<16
	}
	return mix(h, w^uint64(n)<<56)
}

// sameWords reports whether a and b hold the same bits: for path elements
// and children, the same elements (pointing to the same names, keys and
// values) and the same child nodes.
func sameWords[T PathElement | Child](a, b []T) bool {
	return slices.Equal(words(a), words(b))
}

// internSeed seeds the hashes of the decoder's tables, differently in each
// process.
var internSeed = new(maphash.Hash).Sum64()

// maxProbe bounds the slots a table lookup visits: past it, a name or node
// is not shared, so that input made to collide costs memory, not time.
const maxProbe = 8

// internTable is an open-addressing hash table of values by a 64-bit hash
// of their contents; a slot with a zero value is free. It is at most half
// full.
type internTable[T comparable] struct {
	slots []internSlot[T]
	n     int
}

type internSlot[T comparable] struct {
	hash uint64
	val  T
}

// probe returns the first slot to look at for hash h, and the mask that
// wraps the index of the next one.
func (t *internTable[T]) probe(h uint64) (uint64, uint64) {
	if len(t.slots) == 0 {
		t.slots = make([]internSlot[T], 64)
	}
	mask := uint64(len(t.slots) - 1)
	return h & mask, mask
}

// findName and findNode return the slot of the name or node looked for, or
// the free slot where it goes, or nil when neither is within maxProbe slots.

func findName(t *internTable[string], h uint64, b []byte) *internSlot[string] {
	i, mask := t.probe(h)
	for range maxProbe {
		s := &t.slots[i]
		if s.val == "" || s.hash == h && s.val == string(b) {
			return s
		}
		i = (i + 1) & mask
	}
	return nil
}

func findNode(t *internTable[*Set], h uint64, ms []PathElement, cs []Child) *internSlot[*Set] {
	i, mask := t.probe(h)
	for range maxProbe {
		s := &t.slots[i]
		if s.val == nil || s.hash == h && int(s.val.nm) == len(ms) && int(s.val.nk) == len(cs) &&
			sameWords(ms, s.val.ms()) && sameWords(cs, s.val.cs()) {
			return s
		}
		i = (i + 1) & mask
	}
	return nil
}

// add stores v with hash h in the free slot found for it (none when slot is
// nil), growing the table when it is half full. Growing keeps the values
// that fit within maxProbe slots of their place.
func (t *internTable[T]) add(slot *internSlot[T], h uint64, v T) {
	if slot == nil {
		return
	}
	slot.hash, slot.val = h, v
	t.n++
	if 2*t.n <= len(t.slots) {
		return
	}
	var zero T
	old := t.slots
	t.slots = make([]internSlot[T], 2*len(old))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.val == zero {
			continue
		}
		i := s.hash & mask
		for range maxProbe {
			if t.slots[i].val == zero {
				t.slots[i] = s
				break
			}
			i = (i + 1) & mask
		}
	}
}

// presize sizes the first blocks of the node arena. A short input is
// stored as it is read, in blocks reserved from its length: compact
// FieldsV1 text has about one member per 24 bytes and one node per 46 (the
// Pod's and the CRD's managed fields, and what kubectl and the API server
// write, are close to that; the blocks after a short reservation grow as
// needed). A long one (at least shareFrom bytes) stores equal names and
// nodes once, and so needs far fewer: its first blocks are sized for a
// short input, and the blocks after them double.
func (d *decoder) presize() {
	if d.mode.share == shareOn || d.mode.share == shareAuto && len(d.data) >= shareFrom {
		d.share = true
		d.nodeArena.expect(64, 32)
		return
	}
	if len(d.data) >= 400 {
		d.nodeArena.reserve(len(d.data)/24+1, len(d.data)/46+1)
	}
}

// shareFrom is the length of the shortest input whose equal names and nodes
// are stored once: on shorter ones the memory saved does not pay for the
// lookups.
const shareFrom = 4096

// estimate returns how many items to allocate in the next arena chunk when
// about one item is expected per bytesPer bytes of the input left to read.
func (d *decoder) estimate(bytesPer int) int {
	return min((len(d.data)-d.pos)/bytesPer+4, 1024)
}

// take returns n items from the arena, refilling it with a chunk of
// max(n, chunk) items when it runs short.
func take[T any](arena *[]T, n, chunk int) []T {
	if len(*arena) < n {
		*arena = make([]T, max(n, chunk))
	}
	out := (*arena)[:n:n]
	*arena = (*arena)[n:]
	return out
}

// name returns b as a string backed by the names arena: the string returned
// before for the same bytes, if any.
func (d *decoder) name(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if !d.share {
		return d.copyName(b)
	}
	h := hashBytes(internSeed, b)
	slot := findName(&d.names, h, b)
	if slot != nil && slot.val != "" {
		return slot.val
	}
	s := d.copyName(b)
	d.names.add(slot, h, s)
	return s
}

// copyName returns a copy of b in the names arena. A chunk is sized for the
// names of the input left to read: about a third of unshared FieldsV1 text,
// a small part of shared.
func (d *decoder) copyName(b []byte) string {
	if cap(d.nameArena)-len(d.nameArena) < len(b) {
		n := (len(d.data) - d.pos) / 2
		if d.share {
			n /= 4
		}
		d.nameArena = make([]byte, 0, max(len(b), min(n, 8<<10), 64))
	}
	off := len(d.nameArena)
	d.nameArena = append(d.nameArena, b...)
	return unsafe.String(&d.nameArena[off], len(b))
}

func (d *decoder) literal(lit string, key int) error {
	for i := 0; i < len(lit); i++ {
		if d.pos+i >= len(d.data) {
			return d.errorf(d.pos+i, key, "unexpected end of input in literal %s", lit)
		}
		if d.data[d.pos+i] != lit[i] {
			return d.errorf(d.pos+i, key, "found %s in literal %s", describeByte(d.data[d.pos+i]), lit)
		}
	}
	d.pos += len(lit)
	return nil
}

func describeByte(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c >= 0x20 && c < 0x7f:
		return "'" + string(rune(c)) + "'"
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// str reads the string literal at d.pos and returns its unescaped bytes: a
// slice of the input when it has no escapes, else of d.buf (valid until the
// next call). Bytes that are not valid UTF-8 are kept as they are.
func (d *decoder) str(key int) ([]byte, error) {
	start := d.pos + 1
	data := d.data
	for i := start + plainPrefix(data[start:]); i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return data[start:i], nil
		case c == '\\':
			return d.strEscaped(start, i, key)
		case c < 0x20:
			return nil, d.errorf(i, key, "control character %s in string", describeByte(c))
		}
	}
	return nil, d.errorf(len(data), key, "unexpected end of input in string starting at byte %d", d.pos)
}

func (d *decoder) strEscaped(start, i int, key int) ([]byte, error) {
	data := d.data
	b := append(d.buf[:0], data[start:i]...)
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.buf = b
			return b, nil
		case c < 0x20:
			return nil, d.errorf(i, key, "control character %s in string", describeByte(c))
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		nb, next, st := jsonstr.AppendEscape(b, data, i)
		switch {
		case st == jsonstr.EscapeOK:
			b, i = nb, next
			continue
		case st == jsonstr.EscapeBadLetter:
			return nil, d.errorf(i, key, "bad escape %s in string", describeByte(data[i+1]))
		case st == jsonstr.EscapeBadHex || i+1 < len(data):
			// A bad digit, or the input ends inside a \u escape.
			return nil, d.errorf(i, key, "bad \\u escape in string")
		}
		break
	}
	return nil, d.errorf(len(data), key, "unexpected end of input in string")
}

// skip reads and discards the JSON value at d.pos, checking its syntax.
// depth is the depth of the enclosing object.
func (d *decoder) skip(depth int, keyOff int) error {
	end, err := skipValue(d.data, d.pos, depth, MaxFieldsV1Depth)
	if err != nil {
		err.Input, err.Key = "FieldsV1", d.keyAt(keyOff)
		return err
	}
	d.pos = end
	return nil
}

// skipValue checks the syntax of the JSON value starting at pos (after any
// whitespace) and returns the offset just past it. depth is the nesting depth
// of the enclosing container; containers deeper than limit are errors.
func skipValue(data []byte, pos, depth, limit int) (int, *SyntaxError) {
	fail := func(at int, format string, args ...any) (int, *SyntaxError) {
		return 0, &SyntaxError{Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	// Containers are tracked on an explicit stack of closing brackets.
	var stackBuf [32]byte
	stack := stackBuf[:0]
	for {
		pos = skipWS(data, pos)
		if pos >= len(data) {
			return fail(pos, "unexpected end of input; want a value")
		}
		switch c := data[pos]; {
		case c == '{' || c == '[':
			if depth+len(stack)+1 > limit {
				return fail(pos, "nesting deeper than %d", limit)
			}
			pos = skipWS(data, pos+1)
			if c == '{' {
				stack = append(stack, '}')
				if pos < len(data) && data[pos] == '}' {
					pos++
					stack = stack[:len(stack)-1]
					break
				}
				end, err := skipString(data, pos)
				if err != nil {
					return 0, err
				}
				pos = skipWS(data, end)
				if pos >= len(data) || data[pos] != ':' {
					return fail(pos, "want ':' after an object key")
				}
				pos++
				continue
			}
			stack = append(stack, ']')
			if pos < len(data) && data[pos] == ']' {
				pos++
				stack = stack[:len(stack)-1]
				break
			}
			continue
		case c == '"':
			end, err := skipString(data, pos)
			if err != nil {
				return 0, err
			}
			pos = end
		case c == 't' || c == 'f' || c == 'n':
			lit := "null"
			if c == 't' {
				lit = "true"
			} else if c == 'f' {
				lit = "false"
			}
			if len(data)-pos < len(lit) || string(data[pos:pos+len(lit)]) != lit {
				return fail(pos, "invalid literal; want %s", lit)
			}
			pos += len(lit)
		case c == '-' || (c >= '0' && c <= '9'):
			end, ok := skipNumber(data, pos)
			if !ok {
				return fail(pos, "invalid number")
			}
			pos = end
		default:
			return fail(pos, "found %s; want a value", describeByte(c))
		}
		// After a complete value: close containers or move to the next entry.
		for {
			if len(stack) == 0 {
				return pos, nil
			}
			pos = skipWS(data, pos)
			if pos >= len(data) {
				return fail(pos, "unexpected end of input; want ',' or %q", stack[len(stack)-1])
			}
			c := data[pos]
			if c == stack[len(stack)-1] {
				pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if c != ',' {
				return fail(pos, "found %s; want ',' or %q", describeByte(c), stack[len(stack)-1])
			}
			pos = skipWS(data, pos+1)
			if stack[len(stack)-1] == '}' {
				end, err := skipString(data, pos)
				if err != nil {
					return 0, err
				}
				pos = skipWS(data, end)
				if pos >= len(data) || data[pos] != ':' {
					return fail(pos, "want ':' after an object key")
				}
				pos++
			}
			break
		}
	}
}

func skipWS(data []byte, pos int) int {
	for pos < len(data) {
		switch data[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
			continue
		}
		break
	}
	return pos
}

// skipString checks the string literal at pos and returns the offset past it.
func skipString(data []byte, pos int) (int, *SyntaxError) {
	if pos >= len(data) || data[pos] != '"' {
		return 0, &SyntaxError{Offset: pos, Msg: "want a string"}
	}
	for i := pos + 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return 0, &SyntaxError{Offset: i, Msg: "control character in string"}
		case c == '\\':
			next, st := jsonstr.SkipEscape(data, i)
			switch {
			case st == jsonstr.EscapeOK:
				i = next - 1
			case st == jsonstr.EscapeBadLetter:
				return 0, &SyntaxError{Offset: i, Msg: "bad escape in string"}
			case st == jsonstr.EscapeBadHex || i+1 < len(data):
				return 0, &SyntaxError{Offset: i, Msg: "bad \\u escape in string"}
			default:
				i = len(data)
			}
		}
	}
	return 0, &SyntaxError{Offset: len(data), Msg: "unexpected end of input in string"}
}

// skipNumber checks the JSON number at pos and returns the offset past it.
func skipNumber(data []byte, pos int) (int, bool) {
	i := pos
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return 0, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			return 0, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	return i, true
}

// element parses an object key as a path element. known is false for a key
// with an unknown type letter, which is skipped like structured-merge-diff
// does. keyOff is the offset of the key in the input, for errors.
func (d *decoder) element(kb []byte, keyOff int) (pe PathElement, known bool, err error) {
	if len(kb) < 2 {
		return PathElement{}, false, d.errorf(keyOff, keyOff, "a key is a type letter, ':' and the element (or \".\")")
	}
	if kb[1] != ':' {
		return PathElement{}, false, d.errorf(keyOff, keyOff, "missing ':' after the type letter")
	}
	body := kb[2:]
	switch kb[0] {
	case 'f':
		return FieldName(d.name(body)), true, nil
	case 'i':
		n, ok := parseIndex(body)
		if !ok {
			return PathElement{}, false, d.errorf(keyOff, keyOff, "the index is not a decimal integer")
		}
		return Index(n), true, nil
	case 'v':
		v, err := d.jsonValue(body, keyOff, kb)
		if err != nil {
			return PathElement{}, false, err
		}
		p := &take(&d.valArena, 1, d.estimate(256))[0]
		*p = v
		return valueElement(p), true, nil
	case 'k':
		fields, err := d.keyFields(body, keyOff, kb)
		if err != nil {
			return PathElement{}, false, err
		}
		return Key(fields), true, nil
	}
	return PathElement{}, false, nil
}

// parseIndex parses a decimal int as strconv.Atoi does: an optional sign and
// at least one digit, within the range of int.
func parseIndex(b []byte) (int, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (math.MaxUint64-9)/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > uint64(math.MaxInt64)+1 {
			return 0, false
		}
		return int(-int64(n)), true
	}
	if n > math.MaxInt64 {
		return 0, false
	}
	return int(n), true
}

// jsonValue decodes the JSON text of a v: key.
func (d *decoder) jsonValue(body []byte, keyOff int, kb []byte) (value.Value, error) {
	start := skipWS(body, 0)
	if start >= len(body) {
		return value.Value{}, d.innerError(keyOff, kb, start+2, "want a JSON value", nil)
	}
	end, serr := skipValue(body, start, 0, value.DefaultMaxDepth)
	if serr != nil {
		return value.Value{}, d.innerError(keyOff, kb, serr.Offset+2, serr.Msg, nil)
	}
	if rest := skipWS(body, end); rest < len(body) {
		return value.Value{}, d.innerError(keyOff, kb, rest+2, "unexpected data after the value", nil)
	}
	v, err := d.decodeValue(body[start:end])
	if err != nil {
		return value.Value{}, d.innerError(keyOff, kb, start+2, "bad value", err)
	}
	return v, nil
}

// decodeValue decodes one JSON value (already checked by skipValue) as
// value.FromJSON does, except that the integer literal -0 is a negative zero
// float, as the reference reader (which reads every number as a float64) has
// it, so that it is written back as -0. Strings without escapes, small
// integers and literals are decoded here without allocating; the rest goes
// to FromJSON.
func (d *decoder) decodeValue(text []byte) (value.Value, error) {
	switch text[0] {
	case '"':
		// Without escapes, valid UTF-8 bytes are the string.
		inner := text[1 : len(text)-1]
		if slices.Contains(inner, '\\') || !utf8.Valid(inner) {
			return value.FromJSON(text)
		}
		return value.NewString(d.name(inner)), nil
	case 't':
		return value.NewBool(true), nil
	case 'f':
		return value.NewBool(false), nil
	case 'n':
		return value.NewNull(), nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if string(text) == "-0" {
			return value.NewFloat(math.Copysign(0, -1)), nil
		}
		if n, ok := smallInt(text); ok {
			return value.NewInt(n), nil
		}
	}
	return value.FromJSON(text)
}

// smallInt parses a JSON integer of at most 18 digits.
func smallInt(text []byte) (int64, bool) {
	neg := text[0] == '-'
	digits := text
	if neg {
		digits = text[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

func (d *decoder) innerError(keyOff int, kb []byte, inner int, msg string, err error) error {
	return &SyntaxError{Input: "FieldsV1", Offset: keyOff, Key: string(kb),
		Msg: fmt.Sprintf("at byte %d of the key: %s", inner, msg), Err: err}
}

// keyFields decodes the JSON object of a k: key. null is a key with no
// fields, as in the reference reader; repeated names are kept.
func (d *decoder) keyFields(body []byte, keyOff int, kb []byte) ([]value.Field, error) {
	fail := func(at int, msg string) ([]value.Field, error) {
		return nil, d.innerError(keyOff, kb, at+2, msg, nil)
	}
	pos := skipWS(body, 0)
	if pos >= len(body) {
		return fail(pos, "want an object of key fields")
	}
	if body[pos] == 'n' {
		if len(body)-pos < 4 || string(body[pos:pos+4]) != "null" {
			return fail(pos, "invalid literal; want null or an object")
		}
		if rest := skipWS(body, pos+4); rest < len(body) {
			return fail(rest, "unexpected data after null")
		}
		return nil, nil
	}
	if body[pos] != '{' {
		return fail(pos, "want an object of key fields")
	}
	pos = skipWS(body, pos+1)
	fields := d.keyStack[:0]
	defer func() { d.keyStack = fields[:0] }()
	if pos < len(body) && body[pos] == '}' {
		pos++
	} else {
		for {
			pos = skipWS(body, pos)
			nameStart := pos
			end, serr := skipString(body, pos)
			if serr != nil {
				return fail(serr.Offset, serr.Msg)
			}
			name, ok := d.unquote(body[nameStart:end])
			if !ok {
				return fail(nameStart, "bad key field name")
			}
			pos = skipWS(body, end)
			if pos >= len(body) || body[pos] != ':' {
				return fail(pos, "want ':' after a key field name")
			}
			pos = skipWS(body, pos+1)
			vend, serr := skipValue(body, pos, 1, value.DefaultMaxDepth)
			if serr != nil {
				return fail(serr.Offset, serr.Msg)
			}
			v, err := d.decodeValue(body[pos:vend])
			if err != nil {
				return nil, d.innerError(keyOff, kb, pos+2, "bad value of key field "+strconv.Quote(name), err)
			}
			fields = append(fields, value.Field{Name: name, Value: v})
			pos = skipWS(body, vend)
			if pos >= len(body) {
				return fail(pos, "unexpected end of the key; want ',' or '}'")
			}
			if body[pos] == ',' {
				pos++
				continue
			}
			if body[pos] == '}' {
				pos++
				break
			}
			return fail(pos, "want ',' or '}' after a key field")
		}
	}
	if rest := skipWS(body, pos); rest < len(body) {
		return fail(rest, "unexpected data after the key object")
	}
	if len(fields) == 0 {
		return nil, nil
	}
	out := take(&d.keyArena, len(fields), d.estimate(128))
	copy(out, fields)
	clear(fields)
	return out, nil
}

// unquote decodes a JSON string literal (already checked by skipString)
// into an arena-backed string.
func (d *decoder) unquote(lit []byte) (string, bool) {
	inner := lit[1 : len(lit)-1]
	if !slices.Contains(inner, '\\') {
		return d.name(inner), true
	}
	// Decode with a separate decoder: d.buf may hold the enclosing key.
	sub := decoder{data: lit, buf: d.buf2}
	b, err := sub.str(-1)
	d.buf2 = sub.buf
	if err != nil {
		return "", false
	}
	return d.name(b), true
}

// plainPrefix returns the length of the longest prefix of s with no byte
// that JSON string text must escape ('"', '\\' and control characters),
// looking at eight bytes at a time.
func plainPrefix[T string | []byte](s T) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// The classic tests for a byte less than n (here 0x20) and for a
		// zero byte (here after XOR with '"' and with '\\').
		q, b := x^(ones*'"'), x^(ones*'\\')
		if ((x-ones*0x20)&^x|(q-ones)&^q|(b-ones)&^b)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			break
		}
	}
	return i
}

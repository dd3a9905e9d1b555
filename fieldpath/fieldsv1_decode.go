package fieldpath

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/structmerge/structmerge/value"
)

// The FieldsV1 decoder: ParseFieldsV1, its pooled scratch memory and the
// reading of keys into path elements.

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
	sc := getDecodeScratch()
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

	virtual int // for a value being read, about the length of its text (see left)

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
		return nil, false, &SyntaxError{Input: "FieldsV1", Offset: d.pos, Key: d.keyAt(key), Msg: fmt.Sprintf("objects nested more than %d deep", MaxFieldsV1Depth), Err: value.ErrTooDeep}
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
	return ownKey(out), true
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
	d.add(pe, sub, member, mBase, cBase, sorted)
	return nil
}

// add pushes the entry pe of the node whose members and children start at
// mBase and cBase on the stacks: a member, a child with the set sub, or
// both; sorted becomes false when pe does not come after the entries
// before it.
func (d *decoder) add(pe PathElement, sub *Set, member bool, mBase, cBase int, sorted *bool) {
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
		return arenaNode(&d.nodeArena, ms, cs)
	}
	h := hashWords(hashWords(internSeed, ms), cs)
	slot := findNode(&d.nodes, h, ms, cs)
	if slot != nil && slot.val != nil {
		return slot.val
	}
	s := arenaNode(&d.nodeArena, ms, cs)
	d.nodes.add(slot, h, s)
	return s
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
		return ownKey(fields), true, nil
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

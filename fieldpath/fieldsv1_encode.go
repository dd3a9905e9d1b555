package fieldpath

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/structmerge/structmerge/internal/jsonstr"
	"github.com/structmerge/structmerge/value"
)

// The FieldsV1 encoder: MarshalFieldsV1 and the escaping of keys and
// values as structured-merge-diff writes them.

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
	bp := getEncodeBuffer()
	buf := s.AppendFieldsV1((*bp)[:0])
	out := make([]byte, len(buf))
	copy(out, buf)
	putEncodeBuffer(bp, buf)
	return out
}

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

// entryOrder orders the next entries of the encoding of a set of members
// m and children c, m[i] and c[j], either list possibly done: below 0 the
// member comes first, above 0 the child, 0 when they are one element (a
// member with members below it).
func entryOrder(m []PathElement, c []Child, i, j int) int {
	switch {
	case i >= len(m):
		return 1
	case j >= len(c):
		return -1
	}
	return m[i].Compare(c[j].Element)
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
		dst = appendElementText(dst, pe)
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
	dst = appendKeyFields(dst, fields)
	dst = escapeTail(dst, raw)
	return append(dst, '"')
}

// appendElementText writes the object key of pe as its string holds it,
// before the escaping for a JSON string: "f:name", "i:3", "v:<json>",
// "k:<json>".
func appendElementText(dst []byte, pe PathElement) []byte {
	switch pe.Kind() {
	case FieldNameKind:
		dst = append(dst, "f:"...)
		return append(dst, pe.name()...)
	case IndexKind:
		dst = append(dst, "i:"...)
		return strconv.AppendInt(dst, int64(pe.Index()), 10)
	case KeyKind:
		return appendKeyFields(dst, pe.key())
	case ValueKind:
		dst = append(dst, "v:"...)
		return appendValueJSON(dst, *pe.value())
	}
	return dst
}

// appendKeyFields writes k: and the JSON object of a key's fields.
func appendKeyFields(dst []byte, fields []value.Field) []byte {
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
	return append(dst, '}')
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
		for i, it := range vown.Items(v) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValueJSON(dst, it)
		}
		return append(dst, ']')
	case value.Map:
		dst = append(dst, '{')
		for i, f := range vown.Fields(v) {
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

// FieldsV1Value returns the FieldsV1 encoding of s as a value: what
// value.FromJSON(s.MarshalFieldsV1()) gives, built from the set without
// the text (the empty set is the empty map).
func (s *Set) FieldsV1Value() value.Value { return s.FieldsV1ValueLike(value.Value{}) }

// FieldsV1ValueLike is FieldsV1Value sharing like's parts: every map of
// the result equal to like's map at the same place is that map itself
// (value.Same), and when the whole result is equal to like, it is like.
// like is typically the encoding of the set s was made from, read from an
// object; encoding a changed set like it rebuilds only the maps on the
// paths to the changes, and lets value.UnstructuredFrom give back the
// caller's maps for the rest. A like that is not a map shares nothing.
func (s *Set) FieldsV1ValueLike(like value.Value) value.Value {
	entries, names := fieldsV1Size(s)
	b := fieldsV1Builder{fields: make([]value.Field, entries), names: make([]byte, 0, names)}
	v := b.node(s, false, like)
	if b.invalid() {
		// The text carries invalid UTF-8 as U+FFFD, byte by byte.
		v, _ = value.FromJSON(s.MarshalFieldsV1())
	}
	return v
}

// FieldsV1Unstructured returns the FieldsV1 encoding of s in the
// map[string]any form of encoding/json and of Kubernetes' unstructured
// objects: what s.FieldsV1Value().Unstructured() gives, built from the set
// without the value (the empty set is the empty map). Every map is new.
func (s *Set) FieldsV1Unstructured() map[string]any {
	return s.FieldsV1UnstructuredLike(nil, nil)
}

// FieldsV1UnstructuredLike is FieldsV1Unstructured sharing like's maps,
// as FieldsV1ValueLike shares a value's: like is the map form of the
// encoding of prev (the map ParseFieldsV1Unstructured read prev from,
// canonical), and every map of the result that encodes what prev's map at
// the same place encodes is like's map there; when s equals prev, the
// result is like. Encoding a changed set like the map it was read from
// builds only the maps on the paths to the changes. The result shares
// like's maps: neither may be modified afterwards. With a nil like, every
// map is new.
func (s *Set) FieldsV1UnstructuredLike(prev *Set, like map[string]any) map[string]any {
	if like != nil && s.Equal(prev) {
		return like
	}
	_, names := fieldsV1Size(s)
	b := fieldsV1Builder{names: make([]byte, 0, names)}
	m := b.unstructured(s, false, prev, like)
	if b.invalid() {
		// As FieldsV1ValueLike: invalid UTF-8 is read as the text has it.
		v, _ := value.FromJSON(s.MarshalFieldsV1())
		m, _ = v.Unstructured().(map[string]any)
	}
	return m
}

// unstructured returns the map of the entries of s, as node does: "."
// when self, then its members and children, an element both member and
// child being the child's map with a "." entry (an empty child set is an
// empty map). like, when not nil, is the encoding of prev, whose maps are
// given back where they encode the same (see FieldsV1UnstructuredLike).
func (b *fieldsV1Builder) unstructured(s *Set, self bool, prev *Set, like map[string]any) map[string]any {
	if s.Empty() {
		return map[string]any{}
	}
	m, c := s.ms(), s.cs()
	// The map's exact size: a size over eight makes a larger table than
	// eight entries need.
	n := len(m) + len(c)
	if self {
		n++
	}
	for i, j := 0, 0; i < len(m) && j < len(c); {
		switch d := entryOrder(m, c, i, j); {
		case d < 0:
			i++
		case d > 0:
			j++
		default:
			n--
			i++
			j++
		}
	}
	out := make(map[string]any, n)
	if self {
		out["."] = map[string]any{}
	}
	i, j := 0, 0
	for i < len(m) || j < len(c) {
		d := entryOrder(m, c, i, j)
		if d < 0 {
			name := b.name(m[i])
			if leaf, ok := like[name].(map[string]any); ok && len(leaf) == 0 {
				out[name] = leaf // a member's empty map, or an empty child's
			} else {
				out[name] = map[string]any{}
			}
			i++
			continue
		}
		pe, name := c[j].Element, b.name(c[j].Element)
		sub, _ := like[name].(map[string]any)
		var was *Set
		if sub != nil {
			was = prev.WithPrefix(pe)
		}
		if was != nil && prev.HasMember(pe) == (d == 0) && c[j].Set.Equal(was) {
			out[name] = sub
		} else {
			out[name] = b.unstructured(c[j].Set, d == 0, was, sub)
		}
		if d == 0 {
			i++
		}
		j++
	}
	return out
}

// fieldsV1Size returns the number of object entries in the encoding of s
// and about the length of their names.
func fieldsV1Size(s *Set) (entries, names int) {
	if s.Empty() {
		return 0, 0
	}
	entries = len(s.ms()) + len(s.cs()) + 1 // "." at most once per node
	names = 8 * entries
	for _, c := range s.cs() {
		e, n := fieldsV1Size(c.Set)
		entries += e
		names += n
	}
	return entries, names
}

// fieldsV1Builder builds the value of an encoding: the fields of all its
// maps come from one array and the names from one buffer, neither changed
// once a map or a name is cut from it.
type fieldsV1Builder struct {
	fields []value.Field
	names  []byte
}

// invalid reports whether a name the builder cut is not valid UTF-8. Every
// name starts with an ASCII byte (its "f:", "k:", "v:" or "i:"), so no
// invalid end of one name and start of the next can make a valid sequence:
// the buffer of all the names is valid exactly when each is.
func (b *fieldsV1Builder) invalid() bool { return !utf8.Valid(b.names) }

// name returns the object key of pe, cut from the names buffer.
func (b *fieldsV1Builder) name(pe PathElement) string {
	at := len(b.names)
	b.names = appendElementText(b.names, pe)
	if len(b.names) == at {
		return "" // a zero PathElement
	}
	return stringAt(&b.names[at], len(b.names)-at)
}

// node returns the map of the entries of s: "." when self, then its
// members and children, as appendContents writes them. Its fields take
// the room fieldsV1Size counted for the node (an element both member and
// child is one entry: a slot or two are left unused). When the map is
// equal to like, it is like, and the room it and the maps below it took
// is given back (each of those was like's too, or this one would differ).
func (b *fieldsV1Builder) node(s *Set, self bool, like value.Value) value.Value {
	if s.Empty() {
		return emptyLike(like)
	}
	if like.Kind() != value.Map {
		like = value.Value{}
	}
	m, c := s.ms(), s.cs()
	room := len(m) + len(c) + 1
	if len(b.fields) < room {
		b.fields = make([]value.Field, max(room, 64))
	}
	savedFields, savedNames := b.fields, len(b.names)
	out := b.fields[:0:room]
	b.fields = b.fields[room:]
	// same notes whether every entry so far is like's entry of its name.
	same := !like.IsNull()
	if self {
		v := emptyLike(entryOf(like, "."))
		same = same && value.Same(v, entryOf(like, "."))
		out = out[:len(out)+1] // within its capacity: no block copy (see value's putField)
		out[len(out)-1].Name, out[len(out)-1].Value = ".", v
	}
	i, j := 0, 0
	for i < len(m) || j < len(c) {
		d := 1
		switch {
		case i >= len(m):
		case j >= len(c):
			d = -1
		default:
			d = m[i].Compare(c[j].Element)
		}
		var name string
		var v, lv value.Value
		if d < 0 {
			name = b.name(m[i])
			lv = entryOf(like, name)
			v = emptyLike(lv)
			i++
		} else {
			name = b.name(c[j].Element)
			lv = entryOf(like, name)
			v = b.node(c[j].Set, d == 0, lv)
			if d == 0 {
				i++
			}
			j++
		}
		same = same && value.Same(v, lv)
		out = out[:len(out)+1] // within its capacity: no block copy (see value's putField)
		out[len(out)-1].Name, out[len(out)-1].Value = name, v
	}
	if same && len(out) == like.Len() {
		// Each entry is like's entry of its name, and like has no other.
		clear(out)
		b.fields, b.names = savedFields, b.names[:savedNames]
		return like
	}
	return vown.Map(out)
}

// entryOf returns the entry name of the map like (null when none).
func entryOf(like value.Value, name string) value.Value {
	if like.IsNull() {
		return value.Value{}
	}
	v, _ := like.Get(name)
	return v
}

// emptyLike returns like when it is an empty map, else a new empty map.
func emptyLike(like value.Value) value.Value {
	if like.Kind() == value.Map && like.Len() == 0 {
		return like
	}
	return vown.Map(nil)
}

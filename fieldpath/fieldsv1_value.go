package fieldpath

import (
	"slices"
	"unicode/utf8"

	"github.com/structmerge/structmerge/value"
)

// ParseFieldsV1Value decodes a set held as the value of its FieldsV1 JSON
// (the fieldsV1 of a managedFields entry read with its object): the set and
// the error of ParseFieldsV1(value.ToJSON(v)), read from v's maps without
// writing and scanning the text.
//
// canonical reports that v is what the set encodes to: v equals
// value.FromJSON(s.MarshalFieldsV1()) (maps compare without order), so a
// caller that writes the set back unchanged may write v itself. It is
// false for an error, a top-level null, members written as null, "." where
// the encoder does not write it, keys with an unknown type letter, and k:,
// v: and i: keys not in the encoder's spelling.
//
// Unlike ParseFieldsV1's, the set may share field names with v (strings
// are immutable). Input the fast reading does not cover (invalid UTF-8,
// unknown type letters, "." with a value other than {}, errors) is read
// through the text.
func ParseFieldsV1Value(v value.Value) (s *Set, canonical bool, err error) {
	if v.Kind() == value.Map {
		sc := getDecodeScratch()
		d := decoder{buf: sc.buf, buf2: sc.buf2, keyStack: sc.keyStack, members: sc.members, children: sc.children,
			names: internTable[string]{slots: sc.names[:cap(sc.names)]}, nodes: internTable[*Set]{slots: sc.nodes[:cap(sc.nodes)]}}
		members, nodes := countFieldsV1(v)
		d.nodeArena.Reserve(members, nodes)
		d.virtual = members * 24
		s, _, canonical, ok := d.valueNode(1, v)
		sc.put(&d)
		if ok {
			return s, canonical, nil
		}
	}
	s, err = ParseFieldsV1(value.ToJSON(v))
	return s, false, err
}

// countFieldsV1 returns the number of entries and of non-empty objects in
// v, to size a decoder's arenas.
func countFieldsV1(v value.Value) (members, nodes int) {
	if v.Kind() != value.Map || v.Len() == 0 {
		return 0, 0
	}
	members, nodes = v.Len(), 1
	for _, f := range vown.Fields(v) {
		m, n := countFieldsV1(f.Value)
		members += m
		nodes += n
	}
	return members, nodes
}

// valueNode reads the map v, one trie node at depth, as node reads an
// object. ok is false for anything the text decoder must read.
func (d *decoder) valueNode(depth int, v value.Value) (s *Set, member, canonical, ok bool) {
	if v.Kind() == value.Null {
		return nil, true, false, true
	}
	if v.Kind() != value.Map || depth > MaxFieldsV1Depth {
		return nil, false, false, false
	}
	fields := vown.Fields(v)
	if len(fields) == 0 {
		return nil, true, true, true
	}
	mBase, cBase := len(d.members), len(d.children)
	self, sorted := false, true
	canonical = true
	for i := range fields {
		name, fv := fields[i].Name, fields[i].Value
		if name == "." {
			if fv.Kind() != value.Map || fv.Len() != 0 {
				return d.abandon(mBase, cBase)
			}
			self = true
			continue
		}
		pe, canon, ok := d.valueElement(name)
		if !ok {
			return d.abandon(mBase, cBase)
		}
		sub, isMember, subCanon, ok := d.valueNode(depth+1, fv)
		if !ok {
			return d.abandon(mBase, cBase)
		}
		canonical = canonical && canon && subCanon
		d.add(pe, sub, isMember, mBase, cBase, &sorted)
	}
	ms, cs := d.members[mBase:], d.children[cBase:]
	if !sorted {
		n, m := len(ms), len(cs)
		ms, cs = normalizeDecoded(ms, cs)
		canonical = canonical && len(ms) == n && len(cs) == m
	}
	if len(ms) > 0 || len(cs) > 0 {
		s = d.finish(ms, cs)
	}
	d.members, d.children = d.members[:mBase], d.children[:cBase]
	// The encoder writes "." only in a member that has children, and
	// never at the top.
	if self && (s == nil || depth == 1) {
		canonical = false
	}
	return s, self || s == nil, canonical, true
}

// abandon pops a node's entries when the value must be read as text.
func (d *decoder) abandon(mBase, cBase int) (*Set, bool, bool, bool) {
	d.members, d.children = d.members[:mBase], d.children[:cBase]
	return nil, false, false, false
}

// valueElement parses the object key name as element does, and reports
// whether name is the encoder's spelling of the element; ok is false for a
// key the text decoder must read (an error, an unknown type letter, or
// invalid UTF-8, which the text would carry as U+FFFD).
func (d *decoder) valueElement(name string) (pe PathElement, canonical, ok bool) {
	if len(name) < 2 || name[1] != ':' || !utf8.ValidString(name) {
		return PathElement{}, false, false
	}
	switch name[0] {
	case 'f':
		return FieldName(name[2:]), true, true
	case 'i', 'k', 'v':
	default:
		return PathElement{}, false, false
	}
	d.buf = append(d.buf[:0], name...)
	pe, known, err := d.element(d.buf, -1)
	if err != nil || !known {
		return PathElement{}, false, false
	}
	d.buf2 = appendElementText(d.buf2[:0], pe)
	return pe, string(d.buf2) == name, true
}

// ParseFieldsV1Unstructured decodes a set held as the map[string]any form
// of its FieldsV1 JSON (the fieldsV1 of a managedFields entry of an object
// decoded by encoding/json, or of a Kubernetes unstructured object): the
// set, canonical flag and error of ParseFieldsV1Value(value.FromUnstructured(x)),
// or the error of that conversion, read from x's maps without converting
// them. x is not modified, and the set shares no memory with it but its
// strings.
//
// canonical reports that x is what the set encodes to: x converts to the
// value s.FieldsV1Unstructured() converts to (the same JSON), so a caller
// that writes the set back unchanged may write x itself.
func ParseFieldsV1Unstructured(x any) (s *Set, canonical bool, err error) {
	if m, ok := x.(map[string]any); ok {
		sc := getDecodeScratch()
		d := decoder{buf: sc.buf, buf2: sc.buf2, keyStack: sc.keyStack, members: sc.members, children: sc.children,
			names: internTable[string]{slots: sc.names[:cap(sc.names)]}, nodes: internTable[*Set]{slots: sc.nodes[:cap(sc.nodes)]}}
		// The sizes are not known without a walk of their own: the
		// first blocks are sized for the top level and grow.
		d.nodeArena.Expect(32*len(m), 8*len(m))
		d.virtual = 32 * len(m) * 24
		s, _, ok := d.mapNode(1, m)
		sc.put(&d)
		if ok {
			return s, true, nil
		}
	}
	v, err := value.FromUnstructured(x)
	if err != nil {
		return nil, false, err
	}
	return ParseFieldsV1Value(v)
}

// mapNode reads the map m, one trie node at depth, as valueNode reads a
// map value, for canonical input only: ok is false for anything else
// (a key or a "." the encoder does not write, a value other than a
// map[string]any, invalid UTF-8, too deep a map), which the caller reads
// through the value. In canonical input no two keys spell one element, so
// the entries need sorting but never merging.
func (d *decoder) mapNode(depth int, m map[string]any) (s *Set, member, ok bool) {
	if depth > MaxFieldsV1Depth {
		return nil, false, false
	}
	if len(m) == 0 {
		return nil, true, true
	}
	mBase, cBase := len(d.members), len(d.children)
	abandon := func() (*Set, bool, bool) {
		s, member, _, ok := d.abandon(mBase, cBase)
		return s, member, ok
	}
	self, sorted := false, true
	for name, x := range m {
		sub, isMap := x.(map[string]any)
		if !isMap {
			return abandon()
		}
		if name == "." {
			if len(sub) != 0 {
				return abandon()
			}
			self = true
			continue
		}
		pe, canon, ok := d.valueElement(name)
		if !ok || !canon {
			return abandon()
		}
		child, isMember, ok := d.mapNode(depth+1, sub)
		if !ok {
			return abandon()
		}
		d.add(pe, child, isMember, mBase, cBase, &sorted)
	}
	ms, cs := d.members[mBase:], d.children[cBase:]
	if !sorted {
		slices.SortFunc(ms, func(a, b PathElement) int { return a.Compare(b) })
		slices.SortFunc(cs, func(a, b Child) int { return a.Element.Compare(b.Element) })
	}
	if len(ms) > 0 || len(cs) > 0 {
		s = d.finish(ms, cs)
	}
	d.members, d.children = d.members[:mBase], d.children[:cBase]
	// The encoder writes "." only in a member that has children, and
	// never at the top.
	if self && (s == nil || depth == 1) {
		return nil, false, false
	}
	return s, self || s == nil, true
}

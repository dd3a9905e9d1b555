package fieldpath

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	corefieldpath "github.com/structmerge/structmerge/fieldpath"
	core "github.com/structmerge/structmerge/value"
	"sigs.k8s.io/structured-merge-diff/v6/internal/setlink"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// ErrUnknownPathElementType is returned by DeserializePathElement for a
// string whose type prefix is not f:, k:, v: or i:.
var ErrUnknownPathElementType = errors.New("unknown path element type")

// SerializePathElement returns the FieldsV1 key of pe: "f:" and the field
// name, "k:" and the key fields as a JSON object, "v:" and the value as
// JSON, or "i:" and the index.
func SerializePathElement(pe PathElement) (string, error) {
	key, err := appendKey(nil, pe)
	if err != nil {
		return "", err
	}
	v, err := core.FromJSON(key)
	if err != nil {
		return "", err
	}
	return v.AsString(), nil
}

func unstructured(v value.Value) interface{} {
	if v == nil {
		return nil
	}
	return v.Unstructured()
}

// DeserializePathElement parses a FieldsV1 key made by SerializePathElement.
// JSON numbers in keys and values become float64, as in SMD. Error texts of
// malformed JSON are structmerge's decoder's, not SMD's.
func DeserializePathElement(s string) (PathElement, error) {
	if len(s) < 2 {
		return PathElement{}, errors.New("key must be 2 characters long:")
	}
	if s[1] != ':' {
		return PathElement{}, fmt.Errorf("missing colon: %v", s)
	}
	rest := s[2:]
	switch s[0] {
	case 'f':
		return PathElement{FieldName: &rest}, nil
	case 'v':
		v, err := value.FromJSON([]byte(rest))
		if err != nil {
			return PathElement{}, err
		}
		return PathElement{Value: &v}, nil
	case 'k':
		if err := keyShapeError(rest); err != nil {
			return PathElement{}, err
		}
		cv, err := core.FromJSON([]byte(rest))
		if err != nil {
			return PathElement{}, err
		}
		if cv.Kind() == core.Null {
			// SMD reads a null key as a key without fields.
			return PathElement{Key: &value.FieldList{}}, nil
		}
		if cv.Kind() != core.Map {
			return PathElement{}, fmt.Errorf("key %q is not a JSON object", rest)
		}
		fields := make(value.FieldList, 0, cv.Len())
		for _, f := range cv.Fields() {
			fields = append(fields, value.Field{Name: f.Name, Value: value.NewValueInterface(jsonData(f.Value))})
		}
		fields.Sort()
		return PathElement{Key: &fields}, nil
	case 'i':
		i, err := strconv.Atoi(rest)
		if err != nil {
			return PathElement{}, err
		}
		return PathElement{Index: &i}, nil
	}
	return PathElement{}, ErrUnknownPathElementType
}

// jsonData converts a decoded value into unstructured data with SMD's JSON
// number type (float64).
func jsonData(v core.Value) interface{} {
	switch v.Kind() {
	case core.Bool:
		return v.AsBool()
	case core.Int, core.Float:
		return v.AsFloat()
	case core.String:
		return v.AsString()
	case core.List:
		out := make([]interface{}, v.Len())
		for i, item := range v.Items() {
			out[i] = jsonData(item)
		}
		return out
	case core.Map:
		out := make(map[string]interface{}, v.Len())
		for _, f := range v.Fields() {
			out[f.Name] = jsonData(f.Value)
		}
		return out
	}
	return nil
}

// ToJSON returns the set in the FieldsV1 format of managed fields.
func (s *Set) ToJSON() ([]byte, error) {
	b, err := s.appendEntries(append(make([]byte, 0, 64*(s.Members.Size()+len(s.Children.members)+1)), '{'), false)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// ToJSONStream writes the set in the FieldsV1 format to w.
func (s *Set) ToJSONStream(w io.Writer) error {
	data, err := s.ToJSON()
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// appendEntries appends the object entries of s: "." first when self is
// true and s is not empty, then members and children in element order, a
// member that is also a child written once, as the child with ".".
func (s *Set) appendEntries(b []byte, self bool) ([]byte, error) {
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	if self && (len(s.Members.members) > 0 || len(s.Children.members) > 0) {
		sep()
		b = append(b, `".":{}`...)
	}
	var err error
	entry := func(pe PathElement, child *Set, member bool) {
		if err != nil {
			return
		}
		sep()
		if b, err = appendKey(b, pe); err != nil {
			return
		}
		if child == nil {
			b = append(b, ":{}"...)
			return
		}
		b = append(b, ':', '{')
		b, err = child.appendEntries(b, member)
		b = append(b, '}')
	}
	walk(s.Members.members, s.Children.members, func(pe PathElement, n setNode) int { return pe.Compare(n.pathElement) },
		func(pe PathElement) { entry(pe, nil, true) },
		func(n setNode) { entry(n.pathElement, n.set, false) },
		func(_ PathElement, n setNode) { entry(n.pathElement, n.set, true) })
	return b, err
}

// appendKey appends the FieldsV1 key of pe as a JSON string, as SMD
// writes it. A plain field name and an index are written here; any other
// element is written by structmerge's FieldsV1 encoder, whose keys
// (escaping, numbers) are SMD's byte for byte (the conformance tests
// compare them).
func appendKey(dst []byte, pe PathElement) ([]byte, error) {
	switch {
	case pe.FieldName != nil && plainString(*pe.FieldName):
		dst = append(dst, `"f:`...)
		dst = append(dst, *pe.FieldName...)
		return append(dst, '"'), nil
	case pe.Index != nil:
		dst = append(dst, `"i:`...)
		dst = strconv.AppendInt(dst, int64(*pe.Index), 10)
		return append(dst, '"'), nil
	}
	if out, ok := appendPlainElement(dst, pe); ok {
		return out, nil
	}
	e, err := coreElement(pe)
	if err != nil {
		return dst, err
	}
	// The key of the set's only member: {KEY:{}}.
	text := corefieldpath.NewSet(corefieldpath.Path{e}).MarshalFieldsV1()
	return append(dst, text[1:len(text)-len(":{}}")]...), nil
}

// appendPlainElement writes the key of a list item's key (k:) or of a set
// member (v:) whose JSON needs no escaping where structmerge's encoder
// would write it the same way: key fields in strictly increasing order of
// plain names, and values that are plain strings, integers (integral
// floats too), booleans or null. It reports false, and writes nothing, for any other element.
func appendPlainElement(dst []byte, pe PathElement) ([]byte, bool) {
	start := len(dst)
	switch {
	case pe.Key != nil && len(*pe.Key) > 0:
		dst = append(dst, `"k:{`...)
		for i, f := range *pe.Key {
			if !plainString(f.Name) || (i > 0 && (*pe.Key)[i-1].Name >= f.Name) {
				return dst[:start], false
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `\"`...)
			dst = append(dst, f.Name...)
			dst = append(dst, `\":`...)
			var ok bool
			if dst, ok = appendPlainValue(dst, f.Value); !ok {
				return dst[:start], false
			}
		}
		return append(dst, `}"`...), true
	case pe.Value != nil:
		dst = append(dst, `"v:`...)
		dst, ok := appendPlainValue(dst, *pe.Value)
		if !ok {
			return dst[:start], false
		}
		return append(dst, '"'), true
	}
	return dst, false
}

// appendPlainValue writes v as appendPlainElement does, inside a JSON
// string, or reports false.
func appendPlainValue(dst []byte, v value.Value) ([]byte, bool) {
	switch {
	case v == nil:
		return dst, false
	case v.IsString():
		str := v.AsString()
		if !plainString(str) {
			return dst, false
		}
		dst = append(dst, `\"`...)
		dst = append(dst, str...)
		return append(dst, `\"`...), true
	case v.IsInt():
		return strconv.AppendInt(dst, v.AsInt(), 10), true
	case v.IsFloat():
		// An integral float (JSON's numbers read back from managedFields
		// are float64, as in SMD) is written as its integer: 80, not 80.0.
		f := v.AsFloat()
		if f != math.Trunc(f) || math.Abs(f) >= 1e15 || (f == 0 && math.Signbit(f)) {
			return dst, false
		}
		return strconv.AppendInt(dst, int64(f), 10), true
	case v.IsBool():
		return strconv.AppendBool(dst, v.AsBool()), true
	case v.IsNull():
		return append(dst, "null"...), true
	}
	return dst, false
}

// plainString reports whether s is written in JSON as it is, between
// quotes: printable ASCII without the characters that are escaped.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// coreElement converts pe to structmerge's path element. A value JSON
// cannot hold (NaN, an infinity) is encoding/json's error, as SMD's writer
// refuses it too.
func coreElement(pe PathElement) (corefieldpath.PathElement, error) {
	conv := func(v value.Value) (core.Value, error) {
		x := unstructured(v)
		cv, err := core.FromUnstructured(x)
		if err != nil {
			if _, jerr := json.Marshal(x); jerr != nil {
				return core.Value{}, jerr
			}
		}
		return cv, err
	}
	switch {
	case pe.FieldName != nil:
		return corefieldpath.FieldName(*pe.FieldName), nil
	case pe.Index != nil:
		return corefieldpath.Index(*pe.Index), nil
	case pe.Value != nil:
		v, err := conv(*pe.Value)
		return corefieldpath.MemberValue(v), err
	case pe.Key != nil:
		fields := make([]core.Field, len(*pe.Key))
		for i, f := range *pe.Key {
			v, err := conv(f.Value)
			if err != nil {
				return corefieldpath.PathElement{}, err
			}
			fields[i] = core.Field{Name: f.Name, Value: v}
		}
		return corefieldpath.Key(fields), nil
	}
	return corefieldpath.PathElement{}, errors.New("invalid PathElement")
}

// FromJSON replaces s with the set read from r in the FieldsV1 format.
// Keys of an unknown type are skipped, as in SMD; a null object is empty.
func (s *Set) FromJSON(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	found, ok := parseFieldsV1(data)
	if !ok {
		found, err = readEntries(data)
	}
	*s = *found
	return err
}

// readEntries reads data entry by entry, reporting SMD's errors; on an
// error the set holds what was read.
func readEntries(data []byte) (*Set, error) {
	v, err := core.FromJSON(data)
	if err != nil {
		return &Set{}, err
	}
	if v.Kind() != core.Map && v.Kind() != core.Null {
		return &Set{}, fmt.Errorf("managed fields: expected a JSON object, got %s", strings.ToLower(v.Kind().String()))
	}
	found, _, err := readFieldsV1(v)
	if found == nil {
		found = &Set{}
	}
	return found, err
}

// parseFieldsV1 reads data with structmerge's FieldsV1 decoder (whose
// acceptance and results are SMD's: the conformance tests compare them) and
// converts the set. ok is false when the decoder rejects data, or when two
// of its elements become one here (v:1 and v:1.0: numbers in keys and
// values are float64, as in SMD); readEntries then reads data and reports
// SMD's errors.
func parseFieldsV1(data []byte) (*Set, bool) {
	cs, err := corefieldpath.ParseFieldsV1(data)
	if err != nil {
		return nil, false
	}
	out := &Set{}
	c := fromCore{number: jsonData}
	if !c.fill(out, cs) {
		return nil, false
	}
	return out, true
}

func init() {
	setlink.FromCore = func(s *corefieldpath.Set) any {
		return setFromCore(s, func(v core.Value) interface{} { return v.Unstructured() })
	}
	setlink.ToCore = func(s any) (*corefieldpath.Set, error) {
		var b corefieldpath.Builder
		var err error
		s.(*Set).insertInto(&b, nil, &err)
		return b.Build(), err
	}
}

// insertInto inserts the paths of s, each under prefix, into b as
// structmerge's paths, keeping the first error in *errp and leaving out
// the element it is about (and the paths under it).
func (s *Set) insertInto(b *corefieldpath.Builder, prefix corefieldpath.Path, errp *error) {
	keep := func(pe PathElement) (corefieldpath.PathElement, bool) {
		e, err := coreElement(pe)
		if err != nil && *errp == nil {
			*errp = err
		}
		return e, err == nil
	}
	for _, pe := range s.Members.members {
		if e, ok := keep(pe); ok {
			b.Insert(append(prefix, e))
		}
	}
	for _, n := range s.Children.members {
		if e, ok := keep(n.pathElement); ok {
			n.set.insertInto(b, append(prefix, e), errp)
		}
	}
}

// setFromCore returns s as a new set, numbers in keys and values converted
// by number. Where elements distinct in s are equal here (or in another
// order), it inserts the paths one by one.
func setFromCore(s *corefieldpath.Set, number func(core.Value) interface{}) *Set {
	out := &Set{}
	c := fromCore{number: number}
	if c.fill(out, s) {
		return out
	}
	*out = Set{}
	for p := range s.All() {
		path := make(Path, len(p))
		for i, pe := range p {
			path[i] = c.element(pe)
		}
		out.Insert(path)
	}
	return out
}

// fromCore converts decoded sets, taking the arrays of the nodes it makes
// (elements, children, sets, the names and indices elements point to) from
// larger ones: a few allocations per set rather than several per node.
// Each node's slices are capped at their length, so inserting into one
// copies it rather than writing into its neighbour's.
type fromCore struct {
	number func(core.Value) interface{} // the Go data of a key's or value's number

	names  []string
	ints   []int
	fields []value.Field
	keys   []value.FieldList
	elems  []PathElement
	nodes  []setNode
	sets   []Set
}

// take returns n zero items of *arena, starting a new array when it has no
// room (the arrays already handed out stay where they are).
func take[T any](arena *[]T, n int) []T {
	if cap(*arena)-len(*arena) < n {
		*arena = make([]T, 0, max(n, 32, 2*cap(*arena)))
	}
	l := len(*arena)
	*arena = (*arena)[:l+n]
	return (*arena)[l : l+n : l+n]
}

// fill fills the empty set dst with s, keeping s's order, which must be
// strictly increasing in SMD's order as well (false if not).
func (c *fromCore) fill(dst *Set, s *corefieldpath.Set) bool {
	if n := s.MembersLen(); n > 0 {
		dst.Members.members = take(&c.elems, n)
		for i, pe := range s.Members() {
			dst.Members.members[i] = c.element(pe)
			if i > 0 && dst.Members.members[i-1].Compare(dst.Members.members[i]) >= 0 {
				return false
			}
		}
	}
	if n := s.ChildrenLen(); n > 0 {
		nodes, sets := take(&c.nodes, n), take(&c.sets, n)
		for i, ch := range s.Children() {
			nodes[i] = setNode{pathElement: c.element(ch.Element), set: &sets[i]}
			if i > 0 && nodes[i-1].pathElement.Compare(nodes[i].pathElement) >= 0 {
				return false
			}
			if !c.fill(&sets[i], ch.Set) {
				return false
			}
		}
		dst.Children.members = nodes
	}
	return true
}

// element converts a path element: numbers in keys and values as
// c.number converts them, key fields sorted by name.
func (c *fromCore) element(pe corefieldpath.PathElement) PathElement {
	switch pe.Kind() {
	case corefieldpath.FieldNameKind:
		name := take(&c.names, 1)
		name[0] = pe.FieldName()
		return PathElement{FieldName: &name[0]}
	case corefieldpath.IndexKind:
		i := take(&c.ints, 1)
		i[0] = pe.Index()
		return PathElement{Index: &i[0]}
	case corefieldpath.ValueKind:
		v := value.NewValueInterface(c.number(pe.Value()))
		return PathElement{Value: &v}
	}
	fields := value.FieldList(take(&c.fields, pe.KeyLen()))
	for i, f := range pe.Key() {
		fields[i] = value.Field{Name: f.Name, Value: value.NewValueInterface(c.number(f.Value))}
	}
	fields.Sort()
	list := take(&c.keys, 1)
	list[0] = fields
	return PathElement{Key: &list[0]}
}

// readFieldsV1 reads one object of the FieldsV1 form: the set of its
// entries (nil if it has none) and whether it names its own path (a "."
// entry, or no entries at all).
func readFieldsV1(v core.Value) (children *Set, member bool, err error) {
	for _, f := range v.Fields() {
		if f.Name == "." {
			member = true
			continue
		}
		pe, perr := DeserializePathElement(f.Name)
		if perr == ErrUnknownPathElementType {
			continue
		}
		if perr != nil {
			if err == nil {
				err = fmt.Errorf("parsing key as path element: %q: %w", f.Name, perr)
			}
			continue
		}
		if k := f.Value.Kind(); k != core.Map && k != core.Null {
			if err == nil {
				err = fmt.Errorf("managed fields: the value of %q is not a JSON object", f.Name)
			}
			continue
		}
		grand, childMember, cerr := readFieldsV1(f.Value)
		if cerr != nil && err == nil {
			err = cerr
		}
		if childMember {
			if children == nil {
				children = &Set{}
			}
			children.Members.Insert(pe)
		}
		if grand != nil {
			if children == nil {
				children = &Set{}
			}
			*children.Children.Descend(pe) = *grand
		}
	}
	if children == nil {
		member = true
	}
	return children, member, err
}

// keyShapeError reports, in the words SMD's JSON reader (json-iterator)
// uses, a key that does not start as a JSON object should: its first
// character is not '{' (or the 'n' of null), or the one after '{' is not
// '"' or '}'. Callers such as k8s.io/apimachinery's tests look for these
// words ("ReadObjectCB"). Other malformed keys get the decoder's own error.
func keyShapeError(data string) error {
	i := skipSpace(data, 0)
	if i == len(data) {
		return iterError(data, i, "ReadObjectCB", "expect { or n, but found \x00")
	}
	if c := data[i]; c != '{' && c != 'n' {
		return iterError(data, i+1, "ReadObjectCB", "expect { or n, but found "+string([]byte{c}))
	}
	if data[i] == 'n' {
		return nil
	}
	j := skipSpace(data, i+1)
	if j < len(data) && data[j] != '"' && data[j] != '}' {
		return iterError(data, j+1, "ReadObjectCB", "expect \" after {, but found "+string([]byte{data[j]}))
	}
	return nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// iterError formats an error as json-iterator does, at the read position
// head of data: the operation, the message, and the text around head.
func iterError(data string, head int, op, msg string) error {
	from, to := max(head-10, 0), min(head+10, len(data))
	cfrom, cto := max(head-50, 0), min(head+50, len(data))
	return fmt.Errorf("%s: %s, error found in #%v byte of ...|%s|..., bigger context ...|%s|...",
		op, msg, head-from, data[from:to], data[cfrom:cto])
}

package fieldpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	core "github.com/structmerge/structmerge/value"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// ErrUnknownPathElementType is returned by DeserializePathElement for a
// string whose type prefix is not f:, k:, v: or i:.
var ErrUnknownPathElementType = errors.New("unknown path element type")

// SerializePathElement returns the FieldsV1 key of pe: "f:" and the field
// name, "k:" and the key fields as a JSON object, "v:" and the value as
// JSON, or "i:" and the index.
func SerializePathElement(pe PathElement) (string, error) {
	var b bytes.Buffer
	if err := appendPathElement(&b, pe); err != nil {
		return "", err
	}
	return b.String(), nil
}

func appendPathElement(b *bytes.Buffer, pe PathElement) error {
	switch {
	case pe.FieldName != nil:
		b.WriteString("f:")
		b.WriteString(*pe.FieldName)
	case pe.Key != nil:
		b.WriteString("k:{")
		for i, f := range *pe.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendJSON(b, f.Name); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := appendJSON(b, unstructured(f.Value)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case pe.Value != nil:
		b.WriteString("v:")
		return appendJSON(b, unstructured(*pe.Value))
	case pe.Index != nil:
		b.WriteString("i:")
		b.WriteString(strconv.Itoa(*pe.Index))
	default:
		return errors.New("invalid PathElement")
	}
	return nil
}

func unstructured(v value.Value) interface{} {
	if v == nil {
		return nil
	}
	return v.Unstructured()
}

// appendJSON writes x as encoding/json does (HTML characters escaped),
// without a trailing newline.
func appendJSON(b *bytes.Buffer, x interface{}) error {
	data, err := json.Marshal(x)
	if err != nil {
		return err
	}
	b.Write(data)
	return nil
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
	var b bytes.Buffer
	if err := s.appendFieldsV1(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
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

func (s *Set) appendFieldsV1(b *bytes.Buffer) error {
	b.WriteByte('{')
	err := s.appendEntries(b, false)
	b.WriteByte('}')
	return err
}

// appendEntries writes the object entries of s: "." first when self is
// true and s is not empty, then members and children in element order, a
// member that is also a child written once, as the child with ".".
func (s *Set) appendEntries(b *bytes.Buffer, self bool) error {
	first := true
	sep := func() {
		if !first {
			b.WriteByte(',')
		}
		first = false
	}
	if self && (len(s.Members.members) > 0 || len(s.Children.members) > 0) {
		sep()
		b.WriteString(`".":{}`)
	}
	var err error
	entry := func(pe PathElement, child *Set, member bool) {
		if err != nil {
			return
		}
		sep()
		var key bytes.Buffer
		if err = appendPathElement(&key, pe); err != nil {
			return
		}
		if err = appendJSON(b, key.String()); err != nil {
			return
		}
		b.WriteByte(':')
		if child == nil {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		err = child.appendEntries(b, member)
		b.WriteByte('}')
	}
	walk(s.Members.members, s.Children.members, func(pe PathElement, n setNode) int { return pe.Compare(n.pathElement) },
		func(pe PathElement) { entry(pe, nil, true) },
		func(n setNode) { entry(n.pathElement, n.set, false) },
		func(_ PathElement, n setNode) { entry(n.pathElement, n.set, true) })
	return err
}

// FromJSON replaces s with the set read from r in the FieldsV1 format.
// Keys of an unknown type are skipped, as in SMD; a null object is empty.
func (s *Set) FromJSON(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	v, err := core.FromJSON(data)
	if err != nil {
		*s = Set{}
		return err
	}
	if v.Kind() != core.Map && v.Kind() != core.Null {
		*s = Set{}
		return fmt.Errorf("managed fields: expected a JSON object, got %s", strings.ToLower(v.Kind().String()))
	}
	found, _, err := readFieldsV1(v)
	if found == nil {
		found = &Set{}
	}
	*s = *found
	return err
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

package kube

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
)

// Operation is the kind of write a managedFields entry records.
type Operation string

// The operations of managedFields entries.
const (
	OperationApply  Operation = "Apply"
	OperationUpdate Operation = "Update"
)

// FieldsTypeV1 is the only fieldsType the API server knows.
const FieldsTypeV1 = "FieldsV1"

// ManagedFieldsEntry is one entry of metadata.managedFields: the fields one
// manager owns through one kind of operation on one subresource.
type ManagedFieldsEntry struct {
	// Manager is the field manager's name.
	Manager string
	// Operation is Apply or Update.
	Operation Operation
	// APIVersion is the version in which Fields is expressed.
	APIVersion string
	// Time is when the manager last changed the object; the zero Time when
	// the entry has none.
	Time time.Time
	// FieldsType is "FieldsV1".
	FieldsType string
	// Fields is the set of fields owned (nil for none).
	Fields *fieldpath.Set
	// Subresource is "" for the main resource, or "status", "scale", ...
	Subresource string

	// decoded is what Fields was read from, when it was read from an
	// object in the form the API server writes: encoding gives that value
	// back while Fields is still the set read from it, without writing
	// and decoding the set again.
	decoded *decodedFields
}

// decodedFields is a fieldsV1 value that is the encoding of set, its
// decoding, and the managedFields item it was read from.
type decodedFields struct {
	set  *fieldpath.Set
	val  value.Value
	item value.Value
	// raw and rawFields are the caller's item and its fieldsV1 when the
	// entry was read from the map form (entryFromMap); val and item are
	// then null.
	raw       map[string]any
	rawFields map[string]any
}

// ManagerIdentity returns the key under which the API server tracks the
// entry's manager: a JSON object of the manager name, the operation, the
// subresource and, for Update entries only, the API version. Two entries
// with the same identity are the same manager.
func (e ManagedFieldsEntry) ManagerIdentity() string {
	apiVersion := e.APIVersion
	if e.Operation == OperationApply {
		apiVersion = ""
	}
	return identityOf(e.Manager, e.Operation, apiVersion, e.Subresource)
}

// identityOf writes the JSON the API server writes for a ManagedFieldsEntry
// holding only these fields (each omitted when empty).
func identityOf(manager string, op Operation, apiVersion, subresource string) string {
	var buf [128]byte
	b := append(buf[:0], '{')
	first := true
	add := func(name, v string) {
		if v == "" {
			return
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		b = value.AppendJSON(b, value.NewString(v))
	}
	add("manager", manager)
	add("operation", string(op))
	add("apiVersion", apiVersion)
	add("subresource", subresource)
	b = append(b, '}')
	return string(b)
}

// identity is a parsed manager identity.
type identity struct {
	manager, apiVersion, subresource string
	operation                        Operation
}

// parseIdentity reads a manager identity back. ok is false when key is not
// a JSON object of strings.
func parseIdentity(key string) (identity, bool) {
	if id, ok := parsePlainIdentity(key); ok {
		return id, true
	}
	return decodeIdentity(key)
}

// decodeIdentity is parseIdentity for any JSON text.
func decodeIdentity(key string) (identity, bool) {
	v, err := value.FromJSON([]byte(key))
	if err != nil || v.Kind() != value.Map {
		return identity{}, false
	}
	var id identity
	for _, f := range own.Value.Fields(v) {
		var dst *string
		switch f.Name {
		case "manager":
			dst = &id.manager
		case "apiVersion":
			dst = &id.apiVersion
		case "subresource":
			dst = &id.subresource
		case "operation":
			if f.Value.Kind() != value.String {
				return identity{}, false
			}
			id.operation = Operation(f.Value.AsString())
			continue
		default:
			continue
		}
		if f.Value.Kind() != value.String {
			return identity{}, false
		}
		*dst = f.Value.AsString()
	}
	return id, true
}

// parsePlainIdentity reads the identities the field managers write
// (`{"manager":"m","operation":"Apply",...}`: no spaces, strings without
// escapes) without decoding JSON; ok is false for any other text, which
// parseIdentity then decodes in full.
func parsePlainIdentity(key string) (identity, bool) {
	var id identity
	if len(key) < 2 || key[0] != '{' || key[len(key)-1] != '}' {
		return identity{}, false
	}
	rest := key[1 : len(key)-1]
	var seen uint8
	for rest != "" {
		name, r, ok := plainString(rest)
		if !ok || r == "" || r[0] != ':' {
			return identity{}, false
		}
		val, r, ok := plainString(r[1:])
		if !ok {
			return identity{}, false
		}
		var bit uint8
		switch name {
		case "manager":
			id.manager, bit = val, 1
		case "operation":
			id.operation, bit = Operation(val), 2
		case "apiVersion":
			id.apiVersion, bit = val, 4
		case "subresource":
			id.subresource, bit = val, 8
		default:
			bit = 16 // another name: let the decoder judge it
		}
		if seen&bit != 0 {
			return identity{}, false
		}
		seen |= bit
		if r != "" {
			if r[0] != ',' || len(r) == 1 {
				return identity{}, false
			}
			r = r[1:]
		}
		rest = r
	}
	return id, true
}

// plainString reads a JSON string without escapes at the start of s.
func plainString(s string) (str, rest string, ok bool) {
	if s == "" || s[0] != '"' {
		return "", "", false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return s[1:i], s[i+1:], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", "", false
		}
	}
	return "", "", false
}

// managed is the decoded form of managedFields the field manager works
// on: field sets and times keyed by manager identity. A missing time is
// the API server's nil time.
type managed struct {
	fields fieldpath.Managers
	times  map[string]time.Time
	// decoded is what each manager's entry was read from (see
	// ManagedFieldsEntry.decoded); written only by decodeEntries.
	decoded decodedList
}

// decodedList is what the entries of a managedFields list were read from,
// by manager key: a list, searched in order, rather than a map, for the
// few entries an object has.
type decodedList []decodedEntry

type decodedEntry struct {
	key     string
	decoded *decodedFields
}

// get returns what the entry of key was read from (the last such entry,
// as a map written in order would hold), or nil.
func (l decodedList) get(key string) *decodedFields {
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].key == key {
			return l[i].decoded
		}
	}
	return nil
}

func newManaged() *managed {
	return &managed{fields: fieldpath.Managers{}, times: map[string]time.Time{}}
}

// withOwnTimes returns m with a copy of its times, which the result's
// user may then write.
func (m *managed) withOwnTimes() *managed {
	times := make(map[string]time.Time, len(m.times)+1)
	for k, v := range m.times {
		times[k] = v
	}
	return &managed{fields: m.fields, times: times, decoded: m.decoded}
}

// ManagedFieldsError is a managedFields list the API server cannot decode.
type ManagedFieldsError struct {
	// Index is the entry at fault, or -1.
	Index int
	// Msg says what is wrong.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

func (e *ManagedFieldsError) Error() string { return e.Msg }

func (e *ManagedFieldsError) Unwrap() error { return e.Err }

// decodeEntries turns entries into the field manager's form, checking
// them in order as the API server does; fieldErrs, when not nil, holds for
// each entry the error of reading its fieldsV1. A later entry with the
// identity of an earlier one replaces it.
func decodeEntries(entries []ManagedFieldsEntry, fieldErrs []error) (*managed, error) {
	m := &managed{fields: make(fieldpath.Managers, len(entries)), times: make(map[string]time.Time, len(entries))}
	for i, e := range entries {
		if e.Operation != OperationApply && e.Operation != OperationUpdate {
			return nil, &ManagedFieldsError{Index: i, Msg: "operation must be `Apply` or `Update`"}
		}
		if e.APIVersion == "" {
			return nil, &ManagedFieldsError{Index: i, Msg: "apiVersion must not be empty"}
		}
		switch e.FieldsType {
		case FieldsTypeV1:
		case "":
			return nil, &ManagedFieldsError{Index: i, Msg: fmt.Sprintf("missing fieldsType in managed fields entry %d", i)}
		default:
			return nil, &ManagedFieldsError{Index: i, Msg: fmt.Sprintf("invalid fieldsType %q in managed fields entry %d", e.FieldsType, i)}
		}
		if fieldErrs != nil && fieldErrs[i] != nil {
			return nil, &ManagedFieldsError{Index: i, Msg: fmt.Sprintf("error decoding versioned set of managed fields entry %d: error decoding set: %v", i, fieldErrs[i]), Err: fieldErrs[i]}
		}
		key := e.ManagerIdentity()
		m.fields[key] = fieldpath.VersionedSet{Set: e.Fields, APIVersion: e.APIVersion, Applied: e.Operation == OperationApply}
		if e.decoded != nil {
			if m.decoded == nil {
				m.decoded = make(decodedList, 0, len(entries))
			}
			m.decoded = append(m.decoded, decodedEntry{key: key, decoded: e.decoded})
		}
		if e.Time.IsZero() {
			delete(m.times, key)
		} else {
			m.times[key] = e.Time
		}
	}
	return m, nil
}

// entries encodes m as the API server does: one entry per manager, the
// operation Apply for applied sets, sorted (see SortManagedFields). nil
// when m has no managers.
func (m *managed) entries() ([]ManagedFieldsEntry, error) {
	if len(m.fields) == 0 {
		return nil, nil
	}
	out := make([]ManagedFieldsEntry, 0, len(m.fields))
	bad, hasBad := "", false
	for key, vs := range m.fields {
		id, ok := parseIdentity(key)
		if !ok {
			// The first in name order, whatever the map's order.
			if !hasBad || key < bad {
				bad, hasBad = key, true
			}
			continue
		}
		e := ManagedFieldsEntry{
			Manager:     id.manager,
			Operation:   id.operation,
			APIVersion:  vs.APIVersion,
			Time:        m.times[key],
			FieldsType:  FieldsTypeV1,
			Fields:      vs.Set,
			Subresource: id.subresource,
			decoded:     m.decoded.get(key),
		}
		if vs.Applied {
			e.Operation = OperationApply
		}
		out = append(out, e)
	}
	if hasBad {
		return nil, fmt.Errorf("error encoding versioned set for %v: error unmarshalling manager identifier %v", bad, bad)
	}
	// No two entries of distinct managers compare equal: the order is
	// total, whatever the map's.
	SortManagedFields(out)
	return out, nil
}

// unixSeconds is the API server's sort key for a time: whole seconds since
// the epoch, 0 for no time.
func unixSeconds(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// SortManagedFields sorts entries in the order the API server writes
// them: Apply entries before Update entries, then by time (whole seconds,
// oldest first, no time first), manager, apiVersion and subresource.
func SortManagedFields(entries []ManagedFieldsEntry) {
	slices.SortStableFunc(entries, compareEntries)
}

func compareEntries(p, q ManagedFieldsEntry) int {
	if c := strings.Compare(string(p.Operation), string(q.Operation)); c != 0 {
		return c
	}
	if ps, qs := unixSeconds(p.Time), unixSeconds(q.Time); ps != qs {
		if ps < qs {
			return -1
		}
		return 1
	}
	if c := strings.Compare(p.Manager, q.Manager); c != 0 {
		return c
	}
	if c := strings.Compare(p.APIVersion, q.APIVersion); c != 0 {
		return c
	}
	return strings.Compare(p.Subresource, q.Subresource)
}

// errMalformed says that metadata.managedFields does not have the shape
// of a list of entries.
var errMalformed = errors.New("metadata.managedFields is not a list of managed fields entries")

// rawManagedFields reads metadata.managedFields as the API server's
// unstructured object accessor does. present is false when the field is
// absent or malformed (not a list, an item that is not a map, a field of
// the wrong type, a time that is not RFC 3339): such an object has no
// managedFields at all. A field set that is not valid FieldsV1 is an error
// (the list is present but cannot be decoded): fieldErrs holds it at the
// entry's index (fieldErrs is nil when there is none). reset reports a
// list the API server reads as a request to clear managedFields: an empty
// list, or a single entry that sets nothing.
func rawManagedFields(obj value.Value) (entries []ManagedFieldsEntry, fieldErrs []error, present, reset bool) {
	md, ok := field(obj, "metadata")
	if !ok || md.Kind() != value.Map {
		return nil, nil, false, false
	}
	list, ok := md.Get("managedFields")
	if !ok || list.Kind() != value.List {
		return nil, nil, false, false
	}
	entries = make([]ManagedFieldsEntry, 0, list.Len())
	reset = list.Len() == 0
	for i, item := range own.Value.Items(list) {
		e, hasFields, ok, ferr := entryFromValue(item)
		if !ok {
			return nil, nil, false, false
		}
		if list.Len() == 1 && isEmptyEntry(e, hasFields) {
			reset = true
		}
		if ferr != nil {
			if fieldErrs == nil {
				fieldErrs = make([]error, list.Len())
			}
			fieldErrs[i] = ferr
		}
		entries = append(entries, e)
	}
	return entries, fieldErrs, true, reset
}

// isEmptyEntry reports whether item reads as the zero entry (no known
// field set to a non-empty value).
func isEmptyEntry(e ManagedFieldsEntry, hasFields bool) bool {
	return e.Manager == "" && e.Operation == "" && e.APIVersion == "" && e.Time.IsZero() &&
		e.FieldsType == "" && !hasFields && e.Subresource == ""
}

// entryFromValue converts one item of managedFields. hasFields reports a
// non-null fieldsV1; ok is false when the item is malformed; err reports a
// fieldsV1 that is not a valid set.
func entryFromValue(item value.Value) (e ManagedFieldsEntry, hasFields, ok bool, err error) {
	if item.Kind() != value.Map {
		return e, false, false, nil
	}
	for _, f := range own.Value.Fields(item) {
		switch f.Name {
		case "fieldsV1":
			if f.Value.IsNull() {
				continue
			}
			s, canonical, perr := fieldpath.ParseFieldsV1Value(f.Value)
			if perr != nil {
				err = perr
			} else if canonical {
				e.decoded = &decodedFields{set: s, val: f.Value, item: item}
			}
			e.Fields = s
			hasFields = true
		case "manager", "apiVersion", "fieldsType", "subresource", "operation", "time":
			switch f.Value.Kind() {
			case value.Null:
			case value.String:
				if !setEntryString(&e, f.Name, f.Value.AsString()) {
					return e, false, false, nil
				}
			default:
				return e, false, false, nil
			}
		}
	}
	return e, hasFields, true, err
}

// setEntryString sets the field of e that the managedFields item key name
// holds, one of the entry's string keys, to s; ok is false for a time that
// is not RFC 3339.
func setEntryString(e *ManagedFieldsEntry, name, s string) (ok bool) {
	switch name {
	case "manager":
		e.Manager = s
	case "apiVersion":
		e.APIVersion = s
	case "fieldsType":
		e.FieldsType = s
	case "subresource":
		e.Subresource = s
	case "operation":
		e.Operation = Operation(s)
	case "time":
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return false
		}
		e.Time = t
	}
	return true
}

// DecodeManagedFields returns the managedFields entries of obj, checked as
// the API server checks them before it uses them. An object without
// managedFields, or whose managedFields do not have the shape of a list of
// entries, has none (nil, nil). An entry with an operation other than
// Apply or Update, an empty apiVersion, a fieldsType other than FieldsV1 or
// a fieldsV1 that is not a valid field set is an error
// (*ManagedFieldsError).
func DecodeManagedFields(obj value.Value) ([]ManagedFieldsEntry, error) {
	entries, fieldErrs, present, _ := rawManagedFields(obj)
	if !present {
		return nil, nil
	}
	if _, err := decodeEntries(entries, fieldErrs); err != nil {
		return nil, err
	}
	for i := range entries {
		if entries[i].Fields.Empty() {
			entries[i].Fields = nil
		}
	}
	return entries, nil
}

// EncodeManagedFields returns obj with metadata.managedFields set to
// entries, in the form the API server writes (fieldsV1 as an object, time
// in RFC 3339 UTC, empty fields left out), keeping the order of entries.
// With no entries, the field is removed.
func EncodeManagedFields(obj value.Value, entries []ManagedFieldsEntry) value.Value {
	out, _ := encodeManagedFields(obj, entries, false)
	return out
}

// newFieldsV1 is an item of metadata.managedFields that the map form
// gets in place of the null the value holds (see encodeManagedFields and
// fillFieldsV1): the caller's item, when item is not nil; else entry's
// item built as a map, whose fieldsV1 is fields itself when asIs, or the
// encoding of set sharing the maps of fields, the caller's encoding of
// prev (see fieldpath.Set.FieldsV1UnstructuredLike).
type newFieldsV1 struct {
	index  int
	entry  ManagedFieldsEntry
	set    *fieldpath.Set
	prev   *fieldpath.Set
	fields map[string]any
	asIs   bool
	item   map[string]any
}

// encodeManagedFields is EncodeManagedFields. With direct, an entry that
// was not read from obj (a new manager's, or any on a create), or whose
// item changed, is null in the value, and fill lists it: the caller
// converting the result to maps builds its item there (fillFieldsV1),
// which costs less than building its value and converting that.
func encodeManagedFields(obj value.Value, entries []ManagedFieldsEntry, direct bool) (out value.Value, fill []newFieldsV1) {
	if entries == nil {
		return withoutNested(obj, "metadata", "managedFields"), nil
	}
	// A field set equal to the set read from a value that is its encoding
	// gives back that value, and the whole item it was read from when
	// that is what the entry encodes to; a changed set is built like that
	// value, sharing its unchanged maps; the others are built from their
	// sets. (Giving back the values read lets a caller's data be reused
	// where the result did not change: see value.UnstructuredFrom.)
	items := make([]value.Value, len(entries))
	for i, e := range entries {
		d := e.decoded
		switch {
		case d != nil && d.raw != nil:
			// Read from the caller's maps, which only the map form has
			// (and so direct): they are given back as they are where
			// they still hold the entry.
			switch {
			case !e.Fields.Equal(d.set):
				fill = append(fill, newFieldsV1{index: i, entry: e, set: e.Fields, prev: d.set, fields: d.rawFields})
			case encodesToMap(e, d.raw):
				fill = append(fill, newFieldsV1{index: i, item: d.raw})
			default:
				fill = append(fill, newFieldsV1{index: i, entry: e, fields: d.rawFields, asIs: true})
			}
		case d == nil && direct:
			fill = append(fill, newFieldsV1{index: i, entry: e, set: e.Fields})
		case d == nil:
			items[i] = entryValue(e, e.Fields.FieldsV1Value())
		case !e.Fields.Equal(d.set):
			items[i] = entryValue(e, e.Fields.FieldsV1ValueLike(d.val))
		case encodesTo(e, d.item):
			items[i] = d.item
		default:
			items[i] = entryValue(e, d.val)
		}
	}
	out, ok := withNested(obj, own.Value.List(items), "metadata", "managedFields")
	if !ok {
		return obj, nil
	}
	return out, fill
}

// entryValue is e as an item of metadata.managedFields, with fs, its field
// set as a value (left out when null).
func entryValue(e ManagedFieldsEntry, fs value.Value) value.Value {
	fields := make([]value.Field, 0, 7)
	add := func(name, v string) {
		if v != "" {
			fields = append(fields, value.Field{Name: name, Value: value.NewString(v)})
		}
	}
	add("apiVersion", e.APIVersion)
	add("fieldsType", e.FieldsType)
	if !fs.IsNull() {
		fields = append(fields, value.Field{Name: "fieldsV1", Value: fs})
	}
	add("manager", e.Manager)
	add("operation", string(e.Operation))
	add("subresource", e.Subresource)
	if !e.Time.IsZero() {
		add("time", formatTime(e.Time))
	}
	return own.Value.Map(fields)
}

// entryMap is entryValue in the map form, with fieldsV1 its field set's
// encoding.
func entryMap(e ManagedFieldsEntry, fieldsV1 map[string]any) map[string]any {
	m := make(map[string]any, 7)
	add := func(name, v string) {
		if v != "" {
			m[name] = v
		}
	}
	add("apiVersion", e.APIVersion)
	add("fieldsType", e.FieldsType)
	m["fieldsV1"] = fieldsV1
	add("manager", e.Manager)
	add("operation", string(e.Operation))
	add("subresource", e.Subresource)
	if !e.Time.IsZero() {
		add("time", formatTime(e.Time))
	}
	return m
}

// encodesTo reports whether item, the managedFields item e's field set was
// read from, is what entryValue gives for e: the same fields in the same
// order (entryValue's are sorted by name, as a map's are) with the same
// strings. Its fieldsV1 is the value the set was read from.
func encodesTo(e ManagedFieldsEntry, item value.Value) bool {
	fields := own.Value.Fields(item)
	i := 0
	str := func(name, v string) bool {
		if v == "" {
			return true
		}
		if i == len(fields) || fields[i].Name != name || fields[i].Value.Kind() != value.String || fields[i].Value.AsString() != v {
			return false
		}
		i++
		return true
	}
	if !str("apiVersion", e.APIVersion) || !str("fieldsType", e.FieldsType) {
		return false
	}
	if i == len(fields) || fields[i].Name != "fieldsV1" || fields[i].Value.IsNull() {
		return false
	}
	i++
	if !str("manager", e.Manager) || !str("operation", string(e.Operation)) || !str("subresource", e.Subresource) {
		return false
	}
	if !e.Time.IsZero() {
		var buf [64]byte
		if i == len(fields) || fields[i].Name != "time" || fields[i].Value.Kind() != value.String ||
			fields[i].Value.AsString() != string(e.Time.UTC().AppendFormat(buf[:0], time.RFC3339)) {
			return false
		}
		i++
	}
	return i == len(fields)
}

// encodesToMap is encodesTo for an item in the map form: item holds
// exactly the strings entryValue gives e, and a fieldsV1.
func encodesToMap(e ManagedFieldsEntry, item map[string]any) bool {
	n := 1
	str := func(name, v string) bool {
		if v == "" {
			return true
		}
		n++
		s, ok := item[name].(string)
		return ok && s == v
	}
	if !str("apiVersion", e.APIVersion) || !str("fieldsType", e.FieldsType) || !str("manager", e.Manager) ||
		!str("operation", string(e.Operation)) || !str("subresource", e.Subresource) {
		return false
	}
	if !e.Time.IsZero() {
		var buf [64]byte
		s, ok := item["time"].(string)
		if !ok || s != string(e.Time.UTC().AppendFormat(buf[:0], time.RFC3339)) {
			return false
		}
		n++
	}
	_, ok := item["fieldsV1"].(map[string]any)
	return ok && len(item) == n
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// MarshalManagedFields returns the JSON the API server writes for a list
// of managedFields entries, byte for byte: fields in the order manager,
// operation, apiVersion, time, fieldsType, fieldsV1, subresource, empty
// ones left out, fieldsV1 in structured-merge-diff's encoding. nil gives
// "null".
func MarshalManagedFields(entries []ManagedFieldsEntry) []byte {
	if entries == nil {
		return []byte("null")
	}
	b := []byte{'['}
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendEntryJSON(b, e)
	}
	return append(b, ']')
}

// MarshalJSON returns the JSON the API server writes for the entry.
func (e ManagedFieldsEntry) MarshalJSON() ([]byte, error) {
	return appendEntryJSON(nil, e), nil
}

func appendEntryJSON(b []byte, e ManagedFieldsEntry) []byte {
	b = append(b, '{')
	first := true
	key := func(name string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
	}
	str := func(name, v string) {
		if v != "" {
			key(name)
			b = value.AppendJSON(b, value.NewString(v))
		}
	}
	str("manager", e.Manager)
	str("operation", string(e.Operation))
	str("apiVersion", e.APIVersion)
	if !e.Time.IsZero() {
		str("time", formatTime(e.Time))
	}
	str("fieldsType", e.FieldsType)
	if e.Fields != nil || e.FieldsType != "" {
		key("fieldsV1")
		b = appendHTMLEscaped(b, e.Fields.MarshalFieldsV1())
	}
	str("subresource", e.Subresource)
	return append(b, '}')
}

// appendHTMLEscaped appends the JSON raw with <, >, &, U+2028 and U+2029
// escaped, as encoding/json writes the output of a json.Marshaler (the
// API server's FieldsV1 is one).
func appendHTMLEscaped(dst, raw []byte) []byte {
	start := 0
	for i := 0; i < len(raw); i++ {
		var esc string
		switch c := raw[i]; {
		case c == '<':
			esc = `\u003c`
		case c == '>':
			esc = `\u003e`
		case c == '&':
			esc = `\u0026`
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9):
			esc = `\u2028`
			if raw[i+2] == 0xA9 {
				esc = `\u2029`
			}
			dst = append(dst, raw[start:i]...)
			dst = append(dst, esc...)
			i += 2
			start = i + 1
			continue
		default:
			continue
		}
		dst = append(dst, raw[start:i]...)
		dst = append(dst, esc...)
		start = i + 1
	}
	return append(dst, raw[start:]...)
}

// UnmarshalManagedFields reads a JSON list of managedFields entries (as
// MarshalManagedFields writes it, or as found under
// metadata.managedFields of an object) and checks it as
// DecodeManagedFields does. Syntax errors carry the byte offset; a list
// that does not have the shape of managedFields entries is an error here.
func UnmarshalManagedFields(data []byte) ([]ManagedFieldsEntry, error) {
	v, err := value.FromJSON(data)
	if err != nil {
		return nil, fmt.Errorf("managedFields: %w", err)
	}
	if v.IsNull() {
		return nil, nil
	}
	obj := own.Value.Map([]value.Field{{Name: "metadata", Value: own.Value.Map([]value.Field{{Name: "managedFields", Value: v}})}})
	entries, fieldErrs, present, _ := rawManagedFields(obj)
	if !present {
		return nil, errMalformed
	}
	if _, err := decodeEntries(entries, fieldErrs); err != nil {
		return nil, err
	}
	return entries, nil
}

package value

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// StructCodec converts values of one Go type to Values and back by the
// type's json tags, as encoding/json and Kubernetes' unstructured converter
// read them:
//
//   - a field is named by its json tag, or by its Go name when the tag
//     gives none; `json:"-"` and unexported fields are left out;
//   - omitempty leaves out false, 0, "", nil pointers and interfaces, and
//     empty or nil slices, maps and strings (never a struct); omitzero
//     leaves out a value whose IsZero() bool method says so, or that is
//     its type's zero value;
//   - an embedded struct without a tag name, or any struct field tagged
//     `json:",inline"`, has its fields promoted into the enclosing map
//     (the shallower field wins a name conflict, then the tagged one; a
//     tie leaves both out, as in encoding/json); behind a nil embedded
//     pointer there are no fields;
//   - nil pointers, slices, maps and interfaces are null; []byte is a
//     base64 string; unsigned integers above math.MaxInt64 and NaN or
//     infinite floats are errors; map keys are strings, integers or
//     encoding.TextMarshaler values;
//   - a type that marshals itself is asked for its own form, first by a
//     ToUnstructured() any method (apimachinery's metav1.Time,
//     resource.Quantity and metav1.Duration have one), then by
//     json.Marshaler, then by encoding.TextMarshaler; the methods may have
//     value or pointer receivers. Back, json.Unmarshaler is given the
//     value's JSON, else encoding.TextUnmarshaler its string;
//   - an interface field holds whatever its dynamic value converts to;
//     back, an empty interface receives Value.Unstructured's plain data.
//
// Nesting deeper than MaxDepth (DefaultMaxDepth unless given) is an error wrapping
// ErrTooDeep (a pointer or an interface followed counts as a level, as a
// struct, slice or map does), which also stops a value that contains
// itself.
//
// Back into a struct, fields of the map that the type does not have are
// ignored, a null gives the zero value, and numbers convert between Go
// integer and float types when the value fits (a float only into an
// integer when it is integral).
//
// A StructCodec is built once per type by NewStructCodec, which walks the
// whole type graph (recursive types are fine); it is immutable; safe for
// concurrent use. The Values it makes share the strings of the Go value
// they came from (Go strings are immutable) and nothing else.
type StructCodec struct {
	typ  reflect.Type
	root *goPlan
}

// goKind says how a Go type converts.
type goKind uint8

const (
	goBool goKind = iota
	goInt
	goUint
	goFloat
	goString
	goBytes
	goPointer
	goSlice
	goArray
	goMap
	goStruct
	goInterface
	goCustom // the type marshals itself
)

// goPlan is how one Go type converts, computed once by NewStructCodec.
type goPlan struct {
	t      reflect.Type
	kind   goKind
	elem   *goPlan   // pointer, slice, array, map values
	key    keyKind   // map keys
	fields []goField // struct fields, promoted ones included, sorted by name

	// How a goCustom type marshals (one of the three) and unmarshals
	// (either or none: then it is converted by its kind, plan in base).
	toUnstructured, marshalJSON, marshalText bool
	unmarshalJSON, unmarshalText             bool
	base                                     *goPlan // the plan by kind, for a custom type missing a direction

	stringMap bool // exactly map[string]string
}

// keyKind is how a map key converts to and from a field name.
type keyKind uint8

const (
	keyString keyKind = iota
	keyInt
	keyUint
	keyText
)

// goField is one field of a struct's map.
type goField struct {
	name      string // the JSON name
	goName    string // the Go selector from the struct, "ObjectMeta.Name" for a promoted field
	index     []int
	omitEmpty bool
	omitZero  bool
	zero      zeroTest // for omitZero
	typ       reflect.Type
	plan      *goPlan // nil from a lazy builder until the conversion needs it

	// How the field is read from its struct's memory (structMem, for an
	// addressable struct): at offset, when no pointer is on the way
	// (index through embedded structs held by value). mem is the field's
	// own kind, for omitempty (memNone: through reflect); leaf is the
	// scalar its value is read as, behind the pointer when mem is
	// memPointer (memNone: converted through reflect). A StructCodec
	// sets leaf once its plans are complete; a lazy builder never does.
	offset uintptr
	flat   bool
	mem    memRead
	leaf   memRead
}

// memRead is a kind of field read from memory, and its size in bytes for
// numbers.
type memRead struct {
	kind memKind
	size uint8
}

type memKind uint8

const (
	memNone memKind = iota
	memBool
	memInt
	memUint
	memFloat
	memString
	memSlice
	memPointer // a pointer, or an interface (nil when its first word is)
)

// memReadOf is how a field of type t is read from memory.
func memReadOf(t reflect.Type) memRead {
	size := uint8(t.Size())
	switch t.Kind() {
	case reflect.Bool:
		return memRead{memBool, size}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return memRead{memInt, size}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return memRead{memUint, size}
	case reflect.Float32, reflect.Float64:
		return memRead{memFloat, size}
	case reflect.String:
		return memRead{memString, size}
	case reflect.Slice:
		return memRead{memSlice, size}
	case reflect.Pointer, reflect.Interface:
		return memRead{memPointer, size}
	}
	return memRead{}
}

// leafOf is the scalar a field of plan p is read as from memory: p's own
// kind when p converts a plain scalar, the element's behind a pointer to
// one; memNone for anything else.
func leafOf(p *goPlan) memRead {
	switch {
	case p == nil:
	case p.scalar():
		return memReadOf(p.t)
	case p.kind == goPointer && p.elem != nil && p.elem.scalar():
		return memReadOf(p.elem.t)
	}
	return memRead{}
}

// scalar reports whether p converts a plain scalar (not a type with its
// own marshalling).
func (p *goPlan) scalar() bool {
	switch p.kind {
	case goBool, goInt, goUint, goFloat, goString:
		return true
	}
	return false
}

var (
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	toUnstructuredType  = reflect.TypeFor[unstructuredMarshaler]()
	isZeroerType        = reflect.TypeFor[isZeroer]()
	stringMapType       = reflect.TypeFor[map[string]string]()
)

// unstructuredMarshaler is a type that gives its own plain-data form, as
// Kubernetes' unstructured converter asks of it.
type unstructuredMarshaler interface{ ToUnstructured() any }

type isZeroer interface{ IsZero() bool }

// NewStructCodec builds the conversion of t (a pointer type converts its
// element, with nil as null) and of every type reachable from it. It
// fails, naming the Go field, on a type that has no JSON form (channels,
// functions, complex numbers, unsafe pointers, maps with other keys) and
// that no json tag leaves out.
func NewStructCodec(t reflect.Type) (*StructCodec, error) {
	if t == nil {
		return nil, errors.New("value: NewStructCodec of a nil type")
	}
	b := planBuilder{plans: map[reflect.Type]*goPlan{}}
	p, err := b.plan(t, t.String())
	if err != nil {
		return nil, err
	}
	// The plans are complete: the fields whose values are read from
	// memory can be told.
	for _, q := range b.plans {
		for i := range q.fields {
			if f := &q.fields[i]; f.mem.kind != memNone {
				f.leaf = leafOf(f.plan)
			}
		}
	}
	return &StructCodec{typ: t, root: p}, nil
}

// Type returns the type the codec converts.
func (c *StructCodec) Type() reflect.Type { return c.typ }

// FromStruct converts x, a value of the codec's type or a pointer to one,
// to a Value. x is not modified or retained, except that the Value shares
// x's strings. Errors are *StructError values naming the Go field. Like
// and LikeOrigin share the like value's equal parts (LikeOrigin's Data,
// the Go value like came from, lets equal parts skip their conversion);
// MaxDepth bounds the nesting.
func (c *StructCodec) FromStruct(x any, opts ...DecodeOption) (Value, error) {
	cfg, err := resolveOptions(opts)
	if err != nil {
		return Value{}, err
	}
	orig := reflect.ValueOf(cfg.like.Data)
	if orig.IsValid() && orig.Type() != c.typ {
		if orig.Kind() == reflect.Pointer && orig.Type().Elem() == c.typ && !orig.IsNil() {
			orig = orig.Elem()
		} else {
			orig = reflect.Value{}
		}
	}
	return c.fromStruct(x, cfg.like.Value, orig, cfg.maxDepth)
}

func (c *StructCodec) fromStruct(x any, like Value, orig reflect.Value, maxDepth int) (Value, error) {
	rv := reflect.ValueOf(x)
	if !rv.IsValid() {
		return Value{}, &StructError{Type: c.typ, Msg: "nil interface, want a " + c.typ.String()}
	}
	switch {
	case rv.Type() == c.typ:
	case rv.Kind() == reflect.Pointer && rv.Type().Elem() == c.typ:
		if rv.IsNil() {
			return Value{}, nil
		}
		rv = rv.Elem()
	default:
		return Value{}, &StructError{Type: c.typ, Msg: fmt.Sprintf("got a %s, want a %s", rv.Type(), c.typ)}
	}
	// Methods with pointer receivers (MarshalJSON, IsZero) need an
	// addressable value, as they have when x is a pointer.
	rv = addressable(rv)
	e := structEncoder{maxDepth: maxDepth}
	v, ok := e.value(c.root, rv, orig, like)
	if !ok {
		return Value{}, e.error(c.typ)
	}
	return v, nil
}

// ToStruct sets *ptr, ptr a non-nil pointer to the codec's type, to the
// conversion of v, replacing what it held. Errors are *StructError values
// naming the Go field; *ptr is then left partly set.
func (c *StructCodec) ToStruct(v Value, ptr any) error {
	rv := reflect.ValueOf(ptr)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.Type().Elem() != c.typ || rv.IsNil() {
		return &StructError{Type: c.typ, Msg: fmt.Sprintf("got %T, want a non-nil *%s", ptr, c.typ)}
	}
	var d structDecoder
	if !d.set(c.root, v, rv.Elem()) {
		return d.error(c.typ)
	}
	return nil
}

// ToStructFrom sets *ptr to the conversion of v, as ToStruct does, except
// that each part of v that is a part of an origin's Value at the same path
// (the same stored map, list or string, as an operation's result shares
// unchanged subtrees with its inputs; for a number, boolean or null, an
// equal one) is a copy of the origin's Go value there, when that is a
// struct, pointer, slice, array, map or a type that converts itself: the
// conversion back is skipped where nothing changed.
//
// The result therefore aliases the origins' Go values: the slices, maps
// and pointers it copies are the origins', and changing what they hold
// changes both. A copied part is the origin's value as it is, with what
// its Value does not show (the nanoseconds of a metav1.Time, an empty
// slice under omitempty, fields tagged `json:"-"`). Each origin's Data
// must be the codec's type or a pointer to it, converted by FromStruct to
// its Value and unmodified since; any other Data, and a nil pointer, is
// not used.
func (c *StructCodec) ToStructFrom(v Value, ptr any, origins ...Origin) error {
	rv := reflect.ValueOf(ptr)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.Type().Elem() != c.typ || rv.IsNil() {
		return &StructError{Type: c.typ, Msg: fmt.Sprintf("got %T, want a non-nil *%s", ptr, c.typ)}
	}
	var buf [4]structOrigin
	orgs := buf[:0]
	for _, o := range origins {
		ov := reflect.ValueOf(o.Data)
		switch {
		case !ov.IsValid():
			continue
		case ov.Type() == c.typ:
		case ov.Kind() == reflect.Pointer && ov.Type().Elem() == c.typ && !ov.IsNil():
			ov = ov.Elem()
		default:
			continue
		}
		orgs = append(orgs, structOrigin{v: o.Value, rv: ov})
	}
	var d structDecoder
	if !d.setFrom(c.root, v, rv.Elem(), orgs) {
		return d.error(c.typ)
	}
	return nil
}

// FromStruct converts x by its json tags (see StructCodec), working out
// the conversion of each Go type as it meets a value of it, for this call
// only: it costs in proportion to the types x's value uses, not to every
// type reachable from x's (which NewStructCodec walks once for all calls).
// A type with no JSON form is an error when a value of it is met, as with
// encoding/json, rather than when it is merely reachable.
//
// Like shares the like value's equal parts; MaxDepth bounds the nesting.
func FromStruct(x any, opts ...DecodeOption) (Value, error) {
	cfg, err := resolveOptions(opts)
	if err != nil {
		return Value{}, err
	}
	if x == nil {
		return Value{}, nil
	}
	t := reflect.TypeOf(x)
	e := structEncoder{maxDepth: cfg.maxDepth}
	root, ok := e.planOf(t)
	if ok {
		var v Value
		if v, ok = e.value(root, addressable(reflect.ValueOf(x)), reflect.Value{}, cfg.like.Value); ok {
			return v, nil
		}
	}
	return Value{}, e.error(t)
}

// ToStruct sets *ptr to the conversion of v by the json tags of its type
// (see StructCodec), building the conversion for this call only.
func ToStruct(v Value, ptr any) error {
	rv := reflect.ValueOf(ptr)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &StructError{Msg: fmt.Sprintf("got %T, want a non-nil pointer", ptr)}
	}
	c, err := NewStructCodec(rv.Type().Elem())
	if err != nil {
		return err
	}
	return c.ToStruct(v, ptr)
}

// StructError is an error converting between a Go value and a Value: Path
// is the Go selector of the field from the root type (".Spec.Containers[0].Image",
// `.Labels["app"]`; "" for the root), Msg what is wrong. errors.Is sees
// ErrTooDeep through it.
type StructError struct {
	Type reflect.Type // the root type; nil when not known
	Path string
	Msg  string
	Err  error
}

// Error formats the error as "value: v1.Pod.Spec.Containers[0].Image: msg".
func (e *StructError) Error() string {
	var b strings.Builder
	b.WriteString("value: ")
	if e.Type != nil {
		b.WriteString(e.Type.String())
	}
	b.WriteString(e.Path)
	if e.Type != nil || e.Path != "" {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the sentinel error, if any.
func (e *StructError) Unwrap() error { return e.Err }

// goSeg is one step of a Go path, collected innermost first.
type goSeg struct {
	field string // a Go selector ("Spec", "ObjectMeta.Name"); "" for an index or key
	key   string // a map key, quoted; "" otherwise
	index int    // a slice index; -1 otherwise
}

// goPath formats segments collected innermost first. A path longer than
// 40 steps (a cycle of pointers, say) keeps its first and last 20.
func goPath(segs []goSeg) string {
	var b strings.Builder
	n := len(segs)
	for i := n - 1; i >= 0; i-- {
		if n > 40 && i == n-21 {
			// segs[n-1] to segs[n-20] are written; skip to segs[19].
			fmt.Fprintf(&b, "...(%d more)...", n-40)
			i = 19
		}
		s := segs[i]
		switch {
		case s.field != "":
			b.WriteByte('.')
			b.WriteString(s.field)
		case s.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		default:
			b.WriteByte('[')
			b.WriteString(s.key)
			b.WriteByte(']')
		}
	}
	return b.String()
}

// planBuilder builds the plans of a type graph; plans maps each type seen
// to its plan, filled in place so that recursive types refer to
// themselves. It belongs to one NewStructCodec call, or to one conversion.
//
// A lazy builder (one conversion's: FromStruct, and the dynamic types of
// interfaces) leaves the plans of element and field types out; the
// conversion that owns it fills them in when it meets a value of that
// type (structEncoder.elemPlan; goStruct for fields), so a call pays for
// the types its value uses only. Those plans never leave the call. A
// StructCodec's plans are complete when NewStructCodec returns and are
// never written.
type planBuilder struct {
	plans map[reflect.Type]*goPlan
	lazy  bool
}

func (b *planBuilder) plan(t reflect.Type, at string) (*goPlan, error) {
	if p, ok := b.plans[t]; ok {
		return p, nil
	}
	p := &goPlan{t: t}
	b.plans[t] = p
	pt := reflect.PointerTo(t)
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		p.toUnstructured = pt.Implements(toUnstructuredType)
		p.marshalJSON = !p.toUnstructured && pt.Implements(jsonMarshalerType)
		p.marshalText = !p.toUnstructured && !p.marshalJSON && pt.Implements(textMarshalerType)
		p.unmarshalJSON = pt.Implements(jsonUnmarshalerType)
		p.unmarshalText = !p.unmarshalJSON && pt.Implements(textUnmarshalerType)
	}
	custom := p.toUnstructured || p.marshalJSON || p.marshalText || p.unmarshalJSON || p.unmarshalText
	if custom && !(p.toUnstructured || p.marshalJSON || p.marshalText) || custom && !(p.unmarshalJSON || p.unmarshalText) {
		// One direction is the type's own, the other by its kind.
		base := &goPlan{t: t}
		if err := b.fill(base, at); err != nil {
			return nil, err
		}
		p.base = base
	}
	if custom {
		p.kind = goCustom
		return p, nil
	}
	return p, b.fill(p, at)
}

// fill sets p's conversion by the kind of its type.
func (b *planBuilder) fill(p *goPlan, at string) error {
	t := p.t
	var err error
	switch t.Kind() {
	case reflect.Bool:
		p.kind = goBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = goInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.kind = goUint
	case reflect.Float32, reflect.Float64:
		p.kind = goFloat
	case reflect.String:
		p.kind = goString
	case reflect.Interface:
		p.kind = goInterface
	case reflect.Pointer:
		p.kind = goPointer
		p.elem, err = b.elem(t, at)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(jsonMarshalerType) && !reflect.PointerTo(t.Elem()).Implements(textMarshalerType) {
			p.kind = goBytes
			return nil
		}
		p.kind = goSlice
		p.elem, err = b.elem(t, at+"[]")
	case reflect.Array:
		p.kind = goArray
		p.elem, err = b.elem(t, at+"[]")
	case reflect.Map:
		p.kind = goMap
		p.stringMap = t == stringMapType
		kt := t.Key()
		switch {
		case kt.Kind() == reflect.String:
			p.key = keyString
		case reflect.PointerTo(kt).Implements(textMarshalerType) && reflect.PointerTo(kt).Implements(textUnmarshalerType):
			p.key = keyText
		case kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64:
			p.key = keyInt
		case kt.Kind() >= reflect.Uint && kt.Kind() <= reflect.Uintptr:
			p.key = keyUint
		default:
			return planError(at, "unsupported map key type "+kt.String())
		}
		p.elem, err = b.elem(t, at+"[]")
	case reflect.Struct:
		p.kind = goStruct
		p.fields, err = b.structFields(t, at)
	default:
		return planError(at, "unsupported type "+t.String())
	}
	return err
}

// elem returns the plan of t's element type; none (nil) from a lazy
// builder.
func (b *planBuilder) elem(t reflect.Type, at string) (*goPlan, error) {
	if b.lazy {
		return nil, nil
	}
	return b.plan(t.Elem(), at)
}

// planError names the Go selector at (empty within an interface's
// dynamic value, whose path the converter adds).
func planError(at, msg string) error {
	if at != "" {
		msg = at + ": " + msg
	}
	return &StructError{Msg: msg}
}

// fieldCandidate is a field found while flattening a struct, before name
// conflicts are settled.
type fieldCandidate struct {
	goField
	depth  int
	tagged bool
}

func (b *planBuilder) structFields(t reflect.Type, at string) ([]goField, error) {
	var cands []fieldCandidate
	collectFields(t, nil, "", 0, map[reflect.Type]bool{t: true}, &cands)
	// Settle conflicts: by name, the shallowest field wins, then the only
	// tagged one among the shallowest; otherwise all are left out.
	slices.SortStableFunc(cands, func(a, b fieldCandidate) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return a.depth - b.depth
	})
	var out []goField
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && cands[j].name == cands[i].name {
			j++
		}
		group := cands[i:j]
		i = j
		top := group
		for k := range group {
			if group[k].depth != group[0].depth {
				top = group[:k]
				break
			}
		}
		winner := -1
		if len(top) == 1 {
			winner = 0
		} else {
			for k := range top {
				if top[k].tagged {
					if winner >= 0 {
						winner = -1
						break
					}
					winner = k
				}
			}
		}
		if winner >= 0 {
			out = append(out, top[winner].goField)
		}
	}
	for i := range out {
		f := &out[i]
		ft := t.FieldByIndex(f.index).Type
		f.typ = ft
		f.zero = zeroTestOf(ft)
		if off, ok := fieldOffset(t, f.index); ok {
			f.offset, f.flat, f.mem = off, true, memReadOf(ft)
		}
		if b.lazy {
			continue
		}
		p, err := b.plan(ft, at+"."+f.goName)
		if err != nil {
			return nil, err
		}
		f.plan = p
	}
	return out, nil
}

// fieldOffset is the offset of the field at index in t, false when a
// pointer is on the way.
func fieldOffset(t reflect.Type, index []int) (uintptr, bool) {
	var off uintptr
	for k, i := range index {
		if k > 0 && t.Kind() != reflect.Struct {
			return 0, false
		}
		sf := t.Field(i)
		off += sf.Offset
		t = sf.Type
	}
	return off, true
}

// collectFields appends the fields of t, those of inlined structs
// included, to out. visiting holds the embedded types on the way down, to
// stop a struct that embeds itself.
func collectFields(t reflect.Type, index []int, goPrefix string, depth int, visiting map[reflect.Type]bool, out *[]fieldCandidate) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		et := ft
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		inline := name == "" && (sf.Anonymous || hasOption(opts, "inline"))
		if inline && et.Kind() == reflect.Struct {
			if !sf.IsExported() && ft.Kind() == reflect.Pointer {
				continue // promoted fields behind an unexported pointer cannot be set
			}
			if visiting[et] {
				continue
			}
			visiting[et] = true
			collectFields(et, append(slices.Clip(index), i), goPrefix+sf.Name+".", depth+1, visiting, out)
			delete(visiting, et)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		tagged := name != ""
		if name == "" {
			name = sf.Name
		}
		*out = append(*out, fieldCandidate{
			goField: goField{
				name:      name,
				goName:    goPrefix + sf.Name,
				index:     append(slices.Clip(index), i),
				omitEmpty: hasOption(opts, "omitempty"),
				omitZero:  hasOption(opts, "omitzero"),
			},
			depth:  depth,
			tagged: tagged,
		})
	}
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// structEncoder converts Go values to Values; it belongs to one call.
type structEncoder struct {
	chunks
	maxDepth int        // the nesting bound
	keep    []int32    // the indexes of the fields kept, of the structs being converted
	entries []mapEntry // the entries of the maps being converted
	segs    []goSeg    // the path to an error, innermost first
	depth   int
	msg     string
	err     error        // a sentinel for the error, or nil
	dynamic planBuilder  // plans of the dynamic types of interfaces, for this call
	json    *jsonDecoder // decodes what types that marshal themselves give
}

// mapEntry is one entry of a Go map being converted.
type mapEntry struct {
	name string
	v    reflect.Value
}

func (e *structEncoder) fail(format string, args ...any) (Value, bool) {
	e.msg = fmt.Sprintf(format, args...)
	return Value{}, false
}

func (e *structEncoder) error(t reflect.Type) error {
	return &StructError{Type: t, Path: goPath(e.segs), Msg: e.msg, Err: e.err}
}

// value converts rv, planned by p; like is the part of the like value at
// the same path (null when there is none): a part that converts to
// exactly like is like itself (see FromStructLike). orig, when valid, is
// the origin's Go value at the same place, of rv's type, which like is
// the conversion of where it is not null (see FromStructFrom).
func (e *structEncoder) value(p *goPlan, rv, orig reflect.Value, like Value) (Value, bool) {
	switch p.kind {
	case goBool:
		return NewBool(rv.Bool()), true
	case goInt:
		return NewInt(rv.Int()), true
	case goUint:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return e.fail("integer %d overflows int64", u)
		}
		return NewInt(int64(u)), true
	case goFloat:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return e.fail("unsupported float value %v", f)
		}
		return NewFloat(f), true
	case goString:
		return sharedString(rv.String(), like), true
	case goBytes:
		if rv.IsNil() {
			return Value{}, true
		}
		return sharedString(base64.StdEncoding.EncodeToString(rv.Bytes()), like), true
	}
	if e.depth >= e.maxDepth {
		e.err = ErrTooDeep
		return e.fail("nesting deeper than %d levels (%v)", e.maxDepth, ErrTooDeep)
	}
	e.depth++
	v, ok := e.container(p, rv, orig, like)
	e.depth--
	return v, ok
}

// nextLike finds name among like's fields lf, sorted by name, from j on,
// the names before it being smaller: it returns the field's value and the
// position after it, or null and -1 minus the position of the first field
// with a larger name when there is none.
func nextLike(lf []Field, j int, name string) (Value, int) {
	for j < len(lf) && lf[j].Name < name {
		j++
	}
	if j < len(lf) && lf[j].Name == name {
		return lf[j].Value, j + 1
	}
	return Value{}, -j - 1
}

// sharedString is like when it holds s, else s as a new value.
func sharedString(s string, like Value) Value {
	if like.kind == String && like.str() == s {
		return like
	}
	return NewString(s)
}

func (e *structEncoder) container(p *goPlan, rv, orig reflect.Value, like Value) (Value, bool) {
	switch p.kind {
	case goPointer:
		if rv.IsNil() {
			return Value{}, true
		}
		ep, ok := e.elemPlan(p)
		if !ok {
			return Value{}, false
		}
		if orig.IsValid() && !orig.IsNil() {
			orig = orig.Elem()
		} else {
			orig = reflect.Value{}
		}
		return e.value(ep, rv.Elem(), orig, like)
	case goInterface:
		if rv.IsNil() {
			return Value{}, true
		}
		dv := rv.Elem()
		dp, ok := e.planOf(dv.Type())
		if !ok {
			return Value{}, false
		}
		if orig.IsValid() && !orig.IsNil() && orig.Elem().Type() == dv.Type() {
			orig = orig.Elem()
		} else {
			orig = reflect.Value{}
		}
		return e.value(dp, dv, orig, like)
	case goSlice, goArray:
		if p.kind == goSlice && rv.IsNil() {
			return Value{}, true
		}
		n := rv.Len()
		if n == 0 {
			return Value{kind: List}, true
		}
		ep, ok := e.elemPlan(p)
		if !ok {
			return Value{}, false
		}
		// The list is like itself when each item is like's at its index:
		// then nothing was taken from the arenas after items (each shared
		// item gave its own back), and items goes back too.
		saved := e.itemArena
		items := e.allocItems(n)
		li := like.items()
		same := like.kind == List && len(li) == n
		on := 0 // the origin's items
		if orig.IsValid() {
			on = orig.Len()
		}
		for i := range n {
			var lv Value
			if i < len(li) {
				lv = li[i]
			}
			var oi reflect.Value
			if i < on {
				oi = orig.Index(i)
			}
			v, ok := e.value(ep, rv.Index(i), oi, lv)
			if !ok {
				e.segs = append(e.segs, goSeg{index: i})
				return Value{}, false
			}
			same = same && Same(v, lv)
			items[i] = v
		}
		if same {
			clear(items)
			e.giveBackItems(saved, len(items))
			return like, true
		}
		return listValue(items), true
	case goMap:
		return e.goMap(p, rv, like) // (no origin inside a Go map)
	case goStruct:
		if orig.IsValid() && like.kind == Map && e.depth > 1 && structEqual(p, rv, orig, 0) {
			// Below the root (which an update always changes), a struct
			// equal in Go to the origin's converts to the origin's value:
			// comparing costs a fraction of converting.
			return like, true
		}
		return e.goStruct(p, rv, orig, like)
	case goCustom:
		return e.custom(p, rv, orig, like)
	}
	return e.fail("unsupported type %s", p.t)
}

func (e *structEncoder) goStruct(p *goPlan, rv, orig reflect.Value, like Value) (Value, bool) {
	// First the fields that are not left out, by index onto e.keep (no
	// pointers: no write barriers), then their values straight into the
	// map's fields.
	base := len(e.keep)
	var m structMem // read through reflect when rv is not addressable
	if rv.CanAddr() {
		m = structMemOf(rv)
	}
	for i := range p.fields {
		f := &p.fields[i]
		if m.p != nil && f.flat && !f.omitZero {
			if !f.omitEmpty {
				e.keep = append(e.keep, int32(i))
				continue
			}
			if empty, known := f.emptyIn(m); known {
				if !empty {
					e.keep = append(e.keep, int32(i))
				}
				continue
			}
		}
		fv, ok := fieldOf(rv, f.index)
		if !ok {
			continue // behind a nil embedded pointer
		}
		if f.omitEmpty && isEmptyValue(fv) || f.omitZero && isZeroValue(fv, f.zero) {
			continue
		}
		e.keep = append(e.keep, int32(i))
	}
	n := len(e.keep) - base
	if n == 0 {
		return Value{kind: Map}, true
	}
	// A small map's fields are gathered on the stack and copied to the
	// arena once, and only when the map is not like itself: writing them
	// one by one into heap memory costs a write barrier each while the
	// collector runs.
	if n <= smallMap {
		var small [smallMap]Field
		same, ok := e.structFields(small[:n], p, rv, m, orig, like, base)
		if !ok {
			return Value{}, false
		}
		if same {
			return like, true
		}
		fields := e.allocFields(n)
		copy(fields, small[:n])
		return mapValue(fields), true
	}
	// The map is like itself when its fields are like's (see container).
	saved := e.fieldArena
	fields := e.allocFields(n)
	same, ok := e.structFields(fields, p, rv, m, orig, like, base)
	if !ok {
		return Value{}, false
	}
	if same {
		clear(fields)
		e.giveBackFields(saved, len(fields))
		return like, true
	}
	return mapValue(fields), true
}

// structFields converts the fields of rv kept on e.keep from base on into
// fields, pops them, and reports whether they are like's. m is rv's
// memory, its scalar fields are read from (none when rv is not
// addressable: all go through reflect).
func (e *structEncoder) structFields(fields []Field, p *goPlan, rv reflect.Value, m structMem, orig reflect.Value, like Value, base int) (same, ok bool) {
	defer func() { e.keep = e.keep[:base] }()
	lf := like.fields()
	same = like.kind == Map && len(lf) == len(fields)
	j := 0 // like's fields, sorted by name as these are, up to this one's
	for k := range fields {
		f := &p.fields[e.keep[base+k]] // converting may move e.keep: index afresh
		var lv Value
		if lv, j = nextLike(lf, j, f.name); j < 0 {
			same, j = false, -j-1
		}
		var v Value
		read := false
		if m.p != nil && f.leaf.kind != memNone {
			v, read = e.leafIn(f, m, lv)
		}
		if !read {
			if v, ok = e.field(f, rv, orig, lv); !ok {
				e.segs = append(e.segs, goSeg{field: f.goName, index: -1})
				return false, false
			}
		}
		same = same && Same(v, lv)
		fields[k] = Field{Name: f.name, Value: v}
	}
	return same, true
}

// field converts the field f of rv through reflect, the field of orig at
// the same index being its origin.
func (e *structEncoder) field(f *goField, rv, orig reflect.Value, like Value) (Value, bool) {
	fv, _ := fieldOf(rv, f.index)
	fp := f.plan
	if fp == nil { // a lazy plan's field, met for the first time
		var ok bool
		if fp, ok = e.planOf(f.typ); !ok {
			return Value{}, false
		}
		f.plan = fp
	}
	var ofv reflect.Value
	if orig.IsValid() && !like.IsNull() {
		ofv, _ = fieldOf(orig, f.index)
	}
	return e.value(fp, fv, ofv, like)
}

// emptyIn is omitempty's test of f in m, its struct's memory; known is
// false when the test goes through reflect.
func (f *goField) emptyIn(m structMem) (empty, known bool) {
	switch f.mem.kind {
	case memBool:
		return !m.bool(f.offset), true
	case memInt:
		return m.int(f.offset, f.mem.size) == 0, true
	case memUint:
		return m.uint(f.offset, f.mem.size) == 0, true
	case memFloat:
		return m.float(f.offset, f.mem.size) == 0, true
	case memString:
		return m.string(f.offset) == "", true
	case memSlice:
		return m.sliceLen(f.offset) == 0, true
	case memPointer:
		return m.isNil(f.offset), true
	}
	return false, false
}

// leafIn reads the value of f, a scalar or a pointer to one
// (f.leaf), from m, its struct's memory; read is false when the field is
// left to the conversion through reflect (which reports what is wrong with
// it: a uint above math.MaxInt64, a float that is not a number, a pointer
// nested too deep).
func (e *structEncoder) leafIn(f *goField, m structMem, like Value) (v Value, read bool) {
	off := f.offset
	if f.mem.kind == memPointer {
		if e.depth >= e.maxDepth {
			return Value{}, false
		}
		if m.isNil(off) {
			return Value{}, true
		}
		m, off = m.elem(off), 0
	}
	switch r := f.leaf; r.kind {
	case memBool:
		return NewBool(m.bool(off)), true
	case memInt:
		return NewInt(m.int(off, r.size)), true
	case memUint:
		if u := m.uint(off, r.size); u <= math.MaxInt64 {
			return NewInt(int64(u)), true
		}
	case memFloat:
		if x := m.float(off, r.size); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return NewFloat(x), true
		}
	case memString:
		return sharedString(m.string(off), like), true
	}
	return Value{}, false
}

// planOf returns the plan of t from the call's lazy builder, whose plans
// belong to this conversion alone.
func (e *structEncoder) planOf(t reflect.Type) (*goPlan, bool) {
	if e.dynamic.plans == nil {
		e.dynamic = planBuilder{plans: map[reflect.Type]*goPlan{}, lazy: true}
	}
	p, err := e.dynamic.plan(t, "")
	if err != nil {
		e.fail("%s", err.(*StructError).Msg)
		return nil, false
	}
	return p, true
}

// elemPlan returns the plan of p's element type, filling it in when p is
// a lazy plan of this call's (a StructCodec's plans always have it).
func (e *structEncoder) elemPlan(p *goPlan) (*goPlan, bool) {
	if p.elem != nil {
		return p.elem, true
	}
	ep, ok := e.planOf(p.t.Elem())
	if ok {
		p.elem = ep
	}
	return ep, ok
}

// fieldOf returns the field of rv at index, false when a nil embedded
// pointer is on the way.
func fieldOf(rv reflect.Value, index []int) (reflect.Value, bool) {
	if len(index) == 1 {
		return rv.Field(index[0]), true
	}
	for i, x := range index {
		if i > 0 && rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				return reflect.Value{}, false
			}
			rv = rv.Elem()
		}
		rv = rv.Field(x)
	}
	return rv, true
}

// isEmptyValue is omitempty's test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// zeroTest is how omitzero tests a field's type, decided by
// NewStructCodec.
type zeroTest uint8

const (
	zeroByValue     zeroTest = iota // reflect's zero value
	zeroByMethod                    // the type's IsZero method (a nil pointer or interface is zero)
	zeroByPtrMethod                 // the IsZero method of a pointer to the type
)

func zeroTestOf(t reflect.Type) zeroTest {
	switch {
	case t.Implements(isZeroerType):
		return zeroByMethod
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(isZeroerType):
		return zeroByPtrMethod
	}
	return zeroByValue
}

// isZeroValue is omitzero's test.
func isZeroValue(v reflect.Value, how zeroTest) bool {
	switch how {
	case zeroByMethod:
		if v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			return v.IsNil() || v.Interface().(isZeroer).IsZero()
		}
		return addressable(v).Addr().Interface().(isZeroer).IsZero() // no boxing of v
	case zeroByPtrMethod:
		return addressable(v).Addr().Interface().(isZeroer).IsZero()
	}
	return v.IsZero()
}

// addressable returns v, or an addressable copy when v is not.
func addressable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

func (e *structEncoder) goMap(p *goPlan, rv reflect.Value, like Value) (Value, bool) {
	if rv.IsNil() {
		return Value{}, true
	}
	if rv.Len() == 0 {
		return Value{kind: Map}, true
	}
	lf := like.fields()
	same := like.kind == Map && len(lf) == rv.Len()
	saved := e.fieldArena
	if p.stringMap {
		m := rv.Interface().(map[string]string)
		if len(m) <= smallMap {
			var small [smallMap]Field
			return e.smallStringMap(small[:0], m, like)
		}
		fields := e.allocFields(len(m))[:0]
		for k, s := range m {
			fields = append(fields, Field{Name: k, Value: NewString(s)})
		}
		sortFields(fields)
		j := 0
		for i := range fields {
			var lv Value
			if lv, j = nextLike(lf, j, fields[i].Name); j < 0 {
				same, j = false, -j-1
			} else if lv.kind == String && lv.str() == fields[i].Value.str() {
				fields[i].Value = lv
			} else {
				same = false
			}
		}
		if same {
			clear(fields)
			e.giveBackFields(saved, len(fields))
			return like, true
		}
		return mapValue(fields), true
	}
	ep, ok := e.elemPlan(p)
	if !ok {
		return Value{}, false
	}
	base := len(e.entries)
	it := rv.MapRange()
	for it.Next() {
		name, err := keyName(p.key, it.Key())
		if err != nil {
			clear(e.entries[base:])
			e.entries = e.entries[:base]
			return e.fail("map key %v: %v", it.Key(), err)
		}
		e.entries = append(e.entries, mapEntry{name, it.Value()})
	}
	sortEntries(e.entries[base:])
	n := len(e.entries) - base
	j := 0 // like's fields, sorted by name as the entries are
	saved = e.fieldArena
	fields := e.allocFields(n)
	for i := range n {
		en := e.entries[base+i] // converting may move e.entries: index afresh
		var lv Value
		if lv, j = nextLike(lf, j, en.name); j < 0 {
			same, j = false, -j-1
		}
		v, ok := e.value(ep, en.v, reflect.Value{}, lv)
		same = same && ok && Same(v, lv)
		if !ok {
			e.segs = append(e.segs, goSeg{key: strconv.Quote(en.name), index: -1})
			clear(e.entries[base:])
			e.entries = e.entries[:base]
			return Value{}, false
		}
		fields[i] = Field{Name: en.name, Value: v}
	}
	clear(e.entries[base:])
	e.entries = e.entries[:base]
	if i, dup := duplicateName(fields); dup {
		return e.fail("two map keys both give the name %q", fields[i].Name)
	}
	if same {
		clear(fields)
		e.giveBackFields(saved, len(fields))
		return like, true
	}
	return mapValue(fields), true
}

// duplicateName reports a name given by two keys of a map (two
// TextMarshaler keys may give the same text).
func duplicateName(fields []Field) (int, bool) {
	for i := 1; i < len(fields); i++ {
		if fields[i].Name == fields[i-1].Name {
			return i, true
		}
	}
	return 0, false
}

func keyName(k keyKind, key reflect.Value) (string, error) {
	switch k {
	case keyString:
		return key.String(), nil
	case keyInt:
		return strconv.FormatInt(key.Int(), 10), nil
	case keyUint:
		return strconv.FormatUint(key.Uint(), 10), nil
	}
	b, err := addressable(key).Addr().Interface().(encoding.TextMarshaler).MarshalText()
	return string(b), err
}

func (e *structEncoder) custom(p *goPlan, rv, orig reflect.Value, like Value) (Value, bool) {
	if orig.IsValid() && !like.IsNull() && goEqual(rv, orig, 0) {
		return like, true // the origin's value converts to like
	}
	ptr := addressable(rv).Addr().Interface()
	switch {
	case p.toUnstructured:
		x := ptr.(unstructuredMarshaler).ToUnstructured()
		if s, ok := x.(string); ok {
			return sharedString(s, like), true
		}
		uc := unstructuredConverter{maxDepth: e.maxDepth}
		v, ok := uc.convertLike(x, like)
		if !ok {
			e.err = uc.err
			return e.fail("ToUnstructured of %s: %s%s", p.t, unstructuredPath(uc.segs), uc.msg)
		}
		return v, true
	case p.marshalJSON:
		b, err := ptr.(json.Marshaler).MarshalJSON()
		if err != nil {
			return e.fail("MarshalJSON of %s: %v", p.t, err)
		}
		v, err := e.fromJSON(b, like)
		if err != nil {
			return e.fail("MarshalJSON of %s: %v", p.t, err)
		}
		return v, true
	case p.marshalText:
		b, err := ptr.(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return e.fail("MarshalText of %s: %v", p.t, err)
		}
		return sharedString(string(b), like), true
	}
	return e.value(p.base, rv, orig, like)
}

// maxEqualDepth bounds goEqual's recursion (a pointer cycle ends there).
const maxEqualDepth = 32

// goEqual reports whether a and b, of one type, hold equal Go values:
// equal scalars and strings, byte slices of equal bytes, and maps,
// slices, arrays, structs and pointed-to values equal entry by entry.
// Interfaces, functions and channels are never equal here, nor values
// nested deeper than maxEqualDepth: false only costs a conversion.
func goEqual(a, b reflect.Value, depth int) bool {
	if depth > maxEqualDepth {
		return false
	}
	switch a.Kind() {
	case reflect.Map:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Len() != b.Len() {
			return false
		}
		if a.Type() == stringMapType && a.CanInterface() && b.CanInterface() {
			return maps.Equal(a.Interface().(map[string]string), b.Interface().(map[string]string))
		}
		it := a.MapRange()
		for it.Next() {
			if bv := b.MapIndex(it.Key()); !bv.IsValid() || !goEqual(it.Value(), bv, depth+1) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return bytes.Equal(a.Bytes(), b.Bytes())
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if !goEqual(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !goEqual(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Pointer() == b.Pointer() || goEqual(a.Elem(), b.Elem(), depth+1)
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return a.Equal(b)
	}
	return false
}

// structEqual is goEqual of a and b, structs of plan p, over the fields
// p converts (the others do not change the conversion); the scalar fields
// of two addressable structs are compared in memory.
func structEqual(p *goPlan, a, b reflect.Value, depth int) bool {
	if depth > maxEqualDepth {
		return false
	}
	var ma, mb structMem
	if a.CanAddr() && b.CanAddr() {
		ma, mb = structMemOf(a), structMemOf(b)
	}
	for i := range p.fields {
		f := &p.fields[i]
		if ma.p != nil && f.flat {
			if eq, known := f.equalIn(ma, mb); known {
				if !eq {
					return false
				}
				continue
			}
		}
		fa, oka := fieldOf(a, f.index)
		fb, okb := fieldOf(b, f.index)
		if oka != okb || oka && !goEqual(fa, fb, depth+1) {
			return false
		}
	}
	return true
}

// equalIn compares f in the memory of two structs as goEqual does; known
// is false when the comparison goes through reflect.
func (f *goField) equalIn(a, b structMem) (eq, known bool) {
	off := f.offset
	r := f.mem
	if r.kind == memPointer {
		if f.leaf.kind == memNone {
			return false, false
		}
		pa, pb := a.isNil(off), b.isNil(off)
		if pa || pb {
			return pa == pb, true
		}
		a, b, off, r = a.elem(off), b.elem(off), 0, f.leaf
	}
	switch r.kind {
	case memBool:
		return a.bool(off) == b.bool(off), true
	case memInt:
		return a.int(off, r.size) == b.int(off, r.size), true
	case memUint:
		return a.uint(off, r.size) == b.uint(off, r.size), true
	case memFloat:
		return a.float(off, r.size) == b.float(off, r.size), true
	case memString:
		return a.string(off) == b.string(off), true
	}
	return false, false
}

// fromJSON decodes the JSON a type marshalled itself to as FromJSON does,
// with the conversion's arenas and one decoder for all such values.
func (e *structEncoder) fromJSON(b []byte, like Value) (Value, error) {
	cfg, err := sizedOptions(len(b), nil, func(off int) (int, int) { return lineColumnBytes(b, off) })
	if err != nil {
		return Value{}, err
	}
	if e.json == nil {
		e.json = &jsonDecoder{}
	}
	d := e.json
	d.maxDepth, d.like = cfg.maxDepth, like
	d.chunks, e.chunks = e.chunks, chunks{}
	v, err := d.document(string(b))
	e.chunks, d.chunks = d.chunks, chunks{}
	return v, err
}

// structDecoder sets Go values from Values; it belongs to one call.
type structDecoder struct {
	segs  []goSeg
	depth int
	msg   string
	err   error
	buf   []byte // JSON for an Unmarshaler
}

func (d *structDecoder) fail(format string, args ...any) bool {
	d.msg = fmt.Sprintf(format, args...)
	return false
}

func (d *structDecoder) error(t reflect.Type) error {
	return &StructError{Type: t, Path: goPath(d.segs), Msg: d.msg, Err: d.err}
}

func (d *structDecoder) mismatch(p *goPlan, v Value) bool {
	return d.fail("cannot set %s from %s", p.t, v.Kind())
}

// set sets rv, which is settable, to the conversion of v.
func (d *structDecoder) set(p *goPlan, v Value, rv reflect.Value) bool {
	if v.kind == Null {
		rv.SetZero()
		return true
	}
	switch p.kind {
	case goBool:
		if v.kind != Bool {
			return d.mismatch(p, v)
		}
		rv.SetBool(v.n != 0)
		return true
	case goInt:
		var i int64
		switch v.kind {
		case Int:
			i = int64(v.n)
		case Float:
			f := math.Float64frombits(v.n)
			if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
				return d.fail("cannot set %s from float %v", p.t, f)
			}
			i = int64(f)
		default:
			return d.mismatch(p, v)
		}
		if rv.OverflowInt(i) {
			return d.fail("%d overflows %s", i, p.t)
		}
		rv.SetInt(i)
		return true
	case goUint:
		var u uint64
		switch v.kind {
		case Int:
			if int64(v.n) < 0 {
				return d.fail("cannot set %s from %d", p.t, int64(v.n))
			}
			u = v.n
		case Float:
			f := math.Float64frombits(v.n)
			if f != math.Trunc(f) || f < 0 || f >= math.MaxUint64 {
				return d.fail("cannot set %s from float %v", p.t, f)
			}
			u = uint64(f)
		default:
			return d.mismatch(p, v)
		}
		if rv.OverflowUint(u) {
			return d.fail("%d overflows %s", u, p.t)
		}
		rv.SetUint(u)
		return true
	case goFloat:
		if v.kind != Int && v.kind != Float {
			return d.mismatch(p, v)
		}
		f := v.AsFloat()
		if rv.OverflowFloat(f) {
			return d.fail("%v overflows %s", f, p.t)
		}
		rv.SetFloat(f)
		return true
	case goString:
		if v.kind != String {
			return d.mismatch(p, v)
		}
		rv.SetString(v.str())
		return true
	case goBytes:
		if v.kind != String {
			return d.mismatch(p, v)
		}
		b, err := base64.StdEncoding.DecodeString(v.str())
		if err != nil {
			return d.fail("base64 of a %s: %v", p.t, err)
		}
		rv.SetBytes(b)
		return true
	}
	if d.depth >= DefaultMaxDepth {
		d.err = ErrTooDeep
		return d.fail("nesting deeper than %d levels (%v)", DefaultMaxDepth, ErrTooDeep)
	}
	d.depth++
	ok := d.setContainer(p, v, rv)
	d.depth--
	return ok
}

// structOrigin is a Go value and the Value FromStruct made of it, at one
// path of the conversion back.
type structOrigin struct {
	v  Value
	rv reflect.Value
}

// setFrom sets rv as set does, copying an origin's Go value where v is
// that origin's Value (see ToStructFrom), and following the origins down
// the structs, pointers and slices on the way to the parts that changed.
func (d *structDecoder) setFrom(p *goPlan, v Value, rv reflect.Value, orgs []structOrigin) bool {
	if len(orgs) == 0 || v.kind == Null {
		return d.set(p, v, rv)
	}
	switch p.kind {
	case goPointer, goSlice, goArray, goMap, goStruct, goCustom:
	default:
		return d.set(p, v, rv)
	}
	for _, o := range orgs {
		if sameNode(v, o.v) && o.rv.CanInterface() {
			rv.Set(o.rv)
			return true
		}
	}
	if d.depth >= DefaultMaxDepth {
		d.err = ErrTooDeep
		return d.fail("nesting deeper than %d levels (%v)", DefaultMaxDepth, ErrTooDeep)
	}
	d.depth++
	ok := d.setFromContainer(p, v, rv, orgs)
	d.depth--
	return ok
}

func (d *structDecoder) setFromContainer(p *goPlan, v Value, rv reflect.Value, orgs []structOrigin) bool {
	var buf [4]structOrigin
	subs := buf[:0]
	switch {
	case p.kind == goPointer:
		for _, o := range orgs {
			if !o.rv.IsNil() {
				subs = append(subs, structOrigin{v: o.v, rv: o.rv.Elem()})
			}
		}
		if rv.IsNil() {
			rv.Set(reflect.New(p.t.Elem()))
		}
		return d.setFrom(p.elem, v, rv.Elem(), subs)
	case p.kind == goSlice && v.kind == List:
		items := v.items()
		rv.Set(reflect.MakeSlice(p.t, len(items), len(items)))
		for i := range items {
			subs = subs[:0]
			for _, o := range orgs {
				if its := o.v.items(); i < len(its) && len(its) == o.rv.Len() {
					subs = append(subs, structOrigin{v: its[i], rv: o.rv.Index(i)})
				}
			}
			if !d.setFrom(p.elem, items[i], rv.Index(i), subs) {
				d.segs = append(d.segs, goSeg{index: i})
				return false
			}
		}
		return true
	case p.kind == goStruct && v.kind == Map:
		return d.setStruct(p, v, rv, orgs)
	}
	return d.setContainer(p, v, rv)
}

func (d *structDecoder) setContainer(p *goPlan, v Value, rv reflect.Value) bool {
	switch p.kind {
	case goPointer:
		if rv.IsNil() {
			rv.Set(reflect.New(p.t.Elem()))
		}
		return d.set(p.elem, v, rv.Elem())
	case goInterface:
		if p.t.NumMethod() != 0 {
			return d.fail("cannot set the interface %s", p.t)
		}
		rv.Set(reflect.ValueOf(v.Unstructured()))
		return true
	case goSlice, goArray:
		if v.kind != List {
			return d.mismatch(p, v)
		}
		items := v.items()
		n := len(items)
		if p.kind == goSlice {
			rv.Set(reflect.MakeSlice(p.t, n, n))
		} else {
			n = min(n, rv.Len())
			rv.SetZero()
		}
		for i := range n {
			if !d.set(p.elem, items[i], rv.Index(i)) {
				d.segs = append(d.segs, goSeg{index: i})
				return false
			}
		}
		return true
	case goMap:
		return d.setMap(p, v, rv)
	case goStruct:
		return d.setStruct(p, v, rv, nil)
	case goCustom:
		return d.setCustom(p, v, rv)
	}
	return d.fail("unsupported type %s", p.t)
}

// setStruct sets the fields of rv from v's, following the origins down
// (see setFrom) when there are any.
func (d *structDecoder) setStruct(p *goPlan, v Value, rv reflect.Value, orgs []structOrigin) bool {
	if v.kind != Map {
		return d.mismatch(p, v)
	}
	rv.SetZero()
	fields := v.fields()
	var buf [4]structOrigin
	// Both are sorted by name: one walk matches them.
	i, j := 0, 0
	for i < len(fields) && j < len(p.fields) {
		switch c := strings.Compare(fields[i].Name, p.fields[j].name); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			f := &p.fields[j]
			var ok bool
			if len(orgs) == 0 {
				ok = d.set(f.plan, fields[i].Value, fieldForSet(rv, f.index))
			} else {
				subs := buf[:0]
				for _, o := range orgs {
					if ov, found := o.v.Get(f.name); found {
						if orv, found := fieldOf(o.rv, f.index); found {
							subs = append(subs, structOrigin{v: ov, rv: orv})
						}
					}
				}
				ok = d.setFrom(f.plan, fields[i].Value, fieldForSet(rv, f.index), subs)
			}
			if !ok {
				d.segs = append(d.segs, goSeg{field: f.goName, index: -1})
				return false
			}
			i++
			j++
		}
	}
	return true
}

// fieldForSet returns the field of rv at index, allocating the embedded
// pointers on the way.
func fieldForSet(rv reflect.Value, index []int) reflect.Value {
	if len(index) == 1 {
		return rv.Field(index[0])
	}
	for i, x := range index {
		if i > 0 && rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				rv.Set(reflect.New(rv.Type().Elem()))
			}
			rv = rv.Elem()
		}
		rv = rv.Field(x)
	}
	return rv
}

func (d *structDecoder) setMap(p *goPlan, v Value, rv reflect.Value) bool {
	if v.kind != Map {
		return d.mismatch(p, v)
	}
	fields := v.fields()
	if p.stringMap {
		m := make(map[string]string, len(fields))
		for i := range fields {
			if fields[i].Value.kind != String {
				d.segs = append(d.segs, goSeg{key: strconv.Quote(fields[i].Name), index: -1})
				if fields[i].Value.kind == Null {
					return d.fail("cannot set string from null")
				}
				return d.mismatch(p.elem, fields[i].Value)
			}
			m[fields[i].Name] = fields[i].Value.str()
		}
		rv.Set(reflect.ValueOf(m))
		return true
	}
	m := reflect.MakeMapWithSize(p.t, len(fields))
	kt, et := p.t.Key(), p.t.Elem()
	for i := range fields {
		name := fields[i].Name
		key := reflect.New(kt).Elem()
		if err := setKey(p.key, name, key); err != nil {
			d.segs = append(d.segs, goSeg{key: strconv.Quote(name), index: -1})
			return d.fail("map key: %v", err)
		}
		ev := reflect.New(et).Elem()
		if !d.set(p.elem, fields[i].Value, ev) {
			d.segs = append(d.segs, goSeg{key: strconv.Quote(name), index: -1})
			return false
		}
		m.SetMapIndex(key, ev)
	}
	rv.Set(m)
	return true
}

func setKey(k keyKind, name string, key reflect.Value) error {
	switch k {
	case keyString:
		key.SetString(name)
	case keyInt:
		i, err := strconv.ParseInt(name, 10, 64)
		if err != nil || key.OverflowInt(i) {
			return fmt.Errorf("%q is not a %s", name, key.Type())
		}
		key.SetInt(i)
	case keyUint:
		u, err := strconv.ParseUint(name, 10, 64)
		if err != nil || key.OverflowUint(u) {
			return fmt.Errorf("%q is not a %s", name, key.Type())
		}
		key.SetUint(u)
	case keyText:
		return key.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(name))
	}
	return nil
}

func (d *structDecoder) setCustom(p *goPlan, v Value, rv reflect.Value) bool {
	switch {
	case p.unmarshalJSON:
		d.buf = AppendJSON(d.buf[:0], v)
		if err := rv.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(d.buf); err != nil {
			return d.fail("UnmarshalJSON of %s: %v", p.t, err)
		}
		return true
	case p.unmarshalText:
		if v.kind != String {
			return d.mismatch(p, v)
		}
		if err := rv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(v.str())); err != nil {
			return d.fail("UnmarshalText of %s: %v", p.t, err)
		}
		return true
	}
	return d.set(p.base, v, rv)
}

// smallStringMap converts m, a map[string]string of up to smallMap
// entries, gathering its fields in small, on the caller's stack, in name
// order (smallOrder): like itself when they are like's fields,
// else a map written to the arena once, with like's values where equal.
func (e *structEncoder) smallStringMap(small []Field, m map[string]string, like Value) (Value, bool) {
	for k, s := range m {
		small = append(small, Field{Name: k, Value: NewString(s)})
	}
	order := smallOrder(small)
	lf := like.fields()
	same := like.kind == Map && len(lf) == len(small)
	j := 0
	for i := range small {
		f := &small[order[i]]
		var lv Value
		if lv, j = nextLike(lf, j, f.Name); j < 0 {
			same, j = false, -j-1
		} else if lv.kind == String && lv.str() == f.Value.str() {
			f.Value = lv
		} else {
			same = false
		}
	}
	if same {
		return like, true
	}
	fields := e.allocFields(len(small))
	for i := range fields {
		fields[i] = small[order[i]]
	}
	return mapValue(fields), true
}

// sortEntries sorts a map's entries by name: by insertion for the few
// entries of most maps (labels, annotations, resources), deciding most
// comparisons by the first byte inline.
func sortEntries(entries []mapEntry) {
	if len(entries) > smallMap {
		slices.SortFunc(entries, func(a, b mapEntry) int { return strings.Compare(a.name, b.name) })
		return
	}
	for i := 1; i < len(entries); i++ {
		for j := i; j > 0 && nameLess(entries[j].name, entries[j-1].name); j-- {
			entries[j], entries[j-1] = entries[j-1], entries[j]
		}
	}
}

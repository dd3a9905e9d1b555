package gostruct

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

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

// goPlan is how one Go type converts, computed once by NewCodec.
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
	// memPointer (memNone: converted through reflect). A Codec
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

// planBuilder builds the plans of a type graph; plans maps each type seen
// to its plan, filled in place so that recursive types refer to
// themselves. It belongs to one NewCodec call, or to one conversion.
//
// A lazy builder (one conversion's: FromStruct, and the dynamic types of
// interfaces) leaves the plans of element and field types out; the
// conversion that owns it fills them in when it meets a value of that
// type (structEncoder.elemPlan; goStruct for fields), so a call pays for
// the types its value uses only. Those plans never leave the call. A
// Codec's plans are complete when NewCodec returns and are
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
	return &Error{Msg: msg}
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
// NewCodec.
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

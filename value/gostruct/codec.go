package gostruct

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// Codec converts values of one Go type to Values and back by the
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
// Nesting deeper than value.MaxDepth (value.DefaultMaxDepth unless given)
// is an error wrapping value.ErrTooDeep (a pointer or an interface
// followed counts as a level, as a struct, slice or map does), which also
// stops a value that contains itself.
//
// Back into a struct, fields of the map that the type does not have are
// ignored, a null gives the zero value, and numbers convert between Go
// integer and float types when the value fits (a float only into an
// integer when it is integral).
//
// A Codec is built once per type by NewCodec, which walks the whole type
// graph (recursive types are fine); it is immutable; safe for concurrent
// use. The Values it makes share the strings of the Go value
// they came from (Go strings are immutable) and nothing else.
type Codec struct {
	typ  reflect.Type
	root *goPlan
}

// NewCodec builds the conversion of t (a pointer type converts its
// element, with nil as null) and of every type reachable from it. It
// fails, naming the Go field, on a type that has no JSON form (channels,
// functions, complex numbers, unsafe pointers, maps with other keys) and
// that no json tag leaves out.
func NewCodec(t reflect.Type) (*Codec, error) {
	if t == nil {
		return nil, errors.New("gostruct: NewCodec of a nil type")
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
	return &Codec{typ: t, root: p}, nil
}

// Type returns the type the codec converts.
func (c *Codec) Type() reflect.Type { return c.typ }

// FromStruct converts x, a value of the codec's type or a pointer to one,
// to a Value. x is not modified or retained, except that the Value shares
// x's strings. Errors are *Error values naming the Go field. value.Like
// and value.LikeOrigin share the like value's equal parts (LikeOrigin's
// Data, the Go value like came from, lets equal parts skip their
// conversion); value.MaxDepth bounds the nesting.
func (c *Codec) FromStruct(x any, opts ...value.DecodeOption) (value.Value, error) {
	cfg, err := options(opts)
	if err != nil {
		return value.Value{}, err
	}
	orig := reflect.ValueOf(cfg.Like.Data)
	if orig.IsValid() && orig.Type() != c.typ {
		if orig.Kind() == reflect.Pointer && orig.Type().Elem() == c.typ && !orig.IsNil() {
			orig = orig.Elem()
		} else {
			orig = reflect.Value{}
		}
	}
	return c.fromStruct(x, cfg.Like.Value, orig, cfg.MaxDepth)
}

func (c *Codec) fromStruct(x any, like value.Value, orig reflect.Value, maxDepth int) (value.Value, error) {
	rv := reflect.ValueOf(x)
	if !rv.IsValid() {
		return value.Value{}, &Error{Type: c.typ, Msg: "nil interface, want a " + c.typ.String()}
	}
	switch {
	case rv.Type() == c.typ:
	case rv.Kind() == reflect.Pointer && rv.Type().Elem() == c.typ:
		if rv.IsNil() {
			return value.Value{}, nil
		}
		rv = rv.Elem()
	default:
		return value.Value{}, &Error{Type: c.typ, Msg: fmt.Sprintf("got a %s, want a %s", rv.Type(), c.typ)}
	}
	// Methods with pointer receivers (MarshalJSON, IsZero) need an
	// addressable value, as they have when x is a pointer.
	rv = addressable(rv)
	e := structEncoder{maxDepth: maxDepth}
	v, ok := e.value(c.root, rv, orig, like)
	if !ok {
		return value.Value{}, e.error(c.typ)
	}
	return v, nil
}

// ToStruct sets *ptr, ptr a non-nil pointer to the codec's type, to the
// conversion of v, replacing what it held. Errors are *Error values
// naming the Go field; *ptr is then left partly set.
func (c *Codec) ToStruct(v value.Value, ptr any) error {
	rv := reflect.ValueOf(ptr)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.Type().Elem() != c.typ || rv.IsNil() {
		return &Error{Type: c.typ, Msg: fmt.Sprintf("got %T, want a non-nil *%s", ptr, c.typ)}
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
func (c *Codec) ToStructFrom(v value.Value, ptr any, origins ...value.Origin) error {
	rv := reflect.ValueOf(ptr)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.Type().Elem() != c.typ || rv.IsNil() {
		return &Error{Type: c.typ, Msg: fmt.Sprintf("got %T, want a non-nil *%s", ptr, c.typ)}
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

// FromStruct converts x by its json tags (see Codec), working out
// the conversion of each Go type as it meets a value of it, for this call
// only: it costs in proportion to the types x's value uses, not to every
// type reachable from x's (which NewCodec walks once for all calls).
// A type with no JSON form is an error when a value of it is met, as with
// encoding/json, rather than when it is merely reachable.
//
// value.Like shares the like value's equal parts; value.MaxDepth bounds the
// nesting.
func FromStruct(x any, opts ...value.DecodeOption) (value.Value, error) {
	cfg, err := options(opts)
	if err != nil {
		return value.Value{}, err
	}
	if x == nil {
		return value.Value{}, nil
	}
	t := reflect.TypeOf(x)
	e := structEncoder{maxDepth: cfg.MaxDepth}
	root, ok := e.planOf(t)
	if ok {
		var v value.Value
		if v, ok = e.value(root, addressable(reflect.ValueOf(x)), reflect.Value{}, cfg.Like.Value); ok {
			return v, nil
		}
	}
	return value.Value{}, e.error(t)
}

// ToStruct sets *ptr to the conversion of v by the json tags of its type
// (see Codec), building the conversion for this call only.
func ToStruct(v value.Value, ptr any) error {
	rv := reflect.ValueOf(ptr)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &Error{Msg: fmt.Sprintf("got %T, want a non-nil pointer", ptr)}
	}
	c, err := NewCodec(rv.Type().Elem())
	if err != nil {
		return err
	}
	return c.ToStruct(v, ptr)
}

// Error is an error converting between a Go value and a Value: Path is
// the Go selector of the field from the root type
// (".Spec.Containers[0].Image", `.Labels["app"]`; "" for the root), Msg
// what is wrong. errors.Is sees
// value.ErrTooDeep through it.
type Error struct {
	Type reflect.Type // the root type; nil when not known
	Path string
	Msg  string
	Err  error
}

// Error formats the error as "gostruct: v1.Pod.Spec.Containers[0].Image: msg".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("gostruct: ")
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
func (e *Error) Unwrap() error { return e.Err }

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

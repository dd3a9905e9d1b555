package valueown

// DecodeFuncs are the operations of package value that the module's
// other converters build on (package gostruct, which converts Go structs;
// package manifest, which reads manifests as kubectl does): V is value's
// Value and F its Field.
type DecodeFuncs[V, F any] struct {
	// SortedMap returns the map of fields, which it takes: they are
	// sorted by name, without repeats, and the caller never modifies the
	// slice again. It neither checks nor sorts them: a wrong slice makes a
	// map whose lookups are wrong.
	SortedMap func(fields []F) V
	// JSON decodes b as FromJSON(b, Like(like)) does, taking the slices of
	// its maps and lists from c; dec is the decoder it returned from its
	// last call of one conversion (nil at first), to be given to the next,
	// and c the arenas as it left them. Everything goes by value, so that
	// the caller's scratch space stays on its stack.
	JSON func(dec any, b []byte, like V, c Chunks[F, V]) (v V, decOut any, cOut Chunks[F, V], err error)
	// Unstructured converts x, plain data such as a ToUnstructured method
	// gives, as FromUnstructured(x, Like(like), MaxDepth(maxDepth)) does.
	// When it fails, msg is the message, after the path of what failed
	// within x, and sentinel the error it wraps (ErrTooDeep) or nil.
	Unstructured func(x any, like V, maxDepth int) (v V, ok bool, msg string, sentinel error)
}

// DecodeConfig is what package value's decode options resolve to: a
// DecodeOption is a func(DecodeConfig[Origin]) DecodeConfig[Origin]. A
// converter resolves its options by calling each, in order, on the
// defaults (DefaultMaxDepth, DefaultMaxBytes), and fails with Err when
// that is not nil. It calls them, and gives them to no other function, so
// that an option made for the call stays on the caller's stack.
type DecodeConfig[R any] struct {
	MaxDepth int
	MaxBytes int64
	Like     R     // the origin Like or LikeOrigin gave; the zero origin when none did
	Err      error // the error of an option with a bad argument
}

// Resolve resolves opts, value's decode options, on the defaults: each is
// called in order, and the first bad argument's error is returned.
func Resolve[O ~func(DecodeConfig[R]) DecodeConfig[R], R any](opts []O, maxDepth int, maxBytes int64) (DecodeConfig[R], error) {
	c := DecodeConfig[R]{MaxDepth: maxDepth, MaxBytes: maxBytes}
	for _, o := range opts {
		if o != nil {
			c = o(c)
		}
	}
	return c, c.Err
}

var registeredDecode any

// RegisterDecode is called by package value only.
func RegisterDecode[V, F any](f DecodeFuncs[V, F]) {
	register(&registeredDecode, f, "value")
}

// DecodeOf returns the functions package value registered for the
// module's other converters.
func DecodeOf[V, F any]() DecodeFuncs[V, F] {
	return lookup[DecodeFuncs[V, F]](registeredDecode, "value")
}

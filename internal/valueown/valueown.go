// Package valueown gives the packages of this module the operations of
// packages value and fieldpath that hand slices over without copying them:
// building a map, a list or a key from a slice the caller gives up, and
// reading the slices of a map, a list, a set or a key, and filling in a
// set node from slices (for the Assembler of package setasm, with which
// typed builds sets in memory of its own). Decoders and the
// merge build many nodes, and a copy of each would double their
// allocations. The public constructors copy and the public accessors yield
// elements, so that no caller outside the module can change a value or a
// set that others share; code outside the module cannot import this
// package.
//
// Packages value and fieldpath register their functions when they are
// initialised, before any package that imports them; Of, SetOf and
// NodesOf return them (package own holds the first two for the packages
// above, package setasm the last). DecodeOf returns what value's sibling
// converters (packages value/gostruct and value/manifest) build on: taking
// a sorted map, value's JSON decoder and its converter of plain data; they
// share value's allocator of slices (Chunks) and resolve value's decode
// options (DecodeConfig).
//
// Concurrency: the functions are registered once, during initialisation,
// and never written again; safe for concurrent use.
package valueown

// Funcs are the ownership-taking operations of package value, whose
// Value is V and whose Field is F.
type Funcs[V, F any] struct {
	// Map returns a map of fields, which it takes: the caller never
	// modifies the slice again. It sorts fields by name in place; a name
	// given twice keeps its last field.
	Map func(fields []F) V
	// List returns a list of items, which it takes: the caller never
	// modifies the slice again.
	List func(items []V) V
	// Fields returns the fields of a map, sorted by name (nil for other
	// kinds); the caller must not modify the slice.
	Fields func(v V) []F
	// Items returns the items of a list (nil for other kinds); the caller
	// must not modify the slice.
	Items func(v V) []V
	// Uniform reports whether v is a list whose items its converter found
	// each of the same shape as the item before it (the same kind; for
	// maps, the same names in order with values of the same shape; no
	// lists), so that all fit a type when the first does. False says
	// nothing.
	Uniform func(v V) bool
}

var registered any

// Register is called by package value only.
func Register[V, F any](f Funcs[V, F]) { register(&registered, f, "value") }

// Of returns the functions package value registered.
func Of[V, F any]() Funcs[V, F] { return lookup[Funcs[V, F]](registered, "value") }

// register sets *slot, once, during initialisation.
func register(slot *any, f any, pkg string) {
	if *slot != nil {
		panic("valueown: package " + pkg + " registered its functions twice")
	}
	*slot = f
}

// lookup returns what slot holds as an F.
func lookup[F any](slot any, pkg string) F {
	f, ok := slot.(F)
	if !ok {
		panic("valueown: package " + pkg + " has not registered these functions")
	}
	return f
}

// Package fieldpath names fields inside objects and holds sets of them: the
// field sets with which server-side apply records which manager owns which
// fields.
//
// A Path is a list of PathElements, each a field name (.spec), an
// associative-list key ([name="web"]), a set member value ([="a"]) or a list
// index ([3]); Path.String and ParsePath convert to and from the text form
// Kubernetes prints. A Set is a set of paths stored as a sorted trie. Its
// operations are those of structured-merge-diff's fieldpath.Set, with the
// same results: Union, Intersection, Difference, RecursiveDifference
// (which removes whole subtrees), Leaves, Has, Size and the pre-order
// iteration of All and String. MarshalFieldsV1 and ParseFieldsV1 convert a
// set to and from FieldsV1, the JSON form stored in metadata.managedFields,
// byte for byte as structured-merge-diff does; ParseFieldsV1Value and
// ParseFieldsV1Unstructured read it from an object already decoded, as a
// value or as maps, and FieldsV1Value and FieldsV1Unstructured build it in
// those forms (FieldsV1ValueLike and FieldsV1UnstructuredLike sharing the
// parts of the encoding a set was read from that did not change). Managers maps manager names to the versioned sets they own.
//
// # Sharing and allocation
//
// Sets are persistent: an operation builds its result from the unchanged
// subtrees of its inputs, and returns an input itself when the result equals
// it (a union with a subset, a difference with a disjoint set, ...), without
// allocating. A Builder builds a set from many paths at once, allocating
// its nodes from a few blocks; ParseFieldsV1 allocates the nodes of a set
// in a few large chunks.
//
// Package typed builds its sets bottom up while it walks values, with an
// Assembler that is internal to this module (package internal/setasm):
// some of its operations trust their caller to add entries in order, and
// no caller outside the module may build a broken Set. The blocks sets are
// carved from are internal/setarena's; only this package fills in a set's
// nodes (export.go registers the functions the Assembler uses, through
// internal/valueown). A build with the race detector or the `invariants`
// tag checks every set made from entries trusted to be in order.
//
// # Unsafe and pools
//
// repr.go holds every use of package unsafe (a path element is two words,
// a set node 32 bytes; pointers only ever point into immutable data), and
// pools.go the two pools of scratch memory (FieldsV1 encoding and decoding),
// which are cleared before reuse and never reachable from a result. The
// internal packages that assemble sets and hand out their memory
// (internal/setasm, internal/setarena) use neither: the representation
// whose layout unsafe code relies on stays in repr.go.
//
// # Concurrency
//
// PathElement, Set and everything reachable from a Set are immutable after
// construction and safe for concurrent use: they hold no caches, locks or
// lazily computed state, and no operation modifies its receiver or
// arguments. A Path is a plain slice and a Managers a plain map: share them
// read-only. A Builder belongs to one goroutine until Build. No caller can
// change a set or an element that others share: Key copies the fields it
// is given, Members, Children and PathElement.Key yield elements, and a
// PathElement cannot be compared with == (use Equal or Compare). The Path
// yielded by All is reused between iterations.
package fieldpath

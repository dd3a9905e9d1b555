package fieldpath

// FieldsV1 is the JSON form in which Kubernetes stores field sets in
// metadata.managedFields: each trie node is an object whose keys are
// serialized path elements ("f:name", `k:{"name":"web"}`, `v:"a"`, "i:3")
// and whose values are the child nodes; a node that is itself a member has
// the extra key "." (listed first) and a member with no children is {}.

// MaxFieldsV1Depth is the deepest object nesting ParseFieldsV1 accepts (the
// top-level object is at depth 1), the same limit as the JSON reader
// structured-merge-diff uses.
const MaxFieldsV1Depth = 10000

// Package setarena holds the memory the sets of package fieldpath are made
// of: an Arena hands out set nodes and the slices of their members and
// children, carved from blocks that grow with use, so that the sets of one
// build, one walk or one parse cost a few allocations in all. Package
// fieldpath's Builder and FieldsV1 decoder use it, and so does the
// Assembler of package setasm, with which package typed builds sets while
// walking values.
//
// An Arena knows nothing of what a set node holds: it is generic over the
// types of the members (E), the children (C) and the nodes (S), and the
// package that owns S fills in the nodes it hands out. It uses no unsafe
// code and no pools.
//
// Concurrency: an Arena is for use by one goroutine; what it hands out is
// the caller's, and nothing in the Arena refers to it once handed out
// except the blocks it was carved from.
package setarena

// Package setasm holds the Assembler, with which package typed builds the
// field sets of its walks over values bottom up: it opens a node, adds
// members and child sets, and closes the node into an immutable
// fieldpath.Set.
//
// The Assembler is internal to the module because some of its operations
// trust their caller: CloseInOrder, CloseInOrderLike, Room and SetOf skip
// the sorting and the checks of Close, which is what makes a keyed list of
// 100,000 items cheap, and wrong entries would make a set whose lookups
// and operations are wrong. A build with the race detector or the
// `invariants` tag checks every set they make. Callers outside the module
// build sets with fieldpath.Builder or fieldpath.NewSet.
//
// The sets are made in the memory of an arena (package setarena), with the
// functions package fieldpath registers in package valueown (Init fills a
// node in, Same compares a node with entries), since only fieldpath can
// write a set's fields. This package uses no unsafe code and no pools;
// package typed pools its Assemblers (typed/bufs.go).
//
// Concurrency: an Assembler is for use by one goroutine; the sets it
// returns are immutable and safe for concurrent use.
package setasm

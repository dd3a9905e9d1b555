//go:build invariants || race

package merge

// checkPrunes is true in the checking build (go test -race, or -tags
// invariants): every prune that prunesNothing skips is run in full as well,
// and a different result panics.
const checkPrunes = true

//go:build !race

package hostile_test

// raceSlowdown multiplies the time bound; see race_test.go.
const raceSlowdown = 1

//go:build race

package hostile_test

// raceSlowdown multiplies the time bound in race-enabled builds, whose
// instrumented code runs several times slower; the memory bound stays.
const raceSlowdown = 10

package typed_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/typed"
)

// TestCompareEqualValues: two valid values that are equal but were built
// apart (they share nothing) compare as the same, and the comparison reads
// them without the walk that builds the sets: it allocates only the
// Comparison.
func TestCompareEqualValues(t *testing.T) {
	w := widget(t)
	var b strings.Builder
	b.WriteString("{name: w, replicas: 3, containers: [")
	for i := range 200 {
		fmt.Fprintf(&b, "{name: c%d, image: i%d}, ", i, i)
	}
	b.WriteString("], tags: [a, b]}")
	lhs, err := typed.New(w, yv(t, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	rhs, err := typed.New(w, yv(t, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	c, err := lhs.Compare(rhs)
	if err != nil || !c.IsSame() {
		t.Fatalf("Compare = %v, %v; want no changes", c, err)
	}
	if n := testing.AllocsPerRun(20, func() { c, err = lhs.Compare(rhs) }); n > 1 {
		t.Errorf("Compare of equal values: %v allocations, want 1", n)
	}
}

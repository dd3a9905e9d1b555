package conformance

import (
	"math/rand/v2"
	"testing"

	"github.com/structmerge/structmerge/conformance/smdengine"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/gen"
)

// TestGeneratedOnSMD checks the random generator against the reference:
// its schemas compile on SMD, its objects and their mutations are
// configurations SMD applies, its invalid variants are mostly ones SMD
// rejects, and an object with a repeated list item is one SMD updates to
// but does not apply. (The generator's own tests check the same on
// structmerge.)
func TestGeneratedOnSMD(t *testing.T) {
	changed, rejected := 0, 0
	for i := range 100 {
		r := rand.New(rand.NewPCG(11, uint64(i)))
		s := gen.Generate(r, gen.Options{})
		smd, err := smdengine.Engine{}.Compile(s.YAML(), s.Root)
		if err != nil {
			t.Fatalf("schema %d: SMD rejects it: %v\n%s", i, err, s.YAML())
		}
		do := func(op string, obj any) error {
			_, err := smd.Do(scenario.State{}, scenario.Operation{Op: op, Manager: "m", APIVersion: "v1", Object: obj})
			return err
		}
		g := &gen.Values{S: s, R: r}
		obj := g.Object()
		for k, o := range []any{obj, g.Mutate(s.RootType(), obj), g.Mutate(s.RootType(), g.Mutate(s.RootType(), obj))} {
			if err := do(scenario.OpApply, o); err != nil {
				t.Errorf("schema %d value %d: SMD rejects %s: %v\n%s", i, k, gen.FormatValue(o), err, s.YAML())
			}
		}
		if bad := g.Invalidate(s.RootType(), obj); !gen.SameValue(bad, obj) {
			changed++
			if do(scenario.OpApply, bad) != nil {
				rejected++
			}
		}
		if dup, ok := g.Duplicate(s.RootType(), obj); ok {
			if do(scenario.OpApply, dup) == nil {
				t.Errorf("schema %d: SMD applies %s, which repeats a list item", i, gen.FormatValue(dup))
			}
			if err := do(scenario.OpUpdate, dup); err != nil {
				t.Errorf("schema %d: SMD does not update to %s: %v", i, gen.FormatValue(dup), err)
			}
		}
	}
	if changed < 80 || rejected < changed*3/4 {
		t.Errorf("Invalidate changed %d of 100 objects and SMD rejected %d of those", changed, rejected)
	}
}

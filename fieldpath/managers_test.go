package fieldpath_test

import (
	"slices"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
)

func TestManagers(t *testing.T) {
	a := set(t, ".a", ".b.c")
	a2 := set(t, ".b.c", ".a") // equal, built separately
	m := fieldpath.Managers{
		"kubectl":    {Set: a, APIVersion: "v1", Applied: true},
		"controller": {Set: set(t, ".status"), APIVersion: "v1"},
		"alpha":      {APIVersion: "v1beta1"},
	}
	if got := m.Names(); !slices.Equal(got, []string{"alpha", "controller", "kubectl"}) {
		t.Errorf("Names = %v", got)
	}
	c := m.Copy()
	if !c.Equal(m) || !m.Equal(c) {
		t.Error("Copy not equal")
	}
	c["kubectl"] = fieldpath.VersionedSet{Set: a2, APIVersion: "v1", Applied: true}
	if !c.Equal(m) {
		t.Error("equal sets built separately compare unequal")
	}
	c["new"] = fieldpath.VersionedSet{}
	if _, ok := m["new"]; ok || c.Equal(m) {
		t.Error("Copy shares the map")
	}
	for _, change := range []fieldpath.VersionedSet{
		{Set: a, APIVersion: "v2", Applied: true},
		{Set: a, APIVersion: "v1", Applied: false},
		{Set: set(t, ".a"), APIVersion: "v1", Applied: true},
	} {
		d := m.Copy()
		d["kubectl"] = change
		if d.Equal(m) {
			t.Errorf("change %+v not detected", change)
		}
	}
	d := m.Copy()
	delete(d, "alpha")
	d["beta"] = fieldpath.VersionedSet{APIVersion: "v1beta1"}
	if d.Equal(m) {
		t.Error("renamed manager not detected")
	}
	var nilM fieldpath.Managers
	if !nilM.Equal(fieldpath.Managers{}) || nilM.Copy() != nil || len(nilM.Names()) != 0 {
		t.Error("nil Managers misbehaves")
	}
}

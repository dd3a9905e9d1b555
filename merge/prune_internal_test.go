package merge

import (
	"strings"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

func internalObj(t *testing.T, w *schema.Type, src string) typed.Value {
	t.Helper()
	v, err := value.FromYAML([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tv, err := typed.New(w, v)
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

// TestPrunesNothing: the shortcut is taken exactly when the manager's new
// set covers its last one, and the check that guards it in the checking
// build catches a skip that would have lost a removal.
func TestPrunesNothing(t *testing.T) {
	w := testfixture.Widget(t)
	u := &Updater{}
	merged := internalObj(t, w, `{name: a, labels: {x: y, z: q}}`)
	setOf := func(src string) *fieldpath.Set {
		tv := internalObj(t, w, src)
		set, err := tv.FieldSet()
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	same, fewer := setOf(`{name: a, labels: {x: y, z: q}}`), setOf(`{name: a, labels: {x: y}}`)
	if !u.prunesNothing(merged, same, same) || !u.prunesNothing(merged, same, fewer) {
		t.Error("a new set covering the last one does not take the shortcut")
	}
	if u.prunesNothing(merged, fewer, same) {
		t.Error("dropping labels.z takes the shortcut")
	}
	if u.prunesNothing(internalObj(t, w, `{}`), same, same) {
		t.Error("an empty object takes the shortcut")
	}
	if withConv := (&Updater{conv: identity{}}); !withConv.prunesNothing(merged, same, same) {
		t.Error("the identity converter given explicitly does not take the shortcut")
	}
	filtered := &Updater{filters: map[string]func(*fieldpath.Set) *fieldpath.Set{"v1": func(s *fieldpath.Set) *fieldpath.Set { return s }}}
	if filtered.prunesNothing(merged, same, same) {
		t.Error("an updater with field filters takes the shortcut")
	}

	// A skip that would have been wrong: m applied labels.z before and
	// not now, and nobody else owns it.
	managers := fieldpath.Managers{"m": {Set: fewer, APIVersion: "v1", Applied: true}}
	last := fieldpath.VersionedSet{Set: same, APIVersion: "v1", Applied: true}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "invariant broken") {
			t.Errorf("checkSkippedPrune did not catch a wrong skip: %v", r)
		}
	}()
	u.checkSkippedPrune(merged, managers, "m", last)
}

package merge_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

func widget(t testing.TB) *schema.Type { return testfixture.Widget(t) }

func obj(t testing.TB, w *schema.Type, src string) typed.Value {
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

func fields(t testing.TB, m fieldpath.VersionedSet) string {
	t.Helper()
	return string(m.Set.MarshalFieldsV1())
}

func updater(t testing.TB, opts ...merge.Option) *merge.Updater {
	t.Helper()
	u, err := merge.NewUpdater(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestApplyConflictsAndForce(t *testing.T) {
	w := widget(t)
	u := updater(t)
	live := obj(t, w, `null`)
	live, managers, err := u.Apply(live, obj(t, w, `{name: a, replicas: 1, labels: {x: y}}`), nil, merge.Writer{Manager: "kubectl", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fields(t, managers["kubectl"]); got != `{"f:labels":{"f:x":{}},"f:name":{},"f:replicas":{}}` {
		t.Errorf("kubectl owns %s", got)
	}
	before := managers.Copy()
	_, _, err = u.Apply(live, obj(t, w, `{replicas: 2, name: b}`), managers, merge.Writer{Manager: "hpa", APIVersion: "v1"})
	var cs merge.Conflicts
	if !errors.As(err, &cs) {
		t.Fatalf("want conflicts, got %v", err)
	}
	want := "conflicts with \"kubectl\":\n- .name\n- .replicas"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant:\n%s", err, want)
	}
	if !managers.Equal(before) {
		t.Error("a failed apply changed the managers it was given")
	}
	// One conflict reads as a single line.
	_, _, err = u.Apply(live, obj(t, w, `{replicas: 2}`), managers, merge.Writer{Manager: "hpa", APIVersion: "v1"})
	if err == nil || err.Error() != `conflict with "kubectl": .replicas` {
		t.Errorf("single conflict: %v", err)
	}
	// Equal values are shared, not conflicts.
	_, shared, err := u.Apply(live, obj(t, w, `{replicas: 1}`), managers, merge.Writer{Manager: "hpa", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if !shared["kubectl"].Set.Has(fieldpath.Path{fieldpath.FieldName("replicas")}) || !shared["hpa"].Set.Has(fieldpath.Path{fieldpath.FieldName("replicas")}) {
		t.Errorf("equal value should be co-owned: %v", shared)
	}
	// Forcing takes the field.
	forced, managers, err := u.Apply(live, obj(t, w, `{replicas: 2}`), managers, merge.Writer{Manager: "hpa", APIVersion: "v1"}, merge.Force())
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := forced.Value().Get("replicas"); r.AsInt() != 2 {
		t.Errorf("replicas = %v", r)
	}
	if got := fields(t, managers["kubectl"]); got != `{"f:labels":{"f:x":{}},"f:name":{}}` {
		t.Errorf("kubectl keeps %s", got)
	}
	if !managers["hpa"].Applied || managers["hpa"].APIVersion != "v1" {
		t.Errorf("hpa = %+v", managers["hpa"])
	}
}

func TestApplyPrunesAndNoop(t *testing.T) {
	w := widget(t)
	u := updater(t)
	live, managers, err := u.Apply(obj(t, w, `null`), obj(t, w, `{name: a, labels: {x: y, z: q}}`), nil, merge.Writer{Manager: "m", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	// Re-applying the same configuration changes nothing and returns the
	// live object itself.
	again, managers2, err := u.Apply(live, obj(t, w, `{name: a, labels: {x: y, z: q}}`), managers, merge.Writer{Manager: "m", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if !value.Equal(again.Value(), live.Value()) || !managers2.Equal(managers) {
		t.Error("a repeated apply changed something")
	}
	// Dropping a label removes it.
	pruned, _, err := u.Apply(live, obj(t, w, `{name: a, labels: {x: y}}`), managers, merge.Writer{Manager: "m", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(value.ToJSON(pruned.Value())); got != `{"labels":{"x":"y"},"name":"a"}` {
		t.Errorf("pruned = %s", got)
	}
	// ...unless someone else owns it.
	_, managers, err = u.Update(live, obj(t, w, `{name: a, labels: {x: y, z: r}}`), managers, merge.Writer{Manager: "ops", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fields(t, managers["ops"]); got != `{"f:labels":{"f:z":{}}}` {
		t.Errorf("ops owns %s", got)
	}
	if got := fields(t, managers["m"]); got != `{"f:labels":{"f:x":{}},"f:name":{}}` {
		t.Errorf("m owns %s after the update", got)
	}
}

func TestUpdateNeverConflicts(t *testing.T) {
	w := widget(t)
	u := updater(t)
	live, managers, err := u.Apply(obj(t, w, `null`), obj(t, w, `{name: a, replicas: 1}`), nil, merge.Writer{Manager: "kubectl", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	updated, managers, err := u.Update(live, obj(t, w, `{name: a, replicas: 5}`), managers, merge.Writer{Manager: "hpa", APIVersion: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := updated.Value().Get("replicas"); r.AsInt() != 5 {
		t.Errorf("replicas = %v", r)
	}
	if m := managers["hpa"]; m.Applied || m.APIVersion != "v2" || fields(t, m) != `{"f:replicas":{}}` {
		t.Errorf("hpa = %+v %s", m, fields(t, m))
	}
	// An update that empties a manager's set drops the manager.
	_, managers, err = u.Update(updated, obj(t, w, `{replicas: 5}`), managers, merge.Writer{Manager: "cleaner", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := managers["kubectl"]; ok {
		t.Errorf("kubectl should be gone: %v", managers.Names())
	}
}

type versions struct{ known map[string]bool }

var errNoVersion = errors.New("no such version")

func (c versions) Convert(v typed.Value, version string) (typed.Value, error) {
	if !c.known[version] {
		return typed.Value{}, fmt.Errorf("convert to %s: %w", version, errNoVersion)
	}
	return v, nil
}
func (c versions) IsMissingVersionError(err error) bool { return errors.Is(err, errNoVersion) }

func TestConverterDropsGoneVersions(t *testing.T) {
	w := widget(t)
	u := updater(t, merge.WithConverter(versions{map[string]bool{"v1": true}}))
	v, _ := value.FromYAML([]byte(`{replicas: 1}`))
	s, _ := typed.FieldSet(w, v)
	managers := fieldpath.Managers{"old": {Set: s, APIVersion: "v0"}, "cur": {Set: s, APIVersion: "v1", Applied: true}}
	_, out, err := u.Update(obj(t, w, `{name: a, replicas: 1}`), obj(t, w, `{name: b, replicas: 1}`), managers, merge.Writer{Manager: "x", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(out.Names(), ",") != "cur,x" {
		t.Errorf("managers = %v", out.Names())
	}
	if _, ok := managers["old"]; !ok {
		t.Error("the input map was modified")
	}
	if _, err := merge.NewUpdater(merge.WithConverter(nil)); err == nil {
		t.Error("a nil converter must be an error")
	}
}

func TestIgnoredFields(t *testing.T) {
	w := widget(t)
	ignored := map[string]*fieldpath.Set{"v1": fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("enabled")})}
	u := updater(t, merge.WithIgnoredFields(ignored))
	live, managers, err := u.Apply(obj(t, w, `null`), obj(t, w, `{name: a, enabled: true}`), nil, merge.Writer{Manager: "a", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fields(t, managers["a"]); got != `{"f:name":{}}` {
		t.Errorf("a owns %s", got)
	}
	// Nobody owns enabled, so changing it is no conflict.
	if _, _, err := u.Apply(live, obj(t, w, `{enabled: false}`), managers, merge.Writer{Manager: "b", APIVersion: "v1"}); err != nil {
		t.Errorf("ignored field conflicted: %v", err)
	}
}

func TestFieldFilter(t *testing.T) {
	w := widget(t)
	// Keep only name: a filter that selects, where WithIgnoredFields drops.
	keepName := func(s *fieldpath.Set) *fieldpath.Set {
		return s.Filter(func(p fieldpath.Path) bool { return p[0].Equal(fieldpath.FieldName("name")) })
	}
	u := updater(t, merge.WithFieldFilter(map[string]func(*fieldpath.Set) *fieldpath.Set{"v1": keepName}))
	live, managers, err := u.Apply(obj(t, w, `null`), obj(t, w, `{name: a, enabled: true}`), nil, merge.Writer{Manager: "a", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fields(t, managers["a"]); got != `{"f:name":{}}` {
		t.Errorf("a owns %s", got)
	}
	if _, _, err := u.Apply(live, obj(t, w, `{enabled: false}`), managers, merge.Writer{Manager: "b", APIVersion: "v1"}); err != nil {
		t.Errorf("filtered-out field conflicted: %v", err)
	}
	if _, _, err := u.Apply(live, obj(t, w, `{name: b}`), managers, merge.Writer{Manager: "b", APIVersion: "v1"}); err == nil {
		t.Error("a field the filter keeps did not conflict")
	}
	_, err = merge.NewUpdater(merge.WithFieldFilter(nil), merge.WithIgnoredFields(nil))
	if err == nil {
		t.Error("WithFieldFilter with WithIgnoredFields must be an error")
	}
}

// TestConcurrentApply shares one schema, one live object and one managers
// map between 8 goroutines that apply and update different configurations;
// under -race this shows that nothing shared is written. Each goroutine's
// result must equal the result of the same operation run alone.
func TestConcurrentApply(t *testing.T) {
	w := widget(t)
	u := updater(t)
	live, managers, err := u.Apply(obj(t, w, `null`), obj(t, w, `{name: a, containers: [{name: c, image: i}], labels: {a: b}, tags: [x]}`), nil, merge.Writer{Manager: "base", APIVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	configs := make([]typed.Value, 8)
	want := make([]value.Value, 8)
	wantManagers := make([]fieldpath.Managers, 8)
	for g := range configs {
		configs[g] = obj(t, w, fmt.Sprintf(`{containers: [{name: c%d, image: i%d}], labels: {g%d: v}, tags: [t%d]}`, g, g, g, g))
		out, m, err := u.Apply(live, configs[g], managers, merge.Writer{Manager: fmt.Sprintf("m%d", g), APIVersion: "v1"})
		if err != nil {
			t.Fatal(err)
		}
		want[g], wantManagers[g] = out.Value(), m
	}
	snapshot := value.ToJSON(live.Value())
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("m%d", g)
			for i := 0; i < 30; i++ {
				out, m, err := u.Apply(live, configs[g], managers, merge.Writer{Manager: name, APIVersion: "v1"})
				if err != nil {
					t.Error(err)
					return
				}
				if !value.Equal(out.Value(), want[g]) || !m.Equal(wantManagers[g]) {
					t.Errorf("goroutine %d: result differs from the serial one", g)
					return
				}
				if _, _, err := u.Apply(live, configs[g], managers, merge.Writer{Manager: name, APIVersion: "v1"}, merge.Force()); err != nil {
					t.Error(err)
					return
				}
				if _, _, err := u.Update(live, out, managers, merge.Writer{Manager: name, APIVersion: "v1"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if string(value.ToJSON(live.Value())) != string(snapshot) {
		t.Error("the shared live object changed")
	}
}

// TestZeroUpdater: a zero Updater behaves as NewUpdater() does, across
// versions too (it used to panic on its nil converter).
func TestZeroUpdater(t *testing.T) {
	w := widget(t)
	var zero merge.Updater
	u := updater(t)
	steps := []struct {
		apply            bool
		manager, version string
		src              string
	}{
		{true, "kubectl", "v1", `{name: a, replicas: 1}`},
		{false, "hpa", "v2", `{name: a, replicas: 3}`},
		{true, "kubectl", "v2", `{name: b}`},
	}
	liveZ, liveN := obj(t, w, `null`), obj(t, w, `null`)
	var mz, mn fieldpath.Managers
	for i, s := range steps {
		var errZ, errN error
		if s.apply {
			liveZ, mz, errZ = zero.Apply(liveZ, obj(t, w, s.src), mz, merge.Writer{Manager: s.manager, APIVersion: s.version})
			liveN, mn, errN = u.Apply(liveN, obj(t, w, s.src), mn, merge.Writer{Manager: s.manager, APIVersion: s.version})
		} else {
			liveZ, mz, errZ = zero.Update(liveZ, obj(t, w, s.src), mz, merge.Writer{Manager: s.manager, APIVersion: s.version})
			liveN, mn, errN = u.Update(liveN, obj(t, w, s.src), mn, merge.Writer{Manager: s.manager, APIVersion: s.version})
		}
		if (errZ == nil) != (errN == nil) || (errZ != nil && errZ.Error() != errN.Error()) {
			t.Fatalf("step %d: zero Updater error %v, NewUpdater's %v", i, errZ, errN)
		}
		if !value.Equal(liveZ.Value(), liveN.Value()) || !mz.Equal(mn) {
			t.Fatalf("step %d: zero Updater gives %v %v, NewUpdater %v %v", i, liveZ, mz, liveN, mn)
		}
	}
	if len(mz) != 2 {
		t.Errorf("managers after the steps: %v", mz)
	}
}

package merge_test

import (
	"testing"

	"github.com/structmerge/structmerge/merge"
)

// BenchmarkApplyUpdate is a second manager's apply and update on an object
// a first manager applied: the engine's per-call cost, allocations
// included, on a small object.
func BenchmarkApplyUpdate(b *testing.B) {
	w := widget(b)
	u := updater(b)
	live, managers, err := u.Apply(obj(b, w, `null`), obj(b, w, `{name: a, replicas: 1, labels: {x: y}}`), nil, merge.Writer{Manager: "kubectl", APIVersion: "v1"})
	if err != nil {
		b.Fatal(err)
	}
	cfg := obj(b, w, `{labels: {z: q}}`)
	upd := obj(b, w, `{name: a, replicas: 2, labels: {x: y}}`)
	b.Run("Apply", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := u.Apply(live, cfg, managers.Copy(), merge.Writer{Manager: "hpa", APIVersion: "v1"}, merge.Force()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Update", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := u.Update(live, upd, managers.Copy(), merge.Writer{Manager: "hpa", APIVersion: "v1"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

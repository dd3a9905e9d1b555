package bench

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
	smdtyped "sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// keyedListSchema has one root struct holding a long associative list
// keyed by name, the shape of a large ConfigMap-like or Endpoints-like
// object where the cost per item decides whether an apply scales.
const keyedListSchema = `types:
- name: root
  map:
    fields:
    - name: items
      type:
        list:
          elementType:
            namedType: item
          elementRelationship: associative
          keys:
          - name
- name: item
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: string
    - name: extra
      type:
        scalar: string
`

// keyedListSizes are the item counts of BenchmarkKeyedList.
var keyedListSizes = []int{1000, 10000, 100000}

// keyedListConfigs returns, as decoded maps, the configuration manager "a"
// applies first (n items with name and value) and the one manager "b"
// applies second (the same n names, each with extra set).
func keyedListConfigs(n int) (first, second map[string]any) {
	a := make([]any, n)
	b := make([]any, n)
	for i := range n {
		name := "item-" + strconv.Itoa(i)
		a[i] = map[string]any{"name": name, "value": "value-" + strconv.Itoa(i)}
		b[i] = map[string]any{"name": name, "extra": "extra-" + strconv.Itoa(i)}
	}
	return map[string]any{"items": a}, map[string]any{"items": b}
}

// smdKeyed is SMD's input for one size: the configurations, the empty live
// object, FirstApply's result, and SecondApply's live object: FirstApply's
// result decoded afresh from its JSON, as a server reads it from storage.
type smdKeyed struct {
	updater        *smdmerge.Updater
	empty          *smdtyped.TypedValue
	first, second  *smdtyped.TypedValue
	firstLive      *smdtyped.TypedValue
	live           *smdtyped.TypedValue
	liveManagers   smdfieldpath.ManagedFields
	secondLive     *smdtyped.TypedValue
	secondManagers smdfieldpath.ManagedFields
}

func newSMDKeyed(tb testing.TB, n int) *smdKeyed {
	tb.Helper()
	p, err := smdtyped.NewParser(keyedListSchema)
	if err != nil {
		tb.Fatal(err)
	}
	pt := p.Type("root")
	first, second := keyedListConfigs(n)
	k := &smdKeyed{updater: (&smdmerge.UpdaterBuilder{Converter: noConversion{}}).BuildUpdater()}
	if k.empty, err = pt.FromUnstructured(nil); err != nil {
		tb.Fatal(err)
	}
	if k.first, err = pt.FromUnstructured(first); err != nil {
		tb.Fatal(err)
	}
	if k.second, err = pt.FromUnstructured(second); err != nil {
		tb.Fatal(err)
	}
	if k.firstLive, k.liveManagers, err = k.firstApply(); err != nil {
		tb.Fatal(err)
	}
	if k.live, err = pt.FromUnstructured(storedObject(tb, k.firstLive.AsValue().Unstructured()), smdtyped.AllowDuplicates); err != nil {
		tb.Fatal(err)
	}
	if k.secondLive, k.secondManagers, err = k.secondApply(); err != nil {
		tb.Fatal(err)
	}
	return k
}

// storedObject is obj as a server reads it back from storage: encoded to
// JSON and decoded to a fresh map[string]any.
func storedObject(tb testing.TB, obj any) map[string]any {
	tb.Helper()
	js, err := json.Marshal(obj)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := utiljson.Unmarshal(js, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

func (k *smdKeyed) firstApply() (*smdtyped.TypedValue, smdfieldpath.ManagedFields, error) {
	out, m, err := k.updater.Apply(k.empty, k.first, "v1", smdfieldpath.ManagedFields{}, "a", false)
	if err == nil && out == nil {
		err = fmt.Errorf("first apply changed nothing")
	}
	return out, m, err
}

func (k *smdKeyed) secondApply() (*smdtyped.TypedValue, smdfieldpath.ManagedFields, error) {
	// SMD's Apply writes the applier's entry into the managers it is
	// given, so each apply gets its own copy of the live managers.
	managers := make(smdfieldpath.ManagedFields, len(k.liveManagers))
	for n, s := range k.liveManagers {
		managers[n] = s
	}
	out, m, err := k.updater.Apply(k.live, k.second, "v1", managers, "b", false)
	if err == nil && out == nil {
		err = fmt.Errorf("second apply changed nothing")
	}
	return out, m, err
}

// smKeyed is structmerge's input for one size, as smdKeyed.
type smKeyed struct {
	updater        *merge.Updater
	empty          typed.Value
	first, second  typed.Value
	firstLive      typed.Value
	live           typed.Value
	liveManagers   fieldpath.Managers
	secondLive     typed.Value
	secondManagers fieldpath.Managers
}

func newSMKeyed(tb testing.TB, n int) *smKeyed {
	tb.Helper()
	s, err := schema.CompileYAML([]byte(keyedListSchema))
	if err != nil {
		tb.Fatal(err)
	}
	t, ok := s.Type("root")
	if !ok {
		tb.Fatal("no type root")
	}
	first, second := keyedListConfigs(n)
	k := &smKeyed{}
	if k.updater, err = merge.NewUpdater(); err != nil {
		tb.Fatal(err)
	}
	if k.empty, err = typed.New(t, value.Value{}, typed.AllowDuplicates()); err != nil {
		tb.Fatal(err)
	}
	if k.first, err = typed.New(t, smValue(tb, first)); err != nil {
		tb.Fatal(err)
	}
	if k.second, err = typed.New(t, smValue(tb, second)); err != nil {
		tb.Fatal(err)
	}
	if k.firstLive, k.liveManagers, err = k.firstApply(); err != nil {
		tb.Fatal(err)
	}
	if k.live, err = typed.New(t, smValue(tb, storedObject(tb, k.firstLive.Value().Unstructured())), typed.AllowDuplicates()); err != nil {
		tb.Fatal(err)
	}
	if k.secondLive, k.secondManagers, err = k.secondApply(); err != nil {
		tb.Fatal(err)
	}
	return k
}

func (k *smKeyed) firstApply() (typed.Value, fieldpath.Managers, error) {
	return k.updater.Apply(k.empty, k.first, nil, merge.Writer{Manager: "a", APIVersion: "v1"})
}

func (k *smKeyed) secondApply() (typed.Value, fieldpath.Managers, error) {
	// Copied as SMD's are, so that both do the same work per apply;
	// structmerge does not modify its arguments.
	return k.updater.Apply(k.live, k.second, k.liveManagers.Copy(), merge.Writer{Manager: "b", APIVersion: "v1"})
}

// BenchmarkKeyedList applies configurations with many items of one keyed
// list: FirstApply creates n items from nothing (manager "a"); SecondApply
// starts from FirstApply's result (read back as from storage, so that it
// shares no memory with either configuration) and has manager "b" set a
// field "a" does not own on every item, so it merges n items into n items
// without conflicts. Each configuration is built from its own decoded map
// and validated outside the timed loop. Per-item time across sizes shows
// how each library scales.
//
// Each library's inputs for a size are built on first use, shared by its
// two rows, and dropped (with a collection) before the other library's
// rows run: at 100,000 items the inputs are hundreds of megabytes, and a
// library measured while the other's are alive pays for marking them in
// every collection its own garbage causes.
func BenchmarkKeyedList(b *testing.B) {
	for _, n := range keyedListSizes {
		prefix := strconv.Itoa(n) + "/"
		var smdIn *smdKeyed
		smd := func(b *testing.B) *smdKeyed {
			if smdIn == nil {
				smdIn = newSMDKeyed(b, n)
			}
			return smdIn
		}
		b.Run(prefix+"FirstApply/smd", func(b *testing.B) {
			k := smd(b)
			bench(b, func() error { _, _, err := k.firstApply(); return err })
		})
		b.Run(prefix+"SecondApply/smd", func(b *testing.B) {
			k := smd(b)
			bench(b, func() error { _, _, err := k.secondApply(); return err })
		})
		smdIn = nil
		runtime.GC()
		var smIn *smKeyed
		sm := func(b *testing.B) *smKeyed {
			if smIn == nil {
				smIn = newSMKeyed(b, n)
			}
			return smIn
		}
		b.Run(prefix+"FirstApply/structmerge", func(b *testing.B) {
			k := sm(b)
			bench(b, func() error { _, _, err := k.firstApply(); return err })
		})
		b.Run(prefix+"SecondApply/structmerge", func(b *testing.B) {
			k := sm(b)
			bench(b, func() error { _, _, err := k.secondApply(); return err })
		})
		smIn = nil
		runtime.GC()
	}
}

// TestKeyedListAgree checks that both libraries end BenchmarkKeyedList's
// applies (at its smallest size) with the same object and managers.
func TestKeyedListAgree(t *testing.T) {
	n := keyedListSizes[0]
	smd := newSMDKeyed(t, n)
	sm := newSMKeyed(t, n)
	for _, c := range []struct {
		name       string
		smdLive    *smdtyped.TypedValue
		smdManager smdfieldpath.ManagedFields
		smLive     typed.Value
		smManagers fieldpath.Managers
	}{
		{"FirstApply", smd.firstLive, smd.liveManagers, sm.firstLive, sm.liveManagers},
		{"SecondApplyLive", smd.live, smd.liveManagers, sm.live, sm.liveManagers},
		{"SecondApply", smd.secondLive, smd.secondManagers, sm.secondLive, sm.secondManagers},
	} {
		t.Run(c.name, func(t *testing.T) {
			smdRes, err := smdState(c.smdLive, c.smdManager)
			if err != nil {
				t.Fatal(err)
			}
			smRes := smState(c.smLive, c.smManagers)
			compareResults(t, smdRes, smRes)
		})
	}
	// Equal work: SecondApply's live object is FirstApply's result on both
	// sides (checked above), and no input of an apply shares a list or map
	// with another, so neither library can recognise one as the other.
	if n := sharedValueNodes(sm.second.Value(), sm.live.Value(), sm.first.Value()); n != 0 {
		t.Errorf("structmerge: the second configuration shares %d lists or maps with the live object or the first", n)
	}
	if n := sharedValueNodes(sm.live.Value(), sm.first.Value(), sm.firstLive.Value()); n != 0 {
		t.Errorf("structmerge: SecondApply's live object shares %d lists or maps with FirstApply's", n)
	}
	smdU := func(tv *smdtyped.TypedValue) any { return tv.AsValue().Unstructured() }
	if n := sharedUnstructuredNodes(smdU(smd.second), smdU(smd.live), smdU(smd.first)); n != 0 {
		t.Errorf("smd: the second configuration shares %d lists or maps with the live object or the first", n)
	}
	if n := sharedUnstructuredNodes(smdU(smd.live), smdU(smd.first), smdU(smd.firstLive)); n != 0 {
		t.Errorf("smd: SecondApply's live object shares %d lists or maps with FirstApply's", n)
	}
	// The check sees sharing where there is some: FirstApply's result is
	// its configuration.
	if sharedValueNodes(sm.firstLive.Value(), sm.first.Value()) == 0 {
		t.Error("structmerge: FirstApply's result is not seen to share its configuration's lists")
	}
	// The second apply really touched every item and left both owners.
	res := smState(sm.secondLive, sm.secondManagers)
	if want := fmt.Sprintf(`"extra":"extra-%d"`, n-1); !strings.Contains(res.object, want) {
		t.Errorf("second apply's object lacks %s", want)
	}
	if !strings.HasPrefix(res.managers, "a v1 true ") || !strings.Contains(res.managers, "\nb v1 true ") {
		t.Errorf("managers are not a and b:\n%.300s", res.managers)
	}
}

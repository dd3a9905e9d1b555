package bridge

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

var viewDocs = []string{
	`null`, `true`, `false`, `0`, `-7`, `1.5`, `""`, `"x"`, `[]`, `{}`,
	`{"a":1,"b":[1,2.5,"s",null,true,{"c":{}}],"c":{"d":{"e":[[]]}},"z":null}`,
	`[{"k":"a","v":1},{"k":"b","v":[{"x":{"y":"z"}}]}]`,
	`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"x"}},"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}`,
}

// goData is the oracle: the same data as Go values under SMD's own value
// (NewValueReflect makes integers int64 and other numbers float64, as
// structmerge's FromJSON does).
func goData(t *testing.T, doc string) value.Value {
	t.Helper()
	var u interface{}
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	if err := d.Decode(&u); err != nil {
		t.Fatal(err)
	}
	v, err := value.NewValueReflect(u)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// sameAs checks every reading method of got against want, all the way
// down.
func sameAs(t *testing.T, at string, got, want value.Value) {
	t.Helper()
	kinds := func(v value.Value) [7]bool {
		return [7]bool{v.IsMap(), v.IsList(), v.IsBool(), v.IsInt(), v.IsFloat(), v.IsString(), v.IsNull()}
	}
	if kinds(got) != kinds(want) {
		t.Fatalf("%s: kinds %v, want %v", at, kinds(got), kinds(want))
	}
	if !value.Equals(got, want) || !value.Equals(want, got) || value.Compare(got, want) != 0 {
		t.Errorf("%s: %s not equal to %s", at, value.ToString(got), value.ToString(want))
	}
	if gs, ws := value.ToString(got), value.ToString(want); gs != ws {
		t.Errorf("%s: ToString %s, want %s", at, gs, ws)
	}
	if !value.Equals(value.NewValueInterface(got.Unstructured()), want) {
		t.Errorf("%s: Unstructured %v, want %v", at, got.Unstructured(), want.Unstructured())
	}
	switch {
	case want.IsBool():
		if got.AsBool() != want.AsBool() {
			t.Errorf("%s: AsBool", at)
		}
	case want.IsInt():
		if got.AsInt() != want.AsInt() {
			t.Errorf("%s: AsInt %d, want %d", at, got.AsInt(), want.AsInt())
		}
	case want.IsFloat():
		if got.AsFloat() != want.AsFloat() {
			t.Errorf("%s: AsFloat", at)
		}
	case want.IsString():
		if got.AsString() != want.AsString() {
			t.Errorf("%s: AsString", at)
		}
	case want.IsList():
		gl, wl := got.AsList(), want.AsList()
		if gl.Length() != wl.Length() || !gl.Equals(wl) || !wl.Equals(gl) {
			t.Fatalf("%s: lists differ", at)
		}
		n := 0
		for r := gl.Range(); r.Next(); n++ {
			i, item := r.Item()
			if i != n {
				t.Fatalf("%s: Range gave index %d, want %d", at, i, n)
			}
			sameAs(t, fmt.Sprintf("%s[%d]", at, i), item, wl.At(i))
			sameAs(t, fmt.Sprintf("%s[%d]", at, i), gl.At(i), wl.At(i))
		}
		if n != wl.Length() {
			t.Errorf("%s: Range gave %d items, want %d", at, n, wl.Length())
		}
	case want.IsMap():
		gm, wm := got.AsMap(), want.AsMap()
		if gm.Length() != wm.Length() || gm.Empty() != wm.Empty() || !gm.Equals(wm) || !wm.Equals(gm) {
			t.Fatalf("%s: maps differ", at)
		}
		var keys []string
		gm.Iterate(func(k string, v value.Value) bool {
			keys = append(keys, k)
			w, ok := wm.Get(k)
			if !ok {
				t.Fatalf("%s: extra key %q", at, k)
			}
			sameAs(t, at+"."+k, v, w)
			return true
		})
		if !sort.StringsAreSorted(keys) || len(keys) != wm.Length() {
			t.Errorf("%s: Iterate gave keys %v", at, keys)
		}
		wm.Iterate(func(k string, w value.Value) bool {
			v, ok := gm.Get(k)
			if !ok || !gm.Has(k) {
				t.Fatalf("%s: missing key %q", at, k)
			}
			sameAs(t, at+"."+k, v, w)
			return true
		})
		if _, ok := gm.Get("no such key"); ok || gm.Has("no such key") {
			t.Errorf("%s: a missing key is present", at)
		}
		zipped := 0
		gm.Zip(wm, value.LexicalKeyOrder, func(k string, l, r value.Value) bool {
			zipped++
			if l == nil || r == nil || !value.Equals(l, r) {
				t.Errorf("%s: Zip at %q: %v, %v", at, k, l, r)
			}
			return true
		})
		if zipped != wm.Length() {
			t.Errorf("%s: Zip visited %d keys, want %d", at, zipped, wm.Length())
		}
	}
}

// TestView: a view of structmerge's value reads exactly as SMD's value of
// the same Go data does, and writes into one of its maps stay in that map.
func TestView(t *testing.T) {
	for _, doc := range viewDocs {
		cv, err := corevalue.FromJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		sameAs(t, doc, View(cv), goData(t, doc))
	}

	cv, err := corevalue.FromJSON([]byte(`{"a":1,"b":{"c":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	v := View(cv)
	m := v.AsMap()
	m.Set("x", value.NewValueInterface("y"))
	m.Delete("a")
	// (Both sides are Go maps here, whose order is Go's: compare them as
	// values, not with sameAs, which holds a view to its key order.)
	if want, got := value.NewValueInterface(map[string]interface{}{"b": map[string]interface{}{"c": int64(2)}, "x": "y"}), value.NewValueInterface(mapOf(t, m)); !value.Equals(got, want) || !m.Has("x") || m.Has("a") || m.Length() != 2 {
		t.Errorf("after Set and Delete: %s, want %s", value.ToString(got), value.ToString(want))
	}
	if got := cv.String(); got != `{"a":1,"b":{"c":2}}` {
		t.Errorf("a write through the view changed the value: %s", got)
	}
	sameAs(t, "the view after a write into one of its maps", v, goData(t, `{"a":1,"b":{"c":2}}`))

	// Views of one value read from many goroutines.
	big, err := corevalue.FromJSON([]byte(viewDocs[len(viewDocs)-1]))
	if err != nil {
		t.Fatal(err)
	}
	want := goData(t, viewDocs[len(viewDocs)-1])
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !value.Equals(View(big), want) {
				t.Error("a concurrent view differs")
			}
		}()
	}
	wg.Wait()
}

func mapOf(t *testing.T, m value.Map) map[string]interface{} {
	t.Helper()
	out := map[string]interface{}{}
	m.Iterate(func(k string, v value.Value) bool {
		out[k] = v.Unstructured()
		return true
	})
	return out
}

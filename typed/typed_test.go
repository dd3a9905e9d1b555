package typed_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

func widget(t testing.TB) *schema.Type { return testfixture.Widget(t) }

// compileType compiles a schema and returns its type name.
func compileType(t testing.TB, schemaYAML []byte, name string) *schema.Type {
	t.Helper()
	s, err := schema.CompileYAML(schemaYAML)
	if err != nil {
		t.Fatal(err)
	}
	typ, ok := s.Type(name)
	if !ok {
		t.Fatalf("no type %s", name)
	}
	return typ
}

func yv(t testing.TB, src string) value.Value {
	t.Helper()
	v, err := value.FromYAML([]byte(src))
	if err != nil {
		t.Fatalf("bad test YAML %q: %v", src, err)
	}
	return v
}

func paths(t testing.TB, s *fieldpath.Set) string {
	t.Helper()
	var out []string
	for p := range s.All() {
		out = append(out, p.String())
	}
	return strings.Join(out, " ")
}

func TestValidate(t *testing.T) {
	w := widget(t)
	tests := []struct {
		name, obj string
		dupOK     bool
		want      []string // error substrings, in order; none means valid
		kind      typed.ErrorKind
	}{
		{name: "valid", obj: `{name: w, replicas: 3, tags: [a, b], containers: [{name: c, image: i}], ports: [{port: 80}]}`},
		{name: "null fields are fine", obj: `{name: null, spec: null, containers: null}`},
		{name: "wrong scalar", obj: `{replicas: "three"}`, want: []string{".replicas: expected numeric (int or float), got string"}, kind: typed.WrongKind},
		{name: "unknown field", obj: `{bogus: 1}`, want: []string{".bogus: field not declared in schema"}, kind: typed.UnknownField},
		{name: "all problems reported sorted", obj: `{zeta: 1, enabled: "x", alpha: 2}`, want: []string{".alpha: field not declared", ".enabled: expected boolean, got string", ".zeta: field not declared"}},
		{name: "duplicate key", obj: `{containers: [{name: a}, {name: a}]}`, want: []string{`.containers: duplicate entries for key [name="a"]`}, kind: typed.DuplicateKey},
		{name: "duplicate key allowed", obj: `{containers: [{name: a}, {name: a}]}`, dupOK: true},
		{name: "duplicate set member", obj: `{tags: [a, a]}`, want: []string{`.tags: duplicate entries for key [="a"]`}, kind: typed.DuplicateKey},
		{name: "item without keys", obj: `{containers: [{image: x}]}`, want: []string{`.containers: element 0: associative list with keys has an element that omits all key fields ["name"]`}, kind: typed.InvalidListItem},
		{name: "defaulted key is enough", obj: `{ports: [{port: 80}, {port: 80, protocol: UDP}]}`},
		{name: "defaulted key collides", obj: `{ports: [{port: 80}, {port: 80, protocol: TCP}]}`, want: []string{`duplicate entries for key [port=80,protocol="TCP"]`}},
		{name: "null item", obj: `{containers: [null]}`, want: []string{"may not have a null element"}},
		{name: "map in a set", obj: `{tags: [{a: 1}]}`, want: []string{"element that's a map type"}},
		{name: "nested error path", obj: `{containers: [{name: c, env: [{name: e, value: 3}]}]}`, want: []string{`.containers[name="c"].env[name="e"].value: expected string, got int`}},
		{name: "list where map wanted", obj: `{spec: [1]}`, want: []string{".spec: expected map, got list"}},
		{name: "deduced accepts anything", obj: `{extra: {a: [1, {b: c}], d: true}}`},
		{name: "atomic list items still checked", obj: `{args: [1]}`, want: []string{".args[0]: expected string, got int"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var opts []typed.ValidateOption
			if tc.dupOK {
				opts = append(opts, typed.AllowDuplicates())
			}
			err := typed.Validate(w, yv(t, tc.obj), opts...)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			msg := err.Error()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error %q lacks %q (in order)", msg, w)
				}
				at += i + len(w)
			}
			if tc.kind != 0 && !typed.HasKind(err, tc.kind) {
				t.Errorf("error %v is not of kind %v", err, tc.kind)
			}
			// errors.Is sees the kind through wrapping, and only that kind
			// among those the error holds.
			wrapped := fmt.Errorf("wrapped: %w", err)
			for k := typed.WrongKind; k <= typed.SchemaProblem; k++ {
				var holds bool
				var errs typed.Errors
				if errors.As(err, &errs) {
					for _, e := range errs {
						holds = holds || e.Kind == k
					}
				}
				if errors.Is(wrapped, k) != holds {
					t.Errorf("errors.Is(%v, %v) = %v", err, k, !holds)
				}
			}
		})
	}
}

func TestFieldSet(t *testing.T) {
	w := widget(t)
	tests := []struct{ obj, want string }{
		{`{name: w}`, `.name`},
		{`{spec: {image: i, limits: {cpu: "1"}}}`, `.spec.image .spec.limits.cpu`},
		{`{config: {a: b}}`, `.config`},
		{`{labels: {a: b, c: d}}`, `.labels.a .labels.c`},
		{`{tags: [x, y]}`, `.tags[="x"] .tags[="y"]`},
		{`{containers: [{name: c, image: i}]}`, `.containers[name="c"] .containers[name="c"].image .containers[name="c"].name`},
		{`{ports: [{port: 80}]}`, `.ports[port=80,protocol="TCP"] .ports[port=80,protocol="TCP"].port`},
		{`{spec: {}, name: null}`, `.name .spec`},
		{`{containers: []}`, ``},
		{`{extra: {a: {b: 1}, l: [1, 2]}}`, `.extra.a .extra.l .extra.a.b`},
		{`{containers: [{name: a, image: x}, {name: a, image: y}]}`, `.containers[name="a"]`},
		{`{owner: {kind: k, name: n}}`, `.owner`},
	}
	for _, tc := range tests {
		t.Run(tc.obj, func(t *testing.T) {
			s, err := typed.FieldSet(w, yv(t, tc.obj))
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(t, s); got != tc.want {
				t.Errorf("FieldSet(%s) = %q, want %q", tc.obj, got, tc.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	w := widget(t)
	tests := []struct{ lhs, rhs, added, modified, removed string }{
		{`{}`, `{name: a}`, `.name`, ``, ``},
		{`{name: a}`, `{name: b}`, ``, `.name`, ``},
		{`{name: a}`, `{}`, ``, ``, `.name`},
		{`{replicas: 1}`, `{replicas: 1.0}`, ``, ``, ``},
		{`{config: {a: b}}`, `{config: {a: c}}`, ``, `.config`, ``},
		{`{containers: [{name: a}, {name: b}]}`, `{containers: [{name: b}, {name: c, image: i}]}`,
			`.containers[name="c"] .containers[name="c"].image .containers[name="c"].name`, ``,
			`.containers[name="a"] .containers[name="a"].name`},
		{`{tags: [a, b]}`, `{tags: [b, a]}`, ``, ``, ``},
		{`{spec: {image: i}}`, `{spec: null}`, ``, ``, `.spec.image`},
		{`{extra: {a: 1}}`, `{extra: "s"}`, ``, `.extra`, `.extra.a`},
	}
	for _, tc := range tests {
		t.Run(tc.lhs+"->"+tc.rhs, func(t *testing.T) {
			c, err := typed.Compare(w, yv(t, tc.lhs), yv(t, tc.rhs))
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(t, c.Added); got != tc.added {
				t.Errorf("added = %q, want %q", got, tc.added)
			}
			if got := paths(t, c.Modified); got != tc.modified {
				t.Errorf("modified = %q, want %q", got, tc.modified)
			}
			if got := paths(t, c.Removed); got != tc.removed {
				t.Errorf("removed = %q, want %q", got, tc.removed)
			}
			if c.IsSame() != (tc.added == "" && tc.modified == "" && tc.removed == "") {
				t.Errorf("IsSame = %v", c.IsSame())
			}
		})
	}
}

func TestMerge(t *testing.T) {
	w := widget(t)
	tests := []struct{ live, config, want string }{
		{`{name: a, replicas: 1}`, `{replicas: 2}`, `{name: a, replicas: 2}`},
		{`{config: {a: b, c: d}}`, `{config: {x: y}}`, `{config: {x: y}}`},
		{`{labels: {a: b, c: d}}`, `{labels: {x: y}}`, `{labels: {a: b, c: d, x: y}}`},
		{`{args: [a, b]}`, `{args: [c]}`, `{args: [c]}`},
		{`{tags: [a, b]}`, `{tags: [c, a]}`, `{tags: [c, a, b]}`},
		{`{containers: [{name: a, image: x}, {name: b}]}`, `{containers: [{name: b, image: y}, {name: a}]}`, `{containers: [{name: b, image: y}, {name: a, image: x}]}`},
		{`{containers: [{name: a}, {name: b}, {name: c}]}`, `{containers: [{name: c}, {name: d}]}`, `{containers: [{name: a}, {name: b}, {name: c}, {name: d}]}`},
		{`{spec: {image: i}}`, `{spec: null}`, `{spec: {image: i}}`}, // a null does not clear a granular map
		{`null`, `{name: a}`, `{name: a}`},
		{`{containers: [{name: a, image: x}, {name: a, image: y}]}`, `{containers: [{name: a, image: z}]}`, `{containers: [{name: a, image: z}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.live+"+"+tc.config, func(t *testing.T) {
			live, cfg := yv(t, tc.live), yv(t, tc.config)
			gotT, err := typed.NewUnvalidated(w, live).Merge(typed.NewUnvalidated(w, cfg))
			got := gotT.Value()
			if err != nil {
				t.Fatal(err)
			}
			if want := yv(t, tc.want); !value.Equal(got, want) {
				t.Errorf("Merge = %s, want %s", value.ToJSON(got), value.ToJSON(want))
			}
			// The inputs are untouched.
			if !value.Equal(live, yv(t, tc.live)) || !value.Equal(cfg, yv(t, tc.config)) {
				t.Error("Merge modified an input")
			}
		})
	}
	if _, err := typed.NewUnvalidated(w, yv(t, `{}`)).Merge(typed.NewUnvalidated(w, yv(t, `{containers: [{name: a}, {name: a}]}`))); err == nil || !strings.Contains(err.Error(), "duplicate entries") {
		t.Errorf("duplicate keys in the configuration: err = %v", err)
	}
}

func set(t testing.TB, ps ...string) *fieldpath.Set {
	var b fieldpath.Builder
	for _, s := range ps {
		p, err := fieldpath.ParsePath(s)
		if err != nil {
			t.Fatal(err)
		}
		b.Insert(p)
	}
	return b.Build()
}

func TestRemoveItems(t *testing.T) {
	w := widget(t)
	tests := []struct {
		obj   string
		paths []string
		want  string
	}{
		{`{name: a, replicas: 1}`, []string{".name"}, `{replicas: 1}`},
		{`{spec: {image: i, paused: true}}`, []string{".spec.image"}, `{spec: {paused: true}}`},
		{`{labels: {a: b}}`, []string{".labels.a"}, `{labels: null}`},
		{`{containers: [{name: a}, {name: b}]}`, []string{`.containers[name="a"]`}, `{containers: [{name: b}]}`},
		{`{tags: [x, y]}`, []string{`.tags[="x"]`, `.tags[="y"]`}, `{tags: null}`},
		// An item that stays keeps its key fields and stays a map.
		{`{containers: [{name: c, image: i}]}`, []string{`.containers[name="c"].name`}, `{containers: [{name: c, image: i}]}`},
		{`{ports: [{port: 80, name: web}]}`, []string{`.ports[port=80,protocol="TCP"].name`, `.ports[port=80,protocol="TCP"].port`}, `{ports: [{port: 80}]}`},
		{`{name: a}`, nil, `{name: a}`},
		{`{name: a}`, []string{".name"}, `null`},
	}
	for _, tc := range tests {
		t.Run(tc.obj, func(t *testing.T) {
			got := typed.RemoveItems(w, yv(t, tc.obj), set(t, tc.paths...))
			if want := yv(t, tc.want); !value.Equal(got, want) {
				t.Errorf("RemoveItems = %s, want %s", value.ToJSON(got), value.ToJSON(want))
			}
		})
	}
}

func TestExtractItems(t *testing.T) {
	w := widget(t)
	obj := yv(t, `{name: a, spec: {image: i, paused: true}, containers: [{name: c, image: x, args: [p]}, {name: d}]}`)
	got := typed.ExtractItems(w, obj, set(t, ".spec", `.containers[name="c"].image`), typed.WithKeyFields())
	want := yv(t, `{spec: {image: i, paused: true}, containers: [{name: c, image: x}]}`)
	if !value.Equal(got, want) {
		t.Errorf("ExtractItems = %s, want %s", value.ToJSON(got), value.ToJSON(want))
	}
	got = typed.ExtractItems(w, obj, set(t, `.containers[name="c"].image`))
	want = yv(t, `{containers: [{image: x}]}`)
	if !value.Equal(got, want) {
		t.Errorf("ExtractItems without keys = %s, want %s", value.ToJSON(got), value.ToJSON(want))
	}
}

func TestEnsureNamedFieldsAreMembers(t *testing.T) {
	w := widget(t)
	got := own.Typed.EnsureNamedFieldsAreMembers(w, set(t, ".spec.limits.cpu", ".labels.a", `.containers[name="c"].env[name="e"].value`))
	want := `.containers .labels .spec .containers[name="c"].env .containers[name="c"].env[name="e"].value .labels.a .spec.limits .spec.limits.cpu`
	if p := paths(t, got); p != want {
		t.Errorf("got %q\nwant %q", p, want)
	}
}

func TestReconcileFieldSet(t *testing.T) {
	before := `types:
- name: root
  map:
    fields:
    - name: m
      type:
        map:
          elementType: {scalar: string}
          elementRelationship: %s
    - name: l
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: %s
`
	compile := func(rel1, rel2 string) *schema.Type {
		s, err := schema.CompileYAML([]byte(sprintf(before, rel1, rel2)))
		if err != nil {
			t.Fatal(err)
		}
		r, _ := s.Type("root")
		return r
	}
	granular := compile("separable", "associative")
	atomic := compile("atomic", "atomic")
	owned := set(t, ".m.a", ".m.b", `.l[="x"]`)
	if got, err := typed.ReconcileFieldSet(granular, owned); err != nil || got != nil {
		t.Errorf("unchanged schema: got %v, %v; want nil, nil", got, err)
	}
	got, err := typed.ReconcileFieldSet(atomic, owned)
	if err != nil {
		t.Fatal(err)
	}
	if p := paths(t, got); p != ".l .m" {
		t.Errorf("now atomic: got %q, want %q", p, ".l .m")
	}
}

func sprintf(format string, args ...string) string {
	for _, a := range args {
		format = strings.Replace(format, "%s", a, 1)
	}
	return format
}

// TestConcurrentUse runs every operation from 8 goroutines on one shared
// type and shared values; under -race this proves nothing is written.
func TestConcurrentUse(t *testing.T) {
	w := widget(t)
	live := yv(t, `{name: a, containers: [{name: c, image: i, env: [{name: e, value: v}]}], tags: [x], labels: {a: b}, extra: {k: [1]}}`)
	cfg := yv(t, `{name: b, containers: [{name: d}, {name: c, image: j}], tags: [y], labels: {c: d}}`)
	rm := set(t, `.containers[name="c"].env`, ".labels.a")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := typed.Validate(w, live); err != nil {
					t.Error(err)
					return
				}
				s, err := typed.FieldSet(w, live)
				if err != nil {
					t.Error(err)
					return
				}
				mT, err := typed.NewUnvalidated(w, live).Merge(typed.NewUnvalidated(w, cfg))
				m := mT.Value()
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := typed.Compare(w, live, m); err != nil {
					t.Error(err)
					return
				}
				typed.RemoveItems(w, m, rm)
				typed.ExtractItems(w, m, s, typed.WithKeyFields())
				own.Typed.EnsureNamedFieldsAreMembers(w, s)
			}
		}()
	}
	wg.Wait()
}

// TestResultsOwnTheirMemory checks that results do not share the scratch
// memory walks reuse: results computed first must read the same after many
// other walks, from several goroutines, have reused that memory.
func TestResultsOwnTheirMemory(t *testing.T) {
	w := widget(t)
	live := yv(t, `{name: a, containers: [{name: c, image: i, env: [{name: e, value: v}]}, {name: c2}], tags: [x, z], labels: {a: b}}`)
	cfg := yv(t, `{name: b, containers: [{name: d}, {name: c, image: j}], tags: [y], labels: {c: d}}`)
	bad := yv(t, `{containers: [{image: i}, {name: 1, env: 3}], tags: [[1]]}`)
	fs, err := typed.FieldSet(w, live)
	if err != nil {
		t.Fatal(err)
	}
	mT, err := typed.NewUnvalidated(w, live).Merge(typed.NewUnvalidated(w, cfg))
	m := mT.Value()
	if err != nil {
		t.Fatal(err)
	}
	c, err := typed.Compare(w, live, m)
	if err != nil {
		t.Fatal(err)
	}
	verr := typed.Validate(w, bad)
	if verr == nil {
		t.Fatal("no validation error for a bad value")
	}
	snapshot := func() string {
		return fs.String() + "|" + string(value.ToJSON(m)) + "|" + c.String() + "|" + verr.Error()
	}
	before := snapshot()
	others := []value.Value{
		yv(t, `{name: q, containers: [{name: zz, image: k, env: [{name: f, value: w}, {name: g}]}], tags: [p, q, r]}`),
		yv(t, `{containers: [{name: yy}, {name: xx, env: [{name: h}]}], labels: {x: y, z: w}}`),
		bad,
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				a, b := others[(g+i)%3], others[(g+i+1)%3]
				_ = typed.Validate(w, a)
				_, _ = typed.FieldSet(w, a)
				_, _ = typed.NewUnvalidated(w, a).Merge(typed.NewUnvalidated(w, b))
				_, _ = typed.Compare(w, a, b)
			}
		}()
	}
	wg.Wait()
	if after := snapshot(); after != before {
		t.Errorf("results changed after other walks:\nbefore %s\nafter  %s", before, after)
	}
}

// TestScratchLeftClean checks that walks leave the pooled scratch memory
// cleared, so that a pooled buffer keeps no value or set alive.
func TestScratchLeftClean(t *testing.T) {
	w := widget(t)
	a := yv(t, `{name: a, containers: [{name: c, image: i, env: [{name: e, value: v}]}, {name: c2}], tags: [x, z], labels: {a: b}}`)
	b := yv(t, `{name: b, containers: [{name: d}, {name: c, image: j}], tags: [y], labels: {c: d}}`)
	bad := yv(t, `{containers: [{image: i}, {name: 1, env: 3}], tags: [[1]]}`)
	for _, v := range []value.Value{a, b, bad} {
		_ = typed.Validate(w, v)
		_, _ = typed.FieldSet(w, v)
		_, _ = typed.NewUnvalidated(w, v).Merge(typed.NewUnvalidated(w, a))
		_, _ = typed.Compare(w, b, v)
		if dirty := typed.PooledScratchDirty(); dirty != "" {
			t.Fatalf("after the walks of %s: %s", value.ToJSON(v), dirty)
		}
	}
}

// TestMergeIntoNull checks that merging a validated configuration into a
// validated null (which returns the configuration without a walk) gives
// what the full walk gives.
func TestMergeIntoNull(t *testing.T) {
	w := widget(t)
	null, err := typed.New(w, value.Value{}, typed.AllowDuplicates())
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`{name: a, containers: [{name: c, image: i, env: [{name: e, value: v}]}, {name: c2}], tags: [x, z], labels: {a: b}}`,
		`{name: b, containers: [], tags: [y], labels: {}}`,
		`{}`,
		`null`,
	} {
		cfg, err := typed.New(w, yv(t, src))
		if err != nil {
			t.Fatal(err)
		}
		got, err := null.Merge(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wantT, err := typed.NewUnvalidated(w, value.Value{}).Merge(typed.NewUnvalidated(w, cfg.Value()))
		want := wantT.Value()
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(got.Value(), want) || got.Value().Kind() != want.Kind() {
			t.Errorf("merging %s into null: %s, the walk gives %s", src, value.ToJSON(got.Value()), value.ToJSON(want))
		}
	}
}

// TestFieldSetSharesItemSets checks that the items of a keyed list with the
// same scalar fields as the item before share one set, that other items do
// not, and that sharing changes nothing in the set, with and without the
// size hint of a validated value.
func TestFieldSetSharesItemSets(t *testing.T) {
	w := widget(t)
	obj := yv(t, `{containers: [{name: a, image: x}, {name: b, image: y}, {name: c, image: z}, {name: d},
		{name: e, image: q}, {name: f, image: r, env: [{name: v, value: "1"}, {name: u, value: "2"}]},
		{name: g, image: s, args: [x]}, {name: h, image: t, args: [y]}]}`)
	tv, err := typed.New(w, obj)
	if err != nil {
		t.Fatal(err)
	}
	hinted, err := tv.FieldSet()
	if err != nil {
		t.Fatal(err)
	}
	plain, err := typed.FieldSet(w, obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `.containers[name="a"] .containers[name="b"] .containers[name="c"] .containers[name="d"]` +
		` .containers[name="e"] .containers[name="f"] .containers[name="g"] .containers[name="h"]` +
		` .containers[name="a"].image .containers[name="a"].name .containers[name="b"].image .containers[name="b"].name` +
		` .containers[name="c"].image .containers[name="c"].name .containers[name="d"].name` +
		` .containers[name="e"].image .containers[name="e"].name .containers[name="f"].image .containers[name="f"].name` +
		` .containers[name="f"].env[name="u"] .containers[name="f"].env[name="v"]` +
		` .containers[name="f"].env[name="u"].name .containers[name="f"].env[name="u"].value` +
		` .containers[name="f"].env[name="v"].name .containers[name="f"].env[name="v"].value` +
		` .containers[name="g"].args .containers[name="g"].image .containers[name="g"].name` +
		` .containers[name="h"].args .containers[name="h"].image .containers[name="h"].name`
	for name, s := range map[string]*fieldpath.Set{"hinted": hinted, "plain": plain} {
		if got := paths(t, s); got != want {
			t.Errorf("%s: FieldSet = %q, want %q", name, got, want)
		}
		items := own.Set.Children(s.WithPrefix(fieldpath.FieldName("containers")))
		if len(items) != 8 {
			t.Fatalf("%s: %d item sets", name, len(items))
		}
		// Items a, b, c share; d, e, f, g differ from the one before; h
		// has the same fields as g (an atomic list) and shares its set too.
		for i, shared := range []bool{false, true, true, false, false, false, false, true} {
			if i > 0 && (items[i].Set == items[i-1].Set) != shared {
				t.Errorf("%s: item %d shares the set of item %d: %v, want %v", name, i, i-1, !shared, shared)
			}
		}
		env := own.Set.Children(items[5].Set.WithPrefix(fieldpath.FieldName("env")))
		if len(env) != 2 || env[0].Set != env[1].Set {
			t.Errorf("%s: the two env items of f do not share a set", name)
		}
	}
}

// eitherSchema has a type that is a map or an associative list, so that a
// comparison whose sides are one and the other visits the value twice, once
// with each view, adding both views' changes to the same nodes.
const eitherSchema = `types:
- name: root
  map:
    fields:
    - name: either
      type:
        namedType: either
- name: either
  map:
    fields:
    - name: a
      type:
        scalar: string
  list:
    elementType:
      namedType: item
    elementRelationship: associative
    keys: [name]
- name: item
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: v
      type:
        scalar: string
`

func TestCompareListOrMap(t *testing.T) {
	root := compileType(t, []byte(eitherSchema), "root")
	list := `{either: [{name: x, v: "1"}, {name: y}]}`
	m := `{either: {a: s}}`
	listPaths := `.either[name="x"] .either[name="y"] .either[name="x"].name .either[name="x"].v .either[name="y"].name`
	tests := []struct{ lhs, rhs, added, modified, removed string }{
		{list, m, `.either.a`, ``, listPaths},
		{m, list, listPaths, ``, `.either.a`},
		{`{either: [{name: x}]}`, `{either: [{name: x, v: "2"}, {name: z}]}`, `.either[name="z"] .either[name="x"].v .either[name="z"].name`, ``, ``},
	}
	for _, tc := range tests {
		t.Run(tc.lhs+"->"+tc.rhs, func(t *testing.T) {
			c, err := typed.Compare(root, yv(t, tc.lhs), yv(t, tc.rhs))
			if err != nil {
				t.Fatal(err)
			}
			for _, set := range []struct {
				name string
				got  *fieldpath.Set
				want string
			}{{"added", c.Added, tc.added}, {"modified", c.Modified, tc.modified}, {"removed", c.Removed, tc.removed}} {
				if got := paths(t, set.got); got != set.want {
					t.Errorf("%s = %q, want %q", set.name, got, set.want)
				}
			}
		})
	}
}

func TestValueString(t *testing.T) {
	w := widget(t)
	v, err := value.FromJSON([]byte(`{"name":"web","replicas":2}`))
	if err != nil {
		t.Fatal(err)
	}
	tv, err := typed.New(w, v)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(tv), `widget {"name":"web","replicas":2}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(typed.Value{}), `<no type> null`; got != want {
		t.Errorf("zero Value: got %s, want %s", got, want)
	}
}

// TestNoType: every operation on the zero Value, or with a nil type, says
// there is no type instead of reporting a schema problem.
func TestNoType(t *testing.T) {
	v := yv(t, `{name: web}`)
	var zero typed.Value
	ops := map[string]func() error{
		"New":                 func() error { _, err := typed.New(nil, v); return err },
		"Validate":            func() error { return typed.Validate(nil, v) },
		"FieldSet":            func() error { _, err := typed.FieldSet(nil, v); return err },
		"Compare":             func() error { _, err := typed.Compare(nil, v, v); return err },
		"Merge":               func() error { _, err := typed.NewUnvalidated(nil, v).Merge(typed.NewUnvalidated(nil, v)); return err },
		"zero Value FieldSet": func() error { _, err := zero.FieldSet(); return err },
		"zero Value Compare":  func() error { _, err := zero.Compare(zero); return err },
		"zero Value Merge":    func() error { _, err := zero.Merge(zero); return err },
	}
	for name, op := range ops {
		if err := op(); !errors.Is(err, typed.ErrNoType) {
			t.Errorf("%s: %v, want ErrNoType", name, err)
		}
	}
}

// TestLenientSchemaErrors: the types schema.Lenient lets through fail as
// SMD's do, when a value reaches them.
func TestLenientSchemaErrors(t *testing.T) {
	doc, err := schema.Parse([]byte(`types:
- name: a
  map:
    fields:
    - name: x
      type:
        namedType: missing
    - name: n
      type:
        scalar: number
`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Compile(doc, schema.Lenient())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Type("a")
	for src, want := range map[string]string{
		`{n: 1}`:    ".n: unexpected scalar type in schema: number",
		`{n: null}`: "",
		`{x: 1}`:    ".x: schema error: no type found matching: missing",
		`{n: "a"}`:  ".n: unexpected scalar type in schema: number",
		`{}`:        "",
	} {
		v, err := value.FromYAML([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := typed.Validate(a, v); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}

// TestNamedFieldsCovered compares the walk with its definition on random
// pairs of sets drawn from paths of every kind (named fields, map keys,
// list items, members and paths below them).
func TestNamedFieldsCovered(t *testing.T) {
	w := widget(t)
	pool := []string{
		".name", ".labels", ".labels.a", ".labels.b", ".spec", ".spec.image", ".spec.paused",
		".spec.limits", ".spec.limits.cpu", ".spec.limits.mem", ".containers",
		`.containers[name="c"]`, `.containers[name="c"].name`, `.containers[name="c"].image`,
		`.containers[name="c"].env`, `.containers[name="c"].env[name="e"]`,
		`.containers[name="c"].env[name="e"].value`, `.containers[name="d"]`, `.containers[name="d"].args`,
	}
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func() *fieldpath.Set {
		var ps []string
		for _, p := range pool {
			if rng.IntN(4) == 0 {
				ps = append(ps, p)
			}
		}
		return set(t, ps...)
	}
	covered, notCovered := 0, 0
	for range 3000 {
		a, b := pick(), pick()
		if rng.IntN(3) == 0 {
			b = b.Union(a) // make covered pairs common
		}
		want := own.Typed.EnsureNamedFieldsAreMembers(w, a).Difference(own.Typed.EnsureNamedFieldsAreMembers(w, b)).Empty()
		if got := own.Typed.NamedFieldsCovered(w, a, b); got != want {
			t.Fatalf("NamedFieldsCovered(%s, %s) = %v, want %v", paths(t, a), paths(t, b), got, want)
		}
		if want {
			covered++
		} else {
			notCovered++
		}
	}
	if covered < 300 || notCovered < 300 {
		t.Fatalf("too few cases of one answer: %d covered, %d not", covered, notCovered)
	}
}

// TestMergeKeepsUnchangedLive checks that a merge which changes nothing in
// a part of the live object gives back that part itself (value.Same), and
// the live value when it changes nothing at all, while parts it changes
// are new.
func TestMergeKeepsUnchangedLive(t *testing.T) {
	w := widget(t)
	live, err := typed.New(w, yv(t, `{name: a, replicas: 3, labels: {app: web, tier: front},
  containers: [{name: web, image: nginx}, {name: side, image: envoy}], tags: [x, y]}`), typed.AllowDuplicates())
	if err != nil {
		t.Fatal(err)
	}
	lv := live.Value()
	get := func(v value.Value, name string) value.Value {
		t.Helper()
		f, ok := v.Get(name)
		if !ok {
			t.Fatalf("no field %s in %v", name, v)
		}
		return f
	}
	merge := func(cfg value.Value) value.Value {
		t.Helper()
		tc, err := typed.New(w, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out, err := live.Merge(tc)
		if err != nil {
			t.Fatal(err)
		}
		return out.Value()
	}
	labels, containers := get(lv, "labels"), get(lv, "containers")
	// A configuration of new maps and lists whose parts are live's own
	// (as FromUnstructuredLike makes them): new containers, same content.
	same := value.NewMap([]value.Field{
		{Name: "containers", Value: value.NewList([]value.Value{own.Value.Items(containers)[1]})},
		{Name: "labels", Value: value.NewMap([]value.Field{{Name: "app", Value: get(labels, "app")}})},
		{Name: "name", Value: get(lv, "name")},
	})
	if out := merge(same); !value.Same(out, lv) {
		t.Errorf("merging live's own parts gave a new value %v, want live itself", out)
	}
	// Equal but not the same strings: the result is equal to live, and a
	// new value (the merge compares nodes, not contents).
	if out := merge(yv(t, `{labels: {app: web}}`)); !value.Equal(out, lv) {
		t.Errorf("merge of an equal label gave %v, want %v", out, lv)
	}
	// A change: the result is new down to the change; what it does not
	// touch is live's.
	out := merge(value.NewMap([]value.Field{
		{Name: "containers", Value: value.NewList([]value.Value{own.Value.Items(containers)[0]})},
		{Name: "labels", Value: value.NewMap([]value.Field{{Name: "tier", Value: value.NewString("back")}})},
	}))
	if value.Same(out, lv) || value.Same(get(out, "labels"), labels) {
		t.Errorf("a changed label left the result or its labels the same as live's")
	}
	if want := yv(t, `{app: web, tier: back}`); !value.Equal(get(out, "labels"), want) {
		t.Errorf("labels %v, want %v", get(out, "labels"), want)
	}
	for _, name := range []string{"containers", "tags", "name", "replicas"} {
		if !value.Same(get(out, name), get(lv, name)) {
			t.Errorf("unchanged %s is not live's own: %v", name, get(out, name))
		}
	}
	if !value.Same(get(get(out, "labels"), "app"), get(labels, "app")) {
		t.Errorf("unchanged label app is not live's own")
	}
}

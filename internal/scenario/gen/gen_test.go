package gen

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/value"
)

func compile(t *testing.T, s *Schema) scenario.Typed {
	t.Helper()
	text := s.YAML()
	sm, err := native.Engine{}.Compile(text, s.Root)
	if err != nil {
		t.Fatalf("structmerge rejects the schema: %v\n%s", err, text)
	}
	return sm
}

// TestGenerateCompiles checks that generated schemas compile and that
// generation is deterministic. (conformance's TestGeneratedOnSMD checks
// the reference accepts them too.)
func TestGenerateCompiles(t *testing.T) {
	kinds := map[string]bool{}
	for i := range 150 {
		s := Generate(rand.New(rand.NewPCG(1, uint64(i))), Options{})
		compile(t, s)
		again := Generate(rand.New(rand.NewPCG(1, uint64(i))), Options{})
		if !bytes.Equal(s.YAML(), again.YAML()) {
			t.Fatalf("schema %d differs between two generations from the same seed", i)
		}
		text := string(s.YAML())
		for _, k := range []string{"scalar: numeric", "scalar: boolean", "elementRelationship: atomic", "elementRelationship: separable",
			"elementRelationship: associative", "keys:", "default:", UntypedDeduced, UntypedAtomic} {
			if strings.Contains(text, k) {
				kinds[k] = true
			}
		}
		for _, n := range s.Types {
			if n.Type == nil {
				continue
			}
			walkAll(n.Type, func(t *Type) {
				switch {
				case t.Kind == KindRef && t.Override != "":
					kinds["override"] = true
				case t.Kind == KindRef && t.Ref == n.Name:
					kinds["self reference"] = true
				case t.Kind == KindList && len(t.Keys) == 2:
					kinds["two keys"] = true
				case t.Kind == KindStruct && t.Extra != nil:
					kinds["struct with element type"] = true
				case t.Kind == KindMap && t.Elem.Kind == KindList:
					kinds["map of lists"] = true
				case t.Kind == KindScalar && t.Scalar == "untyped":
					kinds["untyped scalar"] = true
				}
			})
		}
	}
	for _, k := range []string{"scalar: numeric", "scalar: boolean", "elementRelationship: atomic", "elementRelationship: separable",
		"elementRelationship: associative", "keys:", "default:", UntypedDeduced, UntypedAtomic, "override", "self reference", "two keys",
		"struct with element type", "map of lists", "untyped scalar"} {
		if !kinds[k] {
			t.Errorf("150 schemas never have %q", k)
		}
	}
}

// TestValuesFitSchema checks that generated objects and their mutations
// are valid configurations: applying one to nothing succeeds.
func TestValuesFitSchema(t *testing.T) {
	for i := range 60 {
		r := rand.New(rand.NewPCG(2, uint64(i)))
		s := Generate(r, Options{})
		sm := compile(t, s)
		g := &Values{S: s, R: r}
		obj := g.Object()
		objs := []any{obj, g.Mutate(s.RootType(), obj), g.Mutate(s.RootType(), g.Mutate(s.RootType(), obj))}
		for k, o := range objs {
			op := scenario.Operation{Op: scenario.OpApply, Manager: "m", APIVersion: "v1", Object: o}
			if _, err := sm.Do(scenario.State{}, op); err != nil {
				t.Errorf("schema %d value %d: structmerge rejects %s: %v", i, k, FormatValue(o), err)
			}
		}
	}
}

// TestInvalidateAndDuplicate checks that Invalidate usually makes an object
// that an apply rejects, and that Duplicate makes one an apply rejects but
// an update accepts.
func TestInvalidateAndDuplicate(t *testing.T) {
	rejected, changed, dups := 0, 0, 0
	for i := range 120 {
		r := rand.New(rand.NewPCG(3, uint64(i)))
		s := Generate(r, Options{})
		sm := compile(t, s)
		g := &Values{S: s, R: r}
		obj := g.Object()
		bad := g.Invalidate(s.RootType(), obj)
		if !SameValue(bad, obj) {
			changed++
			if _, err := sm.Do(scenario.State{}, scenario.Operation{Op: scenario.OpApply, Manager: "m", APIVersion: "v1", Object: bad}); err != nil {
				rejected++
			}
		}
		if dup, ok := g.Duplicate(s.RootType(), obj); ok {
			dups++
			if _, err := sm.Do(scenario.State{}, scenario.Operation{Op: scenario.OpApply, Manager: "m", APIVersion: "v1", Object: dup}); err == nil {
				t.Errorf("case %d: an apply of %s with a repeated item succeeds", i, FormatValue(dup))
			}
			if _, err := sm.Do(scenario.State{}, scenario.Operation{Op: scenario.OpUpdate, Manager: "m", APIVersion: "v1", Object: dup}); err != nil {
				t.Errorf("case %d: an update of %s with a repeated item fails: %v", i, FormatValue(dup), err)
			}
		}
	}
	if changed < 100 || rejected < changed*3/4 {
		t.Errorf("Invalidate changed %d of 120 objects and an apply rejected %d of those", changed, rejected)
	}
	if dups < 30 {
		t.Errorf("Duplicate found a list in only %d of 120 objects", dups)
	}
}

// TestFormatValue checks that FormatValue writes YAML that reads back as
// the same value, kinds included.
func TestFormatValue(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{true, "true"},
		{int64(-3), "-3"},
		{2.0, "2.0"},
		{0.5, "0.5"},
		{1e21, "1e+21"},
		{"true", `"true"`},
		{"", `""`},
		{"a: b", `"a: b"`},
		{"<a&b>", `"<a&b>"`},
		{"line\nbreak", `"line\nbreak"`},
		{[]any{int64(1), "x", nil}, `[1, "x", null]`},
		{map[string]any{"b": int64(1), "a": map[string]any{}, "": []any{}}, `{"": [], "a": {}, "b": 1}`},
	}
	for _, tt := range tests {
		got := FormatValue(tt.in)
		if got != tt.want {
			t.Errorf("FormatValue(%#v) = %s, want %s", tt.in, got, tt.want)
		}
		back, err := value.FromYAML([]byte(got))
		if err != nil {
			t.Errorf("FormatValue(%#v) = %s does not read back: %v", tt.in, got, err)
			continue
		}
		want, err := value.FromUnstructured(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(back, want) || back.Kind() != want.Kind() {
			t.Errorf("FormatValue(%#v) = %s reads back as %s", tt.in, got, value.ToJSON(back))
		}
	}
}

// TestScenarioYAML checks that a written scenario parses with the scenario
// parser and says what it was given.
func TestScenarioYAML(t *testing.T) {
	s := Generate(rand.New(rand.NewPCG(4, 0)), Options{})
	obj := map[string]any{}
	sc := &Scenario{
		Description: "a \"quoted\" description",
		Schema:      s.YAML(),
		Type:        s.Root,
		Live: scenario.State{Object: obj, HasObject: true, Managers: map[string]scenario.Manager{
			"a": {APIVersion: "v2", Applied: true, FieldsV1: []byte(`{"f:x":{}}`)},
		}},
		Steps: []Step{
			{Op: scenario.Operation{Op: scenario.OpApply, Manager: "b", APIVersion: "v1", Object: obj},
				Conflicts: []scenario.Conflict{{Manager: "a", Path: ".x"}}},
			{Op: scenario.Operation{Op: scenario.OpUpdate, Manager: "c", APIVersion: "v1", Object: nil},
				Error: "line one\nline two", HasError: true},
			{Op: scenario.Operation{Op: scenario.OpForceApply, Manager: "b", APIVersion: "v1", Object: obj},
				After: &scenario.State{Object: obj, HasObject: true}},
		},
	}
	f, err := scenario.Parse("x.yaml", sc.YAML())
	if err != nil {
		t.Fatalf("%v\n%s", err, sc.YAML())
	}
	if f.Description != sc.Description || f.Type != s.Root || !bytes.Equal(f.Schema.Text, s.YAML()) {
		t.Errorf("header differs: %q %q", f.Description, f.Type)
	}
	if m := f.Live.Managers["a"]; m.APIVersion != "v2" || !m.Applied || string(m.FieldsV1) != `{"f:x":{}}` {
		t.Errorf("live manager differs: %+v", m)
	}
	if len(f.Steps) != 3 || len(f.Steps[0].Expect.Conflicts) != 1 || f.Steps[1].Expect.Error != "line one\nline two" ||
		!f.Steps[2].Expect.HasManagers || len(f.Steps[2].Expect.Managers) != 0 || f.Steps[1].Object != nil {
		t.Errorf("steps differ:\n%s", sc.YAML())
	}
}

// TestDiff checks Diff on a small hand-made schema.
func TestDiff(t *testing.T) {
	item := &Type{Kind: KindStruct, Fields: []Field{
		{Name: "name", Type: &Type{Kind: KindScalar, Scalar: "string"}},
		{Name: "v", Type: &Type{Kind: KindScalar, Scalar: "string"}},
	}}
	root := &Type{Kind: KindStruct, Fields: []Field{
		{Name: "a", Type: &Type{Kind: KindScalar, Scalar: "string"}},
		{Name: "list", Type: &Type{Kind: KindList, Elem: &Type{Kind: KindRef, Ref: "item"}, Keys: []string{"name"}}},
		{Name: "m", Type: &Type{Kind: KindMap, Elem: &Type{Kind: KindScalar, Scalar: "string"}, Atomic: true}},
	}}
	s := &Schema{Root: "root", Types: []*Named{{Name: "root", Type: root}, {Name: "item", Type: item}}}
	s.byName = map[string]*Named{"root": s.Types[0], "item": s.Types[1]}
	tests := []struct {
		a, b string
		want []string
	}{
		{`{"a": "x"}`, `{"a": "x"}`, nil},
		{`{"a": "x"}`, `{"a": "y"}`, []string{".a"}},
		{`{"a": "x"}`, `{}`, []string{".a"}},
		{`{"m": {"k": "x"}}`, `{"m": {"k": "y"}}`, []string{".m"}},
		{`{"list": [{"name": "p", "v": "1"}]}`, `{"list": [{"name": "p", "v": "2"}]}`, []string{`.list[name="p"].v`}},
		{`{"list": [{"name": "p"}]}`, `{"list": [{"name": "q"}]}`, []string{".list"}},
		{`{"list": [{"name": "p"}]}`, `{"list": [null]}`, []string{".list"}},
		{`{"list": [{"name": "p"}, {"name": "q"}]}`, `{"list": [{"name": "q"}, {"name": "p"}]}`, []string{".list"}},
	}
	for _, tt := range tests {
		a, b := mustJSON(t, tt.a), mustJSON(t, tt.b)
		var got []string
		for _, d := range s.Diff(a, b) {
			got = append(got, d.Path.String())
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("Diff(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestKeyElement checks the key of items with defaulted and absent keys.
func TestKeyElement(t *testing.T) {
	it := &Type{Kind: KindStruct, Fields: []Field{
		{Name: "port", Type: &Type{Kind: KindScalar, Scalar: "numeric"}},
		{Name: "proto", Type: &Type{Kind: KindScalar, Scalar: "string"}, Default: "TCP"},
	}}
	keys := []string{"port", "proto"}
	tests := []struct {
		item string
		want string
		ok   bool
	}{
		{`{"port": 80, "proto": "UDP"}`, `[port=80,proto="UDP"]`, true},
		{`{"port": 80}`, `[port=80,proto="TCP"]`, true},
		{`{}`, `[proto="TCP"]`, true},
		{`{"port": {}}`, "", false},
	}
	for _, tt := range tests {
		pe, ok := KeyElement(it, keys, mustJSON(t, tt.item).(map[string]any))
		if ok != tt.ok || (ok && fieldpath.Path{pe}.String() != tt.want) {
			t.Errorf("KeyElement(%s) = %v %v, want %s %v", tt.item, pe, ok, tt.want, tt.ok)
		}
	}
}

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := value.FromJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.Unstructured()
}

// TestConcurrentGeneration shares one schema between goroutines that each
// generate values with their own source (run under -race).
func TestConcurrentGeneration(t *testing.T) {
	s := Generate(rand.New(rand.NewPCG(5, 5)), Options{})
	want := string(s.YAML())
	var wg sync.WaitGroup
	outs := make([]string, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := &Values{S: s, R: rand.New(rand.NewPCG(6, 6))}
			var b strings.Builder
			for range 50 {
				o := g.Object()
				b.WriteString(FormatValue(g.Mutate(s.RootType(), o)))
				b.WriteString(FormatValue(g.Invalidate(s.RootType(), o)))
				s.Diff(o, g.Object())
			}
			if string(s.YAML()) != want {
				t.Error("the schema changed")
			}
			outs[i] = b.String()
		}()
	}
	wg.Wait()
	for i := range outs {
		if outs[i] != outs[0] {
			t.Fatalf("goroutine %d generated other values from the same seed", i)
		}
	}
}

// TestChangedAndPruned checks that a changed schema differs from the
// original in one place and compiles, and that a pruned one compiles and
// keeps only what it is told to (and key fields).
func TestChangedAndPruned(t *testing.T) {
	changed := 0
	for i := range 60 {
		r := rand.New(rand.NewPCG(7, uint64(i)))
		s := Generate(r, Options{})
		orig := string(s.YAML())
		c, ok := s.Changed(r)
		if string(s.YAML()) != orig {
			t.Fatalf("schema %d: Changed modified its receiver", i)
		}
		if ok {
			changed++
			if string(c.YAML()) == orig {
				t.Errorf("schema %d: Changed returned the same schema", i)
			}
			compile(t, c)
		}
		p := s.Pruned(func(f string) bool { return f == "str" })
		compile(t, p)
		for _, n := range p.Types {
			walkAll(n.Type, func(ty *Type) {
				for _, f := range ty.Fields {
					if f.Name != "str" && !isKeyField(s, f.Name) {
						t.Errorf("schema %d: Pruned kept field %q", i, f.Name)
					}
				}
			})
		}
	}
	if changed < 50 {
		t.Errorf("Changed changed only %d of 60 schemas", changed)
	}
}

func isKeyField(s *Schema, name string) bool {
	found := false
	for _, n := range s.Types {
		walkAll(n.Type, func(t *Type) {
			for _, k := range t.Keys {
				if k == name {
					found = true
				}
			}
		})
	}
	return found
}

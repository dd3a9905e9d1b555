package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structmerge/structmerge/value"
)

const schemaDir = "../testdata/schemas"

func readSchema(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(schemaDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func compileFile(t testing.TB, name string) *Schema {
	t.Helper()
	s, err := CompileYAML(readSchema(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func mustType(t testing.TB, s *Schema, name string) *Type {
	t.Helper()
	typ, ok := s.Type(name)
	if !ok {
		t.Fatalf("no type %q", name)
	}
	return typ
}

func mustField(t testing.TB, typ *Type, name string) *Field {
	t.Helper()
	if typ.Map() == nil {
		t.Fatalf("type %q has no map", typ.Name())
	}
	f, ok := typ.Map().Field(name)
	if !ok {
		t.Fatalf("type %q has no field %q", typ.Name(), name)
	}
	return f
}

// compileErrorCases are schemas that parse but do not compile, with the exact
// message and kind. They also seed FuzzCompileYAML.
var compileErrorCases = []struct {
	name, in, want string
	kind           error
}{
	{"unknown named type", "types:\n- name: a\n  map:\n    fields:\n    - name: x\n      type: {namedType: Foo}\n",
		`schema: type "a" field "x": unknown named type "Foo" (line 6)`, ErrUnknownType},
	{"unknown named type in nested element types",
		"types:\n- name: a\n  list: {elementType: {map: {elementType: {namedType: nope}}}}\n- name: b\n  map: {elementType: {list: {elementType: {namedType: nope2}}}}\n",
		`schema: 2 problems:
  type "a" list.elementType map.elementType: unknown named type "nope" (line 3)
  type "b" map.elementType list.elementType: unknown named type "nope2" (line 5)`, ErrUnknownType},
	{"unknown scalar", "types:\n- name: a\n  scalar: number\n",
		`schema: type "a": unknown scalar type "number" (want numeric, string, boolean or untyped) (line 2)`, ErrScalar},
	{"duplicate type", "types:\n- name: a\n  scalar: string\n- name: a\n  scalar: numeric\n",
		`schema: type "a": duplicate type name (first defined as type #0 at line 2) (line 4)`, ErrDuplicate},
	{"duplicate field", "types:\n- name: a\n  map:\n    fields:\n    - name: x\n    - name: y\n    - name: x\n",
		`schema: type "a" field "x": duplicate field name (first declared as field #0 at line 5) (line 7)`, ErrDuplicate},
	{"duplicate fields in a large map",
		"types:\n- name: a\n  map: {fields: [{name: a1},{name: a2},{name: a3},{name: a4},{name: a5},{name: a6},{name: a7},{name: a8},{name: x},{name: a1}, {name: a1}]}\n",
		`schema: 2 problems:
  type "a" field "a1": duplicate field name (first declared as field #0 at line 3) (line 3)
  type "a" field "a1": duplicate field name (first declared as field #0 at line 3) (line 3)`, ErrDuplicate},
	{"duplicate union member", "types:\n- name: a\n  map: {unions: [{fields: [{fieldName: x}, {fieldName: x}]}]}\n",
		`schema: type "a": union #0: field "x" listed twice (line 3)`, ErrDuplicate},
	{"several problems sorted by type",
		"types:\n- name: z\n  scalar: bad\n- name: a\n  map: {fields: [{name: y, type: {namedType: q}}, {name: b, type: {namedType: q}}]}\n",
		`schema: 3 problems:
  type "a" field "b": unknown named type "q" (line 5)
  type "a" field "y": unknown named type "q" (line 5)
  type "z": unknown scalar type "bad" (want numeric, string, boolean or untyped) (line 2)`, ErrUnknownType},
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range compileErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			s, err := Compile(doc)
			if err == nil {
				t.Fatalf("Compile succeeded: %v", s.TypeNames())
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("error:\n got %s\nwant %s", got, tc.want)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error does not wrap %v", tc.kind)
			}
			var p Problem
			if !errors.As(err, &p) || p.Type == "" {
				t.Errorf("errors.As(Problem) = %+v", p)
			}
		})
	}
}

// TestCompileAcceptsLikeSMD lists schemas SMD accepts that look suspicious;
// Compile accepts them too, with SMD's meaning.
// TestCompileRelationshipWords: like SMD, Compile accepts any
// elementRelationship word. A map is atomic only for "atomic"; a list is
// associative only for "associative" and atomic otherwise (SMD walks such a
// list item by item with path elements it cannot encode). Each word is tried
// on a map and a list type, as an override of a named map and list, and as
// an override on an inline map and list.
func TestCompileRelationshipWords(t *testing.T) {
	for _, tc := range []struct {
		word    string
		mapRel  Relationship
		listRel Relationship
	}{
		{"", Separable, Atomic},
		{"atomic", Atomic, Atomic},
		{"separable", Separable, Atomic},
		{"granular", Separable, Atomic},
		{"associative", Separable, Associative},
		{"sideways", Separable, Atomic},
	} {
		t.Run(tc.word, func(t *testing.T) {
			w := strconv.Quote(tc.word)
			in := "types:\n" +
				"- name: m\n  map: {elementType: {scalar: string}, elementRelationship: " + w + "}\n" +
				"- name: l\n  list: {elementType: {scalar: string}, elementRelationship: " + w + "}\n" +
				"- name: plainMap\n  map: {elementType: {scalar: string}, elementRelationship: atomic}\n" +
				"- name: plainList\n  list: {elementType: {scalar: string}, elementRelationship: associative}\n" +
				"- name: o\n  map:\n    fields:\n" +
				"    - {name: nm, type: {namedType: plainMap, elementRelationship: " + w + "}}\n" +
				"    - {name: nl, type: {namedType: plainList, elementRelationship: " + w + "}}\n" +
				"    - {name: im, type: {map: {elementType: {scalar: string}, elementRelationship: atomic}, elementRelationship: " + w + "}}\n" +
				"    - {name: il, type: {list: {elementType: {scalar: string}, elementRelationship: associative}, elementRelationship: " + w + "}}\n"
			s, err := CompileYAML([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if got := mustType(t, s, "m").Map().Relationship(); got != tc.mapRel {
				t.Errorf("map: %v, want %v", got, tc.mapRel)
			}
			if got := mustType(t, s, "l").List().Relationship(); got != tc.listRel {
				t.Errorf("list: %v, want %v", got, tc.listRel)
			}
			o := mustType(t, s, "o").Map()
			// An empty word is no override: the referenced type keeps its own.
			wantMap, wantList := tc.mapRel, tc.listRel
			if tc.word == "" {
				wantMap, wantList = Atomic, Associative
			}
			for _, f := range []struct {
				name string
				list bool
				want Relationship
			}{{"nm", false, wantMap}, {"nl", true, wantList}, {"im", false, wantMap}, {"il", true, wantList}} {
				ft, _ := o.Field(f.name)
				var got Relationship
				if f.list {
					got = ft.Type().List().Relationship()
				} else {
					got = ft.Type().Map().Relationship()
				}
				if got != f.want {
					t.Errorf("field %s: %v, want %v", f.name, got, f.want)
				}
			}
		})
	}
}

func TestCompileAcceptsLikeSMD(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		check    func(t *testing.T, s *Schema)
	}{
		{"keys on an atomic list", "types:\n- name: a\n  list: {elementType: {scalar: string}, keys: [x]}\n",
			func(t *testing.T, s *Schema) {
				l := mustType(t, s, "a").List()
				if l.Relationship() != Atomic || !slices.Equal(l.Keys(), []string{"x"}) {
					t.Errorf("list %v %v", l.Relationship(), l.Keys())
				}
			}},
		{"keys that are not fields", "types:\n- name: a\n  list:\n    elementType: {map: {fields: [{name: b, default: 1}]}}\n    elementRelationship: associative\n    keys: [x, b]\n",
			func(t *testing.T, s *Schema) {
				l := mustType(t, s, "a").List()
				if _, ok := l.KeyDefault(0); ok {
					t.Error("key x has a default")
				}
				if v, ok := l.KeyDefault(1); !ok || !value.Equal(v, value.NewInt(1)) {
					t.Errorf("key b default %v %v", value.Text(v), ok)
				}
			}},
		{"override on a scalar", "types:\n- name: q\n  scalar: string\n- name: a\n  map: {fields: [{name: x, type: {namedType: q, elementRelationship: atomic}}, {name: y, type: {namedType: q, elementRelationship: granular}}]}\n",
			func(t *testing.T, s *Schema) {
				m := mustType(t, s, "a").Map()
				x, y := m.Fields()[0].Type(), m.Fields()[1].Type()
				if !x.Unresolvable() || !x.IsEmpty() || x.Name() != "q" {
					t.Errorf("x: unresolvable %v empty %v name %q", x.Unresolvable(), x.IsEmpty(), x.Name())
				}
				if x != y {
					t.Error("overrides on one scalar type are not one node")
				}
			}},
		{"override on an inline scalar", "types:\n- name: a\n  map: {fields: [{name: x, type: {scalar: string, elementRelationship: atomic}}]}\n",
			func(t *testing.T, s *Schema) {
				x := mustType(t, s, "a").Map().Fields()[0].Type()
				if !x.Unresolvable() || x.Name() != "" {
					t.Errorf("x: unresolvable %v name %q", x.Unresolvable(), x.Name())
				}
			}},
		{"granular map", "types:\n- name: a\n  map: {elementRelationship: granular}\n",
			func(t *testing.T, s *Schema) {
				if r := mustType(t, s, "a").Map().Relationship(); r != Separable {
					t.Errorf("relationship %v", r)
				}
			}},
		{"list without relationship is atomic, without element type is empty", "types:\n- name: a\n  list: {}\n",
			func(t *testing.T, s *Schema) {
				l := mustType(t, s, "a").List()
				if l.Relationship() != Atomic || l.ElementType() == nil || !l.ElementType().IsEmpty() {
					t.Errorf("list %v %v", l.Relationship(), l.ElementType())
				}
			}},
		{"type with no atom", "types:\n- name: a\n- name: b\n  map: {fields: [{name: f}]}\n",
			func(t *testing.T, s *Schema) {
				if !mustType(t, s, "a").IsEmpty() || !mustField(t, mustType(t, s, "b"), "f").Type().IsEmpty() {
					t.Error("not empty")
				}
			}},
		{"map element type given only as nullable", "types:\n- name: a\n  map: {elementType: {nullable: true}}\n- name: b\n  map: {elementType: {}}\n",
			func(t *testing.T, s *Schema) {
				if e := mustType(t, s, "a").Map().ElementType(); e == nil || !e.IsEmpty() {
					t.Errorf("a: element type %v", e)
				}
				if e := mustType(t, s, "b").Map().ElementType(); e != nil {
					t.Errorf("b: element type %v, want none (SMD: the zero TypeRef)", e)
				}
			}},
		{"named type wins over an inline atom", "types:\n- name: q\n  scalar: string\n- name: a\n  map: {fields: [{name: x, type: {namedType: q, list: {}}}]}\n",
			func(t *testing.T, s *Schema) {
				if x := mustField(t, mustType(t, s, "a"), "x").Type(); x != mustType(t, s, "q") {
					t.Errorf("x is %q", x.Name())
				}
			}},
		{"override changes the map, not the list, of an untyped type",
			"types:\n- name: u\n  scalar: untyped\n  list: {elementRelationship: associative}\n  map: {elementRelationship: atomic}\n- name: a\n  map: {fields: [{name: x, type: {namedType: u, elementRelationship: separable}}]}\n",
			func(t *testing.T, s *Schema) {
				u := mustType(t, s, "u")
				x := mustField(t, mustType(t, s, "a"), "x").Type()
				if x.Map().Relationship() != Separable || x.List() != u.List() || x.Scalar() != Untyped {
					t.Errorf("override node: map %v list shared %v scalar %v", x.Map().Relationship(), x.List() == u.List(), x.Scalar())
				}
				if u.Map().Relationship() != Atomic {
					t.Error("the override changed the named type")
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := CompileYAML([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s)
		})
	}
}

// corpus returns the schema files under testdata/schemas: valid ones (which
// must compile), and those under dangling/ and invalid/ (which must not).
func corpus(t testing.TB) (valid, rejected []string) {
	t.Helper()
	err := filepath.WalkDir(schemaDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		rel, _ := filepath.Rel(schemaDir, path)
		switch filepath.Base(filepath.Dir(path)) {
		case "dangling", "invalid":
			rejected = append(rejected, rel)
		default:
			valid = append(valid, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return valid, rejected
}

func TestCompileCorpus(t *testing.T) {
	valid, rejected := corpus(t)
	if len(valid) < 9 || len(rejected) < 3 {
		t.Fatalf("corpus: %d valid, %d rejected files", len(valid), len(rejected))
	}
	wantTypes := map[string]int{"k8s.yaml": 244, "basic.yaml": 10, "smd/k8s-schema.yaml": 575,
		"smd/k8s-schema-10pct-fieldoverride.yaml": 575, "smd/k8s-schema-100pct-fieldoverride.yaml": 575}
	for _, name := range valid {
		s := compileFile(t, name)
		names := s.TypeNames()
		if !slices.IsSorted(names) {
			t.Errorf("%s: TypeNames not sorted", name)
		}
		if n, ok := wantTypes[name]; ok && len(names) != n {
			t.Errorf("%s: %d types, want %d", name, len(names), n)
		}
		checkInvariants(t, s)
	}
	for _, name := range rejected {
		if _, err := CompileYAML(readSchema(t, name)); err == nil {
			t.Errorf("%s: compiled", name)
		}
	}
}

// checkInvariants walks every node reachable from the schema's named types
// (iteratively: the graph has cycles) and checks what Compile promises.
func checkInvariants(t testing.TB, s *Schema) {
	t.Helper()
	seen := map[*Type]bool{}
	var work []*Type
	for _, n := range s.TypeNames() {
		typ, ok := s.Type(n)
		if !ok || typ.Name() != n {
			t.Fatalf("Type(%q) = %v, %v", n, typ, ok)
		}
		work = append(work, typ)
	}
	for len(work) > 0 {
		typ := work[len(work)-1]
		work = work[:len(work)-1]
		if typ == nil {
			t.Fatal("nil type reachable")
		}
		if seen[typ] {
			continue
		}
		seen[typ] = true
		if !Equal(typ, typ) {
			t.Errorf("type %q not Equal to itself", typ.Name())
		}
		if typ.IsEmpty() != (typ.Scalar() == NoScalar && typ.List() == nil && typ.Map() == nil) {
			t.Errorf("IsEmpty wrong for %q", typ.Name())
		}
		if l := typ.List(); l != nil {
			if l.ElementType() == nil {
				t.Errorf("type %q: list without element type", typ.Name())
			}
			if r := l.Relationship(); r != Atomic && r != Associative {
				t.Errorf("type %q: list relationship %v", typ.Name(), r)
			}
			for i := range l.Keys() {
				if v, ok := l.KeyDefault(i); ok && v.IsNull() {
					t.Errorf("type %q: null key default", typ.Name())
				}
			}
			work = append(work, l.ElementType())
		}
		if m := typ.Map(); m != nil {
			if r := m.Relationship(); r != Separable && r != Atomic {
				t.Errorf("type %q: map relationship %v", typ.Name(), r)
			}
			for i := range m.Fields() {
				f := &m.Fields()[i]
				if got, ok := m.Field(f.Name()); !ok || got != f {
					t.Errorf("type %q: Field(%q) = %v, %v", typ.Name(), f.Name(), got, ok)
				}
				if _, ok := m.Field(f.Name() + "\x00"); ok {
					t.Errorf("type %q: Field finds %q", typ.Name(), f.Name()+"\x00")
				}
				work = append(work, f.Type())
			}
			if m.ElementType() != nil {
				work = append(work, m.ElementType())
			}
		}
	}
}

func TestK8sSpotChecks(t *testing.T) {
	s := compileFile(t, "k8s.yaml")
	pod := mustType(t, s, "io.k8s.api.core.v1.Pod")
	spec := mustField(t, pod, "spec")
	if d, ok := spec.Default(); !ok || !value.Equal(d, value.NewMap(nil)) {
		t.Errorf("Pod.spec default %v %v, want {}", value.Text(d), ok)
	}
	podSpec := spec.Type()
	if podSpec.Name() != "io.k8s.api.core.v1.PodSpec" || podSpec != mustType(t, s, "io.k8s.api.core.v1.PodSpec") {
		t.Fatalf("Pod.spec is %q, not the PodSpec node", podSpec.Name())
	}
	containers := mustField(t, podSpec, "containers").Type().List()
	if containers == nil || containers.Relationship() != Associative || !slices.Equal(containers.Keys(), []string{"name"}) {
		t.Fatalf("containers: %+v", containers)
	}
	// The client-go schema gives required strings and numbers zero defaults.
	if v, ok := containers.KeyDefault(0); !ok || !value.Equal(v, value.NewString("")) {
		t.Errorf("container name default %v %v, want \"\"", value.Text(v), ok)
	}
	container := containers.ElementType()
	if container.Name() != "io.k8s.api.core.v1.Container" {
		t.Errorf("container type %q", container.Name())
	}
	ports := mustField(t, container, "ports").Type().List()
	if ports.Relationship() != Associative || !slices.Equal(ports.Keys(), []string{"containerPort", "protocol"}) {
		t.Fatalf("ports: %v %v", ports.Relationship(), ports.Keys())
	}
	if v, ok := ports.KeyDefault(0); !ok || !value.Equal(v, value.NewInt(0)) {
		t.Errorf("containerPort default %v %v, want 0", value.Text(v), ok)
	}
	if v, ok := ports.KeyDefault(1); !ok || !value.Equal(v, value.NewString("TCP")) {
		t.Errorf("protocol default %v %v, want \"TCP\"", value.Text(v), ok)
	}
	if _, ok := ports.KeyDefault(2); ok {
		t.Error("KeyDefault out of range")
	}
	if k := mustField(t, ports.ElementType(), "containerPort").Type().Scalar(); k != Numeric {
		t.Errorf("containerPort scalar %v", k)
	}
	// Field lookups on a large map go through the hash table.
	if len(podSpec.Map().Fields()) <= smallMap || podSpec.Map().slots == nil {
		t.Fatal("PodSpec should be indexed")
	}
	// Every field of every map is found, at its own position, and names
	// that are not fields are not.
	for _, name := range s.TypeNames() {
		typ := mustType(t, s, name)
		m := typ.Map()
		if m == nil {
			continue
		}
		fields := m.Fields()
		for i := range fields {
			if f, ok := m.Field(fields[i].Name()); !ok || f != &fields[i] {
				t.Fatalf("%s: Field(%q) = %v, %v; want field #%d", name, fields[i].Name(), f, ok, i)
			}
			for _, absent := range []string{fields[i].Name() + "x", "x" + fields[i].Name(), fields[i].Name()[:len(fields[i].Name())/2]} {
				if f, ok := m.Field(absent); ok && f.Name() != absent {
					t.Fatalf("%s: Field(%q) found %q", name, absent, f.Name())
				}
			}
		}
	}
	for _, name := range []string{"volumes", "affinity", "nodeSelector", "tolerations"} {
		mustField(t, podSpec, name)
	}
	if _, ok := podSpec.Map().Field("nosuchfield"); ok {
		t.Error("found nosuchfield")
	}
	if podSpec.Map().ElementType() != nil {
		t.Error("PodSpec has an element type")
	}
	labels := mustField(t, mustType(t, s, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"), "labels").Type().Map()
	if labels.ElementType().Scalar() != String || labels.Relationship() != Separable {
		t.Errorf("labels: %v %v", labels.ElementType().Scalar(), labels.Relationship())
	}
	// The deduced types defined by the schema match the built-in ones.
	if !Equal(mustType(t, s, "__untyped_deduced_"), Deduced()) || !Equal(mustType(t, s, "__untyped_atomic_"), UntypedAtomic()) {
		t.Error("schema's untyped types differ from Deduced/UntypedAtomic")
	}
	if Equal(Deduced(), UntypedAtomic()) {
		t.Error("Deduced equals UntypedAtomic")
	}
	if _, ok := s.Type("io.k8s.api.core.v1.NoSuchType"); ok {
		t.Error("found a type that does not exist")
	}
}

func TestOverrideNodes(t *testing.T) {
	s := compileFile(t, "smd/k8s-schema-10pct-fieldoverride.yaml")
	listMeta := mustType(t, s, "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta")
	var nodes []*Type
	for _, name := range s.TypeNames() {
		m := mustType(t, s, name).Map()
		if m == nil {
			continue
		}
		for i := range m.Fields() {
			if ft := m.Fields()[i].Type(); ft.Name() == listMeta.Name() && ft != listMeta {
				nodes = append(nodes, ft)
			}
		}
	}
	if len(nodes) < 2 {
		t.Fatalf("found %d override nodes for ListMeta", len(nodes))
	}
	for _, n := range nodes[1:] {
		if n != nodes[0] {
			t.Fatal("overrides with one relationship on one type are different nodes")
		}
	}
	n := nodes[0]
	if n.Map().Relationship() != Separable || &n.Map().Fields()[0] != &listMeta.Map().Fields()[0] {
		t.Error("override node does not share the target's fields")
	}
	if !Equal(n, listMeta) {
		t.Error("a granular (separable) override of a separable map is not Equal to it")
	}

	// An atomic override is a different node, unequal to the target.
	s2, err := CompileYAML([]byte(`types:
- name: m
  map: {fields: [{name: a, type: {scalar: string}}]}
- name: l
  list: {elementType: {namedType: m}, elementRelationship: associative, keys: [a]}
- name: top
  map:
    fields:
    - {name: x, type: {namedType: m, elementRelationship: atomic}}
    - {name: y, type: {namedType: m, elementRelationship: atomic}}
    - {name: z, type: {namedType: m}}
    - {name: w, type: {namedType: l, elementRelationship: atomic}}
`))
	if err != nil {
		t.Fatal(err)
	}
	top, m, l := mustType(t, s2, "top"), mustType(t, s2, "m"), mustType(t, s2, "l")
	x, y, z, w := mustField(t, top, "x").Type(), mustField(t, top, "y").Type(), mustField(t, top, "z").Type(), mustField(t, top, "w").Type()
	if x != y || x == m || z != m {
		t.Error("override nodes not shared per (type, relationship)")
	}
	if x.Map().Relationship() != Atomic || m.Map().Relationship() != Separable || Equal(x, m) {
		t.Error("atomic override")
	}
	if w.List().Relationship() != Atomic || l.List().Relationship() != Associative || !slices.Equal(w.List().Keys(), []string{"a"}) {
		t.Error("list override")
	}
}

func TestRecursiveTypes(t *testing.T) {
	s, err := CompileYAML([]byte(`types:
- name: node
  map:
    fields:
    - {name: children, type: {list: {elementType: {namedType: node}, elementRelationship: atomic}}}
    - {name: next, type: {namedType: node}}
`))
	if err != nil {
		t.Fatal(err)
	}
	n := mustType(t, s, "node")
	if mustField(t, n, "next").Type() != n || mustField(t, n, "children").Type().List().ElementType() != n {
		t.Error("recursive references are not the node itself")
	}
	checkInvariants(t, s)
}

func TestCompileDoesNotModifyDocument(t *testing.T) {
	doc, err := Parse(readSchema(t, "basic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	before, err := Parse(readSchema(t, "basic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, doc, cmpValues); diff != "" {
		t.Fatalf("Compile modified the document:\n%s", diff)
	}
	// Editing the document afterwards does not reach the schema.
	ports := mustField(t, mustType(t, s, "widget"), "ports").Type().List()
	for i := range doc.Types {
		if doc.Types[i].Name == "widget" {
			for j := range doc.Types[i].Map.Fields {
				if l := doc.Types[i].Map.Fields[j].Type.List; l != nil && len(l.Keys) > 0 {
					l.Keys[0] = "changed"
				}
			}
		}
	}
	if ports.Keys()[0] != "port" {
		t.Error("schema shares the keys slice with the document")
	}
}

func TestCompileProgrammatic(t *testing.T) {
	doc := &Document{Types: []NamedType{
		{Name: "item", Atom: Atom{Map: &MapDef{Fields: []FieldDef{
			{Name: "id", Type: TypeRef{Atom: Atom{Scalar: "string"}}, Default: value.NewString("x")},
		}}}},
		{Name: "items", Atom: Atom{List: &ListDef{ElementType: TypeRef{NamedType: "item"}, ElementRelationship: "associative", Keys: []string{"id"}}}},
	}}
	s, err := Compile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := mustType(t, s, "items").List().KeyDefault(0); !ok || v.AsString() != "x" {
		t.Errorf("key default %v %v", value.Text(v), ok)
	}
	doc.Types[1].Atom.List.ElementType.NamedType = "missing"
	_, err = Compile(doc)
	if want := `schema: type "items" list.elementType: unknown named type "missing"`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if _, err := Compile(nil); !errors.Is(err, ErrMissing) {
		t.Errorf("Compile(nil) = %v", err)
	}
	if _, err := Compile(&Document{Types: []NamedType{{Atom: Atom{Scalar: "string"}}}}); !errors.Is(err, ErrMissing) {
		t.Errorf("unnamed type: %v", err)
	}
}

func TestCompileDepthBounded(t *testing.T) {
	// A chain of inline lists deeper than MaxDepth.
	root := &ListDef{}
	l := root
	for range MaxDepth + 10 {
		next := &ListDef{}
		l.ElementType = TypeRef{Atom: Atom{List: next}}
		l = next
	}
	_, err := Compile(&Document{Types: []NamedType{{Name: "deep", Atom: Atom{List: root}}}})
	if !errors.Is(err, ErrTooDeep) {
		t.Fatalf("deep document: %v", err)
	}

	// A cycle through pointers (only possible in code) is bounded too.
	m := &MapDef{}
	m.Fields = []FieldDef{{Name: "a", Type: TypeRef{Atom: Atom{Map: m}}}, {Name: "b", Type: TypeRef{Atom: Atom{Map: m}}}}
	_, err = Compile(&Document{Types: []NamedType{{Name: "cyclic", Atom: Atom{Map: m}}}})
	if !errors.Is(err, ErrTooDeep) {
		t.Fatalf("cyclic document: %v", err)
	}

	// Deep YAML within the YAML library's own limit parses without trouble.
	const depth = 5000
	in := "types:\n- name: a\n  map: {fields: [{name: x, default: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}]}\n"
	s, err := CompileYAML([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := mustField(t, mustType(t, s, "a"), "x").Default()
	n := 0
	for d.Kind() == value.List && d.Len() > 0 {
		d = d.Index(0)
		n++
	}
	if n != depth-1 {
		t.Errorf("default nesting %d, want %d", n, depth-1)
	}
}

func TestDeducedTypes(t *testing.T) {
	a, d := UntypedAtomic(), Deduced()
	if a.Name() != "__untyped_atomic_" || d.Name() != "__untyped_deduced_" {
		t.Fatalf("names %q %q", a.Name(), d.Name())
	}
	if a.Scalar() != Untyped || a.List().Relationship() != Atomic || a.List().ElementType() != a ||
		a.Map().Relationship() != Atomic || a.Map().ElementType() != a || len(a.Map().Fields()) != 0 {
		t.Error("UntypedAtomic has the wrong shape")
	}
	if d.Scalar() != Untyped || d.List().Relationship() != Atomic || d.List().ElementType() != a ||
		d.Map().Relationship() != Separable || d.Map().ElementType() != d {
		t.Error("Deduced has the wrong shape")
	}
}

func TestEnumStrings(t *testing.T) {
	for k, want := range map[ScalarKind]string{NoScalar: "none", Numeric: "numeric", String: "string", Boolean: "boolean", Untyped: "untyped", 9: "ScalarKind(9)"} {
		if k.String() != want {
			t.Errorf("%d: %q, want %q", k, k.String(), want)
		}
	}
	for r, want := range map[Relationship]string{Separable: "separable", Atomic: "atomic", Associative: "associative", 7: "Relationship(7)"} {
		if r.String() != want {
			t.Errorf("%d: %q, want %q", r, r.String(), want)
		}
	}
}

func TestTypeString(t *testing.T) {
	s, err := CompileYAML([]byte(`types:
- name: widget
  map:
    fields:
    - {name: tags, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
    - {name: items, type: {list: {elementType: {namedType: widget}, elementRelationship: associative, keys: [name, id]}}}
    - {name: labels, type: {map: {elementType: {scalar: string}, elementRelationship: atomic}}}
    - {name: any, type: {scalar: untyped, list: {elementType: {scalar: untyped}}, map: {elementType: {scalar: untyped}}}}
    - {name: nothing, type: {}}
    - {name: bad, type: {scalar: string, elementRelationship: atomic}}
`))
	if err != nil {
		t.Fatal(err)
	}
	w := mustType(t, s, "widget")
	want := map[string]string{
		"tags":    "inline list (associative)",
		"items":   "inline list (associative, keys [name id])",
		"labels":  "inline map (atomic)",
		"any":     "inline scalar untyped or list (atomic) or map (separable)",
		"nothing": "empty inline type",
		"bad":     "unresolvable inline type",
	}
	for name, w2 := range want {
		f, _ := w.Map().Field(name)
		if got := f.Type().String(); got != w2 {
			t.Errorf("%s: %q, want %q", name, got, w2)
		}
	}
	if got := w.String(); got != "widget" {
		t.Errorf("named: %q", got)
	}
	if got := fmt.Sprint(w); got != "widget" {
		t.Errorf("fmt of a *Type: %q", got)
	}
	var nilType *Type
	if got := nilType.String(); got != "<nil type>" {
		t.Errorf("nil: %q", got)
	}
}

// TestCompileLenient: with Lenient, a dangling reference and an unknown
// scalar word compile (as SMD accepts them) instead of being errors.
func TestCompileLenient(t *testing.T) {
	src := `types:
- name: a
  map:
    fields:
    - name: x
      type:
        namedType: missing
    - name: n
      type:
        scalar: number
`
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(doc); !errors.Is(err, ErrUnknownType) || !errors.Is(err, ErrScalar) {
		t.Fatalf("strict Compile: got %v, want unknown type and scalar errors", err)
	}
	s, err := Compile(doc, Lenient())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Type("a")
	x, _ := a.Map().Field("x")
	if !x.Type().Unresolvable() || x.Type().Name() != "missing" {
		t.Errorf("dangling reference: unresolvable %v, name %q", x.Type().Unresolvable(), x.Type().Name())
	}
	n, _ := a.Map().Field("n")
	if n.Type().Scalar() != UnknownScalar || n.Type().ScalarWord() != "number" {
		t.Errorf("unknown scalar: kind %v, word %q", n.Type().Scalar(), n.Type().ScalarWord())
	}
	if _, ok := s.Type("missing"); ok {
		t.Error("a dangling reference must not define a type")
	}
}

package conformance

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// schemaRoot holds the schema corpus. Files under a directory called
// "dangling" are accepted by SMD but reference undefined types (Compile
// rejects them); files under "invalid" are rejected by both.
const schemaRoot = "../testdata/schemas"

type schemaFile struct {
	path  string // relative to schemaRoot
	class string // "valid", "dangling" or "invalid"
}

func schemaCorpus(t testing.TB) []schemaFile {
	t.Helper()
	var files []schemaFile
	err := filepath.WalkDir(schemaRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		rel, err := filepath.Rel(schemaRoot, path)
		if err != nil {
			return err
		}
		class := "valid"
		switch filepath.Base(filepath.Dir(path)) {
		case "dangling":
			class = "dangling"
		case "invalid":
			class = "invalid"
		}
		files = append(files, schemaFile{path: rel, class: class})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("schema corpus has only %d files", len(files))
	}
	return files
}

// TestSchemaConformance compiles every schema of the corpus with
// schema.CompileYAML and with SMD's typed.NewParser, then walks both type
// graphs from every named type and checks that they describe the same
// types.
func TestSchemaConformance(t *testing.T) {
	for _, f := range schemaCorpus(t) {
		t.Run(f.path, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(schemaRoot, f.path))
			if err != nil {
				t.Fatal(err)
			}
			ours, oerr := schema.CompileYAML(data)
			parser, serr := typed.NewParser(typed.YAMLObject(data))
			switch f.class {
			case "invalid":
				if oerr == nil || serr == nil {
					t.Fatalf("want both to reject; structmerge: %v; SMD: %v", oerr, serr)
				}
				return
			case "dangling":
				if serr != nil {
					t.Fatalf("SMD rejects a dangling schema: %v", serr)
				}
				if !errors.Is(oerr, schema.ErrUnknownType) {
					t.Fatalf("structmerge: want ErrUnknownType, got %v", oerr)
				}
				return
			}
			if oerr != nil || serr != nil {
				t.Fatalf("want both to accept; structmerge: %v; SMD: %v", oerr, serr)
			}
			smdNames := slices.Clone(parser.TypeNames())
			slices.Sort(smdNames)
			smdNames = slices.Compact(smdNames)
			if got := ours.TypeNames(); !slices.Equal(got, smdNames) {
				t.Fatalf("type names differ:\n ours %v\n SMD  %v", got, smdNames)
			}
			w := newSchemaWalker(t, &parser.Schema)
			for _, name := range smdNames {
				typ, _ := ours.Type(name)
				w.push(typ, smdschema.TypeRef{NamedType: &name}, fmt.Sprintf("type %q", name))
			}
			w.run()
			t.Logf("%d types, %d (type, reference) pairs compared, %d unresolvable", len(smdNames), w.pairs, w.unresolvable)
			if strings.Contains(f.path, "100pct-fieldoverride") && w.unresolvable == 0 {
				t.Error("the 100pct-fieldoverride schema has overrides on scalar types; none was seen")
			}
		})
	}
}

// TestSchemaConformanceDeduced compares schema.Deduced and
// schema.UntypedAtomic with SMD's DeducedParseableType.
func TestSchemaConformanceDeduced(t *testing.T) {
	pt := typed.DeducedParseableType
	w := newSchemaWalker(t, pt.Schema)
	w.push(schema.Deduced(), pt.TypeRef, "Deduced")
	atomic := "__untyped_atomic_"
	w.push(schema.UntypedAtomic(), smdschema.TypeRef{NamedType: &atomic}, "UntypedAtomic")
	w.run()
	if w.pairs < 2 {
		t.Fatalf("compared only %d pairs", w.pairs)
	}
}

// smdRefKey identifies an SMD type reference by content (TypeRefs hold
// pointers to their name, which differ between references to one type).
type smdRefKey struct {
	name   string
	named  bool
	rel    smdschema.ElementRelationship
	hasRel bool
	scalar *smdschema.Scalar
	list   *smdschema.List
	m      *smdschema.Map
}

func keyOf(r smdschema.TypeRef) smdRefKey {
	k := smdRefKey{scalar: r.Inlined.Scalar, list: r.Inlined.List, m: r.Inlined.Map}
	if r.NamedType != nil {
		k = smdRefKey{name: *r.NamedType, named: true}
	}
	if r.ElementRelationship != nil {
		k.rel, k.hasRel = *r.ElementRelationship, true
	}
	return k
}

type walkItem struct {
	ours *schema.Type
	ref  smdschema.TypeRef
	path string
}

type schemaWalker struct {
	t    *testing.T
	s    *smdschema.Schema
	work []walkItem
	seen map[struct {
		ours *schema.Type
		key  smdRefKey
	}]bool
	pairs        int
	unresolvable int
	failures     int
}

func newSchemaWalker(t *testing.T, s *smdschema.Schema) *schemaWalker {
	return &schemaWalker{t: t, s: s, seen: map[struct {
		ours *schema.Type
		key  smdRefKey
	}]bool{}}
}

func (w *schemaWalker) push(ours *schema.Type, ref smdschema.TypeRef, path string) {
	w.work = append(w.work, walkItem{ours, ref, path})
}

func (w *schemaWalker) errorf(path, format string, args ...any) {
	w.t.Helper()
	w.failures++
	if w.failures <= 20 {
		w.t.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
}

// run compares pairs until the worklist is empty (no recursion: the graphs
// have cycles and may be deep).
func (w *schemaWalker) run() {
	for len(w.work) > 0 {
		it := w.work[len(w.work)-1]
		w.work = w.work[:len(w.work)-1]
		if it.ours == nil {
			w.errorf(it.path, "structmerge has no type")
			continue
		}
		k := struct {
			ours *schema.Type
			key  smdRefKey
		}{it.ours, keyOf(it.ref)}
		if w.seen[k] {
			continue
		}
		w.seen[k] = true
		w.pairs++
		w.compare(it)
	}
}

func smdListRel(r smdschema.ElementRelationship) schema.Relationship {
	// SMD indexes a list by key only when it is associative; anything else
	// (atomic, or unset) is one leaf.
	if r == smdschema.Associative {
		return schema.Associative
	}
	return schema.Atomic
}

func smdMapRel(r smdschema.ElementRelationship) schema.Relationship {
	if r == smdschema.Atomic {
		return schema.Atomic
	}
	return schema.Separable
}

func (w *schemaWalker) compare(it walkItem) {
	ours, path := it.ours, it.path
	atom, ok := w.s.Resolve(it.ref)
	if !ok {
		w.unresolvable++
		if !ours.Unresolvable() || !ours.IsEmpty() {
			w.errorf(path, "SMD cannot resolve the reference; structmerge's type is not Unresolvable")
		}
		return
	}
	if ours.Unresolvable() {
		w.errorf(path, "structmerge's type is Unresolvable; SMD resolves it")
		return
	}
	wantName := ""
	if it.ref.NamedType != nil {
		wantName = *it.ref.NamedType
	}
	if ours.Name() != wantName {
		w.errorf(path, "name %q, SMD %q", ours.Name(), wantName)
	}
	if ours.IsEmpty() != (atom.Scalar == nil && atom.List == nil && atom.Map == nil) {
		w.errorf(path, "IsEmpty %v disagrees with SMD's atom", ours.IsEmpty())
	}

	// Scalar.
	switch {
	case atom.Scalar == nil && ours.Scalar() != schema.NoScalar:
		w.errorf(path, "scalar %v, SMD none", ours.Scalar())
	case atom.Scalar != nil && ours.Scalar().String() != string(*atom.Scalar):
		w.errorf(path, "scalar %v, SMD %q", ours.Scalar(), *atom.Scalar)
	}

	// List.
	ol, sl := ours.List(), atom.List
	switch {
	case (ol == nil) != (sl == nil):
		w.errorf(path, "has list %v, SMD %v", ol != nil, sl != nil)
	case sl != nil:
		if got, want := ol.Relationship(), smdListRel(sl.ElementRelationship); got != want {
			w.errorf(path, "list relationship %v, SMD %q (%v)", got, sl.ElementRelationship, want)
		}
		if !slices.Equal(ol.Keys(), sl.Keys) {
			w.errorf(path, "list keys %q, SMD %q", ol.Keys(), sl.Keys)
		}
		for i, key := range sl.Keys {
			want, wantOK := w.smdKeyDefault(sl, key)
			got, gotOK := ol.KeyDefault(i)
			if gotOK != wantOK || (gotOK && !value.Equal(got, want)) {
				w.errorf(path, "default of key %q: %v %v, SMD %v %v", key, value.Text(got), gotOK, value.Text(want), wantOK)
			}
		}
		if ol.ElementType() == nil {
			w.errorf(path, "list element type is nil")
		} else {
			w.push(ol.ElementType(), sl.ElementType, path+" list.elementType")
		}
	}

	// Map.
	om, sm := ours.Map(), atom.Map
	switch {
	case (om == nil) != (sm == nil):
		w.errorf(path, "has map %v, SMD %v", om != nil, sm != nil)
	case sm != nil:
		w.compareMap(om, sm, path)
	}
}

func (w *schemaWalker) compareMap(om *schema.Map, sm *smdschema.Map, path string) {
	if got, want := om.Relationship(), smdMapRel(sm.ElementRelationship); got != want {
		w.errorf(path, "map relationship %v, SMD %q (%v)", got, sm.ElementRelationship, want)
	}
	fields := om.Fields()
	if len(fields) != len(sm.Fields) {
		w.errorf(path, "%d fields, SMD %d", len(fields), len(sm.Fields))
		return
	}
	for i := range sm.Fields {
		sf, of := &sm.Fields[i], &fields[i]
		fpath := fmt.Sprintf("%s field %q", path, sf.Name)
		if of.Name() != sf.Name {
			w.errorf(fpath, "field #%d is %q", i, of.Name())
			continue
		}
		// Lookup by name agrees with SMD's FindField (which keeps the
		// last of duplicate names; there are none in a valid schema).
		found, ok := om.Field(sf.Name)
		if ff, sok := sm.FindField(sf.Name); !ok || !sok || found.Name() != ff.Name {
			w.errorf(fpath, "Field lookup: %v, SMD %v", ok, sok)
		}
		got, gotOK := of.Default()
		if wantOK := sf.Default != nil; gotOK != wantOK {
			w.errorf(fpath, "has default %v, SMD %v", gotOK, wantOK)
		} else if gotOK {
			want, err := fromSMD(sf.Default)
			if err != nil {
				w.errorf(fpath, "SMD default: %v", err)
			} else if !value.Equal(got, want) {
				w.errorf(fpath, "default %s, SMD %s", value.Text(got), value.Text(want))
			}
		}
		w.push(of.Type(), sf.Type, fpath)
	}
	const missing = "\x00not-a-field"
	if _, ok := om.Field(missing); ok {
		w.errorf(path, "Field finds an undeclared name")
	}
	if (sm.ElementType == smdschema.TypeRef{}) {
		if om.ElementType() != nil {
			w.errorf(path, "map has an element type; SMD has none")
		}
	} else if om.ElementType() == nil {
		w.errorf(path, "map has no element type; SMD has one")
	} else {
		w.push(om.ElementType(), sm.ElementType, path+" map.elementType")
	}
	unions := om.Unions()
	if len(unions) != len(sm.Unions) {
		w.errorf(path, "%d unions, SMD %d", len(unions), len(sm.Unions))
		return
	}
	for i := range sm.Unions {
		su, ou := &sm.Unions[i], &unions[i]
		d, hasD := ou.Discriminator()
		if hasD != (su.Discriminator != nil) || (hasD && d != *su.Discriminator) {
			w.errorf(path, "union #%d discriminator %q %v", i, d, hasD)
		}
		if ou.DeduceInvalidDiscriminator() != su.DeduceInvalidDiscriminator {
			w.errorf(path, "union #%d deduceInvalidDiscriminator differs", i)
		}
		var want []schema.UnionField
		for _, f := range su.Fields {
			want = append(want, schema.UnionField{FieldName: f.FieldName, DiscriminatorValue: f.DiscriminatorValue})
		}
		if !slices.Equal(ou.Fields(), want) {
			w.errorf(path, "union #%d fields %v, SMD %v", i, ou.Fields(), want)
		}
	}
}

// smdKeyDefault finds the default of a key field the way SMD's typed package
// does when an item omits the key: the element type's map's field default.
func (w *schemaWalker) smdKeyDefault(l *smdschema.List, key string) (value.Value, bool) {
	atom, ok := w.s.Resolve(l.ElementType)
	if !ok || atom.Map == nil {
		return value.Value{}, false
	}
	f, _ := atom.Map.FindField(key)
	if f.Default == nil {
		return value.Value{}, false
	}
	v, err := fromSMD(f.Default)
	if err != nil {
		w.t.Errorf("key %q: %v", key, err)
		return value.Value{}, false
	}
	return v, true
}

// fromSMD converts a value decoded by SMD's YAML reader (yaml.v2) into a
// structmerge value.
func fromSMD(x any) (value.Value, error) {
	switch x := x.(type) {
	case nil:
		return value.NewNull(), nil
	case bool:
		return value.NewBool(x), nil
	case int:
		return value.NewInt(int64(x)), nil
	case int64:
		return value.NewInt(x), nil
	case uint64:
		return value.NewFloat(float64(x)), nil
	case float64:
		return value.NewFloat(x), nil
	case string:
		return value.NewString(x), nil
	case []any:
		items := make([]value.Value, len(x))
		for i, it := range x {
			v, err := fromSMD(it)
			if err != nil {
				return value.Value{}, err
			}
			items[i] = v
		}
		return value.NewList(items), nil
	case map[any]any:
		fields := make([]value.Field, 0, len(x))
		for k, it := range x {
			ks, ok := k.(string)
			if !ok {
				return value.Value{}, fmt.Errorf("map key %v (%T) is not a string", k, k)
			}
			v, err := fromSMD(it)
			if err != nil {
				return value.Value{}, err
			}
			fields = append(fields, value.Field{Name: ks, Value: v})
		}
		return value.NewMap(fields), nil
	case map[string]any:
		fields := make([]value.Field, 0, len(x))
		for k, it := range x {
			v, err := fromSMD(it)
			if err != nil {
				return value.Value{}, err
			}
			fields = append(fields, value.Field{Name: k, Value: v})
		}
		return value.NewMap(fields), nil
	}
	return value.Value{}, fmt.Errorf("unsupported %T", x)
}

var benchSchemas = []string{"k8s.yaml", "smd/k8s-schema.yaml"}

// BenchmarkCompileK8s_SMD measures SMD's typed.NewParser (which validates the
// schema and decodes it; SMD resolves references lazily, later).
func BenchmarkCompileK8s_SMD(b *testing.B) {
	for _, name := range benchSchemas {
		data, err := os.ReadFile(filepath.Join(schemaRoot, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := typed.NewParser(typed.YAMLObject(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompileK8s_Structmerge measures schema.CompileYAML (parse, check,
// resolve every reference and build every index) on the same inputs.
func BenchmarkCompileK8s_Structmerge(b *testing.B) {
	for _, name := range benchSchemas {
		data, err := os.ReadFile(filepath.Join(schemaRoot, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := schema.CompileYAML(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package bench

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdtyped "sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// This file holds the benchmarks that start from the forms a Kubernetes
// server holds: an object decoded to map[string]any, a managed-field set as
// FieldsV1 bytes, a schema as YAML. Inputs are prepared outside the timed
// loop, and every row starts both libraries from the same form: where
// their natural forms differ (SMD reads the map in place, structmerge
// converts it to a value.Value), the conversion is inside the timed loop.
// The one exception is encoding FieldsV1, which starts from the same field
// set held in each library's own set type, there being no shared form of a
// set short of its encoding.

// Schemas are parsed once per library and file and shared by every
// benchmark that needs them, as a server shares one type converter. The
// SMD parsers are shared on purpose: their lazily-built caches are warm
// after the first use, which is the state a long-running server is in.
var schemas = struct {
	sync.Mutex
	smd map[string]*smdtyped.Parser
	sm  map[string]*schema.Schema
}{smd: map[string]*smdtyped.Parser{}, sm: map[string]*schema.Schema{}}

func smdParser(tb testing.TB, file string) *smdtyped.Parser {
	tb.Helper()
	schemas.Lock()
	defer schemas.Unlock()
	if p := schemas.smd[file]; p != nil {
		return p
	}
	p, err := smdtyped.NewParser(smdtyped.YAMLObject(readTestdata(tb, file)))
	if err != nil {
		tb.Fatalf("smd: parsing %s: %v", file, err)
	}
	schemas.smd[file] = p
	return p
}

func smSchema(tb testing.TB, file string) *schema.Schema {
	tb.Helper()
	schemas.Lock()
	defer schemas.Unlock()
	if s := schemas.sm[file]; s != nil {
		return s
	}
	s, err := schema.CompileYAML(readTestdata(tb, file))
	if err != nil {
		tb.Fatalf("structmerge: compiling %s: %v", file, err)
	}
	schemas.sm[file] = s
	return s
}

func smType(tb testing.TB, file, name string) *schema.Type {
	tb.Helper()
	t, ok := smSchema(tb, file).Type(name)
	if !ok {
		tb.Fatalf("structmerge: %s has no type %s", file, name)
	}
	return t
}

// unstructuredObject decodes a test data file the way the API server
// decodes a request body: YAML to JSON, then JSON to map[string]any with
// integers as int64. Each call returns a fresh map.
func unstructuredObject(tb testing.TB, file string) map[string]any {
	tb.Helper()
	js, err := yaml.YAMLToJSON(readTestdata(tb, file))
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(js, &obj); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return obj
}

// smValue converts a decoded object to structmerge's value form.
func smValue(tb testing.TB, obj any) value.Value {
	tb.Helper()
	v, err := value.FromUnstructured(obj)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

func findWorkload(tb testing.TB, name string) workload {
	tb.Helper()
	for _, w := range workloads {
		if w.name == name {
			return w
		}
	}
	tb.Fatalf("no workload %s", name)
	return workload{}
}

// bench runs f b.N times after one untimed call, failing on any error.
func bench(b *testing.B, f func() error) {
	b.Helper()
	if err := f(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate turns each workload object, decoded to map[string]any
// as a server decodes a request body, into a validated typed value. Both
// libraries start from the same map and do their whole conversion inside
// the timed loop: SMD's pt.FromUnstructured (a thin value view over the
// map, then the validating walk) against structmerge's
// value.FromUnstructured followed by typed.New.
func BenchmarkValidate(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name+"/smd", func(b *testing.B) {
			pt := smdParser(b, w.schemaFile).Type(w.typeName)
			obj := unstructuredObject(b, w.objectFile)
			bench(b, func() error {
				_, err := pt.FromUnstructured(obj)
				return err
			})
		})
		b.Run(w.name+"/structmerge", func(b *testing.B) {
			t := smType(b, w.schemaFile, w.typeName)
			obj := unstructuredObject(b, w.objectFile)
			bench(b, func() error { _, err := smValidate(t, obj); return err })
		})
	}
}

// smValidate is structmerge's side of BenchmarkValidate: the conversion
// from the decoded map and the validation.
func smValidate(t *schema.Type, obj map[string]any) (typed.Value, error) {
	v, err := value.FromUnstructured(obj)
	if err != nil {
		return typed.Value{}, err
	}
	return typed.New(t, v)
}

// fieldsV1Workloads are the objects whose field sets BenchmarkFieldsV1
// encodes and decodes.
var fieldsV1Workloads = []string{"Pod", "PrometheusCRD"}

// smdFieldSet is the field set of a workload object, computed by SMD.
func smdFieldSet(tb testing.TB, w workload) *smdfieldpath.Set {
	tb.Helper()
	tv, err := smdParser(tb, w.schemaFile).Type(w.typeName).FromUnstructured(unstructuredObject(tb, w.objectFile))
	if err != nil {
		tb.Fatal(err)
	}
	s, err := tv.ToFieldSet()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// smFieldSet is the field set of a workload object, computed by structmerge.
func smFieldSet(tb testing.TB, w workload) *fieldpath.Set {
	tb.Helper()
	tv, err := typed.New(smType(tb, w.schemaFile, w.typeName), smValue(tb, unstructuredObject(tb, w.objectFile)))
	if err != nil {
		tb.Fatal(err)
	}
	s, err := tv.FieldSet()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// fieldsV1Encodings computes a workload's field set with each library and
// checks that the two encodings are byte-identical; it returns the
// encoding.
func fieldsV1Encodings(tb testing.TB, w workload) []byte {
	tb.Helper()
	smdJS, err := smdFieldSet(tb, w).ToJSON()
	if err != nil {
		tb.Fatal(err)
	}
	smJS := smFieldSet(tb, w).MarshalFieldsV1()
	if !bytes.Equal(smdJS, smJS) {
		tb.Fatalf("%s: FieldsV1 encodings differ:\nsmd:         %.300s\nstructmerge: %.300s", w.name, smdJS, smJS)
	}
	return smdJS
}

// BenchmarkFieldsV1 encodes and decodes the managed-field set of whole
// objects: SMD's Set.ToJSON and Set.FromJSON against structmerge's
// Set.MarshalFieldsV1 and ParseFieldsV1. The sets are computed once per
// library; the bytes decoded are the (identical) encoding.
func BenchmarkFieldsV1(b *testing.B) {
	for _, name := range fieldsV1Workloads {
		b.Run("Encode/"+name+"/smd", func(b *testing.B) {
			w := findWorkload(b, name)
			want := fieldsV1Encodings(b, w)
			s := smdFieldSet(b, w)
			bench(b, func() error {
				js, err := s.ToJSON()
				if err == nil && len(js) != len(want) {
					err = fmt.Errorf("encoded %d bytes, want %d", len(js), len(want))
				}
				return err
			})
		})
		b.Run("Encode/"+name+"/structmerge", func(b *testing.B) {
			w := findWorkload(b, name)
			want := fieldsV1Encodings(b, w)
			s := smFieldSet(b, w)
			bench(b, func() error {
				if js := s.MarshalFieldsV1(); len(js) != len(want) {
					return fmt.Errorf("encoded %d bytes, want %d", len(js), len(want))
				}
				return nil
			})
		})
		b.Run("Decode/"+name+"/smd", func(b *testing.B) {
			w := findWorkload(b, name)
			data := fieldsV1Encodings(b, w)
			want := smdFieldSet(b, w)
			var r bytes.Reader
			var got *smdfieldpath.Set
			bench(b, func() error {
				r.Reset(data)
				got = &smdfieldpath.Set{}
				return got.FromJSON(&r)
			})
			b.StopTimer()
			if !got.Equals(want) {
				b.Fatal("decoded set differs from the encoded one")
			}
		})
		b.Run("Decode/"+name+"/structmerge", func(b *testing.B) {
			w := findWorkload(b, name)
			data := fieldsV1Encodings(b, w)
			want := smFieldSet(b, w)
			var got *fieldpath.Set
			bench(b, func() error {
				var err error
				got, err = fieldpath.ParseFieldsV1(data)
				return err
			})
			b.StopTimer()
			if !got.Equal(want) {
				b.Fatal("decoded set differs from the encoded one")
			}
		})
	}
}

// BenchmarkCompile turns SMD's Kubernetes schema YAML into a usable schema:
// SMD's typed.NewParser (validate against the schema of schemas, decode)
// against structmerge's schema.CompileYAML (decode, resolve, index).
func BenchmarkCompile(b *testing.B) {
	b.Run("k8s/smd", func(b *testing.B) {
		y := smdtyped.YAMLObject(readTestdata(b, "k8s-schema.yaml"))
		bench(b, func() error {
			p, err := smdtyped.NewParser(y)
			if err == nil && len(p.Schema.Types) == 0 {
				err = fmt.Errorf("no types")
			}
			return err
		})
	})
	b.Run("k8s/structmerge", func(b *testing.B) {
		data := readTestdata(b, "k8s-schema.yaml")
		bench(b, func() error {
			s, err := schema.CompileYAML(data)
			if err == nil && len(s.TypeNames()) == 0 {
				err = fmt.Errorf("no types")
			}
			return err
		})
	})
}

// TestExtraAgree checks that the benchmarks of this file compare equal
// work: both libraries accept every workload object, as BenchmarkValidate
// gives it to them (the same decoded map), and compute the same field set
// for it, the FieldsV1 encodings are identical and decode back to
// the same sets, and both schemas name the same types.
func TestExtraAgree(t *testing.T) {
	for _, w := range workloads {
		t.Run("Validate/"+w.name, func(t *testing.T) {
			obj := unstructuredObject(t, w.objectFile)
			smdTV, err := smdParser(t, w.schemaFile).Type(w.typeName).FromUnstructured(obj)
			if err != nil {
				t.Fatalf("smd: %v", err)
			}
			smTV, err := smValidate(smType(t, w.schemaFile, w.typeName), obj)
			if err != nil {
				t.Fatalf("structmerge: %v", err)
			}
			v, err := value.FromUnstructured(obj)
			if err != nil {
				t.Fatal(err)
			}
			smdSet, err := smdTV.ToFieldSet()
			if err != nil {
				t.Fatal(err)
			}
			smdJS, err := smdSet.ToJSON()
			if err != nil {
				t.Fatal(err)
			}
			smSet, err := smTV.FieldSet()
			if err != nil {
				t.Fatal(err)
			}
			if smJS := smSet.MarshalFieldsV1(); !bytes.Equal(smdJS, smJS) {
				t.Errorf("field sets differ:\nsmd:         %.300s\nstructmerge: %.300s", smdJS, smJS)
			}
			// The typed value holds the object unchanged.
			want := value.ToJSON(v)
			if got := value.ToJSON(smTV.Value()); !bytes.Equal(got, want) {
				t.Errorf("structmerge changed the object")
			}
			back, err := value.FromUnstructured(smdTV.AsValue().Unstructured())
			if err != nil {
				t.Fatal(err)
			}
			if got := value.ToJSON(back); !bytes.Equal(got, want) {
				t.Errorf("smd changed the object")
			}
		})
	}
	for _, name := range fieldsV1Workloads {
		t.Run("FieldsV1/"+name, func(t *testing.T) {
			w := findWorkload(t, name)
			data := fieldsV1Encodings(t, w)
			smdGot := &smdfieldpath.Set{}
			if err := smdGot.FromJSON(bytes.NewReader(data)); err != nil {
				t.Fatal(err)
			}
			if !smdGot.Equals(smdFieldSet(t, w)) {
				t.Error("smd: decoded set differs")
			}
			smGot, err := fieldpath.ParseFieldsV1(data)
			if err != nil {
				t.Fatal(err)
			}
			if !smGot.Equal(smFieldSet(t, w)) {
				t.Error("structmerge: decoded set differs")
			}
			if got := smGot.MarshalFieldsV1(); !bytes.Equal(got, data) {
				t.Errorf("structmerge: re-encoding differs:\n got %.300s\nwant %.300s", got, data)
			}
		})
	}
	t.Run("Compile", func(t *testing.T) {
		data := readTestdata(t, "k8s-schema.yaml")
		p, err := smdtyped.NewParser(smdtyped.YAMLObject(data))
		if err != nil {
			t.Fatal(err)
		}
		s, err := schema.CompileYAML(data)
		if err != nil {
			t.Fatal(err)
		}
		smdNames := p.TypeNames()
		slices.Sort(smdNames)
		smdNames = slices.Compact(smdNames)
		if got := s.TypeNames(); !slices.Equal(got, smdNames) {
			t.Errorf("type names differ: smd has %d, structmerge %d", len(smdNames), len(got))
		}
	})
}

// smdState is an SMD end state in the comparable form of result.
func smdState(live *smdtyped.TypedValue, managers smdfieldpath.ManagedFields) (result, error) {
	v, err := value.FromUnstructured(live.AsValue().Unstructured())
	if err != nil {
		return result{}, err
	}
	names := make([]string, 0, len(managers))
	for n := range managers {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		js, err := managers[n].Set().ToJSON()
		if err != nil {
			return result{}, err
		}
		fmt.Fprintf(&b, "%s %s %v %s\n", n, managers[n].APIVersion(), managers[n].Applied(), js)
	}
	return result{object: string(value.ToJSON(v)), managers: b.String()}, nil
}

// smState is a structmerge end state in the comparable form of result.
func smState(live typed.Value, managers fieldpath.Managers) result {
	var b strings.Builder
	for _, n := range managers.Names() {
		m := managers[n]
		fmt.Fprintf(&b, "%s %s %v %s\n", n, m.APIVersion, m.Applied, m.Set.MarshalFieldsV1())
	}
	return result{object: string(value.ToJSON(live.Value())), managers: b.String()}
}

// compareResults reports where two end states differ.
func compareResults(t *testing.T, smd, sm result) {
	t.Helper()
	if smd.object != sm.object {
		t.Errorf("objects differ:\nsmd:         %.300s\nstructmerge: %.300s", smd.object, sm.object)
	}
	if smd.managers != sm.managers {
		t.Errorf("managers differ:\nsmd:         %.500s\nstructmerge: %.500s", smd.managers, sm.managers)
	}
}

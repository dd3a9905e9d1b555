package bench

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
)

// benchKubeBoundaryStruct adds to BenchmarkKubeBoundary the struct
// conversions of the Struct form, for the stored objects of the built-in
// kinds, against their limit, a plain reflective walk of the same struct
// (no json tags, no encoding/json): FromStruct against a walk that reads
// every field, element and entry; ToStruct against a walk that builds the
// same struct anew (a reflective deep copy: one allocation per pointer,
// slice and map, as ToStruct makes).
func benchKubeBoundaryStruct(b *testing.B, s *e2eSetup) {
	st := kubeE2EStructs(b, s)
	for _, o := range s.objects {
		if o.crd {
			continue
		}
		c := st.codecs[o.name]
		obj := decodeStruct(b, o, o.stored)
		v, err := c.FromStruct(obj)
		if err != nil {
			b.Fatal(err)
		}
		rv := reflect.ValueOf(obj).Elem()
		b.Run("FromStruct/"+o.name+"/walk", func(b *testing.B) {
			bench(b, func() error {
				sinkInt += structReadWalk(rv)
				return nil
			})
		})
		b.Run("FromStruct/"+o.name+"/structmerge", func(b *testing.B) {
			bench(b, func() error {
				_, err := c.FromStruct(obj)
				return err
			})
		})
		b.Run("ToStruct/"+o.name+"/walk", func(b *testing.B) {
			bench(b, func() error {
				sinkAny = structCopyWalk(rv).Addr().Interface()
				return nil
			})
		})
		b.Run("ToStruct/"+o.name+"/structmerge", func(b *testing.B) {
			bench(b, func() error {
				out := reflect.New(c.Type()).Interface()
				sinkAny = out
				return c.ToStruct(v, out)
			})
		})
	}
}

// structReadWalk visits every field, element and entry of v and returns a
// number that depends on all of them.
func structReadWalk(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += structReadWalk(v.Field(i))
		}
		return n
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return 1 + structReadWalk(v.Elem())
	case reflect.Slice, reflect.Array:
		n := v.Len()
		for i := range v.Len() {
			n += structReadWalk(v.Index(i))
		}
		return n
	case reflect.Map:
		n := v.Len()
		it := v.MapRange()
		for it.Next() {
			n += structReadWalk(it.Key()) + structReadWalk(it.Value())
		}
		return n
	case reflect.String:
		return v.Len()
	case reflect.Bool:
		if v.Bool() {
			return 1
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int() & 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int(v.Uint() & 1)
	case reflect.Float32, reflect.Float64:
		return int(v.Float()) & 1
	}
	return 0
}

// structCopyWalk returns an addressable deep copy of v, into a new value:
// zero parts are left as they are. A struct with unexported fields (a
// time, a quantity) is copied whole, as a value.
func structCopyWalk(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	structCopyInto(out, v)
	return out
}

func structCopyInto(dst, src reflect.Value) {
	if src.IsZero() {
		return // dst is new: already zero
	}
	switch src.Kind() {
	case reflect.Struct:
		for i := range src.NumField() {
			if !dst.Field(i).CanSet() { // unexported
				dst.Set(src)
				return
			}
		}
		for i := range src.NumField() {
			structCopyInto(dst.Field(i), src.Field(i))
		}
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		structCopyInto(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			structCopyInto(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			e := reflect.New(src.Type().Elem()).Elem()
			structCopyInto(e, it.Value())
			m.SetMapIndex(it.Key(), e)
		}
		dst.Set(m)
	case reflect.String:
		dst.SetString(src.String())
	case reflect.Bool:
		dst.SetBool(src.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		dst.SetInt(src.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		dst.SetUint(src.Uint())
	case reflect.Float32, reflect.Float64:
		dst.SetFloat(src.Float())
	default:
		dst.Set(src)
	}
}

// TestKubeBoundaryStructWalks checks that the struct limit walks do the
// work they stand for: the copy equals the original and shares no
// pointer, slice or map with it, and the read walk sees a new field.
func TestKubeBoundaryStructWalks(t *testing.T) {
	s := kubeE2E(t)
	for _, o := range s.objects {
		if o.crd {
			continue
		}
		obj := decodeStruct(t, o, o.stored)
		c := structCopyWalk(reflect.ValueOf(obj).Elem()).Addr().Interface().(runtime.Object)
		ov, err := gostruct.FromStruct(obj)
		if err != nil {
			t.Fatal(err)
		}
		cv, err := gostruct.FromStruct(c)
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(ov, cv) {
			t.Errorf("%s: the copy differs from the original", o.name)
		}
		labels := func(x runtime.Object) map[string]string {
			return reflect.ValueOf(x).Elem().FieldByName("ObjectMeta").FieldByName("Labels").Interface().(map[string]string)
		}
		before := structReadWalk(reflect.ValueOf(obj).Elem())
		if labels(obj) == nil {
			t.Fatalf("%s has no labels", o.name)
		}
		labels(c)["e2e-probe"] = "x"
		if _, ok := labels(obj)["e2e-probe"]; ok {
			t.Errorf("%s: the copy shares its labels with the original", o.name)
		}
		if structReadWalk(reflect.ValueOf(c).Elem()) == before {
			t.Errorf("%s: the read walk does not see a new label", o.name)
		}
	}
}

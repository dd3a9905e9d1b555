package bench

// The Go-struct form of BenchmarkKubeEndToEnd, the API server's path for
// built-in kinds: the live object as a Go struct of the k8s.io/api types
// (as storage decodes it), an update's body as a struct too (as the
// request decoder makes it), an apply's body as map[string]any (an apply
// configuration is a patch, decoded unstructured), and the result as a
// struct. The reference is apimachinery's field manager built as the API
// server builds it for a built-in kind: client-go's scheme as the creater
// and, unsafe (no copies), as the object convertor, which turns the
// merged object back into the Go type. structmerge converts with one
// gostruct.Codec per type, built once before any request, as a server
// does at start; each request converts struct -> value, goes through
// kube.FieldManager, and converts value -> struct.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	clientscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
)

// e2eStructs is the setup of the struct form: a codec per object and the
// reference's field managers with the scheme.
type e2eStructs struct {
	codecs map[string]*gostruct.Codec             // by object name
	run    map[string]structRun                   // by object name
	ref    map[string]*managedfields.FieldManager // by object/subresource
}

var (
	e2eStructOnce sync.Once
	e2eStruct     *e2eStructs
	e2eStructErr  error
)

// kubeE2EStructs builds the struct form's setup once per process.
func kubeE2EStructs(tb testing.TB, s *e2eSetup) *e2eStructs {
	tb.Helper()
	e2eStructOnce.Do(func() { e2eStruct, e2eStructErr = buildE2EStructs(s) })
	if e2eStructErr != nil {
		tb.Fatal(e2eStructErr)
	}
	return e2eStruct
}

func buildE2EStructs(s *e2eSetup) (*e2eStructs, error) {
	st := &e2eStructs{codecs: map[string]*gostruct.Codec{}, run: map[string]structRun{}, ref: map[string]*managedfields.FieldManager{}}
	tc := applyconfigurations.NewTypeConverter(clientscheme.Scheme)
	convertor := runtime.UnsafeObjectConvertor(clientscheme.Scheme)
	for _, o := range s.objects {
		if o.crd {
			continue
		}
		obj, err := clientscheme.Scheme.New(o.gvk)
		if err != nil {
			return nil, err
		}
		if st.codecs[o.name], err = gostruct.NewCodec(reflect.TypeOf(obj).Elem()); err != nil {
			return nil, err
		}
		switch obj.(type) {
		case *corev1.Pod:
			st.run[o.name] = structRunner[corev1.Pod]
		case *corev1.Node:
			st.run[o.name] = structRunner[corev1.Node]
		case *corev1.Endpoints:
			st.run[o.name] = structRunner[corev1.Endpoints]
		case *appsv1.Deployment:
			st.run[o.name] = structRunner[appsv1.Deployment]
		default:
			return nil, fmt.Errorf("no struct form for a %T", obj)
		}
		for _, sub := range []string{"", "status"} {
			fm, err := managedfields.NewDefaultFieldManager(tc, convertor, e2eDefaulter{}, clientscheme.Scheme, o.gvk, o.gvk.GroupVersion(), sub, refResetFilters(o.gvk, sub))
			if err != nil {
				return nil, err
			}
			st.ref[o.name+"/"+sub] = fm
		}
	}
	return st, nil
}

// structPair is one request's input in the struct form: the live object
// (nil for a create) and the body (a map for an apply, a struct for an
// update).
type structPair struct {
	live runtime.Object
	body any
}

// decodeStruct decodes JSON into a new object of o's Go type.
func decodeStruct(tb testing.TB, o *e2eObject, data []byte) runtime.Object {
	tb.Helper()
	obj, err := clientscheme.Scheme.New(o.gvk)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(data, obj); err != nil {
		tb.Fatal(err)
	}
	return obj
}

func decodeStructPair(tb testing.TB, o *e2eObject, r e2eRequest) structPair {
	var p structPair
	if r.live != nil {
		p.live = decodeStruct(tb, o, r.live)
	}
	if r.apply {
		p.body = decodeJSON(tb, r.body)
	} else {
		p.body = decodeStruct(tb, o, r.body)
	}
	return p
}

// refStruct runs one request on the reference, structs in and out.
func (st *e2eStructs) refStruct(o *e2eObject, r e2eRequest, in structPair) (runtime.Object, error) {
	fm := st.ref[o.name+"/"+r.subresource]
	live := in.live
	if live == nil {
		var err error
		if live, err = clientscheme.Scheme.New(o.gvk); err != nil {
			return nil, err
		}
	}
	var out runtime.Object
	var err error
	if r.apply {
		out, err = fm.Apply(live, &unstructured.Unstructured{Object: in.body.(map[string]any)}, r.manager, false)
	} else {
		out, err = fm.Update(live, in.body.(runtime.Object), r.manager)
	}
	if err != nil {
		return nil, err
	}
	if reflect.TypeOf(out) != reflect.TypeOf(live) {
		return nil, fmt.Errorf("the reference returned a %T for a %T", out, live)
	}
	return out, nil
}

// smStruct runs one request on structmerge, structs in and out, with
// kube.ApplyStruct and kube.UpdateStruct.
func (st *e2eStructs) smStruct(s *e2eSetup, o *e2eObject, r e2eRequest, in structPair) (runtime.Object, error) {
	run, ok := st.run[o.name]
	if !ok {
		return nil, fmt.Errorf("no struct form for %s", o.name)
	}
	return run(s.sm[o.name], r, in)
}

// structRun runs one request of the struct form on a field manager.
type structRun func(fm *kube.FieldManager, r e2eRequest, in structPair) (runtime.Object, error)

// structRunner is the struct form's request for the Go type T.
func structRunner[T any](fm *kube.FieldManager, r e2eRequest, in structPair) (runtime.Object, error) {
	live, _ := any(in.live).(*T) // nil for a create
	var out *T
	var err error
	if r.apply {
		out, err = kube.ApplyStruct(fm, live, in.body, r.manager, requestOptions(r)...)
	} else {
		obj, ok := in.body.(*T)
		if !ok {
			return nil, fmt.Errorf("an update's body is a %T", in.body)
		}
		out, err = kube.UpdateStruct(fm, live, obj, r.manager, requestOptions(r)...)
	}
	if err != nil {
		return nil, err
	}
	return any(out).(runtime.Object), nil
}

// smStructValue runs one request on structmerge from structs, and returns
// the result as a value and the origins it shares what did not change
// with: the caller's structs (an apply's body is a map, not one of them).
func (st *e2eStructs) smStructValue(s *e2eSetup, o *e2eObject, r e2eRequest, in structPair) (value.Value, []value.Origin, error) {
	c := st.codecs[o.name]
	var live, body value.Value
	var err error
	if in.live != nil {
		if live, err = c.FromStruct(in.live); err != nil {
			return value.Value{}, nil, err
		}
	}
	// The body, converted like the live object, shares its unchanged
	// parts, so the result's copy them from the live struct; an update's
	// body, a struct too, is read next to the live one, whose equal parts
	// with their own marshalling (managedFields, times) are not
	// marshalled again.
	if r.apply {
		body, err = value.FromUnstructured(in.body.(map[string]any), value.Like(live))
	} else {
		body, err = c.FromStruct(in.body, value.LikeOrigin(value.Origin{Value: live, Data: in.live}))
	}
	if err != nil {
		return value.Value{}, nil, err
	}
	out, err := s.runSM(o, r, live, body)
	if err != nil {
		return value.Value{}, nil, err
	}
	origins := []value.Origin{{Value: live, Data: in.live}}
	if !r.apply {
		origins = append(origins, value.Origin{Value: body, Data: in.body})
	}
	return out, origins, nil
}

// benchKubeEndToEndStruct adds the rows Struct/<object>/<op>/{apimachinery,structmerge}
// to BenchmarkKubeEndToEnd for the built-in kinds.
func benchKubeEndToEndStruct(b *testing.B, s *e2eSetup) {
	st := kubeE2EStructs(b, s)
	for _, row := range s.rows() {
		o, r := s.object(rowObject(row)), s.requests[row]
		if o.crd {
			continue
		}
		b.Run("Struct/"+row+"/apimachinery", func(b *testing.B) {
			benchFresh(b, func() structPair { return decodeStructPair(b, o, r) }, func(in structPair) error {
				_, err := st.refStruct(o, r, in)
				return err
			})
		})
		b.Run("Struct/"+row+"/structmerge", func(b *testing.B) {
			benchFresh(b, func() structPair { return decodeStructPair(b, o, r) }, func(in structPair) error {
				_, err := st.smStruct(s, o, r, in)
				return err
			})
		})
	}
}

func rowObject(row string) string {
	for i := range len(row) {
		if row[i] == '/' {
			return row[:i]
		}
	}
	return row
}

// agreeStruct checks, for one row of TestKubeEndToEndAgree, that the
// struct form ends with the same object and managedFields bytes on both
// sides (compared as apimachinery's unstructured converter gives them).
func agreeStruct(t *testing.T, s *e2eSetup, o *e2eObject, r e2eRequest) {
	t.Helper()
	if o.crd {
		return
	}
	st := kubeE2EStructs(t, s)
	start := time.Now().Truncate(time.Second)
	ref, err := st.refStruct(o, r, decodeStructPair(t, o, r))
	if err != nil {
		t.Fatalf("reference struct: %v", err)
	}
	sm, err := st.smStruct(s, o, r, decodeStructPair(t, o, r))
	if err != nil {
		t.Fatalf("structmerge struct: %v", err)
	}
	refMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(ref)
	if err != nil {
		t.Fatal(err)
	}
	smMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(sm)
	if err != nil {
		t.Fatal(err)
	}
	normalizeRefTimes(t, refMap, start)
	agree(t, "struct", refMap, smMap)

	// Sharing the unchanged parts with the inputs gives the object a
	// conversion of the whole result gives.
	out, origins, err := st.smStructValue(s, o, r, decodeStructPair(t, o, r))
	if err != nil {
		t.Fatal(err)
	}
	c := st.codecs[o.name]
	shared, whole := reflect.New(c.Type()).Interface(), reflect.New(c.Type()).Interface()
	if err := c.ToStructFrom(out, shared, origins...); err != nil {
		t.Fatal(err)
	}
	if err := c.ToStruct(out, whole); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(shared, whole) {
		t.Errorf("struct: the result sharing its inputs' parts differs from the whole conversion:\n%s", cmp.Diff(whole, shared))
	}
}

// TestKubeEndToEndStructForm checks that the struct form covers the rows
// of the built-in kinds and that an input decoded for one request shares
// nothing with the next: a change to one leaves the other as it was.
func TestKubeEndToEndStructForm(t *testing.T) {
	s := kubeE2E(t)
	st := kubeE2EStructs(t, s)
	n := 0
	for _, row := range s.rows() {
		o, r := s.object(rowObject(row)), s.requests[row]
		if o.crd {
			continue
		}
		n++
		if st.codecs[o.name] == nil {
			t.Errorf("%s: no codec", row)
		}
		a, b := decodeStructPair(t, o, r), decodeStructPair(t, o, r)
		if r.live != nil {
			a.live.(interface{ SetName(string) }).SetName("changed")
			if b.live.(interface{ GetName() string }).GetName() == "changed" {
				t.Errorf("%s: two decodings share the live object", row)
			}
		}
	}
	if n != 19 { // Pod, Node and Deployment 5 rows each, Endpoints 4
		t.Errorf("%d struct rows, want 19", n)
	}
}

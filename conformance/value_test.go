package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
	smdvalue "sigs.k8s.io/structured-merge-diff/v6/value"
)

// valuePairs returns n pairs of random values; most pairs are close (one is
// a small mutation of the other, or equal with ints and floats swapped), so
// that Equal and Compare must look deep into the trees to decide.
func valuePairs(r *rand.Rand, n int) [][2]value.Value {
	pairs := make([][2]value.Value, n)
	for i := range pairs {
		a := valuetest.Random(r, 1+r.IntN(4))
		var b value.Value
		switch r.IntN(6) {
		case 0:
			b = valuetest.Random(r, 1+r.IntN(4))
		case 1:
			b = a
		case 2:
			b = intsAsFloats(a)
		default:
			b = valuetest.Mutate(r, a)
			for range r.IntN(3) {
				b = valuetest.Mutate(r, b)
			}
		}
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		pairs[i] = [2]value.Value{a, b}
	}
	return pairs
}

// intsAsFloats returns v with every integer replaced by the equal float.
func intsAsFloats(v value.Value) value.Value {
	switch v.Kind() {
	case value.Int:
		return value.NewFloat(float64(v.AsInt()))
	case value.List:
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = intsAsFloats(it)
		}
		return value.NewList(items)
	case value.Map:
		fields := make([]value.Field, v.Len())
		for i, f := range v.Fields() {
			fields[i] = value.Field{Name: f.Name, Value: intsAsFloats(f.Value)}
		}
		return value.NewMap(fields)
	}
	return v
}

func smd(v value.Value) smdvalue.Value { return smdvalue.NewValueInterface(v.Unstructured()) }

// TestValueEqualCompareMatchSMD checks Equal, Compare and Less against
// structured-merge-diff's value.Equals and value.Compare.
func TestValueEqualCompareMatchSMD(t *testing.T) {
	seed := uint64(20240601)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	const n = 20000
	var equal, less, greater int
	for _, p := range valuePairs(r, n) {
		a, b := p[0], p[1]
		sa, sb := smd(a), smd(b)
		if got, want := value.Equal(a, b), smdvalue.Equals(sa, sb); got != want {
			t.Fatalf("Equal = %v, SMD Equals = %v\n a = %v\n b = %v", got, want, a, b)
		}
		got, want := value.Compare(a, b), smdvalue.Compare(sa, sb)
		if got != want {
			t.Fatalf("Compare = %d, SMD Compare = %d\n a = %v\n b = %v", got, want, a, b)
		}
		if value.Less(a, b) != smdvalue.Less(sa, sb) {
			t.Fatalf("Less = %v, SMD Less = %v\n a = %v\n b = %v", value.Less(a, b), smdvalue.Less(sa, sb), a, b)
		}
		switch got {
		case 0:
			equal++
		case -1:
			less++
		default:
			greater++
		}
	}
	t.Logf("%d pairs: %d equal, %d less, %d greater", n, equal, less, greater)
	// The pairs must exercise every outcome, or the test proves little.
	if equal < n/10 || less < n/10 || greater < n/10 {
		t.Fatalf("unbalanced pairs: %d equal, %d less, %d greater", equal, less, greater)
	}
}

// TestValueJSONMatchesEncodingJSON checks AppendJSON and AppendJSONIndent
// byte for byte against encoding/json on the unstructured form, and that
// FromJSON decodes to a value SMD finds equal to what SMD's own FromJSON
// decodes.
func TestValueJSONMatchesEncodingJSON(t *testing.T) {
	seed := uint64(77)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	for i := range 10000 {
		v := valuetest.Random(r, 1+r.IntN(5))
		want, err := json.Marshal(v.Unstructured())
		if err != nil {
			t.Fatal(err)
		}
		got := value.AppendJSON(nil, v)
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON = %s\nencoding/json = %s", got, want)
		}
		if i%10 == 0 {
			wantIndent, _ := json.MarshalIndent(v.Unstructured(), "", "  ")
			if gotIndent := value.AppendJSONIndent(nil, v, "", "  "); !bytes.Equal(gotIndent, wantIndent) {
				t.Fatalf("AppendJSONIndent = %s\nencoding/json = %s", gotIndent, wantIndent)
			}
		}
		ours, err := value.FromJSON(got)
		if err != nil {
			t.Fatalf("FromJSON(%s): %v", got, err)
		}
		theirs, err := smdvalue.FromJSON(got)
		if err != nil {
			t.Fatalf("SMD FromJSON(%s): %v", got, err)
		}
		if !smdvalue.Equals(smd(ours), theirs) {
			t.Fatalf("FromJSON(%s) = %v; SMD decodes %v", got, ours, smdDebug(theirs))
		}
	}
}

func smdDebug(v smdvalue.Value) string {
	b, err := smdvalue.ToJSON(v)
	if err != nil {
		return fmt.Sprint(err)
	}
	return string(b)
}

// podListJSON returns a Kubernetes-like list of pods of about 50 KB.
func podListJSON() []byte {
	var b bytes.Buffer
	b.WriteString(`{"apiVersion":"v1","kind":"List","items":[`)
	for i := range 40 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-%d","namespace":"default","uid":"3f1c%04d-aaaa-bbbb-cccc-0123456789ab","labels":{"app":"web","pod-template-hash":"5d4f8c7b9","tier":"frontend"},"annotations":{"note":"a string with \"quotes\" and unicode \u00e9"}},`, i, i)
		fmt.Fprintf(&b, `"spec":{"containers":[{"name":"app","image":"registry.example.com/team/app:v1.2.%d","args":["--port=8080","--verbose"],"ports":[{"containerPort":8080,"protocol":"TCP","name":"http"}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":0.25,"memory":"64Mi"}},"env":[{"name":"MODE","value":"production"},{"name":"INDEX","value":"%d"}]},`, i, i)
		b.WriteString(`{"name":"sidecar","image":"registry.example.com/proxy:2","ports":[{"containerPort":15001,"protocol":"TCP"}],"readinessProbe":{"httpGet":{"path":"/ready","port":15021},"periodSeconds":5}}],"nodeName":"node-1","restartPolicy":"Always","terminationGracePeriodSeconds":30},`)
		b.WriteString(`"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-01-02T03:04:05Z"}]}}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkValueFromJSON decodes the same document with both libraries.
func BenchmarkValueFromJSON(b *testing.B) {
	data := podListJSON()
	b.Run("structmerge", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := value.FromJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("smd", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := smdvalue.FromJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkValueToJSON encodes the same document with both libraries.
func BenchmarkValueToJSON(b *testing.B) {
	data := podListJSON()
	ours, _ := value.FromJSON(data)
	theirs, _ := smdvalue.FromJSON(data)
	b.Run("structmerge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			value.ToJSON(ours)
		}
	})
	b.Run("smd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := smdvalue.ToJSON(theirs); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkValueEqualCompare compares two equal copies of the document.
func BenchmarkValueEqualCompare(b *testing.B) {
	data := podListJSON()
	a1, _ := value.FromJSON(data)
	a2, _ := value.FromJSON(data)
	s1, _ := smdvalue.FromJSON(data)
	s2, _ := smdvalue.FromJSON(data)
	b.Run("Equal/structmerge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !value.Equal(a1, a2) {
				b.Fatal("not equal")
			}
		}
	})
	b.Run("Equal/smd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !smdvalue.Equals(s1, s2) {
				b.Fatal("not equal")
			}
		}
	})
	b.Run("Compare/structmerge", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if value.Compare(a1, a2) != 0 {
				b.Fatal("not equal")
			}
		}
	})
	b.Run("Compare/smd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if smdvalue.Compare(s1, s2) != 0 {
				b.Fatal("not equal")
			}
		}
	})
}

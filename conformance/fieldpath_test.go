package conformance

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/fieldpath/fieldpathtest"
	"github.com/structmerge/structmerge/value"
	smdfp "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdvalue "sigs.k8s.io/structured-merge-diff/v6/value"
)

// fpToSMDValue converts one of our values to SMD's.
func fpToSMDValue(v value.Value) smdvalue.Value {
	return smdvalue.NewValueInterface(v.Unstructured())
}

// fpToSMDElement converts one of our path elements to SMD's.
func fpToSMDElement(t testing.TB, e fieldpath.PathElement) smdfp.PathElement {
	switch e.Kind() {
	case fieldpath.FieldNameKind:
		return smdfp.FieldNameElement(e.FieldName())
	case fieldpath.KeyKind:
		fields := make([]smdvalue.Field, 0, e.KeyLen())
		for _, f := range e.Key() {
			fields = append(fields, smdvalue.Field{Name: f.Name, Value: fpToSMDValue(f.Value)})
		}
		return smdfp.KeyElement(fields...)
	case fieldpath.ValueKind:
		return smdfp.ValueElement(fpToSMDValue(e.Value()))
	case fieldpath.IndexKind:
		return smdfp.IndexElement(e.Index())
	}
	t.Fatalf("invalid path element %v", e)
	return smdfp.PathElement{}
}

func fpToSMDPath(t testing.TB, p fieldpath.Path) smdfp.Path {
	out := make(smdfp.Path, len(p))
	for i, e := range p {
		out[i] = fpToSMDElement(t, e)
	}
	return out
}

func fpToSMDSet(t testing.TB, s *fieldpath.Set) *smdfp.Set {
	out := smdfp.NewSet()
	for p := range s.All() {
		out.Insert(fpToSMDPath(t, p))
	}
	return out
}

func fpSMDJSON(t testing.TB, s *smdfp.Set) []byte {
	t.Helper()
	b, err := s.ToJSON()
	if err != nil {
		t.Fatalf("SMD ToJSON: %v", err)
	}
	return b
}

// fpSeed returns the seed for a randomized test and logs it so a failure can
// be replayed.
func fpSeed(t *testing.T) uint64 {
	seed := uint64(0x5eed0f1e1d)
	t.Logf("seed %#x", seed)
	return seed
}

func TestFieldpathFieldsV1MatchesSMD(t *testing.T) {
	r := rand.New(rand.NewPCG(fpSeed(t), 1))
	const sets = 10000
	for i := range sets {
		s := fieldpathtest.RandomSet(r, 1+r.IntN(12))
		ours := s.MarshalFieldsV1()
		smd := fpToSMDSet(t, s)
		want := fpSMDJSON(t, smd)
		if !bytes.Equal(ours, want) {
			t.Fatalf("set %d: FieldsV1 differs\nset:\n%v\nours: %s\nSMD:  %s", i, s, ours, want)
		}
		// Decoding SMD's output and encoding it again gives SMD's bytes.
		// Invalid UTF-8 in values is written as \ufffd, which decodes to
		// U+FFFD: such sets round-trip to their sanitized form.
		back, err := fieldpath.ParseFieldsV1(want)
		if err != nil {
			t.Fatalf("set %d: ParseFieldsV1(SMD output): %v\n%s", i, err, want)
		}
		orig, origJSON := s, want
		if clean := fpSanitize(t, s); clean != nil {
			orig, origJSON = clean, fpSMDJSON(t, fpToSMDSet(t, clean))
		}
		if got := back.MarshalFieldsV1(); !bytes.Equal(got, origJSON) {
			t.Fatalf("set %d: round trip of SMD output differs\nSMD:  %s\nours: %s", i, origJSON, got)
		}
		if !back.Equal(orig) {
			t.Fatalf("set %d: decoded set differs from the original\n%v\nvs\n%v", i, back, orig)
		}
		if s.Size() != smd.Size() {
			t.Fatalf("set %d: Size %d, SMD %d", i, s.Size(), smd.Size())
		}
		if got, want := s.String(), smd.String(); got != want {
			t.Fatalf("set %d: String differs\nours:\n%s\nSMD:\n%s", i, got, want)
		}
	}
}

func TestFieldpathSetOperationsMatchSMD(t *testing.T) {
	r := rand.New(rand.NewPCG(fpSeed(t), 2))
	for i := range 10000 {
		a := fieldpathtest.RandomSet(r, r.IntN(10))
		var b *fieldpath.Set
		switch r.IntN(4) {
		case 0:
			b = fieldpathtest.RandomSet(r, r.IntN(10))
		case 1:
			b = a.Filter(func(fieldpath.Path) bool { return r.IntN(2) == 0 })
		default:
			b = fieldpathtest.RandomRelatedSet(r, a, r.IntN(10))
		}
		sa, sb := fpToSMDSet(t, a), fpToSMDSet(t, b)
		ops := []struct {
			name string
			ours *fieldpath.Set
			smd  *smdfp.Set
		}{
			{"Union", a.Union(b), sa.Union(sb)},
			{"Intersection", a.Intersection(b), sa.Intersection(sb)},
			{"Difference", a.Difference(b), sa.Difference(sb)},
			{"RecursiveDifference", a.RecursiveDifference(b), sa.RecursiveDifference(sb)},
			{"Leaves", a.Leaves(), sa.Leaves()},
		}
		for _, op := range ops {
			got, want := op.ours.MarshalFieldsV1(), fpSMDJSON(t, op.smd)
			if !bytes.Equal(got, want) {
				t.Fatalf("pair %d: %s differs\na:\n%v\nb:\n%v\nours: %s\nSMD:  %s", i, op.name, a, b, got, want)
			}
			if op.ours.Size() != op.smd.Size() || op.ours.Empty() != op.smd.Empty() {
				t.Fatalf("pair %d: %s: Size/Empty %d/%v, SMD %d/%v", i, op.name, op.ours.Size(), op.ours.Empty(), op.smd.Size(), op.smd.Empty())
			}
		}
		// Has, on member paths of a and b, their prefixes and random paths.
		var probes []fieldpath.Path
		for p := range a.All() {
			probes = append(probes, p.Copy(), p[:len(p)-1].Copy())
		}
		for range 5 {
			probes = append(probes, fieldpathtest.RandomPath(r, 3))
		}
		for _, p := range probes {
			if got, want := a.Has(p), sa.Has(fpToSMDPath(t, p)); got != want {
				t.Fatalf("pair %d: Has(%v) = %v, SMD %v\nset:\n%v", i, p, got, want, a)
			}
		}
		if got, want := a.Equal(b), sa.Equals(sb); got != want {
			t.Fatalf("pair %d: Equal = %v, SMD %v", i, got, want)
		}
		if pe := fieldpathtest.RandomElement(r); true {
			got, want := a.WithPrefix(pe).MarshalFieldsV1(), fpSMDJSON(t, sa.WithPrefix(fpToSMDElement(t, pe)))
			if !bytes.Equal(got, want) {
				t.Fatalf("pair %d: WithPrefix(%v) differs: ours %s, SMD %s", i, pe, got, want)
			}
		}
	}
}

func TestFieldpathPathStringMatchesSMD(t *testing.T) {
	r := rand.New(rand.NewPCG(fpSeed(t), 3))
	for i := range 20000 {
		p := fieldpathtest.RandomPath(r, 5)
		sp := fpToSMDPath(t, p)
		if got, want := p.String(), sp.String(); got != want {
			t.Fatalf("path %d: String %q, SMD %q", i, got, want)
		}
		q := fieldpathtest.RandomPath(r, 5)
		if r.IntN(2) == 0 {
			k := r.IntN(len(p))
			q = append(p[:k:k], q...)
		}
		sq := fpToSMDPath(t, q)
		if got, want := p.Compare(q), sp.Compare(sq); got != want {
			t.Fatalf("path %d: Compare(%v, %v) = %d, SMD %d", i, p, q, got, want)
		}
		if got, want := p.Equal(q), sp.Equals(sq); got != want {
			t.Fatalf("path %d: Equal(%v, %v) = %v, SMD %v", i, p, q, got, want)
		}
		if got, want := p[0].Compare(q[0]), sp[0].Compare(sq[0]); got != want {
			t.Fatalf("path %d: element Compare(%v, %v) = %d, SMD %d", i, p[0], q[0], got, want)
		}
	}
}

// TestFieldpathParseFieldsV1EdgeCasesMatchSMD feeds unusual but valid JSON to
// both decoders: both must accept it and re-encode it to the same bytes, or
// both must reject it.
func TestFieldpathParseFieldsV1EdgeCasesMatchSMD(t *testing.T) {
	cases := []string{
		`{}`,
		`null`,
		` { } `,
		`{"f:a":{}}`,
		`{"f:a":null}`,
		`{"f:b":{},"f:a":{}}`,
		`{"f:a":{"f:x":{}},"f:a":{"f:y":{}}}`,
		`{"f:a":{"f:x":{}},"f:a":{}}`,
		`{"f:a":{},"f:a":{"f:y":{}}}`,
		`{"f:a":{"f:b":{},".":{}}}`,
		`{"f:a":{".":{"anything":[1,2,{"x":null}]},"f:b":{}}}`,
		`{"f:a":{".":{}}}`,
		`{"x:unknown":{"f:a":{}},"f:b":{}}`,
		`{"f:a":{"x:unknown":{}}}`,
		`{"f:a":{"f:b":{"z:q":1}}}`,
		`{"i:3":{},"i:+4":{},"i:-1":{},"i:007":{}}`,
		`{"i:1":{},"i:01":{"f:a":{}}}`,
		`{"v:1":{},"v:1.0":{},"v:1.5":{},"v:\"a\"":{},"v:true":{},"v:null":{}}`,
		`{"v: 1 ":{}}`,
		`{"v:[1,\"a\",true]":{}}`,
		`{"v:{\"b\":1,\"a\":2}":{}}`,
		`{"v:\"\\u003c\\u2028\"":{}}`,
		`{"v:1e-7":{},"v:1E+21":{},"v:123456789.125":{}}`,
		`{"k:{\"b\":1,\"a\":\"x\"}":{}}`,
		`{"k:{\"name\":\"web\",\"port\":80}":{"f:image":{}},"k:{\"name\":\"api\"}":{}}`,
		`{"k: { \"a\" : 1 } ":{}}`,
		`{"k:{}":{}}`,
		`{"f:\u003ca\u003e":{}}`,
		`{"f:\t":{}, "f:\u00e9":{}, "f:\ud83d\ude00":{}}`,
		`{"f:a\"b":{},"f:a\\b":{}}`,
		`{"f:":{}}`,
		"{\"f:a\":{}}\n",
		`{"v:":{}}`,
		`{"v: ":{}}`,
		`{"k:":{}}`,
		`{"k:null":{}}`,
		`{"k:{\"a\":1,\"a\":2}":{}}`,
		`{"k:{\"a\":{\"y\":1,\"x\":[]}}":{}}`,
		`{"v:-0":{}}`,
		`{"v:-0.0":{}}`,
		`{"k:{\"a\":-0}":{}}`,
		`{"v:1e400":{}}`,
		`{"v:12345678901234567890":{}}`,
		`{"v:\"\\ud800\"":{}}`,
		`{"f:a":{"f:b":{"f:c":{}},".":1,".":null}}`,
		// Rejected by both.
		``,
		`{`,
		`[]`,
		`{"f:a":1}`,
		`{"f:a":[]}`,
		`{"a":{}}`,
		`{"ab":{}}`,
		`{"":{}}`,
		`{"i:x":{}}`,
		`{"i:":{}}`,
		`{"i:1.5":{}}`,
		`{"v:1 2":{}}`,
		`{"v:{":{}}`,
		`{"k:[1]":{}}`,
		`{"k:{\"a\":1} x":{}}`,
		`{"f:a":{}} x`,
		`{"f:a":{}}{}`,
	}
	accepted := 0
	defer func() { t.Logf("%d of %d inputs accepted by both", accepted, len(cases)) }()
	for _, in := range cases {
		var smd smdfp.Set
		smdErr := smd.FromJSON(strings.NewReader(in))
		ours, ourErr := fieldpath.ParseFieldsV1([]byte(in))
		if (smdErr == nil) != (ourErr == nil) {
			t.Errorf("%q: SMD error %v, ours %v", in, smdErr, ourErr)
			continue
		}
		if smdErr != nil {
			continue
		}
		accepted++
		want := fpSMDJSON(t, &smd)
		if got := ours.MarshalFieldsV1(); !bytes.Equal(got, want) {
			t.Errorf("%q: re-encoded\nours: %s\nSMD:  %s", in, got, want)
		}
		if ours.Size() != smd.Size() {
			t.Errorf("%q: Size %d, SMD %d", in, ours.Size(), smd.Size())
		}
	}
}

// TestFieldpathDeepNestingMatchesSMD checks the depth limit against SMD's.
func TestFieldpathDeepNestingMatchesSMD(t *testing.T) {
	for _, depth := range []int{100, fieldpath.MaxFieldsV1Depth - 1, fieldpath.MaxFieldsV1Depth, fieldpath.MaxFieldsV1Depth + 1} {
		in := strings.Repeat(`{"f:a":`, depth-1) + "{}" + strings.Repeat("}", depth-1)
		var smd smdfp.Set
		smdErr := smd.FromJSON(strings.NewReader(in))
		_, ourErr := fieldpath.ParseFieldsV1([]byte(in))
		if (smdErr == nil) != (ourErr == nil) {
			t.Errorf("depth %d: SMD error %v, ours %v", depth, smdErr, ourErr)
		}
	}
}

// fpSanitize returns s with invalid UTF-8 in value strings replaced by
// U+FFFD byte by byte, as the FieldsV1 encoding does, or nil when s has none.
func fpSanitize(t testing.TB, s *fieldpath.Set) *fieldpath.Set {
	changed := false
	var b fieldpath.Builder
	for p := range s.All() {
		q := make(fieldpath.Path, len(p))
		for i, e := range p {
			switch e.Kind() {
			case fieldpath.KeyKind:
				fields := make([]value.Field, e.KeyLen())
				for j, f := range e.Key() {
					fields[j] = value.Field{Name: f.Name, Value: fpSanitizeValue(f.Value, &changed)}
				}
				e = fieldpath.Key(fields)
			case fieldpath.ValueKind:
				e = fieldpath.MemberValue(fpSanitizeValue(e.Value(), &changed))
			}
			q[i] = e
		}
		b.Insert(q)
	}
	out := b.Build()
	if !changed {
		return nil
	}
	return out
}

func fpSanitizeValue(v value.Value, changed *bool) value.Value {
	switch v.Kind() {
	case value.String:
		s := v.AsString()
		if utf8.ValidString(s) {
			return v
		}
		*changed = true
		var b strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteRune(utf8.RuneError)
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
		}
		return value.NewString(b.String())
	case value.List:
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = fpSanitizeValue(it, changed)
		}
		return value.NewList(items)
	}
	return v
}

// FuzzFieldpathParseFieldsV1VsSMD checks ParseFieldsV1 against SMD's
// FromJSON on valid JSON: we never accept what SMD rejects, and what both
// accept re-encodes to the same bytes, except where a documented deviation
// applies (integers beyond 2^53, which SMD rounds to float64, and invalid
// UTF-8 in key and value strings, which we decode as U+FFFD).
func FuzzFieldpathParseFieldsV1VsSMD(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, `{"f:a":{"f:x":{}},"f:a":{}}`, `{"x:unknown":{"f:a":{}},"f:b":{}}`,
		`{"i:+4":{},"i:-1":{}}`, `{"v:-0":{}}`, `{"k:null":{}}`, `{"k:{\"a\":1,\"a\":0}":{}}`,
		`{".":[1,{"x":2}],"f:a":{".":null}}`, `{"v:{\"b\":[1,2.5,\"\\u003c\"],\"a\":null}":{}}`,
		`{"v:1e-7":{},"v:1E+21":{},"v:123456789.125":{}}`, `{"f:\u003ca\u003e":{}}`,
	} {
		f.Add([]byte(s))
	}
	r := rand.New(rand.NewPCG(1, 1))
	for range 20 {
		f.Add(fieldpathtest.RandomSet(r, 6).MarshalFieldsV1())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		ours, ourErr := fieldpath.ParseFieldsV1(data)
		var smd smdfp.Set
		smdErr := smd.FromJSON(bytes.NewReader(data))
		if ourErr == nil && smdErr != nil {
			t.Fatalf("we accept what SMD rejects (%v)", smdErr)
		}
		if ourErr != nil || smdErr != nil {
			return
		}
		if fpHasDeviation(ours) {
			return
		}
		want := fpSMDJSON(t, &smd)
		if got := ours.MarshalFieldsV1(); !bytes.Equal(got, want) {
			t.Fatalf("re-encoded\nours: %s\nSMD:  %s", got, want)
		}
	})
}

// fpHasDeviation reports whether s holds a value on which we knowingly
// differ from SMD: an integer beyond ±2^53, or a string or name that is not
// valid UTF-8 or holds U+FFFD.
func fpHasDeviation(s *fieldpath.Set) bool {
	var bad func(v value.Value) bool
	bad = func(v value.Value) bool {
		switch v.Kind() {
		case value.Int:
			n := v.AsInt()
			return n > 1<<53 || n < -(1<<53)
		case value.String:
			return !utf8.ValidString(v.AsString()) || strings.ContainsRune(v.AsString(), utf8.RuneError)
		case value.List:
			for _, it := range v.Items() {
				if bad(it) {
					return true
				}
			}
		case value.Map:
			for _, f := range v.Fields() {
				if bad(value.NewString(f.Name)) || bad(f.Value) {
					return true
				}
			}
		}
		return false
	}
	for p := range s.All() {
		for _, e := range p {
			switch e.Kind() {
			case fieldpath.KeyKind:
				for _, f := range e.Key() {
					if bad(f.Value) {
						return true
					}
				}
			case fieldpath.ValueKind:
				if bad(e.Value()) {
					return true
				}
			}
		}
	}
	return false
}

package typed_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// FuzzValidate decodes arbitrary bytes as YAML and validates the value
// against basic.yaml's widget type. Validate must not panic, must not modify
// the value, must give the same answer twice, and must return an Errors of
// well-formed problems sorted by path. AllowDuplicates may only remove
// problems. A valid value must have a field set (which survives a FieldsV1
// round trip), merge with itself into itself and compare equal to itself;
// every value is valid for the deduced and the untyped-atomic types.
func FuzzValidate(f *testing.F) {
	for _, s := range fvSeeds(f) {
		f.Add([]byte(s))
	}
	w := fvWidget(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := value.FromYAML(data, value.MaxDepth(64), value.MaxBytes(1<<16))
		if err != nil {
			return
		}
		fvCheck(t, w, v)
	})
}

// TestValidateFuzzSeeds runs FuzzValidate's checks on its seeds, and
// checks that the seeds cover valid and invalid values of every error kind.
func TestValidateFuzzSeeds(t *testing.T) {
	w := fvWidget(t)
	seeds := fvSeeds(t)
	valid, kinds := 0, map[typed.ErrorKind]bool{}
	for _, s := range seeds {
		v, err := value.FromYAML([]byte(s))
		if err != nil {
			continue // some seeds are for the decoder's sake
		}
		fvCheck(t, w, v)
		err = typed.Validate(w, v)
		if err == nil {
			valid++
			continue
		}
		for _, e := range err.(typed.Errors) {
			kinds[e.Kind] = true
		}
	}
	if valid < 20 || len(kinds) < 4 {
		t.Errorf("%d seeds: %d valid, error kinds %v", len(seeds), valid, kinds)
	}
}

func fvWidget(tb testing.TB) *schema.Type { return testfixture.Widget(tb) }

func fvCheck(t *testing.T, w *schema.Type, v value.Value) {
	t.Helper()
	before := value.ToJSON(v)
	err := typed.Validate(w, v)
	again := typed.Validate(w, v)
	if !bytes.Equal(value.ToJSON(v), before) {
		t.Fatal("Validate modified the value")
	}
	if (err == nil) != (again == nil) || (err != nil && err.Error() != again.Error()) {
		t.Fatalf("Validate is not deterministic:\n%v\nthen\n%v", err, again)
	}
	if err := typed.Validate(schema.Deduced(), v); err != nil {
		t.Fatalf("the deduced type rejects %s: %v", before, err)
	}
	if err := typed.Validate(schema.UntypedAtomic(), v); err != nil {
		t.Fatalf("the untyped atomic type rejects %s: %v", before, err)
	}
	lenient := typed.Validate(w, v, typed.AllowDuplicates())
	if err != nil {
		errs, ok := err.(typed.Errors)
		if !ok || len(errs) == 0 {
			t.Fatalf("Validate returned %T %v, want a non-empty typed.Errors", err, err)
		}
		for i, e := range errs {
			if e == nil || e.Kind < typed.WrongKind || e.Kind > typed.SchemaProblem || e.Message == "" {
				t.Fatalf("malformed problem %d: %#v", i, e)
			}
			if i > 0 && errs[i-1].Path.Compare(e.Path) > 0 {
				t.Fatalf("problems not sorted by path: %v before %v", errs[i-1].Path, e.Path)
			}
			if !typed.HasKind(err, e.Kind) {
				t.Fatalf("HasKind does not see %v", e.Kind)
			}
			var te *typed.Error
			if !errors.As(err, &te) {
				t.Fatal("errors.As does not find a *typed.Error")
			}
		}
		// Tolerating duplicates removes duplicate-key problems and nothing
		// else.
		var strict []string
		for _, e := range errs {
			if e.Kind != typed.DuplicateKey {
				strict = append(strict, e.Error())
			}
		}
		var got []string
		if lenient != nil {
			for _, e := range lenient.(typed.Errors) {
				got = append(got, e.Error())
			}
		}
		if !equalStrings(got, strict) {
			t.Fatalf("with AllowDuplicates:\n%q\nwithout, less duplicates:\n%q", got, strict)
		}
		if lenient == nil {
			fvCheckCreate(t, w, v, typed.AllowDuplicates())
		}
		return
	}
	if lenient != nil {
		t.Fatalf("valid, but not with AllowDuplicates: %v", lenient)
	}
	if _, err := typed.New(w, v); err != nil {
		t.Fatalf("Validate accepts, New rejects: %v", err)
	}
	fvCheckCreate(t, w, v)
	set, err := typed.FieldSet(w, v)
	if err != nil {
		t.Fatalf("FieldSet of a valid value: %v", err)
	}
	back, err := fieldpath.ParseFieldsV1(set.MarshalFieldsV1())
	if err != nil || !back.Equal(set) {
		t.Fatalf("FieldsV1 round trip of %s: %v", set.MarshalFieldsV1(), err)
	}
	c, err := typed.Compare(w, v, v)
	if err != nil || !c.IsSame() {
		t.Fatalf("a valid value differs from itself: %v %v", c, err)
	}
	mT, err := typed.NewUnvalidated(w, v).Merge(typed.NewUnvalidated(w, v))
	m := mT.Value()
	if err != nil {
		t.Fatalf("merging a valid value with itself: %v", err)
	}
	if !value.Equal(m, v) {
		t.Fatalf("merging a value with itself changed it:\n%s\n%s", before, value.ToJSON(m))
	}
}

// fvCheckCreate checks that comparing nothing (null, an empty map) with a
// valid v, which typed values do with a walk of v alone, finds what the
// two-sided comparison of the untyped values finds.
func fvCheckCreate(t *testing.T, w *schema.Type, v value.Value, opts ...typed.ValidateOption) {
	t.Helper()
	tv, err := typed.New(w, v, opts...)
	if err != nil {
		t.Fatalf("valid, but New rejects: %v", err)
	}
	for _, empty := range []value.Value{value.NewNull(), value.NewMap(nil)} {
		want, werr := typed.Compare(w, empty, v)
		from, err := typed.New(w, empty, opts...)
		if err != nil {
			t.Fatalf("New(%s): %v", value.ToJSON(empty), err)
		}
		got, gerr := from.Compare(tv)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("compare from %s: typed values give error %v, values %v", value.ToJSON(empty), gerr, werr)
		}
		if werr != nil {
			continue
		}
		if !got.Added.Equal(want.Added) || !got.Modified.Equal(want.Modified) || !got.Removed.Equal(want.Removed) {
			t.Fatalf("compare from %s to %s:\ntyped values: %v\nvalues: %v", value.ToJSON(empty), value.ToJSON(v), got, want)
		}
	}
	// From and to a part of v (its first field), where the typed values'
	// comparison walks what only one side has as a field set.
	if v.Kind() != value.Map || v.Len() < 2 {
		return
	}
	part := value.NewMap(own.Value.Fields(v)[:1])
	ptv, err := typed.New(w, part, opts...)
	if err != nil {
		t.Fatalf("New(%s): %v", value.ToJSON(part), err)
	}
	// And to v without its first field, decoded apart from v: the other
	// fields are equal but share no memory, which the typed values'
	// comparison reads for equality before walking them.
	apart, err := value.FromJSON(value.ToJSON(v))
	if err != nil {
		t.Fatalf("FromJSON(ToJSON(v)): %v", err)
	}
	rest := value.NewMap(own.Value.Fields(apart)[1:])
	rtv, err := typed.New(w, rest, opts...)
	if err != nil {
		t.Fatalf("New(%s): %v", value.ToJSON(rest), err)
	}
	for _, pair := range [][2]typed.Value{{ptv, tv}, {tv, ptv}, {tv, rtv}, {rtv, tv}} {
		want, werr := typed.Compare(w, pair[0].Value(), pair[1].Value())
		got, gerr := pair[0].Compare(pair[1])
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("compare %s to %s: typed values give error %v, values %v", value.ToJSON(pair[0].Value()), value.ToJSON(pair[1].Value()), gerr, werr)
		}
		if werr == nil && (!got.Added.Equal(want.Added) || !got.Modified.Equal(want.Modified) || !got.Removed.Equal(want.Removed)) {
			t.Fatalf("compare %s to %s:\ntyped values: %v\nvalues: %v", value.ToJSON(pair[0].Value()), value.ToJSON(pair[1].Value()), got, want)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fvSeeds returns the objects of this package's table tests, the widget
// objects of the scenario corpus, and a few hostile documents.
func fvSeeds(tb testing.TB) []string {
	tb.Helper()
	seeds := []string{
		// TestValidate
		`{name: w, replicas: 3, tags: [a, b], containers: [{name: c, image: i}], ports: [{port: 80}]}`,
		`{name: null, spec: null, containers: null}`,
		`{replicas: "three"}`,
		`{bogus: 1}`,
		`{zeta: 1, enabled: "x", alpha: 2}`,
		`{containers: [{name: a}, {name: a}]}`,
		`{tags: [a, a]}`,
		`{containers: [{image: x}]}`,
		`{ports: [{port: 80}, {port: 80, protocol: UDP}]}`,
		`{ports: [{port: 80}, {port: 80, protocol: TCP}]}`,
		`{containers: [null]}`,
		`{tags: [{a: 1}]}`,
		`{containers: [{name: c, env: [{name: e, value: 3}]}]}`,
		`{spec: [1]}`,
		`{extra: {a: [1, {b: c}], d: true}}`,
		`{args: [1]}`,
		// TestFieldSet, TestCompare, TestMerge
		`{spec: {image: i, limits: {cpu: "1"}}}`,
		`{config: {a: b}}`,
		`{labels: {a: b, c: d}}`,
		`{containers: [{name: a, image: x}, {name: a, image: y}]}`,
		`{owner: {kind: k, name: n}}`,
		`{extra: {a: {b: 1}, l: [1, 2]}}`,
		`{replicas: 1.0}`,
		`{containers: [{name: a}, {name: b}, {name: c}]}`,
		`{extra: "s"}`,
		// Hostile and odd.
		`[1, 2]`, `"a string"`, `null`, ``, `{blob: {a: [1, {b: [2]}]}}`,
		`{ports: [{port: 1e400}]}`, `{ports: [{port: .nan}]}`, `{tags: [1, 1.0]}`,
		`{containers: [{name: 1}, {name: "1"}]}`, `{volumes: {a: null, b: {}}}`,
		`{a: &x [*x]}`, `{labels: {? [1]: 2}}`, "{name: \"\xff\"}",
		`{containers: [{name: a, env: [{name: x}, {name: x}]}, {name: a}]}`,
	}
	files, err := scenario.Files([]string{"../testdata/scenarios"})
	if err != nil {
		tb.Fatalf("scenario corpus: %v", err)
	}
	for _, path := range files {
		f, err := scenario.LoadFile(path)
		if err != nil || f.Kubernetes || f.Schema == nil || filepath.Base(f.Schema.File) != "basic.yaml" || f.Type != "widget" {
			continue
		}
		objects := []any{}
		if f.Live.HasObject {
			objects = append(objects, f.Live.Object)
		}
		for _, s := range f.Steps {
			objects = append(objects, s.Object)
		}
		for _, o := range objects {
			if v, err := value.FromUnstructured(o); err == nil {
				seeds = append(seeds, string(value.ToYAML(v)))
			}
		}
	}
	return seeds
}

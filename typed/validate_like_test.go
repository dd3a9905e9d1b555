package typed_test

import (
	"math/rand/v2"
	"testing"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
)

// TestValidateLike: checking a value that shares parts with a value New
// checked (value.FromUnstructuredLike) gives, with Like, what it gives
// without: the same error or the same typed value, whichever options
// either was made with. A like value made with AllowDuplicates vouches
// for nothing in a check without it, and one of another type for nothing.
func TestValidateLike(t *testing.T) {
	w := fvWidget(t)
	var seeds []value.Value
	for _, s := range fvSeeds(t) {
		if v, err := value.FromYAML([]byte(s)); err == nil {
			seeds = append(seeds, v)
		}
	}
	r := rand.New(rand.NewPCG(3, 5))
	strict, lenient := []typed.ValidateOption(nil), []typed.ValidateOption{typed.AllowDuplicates()}
	checked, skipped := 0, 0
	for _, a := range seeds {
		for _, likeOpts := range [][]typed.ValidateOption{strict, lenient} {
			lv, err := typed.New(w, a, likeOpts...)
			if err != nil {
				continue
			}
			others := []value.Value{a, valuetest.Mutate(r, a), valuetest.Mutate(r, valuetest.Mutate(r, a)), seeds[r.IntN(len(seeds))]}
			for _, b := range others {
				// b's data, decoded apart, converted like a: it shares a's
				// parts where they are equal.
				data, err := value.FromJSON(value.ToJSON(b))
				if err != nil {
					t.Fatal(err)
				}
				shared, err := value.FromUnstructured(data.Unstructured(), value.Like(a))
				if err != nil {
					t.Fatal(err)
				}
				if value.Same(shared, a) {
					skipped++
				}
				for _, opts := range [][]typed.ValidateOption{strict, lenient} {
					want, werr := typed.New(w, shared, opts...)
					got, gerr := typed.New(w, shared, append(append([]typed.ValidateOption(nil), opts...), typed.Like(lv))...)
					checked++
					if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
						t.Fatalf("like %s (%d options), %s (%d options): error %v, want %v", value.ToJSON(a), len(likeOpts), value.ToJSON(shared), len(opts), gerr, werr)
					}
					if werr != nil {
						continue
					}
					ws, err1 := want.FieldSet()
					gs, err2 := got.FieldSet()
					if !value.Equal(got.Value(), want.Value()) || err1 != nil || err2 != nil || !gs.Equal(ws) {
						t.Fatalf("like %s, %s: %s %v, want %s %v", value.ToJSON(a), value.ToJSON(shared), gs, err2, ws, err1)
					}
				}
			}
		}
	}
	if checked < 200 || skipped < 20 {
		t.Errorf("%d checks, %d of a value the like value itself", checked, skipped)
	}

	// A list with repeated keys, fine only with AllowDuplicates, is not
	// vouched for by a like value that allowed them.
	dup, err := value.FromYAML([]byte(`{containers: [{name: a}, {name: a}]}`))
	if err != nil {
		t.Fatal(err)
	}
	lv, err := typed.New(w, dup, typed.AllowDuplicates())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := typed.New(w, dup, typed.Like(lv)); !typed.HasKind(err, typed.DuplicateKey) {
		t.Errorf("repeated keys accepted through a lenient like value: %v", err)
	}
	// Nor by one checked leniently through it (which did not walk the
	// repeated keys again).
	outer, err := value.FromYAML([]byte(`{name: x}`))
	if err != nil {
		t.Fatal(err)
	}
	fields := append(append([]value.Field(nil), own.Value.Fields(dup)...), own.Value.Fields(outer)...)
	wider := value.NewMap(fields)
	lv2, err := typed.New(w, wider, typed.AllowDuplicates(), typed.Like(lv))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := typed.New(w, wider, typed.Like(lv2)); !typed.HasKind(err, typed.DuplicateKey) {
		t.Errorf("repeated keys accepted through a value checked through a lenient like value: %v", err)
	}
	// A value checked with AllowDuplicates that repeats no key vouches for
	// a strict check: the same results, here with a part that does not fit
	// outside what it shares.
	clean, err := value.FromYAML([]byte(`{containers: [{name: a}, {name: b}]}`))
	if err != nil {
		t.Fatal(err)
	}
	lvClean, err := typed.New(w, clean, typed.AllowDuplicates())
	if err != nil {
		t.Fatal(err)
	}
	bogus := value.NewMap(append(append([]value.Field(nil), own.Value.Fields(clean)...), value.Field{Name: "zzz", Value: value.NewInt(1)}))
	_, want := typed.New(w, bogus)
	if _, got := typed.New(w, bogus, typed.Like(lvClean)); want == nil || got == nil || got.Error() != want.Error() {
		t.Errorf("error %v, want %v", got, want)
	}
	// A like value of another type vouches for nothing: the deduced type
	// takes any value, the widget type not this one.
	bad, err := value.FromYAML([]byte(`{containers: [{name: a, bogus: 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	other, err := typed.New(schema.Deduced(), bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := typed.New(w, bad, typed.Like(other)); !typed.HasKind(err, typed.UnknownField) {
		t.Errorf("a like value of another type hid an unknown field: %v", err)
	}
}

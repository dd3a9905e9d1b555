package setasm_test

import (
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/fieldpath/fieldpathtest"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/internal/setasm"
)

// assemble rebuilds s bottom up with a, visiting each node's entries in the
// order given by shuffle (nil: as stored), the way a walk would.
func assemble(a *setasm.Assembler, s *fieldpath.Set, r *rand.Rand, repeat bool) *fieldpath.Set {
	type entry struct {
		pe     fieldpath.PathElement
		child  *fieldpath.Set
		member bool
	}
	var entries []entry
	for _, m := range s.Members() {
		entries = append(entries, entry{pe: m, member: true})
	}
	for _, c := range s.Children() {
		entries = append(entries, entry{pe: c.Element, child: c.Set})
	}
	if r != nil {
		r.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	}
	l := a.Open()
	for _, e := range entries {
		if e.member {
			a.AddMember(e.pe)
			if repeat {
				a.AddMember(e.pe)
			}
			continue
		}
		a.AddChild(e.pe, assemble(a, e.child, r, repeat))
		a.AddChild(e.pe, nil) // an empty child adds nothing
	}
	return a.Close(l)
}

// TestAssemblerRebuildsSets checks that assembling the nodes of a set, in
// order, shuffled, or with members repeated, gives the same set.
func TestAssemblerRebuildsSets(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 500; i++ {
		s := fieldpathtest.RandomSet(r, r.IntN(60))
		var a setasm.Assembler
		if i%2 == 0 {
			// Reservations too small, about right and too large.
			a.Reserve(r.IntN(2*s.Size()+2), r.IntN(s.Size()+2))
		}
		for _, tc := range []struct {
			name    string
			shuffle *rand.Rand
			repeat  bool
		}{{"in order", nil, false}, {"shuffled", r, false}, {"repeated members", r, true}} {
			got := assemble(&a, s, tc.shuffle, tc.repeat)
			if !got.Equal(s) {
				t.Fatalf("set %d, %s: assembled\n%v\nwant\n%v", i, tc.name, got, s)
			}
			if got.Size() != s.Size() {
				t.Fatalf("set %d, %s: Size %d, want %d", i, tc.name, got.Size(), s.Size())
			}
		}
		a.Reset()
	}
}

// TestAssemblerChildrenUnited checks that a child added twice under the same
// element is the union of both.
func TestAssemblerChildrenUnited(t *testing.T) {
	var a setasm.Assembler
	l := a.Open()
	x, y := fieldpath.FieldName("x"), fieldpath.FieldName("y")
	a.AddChild(fieldpath.FieldName("b"), fieldpath.NewSet(fieldpath.Path{x}))
	a.AddMember(fieldpath.FieldName("a"))
	a.AddChild(fieldpath.FieldName("b"), fieldpath.NewSet(fieldpath.Path{y}))
	got := a.Close(l)
	if want := ".a\n.b.x\n.b.y"; got.String() != want || got.Size() != 3 {
		t.Errorf("assembled %q (size %d), want %q", got.String(), got.Size(), want)
	}
	if empty := a.Close(a.Open()); empty != nil {
		t.Errorf("an empty node closed to %v, want nil", empty)
	}
}

// TestAssemblerResetClears checks that the stacks of an Assembler that was
// Reset hold no entry of the nodes it closed, however deep the nodes went,
// so that an Assembler kept for reuse (typed pools them) does not keep
// values alive.
func TestAssemblerResetClears(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for i := range 50 {
		s := fieldpathtest.RandomSet(r, r.IntN(80))
		var a setasm.Assembler
		if got := assemble(&a, s, r, i%2 == 0); !got.Equal(s) {
			t.Fatalf("set %d: assembled %v, want %v", i, got, s)
		}
		a.Reset()
		gotM, gotC := a.Stacks()
		for _, st := range []struct {
			name string
			ms   []fieldpath.PathElement
			cs   []fieldpath.Child
		}{{"members", gotM[:cap(gotM)], nil}, {"children", nil, gotC[:cap(gotC)]}} {
			for j, pe := range st.ms {
				if !reflect.ValueOf(pe).IsZero() {
					t.Fatalf("set %d: reset %s stack keeps entry %d: %v", i, st.name, j, pe)
				}
			}
			for j, c := range st.cs {
				if !reflect.ValueOf(c).IsZero() {
					t.Fatalf("set %d: reset %s stack keeps entry %d: %v", i, st.name, j, c)
				}
			}
		}
	}
}

// TestAssemblerRoom checks that a node made in place with Room and SetOf is
// the set of its entries, also when other nodes are assembled (from the
// same blocks) between Room and SetOf, and that no entries make no set.
func TestAssemblerRoom(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	for i := range 300 {
		s := fieldpathtest.RandomSet(r, r.IntN(60))
		other := fieldpathtest.RandomSet(r, r.IntN(20))
		var a setasm.Assembler
		if i%2 == 0 {
			a.Reserve(r.IntN(2*s.Size()+2), r.IntN(s.Size()+2))
		}
		// Spare room, as a walk over a list leaves when items repeat.
		spare := r.IntN(3)
		ms, cs := a.Room(len(own.Set.Members(s))+spare, len(own.Set.Children(s))+spare)
		gotOther := assemble(&a, other, r, false)
		for _, m := range s.Members() {
			ms = append(ms, m)
		}
		for _, c := range s.Children() {
			// Children assembled after the room was taken.
			cs = append(cs, fieldpath.Child{Element: c.Element, Set: assemble(&a, c.Set, r, false)})
		}
		got := a.SetOf(ms, cs)
		if !got.Equal(s) || got.Size() != s.Size() {
			t.Fatalf("set %d: made in place\n%v (size %d)\nwant\n%v (size %d)", i, got, got.Size(), s, s.Size())
		}
		if !gotOther.Equal(other) {
			t.Fatalf("set %d: assembled between Room and SetOf\n%v\nwant\n%v", i, gotOther, other)
		}
	}
	var a setasm.Assembler
	ms, cs := a.Room(0, 4)
	if got := a.SetOf(ms, cs); got != nil {
		t.Errorf("SetOf of no entries = %v, want nil", got)
	}
}

// TestAssemblersConcurrently rebuilds shared sets from many goroutines,
// each with an Assembler of its own, as typed's walks do: the shared sets
// are only read, and every result equals its source.
func TestAssemblersConcurrently(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 23))
	sets := make([]*fieldpath.Set, 20)
	for i := range sets {
		sets[i] = fieldpathtest.RandomSet(r, r.IntN(60))
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 29))
			var a setasm.Assembler
			for i := range 50 {
				s := sets[(g+i)%len(sets)]
				if got := assemble(&a, s, r, i%2 == 0); !got.Equal(s) {
					t.Errorf("goroutine %d: assembled %v, want %v", g, got, s)
					return
				}
				a.Reset()
			}
		})
	}
	wg.Wait()
}

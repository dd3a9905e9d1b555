package schema

import (
	"fmt"
	"sync"
	"testing"
)

// walkAll visits every node reachable from every named type of s, looking up
// every field by name and every key default, and returns a digest of what it
// saw. It only reads s.
func walkAll(s *Schema) (string, error) {
	seen := map[*Type]bool{}
	var work []*Type
	for _, n := range s.TypeNames() {
		t, ok := s.Type(n)
		if !ok {
			return "", fmt.Errorf("Type(%q) missing", n)
		}
		work = append(work, t)
	}
	nodes, fields, defaults := 0, 0, 0
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[t] {
			continue
		}
		seen[t] = true
		nodes++
		_ = t.Name()
		_ = t.Scalar().String()
		_ = t.IsEmpty()
		_ = t.Unresolvable()
		if l := t.List(); l != nil {
			for i := range l.Keys() {
				if _, ok := l.KeyDefault(i); ok {
					defaults++
				}
			}
			_ = l.Relationship().String()
			work = append(work, l.ElementType())
		}
		if m := t.Map(); m != nil {
			for i := range m.Fields() {
				f := &m.Fields()[i]
				g, ok := m.Field(f.Name())
				if !ok || g != f {
					return "", fmt.Errorf("Field(%q) lookup failed", f.Name())
				}
				if _, ok := f.Default(); ok {
					defaults++
				}
				fields++
				work = append(work, f.Type())
			}
			for _, u := range m.Unions() {
				_, _ = u.Discriminator()
				_ = u.Fields()
			}
			if e := m.ElementType(); e != nil {
				work = append(work, e)
			}
		}
		if !Equal(t, t) {
			return "", fmt.Errorf("%q not equal to itself", t.Name())
		}
	}
	return fmt.Sprintf("%d nodes %d fields %d defaults", nodes, fields, defaults), nil
}

// TestConcurrentReaders shares one compiled schema, and one Document, between
// 8 goroutines that walk, look up and compile; run with -race.
func TestConcurrentReaders(t *testing.T) {
	data := readSchema(t, "k8s.yaml")
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := walkAll(s)
	if err != nil {
		t.Fatal(err)
	}
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				got, err := walkAll(s)
				if err == nil && got != want {
					err = fmt.Errorf("walk saw %s, want %s", got, want)
				}
				if err == nil {
					// Compile only reads the shared document.
					var s2 *Schema
					if s2, err = Compile(doc); err == nil {
						pod, _ := s.Type("io.k8s.api.core.v1.Pod")
						pod2, _ := s2.Type("io.k8s.api.core.v1.Pod")
						if !Equal(pod, pod2) {
							err = fmt.Errorf("recompiled Pod differs")
						}
					}
				}
				if err == nil {
					_, err = walkAll(builtinSchema())
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// builtinSchema wraps the built-in types in a Schema for walkAll.
func builtinSchema() *Schema {
	return &Schema{
		byName: map[string]*Type{"__untyped_atomic_": UntypedAtomic(), "__untyped_deduced_": Deduced()},
		names:  []string{"__untyped_atomic_", "__untyped_deduced_"},
	}
}

package typed

import (
	"fmt"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// PooledScratchDirty takes a buffer from the pool and describes any entry in
// its stacks, up to their capacity, that still points somewhere ("" when all
// are clear). It puts the buffer back.
func PooledScratchDirty() string {
	b := getBufs()
	defer b.put()
	for i := range b.asm {
		ms, cs := b.asm[i].Stacks()
		for j, pe := range ms[:cap(ms)] {
			if pe.Kind() != 0 {
				return fmt.Sprintf("members[%d][%d] = %v", i, j, pe)
			}
		}
		for j, c := range cs[:cap(cs)] {
			if c.Set != nil || c.Element.Kind() != 0 {
				return fmt.Sprintf("children[%d][%d] = %v", i, j, c.Element)
			}
		}
	}
	for j, pe := range b.path[:cap(b.path)] {
		if pe.Kind() != 0 {
			return fmt.Sprintf("path[%d] = %v", j, pe)
		}
	}
	for j, pe := range b.sc.pes[:cap(b.sc.pes)] {
		if pe.Kind() != 0 {
			return fmt.Sprintf("pes[%d] = %v", j, pe)
		}
	}
	for j, s := range b.sc.strs[:cap(b.sc.strs)] {
		if s != "" {
			return fmt.Sprintf("strs[%d] = %q", j, s)
		}
	}
	return ""
}

// ValidateWithoutShapes is Validate without the remembered shapes of
// shapes.go: every field's type is looked up.
func ValidateWithoutShapes(t *schema.Type, v value.Value) error {
	b := getBufs()
	defer b.put()
	w := validator{path: b.path, sc: b.sc, lookupEach: true}
	w.walk(t, v)
	b.path, b.sc = w.path, w.sc
	return w.errs.result()
}

// UniformLists counts the lists in v that their converter marked uniform
// (see valueown.Funcs.Uniform).
func UniformLists(v value.Value) int {
	n := 0
	if own.Value.Uniform(v) {
		n++
	}
	for _, it := range own.Value.Items(v) {
		n += UniformLists(it)
	}
	for _, f := range own.Value.Fields(v) {
		n += UniformLists(f.Value)
	}
	return n
}

package kube

import (
	"errors"
	"fmt"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// annotations reads metadata.annotations as the API server's unstructured
// accessor does: null values read as "", and a value that is not a string
// (or annotations that are not a map) make the whole map unreadable (ok
// false).
func annotations(obj value.Value) (fields []value.Field, ok bool) {
	a, found := nested(obj, "metadata", "annotations")
	if !found || a.Kind() != value.Map {
		return nil, false
	}
	out := make([]value.Field, 0, a.Len())
	for _, f := range own.Value.Fields(a) {
		switch f.Value.Kind() {
		case value.String:
			out = append(out, f)
		case value.Null:
			out = append(out, value.Field{Name: f.Name, Value: value.NewString("")})
		default:
			return nil, false
		}
	}
	return out, true
}

// withAnnotations sets metadata.annotations to fields, or removes it when
// fields is nil, as the accessor does.
func withAnnotations(obj value.Value, fields []value.Field, set bool) value.Value {
	if !set {
		return withoutNested(obj, "metadata", "annotations")
	}
	out, ok := withNested(obj, own.Value.Map(fields), "metadata", "annotations")
	if !ok {
		return obj
	}
	return out
}

func lastApplied(obj value.Value) string {
	fields, _ := annotations(obj)
	for _, f := range fields {
		if f.Name == LastAppliedAnnotation {
			return f.Value.AsString()
		}
	}
	return ""
}

func hasLastApplied(obj value.Value) bool { return lastApplied(obj) != "" }

// buildLastApplied is the annotation kubectl's client-side apply would
// have written for applied: applied without the annotation, in JSON, with
// the newline the API server's encoder ends it with.
func buildLastApplied(applied value.Value) string {
	fields, ok := annotations(applied)
	if ok {
		kept := fields[:0:0]
		for _, f := range fields {
			if f.Name != LastAppliedAnnotation {
				kept = append(kept, f)
			}
		}
		applied = withAnnotations(applied, kept, true)
	} else {
		applied = withAnnotations(applied, nil, false)
	}
	return string(append(value.ToJSON(applied), '\n'))
}

// setLastApplied stores text as obj's last-applied annotation, or drops
// the annotation when the annotations would exceed the API server's size
// limit.
func setLastApplied(obj value.Value, text string) value.Value {
	fields, _ := annotations(obj)
	out := make([]value.Field, 0, len(fields)+1)
	size := len(LastAppliedAnnotation) + len(text)
	for _, f := range fields {
		if f.Name != LastAppliedAnnotation {
			out = append(out, f)
			size += len(f.Name) + len(f.Value.AsString())
		}
	}
	if size <= maxAnnotationsSize {
		out = append(out, value.Field{Name: LastAppliedAnnotation, Value: value.NewString(text)})
	}
	return withAnnotations(obj, out, true)
}

// allowedByLastApplied returns the fields kubectl may take over from other
// managers without a conflict: those its last-applied annotation on live
// sets to the values live has.
func (c *call) allowedByLastApplied(live value.Value) (*fieldpath.Set, error) {
	text := lastApplied(live)
	if text == "" {
		return nil, errors.New("no last applied annotation")
	}
	lv, err := typed.New(c.typ, live)
	if err != nil {
		return nil, fmt.Errorf("failed to convert live obj to typed: %w", err)
	}
	last, err := value.FromJSON([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("failed to decode last applied obj: %w", err)
	}
	if last.Kind() != value.Map || stringField(last, "kind") == "" {
		return nil, errors.New("failed to decode last applied obj: missing kind")
	}
	gvk := GVKOf(last)
	if gvk.APIVersion() != c.gvk.APIVersion() || stringField(last, "apiVersion") != c.gvk.APIVersion() {
		return nil, fmt.Errorf("expected version of last applied to match live object '%s', but got '%s'", c.gvk.APIVersion(), stringField(last, "apiVersion"))
	}
	t, ok := c.m.types.ResolveType(gvk)
	if !ok || t != c.typ {
		return nil, fmt.Errorf("no corresponding type for %v", gvk)
	}
	la, err := typed.New(t, last)
	if err != nil {
		return nil, fmt.Errorf("failed to convert last applied to typed: %w", err)
	}
	set, err := typed.FieldSet(t, la.Value())
	if err != nil {
		return nil, fmt.Errorf("failed to create fieldset for last applied object: %w", err)
	}
	cmp, err := typed.Compare(t, la.Value(), lv.Value())
	if err != nil {
		return nil, fmt.Errorf("failed to compare last applied object and live object: %w", err)
	}
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed), nil
}

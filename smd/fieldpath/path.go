package fieldpath

import (
	"fmt"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Path is a sequence of path elements from the root of an object.
type Path []PathElement

// String renders the path as its elements' strings run together, such as
// .spec.containers[name="c"].image.
func (fp Path) String() string {
	var b strings.Builder
	for _, pe := range fp {
		b.WriteString(pe.String())
	}
	return b.String()
}

// Equals reports whether the paths have equal elements.
func (fp Path) Equals(fp2 Path) bool {
	if len(fp) != len(fp2) {
		return false
	}
	for i := range fp {
		if !fp[i].Equals(fp2[i]) {
			return false
		}
	}
	return true
}

// Compare orders paths element by element; a prefix comes first.
func (fp Path) Compare(rhs Path) int {
	for i := 0; ; i++ {
		switch {
		case i == len(fp) && i == len(rhs):
			return 0
		case i == len(fp):
			return -1
		case i == len(rhs):
			return 1
		}
		if c := fp[i].Compare(rhs[i]); c != 0 {
			return c
		}
	}
}

// Copy returns a copy of the path's slice (the elements are shared).
func (fp Path) Copy() Path {
	out := make(Path, len(fp))
	copy(out, fp)
	return out
}

// MakePath builds a path from parts, each a PathElement, a field name
// (string), an index (int), a key (*value.FieldList, not empty) or a set item
// (value.Value).
func MakePath(parts ...interface{}) (Path, error) {
	var fp Path
	for _, p := range parts {
		switch t := p.(type) {
		case PathElement:
			fp = append(fp, t)
		case int:
			fp = append(fp, PathElement{Index: &t})
		case string:
			fp = append(fp, PathElement{FieldName: &t})
		case *value.FieldList:
			if len(*t) == 0 {
				return nil, fmt.Errorf("associative list key type path elements must have at least one key (got zero)")
			}
			fp = append(fp, PathElement{Key: t})
		case value.Value:
			fp = append(fp, PathElement{Value: &t})
		default:
			return nil, fmt.Errorf("unable to make %#v into a path element", p)
		}
	}
	return fp, nil
}

// MakePathOrDie is MakePath that panics on error.
func MakePathOrDie(parts ...interface{}) Path {
	fp, err := MakePath(parts...)
	if err != nil {
		panic(err)
	}
	return fp
}

package cli

import (
	"fmt"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// missingKey is an item of a keyed list without one of its keys, which the
// API server's validation rejects (the field manager fills in a zero value).
type missingKey struct {
	path fieldpath.Path
	msg  string
}

// missingKeys finds the items of keyed lists in v that lack a key field
// without a default. A zero default ("" or 0), which Kubernetes' schema
// gives to required keys such as a container's name or a port number, does
// not count: the API server's validation requires those.
func missingKeys(t *schema.Type, v value.Value, path fieldpath.Path, out []missingKey) []missingKey {
	if t == nil {
		return out
	}
	switch {
	case t.Map() != nil && v.Kind() == value.Map:
		m := t.Map()
		for _, f := range v.Fields() {
			ft := m.ElementType()
			if sf, ok := m.Field(f.Name); ok {
				ft = sf.Type()
			}
			out = missingKeys(ft, f.Value, append(path, fieldpath.FieldName(f.Name)), out)
		}
	case t.List() != nil && v.Kind() == value.List:
		l := t.List()
		keys := l.Keys()
		for i, it := range v.Items() {
			p := append(path, fieldpath.Index(i))
			if len(keys) > 0 && it.Kind() == value.Map {
				for k, name := range keys {
					if _, ok := it.Get(name); ok {
						continue
					}
					if d, ok := l.KeyDefault(k); ok && !isZero(d) {
						continue // a real default, such as a port's protocol TCP
					}
					out = append(out, missingKey{path: path.Copy(), msg: fmt.Sprintf("item %d has no key field %q", i, name)})
				}
			}
			out = missingKeys(l.ElementType(), it, p, out)
		}
	}
	return out
}

func isZero(v value.Value) bool {
	switch v.Kind() {
	case value.Null:
		return true
	case value.String:
		return v.AsString() == ""
	case value.Int:
		return v.AsInt() == 0
	case value.Float:
		return v.AsFloat() == 0
	}
	return false
}

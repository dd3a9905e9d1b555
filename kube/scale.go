package kube

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
)

// scaleReplicas is the replicas field of a Scale.
var scaleReplicas = fieldpath.Path{fieldpath.FieldName("spec"), fieldpath.FieldName("replicas")}

// scale runs a write to the scale subresource of parent: the parent's
// managedFields are translated into the Scale's (only the owners of the
// replicas field are kept), the write runs on the Scale, and the result is
// translated back onto the parent, whose replicas take the Scale's.
func (m *FieldManager) scale(parent, scaleObj value.Value, manager string, r request, apply bool) (value.Value, error) {
	if parent.IsNull() || parent.Kind() != value.Map {
		return value.Value{}, errors.New("the scale subresource needs the live object it scales")
	}
	pgvk := GVKOf(parent)
	var mappings ResourcePathMappings
	ok := false
	if m.replicas != nil {
		mappings, ok = m.replicas(pgvk)
	}
	if !ok {
		return value.Value{}, &BadRequestError{Message: fmt.Sprintf("%v has no scale subresource", pgvk)}
	}
	gv := pgvk.APIVersion()
	replicasPath, ok := mappings[gv]
	if !ok || len(replicasPath) == 0 {
		return value.Value{}, &BadRequestError{Message: fmt.Sprintf("%v has no scale subresource", pgvk)}
	}
	parentEntries, parentErrs, _, _ := rawManagedFields(parent)
	if _, err := decodeEntries(parentEntries, parentErrs); err != nil {
		return value.Value{}, err
	}
	scaleEntries, err := toSubresource(parentEntries, mappings)
	if err != nil {
		return value.Value{}, err
	}
	old := EncodeManagedFields(scaleFromParent(parent, replicasPath), scaleEntries)
	c, old, err := m.newCall(old, scaleGVK, r, false, nil)
	if err != nil {
		return value.Value{}, err
	}
	// An update's Scale is decoded into its Go type (normalizeScale); an
	// apply's is merged as sent, so an applied zero replicas is applied
	// (and conflicts with their owner), as on the API server.
	sent := scaleObj
	var res value.Value
	if apply {
		res, err = c.apply(old, sent, manager, r.force)
	} else {
		sent = normalizeScale(sent)
		if sent, err = defaultKind(old, sent); err != nil {
			return value.Value{}, err
		}
		res, err = c.update(old, sent, manager)
	}
	if err != nil {
		return value.Value{}, err
	}
	replicas, ok := nested(res, "spec", "replicas")
	if !ok || !replicas.IsNumber() {
		replicas = value.NewInt(0)
	}
	out := parent
	if names, ok := fieldNames(replicasPath); ok {
		if o, ok := withNested(out, replicas, names...); ok {
			out = o
		}
	}
	resEntries, _, _, _ := rawManagedFields(res)
	entries, err := toParent(parentEntries, resEntries, mappings, gv)
	if err != nil {
		return value.Value{}, err
	}
	return EncodeManagedFields(out, entries), nil
}

func fieldNames(p fieldpath.Path) ([]string, bool) {
	names := make([]string, len(p))
	for i, pe := range p {
		if pe.Kind() != fieldpath.FieldNameKind {
			return nil, false
		}
		names[i] = pe.FieldName()
	}
	return names, len(names) > 0
}

// scaleFromParent is the Scale the registry presents for parent.
func scaleFromParent(parent value.Value, replicasPath fieldpath.Path) value.Value {
	var md []value.Field
	for _, name := range []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"} {
		if s := metadataString(parent, name); s != "" {
			md = append(md, value.Field{Name: name, Value: value.NewString(s)})
		}
	}
	spec := own.Value.Map(nil)
	if r, ok := lookupPath(parent, replicasPath); ok && r.IsNumber() {
		spec = withField(spec, "replicas", r)
	}
	status := own.Value.Map(nil)
	if r, ok := nested(parent, "status", "replicas"); ok && r.IsNumber() {
		status = withField(status, "replicas", r)
	}
	if sel, ok := nested(parent, "spec", "selector"); ok {
		if s := selectorString(sel); s != "" {
			status = withField(status, "selector", value.NewString(s))
		}
	}
	obj := own.Value.Map([]value.Field{
		{Name: "apiVersion", Value: value.NewString(scaleGVK.APIVersion())},
		{Name: "kind", Value: value.NewString(scaleGVK.Kind)},
		{Name: "metadata", Value: own.Value.Map(md)},
		{Name: "spec", Value: spec},
		{Name: "status", Value: status},
	})
	return normalizeScale(obj)
}

// normalizeScale gives a Scale the shape it has once the API server has
// decoded it into its Go type: a zero spec.replicas is left out (the field
// is omitted when empty), status.replicas is always there (it is not), an
// empty status.selector is left out.
func normalizeScale(s value.Value) value.Value {
	if s.Kind() != value.Map {
		return s
	}
	if spec, ok := s.Get("spec"); ok && spec.Kind() == value.Map {
		if r, ok := spec.Get("replicas"); ok && r.IsNumber() && r.AsFloat() == 0 {
			s = withField(s, "spec", withoutField(spec, "replicas"))
		}
	}
	status, ok := s.Get("status")
	if !ok || status.IsNull() {
		status = own.Value.Map(nil)
	}
	if status.Kind() == value.Map {
		if r, ok := status.Get("replicas"); !ok || r.IsNull() {
			status = withField(status, "replicas", value.NewInt(0))
		}
		if sel, ok := status.Get("selector"); ok && (sel.IsNull() || (sel.Kind() == value.String && sel.AsString() == "")) {
			status = withoutField(status, "selector")
		}
		s = withField(s, "status", status)
	}
	return s
}

// selectorString writes a label selector as the API server's label
// selectors print themselves ("app=web,tier in (a,b)").
func selectorString(sel value.Value) string {
	if sel.Kind() != value.Map {
		return ""
	}
	type req struct{ key, text string }
	var reqs []req
	if ml, ok := sel.Get("matchLabels"); ok && ml.Kind() == value.Map {
		for _, f := range own.Value.Fields(ml) {
			reqs = append(reqs, req{f.Name, f.Name + "=" + f.Value.AsString()})
		}
	}
	if me, ok := sel.Get("matchExpressions"); ok && me.Kind() == value.List {
		for _, e := range own.Value.Items(me) {
			key := stringField(e, "key")
			var vals []string
			if vs, ok := e.Get("values"); ok && vs.Kind() == value.List {
				for _, v := range own.Value.Items(vs) {
					vals = append(vals, v.AsString())
				}
			}
			slices.Sort(vals)
			vals = slices.Compact(vals)
			switch stringField(e, "operator") {
			case "In":
				reqs = append(reqs, req{key, key + " in (" + strings.Join(vals, ",") + ")"})
			case "NotIn":
				reqs = append(reqs, req{key, key + " notin (" + strings.Join(vals, ",") + ")"})
			case "Exists":
				reqs = append(reqs, req{key, key})
			case "DoesNotExist":
				reqs = append(reqs, req{key, "!" + key})
			}
		}
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return strings.Compare(a.key, b.key) })
	parts := make([]string, len(reqs))
	for i, r := range reqs {
		parts[i] = r.text
	}
	return strings.Join(parts, ",")
}

// toSubresource translates the parent's entries into the Scale's: an
// entry owning the replicas field (at a known API version) becomes an
// entry of the same manager owning the Scale's replicas; the others are
// left out.
func toSubresource(parentEntries []ManagedFieldsEntry, mappings ResourcePathMappings) ([]ManagedFieldsEntry, error) {
	parent, err := decodeEntries(parentEntries, nil)
	if err != nil {
		return nil, err
	}
	out := newManaged()
	for _, key := range parent.fields.Names() {
		vs := parent.fields[key]
		p, ok := mappings[vs.APIVersion]
		if !ok || p == nil || !vs.Set.Has(p) {
			continue
		}
		out.fields[key] = fieldpath.VersionedSet{Set: fieldpath.NewSet(scaleReplicas), APIVersion: scaleGVK.APIVersion(), Applied: vs.Applied}
		if t, ok := parent.times[key]; ok {
			out.times[key] = t
		}
	}
	return out.entries()
}

// toParent merges the Scale's entries back into the parent's: parent
// entries at an API version without a known replicas path are dropped;
// those owning the replicas keep it only if the same manager identity
// still owns the Scale's replicas; Scale managers owning its replicas
// that the parent does not have under the same identity get an entry
// owning the parent's replicas at version gv, with the time (if any) the
// parent has under that identity.
func toParent(parentEntries, scaleEntries []ManagedFieldsEntry, mappings ResourcePathMappings, gv string) ([]ManagedFieldsEntry, error) {
	parent, err := decodeEntries(parentEntries, nil)
	if err != nil {
		return nil, err
	}
	scale, err := decodeEntries(scaleEntries, nil)
	if err != nil {
		return nil, err
	}
	out := newManaged()
	keep := func(key string, vs fieldpath.VersionedSet) {
		out.fields[key] = vs
		if t, ok := parent.times[key]; ok {
			out.times[key] = t
		}
	}
	for _, key := range parent.fields.Names() {
		vs := parent.fields[key]
		p, ok := mappings[vs.APIVersion]
		if !ok {
			continue
		}
		if p == nil || !vs.Set.Has(p) {
			keep(key, vs)
			continue
		}
		if _, ok := scale.fields[key]; !ok {
			if rest := vs.Set.Difference(fieldpath.NewSet(p)); !rest.Empty() {
				keep(key, fieldpath.VersionedSet{Set: rest, APIVersion: vs.APIVersion, Applied: vs.Applied})
			}
			continue
		}
		keep(key, vs)
		delete(scale.fields, key)
	}
	for _, key := range scale.fields.Names() {
		vs := scale.fields[key]
		if !vs.Set.Has(scaleReplicas) {
			continue
		}
		keep(key, fieldpath.VersionedSet{Set: fieldpath.NewSet(mappings[gv]), APIVersion: gv, Applied: vs.Applied})
	}
	return out.entries()
}

package kube

import (
	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/value"
)

// This file holds what the API server's registry does around the field
// manager that is not a table of the built-in kinds: restoring the reset
// fields' values, and the generation rules' types. The tables of the
// built-in kinds (builtin.ResetFields, builtin.ReplicasPaths,
// builtin.Generation) are package kube/builtin's, and are the defaults of
// WithResetFields, WithReplicasPaths and WithGeneration.

// ResetValues returns obj with every field of fields that is a path of
// field names given the value it has in live (or removed when live has
// none), as the API server's storage strategies do after the field manager
// ran: a status write keeps the spec, a write to the main resource keeps
// the status. Other paths are ignored. A reset of the whole metadata (the
// status strategies of some kinds) keeps obj's metadata.managedFields, the
// field manager's result, as those strategies do. obj and live are not
// modified.
func ResetValues(obj, live value.Value, fields *fieldpath.Set) value.Value {
	managed, hasManaged := nested(obj, "metadata", "managedFields")
	for p := range fields.All() {
		names := make([]string, 0, len(p))
		for _, pe := range p {
			if pe.Kind() != fieldpath.FieldNameKind {
				names = nil
				break
			}
			names = append(names, pe.FieldName())
		}
		if len(names) == 0 {
			continue
		}
		if v, ok := nested(live, names...); ok {
			if out, ok := withNested(obj, v, names...); ok {
				obj = out
			}
		} else {
			obj = withoutNested(obj, names...)
		}
		if len(names) == 1 && names[0] == "metadata" {
			if hasManaged {
				if out, ok := withNested(obj, managed, "metadata", "managedFields"); ok {
					obj = out
				}
			} else {
				obj = withoutNested(obj, "metadata", "managedFields")
			}
		}
	}
	return obj
}

// GenerationRule is how a kind's registry moves metadata.generation: it
// is builtin.GenerationRule (OnCreate, and the Compared fields).
type GenerationRule = builtin.GenerationRule

// GenerationFunc returns the GenerationRule of a kind, and false for a
// kind whose registry leaves the generation alone (an update still keeps
// the live one).
type GenerationFunc func(gvk GroupVersionKind) (GenerationRule, bool)

// CustomResourceGeneration is how apiextensions-apiserver moves the
// generation of a custom resource: 1 on create, one more on an update of
// the main resource that changes anything but the metadata (the status
// too, unless the CRD has a status subresource, whose reset keeps it).
var CustomResourceGeneration = GenerationRule{OnCreate: true, Compared: []fieldpath.Path{{}}}

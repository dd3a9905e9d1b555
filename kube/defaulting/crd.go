package defaulting

import (
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

// CustomResourceDefaulter decodes custom resources as
// apiextensions-apiserver's codec does: their metadata through
// metav1.ObjectMeta, then the `default`s of the structural
// schema of the object's version (with the rules apiextensions applies:
// defaults under nullable fields, defaults of fields that a schema prunes,
// and so on), by apiextensions' own code. Immutable and safe for
// concurrent use.
type CustomResourceDefaulter struct {
	schemas map[kube.GroupVersionKind]*structuralschema.Structural
}

var _ kube.Defaulter = (*CustomResourceDefaulter)(nil)

// CustomResources returns the defaulter of the custom resources of the
// given CustomResourceDefinitions (apiextensions.k8s.io/v1, YAML or
// JSON). A CRD that does not decode, or whose schema is not structural,
// is an error that names it.
func CustomResources(crds ...[]byte) (*CustomResourceDefaulter, error) {
	d := &CustomResourceDefaulter{schemas: map[kube.GroupVersionKind]*structuralschema.Structural{}}
	for i, data := range crds {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(data, &crd); err != nil {
			return nil, fmt.Errorf("CRD %d: %w", i+1, err)
		}
		if crd.Spec.PreserveUnknownFields {
			continue // no structural schema: apiextensions defaults nothing
		}
		for _, v := range crd.Spec.Versions {
			val, err := apihelpers.GetSchemaForVersion(&crd, v.Name)
			if err != nil {
				return nil, fmt.Errorf("CRD %s: %w", crd.Name, err)
			}
			if val == nil || val.OpenAPIV3Schema == nil {
				continue
			}
			internal := &apiextensionsinternal.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
				return nil, fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
			}
			s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
			if err != nil {
				return nil, fmt.Errorf("CRD %s version %s: the schema is not structural: %w", crd.Name, v.Name, err)
			}
			s = s.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(s); err != nil {
				return nil, fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
			}
			d.schemas[kube.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}] = s
		}
	}
	return d, nil
}

// Default returns obj with the defaults of its version's schema. Objects
// of other kinds come back unchanged.
func (d *CustomResourceDefaulter) Default(obj value.Value) (value.Value, error) {
	s, ok := d.schemas[kube.GVKOf(obj)]
	if !ok {
		return obj, nil
	}
	u, ok := obj.Unstructured().(map[string]any)
	if !ok {
		return obj, nil
	}
	// The metadata goes through metav1.ObjectMeta, as apiextensions'
	// codec decodes it (empty labels and the like are gone).
	meta, found, err := objectmeta.GetObjectMeta(u, true)
	if err != nil {
		return value.Value{}, fmt.Errorf("%s: metadata: %w", kube.GVKOf(obj), err)
	}
	if found {
		if err := objectmeta.SetObjectMeta(u, meta); err != nil {
			return value.Value{}, fmt.Errorf("%s: metadata: %w", kube.GVKOf(obj), err)
		}
	}
	structuraldefaulting.Default(u, s)
	return value.FromUnstructured(u, value.Like(obj))
}

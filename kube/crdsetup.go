package kube

import (
	"fmt"
	"strings"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// Setup is the types of a cluster with some CustomResourceDefinitions:
// the schema (the built-in types of package kube/builtin and those of the
// CRDs), the kinds it defines, and what the API server's registry says
// about them (reset fields, scale subresources, generation). It also
// prunes custom resources as the API server's storage does (Prune, ReadAt).
// The command and Kubernetes-flavour scenarios run with one.
//
// Concurrency: a Setup is not modified after NewSetup; safe for
// concurrent use.
type Setup struct {
	// Document is the schema in source form.
	Document *schema.Document
	// Kinds maps each kind to the name of its type in Document.
	Kinds map[GroupVersionKind]string
	// Resolver finds the compiled type of a kind.
	Resolver TypeResolver
	// Converter converts the custom resources of the CRDs whose
	// conversion strategy is None between their versions
	// (NoneConverter); nil when there are none.
	Converter VersionConverter
	crds      []crdKind
}

// crdKind is what the registry of a custom resource needs from its CRD.
type crdKind struct {
	group, kind string
	// strategy is spec.conversion.strategy ("None" when absent).
	strategy string
	// versions lists the CRD's versions; status and scale say whether
	// each has those subresources, replicas where its replicas are.
	versions []crdVersion
}

type crdVersion struct {
	name string
	// schema is the version's schema.openAPIV3Schema (null when none).
	schema   value.Value
	status   bool
	scale    bool
	replicas fieldpath.Path
}

// CRDFile is a CustomResourceDefinition's manifest (YAML or JSON) and the
// name errors give it (its file).
type CRDFile struct {
	Name string
	Text []byte
}

// NewSetup returns the setup of the built-in kinds and of crds.
func NewSetup(crds ...CRDFile) (*Setup, error) {
	base, err := builtin.Document()
	if err != nil {
		return nil, err
	}
	kinds := map[GroupVersionKind]string{}
	for _, k := range builtin.Kinds() {
		kinds[GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.TypeName
	}
	docs := []*schema.Document{base}
	setup := &Setup{}
	for _, src := range crds {
		name := src.Name
		res, err := openapi.FromCRD(src.Text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		docs = append(docs, res.Document)
		for _, k := range res.Kinds {
			kinds[GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.TypeName
		}
		ck, err := readCRD(src.Text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		setup.crds = append(setup.crds, ck)
	}
	doc, err := openapi.Merge(docs...)
	if err != nil {
		return nil, err
	}
	var s *schema.Schema
	if len(crds) == 0 {
		// The built-in schema alone: compiled once per process.
		s, err = builtin.Schema()
	} else {
		s, err = schema.Compile(doc)
	}
	if err != nil {
		return nil, err
	}
	r, err := NewSchemaResolver(s, kinds)
	if err != nil {
		return nil, err
	}
	setup.Document, setup.Kinds, setup.Resolver = doc, kinds, r
	var none []CustomResourceVersions
	for _, c := range setup.crds {
		if c.strategy != "None" {
			continue
		}
		crv := CustomResourceVersions{Group: c.group, Kind: c.kind}
		for _, v := range c.versions {
			crv.Versions = append(crv.Versions, v.name)
		}
		none = append(none, crv)
	}
	if len(none) > 0 {
		setup.Converter = NoneConverter(none...)
	}
	return setup, nil
}

// readCRD reads the group, kind and subresources of a CRD.
func readCRD(text []byte) (crdKind, error) {
	v, err := value.FromYAML(text)
	if err != nil {
		return crdKind{}, err
	}
	get := func(v value.Value, names ...string) value.Value {
		for _, n := range names {
			if v.Kind() != value.Map {
				return value.Value{}
			}
			v, _ = v.Get(n)
		}
		return v
	}
	spec := get(v, "spec")
	ck := crdKind{group: get(spec, "group").AsString(), kind: get(spec, "names", "kind").AsString(), strategy: "None"}
	if st := get(spec, "conversion", "strategy"); st.Kind() == value.String {
		ck.strategy = st.AsString()
	}
	for _, ver := range get(spec, "versions").Items() {
		cv := crdVersion{name: get(ver, "name").AsString(), schema: get(ver, "schema", "openAPIV3Schema")}
		sub := get(ver, "subresources")
		cv.status = get(sub, "status").Kind() == value.Map
		if sc := get(sub, "scale"); sc.Kind() == value.Map {
			cv.scale = true
			p := strings.TrimPrefix(get(sc, "specReplicasPath").AsString(), ".")
			for _, n := range strings.Split(p, ".") {
				cv.replicas = append(cv.replicas, fieldpath.FieldName(n))
			}
		}
		ck.versions = append(ck.versions, cv)
	}
	return ck, nil
}

func (s *Setup) crd(gvk GroupVersionKind) (crdKind, bool) {
	for _, c := range s.crds {
		if c.group == gvk.Group && c.kind == gvk.Kind {
			return c, true
		}
	}
	return crdKind{}, false
}

// ResetFields returns the fields reset on writes to subresource of gvk:
// those of builtin.ResetFields for built-in kinds; for a custom
// resource with a status subresource, the status on the main resource and
// the metadata and the spec on the status subresource, as the custom
// resource registry resets them (per version).
func (s *Setup) ResetFields(gvk GroupVersionKind, subresource string) map[string]*fieldpath.Set {
	c, ok := s.crd(gvk)
	if !ok {
		return builtin.ResetFields(gvk, subresource)
	}
	for _, v := range c.versions {
		if v.name != gvk.Version || !v.status {
			continue
		}
		switch subresource {
		case "":
			return map[string]*fieldpath.Set{gvk.APIVersion(): fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("status")})}
		case "status":
			// apiextensions-apiserver's status strategy keeps only the
			// status (and the managedFields the field manager wrote).
			return map[string]*fieldpath.Set{gvk.APIVersion(): fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("metadata")}, fieldpath.Path{fieldpath.FieldName("spec")})}
		}
	}
	return nil
}

// ReplicasPaths returns where the replicas of gvk are, for its scale
// subresource: builtin.ReplicasPaths for built-in kinds; for a custom
// resource, each version's specReplicasPath (nil for a version without
// the scale subresource).
func (s *Setup) ReplicasPaths(gvk GroupVersionKind) (ResourcePathMappings, bool) {
	c, ok := s.crd(gvk)
	if !ok {
		return builtin.ReplicasPaths(gvk)
	}
	out := ResourcePathMappings{}
	any := false
	for _, v := range c.versions {
		gv := c.group + "/" + v.name
		if v.scale {
			out[gv] = v.replicas
			any = true
		} else {
			out[gv] = nil
		}
	}
	return out, any
}

// IsCustomResource reports whether gvk is a kind of one of the setup's
// CRDs.
func (s *Setup) IsCustomResource(gvk GroupVersionKind) bool {
	_, ok := s.crd(gvk)
	return ok
}

// Options are the field manager's options for the setup, with a clock
// stopped at now: the reset fields, the replicas paths and, when the
// setup has CRDs with conversion strategy None, their version converter.
func (s *Setup) Options(now time.Time) []Option {
	opts := []Option{
		WithClock(func() time.Time { return now }),
		WithResetFields(s.ResetFields),
		WithReplicasPaths(s.ReplicasPaths),
	}
	if s.Converter != nil {
		opts = append(opts, WithVersionConverter(s.Converter))
	}
	return opts
}

// Generation is how the registry moves metadata.generation: as
// apiextensions-apiserver does for the setup's custom resources, as the
// built-in strategies do for the other kinds.
func (s *Setup) Generation(gvk GroupVersionKind) (GenerationRule, bool) {
	if s.IsCustomResource(gvk) {
		return CustomResourceGeneration, true
	}
	return builtin.Generation(gvk)
}

package kube

import (
	"errors"
	"fmt"
	"slices"

	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// VersionConverter converts whole objects between the API versions of a
// kind, as the API server's converter for the kind does. A FieldManager
// given one (WithVersionConverter) serves a request at another version of
// the live object's group and kind: it converts the live object to the
// request's version first, and compares each manager's fields at the
// version the manager wrote them in.
//
// Implementations must be safe for concurrent use and must not modify
// their argument.
type VersionConverter interface {
	// ConvertVersion returns obj converted to the version of to, whose
	// group and kind are obj's. An error that wraps ErrNotConvertible
	// says that the converter does not handle obj's kind at all: the
	// field manager then treats the kind as having a single version, as
	// it does without a converter.
	ConvertVersion(obj value.Value, to GroupVersionKind) (value.Value, error)
}

// ErrNotConvertible is what a VersionConverter's error wraps when the
// converter does not handle the object's kind.
var ErrNotConvertible = errors.New("the kind has no version converter")

// CustomResourceVersions names the group and kind of a
// CustomResourceDefinition and the versions it declares (spec.versions,
// served or not).
type CustomResourceVersions struct {
	Group, Kind string
	Versions    []string
}

// NoneConverter returns the converter the API server uses for the custom
// resources of CustomResourceDefinitions whose conversion strategy is
// None (the default): converting an object only sets its apiVersion, and
// its fields stay as they are, whether the target version's schema
// declares them or not. A version the CRD does not declare cannot be
// converted from or to (the API server's "request to convert CR to an
// invalid group/version"). Kinds not listed are ErrNotConvertible.
//
// This is the converter of the field manager. When the API server's
// storage serves a stored object at a version, it also prunes the fields
// that version's schema does not declare; that happens before the field
// manager runs and is the caller's to do (the command and the scenario
// runner do it).
//
// The converter is immutable; safe for concurrent use.
func NoneConverter(crds ...CustomResourceVersions) VersionConverter {
	c := noneConverter{}
	for _, crd := range crds {
		k := groupKind{crd.Group, crd.Kind}
		c[k] = append(c[k], crd.Versions...)
	}
	for k, vs := range c {
		vs = slices.Clone(vs)
		slices.Sort(vs)
		c[k] = slices.Compact(vs)
	}
	return c
}

type groupKind struct{ group, kind string }

// noneConverter holds the sorted versions of each kind; never written
// after NoneConverter.
type noneConverter map[groupKind][]string

func (c noneConverter) ConvertVersion(obj value.Value, to GroupVersionKind) (value.Value, error) {
	from := GVKOf(obj)
	versions, ok := c[groupKind{from.Group, from.Kind}]
	if !ok {
		return value.Value{}, fmt.Errorf("%v: %w", from, ErrNotConvertible)
	}
	if to.Group != from.Group || to.Kind != from.Kind {
		return value.Value{}, fmt.Errorf("%v is unstructured and is not suitable for converting to %q", from, to.APIVersion())
	}
	if _, ok := slices.BinarySearch(versions, to.Version); !ok {
		return value.Value{}, fmt.Errorf("request to convert CR to an invalid group/version: %s", to.APIVersion())
	}
	if _, ok := slices.BinarySearch(versions, from.Version); !ok {
		return value.Value{}, fmt.Errorf("request to convert CR from an invalid group/version: %s", from.APIVersion())
	}
	if from.Version == to.Version {
		return obj, nil
	}
	return withField(obj, "apiVersion", value.NewString(to.APIVersion())), nil
}

// ChainConverters returns a converter that asks each of cs in turn and
// takes the answer of the first that handles the object's kind.
func ChainConverters(cs ...VersionConverter) VersionConverter {
	return chain(slices.Clone(cs))
}

type chain []VersionConverter

func (ch chain) ConvertVersion(obj value.Value, to GroupVersionKind) (value.Value, error) {
	for _, c := range ch {
		if c == nil {
			continue
		}
		out, err := c.ConvertVersion(obj, to)
		if errors.Is(err, ErrNotConvertible) {
			continue
		}
		return out, err
	}
	return value.Value{}, fmt.Errorf("%v: %w", GVKOf(obj), ErrNotConvertible)
}

// noTypeError is a conversion to a version the type resolver does not
// know: the merge engine then forgets the managers of that version, as
// the API server's does.
type noTypeError struct{ gvk GroupVersionKind }

func (e *noTypeError) Error() string { return fmt.Sprintf("no corresponding type for %v", e.gvk) }

// typedConverter is the merge engine's view of a VersionConverter: typed
// values of one version to typed values of another, with the schema of
// the target version.
type typedConverter struct {
	types TypeResolver
	conv  VersionConverter
}

func (c typedConverter) Convert(v typed.Value, version string) (typed.Value, error) {
	g, ver, err := builtin.ParseAPIVersion(version)
	if err != nil {
		return v, err
	}
	obj := v.Value()
	from := GVKOf(obj)
	if from.Group == g && from.Version == ver && obj.Has("apiVersion") {
		return v, nil
	}
	to := GroupVersionKind{Group: g, Version: ver, Kind: from.Kind}
	out, err := c.conv.ConvertVersion(obj, to)
	if errors.Is(err, ErrNotConvertible) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	gvk := GVKOf(out)
	typ, ok := c.types.ResolveType(gvk)
	if !ok || typ == nil {
		return v, &noTypeError{gvk}
	}
	return typed.New(typ, out)
}

func (typedConverter) IsMissingVersionError(err error) bool {
	var e *noTypeError
	return errors.As(err, &e)
}

package builtin

import (
	"fmt"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// GroupVersionKind names a kind of object at one API version. The core
// group is the empty string. Package kube names it kube.GroupVersionKind.
type GroupVersionKind struct {
	Group   string
	Version string
	Kind    string
}

// GVK returns the GroupVersionKind named by apiVersion and kind, or
// ParseAPIVersion's error.
func GVK(apiVersion, kind string) (GroupVersionKind, error) {
	g, v, err := ParseAPIVersion(apiVersion)
	if err != nil {
		return GroupVersionKind{}, err
	}
	return GroupVersionKind{Group: g, Version: v, Kind: kind}, nil
}

// GVKOf returns the GroupVersionKind of an object from its apiVersion and
// kind fields. Like the API server's unstructured objects, a missing or
// non-string field reads as "", and an apiVersion that does not parse gives
// the zero GroupVersionKind.
func GVKOf(obj value.Value) GroupVersionKind {
	gvk, err := GVK(stringField(obj, "apiVersion"), stringField(obj, "kind"))
	if err != nil {
		return GroupVersionKind{}
	}
	return gvk
}

// stringField returns obj's field name when obj is a map and the field a
// string, and "" otherwise.
func stringField(obj value.Value, name string) string {
	if obj.Kind() != value.Map {
		return ""
	}
	f, ok := obj.Get(name)
	if !ok || f.Kind() != value.String {
		return ""
	}
	return f.AsString()
}

// APIVersion returns the group and version in the apiVersion form:
// "apps/v1", or "v1" for the core group.
func (g GroupVersionKind) APIVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// String formats g as the API server does in messages:
// "apps/v1, Kind=Deployment", "/v1, Kind=Pod" for the core group.
func (g GroupVersionKind) String() string {
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// ParseAPIVersion splits an apiVersion ("apps/v1", "v1") into its group and
// version, as the API server does: "" and "/" are the empty group and
// version, a string without a slash is a version of the core group, one
// slash separates group and version (either may be empty), and more than
// one slash is an error.
func ParseAPIVersion(apiVersion string) (group, version string, err error) {
	if apiVersion == "" || apiVersion == "/" {
		return "", "", nil
	}
	switch strings.Count(apiVersion, "/") {
	case 0:
		return "", apiVersion, nil
	case 1:
		group, version, _ = strings.Cut(apiVersion, "/")
		return group, version, nil
	}
	return "", "", fmt.Errorf("unexpected GroupVersion string: %v", apiVersion)
}

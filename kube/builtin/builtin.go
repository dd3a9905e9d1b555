package builtin

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/schema"
)

// KubernetesVersion is the release of Kubernetes whose OpenAPI documents the
// built-in schema was generated from.
const KubernetesVersion = "v1.37.2"

// compressed is the built-in schema in SMD's YAML format, gzip-compressed;
// written by internal/gen.
//
//go:embed schema.yaml.gz
var compressed []byte

// compiled holds the schema compiled on first use. It is written once, under
// the sync.Once, and only read afterwards.
var compiled struct {
	once   sync.Once
	schema *schema.Schema
	err    error
}

// Schema returns the built-in schema, compiled on the first call in the
// process; later calls return the same *schema.Schema. An error means the
// embedded file is damaged (the tests make sure it is not).
func Schema() (*schema.Schema, error) {
	compiled.once.Do(func() {
		doc, err := Document()
		if err != nil {
			compiled.err = err
			return
		}
		compiled.schema, compiled.err = schema.Compile(doc)
		if compiled.err != nil {
			compiled.err = fmt.Errorf("builtin: %w", compiled.err)
		}
	})
	return compiled.schema, compiled.err
}

// YAML returns the built-in schema in SMD's YAML format (decompressed anew on
// each call; the slice is the caller's).
func YAML() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("builtin: embedded schema: %w", err)
	}
	y, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("builtin: embedded schema: %w", err)
	}
	return y, nil
}

// Document returns the built-in schema in source form, parsed anew on each
// call: the caller owns it and may change it, for example to add the types
// of custom resources (see Extend).
func Document() (*schema.Document, error) {
	y, err := YAML()
	if err != nil {
		return nil, err
	}
	doc, err := schema.Parse(y)
	if err != nil {
		return nil, fmt.Errorf("builtin: embedded schema: %w", err)
	}
	return doc, nil
}

// Extend compiles the built-in types together with the types of docs, for
// example the Result.Document of openapi.FromCRD, whose types refer to
// ObjectMeta and ListMeta. A name defined both by the built-in schema and by
// a document must be defined the same way (see openapi.Merge).
func Extend(docs ...*schema.Document) (*schema.Schema, error) {
	base, err := Document()
	if err != nil {
		return nil, err
	}
	merged, err := openapi.Merge(append([]*schema.Document{base}, docs...)...)
	if err != nil {
		return nil, err
	}
	return schema.Compile(merged)
}

// Kinds returns the group-version-kinds of the built-in schema, sorted by
// group, version and kind, each with the name of its type. The slice is the
// caller's.
func Kinds() []openapi.Kind {
	out := make([]openapi.Kind, len(kinds))
	copy(out, kinds[:])
	return out
}

// TypeName returns the name of the built-in type of objects of kind in
// group and version ("" for the core group).
func TypeName(group, version, kind string) (string, bool) {
	lo, hi := 0, len(kinds)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareGVK(&kinds[m], group, version, kind) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(kinds) && compareGVK(&kinds[lo], group, version, kind) == 0 {
		return kinds[lo].TypeName, true
	}
	return "", false
}

func compareGVK(k *openapi.Kind, group, version, kind string) int {
	if c := strings.Compare(k.Group, group); c != 0 {
		return c
	}
	if c := strings.Compare(k.Version, version); c != 0 {
		return c
	}
	return strings.Compare(k.Kind, kind)
}

// TypeFor returns the built-in type of objects with the given apiVersion and
// kind (compiling the schema on first use). ok is false when the kind is not
// built in or the schema cannot be compiled.
func TypeFor(apiVersion, kind string) (t *schema.Type, ok bool) {
	group, version, err := ParseAPIVersion(apiVersion)
	if err != nil {
		return nil, false
	}
	name, ok := TypeName(group, version, kind)
	if !ok {
		return nil, false
	}
	s, err := Schema()
	if err != nil {
		return nil, false
	}
	return s.Type(name)
}

// Package testfixture gives the tests of the module's packages the
// fixtures they share, read from the repository's testdata directory, so
// that no package keeps a copy of its own.
//
// Concurrency: its functions only read files; safe for concurrent use.
package testfixture

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/structmerge/structmerge/schema"
)

// Path returns the path of rel, a slash-separated path below the
// repository's root (testdata/schemas/basic.yaml, say).
func Path(rel string) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testfixture: the path of its own source file is unknown")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", filepath.FromSlash(rel))
}

// Read returns the content of rel (see Path), failing t when it cannot be
// read.
func Read(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// UntypedTypes is the SMD YAML (list items of a types: list) of SMD's two
// untyped types, which schemas converted from OpenAPI end with and tests
// of free-form values use.
const UntypedTypes = `
- name: __untyped_atomic_
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
- name: __untyped_deduced_
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
`

// BasicSchema is the schema file most tests of the engine use: a widget
// with scalars, maps, keyed and atomic lists, sets and a union.
const BasicSchema = "testdata/schemas/basic.yaml"

// Widget returns the type widget of BasicSchema, compiled.
func Widget(t testing.TB) *schema.Type {
	t.Helper()
	s, err := schema.CompileYAML(Read(t, BasicSchema))
	if err != nil {
		t.Fatal(err)
	}
	w, ok := s.Type("widget")
	if !ok {
		t.Fatalf("%s has no type widget", BasicSchema)
	}
	return w
}

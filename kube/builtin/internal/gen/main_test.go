package main

import (
	"bytes"
	"compress/gzip"
	"go/parser"
	"go/token"
	"io"
	"testing"

	"github.com/structmerge/structmerge/openapi"
)

func TestCompressIsReproducible(t *testing.T) {
	data := bytes.Repeat([]byte("types:\n- name: a\n  scalar: string\n"), 100)
	a, err := compress(data)
	if err != nil {
		t.Fatal(err)
	}
	b, err := compress(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two compressions differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() || zr.OS != 255 {
		t.Errorf("header %+v", zr.Header)
	}
	back, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(back, data) {
		t.Errorf("round trip: %v", err)
	}
}

func TestKindsSource(t *testing.T) {
	src, err := kindsSource([]openapi.Kind{
		{Group: "", Version: "v1", Kind: "Pod", TypeName: "io.k8s.api.core.v1.Pod"},
		{Group: "apps", Version: "v1", Kind: "Deployment", TypeName: `odd"name`},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "kinds_generated.go", src, 0); err != nil {
		t.Fatalf("not Go: %v\n%s", err, src)
	}
	for _, want := range []string{"// Code generated", "DO NOT EDIT.", `{Group: "apps", Version: "v1", Kind: "Deployment", TypeName: "odd\"name"},`} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("source lacks %q:\n%s", want, src)
		}
	}
}

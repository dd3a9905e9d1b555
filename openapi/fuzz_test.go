package openapi

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structmerge/structmerge/schema"
)

// checkOutcome checks what must hold of any conversion: an error is a
// non-empty *Error whose problems have kinds; a result converts again to the
// same thing, survives Marshal and Parse, and compiles unless two types
// share a name or an override does not apply.
func checkOutcome(t *testing.T, res *Result, err error, again func() (*Result, error), metaTypes bool) {
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || len(e.Problems) == 0 {
			t.Fatalf("error %v is not a non-empty *Error", err)
		}
		for _, p := range e.Problems {
			if p.Kind == nil || p.Message == "" {
				t.Fatalf("problem without a kind or message: %+v", p)
			}
		}
		if res != nil {
			t.Fatal("a result along with an error")
		}
		return
	}
	res2, err2 := again()
	if err2 != nil {
		t.Fatalf("second conversion failed: %v", err2)
	}
	if diff := cmp.Diff(res, res2, cmpDoc...); diff != "" {
		t.Fatalf("two conversions differ:\n%s", diff)
	}
	y, err := schema.Marshal(res.Document)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := schema.Parse(y)
	if err != nil {
		t.Fatalf("Parse(Marshal): %v\n%s", err, y)
	}
	if diff := cmp.Diff(res.Document, back, cmpDoc...); diff != "" {
		t.Fatalf("Marshal and Parse changed the document:\n%s", diff)
	}
	doc := res.Document
	if metaTypes {
		meta := &schema.Document{Types: []schema.NamedType{
			{Name: ObjectMetaType, Atom: schema.Atom{Map: &schema.MapDef{}}},
			{Name: ListMetaType, Atom: schema.Atom{Map: &schema.MapDef{}}},
		}}
		if doc, err = Merge(meta, doc); err != nil {
			return // the CRD defines a meta type itself
		}
	}
	if _, err := schema.Compile(doc); err != nil && !errors.Is(err, schema.ErrDuplicate) {
		t.Fatalf("the result does not compile: %v", err)
	}
	for i := 1; i < len(res.Kinds); i++ {
		if compareKinds(res.Kinds[i-1], res.Kinds[i]) >= 0 {
			t.Fatalf("kinds not sorted: %v", res.Kinds)
		}
	}
}

func FuzzFromV3(f *testing.F) {
	for _, tc := range convertCases {
		f.Add(v3Doc(tc.schemas))
	}
	for _, tc := range errorCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := FromV3(data)
		checkOutcome(t, res, err, func() (*Result, error) { return FromV3(data) }, false)
	})
}

func FuzzFromV2(f *testing.F) {
	for _, tc := range convertCases {
		f.Add(v2Doc(strings.ReplaceAll(tc.schemas, "#/components/schemas/", "#/definitions/")))
	}
	for _, tc := range errorCases {
		f.Add([]byte(strings.Replace(strings.ReplaceAll(string(tc.in), "#/components/schemas/", "#/definitions/"),
			`"openapi": "3.0.0", "components": {"schemas": `, `"swagger": "2.0", "definitions": `, 1)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := FromV2(data)
		checkOutcome(t, res, err, func() (*Result, error) { return FromV2(data) }, false)
	})
}

func FuzzFromCRD(f *testing.F) {
	for _, tc := range crdCases {
		f.Add(crd(tc.versions))
	}
	for _, tc := range crdErrorCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := FromCRD(data)
		checkOutcome(t, res, err, func() (*Result, error) { return FromCRD(data) }, true)
	})
}

package value_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/structmerge/structmerge/value"
)

// FuzzFromJSON checks that decoding never panics and that whatever decodes
// survives an encode/decode round trip.
func FuzzFromJSON(f *testing.F) {
	for _, tc := range jsonDecodeCases {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":80}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		v, err := value.FromJSON(data, value.MaxDepth(64))
		if !bytes.Equal(in, data) {
			t.Fatal("FromJSON modified its input")
		}
		if err != nil {
			if _, ok := err.(*value.SyntaxError); !ok {
				t.Fatalf("error %T is not a *SyntaxError: %v", err, err)
			}
			return
		}
		enc := value.ToJSON(v)
		back, err := value.FromJSON(enc)
		if err != nil {
			t.Fatalf("FromJSON(ToJSON(v)) for input %q: %v\nencoded: %s", data, err, enc)
		}
		if !value.Equal(back, v) {
			t.Fatalf("round trip changed the value:\n %s\n %s", enc, value.ToJSON(back))
		}
	})
}

// FuzzFromYAML checks that decoding never panics and that whatever decodes
// survives a JSON and a YAML round trip.
func FuzzFromYAML(f *testing.F) {
	for _, tc := range yamlDecodeCases {
		f.Add([]byte(tc.in))
	}
	for _, tc := range jsonDecodeCases {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(billionLaughs(3)))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  labels: {a: b}\nspec:\n  containers:\n  - name: c\n    image: i\n    ports:\n    - containerPort: 80\n---\nb: &a [1]\nc: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		docs, err := value.FromYAMLDocuments(data, value.MaxDepth(64))
		if !bytes.Equal(in, data) {
			t.Fatal("FromYAMLDocuments modified its input")
		}
		if err != nil {
			if _, ok := err.(*value.SyntaxError); !ok {
				t.Fatalf("error %T is not a *SyntaxError: %v", err, err)
			}
			return
		}
		for _, doc := range docs {
			v := doc.Value
			if !validStrings(v) {
				continue // !!binary can make invalid UTF-8, which neither JSON nor YAML text holds
			}
			back, err := value.FromJSON(value.ToJSON(v))
			if err != nil || !value.Equal(back, v) {
				t.Fatalf("JSON round trip of %v: %v, %v", v, back, err)
			}
			y := value.ToYAML(v)
			back, err = value.FromYAML(y)
			if err != nil || !value.Equal(back, v) {
				t.Fatalf("YAML round trip of %v: %v, %v\nyaml:\n%s", v, back, err, y)
			}
		}
	})
}

func validStrings(v value.Value) bool {
	switch v.Kind() {
	case value.String:
		return utf8.ValidString(v.AsString())
	case value.List:
		for _, it := range v.Items() {
			if !validStrings(it) {
				return false
			}
		}
	case value.Map:
		for _, f := range v.Fields() {
			if !utf8.ValidString(f.Name) || !validStrings(f.Value) {
				return false
			}
		}
	}
	return true
}

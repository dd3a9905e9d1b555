package value_test

import (
	"bytes"
	"testing"

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

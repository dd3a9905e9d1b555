package schema

import (
	"testing"
)

// FuzzCompileYAML feeds arbitrary bytes to CompileYAML: it must never panic
// or hang, and whatever compiles must keep Compile's promises and survive a
// Marshal/Parse round trip.
func FuzzCompileYAML(f *testing.F) {
	for _, tc := range parseErrorCases {
		f.Add([]byte(tc.in))
	}
	for _, tc := range compileErrorCases {
		f.Add([]byte(tc.in))
	}
	for _, name := range []string{"basic.yaml", "smd/schema.yaml", "smd/apiresourceimport.yaml", "smd/dangling/list.yaml", "smd/invalid/bad-schema.yaml"} {
		f.Add(readSchema(f, name))
	}
	f.Add([]byte(aliasBomb(2)))
	f.Add([]byte("types:\n- name: q\n  scalar: string\n- name: a\n  map: {fields: [{name: x, type: {namedType: q, elementRelationship: atomic}}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, perr := Parse(data)
		s, err := CompileYAML(data)
		if perr != nil {
			if err == nil || err.Error() != perr.Error() {
				t.Fatalf("Parse failed (%v) but CompileYAML gave %v", perr, err)
			}
			return
		}
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if len(err.Error()) == 0 {
				t.Fatal("empty error message")
			}
			return
		}
		checkInvariants(t, s)
		checkRoundTrip(t, doc, false)
	})
}

package kube

import (
	"testing"

	"github.com/structmerge/structmerge/value"
)

// TestEncodeReusesOnlyWhatEncodesTheSame: entries read from an object
// encode to the values a fresh encoding gives, whether their fieldsV1 was
// written canonically (and its value is kept, and reused) or not (key
// fields out of order, spaces, "." in a member without children: encoded
// afresh).
func TestEncodeReusesOnlyWhatEncodesTheSame(t *testing.T) {
	for _, tc := range []struct {
		fieldsV1  string
		canonical bool
	}{
		{`{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}}}`, true},
		{`{"f:spec":{"f:ports":{"k:{\"protocol\":\"TCP\",\"port\":80}":{".":{},"f:port":{}}}}}`, false},
		{`{"f:spec":{"f:ports":{"k:{\"port\": 80, \"protocol\":\"TCP\"}":{"f:port":{}}}}}`, false},
		{`{"f:spec":{"f:ports":{"k:{\"port\":443}":{},"k:{\"port\":80}":{}}}}`, true},
		{`{"f:spec":{"f:replicas":{".":{}}}}`, false},
		{`{}`, true},
	} {
		fieldsV1 := tc.fieldsV1
		obj, err := value.FromJSON([]byte(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","managedFields":[` +
			`{"manager":"a","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":` + fieldsV1 + `},` +
			`{"manager":"b","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{}}}}]}}`))
		if err != nil {
			t.Fatal(err)
		}
		entries, fieldErrs, _, _ := rawManagedFields(obj)
		if fieldErrs != nil {
			t.Fatalf("%s: %v", fieldsV1, fieldErrs)
		}
		fresh := make([]ManagedFieldsEntry, len(entries))
		for i, e := range entries {
			if canonical := tc.canonical || i > 0; (e.decoded != nil) != canonical {
				t.Fatalf("%s: entry %d keeps %v of what it was read from, want it kept: %v", fieldsV1, i, e.decoded, canonical)
			}
			e.decoded = nil
			fresh[i] = e
		}
		got, want := EncodeManagedFields(obj, entries), EncodeManagedFields(obj, fresh)
		if !value.Equal(got, want) {
			t.Errorf("%s:\nreused  %s\nafresh  %s", fieldsV1, value.ToJSON(got), value.ToJSON(want))
		}
	}
}

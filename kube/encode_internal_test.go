package kube

import (
	"testing"

	"github.com/structmerge/structmerge/value"
)

// TestEncodeReusesOnlyWhatEncodesTheSame: entries read from an object
// encode to the values a fresh encoding gives, whether their fieldsV1 was
// written canonically (and its value is reused) or not (key fields out of
// order, spaces: encoded afresh).
func TestEncodeReusesOnlyWhatEncodesTheSame(t *testing.T) {
	for _, fieldsV1 := range []string{
		`{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}}}`,
		`{"f:spec":{"f:ports":{"k:{\"protocol\":\"TCP\",\"port\":80}":{".":{},"f:port":{}}}}}`,
		`{"f:spec":{"f:ports":{"k:{\"port\": 80, \"protocol\":\"TCP\"}":{"f:port":{}}}}}`,
		`{"f:spec":{"f:ports":{"k:{\"port\":443}":{},"k:{\"port\":80}":{}}}}`,
		`{}`,
	} {
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
			if e.decoded == nil {
				t.Fatalf("%s: entry %d keeps nothing of what it was read from", fieldsV1, i)
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

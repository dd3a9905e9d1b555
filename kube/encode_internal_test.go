package kube

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
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

// TestEncodeReusesWholeEntries: an entry that encodes to exactly the item
// it was read from is that item, so that a caller's own data for it can be
// reused (value.UnstructuredFrom); an entry changed since, or whose item
// holds what an encoding leaves out or writes otherwise, is encoded afresh
// and its caller's data is not reused.
func TestEncodeReusesWholeEntries(t *testing.T) {
	const fieldsV1 = `"fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}`
	later := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		item   string
		change func(*ManagedFieldsEntry)
		reused bool
	}{
		{"unchanged apply", `{"manager":"a","operation":"Apply","apiVersion":"v1",` + fieldsV1 + `}`, nil, true},
		{"unchanged update", `{"manager":"a","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z",` + fieldsV1 + `}`, nil, true},
		{"unchanged subresource", `{"manager":"a","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z",` + fieldsV1 + `,"subresource":"status"}`, nil, true},
		{"time stamped", `{"manager":"a","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z",` + fieldsV1 + `}`,
			func(e *ManagedFieldsEntry) { e.Time = later }, false},
		{"time set", `{"manager":"a","operation":"Update","apiVersion":"v1",` + fieldsV1 + `}`,
			func(e *ManagedFieldsEntry) { e.Time = later }, false},
		{"time cleared", `{"manager":"a","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z",` + fieldsV1 + `}`,
			func(e *ManagedFieldsEntry) { e.Time = time.Time{} }, false},
		{"manager renamed", `{"manager":"a","operation":"Update","apiVersion":"v1",` + fieldsV1 + `}`,
			func(e *ManagedFieldsEntry) { e.Manager = "ancient-changes" }, false},
		{"operation changed", `{"manager":"a","operation":"Update","apiVersion":"v1",` + fieldsV1 + `}`,
			func(e *ManagedFieldsEntry) { e.Operation = OperationApply }, false},
		{"version changed", `{"manager":"a","operation":"Update","apiVersion":"v1",` + fieldsV1 + `}`,
			func(e *ManagedFieldsEntry) { e.APIVersion = "v2" }, false},
		{"subresource set", `{"manager":"a","operation":"Update","apiVersion":"v1",` + fieldsV1 + `}`,
			func(e *ManagedFieldsEntry) { e.Subresource = "status" }, false},
		{"time not in UTC", `{"manager":"a","operation":"Update","apiVersion":"v1","time":"2026-01-01T01:00:00+01:00",` + fieldsV1 + `}`, nil, false},
		{"unknown member", `{"manager":"a","operation":"Apply","apiVersion":"v1","x":"y",` + fieldsV1 + `}`, nil, false},
		{"empty subresource", `{"manager":"a","operation":"Apply","apiVersion":"v1","subresource":"",` + fieldsV1 + `}`, nil, false},
		{"null time", `{"manager":"a","operation":"Apply","apiVersion":"v1","time":null,` + fieldsV1 + `}`, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, obj, entries := readOneEntry(t, tc.item)
			if tc.change != nil {
				tc.change(&entries[0])
			}
			got, out := encodeAsRead(t, obj, data, entries)
			gotItem := out.(map[string]any)["metadata"].(map[string]any)["managedFields"].([]any)[0]
			dataItem := data["metadata"].(map[string]any)["managedFields"].([]any)[0]
			if reused := reflect.ValueOf(gotItem).Pointer() == reflect.ValueOf(dataItem).Pointer(); reused != tc.reused {
				t.Errorf("the caller's item reused: %v, want %v (%s)", reused, tc.reused, value.ToJSON(got))
			}
		})
	}
}

// readOneEntry reads a Service whose managedFields hold item alone, and
// its one entry (which must be read with its value).
func readOneEntry(t *testing.T, item string) (map[string]any, value.Value, []ManagedFieldsEntry) {
	t.Helper()
	var data map[string]any
	doc := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","managedFields":[` + item + `]}}`
	if err := json.Unmarshal([]byte(doc), &data); err != nil {
		t.Fatal(err)
	}
	obj, err := value.FromUnstructured(data)
	if err != nil {
		t.Fatal(err)
	}
	entries, fieldErrs, _, _ := rawManagedFields(obj)
	if fieldErrs != nil || len(entries) != 1 || entries[0].decoded == nil {
		t.Fatalf("read %+v, %v", entries, fieldErrs)
	}
	return data, obj, entries
}

// encodeAsRead encodes entries, read from obj (converted from data), and
// fails unless that gives what encoding them afresh gives; it returns the
// result and the result as plain data sharing data's parts.
func encodeAsRead(t *testing.T, obj value.Value, data map[string]any, entries []ManagedFieldsEntry) (value.Value, any) {
	t.Helper()
	fresh := slices.Clone(entries)
	for i := range fresh {
		fresh[i].decoded = nil
	}
	got, want := EncodeManagedFields(obj, entries), EncodeManagedFields(obj, fresh)
	if !value.Equal(got, want) {
		t.Fatalf("\nas read %s\nafresh  %s", value.ToJSON(got), value.ToJSON(want))
	}
	return got, got.UnstructuredFrom(value.Origin{Value: obj, Data: data})
}

// TestEncodeChangedSetSharesMaps checks that an entry whose set changed is
// encoded like the value it was read from: the result is the encoding of
// the new set, and the non-empty maps on no path to a change are the
// caller's own (through UnstructuredFrom) while those on one are new.
func TestEncodeChangedSetSharesMaps(t *testing.T) {
	data, obj, entries := readOneEntry(t, `{"manager":"a","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":`+
		`{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}},"f:selector":{}}}}`)
	tier, err := fieldpath.MakePath("metadata", "labels", "tier")
	if err != nil {
		t.Fatal(err)
	}
	entries[0].Fields = entries[0].Fields.Union(fieldpath.NewSet(tier))
	_, out := encodeAsRead(t, obj, data, entries)
	fieldsV1 := func(m map[string]any) map[string]any {
		return m["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)["fieldsV1"].(map[string]any)
	}
	was, now := fieldsV1(data), fieldsV1(out.(map[string]any))
	same := func(a, b any) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }
	if !same(was["f:spec"], now["f:spec"]) {
		t.Errorf("the unchanged f:spec is not the caller's map")
	}
	if same(was, now) || same(was["f:metadata"], now["f:metadata"]) {
		t.Errorf("a map on the path to the change is the caller's")
	}
	if !same(was["f:spec"].(map[string]any)["f:ports"], now["f:spec"].(map[string]any)["f:ports"]) {
		t.Errorf("the unchanged f:ports is not the caller's map")
	}
}

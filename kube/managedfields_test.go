package kube_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

// apiServerLists are managedFields lists as the API server writes them
// (encoding/json of []metav1.ManagedFieldsEntry).
var apiServerLists = []string{
	`[{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]`,
	`[{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}},` +
		`{"manager":"hpa","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"},` +
		`{"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","time":"2020-01-01T00:00:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:replicas":{}}},"subresource":"status"}]`,
	`[{"manager":"a\u003cb\u003e","operation":"Update","apiVersion":"v1","time":"2021-03-04T05:06:07Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k\u003c":{}},"f:spec":{"f:tags":{"v:\"x\\u0026y\"":{}}}}}]`,
	`[{"operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]`,
	`[]`,
	`null`,
}

func TestManagedFieldsJSONRoundTrip(t *testing.T) {
	for _, in := range apiServerLists {
		entries, err := kube.UnmarshalManagedFields([]byte(in))
		if err != nil {
			t.Errorf("UnmarshalManagedFields(%s): %v", in, err)
			continue
		}
		if got := string(kube.MarshalManagedFields(entries)); got != in {
			t.Errorf("round trip:\n in: %s\nout: %s", in, got)
		}
	}
}

func TestManagedFieldsValueRoundTrip(t *testing.T) {
	for _, in := range apiServerLists {
		list, err := value.FromJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		obj := value.NewMap([]value.Field{
			{Name: "kind", Value: value.NewString("ConfigMap")},
			{Name: "metadata", Value: value.NewMap([]value.Field{{Name: "managedFields", Value: list}})},
		})
		entries, err := kube.DecodeManagedFields(obj)
		if err != nil {
			t.Errorf("DecodeManagedFields(%s): %v", in, err)
			continue
		}
		back := kube.EncodeManagedFields(obj, entries)
		if in == "null" {
			// null reads as no managedFields, and none are written.
			if _, ok := mustGet(back, "metadata").Get("managedFields"); ok {
				t.Errorf("null managedFields: encoded %v", back)
			}
			continue
		}
		if !value.Equal(back, obj) {
			t.Errorf("value round trip of %s:\n got %v", in, back)
		}
	}
}

func mustGet(v value.Value, name string) value.Value {
	f, _ := v.Get(name)
	return f
}

func TestDecodeManagedFieldsErrors(t *testing.T) {
	tests := []struct {
		list, want string
	}{
		{`[{"manager":"m","operation":"Patch","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]`, "operation must be `Apply` or `Update`"},
		{`[{"manager":"m","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]`, "operation must be `Apply` or `Update`"},
		{`[{"manager":"m","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{}}]`, "apiVersion must not be empty"},
		{`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsV1":{}}]`, "missing fieldsType in managed fields entry 0"},
		{`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1"},{"manager":"n","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV2"}]`, `invalid fieldsType "FieldsV2" in managed fields entry 1`},
		{`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"k:notjson":{}}}]`, "error decoding set"},
		{`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":"f:a"}]`, "error decoding set"},
		// Entries are checked in order, each completely.
		{`[{"manager":"m","operation":"Patch","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}},{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":"f:a"}]`, "operation must be"},
		{`[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":"f:a"},{"manager":"m","operation":"Patch","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]`, "entry 0: error decoding set"},
	}
	for _, tt := range tests {
		_, err := kube.UnmarshalManagedFields([]byte(tt.list))
		var mfe *kube.ManagedFieldsError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &mfe) {
			t.Errorf("UnmarshalManagedFields(%s) = %v, want a *ManagedFieldsError containing %q", tt.list, err, tt.want)
		}
	}
}

// TestMalformedManagedFields checks that managedFields without the shape
// of a list of entries read as none, as the API server's unstructured
// accessor reads them.
func TestMalformedManagedFields(t *testing.T) {
	for _, mf := range []string{
		`"x"`, `{}`, `[1]`, `[{"manager":5}]`, `[{"time":"yesterday"}]`, `[{"time":5}]`, `[{"operation":true}]`, `null`,
	} {
		obj := yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, managedFields: `+mf+`}}`)
		entries, err := kube.DecodeManagedFields(obj)
		if err != nil || entries != nil {
			t.Errorf("managedFields %s: got %v, %v; want none", mf, entries, err)
		}
		if _, err := kube.UnmarshalManagedFields([]byte(mf)); mf != "null" && err == nil {
			t.Errorf("UnmarshalManagedFields(%s): no error", mf)
		}
	}
}

func TestManagerIdentity(t *testing.T) {
	tests := []struct {
		e    kube.ManagedFieldsEntry
		want string
	}{
		{kube.ManagedFieldsEntry{Manager: "kubectl", Operation: kube.OperationApply, APIVersion: "apps/v1"}, `{"manager":"kubectl","operation":"Apply"}`},
		{kube.ManagedFieldsEntry{Manager: "kcm", Operation: kube.OperationUpdate, APIVersion: "apps/v1"}, `{"manager":"kcm","operation":"Update","apiVersion":"apps/v1"}`},
		{kube.ManagedFieldsEntry{Manager: "hpa", Operation: kube.OperationUpdate, APIVersion: "apps/v1", Subresource: "scale", Time: time.Unix(5, 0)}, `{"manager":"hpa","operation":"Update","apiVersion":"apps/v1","subresource":"scale"}`},
		{kube.ManagedFieldsEntry{Manager: `a"<b>&`, Operation: kube.OperationApply, Subresource: "status"}, `{"manager":"a\"\u003cb\u003e\u0026","operation":"Apply","subresource":"status"}`},
		{kube.ManagedFieldsEntry{Operation: kube.OperationUpdate, APIVersion: "v1"}, `{"operation":"Update","apiVersion":"v1"}`},
	}
	for _, tt := range tests {
		if got := tt.e.ManagerIdentity(); got != tt.want {
			t.Errorf("ManagerIdentity(%+v) = %s, want %s", tt.e, got, tt.want)
		}
	}
}

func TestSortManagedFields(t *testing.T) {
	at := func(s int64) time.Time { return time.Unix(s, 0).UTC() }
	entries := []kube.ManagedFieldsEntry{
		{Manager: "z", Operation: kube.OperationUpdate, APIVersion: "v1", Time: at(10)},
		{Manager: "b", Operation: kube.OperationUpdate, APIVersion: "v1", Time: at(5)},
		{Manager: "a", Operation: kube.OperationUpdate, APIVersion: "v1", Time: at(5), Subresource: "status"},
		{Manager: "a", Operation: kube.OperationUpdate, APIVersion: "v1", Time: at(5)},
		{Manager: "a", Operation: kube.OperationUpdate, APIVersion: "apps/v1", Time: at(5)},
		{Manager: "y", Operation: kube.OperationApply, APIVersion: "v1", Time: at(20)},
		{Manager: "x", Operation: kube.OperationUpdate, APIVersion: "v1"},
		{Manager: "w", Operation: kube.OperationApply, APIVersion: "v1", Time: time.Unix(30, 999).UTC()},
		{Manager: "v", Operation: kube.OperationApply, APIVersion: "v1", Time: at(30)},
	}
	kube.SortManagedFields(entries)
	var got []string
	for _, e := range entries {
		got = append(got, e.Manager+"/"+e.APIVersion+"/"+e.Subresource)
	}
	want := "y/v1/ v/v1/ w/v1/ x/v1/ a/apps/v1/ a/v1/ a/v1/status b/v1/ z/v1/"
	if strings.Join(got, " ") != want {
		t.Errorf("sorted:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestEncodeManagedFieldsKeepsOrderAndOmitsEmpty(t *testing.T) {
	set := fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("data"), fieldpath.FieldName("a")})
	entries := []kube.ManagedFieldsEntry{
		{Manager: "b", Operation: kube.OperationUpdate, APIVersion: "v1", FieldsType: kube.FieldsTypeV1, Fields: set},
		{Manager: "a", Operation: kube.OperationApply, APIVersion: "v1", FieldsType: kube.FieldsTypeV1, Time: time.Date(2020, 1, 1, 1, 2, 3, 500, time.FixedZone("x", 3600))},
	}
	obj := kube.EncodeManagedFields(yv(t, `{apiVersion: v1, kind: ConfigMap}`), entries)
	want := yv(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  managedFields:
  - {manager: b, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:a": {}}}}
  - {manager: a, operation: Apply, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {}, time: "2020-01-01T00:02:03Z"}
`)
	if !value.Equal(obj, want) {
		t.Errorf("got %v\nwant %v", obj, want)
	}
	if got := kube.EncodeManagedFields(obj, nil); !value.Equal(got, yv(t, `{apiVersion: v1, kind: ConfigMap, metadata: {}}`)) {
		t.Errorf("encoding no entries: got %v", got)
	}
}

func FuzzUnmarshalManagedFields(f *testing.F) {
	for _, s := range apiServerLists {
		f.Add([]byte(s))
	}
	f.Add([]byte(`[{"manager":"m","operation":"Patch","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]`))
	f.Add([]byte(`[{"time":"2020-01-01T00:00:00.5+01:00","fieldsV1":{"k:{\"a\":1}":{}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := kube.UnmarshalManagedFields(data)
		if err != nil {
			return
		}
		// What decodes encodes, and decodes again to the same bytes.
		out := kube.MarshalManagedFields(entries)
		again, err := kube.UnmarshalManagedFields(out)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		if out2 := kube.MarshalManagedFields(again); string(out2) != string(out) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}

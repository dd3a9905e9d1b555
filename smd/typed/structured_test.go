package typed_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

const structuredSchema = `types:
- name: obj
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: replicas
      type:
        scalar: numeric
    - name: ratio
      type:
        scalar: numeric
    - name: when
      type:
        scalar: string
    - name: labels
      type:
        map:
          elementType:
            scalar: string
    - name: items
      type:
        list:
          elementType:
            namedType: item
          elementRelationship: associative
          keys: [key]
- name: item
  map:
    fields:
    - name: key
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric
`

type structuredItem struct {
	Key   string `json:"key"`
	Value int32  `json:"value,omitempty"`
}

type structuredObj struct {
	Name     string            `json:"name"`
	Replicas *int64            `json:"replicas,omitempty"`
	Ratio    float64           `json:"ratio"`
	When     time.Time         `json:"when"` // marshals itself
	Labels   map[string]string `json:"labels,omitempty"`
	Items    []structuredItem  `json:"items,omitempty"`
	Skipped  string            `json:"-"`
}

// TestFromStructured: a Go object's typed value is its JSON encoding's
// (encoding/json is the oracle: omitempty, "-", types that marshal
// themselves, a float that is integral), it validates and compares as the
// unstructured form does, and AsValue gives a snapshot the caller may
// change without changing the typed value.
func TestFromStructured(t *testing.T) {
	p, err := typed.NewParser(structuredSchema)
	if err != nil {
		t.Fatal(err)
	}
	pt := p.Type("obj")
	three := int64(3)
	objs := []structuredObj{
		{Name: "a"},
		{Name: "b", Replicas: &three, Ratio: 2, When: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
			Labels: map[string]string{"z": "1", "a": "2"}, Items: []structuredItem{{Key: "x", Value: 1}, {Key: "y"}}, Skipped: "gone"},
		{Name: "c", Ratio: 0.25},
	}
	for _, obj := range objs {
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		want, err := pt.FromUnstructured(unstructuredOf(t, obj))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		got, err := pt.FromStructured(&obj)
		if err != nil {
			t.Fatalf("FromStructured(%+v): %v", obj, err)
		}
		if c, err := got.Compare(want); err != nil || !c.IsSame() {
			t.Errorf("FromStructured(%s) differs from its JSON's value: %v %v", data, c, err)
		}
		if !value.Equals(got.AsValue(), want.AsValue()) {
			t.Errorf("AsValue: got %s, want %s", value.ToString(got.AsValue()), value.ToString(want.AsValue()))
		}
		gs, err1 := got.ToFieldSet()
		ws, err2 := want.ToFieldSet()
		if err1 != nil || err2 != nil || !gs.Equals(ws) {
			t.Errorf("field sets: got %v (%v), want %v (%v)", gs, err1, ws, err2)
		}
		// A snapshot: changing it changes neither the typed value nor the
		// next snapshot.
		v := got.AsValue()
		v.AsMap().Set("name", value.NewValueInterface("changed"))
		if again := got.AsValue(); !value.Equals(again, want.AsValue()) {
			t.Errorf("a change to AsValue's result reached the typed value: %s", value.ToString(again))
		}
	}

	// Invalid for the schema: the same errors as the unstructured form.
	bad := map[string]interface{}{"name": "d", "labels": map[string]interface{}{"k": 1}}
	_, werr := pt.FromUnstructured(bad)
	type badObj struct {
		Name   string         `json:"name"`
		Labels map[string]int `json:"labels"`
	}
	_, gerr := pt.FromStructured(badObj{Name: "d", Labels: map[string]int{"k": 1}})
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
		t.Errorf("an invalid object: FromStructured error %v, FromUnstructured error %v", gerr, werr)
	}
	// No JSON form: encoding/json's error.
	_, err = pt.FromStructured(struct{ C chan int }{})
	if err == nil || !strings.HasPrefix(err.Error(), "error creating struct value reflector: value: json: unsupported type: chan int") {
		t.Errorf("a channel: %v", err)
	}
}

// selfMarshaler marshals itself, or fails to.
type selfMarshaler struct{ fail bool }

func (m selfMarshaler) MarshalJSON() ([]byte, error) {
	if m.fail {
		return nil, errSelfMarshal
	}
	return []byte(`"ok"`), nil
}

var errSelfMarshal = errors.New("cannot convert this part")

// TestFromStructuredMarshalErrors: as in SMD, an object whose own
// MarshalJSON fails is an error with SMD's text, and an object a part of
// which fails to marshal itself panics with that part's error (the API
// server turns the panic into an internal error; Kubernetes'
// TestRequestObjectConvertibleToUnstructured requires it).
func TestFromStructuredMarshalErrors(t *testing.T) {
	pt := typed.DeducedParseableType
	type holder struct {
		Name string        `json:"name"`
		Data selfMarshaler `json:"data"`
	}
	if _, err := pt.FromStructured(&holder{Name: "a"}); err != nil {
		t.Fatalf("a part that marshals: %v", err)
	}
	for _, root := range []interface{}{&selfMarshaler{fail: true}} {
		_, err := pt.FromStructured(root)
		if err == nil || err.Error() != "error creating struct value reflector: cannot convert this part" {
			t.Errorf("a root of type %T that fails to marshal: err = %v", root, err)
		}
	}
	func() {
		defer func() {
			r := recover()
			if err, ok := r.(error); !ok || !errors.Is(err, errSelfMarshal) {
				t.Errorf("a part that fails to marshal: recovered %v, want a panic with its error", r)
			}
		}()
		_, err := pt.FromStructured(&holder{Name: "a", Data: selfMarshaler{fail: true}})
		t.Errorf("a part that fails to marshal: no panic (err = %v)", err)
	}()
}

// TestCompareEqualObjects: two typed values of equal Go objects (equal
// JSON texts, which lets the comparison skip the walk) compare as the same,
// and an object that differs anywhere compares as its unstructured form
// does.
func TestCompareEqualObjects(t *testing.T) {
	p, err := typed.NewParser(structuredSchema)
	if err != nil {
		t.Fatal(err)
	}
	pt := p.Type("obj")
	three := int64(3)
	base := structuredObj{Name: "b", Replicas: &three, Labels: map[string]string{"a": "1"},
		Items: []structuredItem{{Key: "x", Value: 1}, {Key: "y"}}}
	changes := []func(o *structuredObj){
		func(o *structuredObj) {},
		func(o *structuredObj) { o.Name = "c" },
		func(o *structuredObj) { o.Labels = map[string]string{"a": "2"} },
		func(o *structuredObj) { o.Items = []structuredItem{{Key: "x", Value: 2}, {Key: "y"}} },
		func(o *structuredObj) { o.Replicas = nil },
	}
	for i, change := range changes {
		other := base
		other.Labels = map[string]string{"a": "1"}
		other.Items = append([]structuredItem(nil), base.Items...)
		change(&other)
		lhs, err1 := pt.FromStructured(&base)
		rhs, err2 := pt.FromStructured(&other)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		got, err := lhs.Compare(rhs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := pt.FromUnstructured(unstructuredOf(t, base))
		if err != nil {
			t.Fatal(err)
		}
		rhsU, err := pt.FromUnstructured(unstructuredOf(t, other))
		if err != nil {
			t.Fatal(err)
		}
		wantC, err := want.Compare(rhsU)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Added.Equals(wantC.Added) || !got.Removed.Equals(wantC.Removed) || !got.Modified.Equals(wantC.Modified) {
			t.Errorf("change %d: got %v, want %v", i, got, wantC)
		}
		if (i == 0) != got.IsSame() {
			t.Errorf("change %d: IsSame %v", i, got.IsSame())
		}
	}
}

// unstructuredOf is obj's JSON form as Go data.
func unstructuredOf(t *testing.T, obj interface{}) map[string]interface{} {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var u map[string]interface{}
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	return u
}

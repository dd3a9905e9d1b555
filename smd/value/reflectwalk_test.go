package value_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// consistent converts itself to what its MarshalJSON writes, as the
// UnstructuredConverter contract requires.
type consistent struct{ s string }

func (c consistent) MarshalJSON() ([]byte, error) { return json.Marshal(c.s) }
func (c consistent) ToUnstructured() any          { return c.s }

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("t-" + string(k)), nil }

type Meta struct {
	Name        string            `json:"name,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Created     time.Time         `json:"created"`
	Deleted     *time.Time        `json:"deleted,omitempty"`
	Generation  int64             `json:"generation,omitempty"`
	Annotations map[string]string `json:"annotations"`
}

type Extra struct {
	Note string `json:"note"`
}

type hiddenBase struct {
	Visible string `json:"visible"`
}

type object struct {
	Meta   `json:"metadata"`
	*Extra `json:",inline"`
	hiddenBase
	Spec struct {
		Replicas *int32            `json:"replicas,omitempty"`
		Ratio    float64           `json:"ratio"`
		Big      uint64            `json:"big"`
		Small    uint8             `json:"small"`
		Data     []byte            `json:"data,omitempty"`
		Items    []Extra           `json:"items"`
		Arr      [2]string         `json:"arr"`
		Any      interface{}       `json:"any"`
		Raw      rawJSON           `json:"raw,omitempty"`
		Conv     consistent        `json:"conv"`
		Nested   map[string][]int8 `json:"nested"`
		Skip     string            `json:"-"`
		Zero     time.Time         `json:"zero,omitzero"`
		NoTag    bool
	} `json:"spec"`
}

// TestNewValueReflectLikeJSON: NewValueReflect's walk gives what
// encoding/json gives (decoded with integers as int64), on values that use
// json tags, omitempty and omitzero, inlined embedded structs (nil and
// not), types that marshal themselves, []byte, large unsigned integers,
// and on values the walk leaves to encoding/json (map keys with
// MarshalText, the ",string" option).
func TestNewValueReflectLikeJSON(t *testing.T) {
	replicas := int32(3)
	full := &object{}
	full.Name = "web"
	full.Labels = map[string]string{"app": "web"}
	full.Created = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	full.Deleted = &full.Created
	full.Extra = &Extra{Note: "n"}
	full.Visible = "v"
	full.Spec.Replicas = &replicas
	full.Spec.Ratio = 2.5
	full.Spec.Big = math.MaxUint64
	full.Spec.Small = 7
	full.Spec.Data = []byte("hello")
	full.Spec.Items = []Extra{{Note: "a"}, {}}
	full.Spec.Arr = [2]string{"x", "y"}
	full.Spec.Any = map[string]interface{}{"k": []interface{}{1, "s", nil}}
	full.Spec.Raw = rawJSON(`{"r":[1,2.5]}`)
	full.Spec.Conv = consistent{s: "converted"}
	full.Spec.Nested = map[string][]int8{"a": {1, -2}, "b": nil}
	full.Spec.Skip = "skipped"
	full.Spec.NoTag = true

	type withText struct {
		M map[textKey]int `json:"m"`
	}
	type withString struct {
		N int `json:"n,string"`
	}
	cases := map[string]interface{}{
		"full":        full,
		"empty":       &object{},
		"plain":       object{},
		"list":        []object{{}, *full},
		"map":         map[string]*object{"a": full, "b": nil},
		"text keys":   &withText{M: map[textKey]int{"a": 1}},
		"string opt":  &withString{N: 5},
		"time":        time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		"nil pointer": (*object)(nil),
	}
	for name, x := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := value.NewValueReflect(x)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			want, err := value.FromJSON(data)
			if err != nil {
				t.Fatal(err)
			}
			if !value.Equals(got, want) {
				g, _ := value.ToJSON(got)
				w, _ := value.ToJSON(want)
				t.Errorf("got  %s\nwant %s", g, w)
			}
			if !bytes.Contains(data, []byte("skipped")) && name == "full" {
				if s, _ := value.ToJSON(got); bytes.Contains(s, []byte("skipped")) {
					t.Error("a field tagged - was converted")
				}
			}
		})
	}
	// The walk, not encoding/json, made these: a whole float stays a float.
	v, err := value.NewValueReflect(&struct{ F float64 }{F: 3})
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := v.AsMap().Get("F"); !ok || !f.IsFloat() {
		t.Errorf("a float64 field holding 3 is not a float: %v", f)
	}
	if _, err := value.NewValueReflect(&struct{ F float64 }{F: math.NaN()}); err == nil {
		t.Error("NaN: no error")
	}
}

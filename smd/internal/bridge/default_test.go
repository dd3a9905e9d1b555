package bridge

import (
	"strings"
	"testing"

	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// Go types of the kinds kube-openapi's generated definitions put in a
// field's Default (an API server builds its schema from them, not from
// swagger.json).
type (
	protocol  string
	enabled   bool
	port      int32
	ratio     float64
	smallInt  uint8
	selection struct {
		Name  string   `json:"name"`
		Items []string `json:"items,omitempty"`
		Skip  *int     `json:"skip,omitempty"`
	}
)

// compiledDefault compiles a one-field map type whose field has default d
// and returns what the compiled field holds.
func compiledDefault(t *testing.T, d any) (corevalue.Value, bool) {
	t.Helper()
	name := "t"
	s := &schema.Schema{Types: []schema.TypeDef{{
		Name: name,
		Atom: schema.Atom{Map: &schema.Map{Fields: []schema.StructField{{
			Name:    "f",
			Type:    schema.TypeRef{Inlined: schema.Atom{Scalar: ptr(schema.Untyped)}},
			Default: d,
		}}}},
	}}}
	c, err := Compile(s)
	if err != nil {
		t.Fatalf("Compile with default %#v: %v", d, err)
	}
	ty, _ := c.Type(name)
	f, ok := ty.Map().Field("f")
	if !ok {
		t.Fatal("field f not compiled")
	}
	return f.Default()
}

func ptr[T any](v T) *T { return &v }

func TestDefaultsOfGoTypes(t *testing.T) {
	two := 2
	var nilProtocol *protocol
	for _, tc := range []struct {
		name string
		def  any
		json string // the same default as an OpenAPI document writes it; "" for none
	}{
		{"named string", protocol("TCP"), `"TCP"`},
		{"named bool", enabled(true), `true`},
		{"named int32", port(8080), `8080`},
		{"named uint8", smallInt(7), `7`},
		{"named float", ratio(0.25), `0.25`},
		{"pointer to named string", ptr(protocol("UDP")), `"UDP"`},
		{"pointer to int", &two, `2`},
		{"nil pointer", nilProtocol, ``},
		{"slice of named strings", []protocol{"TCP", "SCTP"}, `["TCP","SCTP"]`},
		{"map of named values", map[string]port{"http": 80, "https": 443}, `{"http":80,"https":443}`},
		{"map with named keys", map[protocol]bool{"TCP": true}, `{"TCP":true}`},
		{"struct", selection{Name: "a", Items: []string{"x"}}, `{"name":"a","items":["x"]}`},
		{"pointer to struct", &selection{Name: "b", Skip: &two}, `{"name":"b","skip":2}`},
		{"plain map with a named value", map[string]any{"p": protocol("TCP"), "n": 1}, `{"p":"TCP","n":1}`},
		{"plain string", "TCP", `"TCP"`},
		{"plain number", int64(3), `3`},
		{"YAML map", map[any]any{"a": "b"}, `{"a":"b"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := compiledDefault(t, tc.def)
			if tc.json == "" {
				if ok {
					t.Fatalf("default %#v compiled to %s, want none", tc.def, corevalue.ToJSON(got))
				}
				return
			}
			if !ok {
				t.Fatalf("default %#v compiled to none, want %s", tc.def, tc.json)
			}
			want, err := corevalue.FromJSON([]byte(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			if !corevalue.Equal(got, want) {
				t.Errorf("default %#v compiled to %s, want %s", tc.def, corevalue.ToJSON(got), tc.json)
			}
		})
	}
}

// A default with no JSON form is an error naming the field, not a panic.
func TestDefaultWithoutJSONForm(t *testing.T) {
	s := &schema.Schema{Types: []schema.TypeDef{{
		Name: "t",
		Atom: schema.Atom{Map: &schema.Map{Fields: []schema.StructField{{
			Name:    "f",
			Type:    schema.TypeRef{Inlined: schema.Atom{Scalar: ptr(schema.Untyped)}},
			Default: make(chan int),
		}}}},
	}}}
	_, err := Compile(s)
	if err == nil || !strings.Contains(err.Error(), `field "f": default`) {
		t.Fatalf("Compile with a channel default: err = %v, want an error naming field \"f\"", err)
	}
}

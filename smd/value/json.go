package value

import (
	"encoding/json"
	"fmt"

	core "github.com/structmerge/structmerge/value"
	yaml "go.yaml.in/yaml/v2"
)

// FromJSON decodes one JSON value. As in SMD, every number becomes a
// float64 and objects become map[string]interface{}; trailing data after the
// value is an error. Decoding is structmerge's strict JSON decoder, so
// error texts differ from SMD's.
func FromJSON(input []byte) (Value, error) {
	v, err := core.FromJSON(input)
	if err != nil {
		return nil, err
	}
	return NewValueInterface(jsonData(v)), nil
}

// FromJSONFast is FromJSON.
func FromJSONFast(input []byte) (Value, error) { return FromJSON(input) }

// jsonData converts a decoded value into unstructured data with SMD's JSON
// number type (float64).
func jsonData(v core.Value) interface{} {
	switch v.Kind() {
	case core.Bool:
		return v.AsBool()
	case core.Int, core.Float:
		return v.AsFloat()
	case core.String:
		return v.AsString()
	case core.List:
		out := make([]interface{}, v.Len())
		for i, item := range v.Items() {
			out[i] = jsonData(item)
		}
		return out
	case core.Map:
		out := make(map[string]interface{}, v.Len())
		for _, f := range v.Fields() {
			out[f.Name] = jsonData(f.Value)
		}
		return out
	}
	return nil
}

// ToJSON encodes v as JSON the way encoding/json does: map keys sorted,
// HTML characters escaped.
func ToJSON(v Value) ([]byte, error) {
	return json.Marshal(jsonable(v.Unstructured()))
}

// jsonable turns the map[interface{}]interface{} maps YAML decoders make
// into map[string]interface{}, which encoding/json can encode.
func jsonable(x interface{}) interface{} {
	switch t := x.(type) {
	case map[interface{}]interface{}:
		out := make(map[string]interface{}, len(t))
		for k, v := range t {
			s, ok := k.(string)
			if !ok {
				s = fmt.Sprintf("%v", k)
			}
			out[s] = jsonable(v)
		}
		return out
	case map[string]interface{}:
		for _, v := range t {
			if needsJSONable(v) {
				out := make(map[string]interface{}, len(t))
				for k, v := range t {
					out[k] = jsonable(v)
				}
				return out
			}
		}
	case []interface{}:
		for _, v := range t {
			if needsJSONable(v) {
				out := make([]interface{}, len(t))
				for i, v := range t {
					out[i] = jsonable(v)
				}
				return out
			}
		}
	}
	return x
}

func needsJSONable(x interface{}) bool {
	switch t := x.(type) {
	case map[interface{}]interface{}:
		return true
	case map[string]interface{}:
		for _, v := range t {
			if needsJSONable(v) {
				return true
			}
		}
	case []interface{}:
		for _, v := range t {
			if needsJSONable(v) {
				return true
			}
		}
	}
	return false
}

// ToYAML encodes v as YAML (go.yaml.in/yaml/v2, as SMD does).
func ToYAML(v Value) ([]byte, error) {
	return yaml.Marshal(v.Unstructured())
}

package kube

import (
	"fmt"
	"reflect"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
)

// This file holds the field manager's operations on objects in the forms
// callers hold them: map[string]any (encoding/json's and Kubernetes'
// unstructured objects), JSON bytes and Go structs (the k8s.io/api types).
// Each converts the request's object like the live object, converted
// first, so that the two share their unchanged parts and the operation
// compares only what differs, and converts the result back sharing the
// callers' unchanged data where the form allows it.

// ApplyUnstructured is Apply on objects in the map[string]any form of
// encoding/json and of Kubernetes' unstructured objects: live is the
// object as stored (nil when it does not exist yet), applied the
// configuration. Neither is modified. The result shares the maps, lists
// and strings of live and applied that the apply left as they were, as the
// API server's field manager shares them: copy it before changing it
// (runtime.DeepCopyJSON, for example). An applied object that is not plain
// JSON data is a *BadRequestError, a live one a *LiveObjectError.
func (m *FieldManager) ApplyUnstructured(live, applied map[string]any, manager string, opts ...RequestOption) (map[string]any, error) {
	r := resolveRequest(opts)
	live, liveMF := m.readLiveManaged(live, r)
	return onUnstructured(live, applied, func(lv, ov value.Value) (value.Value, []newFieldsV1, error) {
		return m.apply(lv, ov, manager, r, true, liveMF)
	})
}

// UpdateUnstructured is Update on objects in the map[string]any form, as
// ApplyUnstructured is Apply: obj is the object the request sends.
func (m *FieldManager) UpdateUnstructured(live, obj map[string]any, manager string, opts ...RequestOption) (map[string]any, error) {
	r := resolveRequest(opts)
	var liveMF *mapManaged
	if !hasManagedFields(obj) {
		// A body that carries managedFields, as an update of the object
		// read back usually does, is converted like the live object's,
		// which then shares them: cheaper than reading both lists.
		live, liveMF = m.readLiveManaged(live, r)
	}
	return onUnstructured(live, obj, func(lv, ov value.Value) (value.Value, []newFieldsV1, error) {
		return m.update(lv, ov, manager, r, true, liveMF)
	})
}

// ApplyJSON is Apply on objects as JSON: live is the stored object's JSON
// (empty when it does not exist yet), applied the configuration's. The
// result is compact JSON, as encoding/json.Marshal writes the object's
// map[string]any form. A configuration that is not valid JSON is a
// *BadRequestError, a live object that is not a *LiveObjectError.
func (m *FieldManager) ApplyJSON(live, applied []byte, manager string, opts ...RequestOption) ([]byte, error) {
	lv, ov, err := fromJSON(live, applied)
	if err != nil {
		return nil, err
	}
	out, err := m.Apply(lv, ov, manager, opts...)
	if err != nil {
		return nil, err
	}
	return value.ToJSON(out), nil
}

// UpdateJSON is Update on objects as JSON, as ApplyJSON is Apply.
func (m *FieldManager) UpdateJSON(live, obj []byte, manager string, opts ...RequestOption) ([]byte, error) {
	lv, ov, err := fromJSON(live, obj)
	if err != nil {
		return nil, err
	}
	out, err := m.Update(lv, ov, manager, opts...)
	if err != nil {
		return nil, err
	}
	return value.ToJSON(out), nil
}

// ApplyUnstructured is Server.Apply in the map form (see
// FieldManager.ApplyUnstructured).
func (s *Server) ApplyUnstructured(live, applied map[string]any, manager string, opts ...RequestOption) (map[string]any, error) {
	return onUnstructured(live, applied, func(lv, ov value.Value) (value.Value, []newFieldsV1, error) {
		out, err := s.Apply(lv, ov, manager, opts...)
		return out, nil, err
	})
}

// UpdateUnstructured is Server.Update in the map form (see
// FieldManager.UpdateUnstructured).
func (s *Server) UpdateUnstructured(live, obj map[string]any, manager string, opts ...RequestOption) (map[string]any, error) {
	return onUnstructured(live, obj, func(lv, ov value.Value) (value.Value, []newFieldsV1, error) {
		out, err := s.Update(lv, ov, manager, opts...)
		return out, nil, err
	})
}

// ApplyJSON is Server.Apply on JSON (see FieldManager.ApplyJSON).
func (s *Server) ApplyJSON(live, applied []byte, manager string, opts ...RequestOption) ([]byte, error) {
	lv, ov, err := fromJSON(live, applied)
	if err != nil {
		return nil, err
	}
	out, err := s.Apply(lv, ov, manager, opts...)
	if err != nil {
		return nil, err
	}
	return value.ToJSON(out), nil
}

// UpdateJSON is Server.Update on JSON (see FieldManager.UpdateJSON).
func (s *Server) UpdateJSON(live, obj []byte, manager string, opts ...RequestOption) ([]byte, error) {
	lv, ov, err := fromJSON(live, obj)
	if err != nil {
		return nil, err
	}
	out, err := s.Update(lv, ov, manager, opts...)
	if err != nil {
		return nil, err
	}
	return value.ToJSON(out), nil
}

// onUnstructured runs op, an operation on a request's live object and the
// object it sends, on their map forms: it converts them (fromUnstructured),
// converts op's result back sharing their unchanged data
// (toUnstructured), and writes there the managedFields items and fieldsV1
// op left to write (fillFieldsV1).
func onUnstructured(live, obj map[string]any, op func(lv, ov value.Value) (value.Value, []newFieldsV1, error)) (map[string]any, error) {
	lv, ov, err := fromUnstructured(live, obj)
	if err != nil {
		return nil, err
	}
	out, fill, err := op(lv, ov)
	if err != nil {
		return nil, err
	}
	u, err := toUnstructured(out, value.Origin{Value: lv, Data: live}, value.Origin{Value: ov, Data: obj})
	if err != nil {
		return nil, err
	}
	if err := fillFieldsV1(u, fill); err != nil {
		return nil, err
	}
	return u, nil
}

// fromUnstructured converts a request's live object and the object it
// sends, the latter like the former: they share their unchanged parts, and
// the operation compares and checks only the rest.
func fromUnstructured(live, obj map[string]any) (lv, ov value.Value, err error) {
	if live != nil {
		if lv, err = value.FromUnstructured(live); err != nil {
			return lv, ov, &LiveObjectError{Err: err}
		}
	}
	if obj == nil {
		return lv, ov, &BadRequestError{Message: "the request has no object"}
	}
	if ov, err = value.FromUnstructured(obj, value.Like(lv)); err != nil {
		return lv, ov, &BadRequestError{Message: err.Error()}
	}
	return lv, ov, nil
}

// toUnstructured converts a result back, giving the callers' own data for
// what it shares with the origins.
func toUnstructured(out value.Value, origins ...value.Origin) (map[string]any, error) {
	m, ok := out.UnstructuredFrom(origins...).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("kube: the result is a %v, not an object", out.Kind())
	}
	return m, nil
}

// fillFieldsV1 writes into u, a result converted to maps, the
// managedFields items the value left null (see encodeManagedFields): the
// caller's own, or items built from their entries, whose fieldsV1 is the
// caller's or their sets' encoding. The list holding them is new, built
// by the conversion: the value's list held nulls, so no origin's data
// stands for it.
func fillFieldsV1(u map[string]any, fill []newFieldsV1) error {
	if len(fill) == 0 {
		return nil
	}
	md, _ := u["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	for _, f := range fill {
		if f.index >= len(list) || list[f.index] != nil {
			return fmt.Errorf("kube: the result has no managedFields item %d to write", f.index)
		}
		switch {
		case f.item != nil:
			list[f.index] = f.item
		case f.asIs:
			list[f.index] = entryMap(f.entry, f.fields)
		default:
			list[f.index] = entryMap(f.entry, f.set.FieldsV1UnstructuredLike(f.prev, f.fields))
		}
	}
	return nil
}

// fromJSON decodes a request's live object and the object it sends, the
// latter like the former.
func fromJSON(live, obj []byte) (lv, ov value.Value, err error) {
	if len(live) > 0 {
		if lv, err = value.FromJSON(live); err != nil {
			return lv, ov, &LiveObjectError{Err: err}
		}
	}
	if ov, err = value.FromJSON(obj, value.Like(lv)); err != nil {
		return lv, ov, &BadRequestError{Message: err.Error()}
	}
	return lv, ov, nil
}

// WithStructTypes gives the field manager the conversion of each of types,
// Go struct types with json tags such as corev1.Pod, built once here for
// ApplyStruct and UpdateStruct on them (a type not given is converted too,
// with a conversion worked out for each call). NewFieldManager fails on a
// type that has no JSON form.
func WithStructTypes(types ...reflect.Type) Option {
	return func(o options) options {
		o.structTypes = append(o.structTypes[:len(o.structTypes):len(o.structTypes)], types...)
		return o
	}
}

// structCodecs builds the conversion of each type, once.
func structCodecs(types []reflect.Type) (map[reflect.Type]*gostruct.Codec, error) {
	if len(types) == 0 {
		return nil, nil
	}
	codecs := make(map[reflect.Type]*gostruct.Codec, len(types))
	for _, t := range types {
		if t == nil {
			return nil, fmt.Errorf("kube: WithStructTypes given a nil type")
		}
		if _, ok := codecs[t]; ok {
			continue
		}
		c, err := gostruct.NewCodec(t)
		if err != nil {
			return nil, fmt.Errorf("kube: WithStructTypes: %w", err)
		}
		codecs[t] = c
	}
	return codecs, nil
}

// codec returns the conversion of T: the one built by WithStructTypes, or
// one built for this call.
func codec[T any](m *FieldManager) (*gostruct.Codec, error) {
	t := reflect.TypeFor[T]()
	if c, ok := m.codecs[t]; ok {
		return c, nil
	}
	return gostruct.NewCodec(t)
}

// ApplyStruct is m.Apply on a Go struct type T with json tags (a k8s.io/api
// type such as corev1.Pod): live is the stored object (nil when it does not
// exist yet), applied the configuration, in any of the forms a configuration
// comes in: a *T, a map[string]any, JSON bytes ([]byte) or a value.Value. The
// result is a new *T; neither argument is modified. The result shares the
// parts of live that the apply left as they were (its pointers, slices and
// maps): copy it (DeepCopy) before changing it. Give T to WithStructTypes so
// that its conversion is built once. A configuration that does not convert is
// a *BadRequestError, a live object that does not a *LiveObjectError.
func ApplyStruct[T any](m *FieldManager, live *T, applied any, manager string, opts ...RequestOption) (*T, error) {
	return writeStruct(m, true, live, applied, manager, opts)
}

// UpdateStruct is m.Update on a Go struct type T, as ApplyStruct is Apply:
// obj is the object the request sends. The result shares the parts of live
// and obj that the update left as they were.
func UpdateStruct[T any](m *FieldManager, live, obj *T, manager string, opts ...RequestOption) (*T, error) {
	if obj == nil {
		return nil, &BadRequestError{Message: "the request has no object"}
	}
	return writeStruct(m, false, live, obj, manager, opts)
}

func writeStruct[T any](m *FieldManager, apply bool, live *T, obj any, manager string, opts []RequestOption) (*T, error) {
	c, err := codec[T](m)
	if err != nil {
		return nil, err
	}
	var lv value.Value
	if live != nil {
		if lv, err = c.FromStruct(live); err != nil {
			return nil, &LiveObjectError{Err: err}
		}
	}
	origins := []value.Origin{{Value: lv, Data: live}}
	var ov value.Value
	switch x := obj.(type) {
	case *T:
		if x == nil {
			return nil, &BadRequestError{Message: "the request has no object"}
		}
		// Parts equal in Go to the live object's are not converted again.
		ov, err = c.FromStruct(x, value.LikeOrigin(value.Origin{Value: lv, Data: live}))
		origins = append(origins, value.Origin{Value: ov, Data: x})
	case map[string]any:
		ov, err = value.FromUnstructured(x, value.Like(lv))
	case []byte:
		ov, err = value.FromJSON(x, value.Like(lv))
	case value.Value:
		ov = x
	case nil:
		return nil, &BadRequestError{Message: "the request has no object"}
	default:
		return nil, &BadRequestError{Message: fmt.Sprintf("kube: a %T request for a %s object: want a *%[2]s, a map[string]any, JSON bytes or a value.Value", obj, reflect.TypeFor[T]())}
	}
	if err != nil {
		return nil, &BadRequestError{Message: err.Error()}
	}
	var out value.Value
	if apply {
		out, err = m.Apply(lv, ov, manager, opts...)
	} else {
		out, err = m.Update(lv, ov, manager, opts...)
	}
	if err != nil {
		return nil, err
	}
	res := new(T)
	if err := c.ToStructFrom(out, res, origins...); err != nil {
		return nil, err
	}
	return res, nil
}

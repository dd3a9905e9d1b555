package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/structmerge/structmerge/kube/internal/strategies"
)

// The generation rule of a kind is found by running its main strategy:
//
//   - PrepareForCreate on an empty object: the kind's rule sets the
//     generation on create when the object comes out with generation 1;
//   - PrepareForUpdate on two objects that differ in one leaf field
//     (a string, number or bool, reached through the field's structs,
//     pointers, slices and maps, the old object holding one value and the
//     new one another), both at generation 5: the field is compared when
//     the new object comes out at 6. A top-level field is compared when a
//     change of any leaf under it bumps the generation (the first leaves
//     may be ones the strategy drops or resets from the live object), and
//     so are the fields of the metadata listed in metadataFields.
//
// The rule lists the compared top-level fields in the order of the Go
// type, then the compared fields of the metadata. When every field but the
// metadata is compared and there is more than one, the rule says so with
// the empty path (the whole object but its metadata), as the strategies
// that compare whole objects with their metadata cleared do.

// metadataFields are the fields of ObjectMeta probed, by Go name.
var metadataFields = []string{"Name", "GenerateName", "Namespace", "Labels", "Annotations", "OwnerReferences", "Finalizers"}

// maxLeaves bounds the leaves tried under one top-level field, and
// maxDepth the structs, pointers, slices and maps followed to reach one.
const (
	maxLeaves = 4000
	maxDepth  = 6
)

// liveGeneration is the generation of both objects of an update.
const liveGeneration = 5

func generationOf(k strategies.Kind) (generationRow, bool, error) {
	row := generationRow{group: k.Group, kind: kindName(k)}
	ctx := requestContext(k, "create")
	obj := filledObject(k)
	if err := safely(func() { k.Main.PrepareForCreate(ctx, obj) }); err != nil {
		return row, false, fmt.Errorf("PrepareForCreate: %w", err)
	}
	row.onCreate = accessor(obj).GetGeneration() == 1

	ctx = requestContext(k, "update")
	bumped, err := bumps(ctx, k, nil)
	if err != nil {
		return row, false, err
	}
	if bumped {
		return row, false, fmt.Errorf("PrepareForUpdate bumps the generation of an unchanged object")
	}
	t := reflect.TypeOf(k.Object).Elem()
	var fields [][]string
	all := true
	n := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous || !f.IsExported() {
			continue
		}
		bumped, err := anyLeafBumps(ctx, k, []int{i})
		if errors.Is(err, errNoLeaf) {
			continue // an empty struct: it cannot change
		}
		if err != nil {
			return row, false, fmt.Errorf("%s: %w", f.Name, err)
		}
		n++
		if bumped {
			fields = append(fields, []string{lowerCamel(f.Name)})
		} else {
			all = false
		}
	}
	if all && n > 1 {
		fields = [][]string{{}}
	}
	om, ok := t.FieldByName("ObjectMeta")
	if !ok {
		return row, false, fmt.Errorf("%s has no ObjectMeta", t)
	}
	for _, name := range metadataFields {
		f, ok := om.Type.FieldByName(name)
		if !ok {
			return row, false, fmt.Errorf("ObjectMeta has no %s", name)
		}
		bumped, err := anyLeafBumps(ctx, k, append(append([]int{}, om.Index...), f.Index...))
		if err != nil {
			return row, false, fmt.Errorf("metadata %s: %w", name, err)
		}
		if bumped {
			fields = append(fields, []string{"metadata", lowerCamel(name)})
		}
	}
	row.compared = fields
	if fields == nil {
		row.compared = [][]string{}
	}
	return row, row.onCreate || len(fields) > 0, nil
}

// anyLeafBumps reports whether a change of some leaf under the field at
// index (of the kind's Go type) bumps the generation.
func anyLeafBumps(ctx context.Context, k strategies.Kind, index []int) (bool, error) {
	t := reflect.TypeOf(k.Object).Elem()
	root := t.FieldByIndex(index)
	var leaves [][]step
	collectLeaves(root.Type, nil, map[reflect.Type]bool{}, &leaves)
	if len(leaves) == 0 {
		return false, fmt.Errorf("%s: %w", root.Name, errNoLeaf)
	}
	var lastErr error
	failed := 0
	for _, l := range leaves {
		bumped, err := bumps(ctx, k, &change{index: index, steps: l})
		if err != nil {
			// A strategy written for what validation lets through may
			// fail on an odd object; the next leaf may do.
			lastErr, failed = err, failed+1
			continue
		}
		if bumped {
			return true, nil
		}
	}
	if failed == len(leaves) {
		return false, fmt.Errorf("every change under %s fails: %w", root.Name, lastErr)
	}
	return false, nil
}

// errNoLeaf is anyLeafBumps' error for a field with nothing to change
// (an empty struct).
var errNoLeaf = errors.New("no leaf to change")

// change is where the two objects of an update differ: the field at index
// of the kind's Go type, then steps to a leaf.
type change struct {
	index []int
	steps []step
}

// step is one move from a value to a value inside it.
type step struct {
	kind  reflect.Kind // Struct (field), Pointer, Slice (element 0) or Map (key "0")
	field int
}

// bumps runs PrepareForUpdate on two objects at generation 5 that differ
// by c (nil: identical) and reports whether the new one comes out at 6.
func bumps(ctx context.Context, k strategies.Kind, c *change) (bool, error) {
	oldObj, newObj := filledObject(k), filledObject(k)
	for _, o := range []runtime.Object{oldObj, newObj} {
		m := accessor(o)
		m.SetName("probe")
		m.SetNamespace("default")
		m.SetResourceVersion("1")
		m.SetGeneration(liveGeneration)
	}
	if c != nil {
		if err := setLeaf(reflect.ValueOf(oldObj).Elem().FieldByIndex(c.index), c.steps, 1); err != nil {
			return false, err
		}
		if err := setLeaf(reflect.ValueOf(newObj).Elem().FieldByIndex(c.index), c.steps, 2); err != nil {
			return false, err
		}
	}
	if err := safely(func() { k.Main.PrepareForUpdate(ctx, newObj, oldObj) }); err != nil {
		return false, err
	}
	switch g := accessor(newObj).GetGeneration(); g {
	case liveGeneration:
		return false, nil
	case liveGeneration + 1:
		return true, nil
	default:
		return false, fmt.Errorf("PrepareForUpdate moved the generation from %d to %d", liveGeneration, g)
	}
}

// collectLeaves appends the paths to every leaf (string, bool or number)
// under t, depth first in field order, up to maxLeaves; seen guards
// against recursive types.
func collectLeaves(t reflect.Type, prefix []step, seen map[reflect.Type]bool, out *[][]step) {
	if len(*out) >= maxLeaves || len(prefix) > maxDepth {
		return
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		*out = append(*out, append([]step(nil), prefix...))
	case reflect.Pointer:
		collectLeaves(t.Elem(), append(prefix, step{kind: reflect.Pointer}), seen, out)
	case reflect.Slice:
		collectLeaves(t.Elem(), append(prefix, step{kind: reflect.Slice}), seen, out)
	case reflect.Map:
		if t.Key().Kind() == reflect.String {
			collectLeaves(t.Elem(), append(prefix, step{kind: reflect.Map}), seen, out)
		}
	case reflect.Struct:
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				collectLeaves(f.Type, append(prefix, step{kind: reflect.Struct, field: i}), seen, out)
			}
		}
	}
}

// setLeaf makes the leaf at steps under v hold a value that differs with
// n (0 for fill, 1 for the live object, 2 for the new one), allocating
// what is on the way.
func setLeaf(v reflect.Value, steps []step, n int) error {
	if len(steps) == 0 {
		switch v.Kind() {
		case reflect.String:
			v.SetString(fmt.Sprint(n))
		case reflect.Bool:
			v.SetBool(n != 2)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(int64(n))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(uint64(n))
		case reflect.Float32, reflect.Float64:
			v.SetFloat(float64(n))
		default:
			return fmt.Errorf("not a leaf: %s", v.Type())
		}
		return nil
	}
	s := steps[0]
	switch s.kind {
	case reflect.Struct:
		return setLeaf(v.Field(s.field), steps[1:], n)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return setLeaf(v.Elem(), steps[1:], n)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		return setLeaf(v.Index(0), steps[1:], n)
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		key := reflect.New(v.Type().Key()).Elem()
		key.SetString("0")
		elem := reflect.New(v.Type().Elem()).Elem()
		if old := v.MapIndex(key); old.IsValid() {
			elem.Set(old)
		}
		if err := setLeaf(elem, steps[1:], n); err != nil {
			return err
		}
		v.SetMapIndex(key, elem)
		return nil
	}
	return fmt.Errorf("unknown step %v", s.kind)
}

// requestContext is the context of a request with verb to a kind's main
// resource, by an authenticated user, in namespace "default" (which
// cluster-scoped strategies ignore).
func requestContext(k strategies.Kind, verb string) context.Context {
	ctx := genericapirequest.WithNamespace(context.Background(), "default")
	ctx = genericapirequest.WithUser(ctx, &user.DefaultInfo{Name: "registrygen"})
	return genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: verb, APIGroup: k.Group, Namespace: "default", Name: "probe",
	})
}

// filledObject returns a new object of the kind's internal Go type whose
// fields but the metadata are filled (see fill): the strategies are
// written for objects that passed validation, and an empty one may have
// nil where they expect something; and a field the live object uses is
// one they do not drop.
func filledObject(k strategies.Kind) runtime.Object {
	v := reflect.New(reflect.TypeOf(k.Object).Elem())
	t := v.Elem().Type()
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && !f.Anonymous {
			fill(v.Elem().Field(i), 0, map[reflect.Type]bool{})
		}
	}
	return v.Interface().(runtime.Object)
}

// fill gives every leaf under v a value (0: "0", 0 or true), every
// pointer a new value, every slice one element and every map of strings
// one entry, to maxDepth; seen guards against recursive types.
func fill(v reflect.Value, depth int, seen map[reflect.Type]bool) {
	if depth > maxDepth {
		return
	}
	switch v.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		_ = setLeaf(v, nil, 0)
	case reflect.Pointer:
		if seen[v.Type().Elem()] {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1, seen)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), depth+1, seen)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		key := reflect.New(v.Type().Key()).Elem()
		key.SetString("0")
		elem := reflect.New(v.Type().Elem()).Elem()
		fill(elem, depth+1, seen)
		v.SetMapIndex(key, elem)
	case reflect.Struct:
		if seen[v.Type()] {
			return
		}
		seen[v.Type()] = true
		defer delete(seen, v.Type())
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1, seen)
			}
		}
	}
}

func accessor(obj runtime.Object) metaAccessor {
	m, err := meta.Accessor(obj)
	if err != nil {
		panic(err) // every kind listed has ObjectMeta
	}
	return m
}

// metaAccessor is the part of meta.Object used here.
type metaAccessor interface {
	GetGeneration() int64
	SetGeneration(int64)
	SetName(string)
	SetNamespace(string)
	SetResourceVersion(string)
}

// safely calls f and turns a panic into an error.
func safely(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	f()
	return nil
}

func lowerCamel(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

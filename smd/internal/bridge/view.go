package bridge

import (
	"fmt"

	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// View returns v as an SMD value that reads structmerge's value where it
// is, converting nothing until asked: a caller that reads one field of a
// large object pays for that field. Unstructured returns new Go data on
// each call.
//
// Set and Delete on one of its maps turn that map (the Map they are called
// on) into Go data of its own, which later calls on it read and change;
// the value it came from, and other Maps of the same node, do not see the
// change (structmerge's value is immutable).
func View(v corevalue.Value) value.Value { return coreView{v} }

// coreView is a Value over a structmerge value.
type coreView struct{ v corevalue.Value }

func (c coreView) IsMap() bool    { return c.v.Kind() == corevalue.Map }
func (c coreView) IsList() bool   { return c.v.Kind() == corevalue.List }
func (c coreView) IsBool() bool   { return c.v.Kind() == corevalue.Bool }
func (c coreView) IsInt() bool    { return c.v.Kind() == corevalue.Int }
func (c coreView) IsFloat() bool  { return c.v.Kind() == corevalue.Float }
func (c coreView) IsString() bool { return c.v.Kind() == corevalue.String }
func (c coreView) IsNull() bool   { return c.v.Kind() == corevalue.Null }

func (c coreView) AsMap() value.Map { return c.AsMapUsing(value.HeapAllocator) }

func (c coreView) AsMapUsing(value.Allocator) value.Map {
	switch c.v.Kind() {
	case corevalue.Map:
		return &viewMap{v: c.v}
	case corevalue.Null:
		panic("value: AsMap of null")
	}
	panic(fmt.Errorf("value: AsMap of a %s, not a map", c.v.Kind()))
}

func (c coreView) AsList() value.List { return c.AsListUsing(value.HeapAllocator) }

func (c coreView) AsListUsing(value.Allocator) value.List {
	if c.v.Kind() != corevalue.List {
		panic(fmt.Errorf("value: AsList of a %s, not a list", c.v.Kind()))
	}
	return viewList{c.v}
}

func (c coreView) AsBool() bool              { return c.v.AsBool() }
func (c coreView) AsInt() int64              { return c.v.AsInt() }
func (c coreView) AsFloat() float64          { return c.v.AsFloat() }
func (c coreView) AsString() string          { return c.v.AsString() }
func (c coreView) Unstructured() interface{} { return c.v.Unstructured() }

// viewMap is a Map over a structmerge map; own holds its entries as Go
// data once Set or Delete has been called on it.
type viewMap struct {
	v   corevalue.Value
	own map[string]interface{}
}

// mine turns the map into Go data of its own, once.
func (m *viewMap) mine() {
	if m.own == nil {
		m.own = m.v.Unstructured().(map[string]interface{})
	}
}

func (m *viewMap) goMap() value.Map { return value.NewValueInterface(m.own).AsMap() }

func (m *viewMap) Set(key string, val value.Value) {
	m.mine()
	m.own[key] = val.Unstructured()
}

func (m *viewMap) Delete(key string) {
	m.mine()
	delete(m.own, key)
}

func (m *viewMap) Get(key string) (value.Value, bool) {
	if m.own != nil {
		return m.goMap().Get(key)
	}
	c, ok := m.v.Get(key)
	if !ok {
		return nil, false
	}
	return coreView{c}, true
}

func (m *viewMap) GetUsing(_ value.Allocator, key string) (value.Value, bool) { return m.Get(key) }

func (m *viewMap) Has(key string) bool {
	_, ok := m.Get(key)
	return ok
}

func (m *viewMap) Equals(other value.Map) bool { return value.MapEquals(m, other) }

func (m *viewMap) EqualsUsing(a value.Allocator, other value.Map) bool {
	return value.MapEqualsUsing(a, m, other)
}

// Iterate visits the entries in order of their keys.
func (m *viewMap) Iterate(fn func(string, value.Value) bool) bool {
	if m.own != nil {
		return m.goMap().Iterate(fn)
	}
	for _, f := range m.v.Fields() {
		if !fn(f.Name, coreView{f.Value}) {
			return false
		}
	}
	return true
}

func (m *viewMap) IterateUsing(_ value.Allocator, fn func(string, value.Value) bool) bool {
	return m.Iterate(fn)
}

func (m *viewMap) Length() int {
	if m.own != nil {
		return len(m.own)
	}
	return m.v.Len()
}

func (m *viewMap) Empty() bool { return m.Length() == 0 }

func (m *viewMap) Zip(other value.Map, order value.MapTraverseOrder, fn func(string, value.Value, value.Value) bool) bool {
	return value.MapZip(m, other, order, fn)
}

func (m *viewMap) ZipUsing(a value.Allocator, other value.Map, order value.MapTraverseOrder, fn func(string, value.Value, value.Value) bool) bool {
	return value.MapZipUsing(a, m, other, order, fn)
}

// viewList is a List over a structmerge list.
type viewList struct{ v corevalue.Value }

func (l viewList) Length() int                                  { return l.v.Len() }
func (l viewList) At(i int) value.Value                         { return coreView{l.v.Index(i)} }
func (l viewList) AtUsing(_ value.Allocator, i int) value.Value { return l.At(i) }
func (l viewList) Equals(o value.List) bool                     { return value.ListEquals(l, o) }
func (l viewList) EqualsUsing(a value.Allocator, o value.List) bool {
	return value.ListEqualsUsing(a, l, o)
}
func (l viewList) RangeUsing(value.Allocator) value.ListRange { return l.Range() }

func (l viewList) Range() value.ListRange {
	if l.v.Len() == 0 {
		return value.EmptyRange
	}
	return &viewRange{list: l.v, i: -1}
}

type viewRange struct {
	list corevalue.Value
	i    int
}

func (r *viewRange) Next() bool {
	r.i++
	return r.i < r.list.Len()
}

func (r *viewRange) Item() (int, value.Value) {
	if r.i < 0 || r.i >= r.list.Len() {
		panic("value: Item called without a successful Next")
	}
	return r.i, coreView{r.list.Index(r.i)}
}

package gen

import (
	"encoding/json"
	"maps"
	"slices"
)

// ShrinkValue returns the variants of the unstructured value v with one map
// entry or list item removed, at any depth, shallowest first. v is not
// modified; the variants share its unchanged parts.
func ShrinkValue(v any) []any {
	var out []any
	switch x := v.(type) {
	case map[string]any:
		keys := SortedKeys(x)
		for _, k := range keys {
			c := maps.Clone(x)
			delete(c, k)
			out = append(out, c)
		}
		for _, k := range keys {
			for _, sub := range ShrinkValue(x[k]) {
				c := maps.Clone(x)
				c[k] = sub
				out = append(out, c)
			}
		}
	case []any:
		for i := range x {
			out = append(out, slices.Delete(slices.Clone(x), i, i+1))
		}
		for i := range x {
			for _, sub := range ShrinkValue(x[i]) {
				c := slices.Clone(x)
				c[i] = sub
				out = append(out, c)
			}
		}
	}
	return out
}

// Minimize shrinks a failing scenario greedily: for as long as fails holds
// of a smaller variant and budget (the number of variants tried) lasts, it
// drops a step (never the last one left), a manager of the starting state,
// a part of a manager's field set, a part of a step's object or a part of
// the starting object. It returns the smallest variant found that still
// fails (sc itself when none does). fails must not modify its argument;
// sc is not modified.
func Minimize(sc *Scenario, fails func(*Scenario) bool, budget int) *Scenario {
	cur := sc
	for improved := true; improved && budget > 0; {
		improved = false
		for _, cand := range variants(cur) {
			if budget--; budget < 0 {
				break
			}
			if fails(cand) {
				cur, improved = cand, true
				break
			}
		}
	}
	return cur
}

// variants returns sc with one thing removed, in the order Minimize tries
// them: whole steps and managers first, then parts of values.
func variants(sc *Scenario) []*Scenario {
	var out []*Scenario
	with := func(f func(c *Scenario)) {
		c := *sc
		c.Steps = slices.Clone(sc.Steps)
		c.Live.Managers = maps.Clone(sc.Live.Managers)
		f(&c)
		out = append(out, &c)
	}
	if len(sc.Steps) > 1 {
		for i := range sc.Steps {
			with(func(c *Scenario) {
				if i == 0 && c.Steps[0].Schema == nil && len(c.Steps) > 1 && c.Steps[1].Schema != nil {
					// The scenario's schema is the one the first step runs with.
					c.Schema = c.Steps[1].Schema
					c.Steps[1].Schema = nil
				}
				c.Steps = slices.Delete(c.Steps, i, i+1)
			})
		}
	}
	names := SortedKeys(sc.Live.Managers)
	for _, name := range names {
		with(func(c *Scenario) { delete(c.Live.Managers, name) })
	}
	for _, name := range names {
		var tree any
		if json.Unmarshal(sc.Live.Managers[name].FieldsV1, &tree) != nil {
			continue
		}
		for _, sub := range ShrinkValue(tree) {
			text, err := json.Marshal(sub)
			if err != nil {
				continue
			}
			with(func(c *Scenario) {
				m := c.Live.Managers[name]
				m.FieldsV1 = text
				c.Live.Managers[name] = m
			})
		}
	}
	for i, st := range sc.Steps {
		for _, sub := range ShrinkValue(st.Op.Object) {
			with(func(c *Scenario) { c.Steps[i].Op.Object = sub })
		}
	}
	if sc.Live.HasObject {
		for _, sub := range ShrinkValue(sc.Live.Object) {
			with(func(c *Scenario) { c.Live.Object = sub })
		}
	}
	return out
}

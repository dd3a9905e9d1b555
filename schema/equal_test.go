package schema

import (
	"testing"
)

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  string // each defines type "t"
		equal bool
	}{
		{"same scalar", "- {name: t, scalar: string}", "- {name: t, scalar: string}", true},
		{"different scalar", "- {name: t, scalar: string}", "- {name: t, scalar: numeric}", false},
		{"empty vs empty", "- {name: t}", "- {name: t}", true},
		{"scalar vs empty", "- {name: t, scalar: string}", "- {name: t}", false},
		{"list relationship", "- {name: t, list: {elementType: {scalar: string}, elementRelationship: associative}}",
			"- {name: t, list: {elementType: {scalar: string}}}", false},
		{"unset list relationship is atomic", "- {name: t, list: {elementType: {scalar: string}, elementRelationship: atomic}}",
			"- {name: t, list: {elementType: {scalar: string}}}", true},
		{"list keys", "- {name: t, list: {elementType: {map: {fields: [{name: a}, {name: b}]}}, elementRelationship: associative, keys: [a]}}",
			"- {name: t, list: {elementType: {map: {fields: [{name: a}, {name: b}]}}, elementRelationship: associative, keys: [b]}}", false},
		{"key default", "- {name: t, list: {elementType: {map: {fields: [{name: a, default: 1}]}}, elementRelationship: associative, keys: [a]}}",
			"- {name: t, list: {elementType: {map: {fields: [{name: a, default: 2}]}}, elementRelationship: associative, keys: [a]}}", false},
		{"default 1 and 1.0", "- {name: t, map: {fields: [{name: a, default: 1}]}}", "- {name: t, map: {fields: [{name: a, default: 1.0}]}}", true},
		{"default vs none", "- {name: t, map: {fields: [{name: a, default: x}]}}", "- {name: t, map: {fields: [{name: a}]}}", false},
		{"field order", "- {name: t, map: {fields: [{name: a}, {name: b}]}}", "- {name: t, map: {fields: [{name: b}, {name: a}]}}", false},
		{"field type", "- {name: t, map: {fields: [{name: a, type: {scalar: string}}]}}", "- {name: t, map: {fields: [{name: a, type: {scalar: boolean}}]}}", false},
		{"map relationship", "- {name: t, map: {elementRelationship: atomic}}", "- {name: t, map: {elementRelationship: granular}}", false},
		{"separable and granular", "- {name: t, map: {elementRelationship: separable}}", "- {name: t, map: {elementRelationship: granular}}", true},
		{"element type vs none", "- {name: t, map: {elementType: {scalar: string}}}", "- {name: t, map: {}}", false},
		{"unions", "- {name: t, map: {unions: [{discriminator: d}]}}", "- {name: t, map: {unions: [{}]}}", false},
		{"named vs inline", "- {name: t, map: {fields: [{name: a, type: {namedType: s}}]}}\n- {name: s, scalar: string}",
			"- {name: t, map: {fields: [{name: a, type: {scalar: string}}]}}", true},
		{"recursion unrolled", "- {name: t, map: {fields: [{name: n, type: {namedType: t}}]}}",
			"- {name: t, map: {fields: [{name: n, type: {namedType: u}}]}}\n- {name: u, map: {fields: [{name: n, type: {namedType: t}}]}}", true},
		{"recursion differs deep down", "- {name: t, map: {fields: [{name: n, type: {namedType: t}}]}}",
			"- {name: t, map: {fields: [{name: n, type: {namedType: u}}]}}\n- {name: u, map: {fields: [{name: n, type: {namedType: v}}]}}\n- {name: v, map: {fields: [{name: m, type: {namedType: t}}]}}", false},
		{"unresolvable vs empty", "- {name: t, map: {fields: [{name: a, type: {scalar: string, elementRelationship: atomic}}]}}",
			"- {name: t, map: {fields: [{name: a}]}}", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := mustType(t, mustCompile(t, "types:\n"+tc.a), "t")
			b := mustType(t, mustCompile(t, "types:\n"+tc.b), "t")
			if got := Equal(a, b); got != tc.equal {
				t.Errorf("Equal(a, b) = %v, want %v", got, tc.equal)
			}
			if got := Equal(b, a); got != tc.equal {
				t.Errorf("Equal(b, a) = %v, want %v", got, tc.equal)
			}
			if !Equal(a, a) || !Equal(b, b) {
				t.Error("not reflexive")
			}
		})
	}
	if !Equal(nil, nil) || Equal(Deduced(), nil) || Equal(nil, Deduced()) {
		t.Error("nil handling")
	}
}

func mustCompile(t testing.TB, in string) *Schema {
	t.Helper()
	s, err := CompileYAML([]byte(in))
	if err != nil {
		t.Fatalf("%v\n%s", err, in)
	}
	return s
}

// TestEqualAcrossCompilations compiles each corpus schema twice: every type
// equals its twin, while types built apart share no nodes.
func TestEqualAcrossCompilations(t *testing.T) {
	valid, _ := corpus(t)
	for _, name := range valid {
		s1, s2 := compileFile(t, name), compileFile(t, name)
		if !EqualSchemas(s1, s2) {
			t.Errorf("%s: differs between compilations", name)
		}
		for i, n := range s1.TypeNames() {
			a, b := mustType(t, s1, n), mustType(t, s2, n)
			if a == b {
				t.Fatalf("%s: %q shared between compilations", name, n)
			}
			if i%16 == 0 && !Equal(a, b) { // a sample: each call walks much of the graph
				t.Errorf("%s: %q differs between compilations", name, n)
			}
		}
	}
	// The overrides on scalar types make some types of the 100% override
	// schema differ from the plain one.
	plain, over := compileFile(t, "smd/k8s-schema.yaml"), compileFile(t, "smd/k8s-schema-100pct-fieldoverride.yaml")
	same, differ := 0, 0
	for _, n := range plain.TypeNames() {
		if Equal(mustType(t, plain, n), mustType(t, over, n)) {
			same++
		} else {
			differ++
		}
	}
	if same == 0 || differ == 0 {
		t.Errorf("plain vs 100%% overrides: %d equal, %d different types", same, differ)
	}
	if EqualSchemas(plain, over) || !EqualSchemas(plain, plain) || EqualSchemas(plain, nil) || !EqualSchemas(nil, nil) {
		t.Error("EqualSchemas")
	}
	if EqualSchemas(plain, compileFile(t, "k8s.yaml")) {
		t.Error("schemas with different type names are equal")
	}
}

package schema

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structmerge/structmerge/value"
)

// cmpValues lets go-cmp compare value.Value (unexported fields) by value.Equal.
var cmpValues = cmp.Comparer(value.Equal)

// parseErrorCases are inputs Parse rejects, with the exact message and kind.
// They also seed FuzzCompileYAML.
var parseErrorCases = []struct {
	name, in, want string
	kind           error
}{
	{"not yaml", "types: [\n", `schema: yaml: did not find expected node content (line 1)`, ErrSyntax},
	{"types not a sequence", "types: 5", `schema: types: expected a sequence, got a number (line 1 column 8)`, ErrSyntax},
	{"root is a sequence", "[1,2]", `schema: schema: expected a mapping, got a sequence (line 1 column 1)`, ErrSyntax},
	{"unknown top-level key", "foo: bar", `schema: unknown key "foo" in schema (known keys: types) (line 1 column 1)`, ErrUnknownKey},
	{"scalar not a string", "types:\n- name: a\n  scalar: 5\n",
		`schema: type "a": scalar: expected a string, got a number (line 3 column 11)`, ErrSyntax},
	{"empty scalar", "types:\n- name: a\n  scalar: ''\n",
		`schema: type "a": scalar: empty scalar type (line 3 column 11)`, ErrScalar},
	{"unknown key in type definition", "types:\n- name: a\n  bogus: 1\n",
		`schema: type "a": unknown key "bogus" in type definition (known keys: name, scalar, list, map, untyped) (line 3 column 3)`, ErrUnknownKey},
	{"namedType not allowed on a definition", "types:\n- name: a\n  namedType: b\n",
		`schema: type "a": unknown key "namedType" in type definition (known keys: name, scalar, list, map, untyped) (line 3 column 3)`, ErrUnknownKey},
	{"elementRelationship not allowed on a definition", "types:\n- name: a\n  map: {}\n  elementRelationship: atomic\n",
		`schema: type "a": unknown key "elementRelationship" in type definition (known keys: name, scalar, list, map, untyped) (line 4 column 3)`, ErrUnknownKey},
	{"type without a name", "types:\n- scalar: string\n", `schema: type definition has no name (line 2 column 3)`, ErrMissing},
	{"type with an empty name", "types:\n- name: ''\n  scalar: string\n", `schema: type definition has an empty name (line 2 column 3)`, ErrMissing},
	{"null type", "types:\n- null\n", `schema: type definition: expected a mapping, got null (line 2 column 3)`, ErrSyntax},
	{"name not a string", "types:\n- name: 12\n", `schema: 2 problems:
  type definition has an empty name (line 2 column 3)
  name: expected a string, got a number (line 2 column 9)`, ErrSyntax},
	{"two problems in a list", "types:\n- name: a\n  list: {elementType: {namedType: b, foo: 1}, keyz: [a]}\n",
		`schema: 2 problems:
  type "a": unknown key "foo" in type reference (known keys: namedType, scalar, list, map, untyped, elementRelationship, nullable) (line 3 column 38)
  type "a": unknown key "keyz" in list (known keys: elementType, elementRelationship, keys) (line 3 column 47)`, ErrUnknownKey},
	{"key not a string", "types:\n- name: a\n  list: {keys: [1]}\n",
		`schema: type "a": keys: expected a string, got a number (line 3 column 17)`, ErrSyntax},
	{"field without a name", "types:\n- name: a\n  map: {fields: [{type: {scalar: string}}]}\n",
		`schema: type "a": field has no name (line 3 column 18)`, ErrMissing},
	{"null field", "types:\n- name: a\n  map: {fields: [null]}\n",
		`schema: type "a": field: expected a mapping, got null (line 3 column 18)`, ErrSyntax},
	{"unknown key in field", "types:\n- name: a\n  map: {fields: [{name: x, typo: 1}]}\n",
		`schema: type "a": unknown key "typo" in field (known keys: name, type, default) (line 3 column 28)`, ErrUnknownKey},
	{"unknown key in map", "types:\n- name: a\n  map: {keys: [x]}\n",
		`schema: type "a": unknown key "keys" in map (known keys: fields, unions, elementType, elementRelationship) (line 3 column 9)`, ErrUnknownKey},
	{"union field without fieldName", "types:\n- name: a\n  map: {unions: [{fields: [{discriminatorValue: x}]}]}\n",
		`schema: type "a": union field has no fieldName (line 3 column 28)`, ErrMissing},
	{"unknown key in union", "types:\n- name: a\n  map: {unions: [{discriminator: d, oneOf: []}]}\n",
		`schema: type "a": unknown key "oneOf" in union (known keys: discriminator, deduceInvalidDiscriminator, fields) (line 3 column 37)`, ErrUnknownKey},
	{"quoted boolean", "types:\n- name: a\n  map: {unions: [{deduceInvalidDiscriminator: \"true\"}]}\n",
		`schema: type "a": deduceInvalidDiscriminator: expected a boolean, got a string (line 3 column 47)`, ErrSyntax},
	{"nullable not a boolean", "types:\n- name: a\n  map: {fields: [{name: x, type: {nullable: maybe}}]}\n",
		`schema: type "a": nullable: expected a boolean, got a string (line 3 column 45)`, ErrSyntax},
	{"empty namedType", "types:\n- name: a\n  map: {elementType: {namedType: ''}}\n",
		`schema: type "a": namedType: empty type name (line 3 column 34)`, ErrMissing},
	{"unknown key in untyped", "types:\n- name: a\n  untyped: {foo: 1}\n",
		`schema: type "a": unknown key "foo" in untyped (known keys: elementRelationship) (line 3 column 13)`, ErrUnknownKey},
	{"infinite default", "types:\n- name: a\n  map: {fields: [{name: x, default: .inf}]}\n",
		`schema: type "a": default: ".inf" is not a JSON number (line 3 column 37)`, ErrSyntax},
	{"non-string key in a default", "types:\n- name: a\n  map: {fields: [{name: x, default: {[1]: 2}}]}\n",
		`schema: type "a": default: a key must be a string, got a sequence (line 3 column 38)`, ErrSyntax},
	{"merge key", "types:\n- name: a\n  scalar: string\n  <<: {list: {}}\n",
		`schema: type "a": type definition: merge keys (<<) are not supported (line 4 column 3)`, ErrSyntax},
	{"alias cycle", "types:\n- name: a\n  map: &m {elementType: {map: *m}}\n",
		`schema: type "a": input expands to too many nodes (YAML aliases?) (line 3 column 25)`, ErrTooLarge},
	{"alias bomb", aliasBomb(9), `schema: type "a": input expands to too many nodes (YAML aliases?) (line 7 column 21)`, ErrTooLarge},
	{"two documents", "types: []\n---\ntypes: [{name: a, scalar: string}]\n",
		`schema: the file holds more than one YAML document (line 2)`, ErrSyntax},
}

// aliasBomb builds a schema whose default value doubles in size with each of
// n levels of aliases, each level listing the previous one 10 times.
func aliasBomb(n int) string {
	var b strings.Builder
	b.WriteString("types:\n- name: a\n  map:\n    fields:\n    - name: x\n      default:\n")
	b.WriteString("        l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= n; i++ {
		prev := "*l" + itoa(i-1)
		b.WriteString("        l" + itoa(i) + ": &l" + itoa(i) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	return b.String()
}

func itoa(i int) string { return string(rune('0' + i)) }

func TestParseErrors(t *testing.T) {
	for _, tc := range parseErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.in))
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", doc)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("error:\n got %s\nwant %s", got, tc.want)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error does not wrap %v", tc.kind)
			}
			var perr *Error
			if !errors.As(err, &perr) || len(perr.Problems) == 0 {
				t.Errorf("error is not a *schema.Error with problems: %T", err)
			}
			if _, err := CompileYAML([]byte(tc.in)); err == nil || err.Error() != tc.want {
				t.Errorf("CompileYAML error = %v, want the Parse error", err)
			}
		})
	}
}

func TestAliasBombFixture(t *testing.T) {
	// The bomb expands to 10^10 nodes; with fewer levels it is a valid
	// schema, which shows the error above comes from the expansion only.
	doc, err := Parse([]byte(aliasBomb(2)))
	if err != nil {
		t.Fatal(err)
	}
	d := doc.Types[0].Map.Fields[0].Default
	l2, _ := d.Get("l2")
	if l2.Len() != 10 || l2.Index(0).Len() != 10 {
		t.Fatalf("unexpected default %s", value.Text(d))
	}
}

func TestParseDocument(t *testing.T) {
	in := `# comment
types:
- name: widget
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: ports
      type:
        list:
          elementType:
            namedType: port
          elementRelationship: associative
          keys: [port, protocol]
    - name: meta
      type:
        namedType: meta
        elementRelationship: atomic
        nullable: yes
      default: {}
    - name: any
      default: [1, 2.5, "s", true, null, {b: 1, a: 2}]
    - name: dup
      type: {scalar: string}
      type: {scalar: numeric}
    unions:
    - discriminator: kind
      deduceInvalidDiscriminator: true
      fields:
      - fieldName: name
        discriminatorValue: Name
    - fields: []
    elementType:
      scalar: untyped
    elementRelationship: separable
- name: port
  map:
    fields:
    - name: port
      type: {scalar: numeric}
    - name: protocol
      type: {scalar: string}
      default: TCP
    - name: off
      default: null
- name: meta
  untyped:
    elementRelationship: atomic
  scalar: untyped
  list:
  map:
    elementType: {namedType: meta}
`
	doc, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &Document{Types: []NamedType{
		{Name: "widget", Line: 3, Atom: Atom{Map: &MapDef{
			Line: 5,
			Fields: []FieldDef{
				{Name: "name", Line: 6, Type: TypeRef{Line: 8, Atom: Atom{Scalar: "string"}}},
				{Name: "ports", Line: 9, Type: TypeRef{Line: 11, Atom: Atom{List: &ListDef{
					Line:                12,
					ElementType:         TypeRef{NamedType: "port", Line: 13},
					ElementRelationship: "associative",
					Keys:                []string{"port", "protocol"},
				}}}},
				{Name: "meta", Line: 16, Default: value.NewMap(nil),
					Type: TypeRef{NamedType: "meta", ElementRelationship: "atomic", Nullable: true, Line: 18}},
				{Name: "any", Line: 22, Default: value.NewList([]value.Value{
					value.NewInt(1), value.NewFloat(2.5), value.NewString("s"), value.NewBool(true), value.NewNull(),
					value.NewMap([]value.Field{{Name: "a", Value: value.NewInt(2)}, {Name: "b", Value: value.NewInt(1)}}),
				})},
				// A repeated key counts for its last value, as in SMD.
				{Name: "dup", Line: 24, Type: TypeRef{Line: 26, Atom: Atom{Scalar: "numeric"}}},
			},
			Unions: []UnionDef{
				{Line: 28, Discriminator: "kind", HasDiscriminator: true, DeduceInvalidDiscriminator: true,
					Fields: []UnionFieldDef{{FieldName: "name", DiscriminatorValue: "Name", Line: 31}}},
				{Line: 33},
			},
			ElementType:         TypeRef{Line: 35, Atom: Atom{Scalar: "untyped"}},
			ElementRelationship: "separable",
		}}},
		{Name: "port", Line: 37, Atom: Atom{Map: &MapDef{Line: 39, Fields: []FieldDef{
			{Name: "port", Line: 40, Type: TypeRef{Line: 41, Atom: Atom{Scalar: "numeric"}}},
			{Name: "protocol", Line: 42, Type: TypeRef{Line: 43, Atom: Atom{Scalar: "string"}}, Default: value.NewString("TCP")},
			{Name: "off", Line: 45},
		}}}},
		{Name: "meta", Line: 47, Atom: Atom{Scalar: "untyped", Map: &MapDef{
			Line: 53, ElementType: TypeRef{NamedType: "meta", Line: 53},
		}}},
	}}
	if diff := cmp.Diff(want, doc, cmpValues); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "# nothing\n", "types:\n", "types: []\n", "null\n", "---\ntypes: []\n"} {
		doc, err := Parse([]byte(in))
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if len(doc.Types) != 0 {
			t.Errorf("Parse(%q) = %d types, want 0", in, len(doc.Types))
		}
		s, err := Compile(doc)
		if err != nil || len(s.TypeNames()) != 0 {
			t.Errorf("Compile(%q) = %v, %v", in, s, err)
		}
	}
}

func TestParseProblemsSortedByLine(t *testing.T) {
	in := "types:\n- name: a\n  z: 1\n- name: b\n  y: 2\n- bad: 3\n"
	_, err := Parse([]byte(in))
	var perr *Error
	if !errors.As(err, &perr) {
		t.Fatalf("got %v", err)
	}
	var lines []int
	for _, p := range perr.Problems {
		lines = append(lines, p.Line)
	}
	if want := []int{3, 5, 6, 6}; !cmp.Equal(lines, want) {
		t.Errorf("problem lines %v, want %v (%v)", lines, want, err)
	}
}

package conformance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/structmerge/structmerge/conformance/seedrace"
	"github.com/structmerge/structmerge/value"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// TestSeedRaceStructmerge runs the workload on which SMD v6.3.0 races (a
// struct used plainly and through an elementRelationship override) from
// many goroutines on shared, freshly compiled schemas: validation, field
// sets and merges. Run under -race it must report nothing, and every
// goroutine must get the reference results.
func TestSeedRaceStructmerge(t *testing.T) {
	rounds := 100
	if testing.Short() {
		rounds = 10
	}
	if err := seedrace.Run(rounds, 16); err != nil {
		t.Fatal(err)
	}
}

// TestSeedRaceReference checks the reference results TestSeedRaceStructmerge
// holds the goroutines to: the override makes "frozen" one atomic leaf while
// "plain" stays granular, and validity, field sets and merges agree with SMD
// v6.4.2 (which no longer races).
func TestSeedRaceReference(t *testing.T) {
	live, inputs, err := seedrace.Decode()
	if err != nil {
		t.Fatal(err)
	}
	root, err := seedrace.Compile()
	if err != nil {
		t.Fatal(err)
	}
	parser, err := typed.NewParser(typed.YAMLObject(seedrace.SchemaYAML))
	if err != nil {
		t.Fatal(err)
	}
	smdRoot := parser.Type(seedrace.RootType)
	smdLive, err := smdRoot.FromYAML(typed.YAMLObject(seedrace.LiveYAML))
	if err != nil {
		t.Fatal(err)
	}

	// What the override must do, independent of SMD.
	want := map[string]seedrace.Result{
		"frozen-partial": {
			Fields: `{"f:frozen":{}}`,
			Merged: `{"frozen":{"host":"d.example"},"plain":{"host":"live.example","port":1}}`,
		},
		"plain-partial": {
			Fields: `{"f:plain":{"f:host":{}}}`,
			Merged: `{"frozen":{"host":"live.example","port":2},"plain":{"host":"c.example","port":1}}`,
		},
		"frozen-bad-port":   {Err: ".frozen.port: expected numeric (int or float), got string"},
		"frozen-undeclared": {Err: ".frozen.zone: field not declared in schema"},
	}

	for _, in := range inputs {
		t.Run(in.Case.Name, func(t *testing.T) {
			got := seedrace.Outcome(root, live, in.Value)
			if w, ok := want[in.Case.Name]; ok && got != w {
				t.Errorf("got %+v\nwant %+v", got, w)
			}

			tv, smdErr := smdRoot.FromYAML(typed.YAMLObject(in.Case.YAML))
			if (got.Err == "") != (smdErr == nil) {
				t.Fatalf("structmerge error %q, SMD error %v", got.Err, smdErr)
			}
			if smdErr != nil {
				return
			}
			set, err := tv.ToFieldSet()
			if err != nil {
				t.Fatal(err)
			}
			smdFields, err := set.ToJSON()
			if err != nil {
				t.Fatal(err)
			}
			if got.Fields != string(smdFields) {
				t.Errorf("field set %s, SMD %s", got.Fields, smdFields)
			}
			merged, err := smdLive.Merge(tv)
			if err != nil {
				t.Fatal(err)
			}
			smdMerged, err := value.FromUnstructured(merged.AsValue().Unstructured())
			if err != nil {
				t.Fatal(err)
			}
			ours, err := value.FromJSON([]byte(got.Merged))
			if err != nil {
				t.Fatal(err)
			}
			if !value.Equal(ours, smdMerged) {
				t.Errorf("merged %s, SMD %s", got.Merged, value.ToJSON(smdMerged))
			}
		})
	}
}

// TestSeedRaceSameWorkload checks that the SMD program (a module of its own,
// so it cannot import package seedrace) races on the same schema and the same
// first two objects as the structmerge workload.
func TestSeedRaceSameWorkload(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "seedrace/smd/main.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var schemaText string
	var objects []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
				continue
			}
			switch vs.Names[0].Name {
			case "schemaYAML":
				schemaText = seedRaceString(t, vs.Values[0])
			case "objects":
				lit, ok := vs.Values[0].(*ast.CompositeLit)
				if !ok {
					t.Fatalf("objects is not a composite literal")
				}
				for _, e := range lit.Elts {
					objects = append(objects, seedRaceString(t, e))
				}
			}
		}
	}
	if schemaText != seedrace.SchemaYAML {
		t.Errorf("smd/main.go schemaYAML:\n%s\nseedrace.SchemaYAML:\n%s", schemaText, seedrace.SchemaYAML)
	}
	if len(objects) != 2 || objects[0] != seedrace.Cases[0].YAML || objects[1] != seedrace.Cases[1].YAML {
		t.Errorf("smd/main.go objects %q, want the first two cases %q, %q",
			objects, seedrace.Cases[0].YAML, seedrace.Cases[1].YAML)
	}
}

func seedRaceString(t *testing.T, e ast.Expr) string {
	t.Helper()
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		t.Fatalf("expected a string literal, got %T", e)
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

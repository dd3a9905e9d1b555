package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree writes files (path relative to a new k8s.io/kubernetes root: text)
// and returns the root.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const features = `package features

var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	GateOn: {
		{Version: version.MustParse("1.30"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.36"), Default: true, PreRelease: featuregate.Beta},
	},
	GateLater: {
		{Version: version.MustParse("1.9"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.38"), Default: true, PreRelease: featuregate.Beta},
	},
}
`

const widgetStrategy = `package widget

type widgetStrategy struct{}

func (widgetStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	fields := map[fieldpath.APIVersion]*fieldpath.Set{
		"example.io/v1": fieldpath.NewSet(
			fieldpath.MakePathOrDie("status"),
		),
		"old.example.io/v1beta1": fieldpath.NewSet(),
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.GateOn) {
		fields["old.example.io/v1beta1"].Insert(fieldpath.MakePathOrDie("status", "a"))
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.GateLater) {
		fields["example.io/v1"].Insert(fieldpath.MakePathOrDie("spec"))
	}
	return fields
}

type widgetStatusStrategy struct{ widgetStrategy }

func (*widgetStatusStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return map[fieldpath.APIVersion]*fieldpath.Set{
		"example.io/v1": fieldpath.NewSet(fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("metadata", "labels")),
	}
}
`

const widgetStorage = `package storage

import (
	example "k8s.io/kubernetes/pkg/apis/example"
	"k8s.io/kubernetes/pkg/registry/example/widget"
)

var replicasPathInWidget = managedfields.ResourcePathMappings{
	schema.GroupVersion{Group: "example.io", Version: "v1"}.String(): fieldpath.MakePathOrDie("spec", "count"),
	"example.io/v2": fieldpath.MakePathOrDie("spec", "replicas"),
}

func NewREST() {
	store := &genericregistry.Store{
		NewFunc:             func() runtime.Object { return &example.Widget{} },
		ResetFieldsStrategy: widget.Strategy,
	}
	_ = store
}

type StatusREST struct{ store *genericregistry.Store }

func (r *StatusREST) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return r.store.GetResetFields()
}
`

const register = `package example

// GroupName is the group.
const GroupName = "example.io"
`

func TestReadRegistry(t *testing.T) {
	root := tree(t, map[string]string{
		"pkg/features/kube_features.go":             features,
		"pkg/apis/example/register.go":              register,
		"pkg/registry/example/widget/strategy.go":   widgetStrategy,
		"pkg/registry/example/widget/storage/st.go": widgetStorage,
	})
	gates, err := readFeatureGates(filepath.Join(root, "pkg/features/kube_features.go"))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"GateOn": true, "GateLater": false}; !reflect.DeepEqual(gates, want) {
		t.Errorf("gates at %s: %v, want %v", minor, gates, want)
	}
	reg, err := readRegistry(root, gates)
	if err != nil {
		t.Fatal(err)
	}
	main := map[string][][]string{
		"example.io/v1":          {{"status"}},
		"old.example.io/v1beta1": {{"status", "a"}},
	}
	status := map[string][][]string{"example.io/v1": {{"spec"}, {"metadata", "labels"}}}
	got := map[string]map[string][][]string{}
	for _, r := range reg.resets {
		if r.kind != "Widget" {
			t.Errorf("kind %q", r.kind)
		}
		got[r.group+"|"+r.subresource] = r.fields
	}
	want := map[string]map[string][][]string{
		"example.io|": main, "example.io|status": status,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resets:\n got %v\nwant %v", got, want)
	}
	if len(reg.replicas) != 1 {
		t.Fatalf("replicas: %+v", reg.replicas)
	}
	r := reg.replicas[0]
	if r.group != "example.io" || r.kind != "Widget" || !reflect.DeepEqual(r.paths, map[string][]string{"example.io/v1": {"spec", "count"}, "example.io/v2": {"spec", "replicas"}}) {
		t.Errorf("replicas: %+v", r)
	}
	src, err := source(reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "registry_generated.go", src, 0); err != nil {
		t.Fatalf("not Go: %v\n%s", err, src)
	}
	if !strings.Contains(string(src), `{apiVersion: "old.example.io/v1beta1", paths: [][]string{{"status", "a"}}}`) {
		t.Errorf("generated:\n%s", src)
	}
}

// TestUnknownShapesFail checks that the generator refuses what it cannot
// read instead of skipping it.
func TestUnknownShapesFail(t *testing.T) {
	for name, tc := range map[string]struct {
		strategy, storage, want string
	}{
		"computed": {
			strategy: strings.Replace(widgetStrategy, "return fields", "return compute(fields)", 1),
			storage:  widgetStorage, want: "returns a *ast.CallExpr",
		},
		"path from a variable": {
			strategy: strings.Replace(widgetStrategy, `fieldpath.MakePathOrDie("status"),`, `fieldpath.MakePathOrDie(statusField),`, 1),
			storage:  widgetStorage, want: "not a string literal",
		},
		"unknown gate": {
			strategy: strings.Replace(widgetStrategy, "features.GateOn", "features.Nope", 1),
			storage:  widgetStorage, want: "unknown feature gate Nope",
		},
		"other condition": {
			strategy: strings.Replace(widgetStrategy, "utilfeature.DefaultFeatureGate.Enabled(features.GateOn)", "enabled", 1),
			storage:  widgetStorage, want: "not a feature gate check",
		},
		"no status storage": {
			strategy: widgetStrategy,
			storage:  strings.Replace(widgetStorage, "func (r *StatusREST) GetResetFields", "func (r *StatusREST) Other", 1),
			want:     "has no StatusREST",
		},
		"unknown endpoint": {
			strategy: strings.ReplaceAll(widgetStrategy, "widgetStatusStrategy", "widgetMysteryStrategy"),
			storage:  widgetStorage, want: "both serve subresource",
		},
		"no NewFunc": {
			strategy: widgetStrategy,
			storage:  strings.Replace(widgetStorage, "NewFunc:", "OtherFunc:", 1),
			want:     "no NewFunc",
		},
		"kind of a package not imported": {
			strategy: widgetStrategy,
			storage:  strings.Replace(widgetStorage, "&example.Widget{}", "&other.Widget{}", 1),
			want:     "package other is not imported",
		},
		"no version of the kind's group": {
			strategy: strings.ReplaceAll(widgetStrategy, `"example.io/v1"`, `"elsewhere.io/v1"`),
			storage:  widgetStorage, want: `lists no version of group "example.io"`,
		},
		"no reset strategy on the store": {
			strategy: widgetStrategy,
			storage:  strings.Replace(widgetStorage, "ResetFieldsStrategy: widget.Strategy,", "", 1),
			want:     "sets no ResetFieldsStrategy",
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := tree(t, map[string]string{
				"pkg/features/kube_features.go":             features,
				"pkg/apis/example/register.go":              register,
				"pkg/registry/example/widget/strategy.go":   tc.strategy,
				"pkg/registry/example/widget/storage/st.go": tc.storage,
			})
			out := filepath.Join(t.TempDir(), "out.go")
			err := run(out, root)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if _, statErr := os.Stat(out); statErr == nil {
				t.Error("wrote a file despite the error")
			}
		})
	}
}

package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const widgetGeneration = `package widget

func (widgetStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	w := obj.(*example.Widget)
	w.Status = example.WidgetStatus{}
	w.Generation = 1
}

func (widgetStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	n := obj.(*example.Widget)
	o := old.(*example.Widget)
	n.Status = o.Status
	if !apiequality.Semantic.DeepEqual(n.Spec, o.Spec) ||
		!apiequality.Semantic.DeepEqual(n.Annotations, o.Annotations) {
		n.Generation = o.Generation + 1
	}
	bumpOnTemplate(n, o)
	if utilfeature.DefaultFeatureGate.Enabled(features.GateLater) {
		if !reflect.DeepEqual(n.Extra, o.Extra) {
			n.Generation = o.Generation + 1
		}
	}
}

func bumpOnTemplate(n, o *example.Widget) {
	if !apiequality.Semantic.DeepEqual(n.Spec.PodTemplate, o.Spec.PodTemplate) {
		n.Generation++
	}
}

func (widgetStatusStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	n := obj.(*example.Widget)
	n.Generation = 7
}
`

func generationTree(t *testing.T, strategy string) string {
	return tree(t, map[string]string{
		"pkg/features/kube_features.go":             features,
		"pkg/apis/example/register.go":              register,
		"pkg/registry/example/widget/strategy.go":   widgetStrategy,
		"pkg/registry/example/widget/generation.go": strategy,
		"pkg/registry/example/widget/storage/st.go": widgetStorage,
	})
}

func TestReadGenerations(t *testing.T) {
	root := generationTree(t, widgetGeneration)
	gates, err := readFeatureGates(filepath.Join(root, "pkg/features/kube_features.go"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readGenerations(root, gates)
	if err != nil {
		t.Fatal(err)
	}
	want := []generationRow{{group: "example.io", kind: "Widget", onCreate: true,
		compared: [][]string{{"spec"}, {"metadata", "annotations"}, {"spec", "podTemplate"}}, from: "example/widget"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows:\n got %+v\nwant %+v", rows, want)
	}
	src, err := source(&registry{generations: rows})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `{group: "example.io", kind: "Widget", onCreate: true, compared: [][]string{{"spec"}, {"metadata", "annotations"}, {"spec", "podTemplate"}}},`) {
		t.Errorf("generated:\n%s", src)
	}
}

// A copy of the ObjectMeta compared, and the whole object whose ObjectMeta
// was cleared (EndpointSlice's strategy).
func TestReadGenerationsOfCopies(t *testing.T) {
	root := generationTree(t, `package widget

func (widgetStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {}

func (widgetStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	n := obj.(*example.Widget)
	o := old.(*example.Widget)
	nm := n.ObjectMeta
	om := o.ObjectMeta
	n.ObjectMeta = metav1.ObjectMeta{}
	o.ObjectMeta = metav1.ObjectMeta{}
	if !apiequality.Semantic.DeepEqual(n, o) || !apiequality.Semantic.DeepEqual(nm.Labels, om.Labels) {
		nm.Generation = om.Generation + 1
	}
}
`)
	rows, err := readGenerations(root, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].onCreate || !reflect.DeepEqual(rows[0].compared, [][]string{{}, {"metadata", "labels"}}) {
		t.Errorf("rows: %+v", rows)
	}
}

func TestUnknownGenerationShapesFail(t *testing.T) {
	for name, tc := range map[string]struct{ from, to, want string }{
		"other condition":    {"!apiequality.Semantic.DeepEqual(n.Spec, o.Spec) ||", "changed(n, o) ||", "not a disjunction"},
		"unconditional":      {"\tn.Generation++\n", "\tn.Generation++\n\t}\n\tn.Generation++\n\tif false {\n", "outside an if statement"},
		"different fields":   {"DeepEqual(n.Annotations, o.Annotations)", "DeepEqual(n.Annotations, o.Labels)", "different fields"},
		"whole, not cleared": {"DeepEqual(n.Spec, o.Spec)", "DeepEqual(n, o)", "whose ObjectMeta is not cleared"},
		"unknown gate":       {"features.GateLater", "features.Nope", "unknown feature gate Nope"},
		"bump on create":     {"w.Generation = 1", "w.Generation = w.Generation + 1", "outside an if statement"},
	} {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(widgetGeneration, tc.from) {
				t.Fatalf("%q is not in the strategy", tc.from)
			}
			root := generationTree(t, strings.Replace(widgetGeneration, tc.from, tc.to, 1))
			_, err := readGenerations(root, map[string]bool{"GateOn": true, "GateLater": false})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

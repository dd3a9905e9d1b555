package registry_test

import (
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/defaulting"
	"github.com/structmerge/structmerge/kube/registry"
	"github.com/structmerge/structmerge/value"
)

var (
	st  = registry.Builtin()
	def = defaulting.Builtin()
)

// obj decodes YAML and defaults it, as kube.Server hands objects to a
// Strategy.
func obj(t *testing.T, s string) value.Value {
	t.Helper()
	if s == "" {
		return value.Value{}
	}
	v, err := value.FromYAML([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if v, err = def.Default(v); err != nil {
		t.Fatal(err)
	}
	return v
}

func at(v value.Value, path ...string) string {
	for _, p := range path {
		if v.Kind() == value.List {
			if v.Len() == 0 {
				return "none"
			}
			v = v.Index(0)
			continue
		}
		var ok bool
		if v, ok = v.Get(p); !ok {
			return "none"
		}
	}
	return string(value.ToJSON(v))
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, generation: 3, resourceVersion: "7"}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1.28"}]}
status: {replicas: 2}
`

// What the strategies of Kubernetes 1.37 do, as its registry documents
// them in each strategy's comments.
func TestPrepare(t *testing.T) {
	for _, tc := range []struct {
		name, obj, live, sub string
		path                 []string
		want                 string
	}{
		{"a new Pod is Pending", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: x}]}\nstatus: {phase: Running}",
			"", "", []string{"status", "phase"}, `"Pending"`},
		{"a new Pod's QoS class", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: x}]}",
			"", "", []string{"status", "qosClass"}, `"BestEffort"`},
		{"a new Pod's generation", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: x}]}",
			"", "", []string{"metadata", "generation"}, `1`},
		{"a new Namespace's finalizer", "apiVersion: v1\nkind: Namespace\nmetadata: {name: team}",
			"", "", []string{"spec", "finalizers"}, `["kubernetes"]`},
		{"a new Deployment drops its status", deployment, "", "", []string{"status"}, "{}"},
		{"a spec change moves the generation", strings.Replace(deployment, "replicas: 2", "replicas: 5", 1),
			deployment, "", []string{"metadata", "generation"}, `4`},
		{"a label change does not", strings.Replace(deployment, "name: web,", "name: web, labels: {a: b},", 1),
			deployment, "", []string{"metadata", "generation"}, `3`},
		{"an update keeps the live status", strings.Replace(deployment, "status: {replicas: 2}", "status: {replicas: 9}", 1),
			deployment, "", []string{"status", "replicas"}, `2`},
		{"a status update keeps the live spec", strings.Replace(deployment, "replicas: 2\n", "replicas: 9\n", 1),
			deployment, "status", []string{"spec", "replicas"}, `2`},
		{"scale writes through the main strategy", strings.Replace(deployment, "replicas: 2\n", "replicas: 9\n", 1),
			deployment, kube.ScaleSubresource, []string{"metadata", "generation"}, `4`},
		{"an update without any resourceVersion", strings.Replace(deployment, `, resourceVersion: "7"`, "", 1),
			strings.Replace(deployment, `, resourceVersion: "7"`, "", 1), "", []string{"metadata", "resourceVersion"}, "none"},
		{"a ConfigMap without a namespace keeps none", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}",
			"", "", []string{"metadata", "namespace"}, "none"},
		{"a Service keeps its allocated address", "apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: default}\nspec: {ports: [{port: 80}]}",
			"apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: default, resourceVersion: '3'}\nspec: {ports: [{port: 80}], clusterIP: 10.0.0.7, clusterIPs: [10.0.0.7], ipFamilies: [IPv4], ipFamilyPolicy: SingleStack}",
			"", []string{"spec", "clusterIPs"}, `["10.0.0.7"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok, err := st.Prepare(obj(t, tc.obj), obj(t, tc.live), tc.sub)
			if err != nil || !ok {
				t.Fatalf("Prepare: %v, %v", ok, err)
			}
			if got := at(out, tc.path...); got != tc.want {
				t.Errorf("%v = %s, want %s", tc.path, got, tc.want)
			}
		})
	}
}

// A refusal of the kind's validation is the server's Invalid error, which
// names the field.
func TestPrepareRefuses(t *testing.T) {
	bad := strings.Replace(deployment, "spec: {containers", "spec: {dnsPolicy: s3, containers", 1)
	_, ok, err := st.Prepare(obj(t, bad), value.Value{}, "")
	if !ok || !apierrors.IsInvalid(err) {
		t.Fatalf("Prepare = %v, %v; want an Invalid error", ok, err)
	}
	if want := `Deployment.apps "web" is invalid: spec.template.spec.dnsPolicy: Unsupported value: "s3"`; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to begin %q", err, want)
	}
	// A selector the template's labels do not match.
	bad = strings.Replace(deployment, "labels: {app: web}", "labels: {app: other}", 1)
	if _, _, err := st.Prepare(obj(t, bad), value.Value{}, ""); !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.template.metadata.labels") {
		t.Errorf("a template that does not match its selector: %v", err)
	}
}

// A value the kind's Go type cannot hold is refused as the server's field
// manager refuses an apply's result.
func TestPrepareUndecodable(t *testing.T) {
	v, err := value.FromYAML([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: x, resources: {limits: {cpu: lots}}}]}"))
	if err != nil {
		t.Fatal(err)
	}
	_, ok, err := st.Prepare(v, value.Value{}, "")
	want := `failed to convert new object (default/p; /v1, Kind=Pod) to proper version: unable to convert unstructured object to /v1, Kind=Pod: quantities must match the regular expression`
	if !ok || err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Prepare = %v, %v; want an error that begins %q", ok, err, want)
	}
}

// Kinds and endpoints without a strategy here are left to the caller.
func TestPrepareUnknown(t *testing.T) {
	for _, tc := range []struct{ obj, sub string }{
		{"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}", ""},
		{deployment, "no-such-subresource"},
		{"apiVersion: apps/v9\nkind: Deployment\nmetadata: {name: w}", ""},
	} {
		v, err := value.FromYAML([]byte(tc.obj))
		if err != nil {
			t.Fatal(err)
		}
		out, ok, err := st.Prepare(v, v, tc.sub)
		if ok || err != nil || !value.Equal(out, v) {
			t.Errorf("%s %q: Prepare = %v, %v; want false and the object unchanged", kube.GVKOf(v), tc.sub, ok, err)
		}
	}
}

// Prepare does not modify its arguments, and is safe for concurrent use
// (run under -race).
func TestPrepareConcurrent(t *testing.T) {
	o, l := obj(t, strings.Replace(deployment, "replicas: 2", "replicas: 5", 1)), obj(t, deployment)
	before := value.ToJSON(o)
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 20 {
				if _, _, err := st.Prepare(o, l, ""); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	if string(value.ToJSON(o)) != string(before) {
		t.Error("Prepare modified its argument")
	}
}

// An update's body is decoded as the server's handler decodes it for the
// endpoint's kind.
func TestDecodeBody(t *testing.T) {
	cm := kube.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	for _, tc := range []struct{ body, want string }{
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}", ""},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nunknownField: 1", ""},
		{"metadata: {name: c}\ndata: {a: b}", ""},
		{"apiVersion: v1\nkind: Secret\nmetadata: {name: c}", `Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion`},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: [1]}", `ConfigMap in version "v1" cannot be handled as a ConfigMap: `},
	} {
		v, err := value.FromYAML([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		err = st.DecodeBody(v, cm)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.body, err)
		case tc.want != "" && (!apierrors.IsBadRequest(err) || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%q: %v, want a BadRequest that begins %q", tc.body, err, tc.want)
		}
	}
	if err := st.DecodeBody(value.NewMap(nil), kube.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}); err != nil {
		t.Errorf("a kind it does not know: %v", err)
	}
}

package conformance

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/internal/cli"
	"github.com/structmerge/structmerge/internal/scenario"
)

// readOnlyRBAC lets the user dev (a context of the reference kubeconfig)
// get and list everything, and nothing else.
const readOnlyRBAC = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: structmerge-readonly}
rules:
- apiGroups: ["*"]
  resources: ["*"]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: structmerge-readonly}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: structmerge-readonly}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: dev}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: structmerge-no-crds}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: structmerge-no-crds}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: structmerge-no-crds}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: structmerge-no-crds}
`

// noCRDsUser is the user of the context no-crds of readOnlyKubeconfig
// (the admin impersonates it): it may read widgets of example.com and
// nothing else, not even their CustomResourceDefinition.
const noCRDsUser = "structmerge-no-crds"

// readOnlyCase is a diff of a manifest against what the cluster stores
// after the setup applies.
type readOnlyCase struct {
	name     string
	crd      string   // a CRD file the case needs installed, or ""
	setup    []refOp  // writes by admin before the diff
	manifest string   // YAML; its namespace is the case's
	want     []string // lines the diff must have (the case is meant to show them)
}

// recorder is a reverse proxy to the reference server that records the
// method and path of every request.
type recorder struct {
	mu   sync.Mutex
	reqs []string
}

func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.reqs)
}

// readOnlyKubeconfig writes a kubeconfig whose current context is the
// user dev of the reference kubeconfig, through a recording proxy; its
// context no-crds is noCRDsUser.
func readOnlyKubeconfig(t *testing.T, rec *recorder) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(os.Getenv(referenceKubeconfigEnv))
	if err != nil {
		t.Fatal(err)
	}
	dev, ok := cfg.AuthInfos["dev"]
	if !ok {
		t.Fatal("the reference kubeconfig has no user dev")
	}
	ctx := cfg.Contexts[cfg.CurrentContext]
	admin := cfg.AuthInfos[ctx.AuthInfo]
	cluster := cfg.Clusters[ctx.Cluster]
	target, err := url.Parse(cluster.Server)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := os.ReadFile(cluster.CertificateAuthority)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, r.Method+" "+r.URL.Path)
		rec.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	out := clientcmdapi.NewConfig()
	out.Clusters["proxy"] = &clientcmdapi.Cluster{Server: srv.URL, InsecureSkipTLSVerify: true}
	out.AuthInfos["dev"] = &clientcmdapi.AuthInfo{Token: dev.Token}
	out.Contexts["readonly"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: "dev"}
	out.AuthInfos[noCRDsUser] = &clientcmdapi.AuthInfo{Token: admin.Token, Impersonate: noCRDsUser}
	out.Contexts["no-crds"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: noCRDsUser}
	out.CurrentContext = "readonly"
	path := filepath.Join(t.TempDir(), "readonly.kubeconfig")
	if err := clientcmd.WriteToFile(*out, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// diffHunks is a unified diff without its header lines (kubectl's name
// temporary directories and times).
func diffHunks(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "diff -u -N ") || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// withoutCreateAssigned excuses, in the hunk of a created object
// (@@ -0,0 ...), the lines of what only the server assigns on create
// (serverAssigned.metadata: kubectl's dry run shows the server's uid and
// creationTimestamp), and counts the hunk's lines again. Hunks of objects
// that exist are left as they are.
func withoutCreateAssigned(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	header := -1
	for _, l := range lines {
		if strings.HasPrefix(l, "@@ ") {
			header = -1
			if strings.HasPrefix(l, "@@ -0,0 +1,") {
				header = len(out)
			}
			out = append(out, l)
			continue
		}
		if header >= 0 && slices.ContainsFunc(serverAssigned.metadata, func(f string) bool { return strings.HasPrefix(l, "+  "+f+": ") }) {
			continue
		}
		out = append(out, l)
	}
	// Count each create hunk's lines again.
	for i, l := range out {
		if !strings.HasPrefix(l, "@@ -0,0 +1,") {
			continue
		}
		n := 0
		for _, m := range out[i+1:] {
			if !strings.HasPrefix(m, "+") {
				break
			}
			n++
		}
		out[i] = fmt.Sprintf("@@ -0,0 +1,%d @@", n)
	}
	return strings.Join(out, "\n")
}

// runKubectl runs kubectl with the reference kubeconfig.
func runKubectl(t *testing.T, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", os.Getenv(referenceKubeconfigEnv)}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECTL_EXTERNAL_DIFF=")
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return stdout.String(), stderr.String(), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), 0
}

// TestRealServerReadOnly runs structmerge diff and apply against the
// reference server as a user whose RBAC grants only get and list, through
// a proxy that records every request (all must be GETs), and compares the
// diff and its exit code with kubectl diff --server-side as an admin, and
// the applied object with kubectl's server-side dry run; kubectl diff as
// the read-only user is forbidden.
func TestRealServerReadOnly(t *testing.T) {
	r := newRefServer(t)
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on the PATH")
	}
	ctx := context.Background()
	for _, doc := range strings.Split(readOnlyRBAC, "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: obj}
		if _, err := r.do(ctx, refOp{op: scenario.OpForceApply, manager: "structmerge-setup", object: obj}, u); err != nil {
			t.Fatal(err)
		}
	}
	deployment, err := os.ReadFile("../examples/deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	service, err := os.ReadFile("../examples/service.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scaled := strings.Replace(string(deployment), "spec:\n  selector:", "spec:\n  replicas: 2\n  selector:", 1)
	cases := []readOnlyCase{
		{name: "deployment image", setup: []refOp{{op: scenario.OpApply, manager: "kubectl", object: yamlObject(t, string(deployment))}},
			manifest: strings.Replace(string(deployment), "nginx:1.28", "nginx:1.29", 1), want: []string{"+      - image: nginx:1.29"}},
		{name: "service label", setup: []refOp{{op: scenario.OpApply, manager: "kubectl", object: yamlObject(t, string(service))}},
			manifest: strings.Replace(string(service), "  name: web\n", "  name: web\n  labels:\n    tier: front\n", 1), want: []string{"+    tier: front"}},
		{name: "replicas owned by an autoscaler", setup: []refOp{
			{op: scenario.OpApply, manager: "kubectl", object: yamlObject(t, scaled)},
			{op: scenario.OpUpdate, manager: "hpa", subresource: "scale", object: yamlObject(t, "apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: web}\nspec: {replicas: 5}")},
		}, manifest: strings.Replace(string(deployment), "nginx:1.28", "nginx:1.29", 1), want: []string{"+      - image: nginx:1.29"}},
		{name: "custom resource", crd: "../testdata/scenarios/kubernetes/crds/widget.yaml",
			setup:    []refOp{{op: scenario.OpApply, manager: "kubectl", object: yamlObject(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: small}")}},
			manifest: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: large}", want: []string{"+  size: large"}},
		{name: "new object", manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fresh}\ndata: {a: b}", want: []string{"+  a: b"}},
		{name: "removed field", setup: []refOp{{op: scenario.OpApply, manager: "kubectl", object: yamlObject(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: one, b: two}")}},
			manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: one}", want: []string{"-  b: two"}},
		{name: "no change", setup: []refOp{{op: scenario.OpApply, manager: "kubectl", object: yamlObject(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: same}\ndata: {a: x}")}},
			manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: same}\ndata: {a: x}"},
	}
	// Namespaces of this run: the server may be one a run used before.
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	run = run[len(run)-5:]
	rec := &recorder{}
	readonly := readOnlyKubeconfig(t, rec)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ns := "ro-" + run + "-" + strings.ReplaceAll(c.name, " ", "-")
			if err := r.ensureNamespace(ctx, ns); err != nil {
				t.Fatal(err)
			}
			if c.crd != "" {
				text, err := os.ReadFile(c.crd)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.installCRDs(ctx, []scenario.Source{{File: c.crd, Text: text}}); err != nil {
					t.Fatal(err)
				}
			}
			var target *unstructured.Unstructured
			for _, op := range c.setup {
				u := &unstructured.Unstructured{Object: op.object}
				if u.GetKind() == "Scale" {
					(&unstructured.Unstructured{Object: op.object}).SetNamespace(ns)
					u = target
				} else {
					u.SetNamespace(ns)
					target = u
				}
				if _, err := r.do(ctx, op, u); err != nil {
					t.Fatalf("setup: %v", err)
				}
			}
			m := yamlObject(t, c.manifest)
			(&unstructured.Unstructured{Object: m}).SetNamespace(ns)
			manifest, err := yaml.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "manifest.yaml")
			if err := os.WriteFile(file, manifest, 0o644); err != nil {
				t.Fatal(err)
			}

			want, kerr, wantCode := runKubectl(t, manifest, "--context", "admin", "diff", "--server-side", "-f", "-")
			if wantCode > 1 {
				t.Fatalf("kubectl diff --server-side as admin exits %d:\n%s", wantCode, kerr)
			}
			_, deniedErr, deniedCode := runKubectl(t, manifest, "--context", "dev", "diff", "--server-side", "-f", "-")
			if deniedCode <= 1 || !strings.Contains(deniedErr, "forbidden") {
				t.Errorf("kubectl diff --server-side as the read-only user exits %d, want a refusal:\n%s", deniedCode, deniedErr)
			}

			before := len(rec.requests())
			var stdout, stderr bytes.Buffer
			t.Setenv("KUBECTL_EXTERNAL_DIFF", "")
			code := cli.Main([]string{"diff", "--kubeconfig", readonly, "-f", file}, nil, &stdout, &stderr)
			if code != wantCode {
				t.Errorf("structmerge diff exits %d, kubectl diff %d; stderr:\n%s", code, wantCode, stderr.String())
			}
			if d := cmp.Diff(withoutCreateAssigned(diffHunks(want)), diffHunks(stdout.String())); d != "" {
				t.Errorf("structmerge diff differs from kubectl diff --server-side (-kubectl +structmerge):\n%s", d)
			}
			for _, l := range c.want {
				if !strings.Contains(stdout.String(), l+"\n") {
					t.Errorf("the diff has no line %q:\n%s", l, stdout.String())
				}
			}
			// apply is a dry run: the object kubectl's server-side dry
			// run answers, from the read-only user's reads.
			wantObj, kerr, kcode := runKubectl(t, manifest, "--context", "admin", "apply", "--server-side", "--dry-run=server", "--show-managed-fields", "-o", "json", "-f", "-")
			if kcode != 0 {
				t.Fatalf("kubectl apply --server-side --dry-run=server exits %d:\n%s", kcode, kerr)
			}
			var wantApplied map[string]any
			if err := json.Unmarshal([]byte(wantObj), &wantApplied); err != nil {
				t.Fatal(err)
			}
			t.Setenv("STRUCTMERGE_NOW", latestEntryTime(wantApplied).UTC().Format(time.RFC3339))
			stdout.Reset()
			stderr.Reset()
			if code := cli.Main([]string{"apply", "--context", "readonly", "--kubeconfig", readonly, "-f", file, "-o", "json"}, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("structmerge apply exits %d:\n%s", code, stderr.String())
			}
			var gotApplied map[string]any
			if err := json.Unmarshal(stdout.Bytes(), &gotApplied); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(withoutServerAssigned(wantApplied), withoutServerAssigned(gotApplied)); d != "" {
				t.Errorf("structmerge apply differs from kubectl apply --server-side --dry-run=server (-kubectl +structmerge):\n%s", d)
			}

			// owners and blame read the objects the manifest names from
			// the cluster, as from a file of kubectl get
			// --show-managed-fields.
			if len(c.setup) > 0 {
				mu := &unstructured.Unstructured{Object: m}
				ri, _, err := r.resource(mu.GroupVersionKind(), ns)
				if err != nil {
					t.Fatal(err)
				}
				stored, err := ri.Get(ctx, mu.GetName(), metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				data, err := yaml.Marshal(stored.Object)
				if err != nil {
					t.Fatal(err)
				}
				liveFile := filepath.Join(t.TempDir(), "live.yaml")
				if err := os.WriteFile(liveFile, data, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, args := range [][]string{{"owners", "-o", "json"}, {"blame", "--time", "none"}} {
					var fromFile, fromCluster, errs bytes.Buffer
					if code := cli.Main(append(args, "-f", liveFile), nil, &fromFile, &errs); code != 0 {
						t.Fatalf("%s -f live.yaml exits %d:\n%s", args[0], code, errs.String())
					}
					if code := cli.Main(append(args, "--kubeconfig", readonly, "-f", file), nil, &fromCluster, &errs); code != 0 {
						t.Fatalf("%s --kubeconfig exits %d:\n%s", args[0], code, errs.String())
					}
					if d := cmp.Diff(fromFile.String(), fromCluster.String()); d != "" {
						t.Errorf("%s of the cluster's object differs from %s of kubectl get's (-file +cluster):\n%s", args[0], args[0], d)
					}
				}
			}

			onlyReads(t, rec.requests()[before:])
		})
	}
	t.Run("refusals", func(t *testing.T) {
		ns := "ro-" + run + "-refusals"
		if err := r.ensureNamespace(ctx, ns); err != nil {
			t.Fatal(err)
		}
		const crd = "../testdata/scenarios/kubernetes/crds/widget.yaml"
		text, err := os.ReadFile(crd)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.installCRDs(ctx, []scenario.Source{{File: crd, Text: text}}); err != nil {
			t.Fatal(err)
		}
		before := len(rec.requests())
		readOnlyRefusals(t, readonly, ns)
		onlyReads(t, rec.requests()[before:])
	})
}

// onlyReads fails unless reqs has requests and all are GETs.
func onlyReads(t *testing.T, reqs []string) {
	t.Helper()
	if len(reqs) == 0 {
		t.Error("structmerge sent no request to the cluster")
	}
	for _, req := range reqs {
		if !strings.HasPrefix(req, http.MethodGet+" ") {
			t.Errorf("structmerge sent %s; it may only read", req)
		}
	}
}

// readOnlyRefusals shows the errors of reads the cluster refuses: each
// exits 2, prints nothing on stdout and says why on stderr. The widget CRD
// is installed.
func readOnlyRefusals(t *testing.T, kubeconfig, ns string) {
	widget := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: " + ns + "}\nspec: {size: large}\n"
	for _, c := range []struct {
		name, context, manifest string
		want                    []string // texts of stderr
	}{
		{"the CRD is forbidden", "no-crds", widget, []string{
			"reading the CustomResourceDefinition widgets.example.com (structmerge needs get on customresourcedefinitions for the schema of custom resources): forbidden (the credentials of context no-crds may not get it)",
			`User "` + noCRDsUser + `" cannot get resource "customresourcedefinitions"`}},
		{"the object is forbidden", "no-crds", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: " + ns + "}\n", []string{
			"manifest.yaml: document 1 (line 1): reading ConfigMap " + ns + "/c: forbidden (the credentials of context no-crds may not get it)",
			`cannot get resource "configmaps"`}},
		{"a version the cluster does not serve", "readonly", strings.Replace(widget, "/v1", "/v9", 1), []string{
			"manifest.yaml: document 1 (line 1): the cluster of context readonly does not serve example.com/v9, Kind=Widget"}},
		{"a kind the cluster does not serve", "readonly", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n", []string{
			"does not serve example.com/v1, Kind=Gadget"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "manifest.yaml")
			if err := os.WriteFile(file, []byte(c.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, cmd := range []string{"diff", "apply"} {
				var stdout, stderr bytes.Buffer
				code := cli.Main([]string{cmd, "--kubeconfig", kubeconfig, "--context", c.context, "-f", file}, nil, &stdout, &stderr)
				if code != 2 || stdout.Len() != 0 {
					t.Errorf("%s exits %d with stdout %q, want 2 and none; stderr:\n%s", cmd, code, stdout.String(), stderr.String())
				}
				for _, w := range c.want {
					if !strings.Contains(stderr.String(), w) {
						t.Errorf("%s: stderr lacks %q:\n%s", cmd, w, stderr.String())
					}
				}
			}
		})
	}
}

func yamlObject(t *testing.T, s string) map[string]any {
	t.Helper()
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(s), &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// TestCreateAssignedExcuseNeedsProof shows that only the server-assigned
// lines of a created object's hunk are excused.
func TestCreateAssignedExcuseNeedsProof(t *testing.T) {
	create := "@@ -0,0 +1,4 @@\n+kind: ConfigMap\n+metadata:\n+  creationTimestamp: \"2026-12-04T12:00:00Z\"\n+  name: a"
	if got, want := withoutCreateAssigned(create), "@@ -0,0 +1,3 @@\n+kind: ConfigMap\n+metadata:\n+  name: a"; got != want {
		t.Errorf("a create's creationTimestamp is not excused:\n%s", got)
	}
	for _, kept := range []string{
		// an object that exists: its creationTimestamp is the live one
		"@@ -2,4 +2,4 @@\n metadata:\n-  creationTimestamp: \"2026-12-04T12:00:00Z\"\n+  creationTimestamp: \"2026-12-04T13:00:00Z\"\n   name: a",
		// another field of a create
		"@@ -0,0 +1,3 @@\n+kind: ConfigMap\n+metadata:\n+  generation: 1",
		// a creationTimestamp deeper in the object
		"@@ -0,0 +1,2 @@\n+spec:\n+    creationTimestamp: null",
	} {
		if got := withoutCreateAssigned(kept); got != kept {
			t.Errorf("excused:\n%s\nbecame:\n%s", kept, got)
		}
	}
}

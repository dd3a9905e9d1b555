package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/defaulting"
	"github.com/structmerge/structmerge/kube/registry"
	"github.com/structmerge/structmerge/value"
)

// The reference for what a whole API server does is a running
// kube-apiserver v1.37.2 on unmodified structured-merge-diff v6.4.2 and a
// real etcd: scripts/server-differential.sh builds and starts one and runs
// the tests below with its kubeconfig in $STRUCTMERGE_REFERENCE_KUBECONFIG.
// Without it they skip.
const referenceKubeconfigEnv = "STRUCTMERGE_REFERENCE_KUBECONFIG"

// serverAssigned is what only a server assigns, and is left out of every
// comparison with it: the object's identity and version, its creation
// time, and the times of its managedFields entries (a server stamps its
// own clock).
var serverAssigned = struct {
	metadata []string
	entry    []string
}{
	metadata: []string{"uid", "resourceVersion", "creationTimestamp"},
	entry:    []string{"time"},
}

// withoutServerAssigned returns a deep copy of obj without serverAssigned.
func withoutServerAssigned(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	out := cloneJSON(obj)
	md, _ := out["metadata"].(map[string]any)
	for _, f := range serverAssigned.metadata {
		delete(md, f)
	}
	if mf, ok := md["managedFields"].([]any); ok {
		for _, e := range mf {
			if em, ok := e.(map[string]any); ok {
				for _, f := range serverAssigned.entry {
					delete(em, f)
				}
			}
		}
	}
	return out
}

func cloneJSON(obj map[string]any) map[string]any {
	data, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		panic(err)
	}
	return out
}

// refServer is a client of the reference kube-apiserver.
type refServer struct {
	dyn    dynamic.Interface
	mapper *restmapper.DeferredDiscoveryRESTMapper
}

func newRefServer(t *testing.T) *refServer {
	t.Helper()
	path := os.Getenv(referenceKubeconfigEnv)
	if path == "" {
		t.Skipf("no reference server: $%s is not set (scripts/server-differential.sh starts one and runs this test)", referenceKubeconfigEnv)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatalf("$%s: %v", referenceKubeconfigEnv, err)
	}
	cfg.QPS, cfg.Burst = 500, 1000
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &refServer{dyn: dyn, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))}
}

// resource returns the client of obj's resource, and whether it is
// namespaced.
func (r *refServer) resource(gvk schema.GroupVersionKind, ns string) (dynamic.ResourceInterface, bool, error) {
	m, err := r.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) {
		r.mapper.Reset()
		m, err = r.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		return nil, false, err
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return r.dyn.Resource(m.Resource).Namespace(ns), true, nil
	}
	return r.dyn.Resource(m.Resource), false, nil
}

// ensureNamespace creates the namespace ns.
func (r *refServer) ensureNamespace(ctx context.Context, ns string) error {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
	_, err := r.dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Create(ctx, u, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// installCRDs applies the CRDs and waits until the server serves them.
func (r *refServer) installCRDs(ctx context.Context, crds []scenario.Source) error {
	for _, src := range crds {
		var obj map[string]any
		if err := yaml.Unmarshal(src.Text, &obj); err != nil {
			return fmt.Errorf("%s: %v", src.File, err)
		}
		u := &unstructured.Unstructured{Object: obj}
		ri := r.dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
		if _, err := ri.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "structmerge-setup", Force: true}); err != nil {
			return fmt.Errorf("%s: %v", src.File, err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			got, err := ri.Get(ctx, u.GetName(), metav1.GetOptions{})
			if err == nil && established(got.Object) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s: the CRD is not established after 30 s", src.File)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	r.mapper.Reset()
	return nil
}

func established(crd map[string]any) bool {
	conds, _, _ := unstructured.NestedSlice(crd, "status", "conditions")
	for _, c := range conds {
		if cm, ok := c.(map[string]any); ok && cm["type"] == "Established" && cm["status"] == "True" {
			return true
		}
	}
	return false
}

// refOp is one write of a differential case.
type refOp struct {
	op          string // apply, forceApply or update
	manager     string
	subresource string
	object      map[string]any
}

// do runs op on the server and returns the object stored afterwards
// (nil when there is none) and the request's error.
func (r *refServer) do(ctx context.Context, op refOp, target *unstructured.Unstructured) (map[string]any, error) {
	ri, _, err := r.resource(target.GroupVersionKind(), target.GetNamespace())
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: cloneJSON(op.object)}
	var sub []string
	if op.subresource != "" {
		sub = []string{op.subresource}
	}
	switch op.op {
	case scenario.OpApply, scenario.OpForceApply:
		// A raw apply patch: client-go's Apply refuses some bodies (with
		// managedFields) before the server sees them.
		var body []byte
		if body, err = json.Marshal(u.Object); err == nil {
			force := op.op == scenario.OpForceApply
			_, err = ri.Patch(ctx, target.GetName(), types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: op.manager, Force: &force}, sub...)
		}
	case scenario.OpUpdate:
		live, gerr := ri.Get(ctx, target.GetName(), metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(gerr) && op.subresource == "":
			_, err = ri.Create(ctx, u, metav1.CreateOptions{FieldManager: op.manager})
		case gerr != nil:
			err = gerr
		default:
			u.SetResourceVersion(live.GetResourceVersion())
			_, err = ri.Update(ctx, u, metav1.UpdateOptions{FieldManager: op.manager}, sub...)
		}
	default:
		return nil, fmt.Errorf("unknown operation %q", op.op)
	}
	got, gerr := ri.Get(ctx, target.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(gerr) {
		return nil, err
	}
	if gerr != nil {
		return nil, errors.Join(err, gerr)
	}
	return got.Object, err
}

// store stores obj (a live object of a case, with its managedFields) on
// the server: a create, then an update that carries the managedFields
// again and changes nothing else, so that they are the object's own (the
// create gives every field it sets to its manager).
func (r *refServer) store(ctx context.Context, obj map[string]any, target *unstructured.Unstructured) (map[string]any, error) {
	got, err := r.do(ctx, refOp{op: scenario.OpUpdate, manager: "structmerge-setup", object: obj}, target)
	if err != nil {
		return nil, err
	}
	mf, ok, _ := unstructured.NestedFieldCopy(obj, "metadata", "managedFields")
	if !ok {
		return got, nil
	}
	again := cloneJSON(got)
	if err := unstructured.SetNestedField(again, mf, "metadata", "managedFields"); err != nil {
		return nil, err
	}
	return r.do(ctx, refOp{op: scenario.OpUpdate, manager: "structmerge-setup", object: again}, target)
}

// ours runs op with structmerge's kube.Server on live (nil: none).
// A live custom resource is read at the request's version as the API
// server's storage serves it (setup.ReadAt, as the command does).
func ours(srv *kube.Server, setup *kube.Setup, op refOp, live map[string]any) (map[string]any, error) {
	obj, err := value.FromUnstructured(op.object)
	if err != nil {
		return live, err
	}
	var lv value.Value
	if live != nil {
		v, err := value.FromUnstructured(live)
		if err != nil {
			return live, err
		}
		if r, _, err := setup.ReadAt(v, kube.GVKOf(obj)); err == nil {
			v = r
		}
		lv = v
	}
	opts := []kube.RequestOption{kube.Subresource(op.subresource)}
	var res value.Value
	switch op.op {
	case scenario.OpApply, scenario.OpForceApply:
		if op.op == scenario.OpForceApply {
			opts = append(opts, kube.Force())
		}
		res, err = srv.Apply(lv, obj, op.manager, opts...)
	case scenario.OpUpdate:
		res, err = srv.Update(lv, obj, op.manager, opts...)
	}
	if err != nil {
		return live, err
	}
	return res.Unstructured().(map[string]any), nil
}

// refCase is a sequence of writes to one object: ops, or the writes next
// draws from the object the server stores (nil: none yet) until it
// returns false.
type refCase struct {
	name string
	crds []scenario.Source
	live map[string]any // the object stored before the first write (nil: none)
	ops  []refOp
	next func(i int, live map[string]any) (refOp, bool)
}

// refMismatch is one step on which the server and structmerge differ.
type refMismatch struct {
	cas, step, what, detail string
}

// runRefCase runs c on the server and on structmerge, in namespace ns,
// and returns the steps on which they differ. After a difference,
// structmerge goes on from the server's object, so that one difference is
// reported once.
func runRefCase(ctx context.Context, r *refServer, c refCase, ns, suffix string, d kube.Defaulter) ([]refMismatch, int, error) {
	if err := r.installCRDs(ctx, c.crds); err != nil {
		return nil, 0, err
	}
	setup, err := kube.NewSetup(native.CRDFiles(c.crds)...)
	if err != nil {
		return nil, 0, err
	}
	var texts [][]byte
	for _, src := range c.crds {
		texts = append(texts, src.Text)
	}
	crd, err := defaulting.CustomResources(texts...)
	if err != nil {
		return nil, 0, err
	}
	// structmerge's clock is the server's: each write is stamped with the
	// time the server stamped it with (the latest time among its
	// entries), so that entries the clock orders come in the same order.
	serverAt := func(stamp time.Time) (*kube.Server, error) {
		resets := func(gvk kube.GroupVersionKind, sub string) map[string]*fieldpath.Set {
			if m := builtinStrategies.ResetFields(gvk, sub); m != nil {
				return m
			}
			return setup.ResetFields(gvk, sub)
		}
		fm, err := kube.NewFieldManager(setup.Resolver, append(setup.Options(stamp), kube.WithResetFields(resets))...)
		if err != nil {
			return nil, err
		}
		return kube.NewServer(fm, kube.ChainDefaulters(d, crd), kube.WithGeneration(setup.Generation), kube.WithStrategy(builtinStrategies))
	}
	var target *unstructured.Unstructured
	place := func(obj map[string]any) (map[string]any, *unstructured.Unstructured, error) {
		out := cloneJSON(obj)
		u := &unstructured.Unstructured{Object: out}
		gvk := u.GroupVersionKind()
		if gvk.Kind == "Scale" && gvk.Group == "autoscaling" {
			return out, nil, nil
		}
		if gvk.Kind == "" {
			return out, u, nil
		}
		_, namespaced, err := r.resource(gvk, ns)
		if meta.IsNoMatchError(err) && target != nil && gvk.GroupKind() == target.GroupVersionKind().GroupKind() {
			// A version the server does not serve: the write goes
			// to the stored object's endpoint (below), which
			// refuses the body.
			namespaced, err = target.GetNamespace() != "", nil
		}
		if err != nil {
			return nil, nil, err
		}
		if gvk.Kind == "CustomResourceDefinition" && gvk.Group == "apiextensions.k8s.io" {
			// A CRD written by the case (not one it installs) is
			// one of its own, in a group of this run: its name
			// must be plural.group, and the cases that use the
			// manifest's CRD have installed it already.
			group, _, _ := unstructured.NestedString(out, "spec", "group")
			plural, _, _ := unstructured.NestedString(out, "spec", "names", "plural")
			if group != "" && plural != "" {
				group = "c" + strings.TrimPrefix(suffix, "-") + "." + group
				_ = unstructured.SetNestedField(out, group, "spec", "group")
				u.SetName(plural + "." + group)
			}
		}
		if namespaced {
			u.SetNamespace(ns)
		} else if u.GetName() != "" && gvk.Kind != "CustomResourceDefinition" {
			u.SetName(u.GetName() + suffix)
		}
		return out, u, nil
	}
	var live map[string]any
	if c.live != nil {
		// What only a server assigns cannot be sent on a create.
		obj, u, err := place(withoutServerAssigned(c.live))
		if err != nil {
			return nil, 0, err
		}
		target = u
		got, err := r.store(ctx, obj, u)
		if err != nil {
			// The case's live object is one the server would never
			// have stored.
			return []refMismatch{{c.name, "setup", "live object", "the server refuses it: " + errText(err)}}, 0, nil
		}
		live = got
	}
	var out []refMismatch
	steps := 0
	for i := 0; ; i++ {
		var op refOp
		if c.next != nil {
			var ok bool
			if op, ok = c.next(i, live); !ok {
				break
			}
		} else if i < len(c.ops) {
			op = c.ops[i]
		} else {
			break
		}
		step := fmt.Sprintf("step %d (%s of %q by %s)", i+1, op.op, op.subresource, op.manager)
		obj, u, err := place(op.object)
		if err != nil {
			return out, i, fmt.Errorf("%s: %v", step, err)
		}
		if u != nil && target != nil && live != nil {
			// Every write of a case goes to the stored object's
			// endpoint, whatever kind its body names (one without
			// apiVersion and kind writes the live object's kind), and
			// a uid in the body is a precondition on the stored object.
			body := &unstructured.Unstructured{Object: obj}
			if u.GetKind() == "" {
				if target.GetNamespace() != "" {
					body.SetNamespace(target.GetNamespace())
				}
				body.SetName(target.GetName())
			}
			if body.GetUID() != "" {
				body.SetUID((&unstructured.Unstructured{Object: live}).GetUID())
			}
			if u.GroupVersionKind().GroupKind() != target.GroupVersionKind().GroupKind() {
				u = target
			} else if _, _, err := r.resource(u.GroupVersionKind(), ns); meta.IsNoMatchError(err) {
				u = target
			}
		}
		if u == nil {
			// A Scale: it names its parent.
			if target == nil {
				return out, i, fmt.Errorf("%s: a Scale without its object", step)
			}
			md, _ := obj["metadata"].(map[string]any)
			if md == nil {
				md = map[string]any{}
				obj["metadata"] = md
			}
			md["name"], md["namespace"] = target.GetName(), target.GetNamespace()
			if target.GetNamespace() == "" {
				delete(md, "namespace")
			}
		} else {
			target = u
		}
		op.object = obj
		want, werr := r.do(ctx, op, target)
		srv, err := serverAt(latestEntryTime(want))
		if err != nil {
			return out, i, err
		}
		got, gerr := ours(srv, setup, op, live)
		switch {
		case werr != nil || gerr != nil:
			if errText(werr) != errText(gerr) {
				detail := fmt.Sprintf("server: %s\nstructmerge: %s", errText(werr), errText(gerr))
				if os.Getenv("STRUCTMERGE_REFERENCE_RANDOM_DETAIL") != "" {
					l, _ := json.Marshal(live)
					o, _ := json.Marshal(op.object)
					detail += fmt.Sprintf("\nlive: %s\nsent: %s", l, o)
				}
				out = append(out, refMismatch{c.name, step, "error", detail})
			}
		default:
			if want["kind"] == "Service" {
				cidrs, err := r.serviceCIDRs(ctx)
				if err != nil {
					return out, i, err
				}
				got = excuseServiceAllocation(want, got, op.object, cidrs)
			}
			got = alignConditionStamps(want, got, op.object)
			want = excuseCRDControllers(want, got)
			if d := cmp.Diff(withoutServerAssigned(want), withoutServerAssigned(got)); d != "" {
				out = append(out, refMismatch{c.name, step, "object", "(-server +structmerge)\n" + d})
			}
		}
		live = want
		steps++
	}
	return out, steps, nil
}

// serviceCIDRs lists the address ranges the server allocates Service
// addresses from: those of its ServiceCIDR objects (the one its
// --service-cluster-ip-range makes, and any a case created).
func (r *refServer) serviceCIDRs(ctx context.Context) ([]netip.Prefix, error) {
	list, err := r.dyn.Resource(schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "servicecidrs"}).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []netip.Prefix
	for _, item := range list.Items {
		cidrs, _, _ := unstructured.NestedStringSlice(item.Object, "spec", "cidrs")
		for _, c := range cidrs {
			if p, err := netip.ParsePrefix(c); err == nil {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// excuseServiceAllocation is the one deviation filter: what a Service's
// storage allocates and an offline apply cannot know. When the server's
// Service has a spec.clusterIP, spec.clusterIPs, spec.ipFamilies or
// spec.ipFamilyPolicy that neither the request nor structmerge's result
// has, it is copied into structmerge's result, but only with its proof:
// the addresses are the one address, in one of the server's ServiceCIDRs
// (cidrs), that clusterIP and clusterIPs agree on, and the families are
// what a single-stack IPv4 server gives ([IPv4], SingleStack). Anything
// else stays a difference. It returns got, changed or not.
func excuseServiceAllocation(want, got, sent map[string]any, cidrs []netip.Prefix) map[string]any {
	if want == nil || got == nil || want["apiVersion"] != "v1" || want["kind"] != "Service" {
		return got
	}
	wspec, _ := want["spec"].(map[string]any)
	gspec, _ := got["spec"].(map[string]any)
	sspec, _ := sent["spec"].(map[string]any)
	if wspec == nil || gspec == nil {
		return got
	}
	proven := map[string]bool{}
	ip, _ := wspec["clusterIP"].(string)
	if addr, err := netip.ParseAddr(ip); err == nil && slices.ContainsFunc(cidrs, func(p netip.Prefix) bool { return p.Contains(addr) }) {
		proven["clusterIP"] = true
		if ips, ok := wspec["clusterIPs"].([]any); ok && len(ips) == 1 && ips[0] == ip {
			proven["clusterIPs"] = true
		}
	}
	if fams, ok := wspec["ipFamilies"].([]any); ok && len(fams) == 1 && fams[0] == "IPv4" {
		proven["ipFamilies"] = true
	}
	proven["ipFamilyPolicy"] = wspec["ipFamilyPolicy"] == "SingleStack"
	var out map[string]any
	for _, f := range []string{"clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"} {
		_, inGot := gspec[f]
		_, inSent := sspec[f]
		if !proven[f] || inGot || inSent {
			continue
		}
		if out == nil {
			out = cloneJSON(got)
		}
		out["spec"].(map[string]any)[f] = wspec[f]
	}
	if out == nil {
		return got
	}
	return out
}

// latestEntryTime is the latest time among obj's managedFields entries.
func latestEntryTime(obj map[string]any) time.Time {
	var latest time.Time
	mf, _, _ := unstructured.NestedSlice(obj, "metadata", "managedFields")
	for _, e := range mf {
		if em, ok := e.(map[string]any); ok {
			if s, ok := em["time"].(string); ok {
				if at, err := time.Parse(time.RFC3339, s); err == nil && at.After(latest) {
					latest = at
				}
			}
		}
	}
	return latest
}

// errText is an error's message; the server's is its Status message.
func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		return se.Status().Message
	}
	return err.Error()
}

var builtinDefaults = defaulting.Builtin()

var builtinStrategies = registry.Builtin()

// scenarioRefCases turns the Kubernetes-flavour scenarios into cases.
func scenarioRefCases(t *testing.T) []refCase {
	var out []refCase
	for _, f := range kubernetesScenarios(t) {
		c := refCase{name: relName(t, f.Path), crds: f.CRDs}
		if f.Live.HasObject {
			c.live, _ = f.Live.Object.(map[string]any)
		}
		for _, st := range f.Steps {
			obj, ok := st.Object.(map[string]any)
			if !ok {
				t.Fatalf("%s: step at line %d: the object is not a mapping", f.Path, st.Line)
			}
			c.ops = append(c.ops, refOp{op: st.Op, manager: st.Manager, subresource: st.Subresource, object: obj})
		}
		out = append(out, c)
	}
	return out
}

// manifestRefCases turns every Kubernetes object among the manifests of
// examples/ and testdata/ into two cases: a create by server-side apply
// and a create by a plain create (an update of nothing).
func manifestRefCases(t *testing.T) []refCase {
	var out []refCase
	for _, f := range manifestFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(data, &obj); err != nil || obj["apiVersion"] == nil || obj["kind"] == nil {
			continue // not a Kubernetes object (a scenario, a schema)
		}
		name := strings.TrimPrefix(filepath.ToSlash(f), "../")
		// A live object carries managedFields, which an apply may not:
		// the server refuses it, and so must structmerge, in the same
		// words.
		apply := cloneJSON(obj)
		out = append(out,
			refCase{name: name + " (apply)", ops: []refOp{{op: scenario.OpApply, manager: "kubectl", object: apply}}},
			refCase{name: name + " (create)", ops: []refOp{{op: scenario.OpUpdate, manager: "kubectl-create", object: cloneJSON(obj)}}},
		)
	}
	return out
}

// knownServerMismatches lists, one per line as "case | step | what", the
// steps on which structmerge is known to differ from the reference server
// today: open work (generation, registry strategies, server validation,
// controllers of the server itself), not excuses. The test fails on a
// mismatch that is not listed and on a listed one that no longer occurs,
// so the list only shrinks.
const knownServerMismatches = "testdata/realserver-known.txt"

func (m refMismatch) key() string { return m.cas + " | " + m.step + " | " + m.what }

// runRefCases runs the cases on r, each in a namespace of its own, with d
// as structmerge's defaulting.
func runRefCases(t *testing.T, r *refServer, cases []refCase, d kube.Defaulter) ([]refMismatch, int) {
	t.Helper()
	ctx := context.Background()
	var all []refMismatch
	steps := 0
	// Namespaces and names are new in each run, so that a server can
	// serve several runs.
	run := strconv.FormatInt(time.Now().UnixNano()%(36*36*36*36*36), 36)
	for i, c := range cases {
		ns := fmt.Sprintf("d%d-%s", i, run)
		if err := r.ensureNamespace(ctx, ns); err != nil {
			t.Fatal(err)
		}
		ms, n, err := runRefCase(ctx, r, c, ns, "-"+ns, d)
		steps += n
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		all = append(all, ms...)
	}
	return all, steps
}

// TestRealServerDifferential replays the scenario corpus and the manifests
// on the reference server and on structmerge's kube.Server (with
// Kubernetes' defaulting), and compares every step: the object, its
// managedFields bytes, and the error texts.
func TestRealServerDifferential(t *testing.T) {
	r := newRefServer(t)
	cases := append(scenarioRefCases(t), manifestRefCases(t)...)
	all, steps := runRefCases(t, r, cases, builtinDefaults)
	data, err := os.ReadFile(knownServerMismatches)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			known[line] = true
		}
	}
	var got []string
	seen := map[string]bool{}
	fresh := 0
	for _, m := range all {
		seen[m.key()] = true
		got = append(got, m.key())
		if !known[m.key()] {
			fresh++
			t.Errorf("%s: %s: %s differs:\n%s", m.cas, m.step, m.what, m.detail)
		}
	}
	for k := range known {
		if !seen[k] {
			t.Errorf("listed in %s but no longer differs (remove it): %s", knownServerMismatches, k)
		}
	}
	if os.Getenv("STRUCTMERGE_REFERENCE_UPDATE") == "1" {
		sort.Strings(got)
		head := "# Steps on which structmerge differs from a kube-apiserver v1.37.2 today\n" +
			"# (TestRealServerDifferential; regenerate with STRUCTMERGE_REFERENCE_UPDATE=1).\n"
		if err := os.WriteFile(knownServerMismatches, []byte(head+strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d cases, %d steps: %d mismatches (%d listed as known, %d new)", len(cases), steps, len(all), len(all)-fresh, fresh)
}

// TestServiceAllocationExcuseNeedsProof shows that the filter excuses
// only what it can prove the server allocated.
func TestServiceAllocationExcuseNeedsProof(t *testing.T) {
	svc := func(spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "s"}, "spec": spec}
	}
	allocated := map[string]any{"clusterIP": "10.0.0.7", "clusterIPs": []any{"10.0.0.7"}, "ipFamilies": []any{"IPv4"}, "ipFamilyPolicy": "SingleStack", "type": "ClusterIP"}
	ours := svc(map[string]any{"type": "ClusterIP"})
	for _, tc := range []struct {
		name      string
		want, got map[string]any
		sent      map[string]any
		same      bool
	}{
		{"allocated", svc(allocated), ours, svc(map[string]any{}), true},
		{"outside the CIDR", svc(with(allocated, "clusterIP", "192.168.0.7", "clusterIPs", []any{"192.168.0.7"})), ours, svc(map[string]any{}), false},
		{"clusterIPs disagree", svc(with(allocated, "clusterIPs", []any{"10.0.0.8"})), ours, svc(map[string]any{}), false},
		{"another family", svc(with(allocated, "ipFamilies", []any{"IPv6"})), ours, svc(map[string]any{}), false},
		{"dual stack", svc(with(allocated, "ipFamilyPolicy", "PreferDualStack")), ours, svc(map[string]any{}), false},
		{"structmerge has another address", svc(allocated), svc(with(map[string]any{"type": "ClusterIP"}, "clusterIP", "10.0.0.9")), svc(map[string]any{}), false},
		{"the request set it", svc(allocated), ours, svc(map[string]any{"clusterIP": "10.0.0.7"}), false},
		{"another difference", svc(with(allocated, "type", "NodePort")), ours, svc(map[string]any{}), false},
		{"not a Service", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "spec": allocated}, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "spec": map[string]any{"type": "ClusterIP"}}, svc(map[string]any{}), false},
	} {
		got := excuseServiceAllocation(tc.want, tc.got, tc.sent, []netip.Prefix{netip.MustParsePrefix("10.0.0.0/24")})
		if same := cmp.Diff(tc.want, got) == ""; same != tc.same {
			t.Errorf("%s: excused: %v, want %v", tc.name, same, tc.same)
		}
	}
}

// conditionStampSkew is how far apart the server's and structmerge's
// clocks may stamp the same condition: both read the time of day during
// the same write.
const conditionStampSkew = 5 * time.Second

// alignConditionStamps excuses the times a registry strategy stamps on
// status conditions with the clock of the write (a CertificateSigningRequest's
// lastUpdateTime and lastTransitionTime, which its approval and status
// strategies set to now when the request leaves them out): where the
// request sent none, the server's and structmerge's condition of the same
// type both have one, and the two are at most conditionStampSkew apart,
// got takes the server's. Anything else stays a difference.
func alignConditionStamps(want, got, sent map[string]any) map[string]any {
	wc, _, _ := unstructured.NestedSlice(want, "status", "conditions")
	gc, _, _ := unstructured.NestedSlice(got, "status", "conditions")
	if len(wc) == 0 || len(wc) != len(gc) {
		return got
	}
	sc, _, _ := unstructured.NestedSlice(sent, "status", "conditions")
	sentStamp := func(typ any, f string) bool {
		for _, c := range sc {
			if cm, ok := c.(map[string]any); ok && cm["type"] == typ && cm[f] != nil {
				return true
			}
		}
		return false
	}
	out := cloneJSON(got)
	oc, _, _ := unstructured.NestedSlice(out, "status", "conditions")
	for i := range wc {
		w, ok1 := wc[i].(map[string]any)
		g, ok2 := oc[i].(map[string]any)
		if !ok1 || !ok2 || w["type"] != g["type"] {
			return got
		}
		for _, f := range []string{"lastUpdateTime", "lastTransitionTime"} {
			ws, ok1 := w[f].(string)
			gs, ok2 := g[f].(string)
			if !ok1 || !ok2 || sentStamp(w["type"], f) {
				continue
			}
			wt, err1 := time.Parse(time.RFC3339, ws)
			gt, err2 := time.Parse(time.RFC3339, gs)
			if err1 == nil && err2 == nil && wt.Sub(gt).Abs() <= conditionStampSkew {
				g[f] = ws
			}
		}
	}
	_ = unstructured.SetNestedSlice(out, oc, "status", "conditions")
	return out
}

// excuseCRDControllers excuses what the API server's own controllers of
// CustomResourceDefinitions (names and establishing) write to a CRD's
// status while a write of it is in flight: the server's storage retries
// the write on the object they updated, so its answer may carry their
// status. The proof is in the server's answer: a managedFields entry of
// manager kube-apiserver, an Update of the status subresource, that owns
// status.acceptedNames and status.conditions. That entry goes, and those
// two fields take structmerge's values; nothing else is touched.
func excuseCRDControllers(want, got map[string]any) map[string]any {
	if want["kind"] != "CustomResourceDefinition" || want["apiVersion"] != "apiextensions.k8s.io/v1" {
		return want
	}
	mf, _, _ := unstructured.NestedSlice(want, "metadata", "managedFields")
	var keep []any
	proven := false
	for _, e := range mf {
		em, _ := e.(map[string]any)
		owned, _, _ := unstructured.NestedMap(em, "fieldsV1", "f:status")
		if em["manager"] == "kube-apiserver" && em["operation"] == "Update" && em["subresource"] == "status" && len(owned) > 0 {
			ok := true
			for k := range owned {
				if k != "f:acceptedNames" && k != "f:conditions" {
					ok = false
				}
			}
			if ok && !proven {
				proven = true
				continue
			}
		}
		keep = append(keep, e)
	}
	if !proven {
		return want
	}
	out := cloneJSON(want)
	_ = unstructured.SetNestedSlice(out, cloneJSON(map[string]any{"l": keep})["l"].([]any), "metadata", "managedFields")
	for _, f := range []string{"acceptedNames", "conditions"} {
		if v, ok, _ := unstructured.NestedFieldCopy(got, "status", f); ok {
			_ = unstructured.SetNestedField(out, v, "status", f)
		} else {
			unstructured.RemoveNestedField(out, "status", f)
		}
	}
	return out
}

// TestCRDControllersExcuseNeedsProof shows that the CRD controllers'
// status is excused only with the server's entry that proves it, and only
// that status.
func TestCRDControllersExcuseNeedsProof(t *testing.T) {
	entry := func(manager, sub string, owned map[string]any) map[string]any {
		return map[string]any{"manager": manager, "operation": "Update", "subresource": sub, "fieldsV1": map[string]any{"f:status": owned}}
	}
	controllers := map[string]any{"f:acceptedNames": map[string]any{}, "f:conditions": map[string]any{}}
	crd := func(status map[string]any, entries ...any) map[string]any {
		return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": "ws.example.com", "managedFields": append([]any{map[string]any{"manager": "kubectl", "operation": "Apply"}}, entries...)},
			"status":   status}
	}
	accepted := map[string]any{"acceptedNames": map[string]any{"kind": "W"}, "conditions": []any{map[string]any{"type": "Established"}}, "storedVersions": []any{"v1"}}
	empty := map[string]any{"acceptedNames": map[string]any{"kind": ""}, "storedVersions": []any{"v1"}}
	ours := crd(empty)
	for _, tc := range []struct {
		name string
		want map[string]any
		same bool
	}{
		{"the controllers' status, proven", crd(accepted, entry("kube-apiserver", "status", controllers)), true},
		{"no entry", crd(accepted), false},
		{"another manager", crd(accepted, entry("someone", "status", controllers)), false},
		{"the main resource", crd(accepted, entry("kube-apiserver", "", controllers)), false},
		{"the entry owns more", crd(accepted, entry("kube-apiserver", "status", map[string]any{"f:acceptedNames": map[string]any{}, "f:storedVersions": map[string]any{}})), false},
		{"another difference", crd(map[string]any{"acceptedNames": map[string]any{"kind": "W"}, "storedVersions": []any{"v2"}}, entry("kube-apiserver", "status", controllers)), false},
	} {
		if same := cmp.Diff(excuseCRDControllers(tc.want, ours), ours) == ""; same != tc.same {
			t.Errorf("%s: excused: %v, want %v", tc.name, same, tc.same)
		}
	}
}

// TestConditionStampExcuseNeedsProof shows that only a stamp the request
// did not send, present on both sides and within the skew, is excused.
func TestConditionStampExcuseNeedsProof(t *testing.T) {
	csr := func(conds ...any) map[string]any {
		return map[string]any{"kind": "CertificateSigningRequest", "status": map[string]any{"conditions": conds}}
	}
	cond := func(typ, stamp string) map[string]any {
		c := map[string]any{"type": typ, "status": "True"}
		if stamp != "" {
			c["lastUpdateTime"] = stamp
		}
		return c
	}
	now := "2026-12-04T12:00:00Z"
	for _, tc := range []struct {
		name            string
		want, got, sent map[string]any
		same            bool
	}{
		{"same second", csr(cond("Approved", now)), csr(cond("Approved", now)), csr(cond("Approved", "")), true},
		{"a second apart", csr(cond("Approved", now)), csr(cond("Approved", "2026-12-04T12:00:01Z")), csr(cond("Approved", "")), true},
		{"an hour apart", csr(cond("Approved", now)), csr(cond("Approved", "2026-12-04T13:00:00Z")), csr(cond("Approved", "")), false},
		{"structmerge stamps none", csr(cond("Approved", now)), csr(cond("Approved", "")), csr(cond("Approved", "")), false},
		{"the request sent it", csr(cond("Approved", now)), csr(cond("Approved", "2026-12-04T12:00:01Z")), csr(cond("Approved", "2026-12-04T12:00:01Z")), false},
		{"another condition", csr(cond("Approved", now)), csr(cond("Denied", "2026-12-04T12:00:01Z")), csr(), false},
		{"another count", csr(cond("Approved", now)), csr(cond("Approved", now), cond("Failed", now)), csr(), false},
	} {
		got := alignConditionStamps(tc.want, tc.got, tc.sent)
		if same := cmp.Diff(tc.want, got) == ""; same != tc.same {
			t.Errorf("%s: excused: %v, want %v", tc.name, same, tc.same)
		}
	}
}

// with returns a copy of m with the given fields set.
func with(m map[string]any, kv ...any) map[string]any {
	out := cloneJSON(m)
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return cloneJSON(out)
}

// TestRealServerDifferentialDetectsFaults injects a fault into
// structmerge's side (a defaulter that also sets a label) and checks that
// the differential reports every step of every case it runs.
func TestRealServerDifferentialDetectsFaults(t *testing.T) {
	r := newRefServer(t)
	faulty := kube.ChainDefaulters(builtinDefaults, kube.DefaulterFunc(func(obj value.Value) (value.Value, error) {
		u, ok := obj.Unstructured().(map[string]any)
		if !ok {
			return obj, nil
		}
		unstructured.SetNestedField(u, "yes", "metadata", "labels", "injected-fault")
		return value.FromUnstructured(u)
	}))
	var cases []refCase
	for _, c := range manifestRefCases(t) {
		if strings.HasPrefix(c.name, "examples/deployment.yaml") || strings.HasPrefix(c.name, "examples/service.yaml") {
			cases = append(cases, c)
		}
	}
	if len(cases) != 4 {
		t.Fatalf("found %d cases of examples/deployment.yaml and service.yaml, want 4", len(cases))
	}
	all, steps := runRefCases(t, r, cases, faulty)
	caught := 0
	for _, m := range all {
		if m.what == "object" && strings.Contains(m.detail, "injected-fault") {
			caught++
		}
	}
	if caught != steps {
		t.Errorf("the injected fault was caught on %d of %d steps", caught, steps)
	}
}

// TestRealServerLiveHistory replays the histories of examples/live
// (testdata/live-history.yaml) on the reference server, one second apart
// so that the server's clock orders the managedFields entries as the
// history does, and compares what the server stores with the files: their
// objects and managedFields are the server's.
func TestRealServerLiveHistory(t *testing.T) {
	r := newRefServer(t)
	ctx := context.Background()
	data, err := os.ReadFile("../testdata/live-history.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var histories []struct {
		File   string `json:"file"`
		Writes []struct {
			Op          string         `json:"op"`
			Manager     string         `json:"manager"`
			Subresource string         `json:"subresource"`
			At          string         `json:"at"`
			Object      map[string]any `json:"object"`
		} `json:"writes"`
	}
	if err := yaml.UnmarshalStrict(data, &histories); err != nil {
		t.Fatal(err)
	}
	if len(histories) == 0 {
		t.Fatal("no history")
	}
	run := strconv.FormatInt(time.Now().UnixNano()%(36*36*36*36*36), 36)
	for i, h := range histories {
		t.Run(h.File, func(t *testing.T) {
			ns := fmt.Sprintf("live%d-%s", i, run)
			if err := r.ensureNamespace(ctx, ns); err != nil {
				t.Fatal(err)
			}
			var target *unstructured.Unstructured
			var stored map[string]any
			for j, w := range h.Writes {
				if j > 0 {
					time.Sleep(1100 * time.Millisecond)
				}
				obj := cloneJSON(w.Object)
				u := &unstructured.Unstructured{Object: obj}
				u.SetNamespace(ns)
				if target == nil {
					target = u
				}
				if w.Subresource == "status" {
					// The status subresource takes the whole object.
					whole := cloneJSON(stored)
					whole["status"] = obj["status"]
					obj = whole
				}
				got, err := r.do(ctx, refOp{op: w.Op, manager: w.Manager, subresource: w.Subresource, object: obj}, target)
				if err != nil {
					t.Fatalf("write %d (%s by %s): %v", j+1, w.Op, w.Manager, err)
				}
				stored = got
			}
			data, err := os.ReadFile(filepath.Join("..", "examples", "live", h.File))
			if err != nil {
				t.Fatal(err)
			}
			var file map[string]any
			if err := yaml.Unmarshal(data, &file); err != nil {
				t.Fatal(err)
			}
			(&unstructured.Unstructured{Object: file}).SetNamespace(ns)
			cidrs, err := r.serviceCIDRs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			file = excuseServiceAllocation(stored, file, map[string]any{}, cidrs)
			if d := cmp.Diff(withoutServerAssigned(stored), withoutServerAssigned(file)); d != "" {
				t.Errorf("examples/live/%s is not what the server stores after its history (-server +file):\n%s", h.File, d)
			}
		})
	}
}

// TestRealServerRandom replays the seeded random program of
// TestKubernetesRandomDifferential (applies, force applies, updates,
// status and scale writes and field removals, over built-in kinds and a
// custom resource with status and scale subresources) on the reference
// server and on kube.Server, drawing each write from the object the
// server stores. It runs with $STRUCTMERGE_REFERENCE_RANDOM cases (none
// when unset; scripts/server-differential.sh, which CI runs, sets 600);
// the seed is -kube-seed or $KUBE_SEED, printed. Every
// mismatch fails it; a summary groups them by their first difference.
func TestRealServerRandom(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("STRUCTMERGE_REFERENCE_RANDOM"))
	first, _ := strconv.Atoi(os.Getenv("STRUCTMERGE_REFERENCE_RANDOM_FROM"))
	if n <= 0 {
		t.Skip("$STRUCTMERGE_REFERENCE_RANDOM (a number of cases) is not set")
	}
	r := newRefServer(t)
	seed := kubeSeed(t)
	crd, err := os.ReadFile(filepath.Join(scenarioRoot, "kubernetes", "crds", "widget.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	widgetCRD := []scenario.Source{{File: "widget.yaml", Text: crd}}
	parse := func(texts []string) []map[string]any {
		var out []map[string]any
		for _, s := range texts {
			v, err := value.FromYAML([]byte(s))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v.Unstructured().(map[string]any))
		}
		return out
	}
	builtins, widgets := parse(randomManifests), parse([]string{widgetManifest})
	var cases []refCase
	for c := first; c < first+n; c++ {
		g := &kubeGen{r: rand.New(rand.NewPCG(seed, uint64(c)))}
		rc := refCase{name: fmt.Sprintf("random case %d", c)}
		manifests := builtins
		if c%10 == 9 {
			// One case in ten on the custom resource.
			manifests, rc.crds = widgets, widgetCRD
		}
		manifest := manifests[g.r.IntN(len(manifests))]
		steps := 1 + g.r.IntN(6)
		rc.next = func(i int, live map[string]any) (refOp, bool) {
			if i >= steps {
				return refOp{}, false
			}
			op := g.op(manifest, live)
			if op.Manager == "" {
				// A request without a manager is named after the
				// client's user agent, which a test cannot share.
				op.Manager = "unnamed"
			}
			return refOp{op: op.Op, manager: op.Manager, subresource: op.Subresource, object: op.Object.(map[string]any)}, true
		}
		cases = append(cases, rc)
	}
	t.Logf("seed %#x, %d cases (rerun with KUBE_SEED=%#x)", seed, n, seed)
	all, steps := runRefCases(t, r, cases, builtinDefaults)
	groups := map[string]int{}
	example := map[string]refMismatch{}
	for _, m := range all {
		sig := m.what
		for _, line := range strings.Split(m.detail, "\n") {
			if l := strings.TrimSpace(strings.ReplaceAll(line, "\u00a0", " ")); strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") || strings.HasPrefix(l, "server:") {
				sig += ": " + l
				break
			}
		}
		if len(sig) > 140 {
			sig = sig[:140]
		}
		groups[sig]++
		if _, ok := example[sig]; !ok {
			example[sig] = m
		}
	}
	for _, sig := range sortedKeys(anyMap(groups)) {
		m := example[sig]
		t.Logf("%5d %s\n      first: %s, %s", groups[sig], sig, m.cas, m.step)
		if os.Getenv("STRUCTMERGE_REFERENCE_RANDOM_DETAIL") != "" {
			t.Logf("%s", m.detail)
		}
	}
	t.Logf("%d cases, %d writes: %d mismatches", n, steps, len(all))
	if len(all) > 0 {
		t.Errorf("%d of %d writes differ from the server", len(all), steps)
	}
}

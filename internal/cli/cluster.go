package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

// clusterFlags are kubectl's flags for a cluster to read live objects
// from. The command reads a cluster only when --kubeconfig or --context is
// given; the kubeconfig is then found as kubectl finds it (--kubeconfig,
// else $KUBECONFIG, else ~/.kube/config).
type clusterFlags struct {
	kubeconfig, context, namespace string
}

func (c *clusterFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&c.kubeconfig, "kubeconfig", "", "read the live objects from the cluster of this kubeconfig (with GET only; nothing is written)")
	cmd.Flags().StringVar(&c.context, "context", "", "read the live objects from the cluster of this kubeconfig context (with GET only; nothing is written)")
	cmd.Flags().StringVarP(&c.namespace, "namespace", "n", "", "with --kubeconfig or --context: the namespace of manifests that name none (default: the context's)")
}

// enabled reports whether the live objects come from a cluster.
func (c *clusterFlags) enabled() bool { return c.kubeconfig != "" || c.context != "" }

// clusterReadConcurrency bounds the GET requests in flight.
const clusterReadConcurrency = 8

// cluster is a read-only client of the cluster the flags name.
type cluster struct {
	name      string    // the context, for messages
	namespace string    // of manifests without one
	progress  io.Writer // where a progress line goes (a terminal only), or nil
	dyn       dynamic.Interface
	mapper    meta.RESTMapper
}

func (c *clusterFlags) connect(progress io.Writer) (*cluster, error) {
	// client-go logs what it retries through klog; the command reports
	// what failed in its own words.
	klog.SetLogger(logr.Discard())
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = c.kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: c.context}
	if c.namespace != "" {
		overrides.Context.Namespace = c.namespace
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, badf("--kubeconfig/--context: %v", err)
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, badf("--kubeconfig/--context: %v", err)
	}
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, badf("--kubeconfig/--context: %v", err)
	}
	name := c.context
	if name == "" {
		name = raw.CurrentContext
	}
	cfg = rest.CopyConfig(cfg)
	cfg.UserAgent = "structmerge"
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, badf("context %s: %v", name, err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, badf("context %s: %v", name, err)
	}
	return &cluster{
		progress:  progress,
		name:      name,
		namespace: ns,
		dyn:       dyn,
		mapper:    restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc)),
	}, nil
}

// live reads the live object of each manifest with one GET (none: the
// manifest creates it), and the CustomResourceDefinitions of the custom
// resources among them. A manifest of a namespaced kind without a
// namespace gets the context's, as kubectl sends it. Only get is used.
func (c *cluster) live(ctx context.Context, manifests []object, builtin kube.TypeResolver) ([]object, []scenario.Source, error) {
	return c.read(ctx, manifests, builtin, true)
}

// progressOver is the number of objects above which reading them shows a
// progress line on a terminal.
const progressOver = 30

// read is live, and reads the CRDs only when withCRDs is set.
func (c *cluster) read(ctx context.Context, manifests []object, builtin kube.TypeResolver, withCRDs bool) ([]object, []scenario.Source, error) {
	type job struct {
		i       int
		mapping *meta.RESTMapping
	}
	jobs := make([]job, 0, len(manifests))
	crds := map[string]bool{}
	for i := range manifests {
		o := &manifests[i]
		gvk := o.gvk()
		if gvk.Kind == "Scale" && gvk.Group == "autoscaling" {
			return nil, nil, badf("%s: a Scale is read from its object's scale subresource, which structmerge does not read from a cluster yet; give the object with --live", o.where())
		}
		m, err := c.mapper.RESTMapping(schema.GroupKind{Group: gvk.Group, Kind: gvk.Kind}, gvk.Version)
		if err != nil {
			if meta.IsNoMatchError(err) {
				return nil, nil, badf("%s: the cluster of context %s does not serve %s", o.where(), c.name, gvk)
			}
			return nil, nil, badf("%s: finding %s on the cluster of context %s: %v", o.where(), gvk, c.name, err)
		}
		if m.Scope.Name() == meta.RESTScopeNameNamespace && o.namespace() == "" {
			md, _ := o.Value.Get("metadata")
			if md.Kind() != value.Map {
				md = value.NewMap(nil)
			}
			o.Value = withField(o.Value, "metadata", withField(md, "namespace", value.NewString(c.namespace)))
		}
		if _, ok := builtin.ResolveType(gvk); !ok && withCRDs {
			crds[m.Resource.Resource+"."+m.Resource.Group] = true
		}
		jobs = append(jobs, job{i, m})
	}
	got := make([]*object, len(manifests))
	errs := make([]error, len(manifests))
	var done atomic.Int64
	progress := func() {}
	if c.progress != nil && isTerminal(c.progress) && len(jobs) > progressOver {
		var mu sync.Mutex
		progress = func() {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(c.progress, "\rreading the live objects from context %s: %d/%d", c.name, done.Add(1), len(jobs))
		}
		defer fmt.Fprint(c.progress, "\r\033[K")
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, clusterReadConcurrency)
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; progress(); wg.Done() }()
			o := manifests[j.i]
			var ri dynamic.ResourceInterface = c.dyn.Resource(j.mapping.Resource)
			if j.mapping.Scope.Name() == meta.RESTScopeNameNamespace {
				ri = c.dyn.Resource(j.mapping.Resource).Namespace(o.namespace())
			}
			u, err := ri.Get(ctx, o.name(), metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
				return
			case err != nil:
				errs[j.i] = c.readError(o.where()+": reading "+o.resource(), err)
				return
			}
			v, err := value.FromUnstructured(u.Object)
			if err != nil {
				errs[j.i] = badf("%s: %s from the cluster: %v", o.where(), o.resource(), err)
				return
			}
			got[j.i] = &object{Value: v, File: "cluster " + c.name}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	var live []object
	for _, o := range got {
		if o != nil {
			live = append(live, *o)
		}
	}
	var srcs []scenario.Source
	crdResource := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	for _, name := range slices.Sorted(maps.Keys(crds)) {
		u, err := c.dyn.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, nil, c.readError("reading the CustomResourceDefinition "+name+" (structmerge needs get on customresourcedefinitions for the schema of custom resources)", err)
		}
		data, err := yaml.Marshal(u.Object)
		if err != nil {
			return nil, nil, badf("the CustomResourceDefinition %s: %v", name, err)
		}
		srcs = append(srcs, scenario.Source{File: "cluster " + c.name + ": CustomResourceDefinition " + name, Text: data})
	}
	return live, srcs, nil
}

// readError words a failed read, saying so when the credentials lack the
// permission.
func (c *cluster) readError(what string, err error) error {
	if apierrors.IsForbidden(err) {
		return badf("%s: forbidden (the credentials of context %s may not get it): %v", what, c.name, err)
	}
	return badf("%s: %v", what, strings.TrimSpace(err.Error()))
}

// liveObjects returns, for blame and owners, the live object of each of
// objs on the cluster the flags name, in the same order. An object the
// cluster does not have is an error.
func (c *clusterFlags) liveObjects(cmd *cobra.Command, objs []object) ([]object, error) {
	cl, err := c.connect(cmd.ErrOrStderr())
	if err != nil {
		return nil, err
	}
	live, _, err := cl.read(cmd.Context(), objs, kube.BuiltinTypes(), false)
	if err != nil {
		return nil, err
	}
	out := make([]object, 0, len(objs))
	for _, o := range objs {
		l, ok := findLive(live, o)
		if !ok {
			return nil, badf("%s: %s does not exist on the cluster of context %s", o.where(), o.resource(), cl.name)
		}
		out = append(out, l)
	}
	return out, nil
}

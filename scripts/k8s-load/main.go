// Command k8s-load is a server-side apply load generator for a real
// kube-apiserver: it measures how fast the server answers applies, and how
// much CPU it spends on them, so that a server built on structured-merge-diff
// and one built on structmerge's drop-in can be compared under the same
// load (scripts/k8s-load.sh).
//
// It applies (client-go's typed Apply, field manager "load", Force) N
// objects into a namespace of their own, half Deployments (two containers,
// ports, env, resources, labels), half ConfigMaps (a dozen keys), without
// measuring; then G goroutines re-apply them, each taking the next object
// in turn, for a while (-duration) or a number of rounds over all objects
// (-rounds):
//
//	noop    the same configuration each time: nothing changes, the server
//	        writes nothing
//	change  each apply changes one value (an env value of the Deployment's
//	        first container, a key of the ConfigMap): the server writes
//
// It prints the requests, requests per second and the latency percentiles
// of the measured phase, and, given the server's pid (-server-pid), the
// CPU time the server process used in it (utime+stime of /proc/PID/stat)
// per 1,000 requests. The last line is for scripts:
//
//	result mode=noop requests=N rps=R p50_ms=A p99_ms=B cpu_s=C cpu_s_per_1000=D errors=E
//
// Usage:
//
//	cd scripts/k8s-load && go run . -kubeconfig DIR/kubeconfig \
//	    -server-pid $(cat DIR/kube-apiserver.pid) -mode change -duration 30s
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat: 100
// on every Linux architecture Go runs on (the kernel's ABI, whatever its
// internal HZ).
const clockTicks = 100

type config struct {
	kubeconfig, context, namespace, mode string
	objects, workers, rounds             int
	duration                             time.Duration
	serverPID                            int
	setup                                bool
}

func main() {
	var c config
	flag.StringVar(&c.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig of the server")
	flag.StringVar(&c.context, "context", "", "kubeconfig context (default: the current one)")
	flag.StringVar(&c.namespace, "namespace", "load", "namespace of the objects (applied too)")
	flag.IntVar(&c.objects, "objects", 1000, "objects: half Deployments, half ConfigMaps")
	flag.IntVar(&c.workers, "workers", 8, "goroutines applying at once")
	flag.StringVar(&c.mode, "mode", "noop", "noop (re-apply the same configuration) or change (change a value each time)")
	flag.DurationVar(&c.duration, "duration", 30*time.Second, "length of the measured phase")
	flag.IntVar(&c.rounds, "rounds", 0, "if above 0, apply each object this many times instead of -duration")
	flag.IntVar(&c.serverPID, "server-pid", 0, "pid of kube-apiserver, to measure its CPU time (0: not measured)")
	flag.BoolVar(&c.setup, "setup", true, "apply the namespace and the objects before the measured phase")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "k8s-load:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	if c.mode != "noop" && c.mode != "change" {
		return fmt.Errorf("-mode must be noop or change, not %q", c.mode)
	}
	if c.objects < 2 || c.workers < 1 {
		return errors.New("-objects must be at least 2 and -workers at least 1")
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = c.kubeconfig
	rc, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules,
		&clientcmd.ConfigOverrides{CurrentContext: c.context}).ClientConfig()
	if err != nil {
		return err
	}
	// High enough that client-go's rate limiter never waits: the server
	// sets the pace. Answers in protobuf, as controllers read them (an
	// apply itself is always sent as JSON).
	rc.QPS, rc.Burst = 5000, 5000
	rc.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	rc.ContentType = "application/vnd.kubernetes.protobuf"
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return err
	}
	ctx := context.Background()
	l := &load{cs: cs, ns: c.namespace, n: c.objects}

	if c.setup {
		start := time.Now()
		if _, err := cs.CoreV1().Namespaces().Apply(ctx, corev1ac.Namespace(c.namespace), l.opts()); err != nil {
			return fmt.Errorf("applying namespace %s: %w", c.namespace, err)
		}
		var next atomic.Int64
		if err := parallel(c.workers, func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= c.objects {
					return nil
				}
				if err := l.apply(ctx, i, 0); err != nil {
					return err
				}
			}
		}); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
		fmt.Printf("setup: %d objects applied in %s\n", c.objects, time.Since(start).Round(time.Millisecond))
	}

	// The measured phase. seq numbers the applies (from 1, so that a change
	// always differs from the setup's value 0).
	var seq atomic.Int64
	total := int64(c.rounds) * int64(c.objects)
	lat := make([][]time.Duration, c.workers)
	errs := make([]int, c.workers)
	var firstErr atomic.Value
	cpu0, err := cpuSeconds(c.serverPID)
	if err != nil {
		return err
	}
	start := time.Now()
	deadline := start.Add(c.duration)
	var wg sync.WaitGroup
	for w := 0; w < c.workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				s := seq.Add(1)
				if total > 0 && s > total || total == 0 && !time.Now().Before(deadline) {
					return
				}
				value := int64(0)
				if c.mode == "change" {
					value = s
				}
				t := time.Now()
				err := l.apply(ctx, int((s-1)%int64(c.objects)), value)
				lat[w] = append(lat[w], time.Since(t))
				if err != nil {
					errs[w]++
					firstErr.CompareAndSwap(nil, err)
				}
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, err := cpuSeconds(c.serverPID)
	if err != nil {
		return err
	}

	var all []time.Duration
	nerr := 0
	for w := range lat {
		all = append(all, lat[w]...)
		nerr += errs[w]
	}
	if len(all) == 0 {
		return errors.New("no request was made")
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) float64 {
		return float64(all[int(p*float64(len(all)-1))]) / float64(time.Millisecond)
	}
	rps := float64(len(all)) / elapsed.Seconds()
	cpu := cpu1 - cpu0
	fmt.Printf("%s: %d requests in %s, %.0f req/s, p50 %.2f ms, p99 %.2f ms, %d errors\n",
		c.mode, len(all), elapsed.Round(time.Millisecond), rps, pct(0.50), pct(0.99), nerr)
	perK := "-"
	if c.serverPID != 0 {
		perK = strconv.FormatFloat(cpu/float64(len(all))*1000, 'f', 2, 64)
		fmt.Printf("%s: server CPU %.2f s (%.2f cores), %s s per 1,000 requests\n",
			c.mode, cpu, cpu/elapsed.Seconds(), perK)
	}
	fmt.Printf("result mode=%s requests=%d rps=%.1f p50_ms=%.3f p99_ms=%.3f cpu_s=%.2f cpu_s_per_1000=%s errors=%d\n",
		c.mode, len(all), rps, pct(0.50), pct(0.99), cpu, perK, nerr)
	if nerr > 0 {
		return fmt.Errorf("%d of %d requests failed, the first: %v", nerr, len(all), firstErr.Load())
	}
	return nil
}

// parallel runs f in g goroutines and returns the first error.
func parallel(g int, f func() error) error {
	errs := make(chan error, g)
	for i := 0; i < g; i++ {
		go func() { errs <- f() }()
	}
	var first error
	for i := 0; i < g; i++ {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// cpuSeconds is the user and system CPU time of process pid, in seconds (0
// when pid is 0).
func cpuSeconds(pid int) (float64, error) {
	if pid == 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// the fields are counted from the last ')', which ends it.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	// f[0] is field 3 (state): utime is field 14, stime field 15.
	utime, err1 := strconv.ParseUint(f[11], 10, 64)
	stime, err2 := strconv.ParseUint(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return float64(utime+stime) / clockTicks, nil
}

type load struct {
	cs *kubernetes.Clientset
	ns string
	n  int
}

func (l *load) opts() metav1.ApplyOptions {
	// Force: a field another manager took is taken back rather than failing
	// the run (with only "load" applying there is no conflict).
	return metav1.ApplyOptions{FieldManager: "load", Force: true}
}

// apply applies object i (even: a Deployment, odd: a ConfigMap) with the
// changing value v.
func (l *load) apply(ctx context.Context, i int, v int64) error {
	var err error
	if i%2 == 0 {
		_, err = l.cs.AppsV1().Deployments(l.ns).Apply(ctx, deployment(l.ns, i, v), l.opts())
	} else {
		_, err = l.cs.CoreV1().ConfigMaps(l.ns).Apply(ctx, configMap(l.ns, i, v), l.opts())
	}
	return err
}

func deployment(ns string, i int, v int64) *appsv1ac.DeploymentApplyConfiguration {
	name := fmt.Sprintf("web-%04d", i)
	labels := map[string]string{"app": name, "tier": "frontend", "team": "load", "app.kubernetes.io/part-of": "k8s-load"}
	res := func(cpu, mem string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}
	}
	return appsv1ac.Deployment(name, ns).
		WithLabels(labels).
		WithAnnotations(map[string]string{"k8s-load/owner": "structmerge"}).
		WithSpec(appsv1ac.DeploymentSpec().
			WithReplicas(3).
			WithSelector(metav1ac.LabelSelector().WithMatchLabels(map[string]string{"app": name})).
			WithTemplate(corev1ac.PodTemplateSpec().
				WithLabels(labels).
				WithSpec(corev1ac.PodSpec().WithContainers(
					corev1ac.Container().
						WithName("web").
						WithImage("registry.k8s.io/e2e-test-images/agnhost:2.53").
						WithArgs("netexec", "--http-port=8080").
						WithPorts(
							corev1ac.ContainerPort().WithName("http").WithContainerPort(8080).WithProtocol(corev1.ProtocolTCP),
							corev1ac.ContainerPort().WithName("metrics").WithContainerPort(9090).WithProtocol(corev1.ProtocolTCP)).
						WithEnv(
							corev1ac.EnvVar().WithName("LOG_LEVEL").WithValue("info"),
							corev1ac.EnvVar().WithName("CACHE_SIZE").WithValue("256"),
							corev1ac.EnvVar().WithName("FEATURES").WithValue("a,b,c"),
							corev1ac.EnvVar().WithName("REVISION").WithValue(strconv.FormatInt(v, 10))).
						WithResources(corev1ac.ResourceRequirements().
							WithRequests(res("100m", "128Mi")).
							WithLimits(res("500m", "512Mi"))).
						WithReadinessProbe(corev1ac.Probe().
							WithHTTPGet(corev1ac.HTTPGetAction().WithPath("/healthz").WithPort(intstr.FromString("http"))).
							WithPeriodSeconds(5)),
					corev1ac.Container().
						WithName("sidecar").
						WithImage("registry.k8s.io/e2e-test-images/busybox:1.36.1-1").
						WithCommand("sh", "-c", "while true; do sleep 3600; done").
						WithPorts(corev1ac.ContainerPort().WithName("admin").WithContainerPort(9901).WithProtocol(corev1.ProtocolTCP)).
						WithEnv(
							corev1ac.EnvVar().WithName("UPSTREAM").WithValue("127.0.0.1:8080"),
							corev1ac.EnvVar().WithName("MODE").WithValue("proxy")).
						WithResources(corev1ac.ResourceRequirements().
							WithRequests(res("50m", "64Mi")).
							WithLimits(res("200m", "128Mi")))))))
}

func configMap(ns string, i int, v int64) *corev1ac.ConfigMapApplyConfiguration {
	data := map[string]string{"revision": strconv.FormatInt(v, 10)}
	for k := 1; k < 12; k++ {
		data[fmt.Sprintf("key-%02d", k)] = fmt.Sprintf("value %d of config %d: %s", k, i, strings.Repeat("x", 16+k))
	}
	return corev1ac.ConfigMap(fmt.Sprintf("config-%04d", i), ns).
		WithLabels(map[string]string{"app": fmt.Sprintf("web-%04d", i-1), "app.kubernetes.io/part-of": "k8s-load"}).
		WithData(data)
}

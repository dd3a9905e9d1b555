package stress_test

// The volume-binding-rescheduling simulation: the workload whose busy,
// race-enabled integration test caught a data race in the system structmerge
// replaces. A scheduler, a persistent-volume controller, an attach/detach
// controller, a kubelet and kubectl write Pods, PersistentVolumeClaims,
// PersistentVolumes, VolumeAttachments and Nodes through one shared
// kube.FieldManager (and so one shared built-in schema), from many
// goroutines at once, while an in-memory API server store serialises the
// writes to each object with a compare-and-swap on its resourceVersion.
//
// The plan is a list of operations, each with a step number. Operations
// on one object run in step order; operations on one object with the same
// step touch disjoint fields under different manager identities, so they
// commute; operations on different objects always commute, because each
// operation reads only its own object. So the final objects, managedFields
// included (the clock is fixed), must be exactly those of running the plan
// serially in a fixed order, whatever the interleaving was.

import (
	"cmp"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/value"
)

// Managers of the simulation.
const (
	vbScheduler   = "kube-scheduler"
	vbPVCtrl      = "persistentvolume-controller"
	vbAttachCtrl  = "attachdetach-controller"
	vbKubelet     = "kubelet"
	vbKubectl     = "kubectl"
	vbCSIDriver   = "csi.example.com"
	vbStatus      = "status"
	vbSelectedAnn = "volume.kubernetes.io/selected-node"
	vbBindAnn     = "pv.kubernetes.io/bind-completed"
	vbBoundByAnn  = "pv.kubernetes.io/bound-by-controller"
	vbAttachAnn   = "volumes.kubernetes.io/controller-managed-attach-detach"
)

type vbOpKind int

const (
	vbApply vbOpKind = iota
	vbUpdate
	vbDelete
)

// vbOp is one request of the plan.
type vbOp struct {
	step    int
	seq     int // position in the plan, for a stable serial order
	key     string
	manager string
	kind    vbOpKind
	sub     string
	force   bool
	config  value.Value                   // vbApply: the applied configuration
	mutate  func(value.Value) value.Value // vbUpdate: the new object, from live
	after   int                           // operations on key with a smaller step
}

// exec computes the object op writes over live, as the API server's
// handler does between reading the object and storing it.
func (o *vbOp) exec(fm *kube.FieldManager, live value.Value) (value.Value, error) {
	var opts []kube.RequestOption
	if o.sub != "" {
		opts = append(opts, kube.Subresource(o.sub))
	}
	if o.force {
		opts = append(opts, kube.Force())
	}
	var (
		next value.Value
		err  error
	)
	switch o.kind {
	case vbDelete:
		return value.Value{}, nil
	case vbApply:
		next, err = fm.Apply(live, o.config, o.manager, opts...)
	case vbUpdate:
		next, err = fm.Update(live, o.mutate(live), o.manager, opts...)
	}
	if err != nil {
		return value.Value{}, err
	}
	if !live.IsNull() {
		// What the storage strategy does after the field manager: a status
		// write keeps the live spec, a main write keeps the live status.
		gvk := kube.GVKOf(next)
		if fields, ok := builtin.ResetFields(gvk, o.sub)[gvk.APIVersion()]; ok {
			next = kube.ResetValues(next, live, fields)
		}
	}
	return next, nil
}

// vbRecord is one object of the store: its value and resourceVersion, and
// how many operations of the plan have been done on it.
type vbRecord struct {
	mu   sync.Mutex
	cond sync.Cond
	obj  value.Value
	rv   int
	done int
}

// vbStore is the API server's storage: a map of records built before the
// run and only read during it; each record has its own lock. The field
// manager runs outside every lock, on a snapshot of the live object; the
// write is a compare-and-swap on the resourceVersion read, retried with a
// fresh read when another writer got there first.
type vbStore struct {
	fm        *kube.FieldManager
	recs      map[string]*vbRecord
	conflicts atomic.Int64
}

func newVBStore(fm *kube.FieldManager, ops []*vbOp) *vbStore {
	s := &vbStore{fm: fm, recs: map[string]*vbRecord{}}
	for _, o := range ops {
		if s.recs[o.key] == nil {
			r := &vbRecord{}
			r.cond.L = &r.mu
			s.recs[o.key] = r
		}
	}
	return s
}

// do waits until every earlier-step operation on op's object is done, then
// writes op with a compare-and-swap retry loop. A failed operation still
// counts as done, so that nothing waits on it forever.
func (s *vbStore) do(o *vbOp) error {
	r := s.recs[o.key]
	r.mu.Lock()
	for r.done < o.after {
		r.cond.Wait()
	}
	r.mu.Unlock()
	for {
		r.mu.Lock()
		live, rv := r.obj, r.rv
		r.mu.Unlock()

		next, err := o.exec(s.fm, live)
		if err == nil && !next.IsNull() {
			next = vbSet(next, value.NewString(strconv.Itoa(rv+1)), "metadata", "resourceVersion")
		}

		r.mu.Lock()
		if r.rv != rv {
			r.mu.Unlock()
			s.conflicts.Add(1)
			continue
		}
		if err == nil {
			r.obj, r.rv = next, rv+1
		}
		r.done++
		r.cond.Broadcast()
		r.mu.Unlock()
		if err != nil {
			return fmt.Errorf("step %d: %s %s by %s (subresource %q): %w", o.step, vbKindName(o.kind), o.key, o.manager, o.sub, err)
		}
		return nil
	}
}

func vbKindName(k vbOpKind) string {
	return [...]string{"apply", "update", "delete"}[k]
}

// vbSet returns v with x at the path names, creating maps on the way.
func vbSet(v, x value.Value, names ...string) value.Value {
	if len(names) == 0 {
		return x
	}
	child, _ := v.Get(names[0])
	nv := vbSet(child, x, names[1:]...)
	fields := slices.Clone(own.Value.Fields(v))
	for i := range fields {
		if fields[i].Name == names[0] {
			fields[i].Value = nv
			return value.NewMap(fields)
		}
	}
	return value.NewMap(append(fields, value.Field{Name: names[0], Value: nv}))
}

// vbDel returns v without the field at the path names.
func vbDel(v value.Value, names ...string) value.Value {
	child, ok := v.Get(names[0])
	if !ok {
		return v
	}
	var fields []value.Field
	for _, f := range v.Fields() {
		switch {
		case f.Name != names[0]:
			fields = append(fields, f)
		case len(names) > 1:
			fields = append(fields, value.Field{Name: f.Name, Value: vbDel(child, names[1:]...)})
		}
	}
	return value.NewMap(fields)
}

// vbGet returns the string at the path names ("" when there is none).
func vbGet(v value.Value, names ...string) string {
	for _, n := range names {
		var ok bool
		if v, ok = v.Get(n); !ok {
			return ""
		}
	}
	return v.AsString()
}

func vbYAML(format string, args ...any) value.Value {
	v, err := value.FromYAML([]byte(fmt.Sprintf(format, args...)))
	if err != nil {
		panic(fmt.Sprintf("bad test YAML: %v\n%s", err, fmt.Sprintf(format, args...)))
	}
	return v
}

// vbParams sizes the simulation.
type vbParams struct {
	volumes int // pods, each with its own claim
	nodes   int
	rounds  int // reschedules after the first scheduling
}

func vbNames(i, g, node int) (pod, pvc, pv, va, nodeName string) {
	return fmt.Sprintf("pod-%03d", i), fmt.Sprintf("pvc-%03d", i), fmt.Sprintf("pv-%03d-%d", i, g),
		fmt.Sprintf("va-%03d-%d", i, g), fmt.Sprintf("node-%d", node)
}

// vbNode is the node volume i is scheduled on in generation g.
func vbNode(p vbParams, i, g int) int { return (i + g) % p.nodes }

func vbHandle(i, g int) string { return fmt.Sprintf("vol-%03d-%d", i, g) }

func vbPodConfig(i, round int) value.Value {
	pod, pvc, _, _, _ := vbNames(i, 0, 0)
	return vbYAML(`
apiVersion: v1
kind: Pod
metadata:
  name: %s
  namespace: default
  labels: {app: db, round: "%d"}
spec:
  containers:
  - name: db
    image: postgres:17
    ports: [{containerPort: 5432, protocol: TCP}]
    volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]
  volumes:
  - name: data
    persistentVolumeClaim: {claimName: %s}
`, pod, round, pvc)
}

func vbPVCConfig(i, round int) value.Value {
	_, pvc, _, _, _ := vbNames(i, 0, 0)
	return vbYAML(`
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: %s
  namespace: default
  labels: {app: db, round: "%d"}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: local-csi
  volumeMode: Filesystem
  resources: {requests: {storage: 10Gi}}
`, pvc, round)
}

func vbPVConfig(p vbParams, i, g int) value.Value {
	_, _, pv, _, node := vbNames(i, g, vbNode(p, i, g))
	return vbYAML(`
apiVersion: v1
kind: PersistentVolume
metadata:
  name: %s
  labels: {generation: "%d"}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: local-csi
  volumeMode: Filesystem
  csi: {driver: %s, volumeHandle: %s, fsType: ext4}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: kubernetes.io/hostname, operator: In, values: [%s]}
`, pv, g, vbCSIDriver, vbHandle(i, g), node)
}

// vbPlan writes the operations of the simulation. Step numbers order the
// operations on each object; operations on one object that share a step
// must commute (different manager identities, disjoint fields).
func vbPlan(p vbParams) []*vbOp {
	var ops []*vbOp
	add := func(step int, key, manager string, kind vbOpKind, sub string) *vbOp {
		o := &vbOp{step: step, seq: len(ops), key: key, manager: manager, kind: kind, sub: sub}
		ops = append(ops, o)
		return o
	}
	apply := func(step int, key, manager string, config value.Value) {
		add(step, key, manager, vbApply, "").config = config
	}
	update := func(step int, key, manager, sub string, mutate func(value.Value) value.Value) {
		add(step, key, manager, vbUpdate, sub).mutate = mutate
	}
	str := value.NewString

	// Setup: nodes registered by their kubelets, claims, pods and one
	// volume per generation created by kubectl (an administrator's static
	// provisioning of node-local CSI volumes).
	for k := 0; k < p.nodes; k++ {
		node := fmt.Sprintf("node-%d", k)
		key := "nodes/" + node
		obj := vbYAML(`
apiVersion: v1
kind: Node
metadata:
  name: %s
  labels: {kubernetes.io/hostname: %s, kubernetes.io/os: linux}
  annotations: {%s: "true"}
spec: {podCIDR: 10.0.%d.0/24}
`, node, node, vbAttachAnn, k)
		update(0, key, vbKubelet, "", func(value.Value) value.Value { return obj })
		update(1, key, vbKubelet, vbStatus, func(live value.Value) value.Value {
			return vbSet(live, vbYAML(`[{type: Ready, status: "True", reason: KubeletReady}]`), "status", "conditions")
		})
	}
	for i := 0; i < p.volumes; i++ {
		pod, pvc, _, _, _ := vbNames(i, 0, 0)
		apply(0, "pods/"+pod, vbKubectl, vbPodConfig(i, 0))
		apply(0, "pvcs/"+pvc, vbKubectl, vbPVCConfig(i, 0))
		update(1, "pvcs/"+pvc, vbPVCtrl, vbStatus, func(live value.Value) value.Value {
			return vbSet(live, str("Pending"), "status", "phase")
		})
		for g := 0; g <= p.rounds; g++ {
			_, _, pv, _, _ := vbNames(i, g, 0)
			apply(0, "pvs/"+pv, vbKubectl, vbPVConfig(p, i, g))
			update(1, "pvs/"+pv, vbPVCtrl, vbStatus, func(live value.Value) value.Value {
				return vbSet(live, str("Available"), "status", "phase")
			})
		}
	}

	step := 2
	for g := 0; g <= p.rounds; g++ {
		if g > 0 {
			// Unbind: the scheduler takes the pod off its node, the
			// attach/detach controller detaches the old volume, and the
			// persistent-volume controller releases it and the claim.
			for i := 0; i < p.volumes; i++ {
				pod, pvc, pv, va, _ := vbNames(i, g-1, 0)
				update(step, "pods/"+pod, vbScheduler, "", func(live value.Value) value.Value {
					return vbDel(live, "spec", "nodeName")
				})
				update(step, "pods/"+pod, vbScheduler, vbStatus, func(live value.Value) value.Value {
					return vbSet(live, vbYAML(`[{type: PodScheduled, status: "False", reason: Rescheduling}]`), "status", "conditions")
				})
				apply(step, "pods/"+pod, vbKubectl, vbPodConfig(i, g))
				update(step, "vas/"+va, vbAttachCtrl, vbStatus, func(live value.Value) value.Value {
					return vbSet(live, value.NewBool(false), "status", "attached")
				})
				add(step+1, "vas/"+va, vbAttachCtrl, vbDelete, "")
				update(step+1, "pvs/"+pv, vbPVCtrl, "", func(live value.Value) value.Value {
					return vbDel(vbDel(live, "spec", "claimRef"), "metadata", "annotations", vbBoundByAnn)
				})
				update(step+2, "pvs/"+pv, vbPVCtrl, vbStatus, func(live value.Value) value.Value {
					return vbSet(live, str("Released"), "status", "phase")
				})
				update(step+1, "pvcs/"+pvc, vbPVCtrl, "", func(live value.Value) value.Value {
					return vbDel(vbDel(live, "spec", "volumeName"), "metadata", "annotations", vbBindAnn)
				})
				update(step+1, "pvcs/"+pvc, vbPVCtrl, vbStatus, func(live value.Value) value.Value {
					return vbDel(vbDel(vbSet(live, str("Pending"), "status", "phase"), "status", "capacity"), "status", "accessModes")
				})
			}
			step += 3
		}
		// Bind: the scheduler picks the node of the volume of this
		// generation (delayed binding), the persistent-volume controller
		// binds claim and volume, the scheduler binds the pod, the
		// attach/detach controller attaches the volume.
		for i := 0; i < p.volumes; i++ {
			pod, pvc, pv, va, node := vbNames(i, g, vbNode(p, i, g))
			update(step, "pvcs/"+pvc, vbScheduler, "", func(live value.Value) value.Value {
				return vbSet(live, str(node), "metadata", "annotations", vbSelectedAnn)
			})
			apply(step, "pvcs/"+pvc, vbKubectl, vbPVCConfig(i, g))
			claimRef := vbYAML(`{apiVersion: v1, kind: PersistentVolumeClaim, namespace: default, name: %s, uid: uid-%s}`, pvc, pvc)
			update(step+1, "pvs/"+pv, vbPVCtrl, "", func(live value.Value) value.Value {
				return vbSet(vbSet(live, claimRef, "spec", "claimRef"), str("yes"), "metadata", "annotations", vbBoundByAnn)
			})
			update(step+2, "pvs/"+pv, vbPVCtrl, vbStatus, func(live value.Value) value.Value {
				return vbSet(live, str("Bound"), "status", "phase")
			})
			update(step+2, "pvcs/"+pvc, vbPVCtrl, "", func(live value.Value) value.Value {
				live = vbSet(live, str(pv), "spec", "volumeName")
				live = vbSet(live, str("yes"), "metadata", "annotations", vbBindAnn)
				return vbSet(live, str("yes"), "metadata", "annotations", vbBoundByAnn)
			})
			update(step+3, "pvcs/"+pvc, vbPVCtrl, vbStatus, func(live value.Value) value.Value {
				live = vbSet(live, str("Bound"), "status", "phase")
				live = vbSet(live, vbYAML(`[ReadWriteOnce]`), "status", "accessModes")
				return vbSet(live, vbYAML(`{storage: 10Gi}`), "status", "capacity")
			})
			update(step+4, "pods/"+pod, vbScheduler, "", func(live value.Value) value.Value {
				return vbSet(live, str(node), "spec", "nodeName")
			})
			update(step+4, "pods/"+pod, vbScheduler, vbStatus, func(live value.Value) value.Value {
				return vbSet(live, vbYAML(`[{type: PodScheduled, status: "True"}]`), "status", "conditions")
			})
			apply(step+5, "vas/"+va, vbAttachCtrl, vbYAML(`
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: %s}
spec:
  attacher: %s
  nodeName: %s
  source: {persistentVolumeName: %s}
`, va, vbCSIDriver, node, pv))
			update(step+6, "vas/"+va, vbAttachCtrl, vbStatus, func(live value.Value) value.Value {
				return vbSet(live, vbYAML(`{attached: true, attachmentMetadata: {devicePath: /dev/disk/by-id/%s}}`, vbHandle(i, g)), "status")
			})
		}
		// The nodes' status: what the attach/detach controller has
		// attached and what the kubelet uses, each list written whole.
		for k := 0; k < p.nodes; k++ {
			var attached, inUse []value.Value
			for i := 0; i < p.volumes; i++ {
				if vbNode(p, i, g) == k {
					name := "kubernetes.io/csi/" + vbCSIDriver + "^" + vbHandle(i, g)
					attached = append(attached, vbYAML(`{name: "%s", devicePath: ""}`, name))
					inUse = append(inUse, str(name))
				}
			}
			key := fmt.Sprintf("nodes/node-%d", k)
			update(step+7, key, vbAttachCtrl, vbStatus, func(live value.Value) value.Value {
				return vbSet(live, value.NewList(attached), "status", "volumesAttached")
			})
			update(step+7, key, vbKubelet, vbStatus, func(live value.Value) value.Value {
				return vbSet(live, value.NewList(inUse), "status", "volumesInUse")
			})
		}
		step += 8
	}

	// after: how many operations on the same object have a smaller step.
	byKey := map[string][]*vbOp{}
	for _, o := range ops {
		byKey[o.key] = append(byKey[o.key], o)
	}
	for _, o := range ops {
		for _, q := range byKey[o.key] {
			if q.step < o.step {
				o.after++
			}
		}
	}
	return ops
}

// vbSerial runs the plan on one goroutine, in the order (step, manager,
// object, position in the plan).
func vbSerial(t *testing.T, fm *kube.FieldManager, ops []*vbOp) *vbStore {
	t.Helper()
	sorted := slices.Clone(ops)
	slices.SortFunc(sorted, func(a, b *vbOp) int {
		return cmp.Or(cmp.Compare(a.step, b.step), strings.Compare(a.manager, b.manager),
			strings.Compare(a.key, b.key), cmp.Compare(a.seq, b.seq))
	})
	s := newVBStore(fm, ops)
	for _, o := range sorted {
		if err := s.do(o); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.conflicts.Load(); n != 0 {
		t.Fatalf("serial run: %d resourceVersion conflicts", n)
	}
	return s
}

// vbConcurrent runs the plan with workers goroutines per manager. Each
// manager works through its operations in step order, shuffled within a
// step; the store makes operations on one object wait for those of earlier
// steps. The pending operation of the smallest step can always run, so
// this cannot deadlock.
func vbConcurrent(t *testing.T, fm *kube.FieldManager, ops []*vbOp, workers int, rng *rand.Rand) *vbStore {
	t.Helper()
	queues := map[string][]*vbOp{}
	var managers []string
	for _, o := range ops {
		if queues[o.manager] == nil {
			managers = append(managers, o.manager)
		}
		queues[o.manager] = append(queues[o.manager], o)
	}
	for _, m := range managers {
		q := queues[m]
		rng.Shuffle(len(q), func(i, j int) { q[i], q[j] = q[j], q[i] })
		slices.SortStableFunc(q, func(a, b *vbOp) int { return cmp.Compare(a.step, b.step) })
	}

	s := newVBStore(fm, ops)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		errs   []error
		cursor = make([]atomic.Int64, len(managers))
	)
	for mi, m := range managers {
		q := queues[m]
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					n := int(cursor[mi].Add(1)) - 1
					if n >= len(q) {
						return
					}
					if err := s.do(q[n]); err != nil {
						mu.Lock()
						errs = append(errs, err)
						mu.Unlock()
					}
				}
			}()
		}
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
	return s
}

var vbRuns = flag.Int("volumebinding.runs", 1, "concurrent runs of TestVolumeBindingRescheduling, each compared with the serial run")

// TestVolumeBindingRescheduling runs the plan serially, checks the end
// state means what the plan says, then runs it concurrently (with a random
// interleaving seed, logged) and requires the same objects, managedFields
// included. Sizes: 50 pods and claims, 200 volumes and attachments (150
// of each released or detached by the end), 5 nodes, 3 reschedules
// (-short: 12 pods, 3 nodes, 2 reschedules).
func TestVolumeBindingRescheduling(t *testing.T) {
	p := vbParams{volumes: 50, nodes: 5, rounds: 3}
	runs := *vbRuns
	if testing.Short() {
		p = vbParams{volumes: 12, nodes: 3, rounds: 2}
	}
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fm, err := kube.NewFieldManager(kube.BuiltinTypes(), kube.WithClock(func() time.Time { return clock }))
	if err != nil {
		t.Fatal(err)
	}
	ops := vbPlan(p)
	start := time.Now()
	want := vbSerial(t, fm, ops)
	t.Logf("serial: %v", time.Since(start))
	keys := make([]string, 0, len(want.recs))
	for k := range want.recs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	vbCheckFinal(t, p, want)
	if t.Failed() {
		return
	}

	seed := uint64(time.Now().UnixNano())
	t.Logf("%d objects, %d operations, seed %d", len(keys), len(ops), seed)
	for run := 0; run < runs; run++ {
		start := time.Now()
		got := vbConcurrent(t, fm, ops, 2, rand.New(rand.NewPCG(seed, uint64(run))))
		t.Logf("concurrent: %v", time.Since(start))
		t.Logf("run %d: %d resourceVersion conflicts retried", run, got.conflicts.Load())
		bad := 0
		for _, k := range keys {
			g, w := got.recs[k].obj, want.recs[k].obj
			if value.Equal(g, w) {
				continue
			}
			if bad++; bad <= 3 {
				t.Errorf("run %d (seed %d): %s differs from the serial run %s", run, seed, k, vbDiff(value.ToJSON(g), value.ToJSON(w)))
			}
		}
		if bad > 0 {
			t.Fatalf("run %d (seed %d): %d of %d objects differ", run, seed, bad, len(keys))
		}
	}
}

// vbDiff shows where the JSON texts got and want first differ.
func vbDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-120)
	return fmt.Sprintf("at byte %d:\nconcurrent: ...%s\nserial:     ...%s", i, got[from:min(len(got), i+120)], want[from:min(len(want), i+120)])
}

// vbOwned returns the FieldsV1 of the entry of manager on subresource sub.
func vbOwned(t *testing.T, obj value.Value, manager string, op kube.Operation, sub string) string {
	t.Helper()
	entries, err := kube.DecodeManagedFields(obj)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Manager == manager && e.Operation == op && e.Subresource == sub {
			return string(e.Fields.MarshalFieldsV1())
		}
	}
	return ""
}

// vbCheckFinal checks the serial run's end state against what the plan
// means: a wrong reference would make the comparison with it worthless.
func vbCheckFinal(t *testing.T, p vbParams, s *vbStore) {
	t.Helper()
	obj := func(key string) value.Value { return s.recs[key].obj }
	for i := 0; i < p.volumes; i++ {
		g := p.rounds
		pod, pvc, pv, va, node := vbNames(i, g, vbNode(p, i, g))
		po, cl, vo := obj("pods/"+pod), obj("pvcs/"+pvc), obj("pvs/"+pv)
		checks := []struct {
			what, got, want string
		}{
			{"pod nodeName", vbGet(po, "spec", "nodeName"), node},
			{"pod round label", vbGet(po, "metadata", "labels", "round"), strconv.Itoa(g)},
			{"pvc volumeName", vbGet(cl, "spec", "volumeName"), pv},
			{"pvc selected-node", vbGet(cl, "metadata", "annotations", vbSelectedAnn), node},
			{"pvc bind-completed", vbGet(cl, "metadata", "annotations", vbBindAnn), "yes"},
			{"pvc phase", vbGet(cl, "status", "phase"), "Bound"},
			{"pv claim", vbGet(vo, "spec", "claimRef", "name"), pvc},
			{"pv phase", vbGet(vo, "status", "phase"), "Bound"},
			{"attachment node", vbGet(obj("vas/"+va), "spec", "nodeName"), node},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("%s: %s = %q, want %q", pod, c.what, c.got, c.want)
			}
		}
		owns := []struct {
			obj            value.Value
			manager        string
			op             kube.Operation
			sub, fragment  string
			mustNotContain bool
		}{
			{po, vbScheduler, kube.OperationUpdate, "", `"f:nodeName":{}`, false},
			{po, vbKubectl, kube.OperationApply, "", `"f:nodeName"`, true},
			{po, vbKubectl, kube.OperationApply, "", `"f:round":{}`, false},
			{po, vbScheduler, kube.OperationUpdate, vbStatus, `"k:{\"type\":\"PodScheduled\"}"`, false},
			{cl, vbPVCtrl, kube.OperationUpdate, "", `"f:volumeName":{}`, false},
			{cl, vbScheduler, kube.OperationUpdate, "", `"f:volume.kubernetes.io/selected-node":{}`, false},
			{cl, vbPVCtrl, kube.OperationUpdate, vbStatus, `"f:phase":{}`, false},
			{vo, vbPVCtrl, kube.OperationUpdate, "", `"f:claimRef"`, false},
			{vo, vbKubectl, kube.OperationApply, "", `"f:nodeAffinity"`, false},
		}
		for _, o := range owns {
			f := vbOwned(t, o.obj, o.manager, o.op, o.sub)
			if strings.Contains(f, o.fragment) == o.mustNotContain {
				t.Errorf("%s: %s %s (subresource %q) owns %s; contains %s: %v, want %v", pod, o.manager, o.op, o.sub, f, o.fragment, o.mustNotContain, !o.mustNotContain)
			}
		}
		for old := 0; old < g; old++ {
			_, _, opv, ova, _ := vbNames(i, old, 0)
			if v := obj("vas/" + ova); !v.IsNull() {
				t.Errorf("%s: detached %s still exists", pod, ova)
			}
			ov := obj("pvs/" + opv)
			if v, ok := ov.Get("spec"); !ok || v.Has("claimRef") || vbGet(ov, "status", "phase") != "Released" {
				t.Errorf("%s: released %s is %s", pod, opv, value.ToJSON(ov))
			}
			if f := vbOwned(t, ov, vbPVCtrl, kube.OperationUpdate, ""); strings.Contains(f, "claimRef") {
				t.Errorf("%s: %s still owns the claimRef of released %s: %s", pod, vbPVCtrl, opv, f)
			}
		}
	}
	for k := 0; k < p.nodes; k++ {
		n := obj(fmt.Sprintf("nodes/node-%d", k))
		st, _ := n.Get("status")
		a, _ := st.Get("volumesAttached")
		u, _ := st.Get("volumesInUse")
		want := 0
		for i := 0; i < p.volumes; i++ {
			if vbNode(p, i, p.rounds) == k {
				want++
			}
		}
		if a.Len() != want || u.Len() != want {
			t.Errorf("node-%d: %d volumes attached and %d in use, want %d", k, a.Len(), u.Len(), want)
		}
		if vbGet(n, "metadata", "annotations", vbAttachAnn) != "true" {
			t.Errorf("node-%d lost its %s annotation", k, vbAttachAnn)
		}
	}
}

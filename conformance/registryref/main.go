// Command registryref prints, as JSON, what the registry of Kubernetes
// 1.37.2 tells its field manager: for each built-in kind, the fields that
// the storage strategy of the main resource and of each subresource
// resets (by calling that strategy's GetResetFields), and the replicas
// paths behind the scale subresource (by calling the scale storage's
// ReplicasPathMappings).
//
// It is the conformance module's independent reference for structmerge's
// generated registry table: it imports the registry packages of
// k8s.io/kubernetes itself and never reads structmerge's kube package.
// Which strategy serves which subresource is listed here by hand, as the
// storages of k8s.io/kubernetes/pkg/registry wire them; the kind and group
// of each entry come from the Go type of the kind's internal object and its
// API group's GroupName. The conformance tests compare the output with
// structmerge's table in both directions, so an entry missing on either
// side fails them.
//
// Run from its directory: go run . -o ../kubeengine/registry_reference.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	admissionregistrationapi "k8s.io/kubernetes/pkg/apis/admissionregistration"
	apiserverinternalapi "k8s.io/kubernetes/pkg/apis/apiserverinternal"
	appsapi "k8s.io/kubernetes/pkg/apis/apps"
	autoscalingapi "k8s.io/kubernetes/pkg/apis/autoscaling"
	batchapi "k8s.io/kubernetes/pkg/apis/batch"
	certificatesapi "k8s.io/kubernetes/pkg/apis/certificates"
	coreapi "k8s.io/kubernetes/pkg/apis/core"
	flowcontrolapi "k8s.io/kubernetes/pkg/apis/flowcontrol"
	lifecycleapi "k8s.io/kubernetes/pkg/apis/lifecycle"
	networkingapi "k8s.io/kubernetes/pkg/apis/networking"
	policyapi "k8s.io/kubernetes/pkg/apis/policy"
	resourceapi "k8s.io/kubernetes/pkg/apis/resource"
	schedulingapi "k8s.io/kubernetes/pkg/apis/scheduling"
	storageapi "k8s.io/kubernetes/pkg/apis/storage"
	storagemigrationapi "k8s.io/kubernetes/pkg/apis/storagemigration"

	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/apiserverinternal/storageversion"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	deploymentstorage "k8s.io/kubernetes/pkg/registry/apps/deployment/storage"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	replicasetstorage "k8s.io/kubernetes/pkg/registry/apps/replicaset/storage"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	statefulsetstorage "k8s.io/kubernetes/pkg/registry/apps/statefulset/storage"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/certificates/podcertificaterequest"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	replicationcontrollerstorage "k8s.io/kubernetes/pkg/registry/core/replicationcontroller/storage"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/lifecycle/eviction"
	"k8s.io/kubernetes/pkg/registry/lifecycle/evictionrequest"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourcepoolstatusrequest"
	"k8s.io/kubernetes/pkg/registry/scheduling/compositepodgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
)

// resetter is what every registry strategy with reset fields implements.
type resetter interface {
	GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set
}

// filterer is what the strategies of subresources that allow only some
// fields implement instead (pods/resize, pods/ephemeralcontainers).
type filterer interface {
	GetResetFieldsFilter() map[fieldpath.APIVersion]fieldpath.Filter
}

// kind is one registry entry: the kind's internal object, its group, and
// the strategy behind each of its endpoints ("" is the main resource).
type kind struct {
	group   string
	object  runtime.Object
	reset   map[string]resetter
	filters map[string]filterer
}

func kinds() []kind {
	vap := validatingadmissionpolicy.NewStrategy(nil, nil)
	pcr := podcertificaterequest.NewStrategy()
	ev := eviction.NewStrategy(nil)
	evr := evictionrequest.NewStrategy()
	rc := resourceclaim.NewStrategy(nil, nil)
	cpg := compositepodgroup.NewStrategy()
	pg := podgroup.NewStrategy()
	return []kind{
		{admissionregistrationapi.GroupName, &admissionregistrationapi.ValidatingAdmissionPolicy{}, map[string]resetter{"": vap, "status": validatingadmissionpolicy.NewStatusStrategy(vap)}, nil},
		{apiserverinternalapi.GroupName, &apiserverinternalapi.StorageVersion{}, map[string]resetter{"": storageversion.Strategy, "status": storageversion.StatusStrategy}, nil},
		{appsapi.GroupName, &appsapi.DaemonSet{}, map[string]resetter{"": daemonset.Strategy, "status": daemonset.StatusStrategy}, nil},
		{appsapi.GroupName, &appsapi.Deployment{}, map[string]resetter{"": deployment.Strategy, "status": deployment.StatusStrategy}, nil},
		{appsapi.GroupName, &appsapi.ReplicaSet{}, map[string]resetter{"": replicaset.Strategy, "status": replicaset.StatusStrategy}, nil},
		{appsapi.GroupName, &appsapi.StatefulSet{}, map[string]resetter{"": statefulset.Strategy, "status": statefulset.StatusStrategy}, nil},
		{autoscalingapi.GroupName, &autoscalingapi.HorizontalPodAutoscaler{}, map[string]resetter{"": horizontalpodautoscaler.Strategy, "status": horizontalpodautoscaler.StatusStrategy}, nil},
		{batchapi.GroupName, &batchapi.CronJob{}, map[string]resetter{"": cronjob.Strategy, "status": cronjob.StatusStrategy}, nil},
		{batchapi.GroupName, &batchapi.Job{}, map[string]resetter{"": job.Strategy, "status": job.StatusStrategy}, nil},
		{certificatesapi.GroupName, &certificatesapi.CertificateSigningRequest{}, map[string]resetter{"": certificates.Strategy, "status": certificates.StatusStrategy, "approval": certificates.ApprovalStrategy}, nil},
		{certificatesapi.GroupName, &certificatesapi.PodCertificateRequest{}, map[string]resetter{"": pcr, "status": podcertificaterequest.NewStatusStrategy(pcr, nil, nil)}, nil},
		{coreapi.GroupName, &coreapi.Namespace{}, map[string]resetter{"": namespace.Strategy, "status": namespace.StatusStrategy, "finalize": namespace.FinalizeStrategy}, nil},
		{coreapi.GroupName, &coreapi.Node{}, map[string]resetter{"": node.Strategy, "status": node.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.PersistentVolume{}, map[string]resetter{"": persistentvolume.Strategy, "status": persistentvolume.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.PersistentVolumeClaim{}, map[string]resetter{"": persistentvolumeclaim.Strategy, "status": persistentvolumeclaim.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.Pod{}, map[string]resetter{"": pod.Strategy, "status": pod.StatusStrategy},
			map[string]filterer{"ephemeralcontainers": pod.EphemeralContainersStrategy, "resize": pod.ResizeStrategy}},
		{coreapi.GroupName, &coreapi.ReplicationController{}, map[string]resetter{"": replicationcontroller.Strategy, "status": replicationcontroller.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.ResourceQuota{}, map[string]resetter{"": resourcequota.Strategy, "status": resourcequota.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.Service{}, map[string]resetter{"": service.Strategy, "status": service.StatusStrategy}, nil},
		{flowcontrolapi.GroupName, &flowcontrolapi.FlowSchema{}, map[string]resetter{"": flowschema.Strategy, "status": flowschema.StatusStrategy}, nil},
		{flowcontrolapi.GroupName, &flowcontrolapi.PriorityLevelConfiguration{}, map[string]resetter{"": prioritylevelconfiguration.Strategy, "status": prioritylevelconfiguration.StatusStrategy}, nil},
		{lifecycleapi.GroupName, &lifecycleapi.Eviction{}, map[string]resetter{"": ev, "status": eviction.NewStatusStrategy(ev)}, nil},
		{lifecycleapi.GroupName, &lifecycleapi.EvictionRequest{}, map[string]resetter{"": evr, "status": evictionrequest.NewStatusStrategy(evr)}, nil},
		{networkingapi.GroupName, &networkingapi.Ingress{}, map[string]resetter{"": ingress.Strategy, "status": ingress.StatusStrategy}, nil},
		{networkingapi.GroupName, &networkingapi.ServiceCIDR{}, map[string]resetter{"": servicecidr.Strategy, "status": servicecidr.StatusStrategy}, nil},
		{policyapi.GroupName, &policyapi.PodDisruptionBudget{}, map[string]resetter{"": poddisruptionbudget.Strategy, "status": poddisruptionbudget.StatusStrategy}, nil},
		{resourceapi.GroupName, &resourceapi.DeviceTaintRule{}, map[string]resetter{"": devicetaintrule.Strategy, "status": devicetaintrule.StatusStrategy}, nil},
		{resourceapi.GroupName, &resourceapi.ResourceClaim{}, map[string]resetter{"": rc, "status": resourceclaim.NewStatusStrategy(rc)}, nil},
		{resourceapi.GroupName, &resourceapi.ResourcePoolStatusRequest{}, map[string]resetter{"": resourcepoolstatusrequest.Strategy, "status": resourcepoolstatusrequest.StatusStrategy}, nil},
		{schedulingapi.GroupName, &schedulingapi.CompositePodGroup{}, map[string]resetter{"": cpg, "status": compositepodgroup.NewStatusStrategy(cpg)}, nil},
		{schedulingapi.GroupName, &schedulingapi.PodGroup{}, map[string]resetter{"": pg, "status": podgroup.NewStatusStrategy(pg)}, nil},
		{storageapi.GroupName, &storageapi.CSINode{}, map[string]resetter{"": csinode.Strategy, "status": csinode.StatusStrategy}, nil},
		{storageapi.GroupName, &storageapi.VolumeAttachment{}, map[string]resetter{"": volumeattachment.Strategy, "status": volumeattachment.StatusStrategy}, nil},
		{storagemigrationapi.GroupName, &storagemigrationapi.StorageVersionMigration{}, map[string]resetter{"": storagemigration.Strategy, "status": storagemigration.StatusStrategy}, nil},
	}
}

// scaled lists the kinds with a scale subresource and their storages'
// replicas path mappings.
func scaled() []struct {
	group    string
	object   runtime.Object
	mappings managedfields.ResourcePathMappings
} {
	return []struct {
		group    string
		object   runtime.Object
		mappings managedfields.ResourcePathMappings
	}{
		{appsapi.GroupName, &appsapi.Deployment{}, deploymentstorage.ReplicasPathMappings()},
		{appsapi.GroupName, &appsapi.ReplicaSet{}, replicasetstorage.ReplicasPathMappings()},
		{appsapi.GroupName, &appsapi.StatefulSet{}, statefulsetstorage.ReplicasPathMappings()},
		{coreapi.GroupName, &coreapi.ReplicationController{}, replicationcontrollerstorage.ReplicasPathMappings()},
	}
}

// Tables is the printed document.
type Tables struct {
	// Reset lists what each strategy resets, as FieldsV1 per API version.
	Reset []Reset `json:"reset"`
	// Filtered lists the subresources whose strategies keep only some
	// fields (a filter, not a set of reset fields).
	Filtered []Endpoint `json:"filtered"`
	// Replicas lists the replicas path of each kind with a scale
	// subresource, per API version, as a list of field names.
	Replicas []Replicas `json:"replicas"`
}

// Endpoint names a kind and one of its endpoints.
type Endpoint struct {
	Group       string `json:"group"`
	Kind        string `json:"kind"`
	Subresource string `json:"subresource"`
}

// Reset is one strategy's reset fields.
type Reset struct {
	Endpoint
	Fields map[string]json.RawMessage `json:"fields"`
}

// Replicas is one kind's replicas paths.
type Replicas struct {
	Group string              `json:"group"`
	Kind  string              `json:"kind"`
	Paths map[string][]string `json:"paths"`
}

func kindName(obj runtime.Object) string {
	return reflect.TypeOf(obj).Elem().Name()
}

func build() (*Tables, error) {
	t := &Tables{Reset: []Reset{}, Filtered: []Endpoint{}, Replicas: []Replicas{}}
	for _, k := range kinds() {
		for sub, s := range k.reset {
			r := Reset{Endpoint: Endpoint{Group: k.group, Kind: kindName(k.object), Subresource: sub}, Fields: map[string]json.RawMessage{}}
			for v, set := range s.GetResetFields() {
				b, err := set.ToJSON()
				if err != nil {
					return nil, fmt.Errorf("%s %s %q: %w", k.group, r.Kind, sub, err)
				}
				r.Fields[string(v)] = b
			}
			t.Reset = append(t.Reset, r)
		}
		for sub, f := range k.filters {
			if len(f.GetResetFieldsFilter()) == 0 {
				return nil, fmt.Errorf("%s %s %q has no filter", k.group, kindName(k.object), sub)
			}
			t.Filtered = append(t.Filtered, Endpoint{Group: k.group, Kind: kindName(k.object), Subresource: sub})
		}
	}
	for _, s := range scaled() {
		r := Replicas{Group: s.group, Kind: kindName(s.object), Paths: map[string][]string{}}
		for gv, p := range s.mappings {
			var names []string
			for _, pe := range p {
				if pe.FieldName == nil {
					return nil, fmt.Errorf("%s %s %s: replicas path %v is not of field names", s.group, r.Kind, gv, p)
				}
				names = append(names, *pe.FieldName)
			}
			r.Paths[gv] = names
		}
		t.Replicas = append(t.Replicas, r)
	}
	cmpEndpoint := func(a, b Endpoint) int {
		return strings.Compare(a.Group+"\x00"+a.Kind+"\x00"+a.Subresource, b.Group+"\x00"+b.Kind+"\x00"+b.Subresource)
	}
	slices.SortFunc(t.Reset, func(a, b Reset) int { return cmpEndpoint(a.Endpoint, b.Endpoint) })
	slices.SortFunc(t.Filtered, cmpEndpoint)
	slices.SortFunc(t.Replicas, func(a, b Replicas) int { return strings.Compare(a.Group+"\x00"+a.Kind, b.Group+"\x00"+b.Kind) })
	return t, nil
}

func main() {
	out := flag.String("o", "", "write the JSON here instead of to standard output")
	flag.Parse()
	t, err := build()
	if err != nil {
		fmt.Fprintln(os.Stderr, "registryref:", err)
		os.Exit(1)
	}
	var b bytes.Buffer
	b.WriteString("")
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		fmt.Fprintln(os.Stderr, "registryref:", err)
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.Write(b.Bytes())
		return
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "registryref:", err)
		os.Exit(1)
	}
}

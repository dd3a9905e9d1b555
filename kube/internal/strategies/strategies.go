// Package strategies wires the built-in kinds of Kubernetes 1.37 to the
// registry strategies of their endpoints, as the storages of
// k8s.io/kubernetes/pkg/registry wire them: the one table of them that
// kube/registry (which runs the strategies) and kube/builtin's generator
// (which asks them for the registry's tables) share.
//
// Concurrency: the table is built anew by each call and never written
// afterwards.
package strategies

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/registry/rest"
	clocktesting "k8s.io/utils/clock/testing"

	admissionregistrationapi "k8s.io/kubernetes/pkg/apis/admissionregistration"
	apiserverinternalapi "k8s.io/kubernetes/pkg/apis/apiserverinternal"
	appsapi "k8s.io/kubernetes/pkg/apis/apps"
	autoscalingapi "k8s.io/kubernetes/pkg/apis/autoscaling"
	batchapi "k8s.io/kubernetes/pkg/apis/batch"
	certificatesapi "k8s.io/kubernetes/pkg/apis/certificates"
	coordinationapi "k8s.io/kubernetes/pkg/apis/coordination"
	coreapi "k8s.io/kubernetes/pkg/apis/core"
	discoveryapi "k8s.io/kubernetes/pkg/apis/discovery"
	flowcontrolapi "k8s.io/kubernetes/pkg/apis/flowcontrol"
	lifecycleapi "k8s.io/kubernetes/pkg/apis/lifecycle"
	networkingapi "k8s.io/kubernetes/pkg/apis/networking"
	nodeapi "k8s.io/kubernetes/pkg/apis/node"
	policyapi "k8s.io/kubernetes/pkg/apis/policy"
	rbacapi "k8s.io/kubernetes/pkg/apis/rbac"
	resourceapi "k8s.io/kubernetes/pkg/apis/resource"
	schedulingapi "k8s.io/kubernetes/pkg/apis/scheduling"
	storageapi "k8s.io/kubernetes/pkg/apis/storage"
	storagemigrationapi "k8s.io/kubernetes/pkg/apis/storagemigration"

	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apiserverinternal/storageversion"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
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
	"k8s.io/kubernetes/pkg/registry/certificates/clustertrustbundle"
	"k8s.io/kubernetes/pkg/registry/certificates/podcertificaterequest"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/coordination/leasecandidate"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	endpoints "k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	replicationcontrollerstorage "k8s.io/kubernetes/pkg/registry/core/replicationcontroller/storage"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/lifecycle/eviction"
	"k8s.io/kubernetes/pkg/registry/lifecycle/evictionrequest"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/ipaddress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourcepoolstatusrequest"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/compositepodgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/scheduling/workload"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
)

// CreateUpdate is the strategy of a kind's main resource, which creates
// and updates it (and writes its scale subresource).
type CreateUpdate interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// Kind is one built-in kind as the storages of k8s.io/kubernetes/pkg/registry
// wire it: its group (the GroupName of its internal API package), an
// object of its internal Go type (whose name is the kind's), the strategy
// of its main resource, that of each subresource with a strategy of its
// own, and for a kind with a scale subresource, its scale storage's
// replicas paths. Runnable is set for the kinds whose strategies
// kube/registry runs on writes: their strategies take no collaborators.
type Kind struct {
	Group    string
	Object   runtime.Object
	Main     CreateUpdate
	Subs     map[string]rest.RESTUpdateStrategy
	Replicas managedfields.ResourcePathMappings
	Runnable bool
}

// subs names the strategies of a kind's subresources.
type subs = map[string]rest.RESTUpdateStrategy

// Kinds lists every strategy package under k8s.io/kubernetes/pkg/registry
// (kube/builtin's generator holds the list to `go list`), wired to
// endpoints as the packages' storages wire them. The strategies that take
// collaborators (an authorizer, a resource resolver, a namespace client)
// get nil, and are not Runnable: only their reset fields and their
// PrepareForCreate and PrepareForUpdate, which do not use them, may be
// asked for; a clock is a fixed fake one.
func Kinds() []Kind {
	clock := clocktesting.NewFakePassiveClock(time.Unix(0, 0).UTC())
	vap := validatingadmissionpolicy.NewStrategy(nil, nil)
	pcr := podcertificaterequest.NewStrategy()
	ev := eviction.NewStrategy(clock)
	evr := evictionrequest.NewStrategy()
	rc := resourceclaim.NewStrategy(nil, nil)
	cpg := compositepodgroup.NewStrategy()
	pg := podgroup.NewStrategy()
	return []Kind{
		{admissionregistrationapi.GroupName, &admissionregistrationapi.MutatingAdmissionPolicy{}, mutatingadmissionpolicy.NewStrategy(nil, nil), nil, nil, false},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.MutatingAdmissionPolicyBinding{}, mutatingadmissionpolicybinding.NewStrategy(nil, nil, nil), nil, nil, false},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.MutatingWebhookConfiguration{}, mutatingwebhookconfiguration.Strategy, nil, nil, true},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.ValidatingAdmissionPolicy{}, vap, subs{"status": validatingadmissionpolicy.NewStatusStrategy(vap)}, nil, false},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.ValidatingAdmissionPolicyBinding{}, validatingadmissionpolicybinding.NewStrategy(nil, nil, nil), nil, nil, false},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.ValidatingWebhookConfiguration{}, validatingwebhookconfiguration.Strategy, nil, nil, true},
		{apiserverinternalapi.GroupName, &apiserverinternalapi.StorageVersion{}, storageversion.Strategy, subs{"status": storageversion.StatusStrategy}, nil, true},
		{appsapi.GroupName, &appsapi.ControllerRevision{}, controllerrevision.Strategy, nil, nil, true},
		{appsapi.GroupName, &appsapi.DaemonSet{}, daemonset.Strategy, subs{"status": daemonset.StatusStrategy}, nil, true},
		{appsapi.GroupName, &appsapi.Deployment{}, deployment.Strategy, subs{"status": deployment.StatusStrategy}, deploymentstorage.ReplicasPathMappings(), true},
		{appsapi.GroupName, &appsapi.ReplicaSet{}, replicaset.Strategy, subs{"status": replicaset.StatusStrategy}, replicasetstorage.ReplicasPathMappings(), true},
		{appsapi.GroupName, &appsapi.StatefulSet{}, statefulset.Strategy, subs{"status": statefulset.StatusStrategy}, statefulsetstorage.ReplicasPathMappings(), true},
		{autoscalingapi.GroupName, &autoscalingapi.HorizontalPodAutoscaler{}, horizontalpodautoscaler.Strategy, subs{"status": horizontalpodautoscaler.StatusStrategy}, nil, true},
		{batchapi.GroupName, &batchapi.CronJob{}, cronjob.Strategy, subs{"status": cronjob.StatusStrategy}, nil, true},
		{batchapi.GroupName, &batchapi.Job{}, job.Strategy, subs{"status": job.StatusStrategy}, nil, true},
		{certificatesapi.GroupName, &certificatesapi.CertificateSigningRequest{}, certificates.Strategy, subs{"status": certificates.StatusStrategy, "approval": certificates.ApprovalStrategy}, nil, true},
		{certificatesapi.GroupName, &certificatesapi.ClusterTrustBundle{}, clustertrustbundle.Strategy, nil, nil, true},
		{certificatesapi.GroupName, &certificatesapi.PodCertificateRequest{}, pcr, subs{"status": podcertificaterequest.NewStatusStrategy(pcr, nil, clock)}, nil, false},
		{coordinationapi.GroupName, &coordinationapi.Lease{}, lease.Strategy, nil, nil, true},
		{coordinationapi.GroupName, &coordinationapi.LeaseCandidate{}, leasecandidate.Strategy, nil, nil, false},
		{coreapi.GroupName, &coreapi.ConfigMap{}, configmap.Strategy, nil, nil, true},
		{coreapi.GroupName, &coreapi.Endpoints{}, endpoints.Strategy, nil, nil, true},
		{coreapi.GroupName, &coreapi.Event{}, event.Strategy, nil, nil, true},
		{coreapi.GroupName, &coreapi.LimitRange{}, limitrange.Strategy, nil, nil, true},
		{coreapi.GroupName, &coreapi.Namespace{}, namespace.Strategy, subs{"status": namespace.StatusStrategy, "finalize": namespace.FinalizeStrategy}, nil, true},
		{coreapi.GroupName, &coreapi.Node{}, node.Strategy, subs{"status": node.StatusStrategy}, nil, true},
		{coreapi.GroupName, &coreapi.PersistentVolume{}, persistentvolume.Strategy, subs{"status": persistentvolume.StatusStrategy}, nil, true},
		{coreapi.GroupName, &coreapi.PersistentVolumeClaim{}, persistentvolumeclaim.Strategy, subs{"status": persistentvolumeclaim.StatusStrategy}, nil, true},
		{coreapi.GroupName, &coreapi.Pod{}, pod.Strategy, subs{"status": pod.StatusStrategy, "ephemeralcontainers": pod.EphemeralContainersStrategy, "resize": pod.ResizeStrategy}, nil, true},
		{coreapi.GroupName, &coreapi.PodTemplate{}, podtemplate.Strategy, nil, nil, true},
		{coreapi.GroupName, &coreapi.ReplicationController{}, replicationcontroller.Strategy, subs{"status": replicationcontroller.StatusStrategy}, replicationcontrollerstorage.ReplicasPathMappings(), true},
		{coreapi.GroupName, &coreapi.ResourceQuota{}, resourcequota.Strategy, subs{"status": resourcequota.StatusStrategy}, nil, true},
		{coreapi.GroupName, &coreapi.Secret{}, secret.Strategy, nil, nil, true},
		{coreapi.GroupName, &coreapi.Service{}, service.Strategy, subs{"status": service.StatusStrategy}, nil, true},
		{coreapi.GroupName, &coreapi.ServiceAccount{}, serviceaccount.Strategy, nil, nil, true},
		{discoveryapi.GroupName, &discoveryapi.EndpointSlice{}, endpointslice.Strategy, nil, nil, true},
		{flowcontrolapi.GroupName, &flowcontrolapi.FlowSchema{}, flowschema.Strategy, subs{"status": flowschema.StatusStrategy}, nil, true},
		{flowcontrolapi.GroupName, &flowcontrolapi.PriorityLevelConfiguration{}, prioritylevelconfiguration.Strategy, subs{"status": prioritylevelconfiguration.StatusStrategy}, nil, true},
		{lifecycleapi.GroupName, &lifecycleapi.Eviction{}, ev, subs{"status": eviction.NewStatusStrategy(ev)}, nil, false},
		{lifecycleapi.GroupName, &lifecycleapi.EvictionRequest{}, evr, subs{"status": evictionrequest.NewStatusStrategy(evr)}, nil, false},
		{networkingapi.GroupName, &networkingapi.Ingress{}, ingress.Strategy, subs{"status": ingress.StatusStrategy}, nil, true},
		{networkingapi.GroupName, &networkingapi.IngressClass{}, ingressclass.Strategy, nil, nil, true},
		{networkingapi.GroupName, &networkingapi.IPAddress{}, ipaddress.Strategy, nil, nil, false},
		{networkingapi.GroupName, &networkingapi.NetworkPolicy{}, networkpolicy.Strategy, nil, nil, true},
		{networkingapi.GroupName, &networkingapi.ServiceCIDR{}, servicecidr.Strategy, subs{"status": servicecidr.StatusStrategy}, nil, true},
		{nodeapi.GroupName, &nodeapi.RuntimeClass{}, runtimeclass.Strategy, nil, nil, true},
		{policyapi.GroupName, &policyapi.PodDisruptionBudget{}, poddisruptionbudget.Strategy, subs{"status": poddisruptionbudget.StatusStrategy}, nil, true},
		{rbacapi.GroupName, &rbacapi.ClusterRole{}, clusterrole.Strategy, nil, nil, true},
		{rbacapi.GroupName, &rbacapi.ClusterRoleBinding{}, clusterrolebinding.Strategy, nil, nil, true},
		{rbacapi.GroupName, &rbacapi.Role{}, role.Strategy, nil, nil, true},
		{rbacapi.GroupName, &rbacapi.RoleBinding{}, rolebinding.Strategy, nil, nil, true},
		{resourceapi.GroupName, &resourceapi.DeviceClass{}, deviceclass.Strategy, nil, nil, false},
		{resourceapi.GroupName, &resourceapi.DeviceTaintRule{}, devicetaintrule.Strategy, subs{"status": devicetaintrule.StatusStrategy}, nil, false},
		{resourceapi.GroupName, &resourceapi.ResourceClaim{}, rc, subs{"status": resourceclaim.NewStatusStrategy(rc)}, nil, false},
		{resourceapi.GroupName, &resourceapi.ResourceClaimTemplate{}, resourceclaimtemplate.NewStrategy(nil), nil, nil, false},
		{resourceapi.GroupName, &resourceapi.ResourcePoolStatusRequest{}, resourcepoolstatusrequest.Strategy, subs{"status": resourcepoolstatusrequest.StatusStrategy}, nil, false},
		{resourceapi.GroupName, &resourceapi.ResourceSlice{}, resourceslice.Strategy, nil, nil, false},
		{schedulingapi.GroupName, &schedulingapi.CompositePodGroup{}, cpg, subs{"status": compositepodgroup.NewStatusStrategy(cpg)}, nil, false},
		{schedulingapi.GroupName, &schedulingapi.PodGroup{}, pg, subs{"status": podgroup.NewStatusStrategy(pg)}, nil, false},
		{schedulingapi.GroupName, &schedulingapi.PriorityClass{}, priorityclass.Strategy, nil, nil, true},
		{schedulingapi.GroupName, &schedulingapi.Workload{}, workload.Strategy, nil, nil, false},
		{storageapi.GroupName, &storageapi.CSIDriver{}, csidriver.Strategy, nil, nil, true},
		{storageapi.GroupName, &storageapi.CSINode{}, csinode.Strategy, subs{"status": csinode.StatusStrategy}, nil, true},
		{storageapi.GroupName, &storageapi.CSIStorageCapacity{}, csistoragecapacity.Strategy, nil, nil, true},
		{storageapi.GroupName, &storageapi.StorageClass{}, storageclass.Strategy, nil, nil, true},
		{storageapi.GroupName, &storageapi.VolumeAttachment{}, volumeattachment.Strategy, subs{"status": volumeattachment.StatusStrategy}, nil, true},
		{storageapi.GroupName, &storageapi.VolumeAttributesClass{}, volumeattributesclass.Strategy, nil, nil, true},
		{storagemigrationapi.GroupName, &storagemigrationapi.StorageVersionMigration{}, storagemigration.Strategy, subs{"status": storagemigration.StatusStrategy}, nil, true},
	}
}

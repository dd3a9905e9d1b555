package main

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

// createUpdate is the strategy of a kind's main resource, which creates
// and updates it (and writes its scale subresource).
type createUpdate interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// kind is one built-in kind as the storages of k8s.io/kubernetes/pkg/registry
// wire it: its group (the GroupName of its internal API package), an
// object of its internal Go type (whose name is the kind's), the strategy
// of its main resource, that of each subresource with a strategy of its
// own, and for a kind with a scale subresource, its scale storage's
// replicas paths.
type kind struct {
	group    string
	object   runtime.Object
	main     createUpdate
	subs     map[string]rest.RESTUpdateStrategy
	replicas managedfields.ResourcePathMappings
}

// subs names the strategies of a kind's subresources.
type subs = map[string]rest.RESTUpdateStrategy

// kinds lists every strategy package under k8s.io/kubernetes/pkg/registry
// (TestEveryStrategyPackageIsListed holds the list to `go list`), wired to
// endpoints as the packages' storages wire them. The strategies that take
// collaborators (an authorizer, a resource resolver, a namespace client)
// get nil: the generator only asks for their reset fields and runs their
// PrepareForCreate and PrepareForUpdate, which do not use them; a clock is
// a fixed fake one.
func kinds() []kind {
	clock := clocktesting.NewFakePassiveClock(time.Unix(0, 0).UTC())
	vap := validatingadmissionpolicy.NewStrategy(nil, nil)
	pcr := podcertificaterequest.NewStrategy()
	ev := eviction.NewStrategy(clock)
	evr := evictionrequest.NewStrategy()
	rc := resourceclaim.NewStrategy(nil, nil)
	cpg := compositepodgroup.NewStrategy()
	pg := podgroup.NewStrategy()
	return []kind{
		{admissionregistrationapi.GroupName, &admissionregistrationapi.MutatingAdmissionPolicy{}, mutatingadmissionpolicy.NewStrategy(nil, nil), nil, nil},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.MutatingAdmissionPolicyBinding{}, mutatingadmissionpolicybinding.NewStrategy(nil, nil, nil), nil, nil},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.MutatingWebhookConfiguration{}, mutatingwebhookconfiguration.Strategy, nil, nil},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.ValidatingAdmissionPolicy{}, vap, subs{"status": validatingadmissionpolicy.NewStatusStrategy(vap)}, nil},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.ValidatingAdmissionPolicyBinding{}, validatingadmissionpolicybinding.NewStrategy(nil, nil, nil), nil, nil},
		{admissionregistrationapi.GroupName, &admissionregistrationapi.ValidatingWebhookConfiguration{}, validatingwebhookconfiguration.Strategy, nil, nil},
		{apiserverinternalapi.GroupName, &apiserverinternalapi.StorageVersion{}, storageversion.Strategy, subs{"status": storageversion.StatusStrategy}, nil},
		{appsapi.GroupName, &appsapi.ControllerRevision{}, controllerrevision.Strategy, nil, nil},
		{appsapi.GroupName, &appsapi.DaemonSet{}, daemonset.Strategy, subs{"status": daemonset.StatusStrategy}, nil},
		{appsapi.GroupName, &appsapi.Deployment{}, deployment.Strategy, subs{"status": deployment.StatusStrategy}, deploymentstorage.ReplicasPathMappings()},
		{appsapi.GroupName, &appsapi.ReplicaSet{}, replicaset.Strategy, subs{"status": replicaset.StatusStrategy}, replicasetstorage.ReplicasPathMappings()},
		{appsapi.GroupName, &appsapi.StatefulSet{}, statefulset.Strategy, subs{"status": statefulset.StatusStrategy}, statefulsetstorage.ReplicasPathMappings()},
		{autoscalingapi.GroupName, &autoscalingapi.HorizontalPodAutoscaler{}, horizontalpodautoscaler.Strategy, subs{"status": horizontalpodautoscaler.StatusStrategy}, nil},
		{batchapi.GroupName, &batchapi.CronJob{}, cronjob.Strategy, subs{"status": cronjob.StatusStrategy}, nil},
		{batchapi.GroupName, &batchapi.Job{}, job.Strategy, subs{"status": job.StatusStrategy}, nil},
		{certificatesapi.GroupName, &certificatesapi.CertificateSigningRequest{}, certificates.Strategy, subs{"status": certificates.StatusStrategy, "approval": certificates.ApprovalStrategy}, nil},
		{certificatesapi.GroupName, &certificatesapi.ClusterTrustBundle{}, clustertrustbundle.Strategy, nil, nil},
		{certificatesapi.GroupName, &certificatesapi.PodCertificateRequest{}, pcr, subs{"status": podcertificaterequest.NewStatusStrategy(pcr, nil, clock)}, nil},
		{coordinationapi.GroupName, &coordinationapi.Lease{}, lease.Strategy, nil, nil},
		{coordinationapi.GroupName, &coordinationapi.LeaseCandidate{}, leasecandidate.Strategy, nil, nil},
		{coreapi.GroupName, &coreapi.ConfigMap{}, configmap.Strategy, nil, nil},
		{coreapi.GroupName, &coreapi.Endpoints{}, endpoints.Strategy, nil, nil},
		{coreapi.GroupName, &coreapi.Event{}, event.Strategy, nil, nil},
		{coreapi.GroupName, &coreapi.LimitRange{}, limitrange.Strategy, nil, nil},
		{coreapi.GroupName, &coreapi.Namespace{}, namespace.Strategy, subs{"status": namespace.StatusStrategy, "finalize": namespace.FinalizeStrategy}, nil},
		{coreapi.GroupName, &coreapi.Node{}, node.Strategy, subs{"status": node.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.PersistentVolume{}, persistentvolume.Strategy, subs{"status": persistentvolume.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.PersistentVolumeClaim{}, persistentvolumeclaim.Strategy, subs{"status": persistentvolumeclaim.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.Pod{}, pod.Strategy, subs{"status": pod.StatusStrategy, "ephemeralcontainers": pod.EphemeralContainersStrategy, "resize": pod.ResizeStrategy}, nil},
		{coreapi.GroupName, &coreapi.PodTemplate{}, podtemplate.Strategy, nil, nil},
		{coreapi.GroupName, &coreapi.ReplicationController{}, replicationcontroller.Strategy, subs{"status": replicationcontroller.StatusStrategy}, replicationcontrollerstorage.ReplicasPathMappings()},
		{coreapi.GroupName, &coreapi.ResourceQuota{}, resourcequota.Strategy, subs{"status": resourcequota.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.Secret{}, secret.Strategy, nil, nil},
		{coreapi.GroupName, &coreapi.Service{}, service.Strategy, subs{"status": service.StatusStrategy}, nil},
		{coreapi.GroupName, &coreapi.ServiceAccount{}, serviceaccount.Strategy, nil, nil},
		{discoveryapi.GroupName, &discoveryapi.EndpointSlice{}, endpointslice.Strategy, nil, nil},
		{flowcontrolapi.GroupName, &flowcontrolapi.FlowSchema{}, flowschema.Strategy, subs{"status": flowschema.StatusStrategy}, nil},
		{flowcontrolapi.GroupName, &flowcontrolapi.PriorityLevelConfiguration{}, prioritylevelconfiguration.Strategy, subs{"status": prioritylevelconfiguration.StatusStrategy}, nil},
		{lifecycleapi.GroupName, &lifecycleapi.Eviction{}, ev, subs{"status": eviction.NewStatusStrategy(ev)}, nil},
		{lifecycleapi.GroupName, &lifecycleapi.EvictionRequest{}, evr, subs{"status": evictionrequest.NewStatusStrategy(evr)}, nil},
		{networkingapi.GroupName, &networkingapi.Ingress{}, ingress.Strategy, subs{"status": ingress.StatusStrategy}, nil},
		{networkingapi.GroupName, &networkingapi.IngressClass{}, ingressclass.Strategy, nil, nil},
		{networkingapi.GroupName, &networkingapi.IPAddress{}, ipaddress.Strategy, nil, nil},
		{networkingapi.GroupName, &networkingapi.NetworkPolicy{}, networkpolicy.Strategy, nil, nil},
		{networkingapi.GroupName, &networkingapi.ServiceCIDR{}, servicecidr.Strategy, subs{"status": servicecidr.StatusStrategy}, nil},
		{nodeapi.GroupName, &nodeapi.RuntimeClass{}, runtimeclass.Strategy, nil, nil},
		{policyapi.GroupName, &policyapi.PodDisruptionBudget{}, poddisruptionbudget.Strategy, subs{"status": poddisruptionbudget.StatusStrategy}, nil},
		{rbacapi.GroupName, &rbacapi.ClusterRole{}, clusterrole.Strategy, nil, nil},
		{rbacapi.GroupName, &rbacapi.ClusterRoleBinding{}, clusterrolebinding.Strategy, nil, nil},
		{rbacapi.GroupName, &rbacapi.Role{}, role.Strategy, nil, nil},
		{rbacapi.GroupName, &rbacapi.RoleBinding{}, rolebinding.Strategy, nil, nil},
		{resourceapi.GroupName, &resourceapi.DeviceClass{}, deviceclass.Strategy, nil, nil},
		{resourceapi.GroupName, &resourceapi.DeviceTaintRule{}, devicetaintrule.Strategy, subs{"status": devicetaintrule.StatusStrategy}, nil},
		{resourceapi.GroupName, &resourceapi.ResourceClaim{}, rc, subs{"status": resourceclaim.NewStatusStrategy(rc)}, nil},
		{resourceapi.GroupName, &resourceapi.ResourceClaimTemplate{}, resourceclaimtemplate.NewStrategy(nil), nil, nil},
		{resourceapi.GroupName, &resourceapi.ResourcePoolStatusRequest{}, resourcepoolstatusrequest.Strategy, subs{"status": resourcepoolstatusrequest.StatusStrategy}, nil},
		{resourceapi.GroupName, &resourceapi.ResourceSlice{}, resourceslice.Strategy, nil, nil},
		{schedulingapi.GroupName, &schedulingapi.CompositePodGroup{}, cpg, subs{"status": compositepodgroup.NewStatusStrategy(cpg)}, nil},
		{schedulingapi.GroupName, &schedulingapi.PodGroup{}, pg, subs{"status": podgroup.NewStatusStrategy(pg)}, nil},
		{schedulingapi.GroupName, &schedulingapi.PriorityClass{}, priorityclass.Strategy, nil, nil},
		{schedulingapi.GroupName, &schedulingapi.Workload{}, workload.Strategy, nil, nil},
		{storageapi.GroupName, &storageapi.CSIDriver{}, csidriver.Strategy, nil, nil},
		{storageapi.GroupName, &storageapi.CSINode{}, csinode.Strategy, subs{"status": csinode.StatusStrategy}, nil},
		{storageapi.GroupName, &storageapi.CSIStorageCapacity{}, csistoragecapacity.Strategy, nil, nil},
		{storageapi.GroupName, &storageapi.StorageClass{}, storageclass.Strategy, nil, nil},
		{storageapi.GroupName, &storageapi.VolumeAttachment{}, volumeattachment.Strategy, subs{"status": volumeattachment.StatusStrategy}, nil},
		{storageapi.GroupName, &storageapi.VolumeAttributesClass{}, volumeattributesclass.Strategy, nil, nil},
		{storagemigrationapi.GroupName, &storagemigrationapi.StorageVersionMigration{}, storagemigration.Strategy, subs{"status": storagemigration.StatusStrategy}, nil},
	}
}

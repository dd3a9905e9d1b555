package registry

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"

	apiextensionsapi "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
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
	networkingapi "k8s.io/kubernetes/pkg/apis/networking"
	nodeapi "k8s.io/kubernetes/pkg/apis/node"
	policyapi "k8s.io/kubernetes/pkg/apis/policy"
	rbacapi "k8s.io/kubernetes/pkg/apis/rbac"
	schedulingapi "k8s.io/kubernetes/pkg/apis/scheduling"
	storageapi "k8s.io/kubernetes/pkg/apis/storage"
	storagemigrationapi "k8s.io/kubernetes/pkg/apis/storagemigration"

	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apiserverinternal/storageversion"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/certificates/clustertrustbundle"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
)

// subs names the strategies of a kind's subresources.
type subs = map[string]rest.RESTUpdateStrategy

// builtinKinds wires each kind to its endpoints' strategies as the storages
// of k8s.io/kubernetes/pkg/registry (and apiextensions-apiserver's) wire
// them. The kind of each entry is read from the scheme, by its internal
// Go type.
func builtinKinds(s *runtime.Scheme) map[schema.GroupKind]endpoints {
	crd := customresourcedefinition.NewStrategy(s)
	table := []struct {
		object runtime.Object
		main   createUpdate
		subs   subs
	}{
		{&admissionregistrationapi.MutatingWebhookConfiguration{}, mutatingwebhookconfiguration.Strategy, nil},
		{&admissionregistrationapi.ValidatingWebhookConfiguration{}, validatingwebhookconfiguration.Strategy, nil},
		{&apiextensionsapi.CustomResourceDefinition{}, crd, subs{"status": customresourcedefinition.NewStatusStrategy(s)}},
		{&apiserverinternalapi.StorageVersion{}, storageversion.Strategy, subs{"status": storageversion.StatusStrategy}},
		{&appsapi.ControllerRevision{}, controllerrevision.Strategy, nil},
		{&appsapi.DaemonSet{}, daemonset.Strategy, subs{"status": daemonset.StatusStrategy}},
		{&appsapi.Deployment{}, deployment.Strategy, subs{"status": deployment.StatusStrategy}},
		{&appsapi.ReplicaSet{}, replicaset.Strategy, subs{"status": replicaset.StatusStrategy}},
		{&appsapi.StatefulSet{}, statefulset.Strategy, subs{"status": statefulset.StatusStrategy}},
		{&autoscalingapi.HorizontalPodAutoscaler{}, horizontalpodautoscaler.Strategy, subs{"status": horizontalpodautoscaler.StatusStrategy}},
		{&batchapi.CronJob{}, cronjob.Strategy, subs{"status": cronjob.StatusStrategy}},
		{&batchapi.Job{}, job.Strategy, subs{"status": job.StatusStrategy}},
		{&certificatesapi.CertificateSigningRequest{}, certificates.Strategy, subs{"status": certificates.StatusStrategy, "approval": certificates.ApprovalStrategy}},
		{&certificatesapi.ClusterTrustBundle{}, clustertrustbundle.Strategy, nil},
		{&coordinationapi.Lease{}, lease.Strategy, nil},
		{&coreapi.ConfigMap{}, configmap.Strategy, nil},
		{&coreapi.Endpoints{}, endpoint.Strategy, nil},
		{&coreapi.Event{}, event.Strategy, nil},
		{&coreapi.LimitRange{}, limitrange.Strategy, nil},
		{&coreapi.Namespace{}, namespace.Strategy, subs{"status": namespace.StatusStrategy, "finalize": namespace.FinalizeStrategy}},
		{&coreapi.Node{}, node.Strategy, subs{"status": node.StatusStrategy}},
		{&coreapi.PersistentVolume{}, persistentvolume.Strategy, subs{"status": persistentvolume.StatusStrategy}},
		{&coreapi.PersistentVolumeClaim{}, persistentvolumeclaim.Strategy, subs{"status": persistentvolumeclaim.StatusStrategy}},
		{&coreapi.Pod{}, pod.Strategy, subs{"status": pod.StatusStrategy, "ephemeralcontainers": pod.EphemeralContainersStrategy, "resize": pod.ResizeStrategy}},
		{&coreapi.PodTemplate{}, podtemplate.Strategy, nil},
		{&coreapi.ReplicationController{}, replicationcontroller.Strategy, subs{"status": replicationcontroller.StatusStrategy}},
		{&coreapi.ResourceQuota{}, resourcequota.Strategy, subs{"status": resourcequota.StatusStrategy}},
		{&coreapi.Secret{}, secret.Strategy, nil},
		{&coreapi.Service{}, service.Strategy, subs{"status": service.StatusStrategy}},
		{&coreapi.ServiceAccount{}, serviceaccount.Strategy, nil},
		{&discoveryapi.EndpointSlice{}, endpointslice.Strategy, nil},
		{&flowcontrolapi.FlowSchema{}, flowschema.Strategy, subs{"status": flowschema.StatusStrategy}},
		{&flowcontrolapi.PriorityLevelConfiguration{}, prioritylevelconfiguration.Strategy, subs{"status": prioritylevelconfiguration.StatusStrategy}},
		{&networkingapi.Ingress{}, ingress.Strategy, subs{"status": ingress.StatusStrategy}},
		{&networkingapi.IngressClass{}, ingressclass.Strategy, nil},
		{&networkingapi.NetworkPolicy{}, networkpolicy.Strategy, nil},
		{&networkingapi.ServiceCIDR{}, servicecidr.Strategy, subs{"status": servicecidr.StatusStrategy}},
		{&nodeapi.RuntimeClass{}, runtimeclass.Strategy, nil},
		{&policyapi.PodDisruptionBudget{}, poddisruptionbudget.Strategy, subs{"status": poddisruptionbudget.StatusStrategy}},
		{&rbacapi.ClusterRole{}, clusterrole.Strategy, nil},
		{&rbacapi.ClusterRoleBinding{}, clusterrolebinding.Strategy, nil},
		{&rbacapi.Role{}, role.Strategy, nil},
		{&rbacapi.RoleBinding{}, rolebinding.Strategy, nil},
		{&schedulingapi.PriorityClass{}, priorityclass.Strategy, nil},
		{&storageapi.CSIDriver{}, csidriver.Strategy, nil},
		{&storageapi.CSINode{}, csinode.Strategy, subs{"status": csinode.StatusStrategy}},
		{&storageapi.CSIStorageCapacity{}, csistoragecapacity.Strategy, nil},
		{&storageapi.StorageClass{}, storageclass.Strategy, nil},
		{&storageapi.VolumeAttachment{}, volumeattachment.Strategy, subs{"status": volumeattachment.StatusStrategy}},
		{&storageapi.VolumeAttributesClass{}, volumeattributesclass.Strategy, nil},
		{&storagemigrationapi.StorageVersionMigration{}, storagemigration.Strategy, subs{"status": storagemigration.StatusStrategy}},
	}
	out := make(map[schema.GroupKind]endpoints, len(table))
	for _, e := range table {
		gvks, _, err := s.ObjectKinds(e.object)
		if err != nil || len(gvks) == 0 {
			panic("registry: the scheme does not know " + err.Error())
		}
		out[gvks[0].GroupKind()] = endpoints{main: e.main, subs: e.subs}
	}
	return out
}

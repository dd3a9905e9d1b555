// Package k8sscheme builds the scheme of Kubernetes 1.37's built-in kinds:
// every API group of k8s.io/kubernetes/pkg/apis and apiextensions.k8s.io,
// with their Go types, defaulting functions and conversions, as the API
// server registers them. kube/defaulting and kube/registry share it.
package k8sscheme

import (
	"sync"

	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	"k8s.io/apimachinery/pkg/runtime"
	admissioninstall "k8s.io/kubernetes/pkg/apis/admission/install"
	admissionregistrationinstall "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	apiserverinternalinstall "k8s.io/kubernetes/pkg/apis/apiserverinternal/install"
	appsinstall "k8s.io/kubernetes/pkg/apis/apps/install"
	authenticationinstall "k8s.io/kubernetes/pkg/apis/authentication/install"
	authorizationinstall "k8s.io/kubernetes/pkg/apis/authorization/install"
	autoscalinginstall "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	batchinstall "k8s.io/kubernetes/pkg/apis/batch/install"
	certificatesinstall "k8s.io/kubernetes/pkg/apis/certificates/install"
	coordinationinstall "k8s.io/kubernetes/pkg/apis/coordination/install"
	coreinstall "k8s.io/kubernetes/pkg/apis/core/install"
	discoveryinstall "k8s.io/kubernetes/pkg/apis/discovery/install"
	eventsinstall "k8s.io/kubernetes/pkg/apis/events/install"
	extensionsinstall "k8s.io/kubernetes/pkg/apis/extensions/install"
	flowcontrolinstall "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	imagepolicyinstall "k8s.io/kubernetes/pkg/apis/imagepolicy/install"
	lifecycleinstall "k8s.io/kubernetes/pkg/apis/lifecycle/install"
	networkinginstall "k8s.io/kubernetes/pkg/apis/networking/install"
	nodeinstall "k8s.io/kubernetes/pkg/apis/node/install"
	policyinstall "k8s.io/kubernetes/pkg/apis/policy/install"
	rbacinstall "k8s.io/kubernetes/pkg/apis/rbac/install"
	resourceinstall "k8s.io/kubernetes/pkg/apis/resource/install"
	schedulinginstall "k8s.io/kubernetes/pkg/apis/scheduling/install"
	storageinstall "k8s.io/kubernetes/pkg/apis/storage/install"
	storagemigrationinstall "k8s.io/kubernetes/pkg/apis/storagemigration/install"
)

// Scheme returns the scheme, built on first use. Callers must not register
// anything in it: it is shared, and read concurrently.
var Scheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, install := range []func(*runtime.Scheme){
		admissioninstall.Install, admissionregistrationinstall.Install, apiserverinternalinstall.Install,
		appsinstall.Install, authenticationinstall.Install, authorizationinstall.Install,
		autoscalinginstall.Install, batchinstall.Install, certificatesinstall.Install,
		coordinationinstall.Install, coreinstall.Install, discoveryinstall.Install,
		eventsinstall.Install, extensionsinstall.Install, flowcontrolinstall.Install,
		imagepolicyinstall.Install, lifecycleinstall.Install, networkinginstall.Install,
		nodeinstall.Install, policyinstall.Install, rbacinstall.Install,
		resourceinstall.Install, schedulinginstall.Install, storageinstall.Install,
		storagemigrationinstall.Install, apiextensionsinstall.Install,
	} {
		install(s)
	}
	return s
})

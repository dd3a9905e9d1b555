package registry

import (
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	coreapi "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/apis/core/validation"
)

// beforeServiceStrategy does for a write of a Service's main resource
// what the Service storage does before the strategy (its REST's create
// and update hooks), short of allocating: on update, keepAllocated; on
// create, the list of cluster IPs of a request that sets only the single
// address; then the address allocator's start, which infers
// spec.ipFamilyPolicy when the request leaves it out (the live policy,
// RequireDualStack for a headless Service without a selector, else
// SingleStack) and refuses inconsistent address fields in its own words,
// before the strategy's validation. Other objects are left alone.
func beforeServiceStrategy(obj, old runtime.Object) error {
	svc, ok := obj.(*coreapi.Service)
	if !ok {
		return nil
	}
	live, _ := old.(*coreapi.Service)
	if live != nil {
		keepAllocated(svc, live)
	} else if svc.Spec.ClusterIP != "" && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	if svc.Spec.Type == coreapi.ServiceTypeExternalName || unchangedPreferDualStack(svc, live) {
		return nil
	}
	if svc.Spec.IPFamilyPolicy == nil {
		policy := coreapi.IPFamilyPolicySingleStack
		switch {
		case live != nil && live.Spec.IPFamilyPolicy != nil:
			policy = *live.Spec.IPFamilyPolicy
		case svc.Spec.ClusterIP == coreapi.ClusterIPNone && len(svc.Spec.Selector) == 0:
			policy = coreapi.IPFamilyPolicyRequireDualStack
		}
		svc.Spec.IPFamilyPolicy = &policy
	}
	if errs := validation.ValidateServiceClusterIPsRelatedFields(svc, live); len(errs) != 0 {
		return apierrors.NewInvalid(coreapi.Kind("Service"), svc.Name, errs)
	}
	return nil
}

// unchangedPreferDualStack reports whether an update keeps a
// PreferDualStack Service's type, addresses and families, which the
// allocator then leaves as they are.
func unchangedPreferDualStack(svc, live *coreapi.Service) bool {
	if live == nil || svc.Spec.IPFamilyPolicy == nil || live.Spec.Type != svc.Spec.Type {
		return false
	}
	switch svc.Spec.Type {
	case coreapi.ServiceTypeClusterIP, coreapi.ServiceTypeNodePort, coreapi.ServiceTypeLoadBalancer:
	default:
		return false
	}
	if *svc.Spec.IPFamilyPolicy != coreapi.IPFamilyPolicyPreferDualStack ||
		(live.Spec.IPFamilyPolicy != nil && *live.Spec.IPFamilyPolicy != coreapi.IPFamilyPolicyPreferDualStack) {
		return false
	}
	return slices.Equal(svc.Spec.ClusterIPs, live.Spec.ClusterIPs) && slices.Equal(svc.Spec.IPFamilies, live.Spec.IPFamilies)
}

// keepAllocated does, for an update of a Service's main resource, what the
// Service storage does before its strategy runs (its REST's update hook):
// the values its allocators assigned and the request left out keep their
// live values, so that a client may send the Service it created without
// the addresses and ports the server chose. Nothing is allocated here: a
// new Service keeps no addresses (see docs/compatibility.md).
//
//   - spec.clusterIP and spec.clusterIPs, while the type (before and
//     after) is not ExternalName; a clusterIPs left out with the live
//     clusterIP kept is the live list;
//   - each port's nodePort, by port name, while the type needs node ports
//     and the live port's is not used by another port of the new Service;
//   - spec.healthCheckNodePort, for a LoadBalancer with the Local external
//     traffic policy;
//   - spec.ipFamilies when the cluster IPs are the live ones, as the
//     address allocator adopts them.
func keepAllocated(svc, live *coreapi.Service) {
	if needsClusterIP(live) && needsClusterIP(svc) {
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP = live.Spec.ClusterIP
		}
		if len(svc.Spec.ClusterIPs) == 0 && len(live.Spec.ClusterIPs) > 0 {
			svc.Spec.ClusterIPs = slices.Clone(live.Spec.ClusterIPs)
		}
	}
	if needsNodePort(live) && needsNodePort(svc) {
		used := map[int32]bool{}
		inNew := map[int32]bool{}
		for _, p := range svc.Spec.Ports {
			inNew[p.NodePort] = p.NodePort != 0
		}
		for _, p := range live.Spec.Ports {
			if p.NodePort != 0 && inNew[p.NodePort] {
				used[p.NodePort] = true
			}
		}
		byName := map[string]int32{}
		for _, p := range live.Spec.Ports {
			byName[p.Name] = p.NodePort
		}
		for i := range svc.Spec.Ports {
			p := &svc.Spec.Ports[i]
			if p.NodePort == 0 && !used[byName[p.Name]] {
				p.NodePort = byName[p.Name]
			}
		}
	}
	if needsHealthCheckNodePort(live) && needsHealthCheckNodePort(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = live.Spec.HealthCheckNodePort
	}
	// The single address and the list are brought into line: an old
	// client sends the single address only (the list is the live one when
	// the address is), and one that changes or clears the single address
	// and sends the live list changes or clears the list with it.
	if len(live.Spec.ClusterIPs) > 0 && len(svc.Spec.ClusterIPs) == 0 && live.Spec.ClusterIP == svc.Spec.ClusterIP {
		svc.Spec.ClusterIPs = slices.Clone(live.Spec.ClusterIPs)
	}
	if live.Spec.ClusterIP != svc.Spec.ClusterIP && slices.Equal(live.Spec.ClusterIPs, svc.Spec.ClusterIPs) {
		switch {
		case live.Spec.ClusterIP != "" && svc.Spec.ClusterIP == "":
			svc.Spec.ClusterIPs = nil
		case live.Spec.ClusterIP == "" || svc.Spec.ClusterIP != "":
			svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
		}
	}
	if svc.Spec.Type == coreapi.ServiceTypeExternalName {
		return
	}
	if len(svc.Spec.IPFamilies) == 0 && len(live.Spec.IPFamilies) > 0 && slices.Equal(svc.Spec.ClusterIPs, live.Spec.ClusterIPs) {
		svc.Spec.IPFamilies = slices.Clone(live.Spec.IPFamilies)
	}
}

func needsClusterIP(svc *coreapi.Service) bool {
	return svc.Spec.Type != coreapi.ServiceTypeExternalName
}

func needsNodePort(svc *coreapi.Service) bool {
	switch svc.Spec.Type {
	case coreapi.ServiceTypeNodePort:
		return true
	case coreapi.ServiceTypeLoadBalancer:
		return svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts
	}
	return false
}

func needsHealthCheckNodePort(svc *coreapi.Service) bool {
	return svc.Spec.Type == coreapi.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == coreapi.ServiceExternalTrafficPolicyLocal
}

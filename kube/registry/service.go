package registry

import (
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	coreapi "k8s.io/kubernetes/pkg/apis/core"
)

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
//   - spec.ipFamilyPolicy, and spec.ipFamilies when the cluster IPs are the
//     live ones, as the address allocator adopts them.
func keepAllocated(obj, old runtime.Object) {
	svc, ok := obj.(*coreapi.Service)
	live, ok2 := old.(*coreapi.Service)
	if !ok || !ok2 {
		return
	}
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
	// The singular address without the list (an old client): the list
	// follows when it is the live address.
	if len(live.Spec.ClusterIPs) > 0 && len(svc.Spec.ClusterIPs) == 0 && live.Spec.ClusterIP == svc.Spec.ClusterIP {
		svc.Spec.ClusterIPs = slices.Clone(live.Spec.ClusterIPs)
	}
	if svc.Spec.Type == coreapi.ServiceTypeExternalName {
		return
	}
	if svc.Spec.IPFamilyPolicy == nil && live.Spec.IPFamilyPolicy != nil {
		policy := *live.Spec.IPFamilyPolicy
		svc.Spec.IPFamilyPolicy = &policy
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

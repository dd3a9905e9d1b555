package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/structmerge/structmerge/kube"
)

// beyondOffline lists, per built-in kind, what an API server sets that an
// offline apply cannot know because it depends on admission, the cluster
// or the requester (docs/compatibility.md, "What an offline apply cannot
// know", has the same table). Mutating webhooks and admission policies
// can change any kind; they are named in every warning, not a reason for
// one.
var beyondOffline = map[kube.GroupVersionKind][]string{
	{Version: "v1", Kind: "Pod"}: {
		"spec.serviceAccountName and its token volume (admission: ServiceAccount)",
		"spec.priority and spec.preemptionPolicy (admission: Priority)",
		"the not-ready and unreachable tolerations (admission: DefaultTolerationSeconds)",
		"resource requests and limits (admission: LimitRanger)",
		"spec.overhead (admission: RuntimeClass)",
	},
	{Version: "v1", Kind: "PersistentVolumeClaim"}: {
		"spec.storageClassName (admission: DefaultStorageClass)",
		"the kubernetes.io/pvc-protection finalizer (admission: StorageObjectInUseProtection)",
	},
	{Version: "v1", Kind: "PersistentVolume"}: {
		"the kubernetes.io/pv-protection finalizer (admission: StorageObjectInUseProtection)",
	},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}: {
		"spec.ingressClassName (admission: DefaultIngressClass)",
	},
	{Version: "v1", Kind: "Service"}: {
		"spec.clusterIP, spec.clusterIPs, node ports and spec.ipFamilies (the server's allocators and service CIDRs)",
	},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "CertificateSigningRequest"}: {
		"spec.username, spec.uid, spec.groups and spec.extra (the requester's identity)",
	},
}

// warnBeyondOffline prints one warning per kind among the objects created
// (objs) that an API server may change in ways an offline apply cannot
// know. (Those effects happen when the object is created; a live object
// has them already.)
func warnBeyondOffline(w io.Writer, objs []object) {
	seen := map[kube.GroupVersionKind]bool{}
	for _, o := range objs {
		gvk := o.gvk()
		what, ok := beyondOffline[gvk]
		if !ok || seen[gvk] {
			continue
		}
		seen[gvk] = true
		fmt.Fprintf(w, "warning: %s: an API server may also set fields that an offline apply cannot know: %s, and whatever "+
			"mutating webhooks and admission policies set (docs/compatibility.md#what-an-offline-apply-cannot-know)\n",
			gvk.Kind, strings.Join(what, ", "))
	}
}

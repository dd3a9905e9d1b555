// Package conformance holds differential tests and side-by-side benchmarks
// that run structmerge and its behavioural reference (structured-merge-diff
// v6.4.2 and the Kubernetes field manager in k8s.io/apimachinery) on the same
// inputs. It is a separate module so that the main module does not depend on
// the reference.
//
// The registry tables of the Kubernetes reference (what each built-in
// kind's storage strategies reset, where the scale subresource finds the
// replicas) come from conformance/registryref, a module of its own that
// calls the strategies of k8s.io/kubernetes; TestRegistryTablesMatchReference
// compares them with structmerge's generated tables.
package conformance

import (
	_ "github.com/structmerge/structmerge/value"
	_ "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

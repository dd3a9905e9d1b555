#!/usr/bin/env bash
# The real-server differential: starts a kube-apiserver v1.37.2 on
# unmodified structured-merge-diff v6.4.2 and a real etcd (built from the
# Go module proxy by scripts/kube-apiserver.sh), and runs the conformance
# module's TestRealServer* tests against it: the Kubernetes scenario corpus
# and the manifests of examples/ and testdata/, replayed on the server and
# on structmerge's kube.Server, step by step (object, managedFields,
# error texts); structmerge apply beside the server's apply; the histories
# of examples/live; the test that shows an injected fault is caught; and
# the seeded random program of applies, updates, status and scale writes
# (600 cases, 2,215 writes with the default seed).
#
#   scripts/server-differential.sh            # run the tests
#   STRUCTMERGE_REFERENCE_UPDATE=1 scripts/server-differential.sh
#                                             # rewrite the list of known
#                                             # mismatches
#   STRUCTMERGE_REFERENCE_RANDOM=N KUBE_SEED=S scripts/server-differential.sh
#                                             # another size or seed of the
#                                             # random program (0: none)
#
# The server runs without the admission plugins that change objects on
# their own (ServiceAccount, Priority, DefaultTolerationSeconds,
# StorageObjectInUseProtection): what they add is out of an offline
# apply's reach (docs/compatibility.md lists it), so the reference leaves
# them out rather than filtering their effects. The other defaults
# (NamespaceLifecycle, validating admission, ...) stay on. API Priority and
# Fairness is off too: its configuration controller writes the status of
# every FlowSchema while the tests run, as the manager of the same name
# that a scenario plays.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/kube-apiserver.sh

dir=$(mktemp -d "${TMPDIR:-/tmp}/structmerge-reference.XXXXXX")
cleanup() {
	kube_apiserver_stop "$dir"
	rm -rf "$dir"
}
trap cleanup EXIT

KUBE_APISERVER_ARGS="--disable-admission-plugins=ServiceAccount,Priority,DefaultTolerationSeconds,StorageObjectInUseProtection --enable-priority-and-fairness=false ${KUBE_APISERVER_ARGS:-}" \
	kube_apiserver_start smd "$dir"

cd conformance
STRUCTMERGE_REFERENCE_RANDOM="${STRUCTMERGE_REFERENCE_RANDOM:-600}" \
	STRUCTMERGE_REFERENCE_KUBECONFIG="$dir/kubeconfig" go test -race -count=1 -run '^TestRealServer' -v . |
	grep -E '^(=== RUN|--- |PASS|FAIL|ok)|realserver_test.go' || true
status=${PIPESTATUS[0]}
exit "$status"

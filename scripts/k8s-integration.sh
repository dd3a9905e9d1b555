#!/usr/bin/env bash
# Runs Kubernetes' own integration tests on structmerge's drop-in for
# structured-merge-diff (smd/), or on SMD itself: each test starts a real
# kube-apiserver in process on a real etcd, both built here from the Go
# module proxy (scripts/control-plane.sh), and drives it through client-go.
#
# The packages (Kubernetes v1.37.2), with their counts on SMD v6.4.2 (tests
# and subtests that report a result; `K8S_INTEGRATION_ENGINE=smd
# scripts/k8s-integration.sh all`):
#
#   test/integration/apiserver/apply   server-side apply: every built-in
#                                      kind, CRDs, status, scale, reset
#                                      fields, managedFields parsing
#                                      (the default): 57 tests, 200 with
#                                      subtests (190 subtests skip
#                                      themselves)
#   test/integration/dryrun            dry-run create, update, patch and
#                                      delete of every built-in resource:
#                                      1 test, 91 with subtests
#   test/integration/apiserver         the API server's create, update and
#                                      (strategic, merge, JSON, apply)
#                                      patch of all kinds, field
#                                      validation, metadata, unstructured:
#                                      52 tests, 796 with subtests
#
# The drop-in gives the same counts, all passed. scripts/k8s-integration.min
# holds them: a run that counts fewer fails. It prints, per package and in
# total,
#
#   <package> N passed, M failed, K known deviations, S skipped
#
# and its verdict is scripts/suitecount's: exit 0 exactly when every
# package built and ran to its end, every test reported a result, nothing
# but a known deviation (scripts/k8s-integration.known: documented fixes,
# docs/compatibility.md q1-q4, with the evidence) failed, and each package
# counted its minimum.
#
# Usage: scripts/k8s-integration.sh [PACKAGE... | all]
#   PACKAGE                   a directory under the Kubernetes tree
#                             (default test/integration/apiserver/apply)
#   K8S_INTEGRATION_ENGINE    adapter (default: the drop-in) or smd
#   K8S_INTEGRATION_RUN       a -run pattern for go test
#   K8S_INTEGRATION_RACE=1    build with -race
#   K8S_INTEGRATION_KEEP=1    keep the go test -json output and print its path
#   STRUCTMERGE_CACHE         where etcd and the trees are built (default
#                             ~/.cache/structmerge; reused by later runs)
#
# Measured on 2 cores with empty Go caches: etcd builds in about 1 minute,
# the apply package in about 8 and runs in about 5.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
. scripts/control-plane.sh

kubernetes_version=v1.37.2
engine="${K8S_INTEGRATION_ENGINE:-adapter}"
all_packages=(test/integration/apiserver/apply test/integration/dryrun test/integration/apiserver)
packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
	packages=(test/integration/apiserver/apply)
elif [ "${packages[*]}" = all ]; then
	packages=("${all_packages[@]}")
fi

etcd_version="$(etcd_version_for "$kubernetes_version")"
etcd="$(etcd_build "$etcd_version")"
tree="$(k8s_tree "$kubernetes_version" "$engine")"
echo "k8s-integration: Kubernetes $kubernetes_version on $([ "$engine" = adapter ] && echo "structmerge's drop-in (smd/)" || echo "structured-merge-diff as it requires"), etcd $etcd_version" >&2

out="$(mktemp -d)"
if [ "${K8S_INTEGRATION_KEEP:-}" = 1 ]; then
	echo "k8s-integration: keeping $out" >&2
else
	trap 'rm -rf "$out"' EXIT
fi

args=(-json -count=1 -vet=off -timeout=40m)
[ -n "${K8S_INTEGRATION_RUN:-}" ] && args+=(-run "$K8S_INTEGRATION_RUN")
[ "${K8S_INTEGRATION_RACE:-}" = 1 ] && args+=(-race)
targets=()
for p in "${packages[@]}"; do targets+=("./${p#./}"); done

# The tests find etcd on the PATH and start their own on a free port; the
# packages run one at a time (each starts API servers of its own).
rc=0
(cd "$tree" && PATH="$(dirname "$etcd"):$PATH" k8s_env go test -p 1 "${args[@]}" "${targets[@]}" \
	>"$out/test.json" 2>"$out/test.err") || rc=$?
if [ -s "$out/test.err" ]; then
	echo "k8s-integration: go test wrote to stderr:" >&2
	head -40 "$out/test.err" >&2
fi
go build -o "$out/count" ./scripts/suitecount
count_args=(-known scripts/k8s-integration.known -exit "$rc" -trim k8s.io/kubernetes/)
# A -run pattern runs part of a package: no minimum then.
[ -z "${K8S_INTEGRATION_RUN:-}" ] && count_args+=(-min-file scripts/k8s-integration.min)
"$out/count" "${count_args[@]}" <"$out/test.json"

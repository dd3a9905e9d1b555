#!/usr/bin/env bash
# Runs Kubernetes' own tests of server-side apply on structmerge's drop-in
# for structured-merge-diff (smd/), under -race:
#
#   k8s.io/apimachinery v0.37.2  pkg/util/managedfields/...
#   k8s.io/apiserver v0.37.2     pkg/endpoints/handlers/fieldmanager
#   k8s.io/client-go v0.37.2     testing (the field-managed object tracker)
#                                and kubernetes/fake (the clientset's apply)
#
# in a temporary module that requires them with
# `replace sigs.k8s.io/structured-merge-diff/v6 => <repo>/smd`, laid out
# as in the Kubernetes repository so the tests find api/openapi-spec/
# swagger.json (scripts/k8s-layout.sh), then the test module of ours,
# scripts/k8s-fakeclient (client-go's fake clientset: a Deployment applied
# by two managers, the conflict, a forced apply). It prints per package and
# in total
#
#   <package> N passed, M failed, K known deviations, S skipped
#
# counting tests and subtests. Failures listed in scripts/k8s-suite.known
# (documented fixes, docs/compatibility.md q1-q4) are counted apart. The
# verdict is scripts/suitecount's: it exits 0 exactly when every package
# built and ran to its end, every test that started reported a result,
# nothing but a known deviation failed, and each package counted at least
# its minimum in scripts/k8s-suite.min. Nothing is
# copied into the repository.
#
# Usage: scripts/k8s-suite.sh
#   K8S_SUITE_ENGINE=smd   run the same tests on SMD v6.4.2 itself instead
#   K8S_SUITE_RUN          a -run pattern to pass to go test
#   K8S_SUITE_PACKAGES     the packages to test, instead of all of the above
#                          (then without our test module)
#   K8S_SUITE_KEEP=1       keep the temporary directory and print its path
#
# The modules come from the Go module cache (the conformance module's
# `go mod download` puts all but k8s.io/kubernetes there; that one is
# downloaded on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
. scripts/k8s-layout.sh

engine="${K8S_SUITE_ENGINE:-adapter}"
# A fixed directory per checkout and engine, made anew on each run: the
# same paths let the Go build cache reuse what an earlier run compiled
# (compiling client-go's fake clientset under -race takes minutes).
tmp="${TMPDIR:-/tmp}/structmerge-k8s-suite-$engine-$(printf %s "$repo" | cksum | cut -d' ' -f1)"
rm -rf "$tmp"
mkdir -p "$tmp"
if [ "${K8S_SUITE_KEEP:-}" = 1 ]; then
	echo "k8s-suite: keeping $tmp" >&2
else
	trap 'rm -rf "$tmp"' EXIT
fi
export GOWORK=off

k8s_layout "$tmp" "$engine"

args=(-race -json -count=1)
[ -n "${K8S_SUITE_RUN:-}" ] && args+=(-run "$K8S_SUITE_RUN")
all_packages="k8s.io/apimachinery/pkg/util/managedfields/... k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager k8s.io/client-go/testing k8s.io/client-go/kubernetes/fake"
read -r -a packages <<<"${K8S_SUITE_PACKAGES:-$all_packages}"
rc=0
(cd "$tmp/run" && go test "${args[@]}" "${packages[@]}" >"$tmp/test.json" 2>"$tmp/test.err") || rc=$?
if [ "$engine" = adapter ] && [ -z "${K8S_SUITE_PACKAGES:-}" ]; then
	(cd scripts/k8s-fakeclient && go test "${args[@]}" ./... >>"$tmp/test.json" 2>>"$tmp/test.err") || rc=$((rc | $?))
fi
if [ -s "$tmp/test.err" ]; then
	echo "k8s-suite: go test wrote to stderr (build errors?):" >&2
	head -40 "$tmp/test.err" >&2
fi
go build -o "$tmp/count" ./scripts/suitecount
echo "Kubernetes' field-manager tests on $([ "$engine" = adapter ] && echo "structmerge's drop-in (smd/)" || echo "SMD $smd_version")"
count_args=(-known scripts/k8s-suite.known -exit "$rc")
# A -run pattern runs part of a package: no minimum then.
[ -z "${K8S_SUITE_RUN:-}" ] && count_args+=(-min-file scripts/k8s-suite.min)
"$tmp/count" "${count_args[@]}" <"$tmp/test.json"

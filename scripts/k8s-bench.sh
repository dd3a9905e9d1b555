#!/usr/bin/env bash
# Runs k8s.io/apiserver v0.37.2's own field-manager benchmark
# (pkg/endpoints/handlers/fieldmanager/bench_test.go: NewObject,
# ConvertObjectToTyped, Compare, RepeatedUpdate on Pods, Nodes and
# Endpoints), unmodified, once on structured-merge-diff v6.4.2 and once on
# structmerge's drop-in (smd/, through a replace line), and prints both
# with the ratios SMD/structmerge (above 1: structmerge is faster or
# smaller) and their geometric means (scripts/k8s-bench-compare.go).
#
# Usage: scripts/k8s-bench.sh [-bench regexp]
#   K8S_BENCH_COUNT   runs of each engine, taking turns (default 1; the
#                     comparison takes the median of each row)
#   K8S_BENCH_TIME    -benchtime (default 1s)
#   K8S_BENCH_OUT     a directory to keep both raw outputs in
#   K8S_BENCH_PROFILE=1  also write CPU profiles (smd.cpu, adapter.cpu) there
#
# The layout (swagger.json where the benchmark looks for it) is the one of
# scripts/k8s-suite.sh (scripts/k8s-layout.sh). Both test binaries are
# built first, then run one after the other on the same machine.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
. scripts/k8s-layout.sh

bench="."
[ "${1:-}" = "-bench" ] && bench="$2"
export GOWORK=off
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out="${K8S_BENCH_OUT:-$tmp/out}"
mkdir -p "$out"

pkg=k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager
pkgdir=kube/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager
for engine in smd adapter; do
	mkdir -p "$tmp/$engine"
	k8s_layout "$tmp/$engine" "$engine"
	(cd "$tmp/$engine/run" && go test -c -o "$tmp/$engine/bench.test" "$pkg")
done
# With K8S_BENCH_COUNT above 1 the two engines take turns, one run each,
# so that a change in the machine's speed during the runs falls on both.
rm -f "$out/smd.txt" "$out/adapter.txt"
for ((round = 1; round <= ${K8S_BENCH_COUNT:-1}; round++)); do
	for engine in smd adapter; do
		prof=()
		[ "${K8S_BENCH_PROFILE:-}" = 1 ] && [ "$round" = 1 ] && prof=(-test.cpuprofile "$out/$engine.cpu")
		# The benchmark reads pod.yaml and the swagger relative to its package.
		(cd "$tmp/$engine/$pkgdir" && "$tmp/$engine/bench.test" -test.run '^$' -test.bench "$bench" \
			-test.benchmem -test.count 1 -test.benchtime "${K8S_BENCH_TIME:-1s}" \
			"${prof[@]}" | tee -a "$out/$engine.txt" >&2)
	done
done
[ "${K8S_BENCH_PROFILE:-}" = 1 ] && cp "$tmp"/smd/bench.test "$out/smd.test" && cp "$tmp"/adapter/bench.test "$out/adapter.test"
echo
go run scripts/k8s-bench-compare.go -names SMD,structmerge "$out/smd.txt" "$out/adapter.txt"

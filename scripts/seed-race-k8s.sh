#!/usr/bin/env bash
# The seed race, in the test that found it: Kubernetes' integration test
# TestVolumeBindingRescheduling (test/integration/volumescheduling) and the
# package's other binding tests, under -race as Kubernetes' integration-race
# job runs them, each R times, in two configurations (docs/race.md):
#
#   Kubernetes v1.35.4 with the SMD it requires (v6.3.0, the version that
#   raced), and v1.35.4 with structmerge's drop-in (smd/) in its place.
#
# Each run starts a real kube-apiserver and scheduler in process on a real
# etcd (scripts/control-plane.sh builds them from the Go module proxy). The
# tests are not changed. It prints a Testgrid-style table: per test and
# configuration, the runs, the failed runs, the DATA RACE reports, and how
# many of those reports name structured-merge-diff's lazy schema caches
# (schema.(*Map).CopyInto, (*Map).FindField, (*Schema).Resolve).
#
# Usage: scripts/seed-race-k8s.sh
#   SEED_RACE_RUNS=R          runs of each test (default 10)
#   SEED_RACE_TESTS="A B"     the tests (default: the binding tests below)
#   SEED_RACE_CONFIGS="..."   which configurations, of smd and adapter
#                             (default both)
#   SEED_RACE_KEEP=1          keep every run's output and print where
#   STRUCTMERGE_CACHE         where etcd and the trees are built
#
# Exits 0 when every run of the drop-in passed with no DATA RACE report,
# 1 otherwise (SMD v6.3.0's results are reported, not judged: whether it
# races in R runs is what the table measures).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/control-plane.sh

kubernetes_version=v1.35.4
runs="${SEED_RACE_RUNS:-10}"
read -r -a tests <<<"${SEED_RACE_TESTS:-TestVolumeBindingRescheduling TestVolumeBinding TestVolumeBindingWithAffinity TestVolumeBindingWithAntiAffinity TestPVAffinityConflict}"
read -r -a configs <<<"${SEED_RACE_CONFIGS:-smd adapter}"

out="$(mktemp -d)"
if [ "${SEED_RACE_KEEP:-}" = 1 ]; then
	echo "seed-race-k8s: keeping $out" >&2
else
	trap 'rm -rf "$out"' EXIT
fi

etcd="$(etcd_build "$(etcd_version_for "$kubernetes_version")")"
for cfg in "${configs[@]}"; do
	tree="$(k8s_tree "$kubernetes_version" "$cfg")"
	smd="$(cd "$tree" && k8s_env go list -m -f '{{.Version}}{{with .Replace}} => {{.Path}}{{end}}' sigs.k8s.io/structured-merge-diff/v6)"
	echo "seed-race-k8s: building $kubernetes_version with structured-merge-diff $smd, -race" >&2
	if ! (cd "$tree" && k8s_env go test -race -vet=off -c -o "$out/$cfg.test" ./test/integration/volumescheduling) >"$out/$cfg.build" 2>&1; then
		echo "seed-race-k8s: the build failed:" >&2
		tail -40 "$out/$cfg.build" >&2
		exit 1
	fi
	echo "$smd" >"$out/$cfg.smd"
done

# races FILE prints "<reports> <reports naming SMD's schema caches>": a
# report runs from "WARNING: DATA RACE" to the next line of '='.
races() {
	awk '
		/^WARNING: DATA RACE/ { in_report = 1; n++; smd = 0; next }
		in_report && /^==================/ { in_report = 0; if (smd) s++; next }
		in_report && /structured-merge-diff\/v6\/schema\.\(\*(Map|Schema)\)\.(CopyInto|FindField|Resolve)\(/ { smd = 1 }
		END { if (in_report && smd) s++; printf "%d %d\n", n, s }
	' "$1"
}

status=0
results="$out/results"
: >"$results"
for cfg in "${configs[@]}"; do
	for t in "${tests[@]}"; do
		fails=0 reports=0 smdreports=0
		for ((i = 1; i <= runs; i++)); do
			log="$out/$cfg-$t-$i.log"
			rc=0
			(cd "$out" && PATH="$(dirname "$etcd"):$PATH" GORACE=halt_on_error=0 \
				"./$cfg.test" -test.run "^$t\$" -test.count=1 -test.timeout=20m -test.v >"$log" 2>&1) || rc=$?
			read -r n s < <(races "$log")
			# A run fails when the binary fails, or its test did not pass.
			if [ "$rc" != 0 ] || ! grep -q "^--- PASS: $t " "$log"; then
				fails=$((fails + 1))
			fi
			reports=$((reports + n))
			smdreports=$((smdreports + s))
			echo "seed-race-k8s: $cfg $t run $i: exit $rc, $n DATA RACE reports ($s naming SMD's schema caches)" >&2
		done
		echo "$cfg $t $runs $fails $reports $smdreports" >>"$results"
		if [ "$cfg" = adapter ] && { [ "$fails" != 0 ] || [ "$reports" != 0 ]; }; then
			status=1
		fi
	done
done

echo
echo "Kubernetes $kubernetes_version test/integration/volumescheduling, go test -race, $runs runs of each test"
echo
printf '| %-34s | %-30s | %4s | %6s | %17s | %20s |\n' test configuration runs failed "DATA RACE reports" "naming SMD's caches"
printf '|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..36})" "$(printf -- '-%.0s' {1..32})" "-----:" "-------:" "------------------:" "---------------------:"
while read -r cfg t r f n s; do
	name="structured-merge-diff $(cat "$out/$cfg.smd")"
	[ "$cfg" = adapter ] && name="structmerge drop-in (smd/)"
	printf '| %-34s | %-30s | %4s | %6s | %17s | %20s |\n' "$t" "$name" "$r" "$f" "$n" "$s"
done <"$results"
exit "$status"

#!/usr/bin/env bash
# Runs the concurrency tests under the race detector, many times, and
# counts failures and race reports (docs/reliability.md).
#
# The tests are those of the main module whose names match
# 'Concurren|Race|Parallel|Stress|Rescheduling' (each package's concurrency
# test, the engine's concurrent applies, internal/stress's mixed readers and
# writers and its volume-binding-rescheduling simulation, ...) and the
# conformance module's seed-race tests ('^TestSeedRace': the workload on
# which structured-merge-diff v6.3.0 races). Each package's test
# binary is built once with -race; every run then executes each binary with
# -test.count=1 (nothing is cached). At the end it prints
#
#   N runs, F failures, R race reports
#
# and, if there were race reports, the distinct races grouped by the top
# frame of each of the two accesses, most frequent first. The logs of
# failing runs are kept (the script prints where).
#
# Usage: RUNS=N scripts/stress.sh      (RUNS defaults to 100)
#   STRESS_RUN    the test name pattern in the main module
#                 (default 'Concurren|Race|Parallel|Stress|Rescheduling')
#   STRESS_SHORT  set to 1 to pass -test.short
#   STRESS_CONFORMANCE=0  leave out the conformance module's tests
#   STRESS_PARALLEL  how many test binaries of a run execute at once
#                 (default: the number of CPUs)
#
# Exits 0 when every run passed without a race report, 1 otherwise. A
# package whose tests do not build is left out and named at the end, and
# the exit status is then 2 (unless a run failed).
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${RUNS:-100}"
pattern="${STRESS_RUN:-Concurren|Race|Parallel|Stress|Rescheduling}"
conformance="${STRESS_CONFORMANCE:-1}"
short=()
if [ "${STRESS_SHORT:-0}" = 1 ]; then
	short=(-test.short)
fi
parallel="${STRESS_PARALLEL:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}"
case "$parallel" in
'' | *[!0-9]* | 0)
	echo "stress: STRESS_PARALLEL must be a positive number, got '$parallel'" >&2
	exit 2
	;;
esac
case "$runs" in
'' | *[!0-9]*)
	echo "stress: RUNS must be a number, got '$runs'" >&2
	exit 2
	;;
esac

export GOWORK=off
tmp="$(mktemp -d)"
logs="$(mktemp -d -t stress-logs.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"

# targets: one line per test binary: NAME<TAB>DIR<TAB>PATTERN; broken: the
# packages whose tests do not build.
: >"$tmp/targets"
: >"$tmp/broken"

# build MODULE_DIR PATTERN: builds the race-enabled test binary of every
# package of the module that has tests matching PATTERN.
build() {
	local module="$1" pat="$2" n=0 pkg dir bin
	while IFS=$'\t' read -r pkg dir; do
		n=$((n + 1))
		bin="$tmp/bin/$(echo "$pkg" | tr '/.' '__').test"
		if ! (cd "$module" && go test -c -race -o "$bin" "$pkg") >"$tmp/build.log" 2>&1; then
			# Its tests are left out, the others run, and the exit status
			# says so.
			echo "stress: NOT RUN: the tests of $pkg do not build:" >&2
			sed 's/^/    /' "$tmp/build.log" | head -n 20 >&2
			echo "$pkg" >>"$tmp/broken"
			continue
		fi
		[ -x "$bin" ] || continue # no test files after all
		if (cd "$dir" && "$bin" -test.list "$pat" 2>/dev/null) | grep -q .; then
			printf '%s\t%s\t%s\n' "$pkg" "$dir" "$pat" >>"$tmp/targets"
		fi
	done < <(cd "$module" && go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{"\t"}}{{.Dir}}{{end}}' ./...)
}

echo "stress: building race-enabled test binaries..."
build . "$pattern"
if [ "$conformance" = 1 ]; then
	build conformance '^TestSeedRace'
fi
if [ ! -s "$tmp/targets" ]; then
	echo "stress: no tests match" >&2
	exit 2
fi
echo "stress: $(wc -l <"$tmp/targets") packages with matching tests:"
cut -f1 "$tmp/targets" | sed 's/^/  /'

failures=0
races=0
: >"$tmp/race-keys"
for ((i = 1; i <= runs; i++)); do
	failed=0
	runraces=0
	# Start the run's binaries, at most $parallel at a time; each writes its
	# own log and exit status.
	k=0
	while IFS=$'\t' read -r pkg dir pat; do
		k=$((k + 1))
		while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
			wait -n || true
		done
		bin="$tmp/bin/$(echo "$pkg" | tr '/.' '__').test"
		(
			rc=0
			cd "$dir" && GORACE="halt_on_error=0 ${GORACE:-}" "$bin" -test.run "$pat" -test.count=1 -test.timeout=10m "${short[@]}" >"$tmp/run.$k.log" 2>&1 || rc=$?
			echo "$rc" >"$tmp/run.$k.rc"
		) &
	done <"$tmp/targets"
	wait
	k=0
	while IFS=$'\t' read -r pkg dir pat; do
		k=$((k + 1))
		log="$tmp/run.$k.log"
		rc="$(cat "$tmp/run.$k.rc" 2>/dev/null || echo "?")"
		n="$(grep -c 'WARNING: DATA RACE' "$log" || true)"
		if [ "$rc" != 0 ] || [ "$n" != 0 ]; then
			failed=1
			runraces=$((runraces + n))
			kept="$logs/run$i-$(echo "$pkg" | tr '/.' '__').log"
			cp "$log" "$kept"
			echo "run $i: $pkg: exit $rc, $n race reports (log: $kept)"
			# The key of a race: the top frame of the access and of the
			# previous access it raced with.
			awk '
				/^WARNING: DATA RACE/ { inrace = 1; first = ""; second = ""; want = 0; next }
				inrace && /^(Read|Write|Atomic read|Atomic write) at / { want = 1; next }
				inrace && /^Previous (read|write|atomic read|atomic write) at / { want = 2; next }
				inrace && want && /^  [^ ]/ {
					f = $1
					if (want == 1 && first == "") first = f
					if (want == 2 && second == "") second = f
					want = 0
					next
				}
				inrace && /^==================/ {
					print first " <-> " second
					inrace = 0
				}
			' "$log" >>"$tmp/race-keys"
		fi
		rm -f "$log" "$tmp/run.$k.rc"
	done <"$tmp/targets"
	failures=$((failures + failed))
	races=$((races + runraces))
	if [ $((i % 10)) = 0 ] && [ "$i" != "$runs" ]; then
		echo "stress: $i/$runs runs, $failures failures, $races race reports so far"
	fi
done

echo "$runs runs, $failures failures, $races race reports"
if [ -s "$tmp/race-keys" ]; then
	echo "distinct races (count, access <-> previous access):"
	sort "$tmp/race-keys" | uniq -c | sort -rn | sed 's/^/  /'
fi
if [ -s "$tmp/broken" ]; then
	echo "not run, because their tests do not build:"
	sed 's/^/  /' "$tmp/broken"
fi
if [ "$failures" = 0 ] && [ "$races" = 0 ]; then
	rmdir "$logs" 2>/dev/null || true
	[ ! -s "$tmp/broken" ] || exit 2
	exit 0
fi
echo "logs of the failing runs: $logs"
exit 1

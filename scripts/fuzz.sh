#!/usr/bin/env bash
# Runs every fuzz target of the main module for FUZZTIME each
# (docs/reliability.md). Targets are discovered with `go test -list` in each
# package that has tests. Prints one line per target:
#
#   PASS  github.com/structmerge/structmerge/merge  FuzzApply  10s  execs 61234 (6123/s)  new 12
#
# and a summary line; a failing target also prints the go test output and
# the file where Go saved the failing input (under the package's
# testdata/fuzz/FuzzXxx/, the seed corpus: commit it with the fix).
#
# Usage: scripts/fuzz.sh
#   FUZZTIME       time per target, as go test -fuzztime takes it (default 10s)
#   FUZZ_MATCH     only targets whose "package FuzzName" matches this
#                  extended regexp (default: all)
#   FUZZ_PARALLEL  fuzzing workers per target (default: go test's, GOMAXPROCS)
#   FUZZ_CONFORMANCE=1  also the conformance module's targets
#   FUZZ_SKIP_PACKAGES  packages (an extended regexp on their import path)
#                  left out, not even built (default: none)
#
# A package whose tests do not build is reported as a failure, and the
# other packages' targets still run. Exits 0 when every target passed and
# every package built, 1 otherwise, 2 when there is no target at all.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime="${FUZZTIME:-10s}"
match="${FUZZ_MATCH:-}"
parallel=()
if [ -n "${FUZZ_PARALLEL:-}" ]; then
	parallel=(-parallel "$FUZZ_PARALLEL")
fi
export GOWORK=off
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# list MODULE_DIR: prints "MODULE_DIR<TAB>package<TAB>FuzzName" for every
# fuzz target of the module.
list() {
	local module="$1" pkg
	# Only packages whose test files declare a Fuzz function are listed
	# with go test -list (which builds their tests): listing every package
	# would build every test binary of the module once more.
	for pkg in $(cd "$module" && go list -f '{{.ImportPath}}{{range .TestGoFiles}} {{$.Dir}}/{{.}}{{end}}{{range .XTestGoFiles}} {{$.Dir}}/{{.}}{{end}}' ./... |
		while read -r ip files; do
			if [ -n "${FUZZ_SKIP_PACKAGES:-}" ] && [[ "$ip" =~ ${FUZZ_SKIP_PACKAGES} ]]; then continue; fi
			if [ -n "$files" ] && grep -q '^func Fuzz' $files; then echo "$ip"; fi
		done); do
		if ! (cd "$module" && go test -list '^Fuzz' "$pkg") >"$tmp/list" 2>&1; then
			# A package whose tests do not build fails, and the others run.
			{
				echo "FAIL  $pkg  (its tests do not build)"
				sed 's/^/    /' "$tmp/list" | head -n 20
			} >>"$tmp/broken"
			continue
		fi
		{ grep '^Fuzz' "$tmp/list" || true; } | while read -r name; do
			printf '%s\t%s\t%s\n' "$module" "$pkg" "$name"
		done
	done
}

: >"$tmp/broken"
{
	list .
	if [ "${FUZZ_CONFORMANCE:-0}" = 1 ]; then
		list conformance
	fi
} >"$tmp/targets"
if [ -n "$match" ]; then
	awk -F'\t' -v m="$match" '($2 " " $3) ~ m' "$tmp/targets" >"$tmp/selected"
	mv "$tmp/selected" "$tmp/targets"
fi
total="$(wc -l <"$tmp/targets")"
broken="$(grep -c '^FAIL' "$tmp/broken" || true)"
if [ "$total" = 0 ] && [ "$broken" = 0 ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 2
fi

cat "$tmp/broken"
failed=0
timeouts=0
allexecs=0
while IFS=$'\t' read -r module pkg name; do
	rc=0
	start=$(date +%s)
	(cd "$module" && go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "${parallel[@]}" "$pkg") \
		>"$tmp/out" 2>&1 </dev/null || rc=$?
	took=$(($(date +%s) - start))
	# The last progress line: "fuzz: elapsed: 10s, execs: 61234 (6123/sec), new interesting: 12 (total: 162)"
	last="$(grep '^fuzz: elapsed:' "$tmp/out" | tail -n 1 || true)"
	execs="$(sed -n 's/.*execs: \([0-9]*\).*/\1/p' <<<"$last")"
	new="$(sed -n 's/.*new interesting: \([0-9]*\).*/\1/p' <<<"$last")"
	# The average rate over the fuzzing time (the last line's own rate is
	# that of its last tick).
	elapsed="$(sed -n 's/^fuzz: elapsed: \([0-9hms.]*\),.*/\1/p' <<<"$last" |
		awk '{ t = 0; s = $0
			if (match(s, /[0-9.]+h/)) t += 3600 * substr(s, RSTART, RLENGTH - 1)
			if (match(s, /[0-9.]+m/)) t += 60 * substr(s, RSTART, RLENGTH - 1)
			if (match(s, /[0-9.]+s/)) t += substr(s, RSTART, RLENGTH - 1)
			print t }')"
	allexecs=$((allexecs + ${execs:-0}))
	if [ "$rc" = 0 ] && [ -z "$execs" ]; then
		printf 'PASS  %s  %s  %ss  seed corpus only (%s)\n' "$pkg" "$name" "$took" \
			"$(sed -n 's/.*gathering baseline coverage: \([0-9/]*\).*/baseline coverage \1/p' <<<"$last")"
	elif [ "$rc" = 0 ]; then
		rate="$(awk -v n="$execs" -v t="${elapsed:-0}" 'BEGIN { if (t > 0) printf "%d", n / t; else print "?" }')"
		printf 'PASS  %s  %s  %ss  execs %s (%s/s)  new %s\n' "$pkg" "$name" "$took" "$execs" "$rate" "${new:-?}"
	elif ! grep -q 'Failing input written to' "$tmp/out" && grep -q 'context deadline exceeded' "$tmp/out" &&
		! grep -qE '^\s+--- FAIL: .*\(|panic:' <(grep -v -e '--- FAIL: '"$name"' (' "$tmp/out"); then
		# Go's fuzzing coordinator sometimes stops a worker at the end of
		# the fuzzing time and reports its own deadline as a failure, with
		# no input: nothing to reproduce or fix.
		timeouts=$((timeouts + 1))
		printf 'PASS  %s  %s  %ss  execs %s  (the fuzzing engine reported its own deadline, with no failing input)\n' \
			"$pkg" "$name" "$took" "${execs:-?}"
	else
		failed=$((failed + 1))
		printf 'FAIL  %s  %s  %ss  execs %s  (exit %s)\n' "$pkg" "$name" "$took" "${execs:-?}" "$rc"
		sed 's/^/    /' "$tmp/out" | grep -v '^    fuzz: elapsed:' | tail -n 60
		grep -o 'Failing input written to [^ ]*' "$tmp/out" | sed 's/^/    /' || true
	fi
done <"$tmp/targets"

summary="$total targets, $((total - failed)) passed, $failed failed, $allexecs executions (FUZZTIME=$fuzztime each)"
if [ "$timeouts" != 0 ]; then
	summary="$summary; $timeouts stopped by the fuzzing engine's own deadline without an input"
fi
if [ "$broken" != 0 ]; then
	summary="$summary; $broken packages whose tests do not build"
fi
echo "$summary"
[ "$failed" = 0 ] && [ "$broken" = 0 ]

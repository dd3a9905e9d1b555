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
#
# Exits 0 when every target passed, 1 otherwise, 2 when nothing could be
# listed (a package does not build).
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
	for pkg in $(cd "$module" && go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...); do
		if ! (cd "$module" && go test -list '^Fuzz' "$pkg") >"$tmp/list" 2>&1; then
			echo "fuzz: listing the tests of $pkg failed:" >&2
			cat "$tmp/list" >&2
			exit 2
		fi
		{ grep '^Fuzz' "$tmp/list" || true; } | while read -r name; do
			printf '%s\t%s\t%s\n' "$module" "$pkg" "$name"
		done
	done
}

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
if [ "$total" = 0 ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 2
fi

failed=0
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
	rate="$(sed -n 's/.*execs: [0-9]* (\([0-9]*\)\/sec).*/\1/p' <<<"$last")"
	new="$(sed -n 's/.*new interesting: \([0-9]*\).*/\1/p' <<<"$last")"
	allexecs=$((allexecs + ${execs:-0}))
	if [ "$rc" = 0 ]; then
		printf 'PASS  %s  %s  %ss  execs %s (%s/s)  new %s\n' "$pkg" "$name" "$took" "${execs:-?}" "${rate:-?}" "${new:-?}"
	else
		failed=$((failed + 1))
		printf 'FAIL  %s  %s  %ss  execs %s  (exit %s)\n' "$pkg" "$name" "$took" "${execs:-?}" "$rc"
		sed 's/^/    /' "$tmp/out" | grep -v '^    fuzz: elapsed:' | tail -n 60
		grep -o 'Failing input written to [^ ]*' "$tmp/out" | sed 's/^/    /' || true
	fi
done <"$tmp/targets"

echo "$total targets, $((total - failed)) passed, $failed failed, $allexecs executions (FUZZTIME=$fuzztime each)"
[ "$failed" = 0 ]

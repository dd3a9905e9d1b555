#!/usr/bin/env bash
# Shows the data race that started this project, and that structmerge does
# not have it (docs/race.md).
#
# Builds with -race and runs the same workload twice: on structured-merge-diff
# v6.3.0 (conformance/seedrace/smd, a module of its own that pins v6.3.0) and
# on structmerge (conformance/seedrace/structmerge). Prints one line per
# engine:
#
#   smd v6.3.0: race detected
#   structmerge: no race
#
# and exits 0 exactly when SMD v6.3.0 reports its race between
# (*Map).CopyInto and (*Map).FindField and structmerge reports no race and
# gets identical results in every goroutine; 1 otherwise.
#
# Usage: scripts/seed-race.sh [-v]
#   -v               print what each program wrote (race reports included)
#   SEEDRACE_ROUNDS  fresh schemas per program (default 200)
#
# Needs Go with cgo (the race detector) and the Go module proxy to download
# SMD v6.3.0 on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

verbose=0
case "${1:-}" in
-v) verbose=1 ;;
"") ;;
*)
	echo "usage: $0 [-v]" >&2
	exit 2
	;;
esac
rounds="${SEEDRACE_ROUNDS:-200}"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Each module is built on its own; a go.work elsewhere must not join them.
export GOWORK=off

# Build quietly (downloads print on stderr); show the log only on failure.
if ! {
	(cd conformance/seedrace/smd && go mod download && go build -race -o "$tmp/smd" .) &&
		(cd conformance && go build -race -o "$tmp/structmerge" ./seedrace/structmerge)
} >"$tmp/build.log" 2>&1; then
	echo "seed-race: build failed:" >&2
	cat "$tmp/build.log" >&2
	exit 1
fi

# run NAME: runs the built program, keeps its output in $tmp/NAME.out and its
# exit status in $tmp/NAME.rc. The race detector exits 66 after reporting.
run() {
	local rc=0
	"$tmp/$1" -rounds "$rounds" >"$tmp/$1.out" 2>&1 || rc=$?
	echo "$rc" >"$tmp/$1.rc"
	if [ "$verbose" = 1 ]; then
		echo "----- $1 (exit $rc)"
		cat "$tmp/$1.out"
	fi
}
raced() { grep -q 'WARNING: DATA RACE' "$tmp/$1.out"; }

run smd
run structmerge

ok=1

# SMD: the race must be the one between CopyInto (read) and FindField
# (write). The program exits 1 when the race also made a valid object be
# rejected, which is part of the bug, not a failure of the demonstration.
if raced smd; then
	if grep -q 'schema.(\*Map).CopyInto' "$tmp/smd.out" &&
		grep -q 'schema.(\*Map).FindField' "$tmp/smd.out"; then
		echo "smd v6.3.0: race detected"
	else
		echo "smd v6.3.0: race detected, but not between (*Map).CopyInto and (*Map).FindField"
		ok=0
	fi
else
	echo "smd v6.3.0: no race (exit $(cat "$tmp/smd.rc"))"
	ok=0
fi

if raced structmerge; then
	echo "structmerge: race detected"
	ok=0
elif [ "$(cat "$tmp/structmerge.rc")" != 0 ]; then
	echo "structmerge: no race, but the program failed (exit $(cat "$tmp/structmerge.rc")):"
	sed 's/^/  /' "$tmp/structmerge.out"
	ok=0
else
	echo "structmerge: no race"
fi

[ "$ok" = 1 ]

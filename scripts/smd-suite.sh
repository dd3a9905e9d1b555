#!/usr/bin/env bash
# Runs SMD v6.4.2's own tests on structmerge's drop-in module (smd/).
#
# Copies, into a temporary copy of smd/, the test files of SMD's external
# test packages (package fieldpath_test, value_test, typed_test,
# merge_test: they use only SMD's public API) and what they import
# (internal/fixture, internal/testdata), all from the Go module cache, then
# runs them with -race and prints per package and in total
#
#   <package> N passed, M failed, K known deviations, S skipped
#
# counting tests and subtests. Failures listed in scripts/smd-suite.known
# (documented deviations, docs/compatibility.md q1-q4) are counted apart.
# The verdict is scripts/suitecount's: it exits 0 exactly when every package
# built and ran to its end, every test that started reported a result,
# nothing but a known deviation failed, and each package counted at least
# its minimum in scripts/smd-suite.min (so a suite that silently stops
# early fails).
#
# What runs: SMD's external test packages only (package X_test: 32 test
# files, 69 top-level tests and their subtests, in fieldpath, value, typed
# and merge). SMD's 13 internal test files (package X: 39 top-level tests,
# in schema, value, fieldpath, internal/fixture and internal/cli) test SMD's
# unexported code and cannot run on another implementation.
# Nothing is copied into the repository.
#
# Usage: scripts/smd-suite.sh [package...]   (default: fieldpath value typed merge)
#   SMD_SUITE_RUN  a -run pattern to pass to go test
#   SMD_SUITE_KEEP=1  keep the temporary directory and print its path
#
# Needs sigs.k8s.io/structured-merge-diff/v6@v6.4.2 in the module cache
# (the conformance module's `go mod download` puts it there).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

smd_version=v6.4.2
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(fieldpath value typed merge)

modcache="$(go env GOMODCACHE)"
src="$modcache/sigs.k8s.io/structured-merge-diff/v6@$smd_version"
if [ ! -d "$src" ]; then
	(cd conformance && go mod download sigs.k8s.io/structured-merge-diff/v6) >/dev/null
fi
[ -d "$src" ] || { echo "smd-suite: $src not in the module cache" >&2; exit 2; }

tmp="$(mktemp -d)"
if [ "${SMD_SUITE_KEEP:-}" = 1 ]; then
	echo "smd-suite: keeping $tmp" >&2
else
	trap 'rm -rf "$tmp"' EXIT
fi

export GOWORK=off
mod="$tmp/smd"
cp -r smd "$mod"
chmod -R u+w "$mod"
(cd "$mod" && go mod edit -replace "github.com/structmerge/structmerge=$repo")
# Only SMD's tests run here; the adapter's own run with `go test` in smd/.
find "$mod" -name '*_test.go' -delete

# The external test files of each package: only they can run on an adapter.
for p in "${pkgs[@]}"; do
	for f in "$src/$p"/*_test.go; do
		if grep -qE "^package ${p}_test\$" "$f"; then
			cp "$f" "$mod/$p/"
		fi
	done
done
mkdir -p "$mod/internal/fixture" "$mod/internal/testdata"
cp "$src"/internal/fixture/state.go "$mod/internal/fixture/"
cp "$src"/internal/testdata/* "$mod/internal/testdata/"
chmod -R u+w "$mod"

# The tests' own dependencies, at SMD's versions, with SMD's checksums.
cat "$src/go.sum" >>"$mod/go.sum"
(cd "$mod" && go mod edit \
	-require github.com/google/go-cmp@v0.5.9 \
	-require sigs.k8s.io/randfill@v0.0.0-20250304075658-069ef1bbf016 &&
	GOFLAGS=-mod=mod go mod tidy -e >/dev/null 2>"$tmp/tidy.log") || {
	echo "smd-suite: preparing the module failed:" >&2
	cat "$tmp/tidy.log" >&2
	exit 1
}

args=(-race -json -count=1)
[ -n "${SMD_SUITE_RUN:-}" ] && args+=(-run "$SMD_SUITE_RUN")
targets=()
for p in "${pkgs[@]}"; do targets+=("./$p"); done
rc=0
(cd "$mod" && go test "${args[@]}" "${targets[@]}" >"$tmp/test.json" 2>"$tmp/test.err") || rc=$?
if [ -s "$tmp/test.err" ]; then
	echo "smd-suite: go test wrote to stderr (build errors?):" >&2
	head -40 "$tmp/test.err" >&2
fi
go build -o "$tmp/count" ./scripts/suitecount
count_args=(-known scripts/smd-suite.known -exit "$rc" -trim sigs.k8s.io/structured-merge-diff/v6/)
# A -run pattern runs part of a package: no minimum then.
[ -z "${SMD_SUITE_RUN:-}" ] && count_args+=(-min-file scripts/smd-suite.min)
"$tmp/count" "${count_args[@]}" <"$tmp/test.json"

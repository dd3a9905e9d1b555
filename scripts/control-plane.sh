# Sourced by the scripts that run Kubernetes itself (not run alone):
# scripts/k8s-integration.sh, scripts/seed-race-k8s.sh, scripts/kubectl-e2e.sh.
#
# It builds a real control plane from the Go module proxy, never from
# downloaded binaries, and caches it per machine under $STRUCTMERGE_CACHE
# (default ~/.cache/structmerge), so that later runs reuse the build cache:
#
#   etcd_build VERSION
#       builds go.etcd.io/etcd/server/v3@VERSION in a scratch module and
#       prints the path of the etcd binary ($cache/etcd-VERSION/etcd).
#
#   k8s_tree VERSION ENGINE
#       lays out k8s.io/kubernetes@VERSION from the module cache as a module
#       that builds on its own, and prints its directory
#       ($cache/kubernetes-VERSION-ENGINE, and a hash of the checkout for
#       the drop-in): the zip has no staging/, so every
#       `k8s.io/NAME => ./staging/src/k8s.io/NAME` replace points at the
#       published module k8s.io/NAME@v0.X.Y instead; vendor/, go.work and
#       go.work.sum are removed. ENGINE is
#         smd       structured-merge-diff as the release requires it (the
#                   reference: v6.4.2 for v1.37.2, v6.3.0 for v1.35.4)
#         adapter   structmerge's drop-in: SMD replaced by <repo>/smd and
#                   the engine by <repo>
#       Build and test in it with k8s_env (GOFLAGS=-mod=mod GOWORK=off).
#
#   etcd_version_for VERSION
#       the etcd release a Kubernetes release requires (from its go.mod).
#
# The tree is made anew when its go.mod is missing; a copy of the drop-in is
# not taken (the replace names the checkout), so the tree always builds the
# working tree's smd/.

cp_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cp_cache="${STRUCTMERGE_CACHE:-$HOME/.cache/structmerge}"

# k8s_env runs a command with the settings a Kubernetes tree builds with.
k8s_env() {
	GOFLAGS=-mod=mod GOWORK=off GOTOOLCHAIN=local "$@"
}

cp_modcache() { go env GOMODCACHE; }

# cp_download MODULE@VERSION puts a module into the module cache.
cp_download() {
	local m="$1" dir
	dir="$(cp_modcache)/$(printf %s "$m" | sed -E 's/[A-Z]/!\L&/g')"
	if [ ! -d "$dir" ]; then
		(cd "$cp_cache" && GOFLAGS=-mod=mod GOWORK=off go mod download "$m") >/dev/null ||
			{ echo "control-plane: cannot download $m" >&2; return 1; }
	fi
	printf %s "$dir"
}

etcd_version_for() {
	local src
	mkdir -p "$cp_cache"
	src="$(cp_download "k8s.io/kubernetes@$1")" || return 1
	awk '$1 == "go.etcd.io/etcd/server/v3" { print $2; exit }' "$src/go.mod"
}

etcd_build() {
	local version="$1" dir
	dir="$cp_cache/etcd-$version"
	if [ -x "$dir/etcd" ] && "$dir/etcd" --version 2>/dev/null | grep -q "etcd Version: ${version#v}\$"; then
		printf %s "$dir/etcd"
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir/src"
	cat >"$dir/src/go.mod" <<EOM
module example.com/etcdbuild

go 1.26
EOM
	if ! (cd "$dir/src" && GOFLAGS=-mod=mod GOWORK=off go get "go.etcd.io/etcd/server/v3@$version" &&
		GOFLAGS=-mod=mod GOWORK=off go build -o "$dir/etcd" go.etcd.io/etcd/server/v3) >"$dir/build.log" 2>&1; then
		echo "control-plane: building etcd $version failed:" >&2
		tail -40 "$dir/build.log" >&2
		return 1
	fi
	printf %s "$dir/etcd"
}

k8s_tree() {
	local version="$1" engine="$2" src dir staging
	case "$engine" in
	smd | adapter) ;;
	*)
		echo "control-plane: engine must be smd or adapter, not $engine" >&2
		return 2
		;;
	esac
	mkdir -p "$cp_cache"
	src="$(cp_download "k8s.io/kubernetes@$version")" || return 1
	# Kubernetes v1.X.Y publishes its staging modules as v0.X.Y.
	staging="v0.${version#v1.}"
	dir="$cp_cache/kubernetes-$version-$engine"
	# The drop-in's tree names this checkout in its replace lines: one tree
	# per checkout.
	[ "$engine" = adapter ] && dir="$dir-$(printf %s "$cp_repo" | cksum | cut -d' ' -f1)"
	if [ ! -f "$dir/go.mod" ] || [ ! -f "$dir/.structmerge-tree" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		cp -r "$src/." "$dir/"
		chmod -R u+w "$dir"
		rm -rf "$dir/vendor" "$dir/go.work" "$dir/go.work.sum"
		# Only the staging modules the tree requires get a version (some of
		# the others, the samples, are not published).
		local edits=() name required
		required="$(cd "$dir" && go mod edit -json)" || return 1
		while read -r name; do
			edits+=(-dropreplace "$name")
			# A require entry is "Path": "...", followed by its version.
			if grep -q "\"Path\": \"$name\"," <<<"$required"; then
				edits+=(-require "$name@$staging")
			fi
		done < <(awk '$2 == "=>" && $3 ~ /^\.\/staging\/src\// { print $1 }' "$dir/go.mod")
		(cd "$dir" && go mod edit "${edits[@]}") || return 1
		# The drop-in and the engine, with their dependencies' checksums.
		if [ "$engine" = adapter ]; then
			(cd "$dir" && go mod edit \
				-replace "sigs.k8s.io/structured-merge-diff/v6=$cp_repo/smd" \
				-replace "github.com/structmerge/structmerge=$cp_repo") || return 1
			cat "$cp_repo/go.sum" "$cp_repo/smd/go.sum" >>"$dir/go.sum"
		fi
		sort -u -o "$dir/go.sum" "$dir/go.sum"
		if ! (cd "$dir" && k8s_env go mod download >"$dir/.download.log" 2>&1 &&
			k8s_env go list -deps ./test/integration/framework >/dev/null 2>>"$dir/.download.log"); then
			echo "control-plane: preparing the Kubernetes $version tree failed:" >&2
			tail -40 "$dir/.download.log" >&2
			return 1
		fi
		echo "$version $engine" >"$dir/.structmerge-tree"
	fi
	printf %s "$dir"
}

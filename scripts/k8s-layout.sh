# Sourced by scripts/k8s-suite.sh and scripts/k8s-bench.sh (not run alone).
#
# k8s_layout DIR ENGINE lays out, under DIR, what Kubernetes' own tests of
# the field manager expect around them, from the Go module cache:
#
#   DIR/kube/api/openapi-spec/swagger.json      (k8s.io/kubernetes@v1.37.2)
#   DIR/kube/staging/src/k8s.io/apimachinery    (k8s.io/apimachinery@v0.37.2)
#   DIR/kube/staging/src/k8s.io/apiserver       (k8s.io/apiserver@v0.37.2)
#   DIR/kube/staging/src/k8s.io/client-go       (k8s.io/client-go@v0.37.2)
#
# (the tests read the swagger by a relative path, as in the Kubernetes
# repository), and a module DIR/run that requires the three staging
# modules through replace lines. ENGINE "adapter" adds
#   replace sigs.k8s.io/structured-merge-diff/v6 => <repo>/smd
# so everything runs on structmerge's drop-in; ENGINE "smd" keeps SMD
# v6.4.2 itself. Needs the modules in the cache (or network to the proxy).
k8s_version=v0.37.2
kubernetes_version=v1.37.2
smd_version=v6.4.2

k8s_layout() {
	local dir="$1" engine="$2" repo m src
	repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
	local modcache
	modcache="$(go env GOMODCACHE)"
	for m in k8s.io/apimachinery@$k8s_version k8s.io/apiserver@$k8s_version \
		k8s.io/client-go@$k8s_version k8s.io/kubernetes@$kubernetes_version; do
		if [ ! -d "$modcache/$m" ]; then
			(cd "$dir" && GOFLAGS=-mod=mod go mod download "$m") >/dev/null ||
				{ echo "k8s_layout: cannot download $m" >&2; return 1; }
		fi
	done
	mkdir -p "$dir/kube/api/openapi-spec" "$dir/kube/staging/src/k8s.io" "$dir/run"
	cp "$modcache/k8s.io/kubernetes@$kubernetes_version/api/openapi-spec/swagger.json" "$dir/kube/api/openapi-spec/"
	for m in apimachinery apiserver client-go; do
		cp -r "$modcache/k8s.io/$m@$k8s_version" "$dir/kube/staging/src/k8s.io/$m"
	done
	chmod -R u+w "$dir/kube"

	cat >"$dir/run/go.mod" <<EOM
module example.com/k8ssuite

go 1.26

require (
	k8s.io/apimachinery $k8s_version
	k8s.io/apiserver $k8s_version
	k8s.io/client-go $k8s_version
	sigs.k8s.io/structured-merge-diff/v6 $smd_version
)

replace (
	k8s.io/apimachinery => ../kube/staging/src/k8s.io/apimachinery
	k8s.io/apiserver => ../kube/staging/src/k8s.io/apiserver
	k8s.io/client-go => ../kube/staging/src/k8s.io/client-go
)
EOM
	if [ "$engine" = adapter ]; then
		(cd "$dir/run" && go mod edit \
			-replace "sigs.k8s.io/structured-merge-diff/v6=$repo/smd" \
			-replace "github.com/structmerge/structmerge=$repo")
	fi
	cat >"$dir/run/deps.go" <<'EOM'
// Package k8ssuite only names the packages whose tests run here.
package k8ssuite

import (
	_ "k8s.io/apimachinery/pkg/util/managedfields"
	_ "k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager"
	_ "k8s.io/client-go/kubernetes/fake"
	_ "k8s.io/client-go/testing"
)
EOM
	# Checksums of everything involved, from the modules themselves.
	cat "$modcache"/k8s.io/{apimachinery,apiserver,client-go}@$k8s_version/go.sum \
		"$repo/conformance/go.sum" "$repo/smd/go.sum" | sort -u >"$dir/run/go.sum"
	(cd "$dir/run" && GOFLAGS=-mod=mod go mod tidy >"$dir/tidy.log" 2>&1) || {
		echo "k8s_layout: go mod tidy failed:" >&2
		cat "$dir/tidy.log" >&2
		return 1
	}
}

#!/usr/bin/env bash
# A real kube-apiserver on loopback, on structmerge's drop-in (smd/) or on
# unmodified structured-merge-diff, for kubectl and other clients. Built from
# the Go module proxy (scripts/control-plane.sh), never from downloaded
# binaries.
#
# Sourced (scripts/kubectl-e2e.sh), it defines:
#
#   kube_apiserver_build ENGINE
#       builds cmd/kube-apiserver in `k8s_tree $KUBE_APISERVER_VERSION ENGINE`
#       and prints the binary's path ($tree/_output/kube-apiserver). go build
#       is incremental: a build that is up to date only checks.
#
#   kube_apiserver_start ENGINE DIR
#       builds the server and etcd, then starts etcd (data in DIR/etcd) and
#       kube-apiserver on 127.0.0.1 at free ports, and waits for /readyz.
#       DIR (made if missing, best a fresh temporary directory) holds all
#       the state: pki/ (a CA, the serving certificate, the service-account
#       key), tokens.csv, the logs, the pid files and DIR/kubeconfig with
#       two contexts:
#         admin  user admin, group system:masters (the current context)
#         dev    user dev, group e2e:devs, no RBAC bindings (forbidden)
#       On failure it prints the tail of the logs, stops what it started
#       and returns 1.
#
#   kube_apiserver_stop DIR
#       stops the kube-apiserver and etcd of DIR (only processes whose
#       command line names DIR), waiting for them to exit. It does nothing
#       for processes that are gone, so it can always be called.
#
# Standalone:
#
#   scripts/kube-apiserver.sh start ENGINE DIR   # adapter | smd; leaves the
#                                                # servers running
#   kubectl --kubeconfig DIR/kubeconfig get --raw /readyz
#   scripts/kube-apiserver.sh stop DIR
#
# Environment:
#   KUBE_APISERVER_VERSION   the Kubernetes release (default v1.37.2)
#   KUBE_APISERVER_TIMEOUT   seconds to wait for /readyz (default 180)
#   KUBE_APISERVER_ARGS      more flags for kube-apiserver, split on spaces
#                            (later flags win: --profiling=true)
#   KUBE_APISERVER_PKI       openssl (the default when it is on the PATH)
#                            or go (scripts/kube-apiserver-pki.go)
#   STRUCTMERGE_CACHE        see scripts/control-plane.sh
#
# Needs curl, and python3 or bash's /dev/tcp to find free ports. Measured on
# 2 shared cores with a warm module cache: a first build of kube-apiserver
# took about 4 minutes per engine (the Go build cache already held much of
# it; more when it is cold); a start with the build done takes about 5
# seconds.

kas_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$kas_repo/scripts/control-plane.sh"

kas_version() { printf %s "${KUBE_APISERVER_VERSION:-v1.37.2}"; }

kube_apiserver_build() {
	local engine="$1" version tree minor ldflags=() pkg log
	version="$(kas_version)"
	tree="$(k8s_tree "$version" "$engine")" || return 1
	# The version a release build stamps in (hack/lib/version.sh), so that
	# clients see v1.37.2 and not v0.0.0-master.
	minor="${version#v1.}"
	minor="${minor%%.*}"
	for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
		ldflags+=("-X $pkg.gitVersion=$version" "-X $pkg.gitMajor=1" "-X $pkg.gitMinor=$minor")
	done
	log="$tree/_output/kube-apiserver.build.log"
	mkdir -p "$tree/_output"
	if ! (cd "$tree" && k8s_env go build -ldflags "${ldflags[*]}" -o _output/kube-apiserver ./cmd/kube-apiserver) >"$log" 2>&1; then
		echo "kube-apiserver: building $version on $engine failed:" >&2
		tail -40 "$log" >&2
		return 1
	fi
	printf %s "$tree/_output/kube-apiserver"
}

# kas_free_ports N prints N distinct free TCP ports on 127.0.0.1, one a line.
kas_free_ports() {
	local n="$1" p found=()
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$n" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
for s in socks:
    print(s.getsockname()[1])
EOF
		return
	fi
	while [ ${#found[@]} -lt "$n" ]; do
		p=$((20000 + RANDOM % 40000))
		case " ${found[*]} " in *" $p "*) continue ;; esac
		# A port nothing answers on is taken as free.
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			found+=("$p")
		fi
	done
	printf '%s\n' "${found[@]}"
}

# kas_pki DIR writes DIR/pki: ca.{crt,key}, server.{crt,key}, sa.{key,pub}.
kas_pki() {
	local pki="$1/pki" mode="${KUBE_APISERVER_PKI:-}"
	mkdir -p "$pki"
	chmod 700 "$pki"
	if [ -z "$mode" ]; then
		mode=go
		command -v openssl >/dev/null 2>&1 && mode=openssl
	fi
	case "$mode" in
	openssl)
		(
			set -e
			cd "$pki"
			openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=structmerge-e2e-ca \
				-keyout ca.key -out ca.crt
			openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver \
				-keyout server.key -out server.csr
			printf '%s\n' 'subjectAltName=IP:127.0.0.1,DNS:localhost' 'basicConstraints=CA:FALSE' \
				'keyUsage=digitalSignature,keyEncipherment' 'extendedKeyUsage=serverAuth' >server.ext
			openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 7 \
				-extfile server.ext -out server.crt
			openssl genrsa -out sa.key 2048
			openssl rsa -in sa.key -pubout -out sa.pub
		) >"$1/pki.log" 2>&1
		;;
	go)
		(cd "$kas_repo" && go run scripts/kube-apiserver-pki.go "$pki") >"$1/pki.log" 2>&1
		;;
	*)
		echo "kube-apiserver: KUBE_APISERVER_PKI must be openssl or go, not $mode" >&2
		return 1
		;;
	esac || {
		echo "kube-apiserver: making the certificates ($mode) failed:" >&2
		tail -20 "$1/pki.log" >&2
		return 1
	}
}

kas_token() { od -An -tx1 -N16 /dev/urandom | tr -d ' \n'; }

# kas_pid DIR NAME prints the pid in DIR/NAME.pid when that process exists.
kas_pid() {
	local pid
	[ -f "$1/$2.pid" ] || return 1
	pid="$(cat "$1/$2.pid")"
	[ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
	printf %s "$pid"
}

# kas_stat PID N prints field N of /proc/PID/stat after the command name
# (1 is the state, 2 the parent's pid).
kas_stat() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f"$2"; }

# kas_ours DIR NAME prints the pid in DIR/NAME.pid when that process is still
# running and its command line names DIR (so a reused pid is left alone).
kas_ours() {
	local pid cmd ppid
	pid="$(kas_pid "$1" "$2")" || return 1
	cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline")" || return 1
	case "$cmd" in
	*"$1/"*) printf %s "$pid" ;;
	*)
		# Our own child that has not run exec yet (its command line is
		# still this script's) is ours too.
		ppid="$(kas_stat "$pid" 2)"
		[ "$ppid" = "$$" ] || [ "$ppid" = "$BASHPID" ] || return 1
		printf %s "$pid"
		;;
	esac
}

# kas_alive DIR NAME reports whether the process we started as NAME (pid in
# DIR/NAME.pid) is still running. Unlike kas_ours it does not read the
# command line: just after the start, the forked shell may not have run exec
# yet, and its command line is still this script's. A zombie is not alive.
kas_alive() {
	local pid state
	pid="$(kas_pid "$1" "$2")" || return 1
	state="$(kas_stat "$pid" 1)"
	[ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

kas_tail_logs() {
	local f
	for f in "$1/kube-apiserver.log" "$1/etcd.log"; do
		[ -s "$f" ] || continue
		echo "----- last lines of $f" >&2
		tail -25 "$f" >&2
	done
}

kube_apiserver_stop() {
	local dir="$1" name pid i
	[ -d "$dir" ] || return 0
	dir="$(cd "$dir" && pwd)"
	for name in kube-apiserver etcd; do
		pid="$(kas_ours "$dir" "$name")" || continue
		kill -TERM "$pid" 2>/dev/null || continue
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
		rm -f "$dir/$name.pid"
	done
	return 0
}

# kas_wait_url DIR NAME SECONDS CURL-ARGS...: polls a URL until it answers
# 200 and returns 1 if NAME's process exits or the time runs out, with the
# last answer (for /readyz?verbose, the checks that failed).
kas_wait_url() {
	local dir="$1" name="$2" seconds="$3" deadline code
	shift 3
	deadline=$((SECONDS + seconds))
	while [ "$SECONDS" -lt "$deadline" ]; do
		code="$(curl -sS --max-time 5 -o "$dir/$name.ready" -w '%{http_code}' "$@" 2>"$dir/$name.ready.err")" || true
		if [ "$code" = 200 ]; then
			return 0
		fi
		if ! kas_alive "$dir" "$name"; then
			echo "kube-apiserver: $name exited while starting" >&2
			return 1
		fi
		sleep 0.5
	done
	echo "kube-apiserver: $name was not ready after ${seconds}s (HTTP $code):" >&2
	cat "$dir/$name.ready.err" >&2
	grep -v '^\[+\]' "$dir/$name.ready" | tail -20 >&2
	return 1
}

kube_apiserver_start() {
	local engine="$1" dir="$2" bin etcd ports etcd_client etcd_peer port admin dev
	local timeout="${KUBE_APISERVER_TIMEOUT:-180}"
	mkdir -p "$dir" && dir="$(cd "$dir" && pwd)" || return 1
	if kas_ours "$dir" kube-apiserver >/dev/null || kas_ours "$dir" etcd >/dev/null; then
		echo "kube-apiserver: $dir already has a running server (stop it first)" >&2
		return 1
	fi
	command -v curl >/dev/null 2>&1 || {
		echo "kube-apiserver: needs curl" >&2
		return 1
	}
	bin="$(kube_apiserver_build "$engine")" || return 1
	etcd="$(etcd_build "$(etcd_version_for "$(kas_version)")")" || return 1
	kas_pki "$dir" || return 1
	ports="$(kas_free_ports 3)" || return 1
	{ read -r etcd_client && read -r etcd_peer && read -r port; } <<<"$ports"
	admin="$(kas_token)"
	dev="$(kas_token)"
	printf '%s\n' "$admin,admin,admin-uid,system:masters" "$dev,dev,dev-uid,e2e:devs" >"$dir/tokens.csv"
	chmod 600 "$dir/tokens.csv"
	echo "$engine" >"$dir/engine"

	rm -rf "$dir/etcd"
	"$etcd" --name e2e --data-dir "$dir/etcd" \
		--listen-client-urls "http://127.0.0.1:$etcd_client" \
		--advertise-client-urls "http://127.0.0.1:$etcd_client" \
		--listen-peer-urls "http://127.0.0.1:$etcd_peer" \
		--initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
		--initial-cluster "e2e=http://127.0.0.1:$etcd_peer" \
		--unsafe-no-fsync --log-level warn \
		</dev/null >"$dir/etcd.log" 2>&1 &
	echo $! >"$dir/etcd.pid"
	if ! kas_wait_url "$dir" etcd 60 "http://127.0.0.1:$etcd_client/health"; then
		kube_apiserver_stop "$dir"
		kas_tail_logs "$dir"
		return 1
	fi

	# No controllers run: the ServiceAccount admission plugin (which wants
	# each namespace's default service account) is off, and the
	# kubernetes Service gets no endpoints for its loopback address.
	"$bin" --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$port" \
		--etcd-servers="http://127.0.0.1:$etcd_client" \
		--cert-dir="$dir/pki" \
		--tls-cert-file="$dir/pki/server.crt" --tls-private-key-file="$dir/pki/server.key" \
		--client-ca-file="$dir/pki/ca.crt" \
		--service-account-key-file="$dir/pki/sa.pub" \
		--service-account-signing-key-file="$dir/pki/sa.key" \
		--service-account-issuer=https://kubernetes.default.svc \
		--token-auth-file="$dir/tokens.csv" \
		--authorization-mode=Node,RBAC \
		--service-cluster-ip-range=10.0.0.0/24 \
		--disable-admission-plugins=ServiceAccount \
		--endpoint-reconciler-type=none \
		--profiling=false \
		${KUBE_APISERVER_ARGS:-} \
		</dev/null >"$dir/kube-apiserver.log" 2>&1 &
	echo $! >"$dir/kube-apiserver.pid"

	cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: https://127.0.0.1:$port
    certificate-authority: $dir/pki/ca.crt
users:
- name: admin
  user:
    token: $admin
- name: dev
  user:
    token: $dev
contexts:
- name: admin
  context:
    cluster: e2e
    user: admin
- name: dev
  context:
    cluster: e2e
    user: dev
current-context: admin
EOF
	chmod 600 "$dir/kubeconfig"
	echo "https://127.0.0.1:$port" >"$dir/server"

	if ! kas_wait_url "$dir" kube-apiserver "$timeout" --cacert "$dir/pki/ca.crt" \
		-H "Authorization: Bearer $admin" "https://127.0.0.1:$port/readyz?verbose"; then
		kube_apiserver_stop "$dir"
		kas_tail_logs "$dir"
		return 1
	fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	case "${1:-} $#" in
	"start 3")
		# Stop whatever started if this script fails or is interrupted
		# before the servers are ready.
		trap 'kube_apiserver_stop "$3"' EXIT
		trap 'exit 130' INT TERM HUP PIPE
		if ! kube_apiserver_start "$2" "$3"; then
			exit 1
		fi
		trap - EXIT INT TERM HUP PIPE
		echo "kube-apiserver ($2) ready at $(cat "$3/server")"
		echo "  export KUBECONFIG=$(cd "$3" && pwd)/kubeconfig"
		echo "  $0 stop $3"
		;;
	"stop 2")
		kube_apiserver_stop "$2"
		;;
	*)
		echo "usage: $0 start adapter|smd DIR | stop DIR" >&2
		exit 2
		;;
	esac
fi

#!/usr/bin/env bash
# Server-side apply load on a real kube-apiserver built on unmodified
# structured-merge-diff (engine smd, the reference) and on structmerge's
# drop-in (engine adapter), same machine, same client load.
#
# For each engine in turn it starts a server (scripts/kube-apiserver.sh, with
# --profiling=true), runs the load generator scripts/k8s-load (it applies N
# objects, half Deployments and half ConfigMaps, then re-applies them from G
# goroutines for a while: first `noop`, the same configuration, then
# `change`, one value changed each time) and stops the server. The engines
# take turns, K rounds (smd first in odd rounds, adapter first in even
# ones), so that a change in the machine's speed falls on both. It prints
# each run, then a markdown table of the medians over the K rounds:
# requests per second, latency p50 and p99 (milliseconds, as the client
# sees it), and the server's CPU seconds (utime+stime of the kube-apiserver
# process, not etcd) per 1,000 requests.
#
# In the first round, after the measured phases, it takes a CPU profile of
# each server (/debug/pprof/profile, fetched with kubectl get --raw, or
# curl without kubectl) during another `change` phase and prints the field
# manager's share of it: the samples whose stack has a function of
# k8s.io/apimachinery/pkg/util/managedfields, sigs.k8s.io/structured-merge-diff
# or github.com/structmerge/structmerge (go tool pprof -focus), over all the
# process's samples (garbage collection on its own workers included). The
# profiled phase is not one of the measured ones.
#
# Usage: scripts/k8s-load.sh
#   K8S_LOAD_REPEATS   K, rounds of each engine (default 3)
#   K8S_LOAD_OBJECTS   N, objects (default 1000)
#   K8S_LOAD_WORKERS   G, goroutines applying at once (default 8)
#   K8S_LOAD_DURATION  length of each measured phase (default 30s)
#   K8S_LOAD_PROFILE   seconds of the CPU profile (default 15; 0: none)
#   K8S_LOAD_KEEP=1    keep the work directory (servers' logs, generator
#                      output, profiles) and print its path
#   K8S_LOAD_SERVER_SCRIPT  the kube-apiserver.sh to source (default: this
#                      checkout's scripts/kube-apiserver.sh). The drop-in's
#                      server is built from the smd/ of that script's
#                      checkout, in a Kubernetes tree of its own per
#                      checkout: pointing it at another checkout whose
#                      servers are built saves building them again.
#   KUBE_APISERVER_*, STRUCTMERGE_CACHE   see scripts/kube-apiserver.sh
#
# Needs what scripts/kube-apiserver.sh needs, and kubectl or curl. With
# both servers built, a run of the defaults takes about 8 minutes (6 server
# starts of about 5 seconds, 12 measured phases of 30 seconds, 2 profiled
# phases, and the setup applies).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

repeats="${K8S_LOAD_REPEATS:-3}"
objects="${K8S_LOAD_OBJECTS:-1000}"
workers="${K8S_LOAD_WORKERS:-8}"
duration="${K8S_LOAD_DURATION:-30s}"
profile="${K8S_LOAD_PROFILE:-15}"
server_script="${K8S_LOAD_SERVER_SCRIPT:-$repo/scripts/kube-apiserver.sh}"
focus='k8s.io/apimachinery/pkg/util/managedfields|sigs.k8s.io/structured-merge-diff|github.com/structmerge/structmerge'

# shellcheck source=kube-apiserver.sh
. "$server_script"
export KUBE_APISERVER_ARGS="${KUBE_APISERVER_ARGS:-} --profiling=true"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/k8s-load.XXXXXX")"
running=""
cleanup() {
	[ -n "$running" ] && kube_apiserver_stop "$running"
	if [ "${K8S_LOAD_KEEP:-}" = 1 ]; then
		echo "kept $tmp" >&2
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

(cd scripts/k8s-load && GOWORK=off go build -o "$tmp/k8s-load" .)

# fetch_profile DIR SECONDS FILE: the server's CPU profile over SECONDS.
fetch_profile() {
	local dir="$1" seconds="$2" out="$3" path
	path="/debug/pprof/profile?seconds=$seconds"
	if command -v kubectl >/dev/null 2>&1; then
		kubectl --kubeconfig "$dir/kubeconfig" --context admin get --raw "$path" >"$out"
	else
		curl -sSf --cacert "$dir/pki/ca.crt" \
			-H "Authorization: Bearer $(cut -d, -f1 "$dir/tokens.csv" | head -1)" \
			"$(cat "$dir/server")$path" >"$out"
	fi
}

# measure ENGINE ROUND: one server, the noop and change phases (and in
# round 1 the profile); appends ENGINE ROUND MODE RPS P50 P99 CPU/1000 to
# $tmp/results.
measure() {
	local engine="$1" round="$2" dir pid mode out gen setup
	dir="$tmp/$engine-$round"
	running="$dir"
	kube_apiserver_start "$engine" "$dir"
	pid="$(cat "$dir/kube-apiserver.pid")"
	gen=("$tmp/k8s-load" -kubeconfig "$dir/kubeconfig" -context admin
		-objects "$objects" -workers "$workers" -server-pid "$pid")
	for mode in noop change; do
		out="$dir/$mode.out"
		# The noop phase first applies the objects (not measured).
		setup=true
		[ "$mode" = change ] && setup=false
		if ! "${gen[@]}" -mode "$mode" -duration "$duration" -setup="$setup" >"$out" 2>&1; then
			cat "$out" >&2
			return 1
		fi
		awk -v e="$engine" -v r="$round" '$1 == "result" {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			print e, r, v["mode"], v["rps"], v["p50_ms"], v["p99_ms"], v["cpu_s_per_1000"]
		}' "$out" >>"$tmp/results"
		printf '%-8s round %s %-6s %s  (load average %s)\n' "$engine" "$round" "$mode" \
			"$(grep -v '^result' "$out" | grep -v '^setup' | sed "s/^$mode: //" | paste -sd';' -)" "$(loadavg)"
	done
	if [ "$round" = 1 ] && [ "$profile" != 0 ]; then
		"${gen[@]}" -mode change -setup=false -duration "$((profile + 4))s" >"$dir/profile-load.out" 2>&1 &
		local genpid=$!
		sleep 2
		if ! fetch_profile "$dir" "$profile" "$tmp/$engine.pprof"; then
			echo "k8s-load: fetching the profile of $engine failed" >&2
			rm -f "$tmp/$engine.pprof"
		fi
		wait "$genpid" || {
			cat "$dir/profile-load.out" >&2
			return 1
		}
	fi
	kube_apiserver_stop "$dir"
	running=""
}

started=$SECONDS
echo "k8s-load: $(nproc) cores, load average $(loadavg); N=$objects G=$workers, $duration a phase, $repeats rounds"
for ((round = 1; round <= repeats; round++)); do
	if ((round % 2)); then order="smd adapter"; else order="adapter smd"; fi
	for engine in $order; do
		measure "$engine" "$round"
	done
done
echo "k8s-load: done in $((SECONDS - started)) s, load average $(loadavg)"

# The medians over the rounds (the mean of the middle two for an even K).
echo
echo "Medians of $repeats rounds (N=$objects objects, G=$workers goroutines, $duration a phase):"
echo
echo "| engine | mode | requests/s | p50 ms | p99 ms | server CPU s per 1,000 requests |"
echo "|---|---|---:|---:|---:|---:|"
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for mode in noop change; do
	for engine in smd adapter; do
		row="| $engine | $mode"
		for col in 4 5 6 7; do
			m="$(awk -v e="$engine" -v m="$mode" -v c="$col" '$1 == e && $3 == m { print $c }' "$tmp/results" | median)"
			case "$col" in
			4) row="$row | $(printf %.0f "$m")" ;;
			*) row="$row | $(printf %.2f "$m")" ;;
			esac
		done
		echo "$row |"
	done
done

if [ "$profile" != 0 ]; then
	echo
	echo "Field manager's share of kube-apiserver's CPU samples (a ${profile}s profile during a change phase):"
	echo
	for engine in smd adapter; do
		f="$tmp/$engine.pprof"
		if [ ! -s "$f" ]; then
			echo "$engine: no profile"
			continue
		fi
		# pprof computes the total before -focus: "Showing nodes accounting
		# for Xms, P% of Tms total" with every node shown is the focused
		# samples' sum over all samples.
		go tool pprof -top -unit=ms -nodefraction=0 -nodecount=1000000 -focus="$focus" "$f" 2>/dev/null |
			awk -v e="$engine" '/^Showing nodes accounting for/ {
				gsub(/ms,?/, "", $5); gsub(/ms/, "", $8)
				printf "%s: %s of %.2f s of CPU samples (%.1f s in the field manager)\n", e, $6, $8 / 1000, $5 / 1000
			}'
	done
	echo "(stacks through $focus)"
fi

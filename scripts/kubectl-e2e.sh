#!/usr/bin/env bash
# kubectl against a real kube-apiserver on structmerge's drop-in (smd/),
# compared with the same kube-apiserver on unmodified structured-merge-diff
# (the reference, v6.4.2 for Kubernetes v1.37.2).
#
# It builds both servers (scripts/kube-apiserver.sh; from the Go module
# proxy), starts them side by side on loopback, drives the same kubectl
# commands through examples/ on each and compares what kubectl prints, its
# exit status and the objects the servers keep:
#
#   apply      kubectl apply --server-side of examples/deployment.yaml and
#              examples/service.yaml
#   get        kubectl get -o json --show-managed-fields (the objects of -o
#              yaml, read without a YAML library): the objects with
#              their managedFields (manager, operation, apiVersion,
#              fieldsType, fieldsV1, subresource; not time), and the
#              managedFields as the server wrote them (get --raw, in
#              their byte order); uid, resourceVersion, creationTimestamp
#              and the allocated clusterIP are left out
#   scale      kubectl patch --subresource=scale (manager
#              kube-controller-manager), as the autoscaler of examples/live:
#              of replicas nobody owns (no manager is recorded, on SMD too),
#              and after kubectl applied examples/conflict/deployment.yaml
#              (replicas 3), whose replicas it takes
#   conflict   examples/conflict/deployment.yaml (replicas, owned through
#              the scale subresource) and a new image with another
#              --field-manager: both must fail with a conflict, with the
#              same text on both servers
#   diff       kubectl diff --server-side: exit status and output
#              (generation, resourceVersion, uid and timestamp lines and
#              the temporary paths normalised)
#   force      the same applies with --force-conflicts succeed
#   forbidden  the context dev (no RBAC bindings) is refused
#
# It prints a line per step, `ok STEP: WHAT` or `FAIL STEP: WHAT` with the
# differences, and `N passed, M failed`; it exits 0 exactly when nothing
# failed. Without kubectl on the PATH it says so and exits 0.
#
# Usage: scripts/kubectl-e2e.sh
#   KUBECTL_E2E_SELFTEST=1  shows that a difference is caught: only the
#                           drop-in's server runs, and its results are
#                           compared with a tampered copy of themselves
#                           (the first "image" of each output becomes
#                           "imagE"): the steps whose output names an image
#                           must FAIL, and the script exits 1
#   KUBECTL_E2E_KEEP=1      keep the servers' directories and the outputs
#                           (ENGINE/: logs, kubeconfig; out/drop and
#                           out/ref: STEP.{out,err,rc} and the normalised
#                           .norm) and print their path
#   KUBE_APISERVER_*, STRUCTMERGE_CACHE   see scripts/kube-apiserver.sh
#
# Needs kubectl (any recent release; v1.32 here), curl and python3. Measured
# on 2 shared cores with a warm module cache and a Go build cache that
# scripts/k8s-integration.sh had filled: the first build of kube-apiserver
# took about 4 minutes per engine (more with a cold cache); with the builds
# done, a run takes under a minute (servers ready in about 10 seconds, the
# steps in 15 to 30).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v kubectl >/dev/null 2>&1; then
	echo "kubectl-e2e: kubectl is not on the PATH: skipped"
	exit 0
fi
for tool in curl python3 diff; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "kubectl-e2e: needs $tool" >&2
		exit 2
	}
done

. scripts/kube-apiserver.sh

selftest="${KUBECTL_E2E_SELFTEST:-}"
# The servers to compare: drop (the drop-in) and ref (the reference, or in
# the self-test a tampered copy of the drop-in's results).
if [ "$selftest" = 1 ]; then
	servers=(adapter)
else
	servers=(adapter smd)
fi

work="$(mktemp -d)"
cleanup() {
	local e
	for e in "${servers[@]}"; do
		kube_apiserver_stop "$work/$e"
	done
	if [ "${KUBECTL_E2E_KEEP:-}" = 1 ]; then
		echo "kubectl-e2e: kept $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

out="$work/out"
mkdir -p "$out/drop" "$out/ref" "$work/manifests"
unset KUBECTL_EXTERNAL_DIFF KUBECONFIG

start=$SECONDS
for e in "${servers[@]}"; do
	t=$SECONDS
	kube_apiserver_build "$e" >/dev/null
	echo "kubectl-e2e: kube-apiserver $(kas_version) on $e built in $((SECONDS - t))s" >&2
done
t=$SECONDS
for e in "${servers[@]}"; do
	kube_apiserver_start "$e" "$work/$e"
done
echo "kubectl-e2e: servers ready in $((SECONDS - t))s:$(for e in "${servers[@]}"; do printf ' %s %s' "$e" "$(cat "$work/$e/server")"; done)" >&2
t=$SECONDS

# kc ENGINE ARGS...: kubectl on ENGINE's server.
kc() {
	local e="$1"
	shift
	kubectl --kubeconfig "$work/$e/kubeconfig" --cache-dir "$work/$e/kube-cache" "$@"
}

# tamper FILE: the self-test's change, the first "image" becomes "imagE".
tamper() { sed '0,/image/s//imagE/' "$1"; }

# run STEP KUBECTL-ARGS...: runs kubectl on each server and keeps its
# output, errors and exit status in $out/{drop,ref}/STEP.{out,err,rc}.
run() {
	local step="$1" e side rc f
	shift
	# A second between steps: the servers order managedFields entries by
	# the second they were written in (then by manager), so two writes that
	# share a second on one server and not on the other would come out in
	# different orders.
	sleep 1.1
	for e in "${servers[@]}"; do
		side=drop
		[ "$e" = smd ] && side=ref
		rc=0
		kc "$e" "$@" >"$out/$side/$step.out" 2>"$out/$side/$step.err" || rc=$?
		echo "$rc" >"$out/$side/$step.rc"
	done
	if [ "$selftest" = 1 ]; then
		for f in out err; do tamper "$out/drop/$step.$f" >"$out/ref/$step.$f"; done
		cp "$out/drop/$step.rc" "$out/ref/$step.rc"
	fi
}

# normalise KIND FILE prints FILE as the comparison sees it:
#   text     as it is, but for the time and process id of kubectl's log
#            lines
#   diff     kubectl diff's output, the temporary directories, file times
#            and generation, resourceVersion, uid and timestamp values
#            replaced
#   object   a kubectl get -o json, without uid, resourceVersion,
#            creationTimestamp, managedFields times and clusterIPs
#   managed  the managedFields of the same, per object
#   raw      the managedFields of a get --raw (the server's bytes, in their
#            order), without times
normalise() {
	python3 - "$1" "$2" <<'EOF'
import json, re, sys

kind, path = sys.argv[1], sys.argv[2]
text = open(path).read()
if kind == "text":
    # kubectl's log lines: their time and process id.
    sys.stdout.write(re.sub(r"(?m)^([IWEF])[0-9]{4} [0-9:.]+ +[0-9]+ ", r"\1 ", text))
    sys.exit()
if kind == "diff":
    for line in text.splitlines():
        line = re.sub(r"[^ \t]*/(LIVE|MERGED)-[0-9]+", r"\1", line)
        if line.startswith(("--- ", "+++ ")):
            line = line.split("\t")[0]
        line = re.sub(r"^([-+ ]\s*(generation|resourceVersion|uid|creationTimestamp|time):).*",
                      r"\1 <normalised>", line)
        print(line)
    sys.exit()
try:
    doc = json.loads(text)
except ValueError as e:
    print("not JSON:", e)
    sys.exit()
items = doc.get("items", [doc]) if isinstance(doc, dict) else []
result = []
for obj in items:
    meta = obj.get("metadata", {})
    for key in ("uid", "resourceVersion", "creationTimestamp"):
        meta.pop(key, None)
    for entry in meta.get("managedFields") or []:
        entry.pop("time", None)
    spec = obj.get("spec")
    if obj.get("kind") == "Service" and isinstance(spec, dict):
        for key in ("clusterIP", "clusterIPs"):
            if key in spec:
                spec[key] = "<allocated>"
    if kind == "object":
        result.append(obj)
    else:
        result.append({"kind": obj.get("kind"), "name": meta.get("name"),
                       "managedFields": meta.get("managedFields")})
# No sort_keys: the order of fieldsV1 is the server's (kubectl get prints
# maps sorted, get --raw as the server wrote them).
print(json.dumps(result, indent=1))
EOF
}

passed=0
failed=0

# check STEP WHAT WANT [PATTERN] [KIND] compares STEP between the servers:
# the exit status must be WANT on both (0, 1, fail: not 0, error: above 1),
# the error output must match PATTERN (grep -E, when given) on both, and
# the normalised outputs (KIND, default text; error output as text) must
# be equal.
check() {
	local step="$1" what="$2" want="$3" pattern="${4:-}" kind="${5:-text}" problems=() side rc f
	for side in drop ref; do
		rc="$(cat "$out/$side/$step.rc")"
		case "$want" in
		fail) [ "$rc" != 0 ] ;;
		error) [ "$rc" -gt 1 ] ;;
		*) [ "$rc" = "$want" ] ;;
		esac || problems+=("$side: exit status $rc, want $want")
		if [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$out/$side/$step.err"; then
			problems+=("$side: the error output does not match /$pattern/")
		fi
		normalise "$kind" "$out/$side/$step.out" >"$out/$side/$step.out.norm"
		normalise text "$out/$side/$step.err" >"$out/$side/$step.err.norm"
	done
	if [ "$(cat "$out/drop/$step.rc")" != "$(cat "$out/ref/$step.rc")" ]; then
		problems+=("the exit status differs: drop-in $(cat "$out/drop/$step.rc"), reference $(cat "$out/ref/$step.rc")")
	fi
	for f in out err; do
		if ! cmp -s "$out/drop/$step.$f.norm" "$out/ref/$step.$f.norm"; then
			problems+=("the $([ $f = out ] && echo output || echo error output) differs (- drop-in, + reference):
$(diff -u "$out/drop/$step.$f.norm" "$out/ref/$step.$f.norm" | tail -n +3 | head -40 || true)")
		fi
	done
	if [ ${#problems[@]} -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok   $step: $what"
	else
		failed=$((failed + 1))
		echo "FAIL $step: $what"
		for f in "${problems[@]}"; do printf '%s\n' "$f" | sed 's/^/     /'; done
		for side in drop ref; do
			if [ -s "$out/$side/$step.err" ]; then
				echo "     $side error output:"
				head -10 "$out/$side/$step.err" | sed 's/^/       /'
			fi
		done
	fi
}

# checkget N: the objects and their managedFields, as kubectl and as the
# server shows them.
checkget() {
	local n="$1" side f
	run "get-$n" get deployment/web service/web -n default -o json --show-managed-fields
	check "get-$n" "kubectl get --show-managed-fields: the objects" 0 "" object
	for side in drop ref; do
		for f in out err rc; do cp "$out/$side/get-$n.$f" "$out/$side/managed-$n.$f"; done
	done
	check "managed-$n" "the managedFields (manager, operation, apiVersion, fieldsType, fieldsV1, subresource)" 0 "" managed
	run "raw-$n-deployment" get --raw /apis/apps/v1/namespaces/default/deployments/web
	check "raw-$n-deployment" "get --raw the Deployment: its managedFields in the server's order" 0 "" raw
	run "raw-$n-service" get --raw /api/v1/namespaces/default/services/web
	check "raw-$n-service" "get --raw the Service: its managedFields in the server's order" 0 "" raw
}

# The namespaces the examples name.
while read -r ns; do
	for e in "${servers[@]}"; do
		kc "$e" get namespace "$ns" >/dev/null 2>&1 || kc "$e" create namespace "$ns" >/dev/null
	done
done < <(awk '$1 == "namespace:" { print $2 }' examples/*.yaml examples/conflict/*.yaml | sort -u)

# A second manager's change: a new image.
sed 's/image: nginx:1.28/image: nginx:1.29/' examples/deployment.yaml >"$work/manifests/deployment-image.yaml"
grep -q 'nginx:1.29' "$work/manifests/deployment-image.yaml"
# A change of the Service: another port.
cat examples/service.yaml - >"$work/manifests/service-port.yaml" <<'EOF'
  - name: metrics
    port: 9090
EOF

run apply-deployment apply --server-side -f examples/deployment.yaml
check apply-deployment "kubectl apply --server-side -f examples/deployment.yaml" 0
run apply-service apply --server-side -f examples/service.yaml
check apply-service "kubectl apply --server-side -f examples/service.yaml" 0
checkget 1

# A scale of replicas that nobody owns records no manager (on SMD as on
# the drop-in: the scale subresource only moves the ownership of replicas
# between managers); once kubectl applies replicas, a scale takes them.
run scale-unowned patch deployment web -n default --subresource=scale --type=merge \
	-p '{"spec":{"replicas":2}}' --field-manager=kube-controller-manager
check scale-unowned "kubectl patch --subresource=scale, replicas unowned (2, manager kube-controller-manager)" 0
checkget 2
run apply-replicas apply --server-side -f examples/conflict/deployment.yaml
check apply-replicas "apply examples/conflict/deployment.yaml: kubectl takes replicas (3)" 0
run scale patch deployment web -n default --subresource=scale --type=merge \
	-p '{"spec":{"replicas":5}}' --field-manager=kube-controller-manager
check scale "kubectl patch --subresource=scale, replicas owned by kubectl (5)" 0

run conflict-replicas apply --server-side -f examples/conflict/deployment.yaml
check conflict-replicas "apply examples/conflict/deployment.yaml: conflict on .spec.replicas" fail \
	'conflict with "kube-controller-manager".*\.spec\.replicas'
run conflict-image apply --server-side --field-manager=e2e-other -f "$work/manifests/deployment-image.yaml"
check conflict-image "apply a new image with --field-manager=e2e-other: conflict with kubectl" fail \
	'conflict with "kubectl".*\.image'

run diff-none diff --server-side -f examples/service.yaml
check diff-none "kubectl diff --server-side, nothing changes: exit 0" 0 "" diff
run diff-service diff --server-side -f "$work/manifests/service-port.yaml"
check diff-service "kubectl diff --server-side, a new port: exit 1" 1 "" diff
run diff-conflict diff --server-side --field-manager=e2e-other -f "$work/manifests/deployment-image.yaml"
check diff-conflict "kubectl diff --server-side of a conflicting change: an error" error 'conflict' diff
run diff-force diff --server-side --field-manager=e2e-other --force-conflicts -f "$work/manifests/deployment-image.yaml"
check diff-force "kubectl diff --server-side --force-conflicts: exit 1" 1 "" diff

run force-replicas apply --server-side --force-conflicts -f examples/conflict/deployment.yaml
check force-replicas "apply --force-conflicts examples/conflict/deployment.yaml" 0
run force-image apply --server-side --force-conflicts --field-manager=e2e-other -f "$work/manifests/deployment-image.yaml"
check force-image "apply --force-conflicts the new image as e2e-other" 0
run apply-service-port apply --server-side -f "$work/manifests/service-port.yaml"
check apply-service-port "apply the Service with a new port" 0
checkget 3

run forbidden --context dev apply --server-side -f examples/service.yaml
check forbidden "the context dev (no RBAC bindings) is forbidden" fail 'forbidden'

echo "kubectl-e2e: the steps ran in $((SECONDS - t))s (in all $((SECONDS - start))s)" >&2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

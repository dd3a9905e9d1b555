#!/usr/bin/env bash
# Runs `go generate ./...` in the main and the conformance module and fails
# if it changed any file: the committed generated files (the built-in
# Kubernetes schema in kube/builtin, the registry tables in
# kube/registry_generated.go, the conformance reference's registry tables in
# conformance/kubeengine/registry_reference.json) must be
# exactly what the generators produce. Needs the Go module proxy (the
# generators download k8s.io/kubernetes with `go mod download`).
#
# It compares checksums of every file git knows of (tracked or untracked,
# not ignored) before and after, so it also works in a working tree with
# uncommitted changes; in a clean clone it is the same as
# `go generate ./... && git diff --exit-code`.
set -euo pipefail
cd "$(dirname "$0")/.."

snapshot() {
  git ls-files -z --cached --others --exclude-standard | sort -z | xargs -0 sha256sum 2>/dev/null || true
}

before=$(mktemp)
after=$(mktemp)
trap 'rm -f "$before" "$after"' EXIT

snapshot >"$before"
go generate ./...
# The conformance module's registry reference (conformance/registryref,
# which builds the registry packages of k8s.io/kubernetes).
(cd conformance && go generate ./...)
snapshot >"$after"

if ! diff -u "$before" "$after"; then
  echo "go generate changed the files above: commit what it generates" >&2
  exit 1
fi
echo "generated files are up to date"

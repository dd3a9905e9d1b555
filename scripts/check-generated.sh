#!/usr/bin/env bash
# Runs `go generate ./...` in the main module and fails if it changed any
# file: the committed generated files (the built-in Kubernetes schema in
# kube/builtin, the registry tables in kube/builtin/registry_generated.go) must be
# exactly what the generators produce. Needs the Go module proxy (the
# generators download k8s.io/kubernetes with `go mod download`).
#
# REFERENCE=1 also regenerates the conformance reference's registry tables
# (conformance/kubeengine/registry_reference.json) by running
# conformance/registryref, which calls the registry strategies of
# k8s.io/kubernetes itself: a cold build of about 1,400 Kubernetes packages
# (about 5 minutes on 2 cores, more than CI's time allows, so CI leaves it
# out; the file changes only with the Kubernetes version, and
# TestRegistryTablesMatchReference holds the generated tables to it).
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
if [ "${REFERENCE:-0}" = 1 ]; then
  (cd conformance && go generate ./kubeengine/)
  (cd conformance/registryref && go vet ./...)
fi
snapshot >"$after"

if ! diff -u "$before" "$after"; then
  echo "go generate changed the files above: commit what it generates" >&2
  exit 1
fi
echo "generated files are up to date"

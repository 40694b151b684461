#!/usr/bin/env bash
# The benchmark, in one command (not part of the test command):
#   bash bench/bench.sh
# Builds pkg/, measures structured-output-guard against ajv + ajv-formats
# (allErrors true and false) and @cfworker/json-schema under Node and under
# Bun (bench/run.mjs, which spawns fresh processes for load time and memory),
# and writes bench/RESULTS.md. About two minutes.
# Pass --quick for shorter budgets while changing the harness itself.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node bench/run.mjs --out "$tmp/node.json" "$@"
node_modules/.bin/bun bench/run.mjs --out "$tmp/bun.json" "$@"
node bench/report.mjs "$tmp/node.json" "$tmp/bun.json"

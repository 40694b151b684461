#!/usr/bin/env bash
# The benchmark, in one command (not part of the test command):
#   bash bench/bench.sh
# Builds pkg/, measures structured-output-guard against ajv + ajv-formats
# (allErrors true and false) and @cfworker/json-schema under Node and under
# Bun (bench/run.mjs, which spawns fresh processes for load time and memory),
# and writes bench/RESULTS.md, with the load to first verdict in headless
# Chromium (bench/load-browser.mjs) and what each part of the wasm costs
# (bench/size.sh). About ten minutes.
# Pass --quick for shorter budgets while changing the harness itself.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node bench/run.mjs --out "$tmp/node.json" "$@"
node_modules/.bin/bun bench/run.mjs --out "$tmp/bun.json" "$@"
node bench/report.mjs "$tmp/node.json" "$tmp/bun.json"

# The calls users make (bench/user-path.mjs), the stream check
# (bench/stream.mjs, bench/guarded-stream.mjs) and telemetry
# (bench/telemetry.mjs), each under both runtimes, after the report as
# sections of their own.
{
  printf '\n## User path\n\nWritten by `bash bench/bench.sh` on %s: `node bench/user-path.mjs`, then the same under bun.\n\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  node bench/user-path.mjs | sed 's/^### /#### /'
  echo
  node_modules/.bin/bun bench/user-path.mjs | sed 's/^### /#### /'
  printf '\n## Module load to first verdict in a browser\n\n`node bench/load-browser.mjs --markdown`.\n\n'
  node bench/load-browser.mjs --markdown
  printf '\n## wasm size, per part\n\n`bash bench/size.sh`: the package'"'"'s module named by its function names, each part costed as the gzip and brotli bytes its removal saves.\n\n'
  bash bench/size.sh
  printf '\n## Stream check\n\n`node bench/stream.mjs`, `node bench/guarded-stream.mjs`, then both under bun.\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/stream.mjs | sed 's/^# /### /'
    echo
    "$runtime" bench/guarded-stream.mjs | sed 's/^# /### /'
    echo
  done
  # What OpenTelemetry costs a guarded call, off and on (bench/telemetry.mjs).
  printf '\n## Telemetry\n\n`node bench/telemetry.mjs`, then the same under bun.\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/telemetry.mjs
    echo
  done
} >> bench/RESULTS.md

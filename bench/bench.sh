#!/usr/bin/env bash
# The benchmark, in one command (not part of the test command):
#   bash bench/bench.sh
# Builds pkg/, measures structured-output-guard against ajv + ajv-formats
# (allErrors true and false) and @cfworker/json-schema under Node and under
# Bun (bench/run.mjs, which spawns fresh processes for load time and memory),
# and writes bench/RESULTS.md, then the user path, the stream check,
# telemetry, the tool calls on a public corpus (bench/tool-calls.mjs) and
# accepted and rejected documents on real schemas (bench/real-schemas.mjs)
# under both runtimes.
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
# (bench/stream.mjs, bench/guarded-stream.mjs, bench/stream-tools.mjs),
# telemetry (bench/telemetry.mjs), the tool calls and the real schemas,
# each under both runtimes, after the report as sections of their own.
{
  printf '\n## User path\n\nWritten by `bash bench/bench.sh` on %s: `node bench/user-path.mjs`, then the same under bun.\n\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  node bench/user-path.mjs | sed 's/^### /#### /'
  echo
  node_modules/.bin/bun bench/user-path.mjs | sed 's/^### /#### /'
  printf '\n## Stream check\n\n`node bench/stream.mjs`, `node bench/guarded-stream.mjs`, `node bench/stream-tools.mjs`, then all under bun.\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/stream.mjs | sed 's/^# /### /'
    echo
    "$runtime" bench/guarded-stream.mjs | sed 's/^# /### /'
    echo
    "$runtime" bench/stream-tools.mjs | sed 's/^# /### /'
    echo
  done
  # What OpenTelemetry costs a guarded call, off and on (bench/telemetry.mjs).
  printf '\n## Telemetry\n\n`node bench/telemetry.mjs`, then the same under bun.\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/telemetry.mjs
    echo
  done
  # Tool calls on the public corpus (tests/corpus/tool-calls): catalogues
  # of 100, 1,000 and 5,000 tools in every provider shape, and the
  # validators on the corpus's arguments.
  printf '\n## Tool calls on a public corpus\n\n`node bench/tool-calls.mjs`, then the same under bun: the tools and calls of tests/corpus/tool-calls (see its SOURCE.md).\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/tool-calls.mjs | sed 's/^### /#### /'
    echo
  done
  # Accepted and rejected documents on real schemas (the SchemaStore
  # corpus, tests/corpus/schemastore), against ajv with allErrors.
  printf '\n## Accepted and rejected documents on real schemas\n\n`node bench/real-schemas.mjs`, then the same under bun: the schemas and instances of tests/corpus/schemastore (see its SOURCE.md).\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/real-schemas.mjs
    echo
  done
} >> bench/RESULTS.md

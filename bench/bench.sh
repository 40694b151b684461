#!/usr/bin/env bash
# The benchmark, in one command (not part of the test command):
#   bash bench/bench.sh
# Builds pkg/, measures structured-output-guard against ajv + ajv-formats
# (allErrors true and false) and @cfworker/json-schema under Node and under
# Bun (bench/run.mjs, which spawns fresh processes for load time and memory),
# and writes bench/RESULTS.md, then the user path, the load to first
# verdict in headless Chromium (bench/load-browser.mjs), what each part of
# the wasm costs (bench/size.sh), the stream check and its partial values,
# telemetry, the tool calls on a public corpus (bench/tool-calls.mjs) and
# accepted and rejected documents on real schemas (bench/real-schemas.mjs)
# under both runtimes; then the cost table (bench/cost-table.mjs: every
# keyword and format alone, the invoice shape, the value, executor,
# tool-call and options rows), whose missed rows go to the top of the file.
# With BEFORE_PKG=dir (another build's pkg/), it ends with the speed
# targets' rows of both builds side by side (bench/before-after.mjs).
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
  printf '\n## Module load to first verdict in a browser\n\n`node bench/load-browser.mjs --markdown`.\n\n'
  node bench/load-browser.mjs --markdown
  printf '\n## wasm size, per part\n\n`bash bench/size.sh`: the package'"'"'s module named by its function names, each part costed as the gzip and brotli bytes its removal saves.\n\n'
  bash bench/size.sh
  printf '\n## Stream check\n\n`node bench/stream.mjs`, `node bench/guarded-stream.mjs`, `node bench/stream-tools.mjs`, then all under bun.\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/stream.mjs | sed 's/^# /### /'
    echo
    "$runtime" bench/guarded-stream.mjs | sed 's/^# /### /'
    echo
    "$runtime" bench/stream-tools.mjs | sed 's/^# /### /'
    echo
  done
  # Validated partial values (bench/stream-partial.mjs): the same stream
  # with `partial` unread, read after every push and once per kilobyte.
  printf '\n## Stream check with partial values\n\n`node bench/stream-partial.mjs`, then the same under bun: `createStreamCheck(schema, { partial: true })` beside the same stream without it (target: at most 2x).\n\n'
  for runtime in node node_modules/.bin/bun; do
    "$runtime" bench/stream-partial.mjs | sed 's/^# /### /'
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

# The cost table under both runtimes, written in by bench/cost-report.mjs.
node bench/cost-table.mjs --out "$tmp/cost-node.json" "$@" 2>/dev/null
node_modules/.bin/bun bench/cost-table.mjs --out "$tmp/cost-bun.json" "$@" 2>/dev/null
node bench/cost-report.mjs "$tmp/cost-node.json" "$tmp/cost-bun.json"

# With BEFORE_PKG naming another build's pkg/ (the main branch's, say), the
# rows of the speed targets for that build, this one and the peer in one
# process under each runtime (bench/before-after.mjs), as the closing section.
if [[ -n ${BEFORE_PKG:-} ]]; then
  {
    printf '\n## Before and after\n\nWritten by `BEFORE_PKG=%s bash bench/bench.sh` on %s: `node bench/before-after.mjs "$BEFORE_PKG" pkg`, then the same under bun; load average at the start: %s. "before" is the build in BEFORE_PKG, "after" this one.\n' \
      "$BEFORE_PKG" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(cut -d' ' -f1-3 /proc/loadavg)"
    node bench/before-after.mjs "$BEFORE_PKG" pkg 2>/dev/null
    node_modules/.bin/bun bench/before-after.mjs "$BEFORE_PKG" pkg 2>/dev/null
  } >> bench/RESULTS.md
fi

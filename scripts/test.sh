#!/usr/bin/env bash
# Every test: Rust unit and integration tests (native) and clippy's library
# lints, time-boxed fuzzing, the JS suite against the built pkg/ under Node
# and under Bun, the JSON Schema Test Suite, the browser build in headless
# Chromium, and the public types under tsc.
# Ends with one line "tests: N passed, M failed".
#
# On two cores the compiles are most of the time, so they overlap: the fuzz
# targets (the longest compile, whose last minutes use one core) build in
# the background while the package, the native tests and the lints build in
# the foreground. The JS suites, whose deadline tests read clocks, run only
# after every compile has finished.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "tests: 0 passed, 1 failed (the set-up failed)"; exit 1; }

passed=0
failed=0
status=0
logdir=$(mktemp -d)
tally() { passed=$((passed + ${1:-0})); failed=$((failed + ${2:-0})); }

# Each step's heading says how long the run has taken so far, so a slow
# step shows where the minutes go.
step() { printf '\n== %s  [%dm%02ds]\n' "$1" $((SECONDS / 60)) $((SECONDS % 60)); }

bash scripts/fuzz.sh build >"$logdir/fuzz-build.log" 2>&1 &
fuzz_build=$!

bash scripts/build.sh || { echo "tests: 0 passed, 1 failed (the build failed)"; exit 1; }
# A copy with a deliberately trapping export, for the trap-recovery test.
bash scripts/build-trap.sh || { echo "tests: 0 passed, 1 failed (the trap-test build failed)"; exit 1; }

step "Rust tests (cargo test)"
cargo test --quiet 2>&1 | tee "$logdir/cargo.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
while read -r p f; do tally "$p" "$f"; done < <(sed -nE 's/^test result: [a-zA-Z]+\. ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/p' "$logdir/cargo.log")

# One run for the wasm32 target covers the library as the package builds it
# (src/wasm.rs included) and every test; no code is native-only.
step "Library lints: no unwrap, expect, panic or fallible indexing (cargo clippy --all-targets, wasm32)"
if cargo clippy --quiet --all-targets --target wasm32-unknown-unknown -- -D warnings; then
  tally 1 0
  echo "clippy: clean"
else
  tally 0 1
  status=1
fi

step "Fuzzing (libFuzzer, time-boxed)"
# FUZZ_SECONDS sets the box per target (default 45, four targets, one per core at a time).
if wait "$fuzz_build" && bash scripts/fuzz.sh; then
  tally 1 0
else
  cat "$logdir/fuzz-build.log"
  tally 0 1
  status=1
fi

step "JS suite under Node (node --test)"
node --test --test-reporter=spec tests/js/ 2>&1 | tee "$logdir/node.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
tally "$(sed -nE 's/^ℹ pass ([0-9]+)$/\1/p' "$logdir/node.log" | tail -1)" "$(sed -nE 's/^ℹ fail ([0-9]+)$/\1/p' "$logdir/node.log" | tail -1)"

step "JS suite under Bun (bun test)"
node_modules/.bin/bun test tests/js/ 2>&1 | tee "$logdir/bun.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
tally "$(sed -nE 's/^ *([0-9]+) pass$/\1/p' "$logdir/bun.log" | tail -1)" "$(sed -nE 's/^ *([0-9]+) fail$/\1/p' "$logdir/bun.log" | tail -1)"

step "JSON Schema Test Suite conformance (node --test tests/conformance/)"
node --test --test-reporter=spec tests/conformance/ 2>&1 | tee "$logdir/conformance.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
tally "$(sed -nE 's/^ℹ pass ([0-9]+)$/\1/p' "$logdir/conformance.log" | tail -1)" "$(sed -nE 's/^ℹ fail ([0-9]+)$/\1/p' "$logdir/conformance.log" | tail -1)"

step "Browser build in headless Chromium (node --test tests/browser/)"
node --test --test-reporter=spec tests/browser/ 2>&1 | tee "$logdir/browser.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
tally "$(sed -nE 's/^ℹ pass ([0-9]+)$/\1/p' "$logdir/browser.log" | tail -1)" "$(sed -nE 's/^ℹ fail ([0-9]+)$/\1/p' "$logdir/browser.log" | tail -1)"

step "Test matchers under bun test (tests/matchers/bun.test.mjs)"
node_modules/.bin/bun test tests/matchers/bun.test.mjs 2>&1 | tee "$logdir/matchers-bun.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
tally "$(sed -nE 's/^ *([0-9]+) pass$/\1/p' "$logdir/matchers-bun.log" | tail -1)" "$(sed -nE 's/^ *([0-9]+) fail$/\1/p' "$logdir/matchers-bun.log" | tail -1)"

step "Test matchers under Vitest (tests/matchers/vitest.test.mjs)"
NO_COLOR=1 node_modules/.bin/vitest run --config tests/matchers/vitest.config.mjs 2>&1 | tee "$logdir/matchers-vitest.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
tally "$(sed -nE 's/^ *Tests .* ([0-9]+) passed.*/\1/p' "$logdir/matchers-vitest.log" | tail -1)" "$(sed -nE 's/^ *Tests +([0-9]+) failed.*/\1/p' "$logdir/matchers-vitest.log" | tail -1)"

step "Matcher types for Vitest and bun:test (tsc over tests/matchers/types/)"
for config in tests/matchers/types/tsconfig.*.json; do
  if node_modules/.bin/tsc -p "$config"; then tally 1 0; echo "$config: ok"; else tally 0 1; status=1; fi
done

step "npm package: the wasm size budget, publint, then the packed tarball installed into a fresh project (node --test tests/package/)"
node --test --test-reporter=spec tests/package/ 2>&1 | tee "$logdir/package.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
tally "$(sed -nE 's/^ℹ pass ([0-9]+)$/\1/p' "$logdir/package.log" | tail -1)" "$(sed -nE 's/^ℹ fail ([0-9]+)$/\1/p' "$logdir/package.log" | tail -1)"

step "Public types (tsc --noEmit --strict over tests/types/usage.ts)"
if node_modules/.bin/tsc -p tests/types; then tally 1 0; echo "types: ok"; else tally 0 1; status=1; fi
# The Validator as the AI SDK's types take it (a Standard Schema of T).
if node_modules/.bin/tsc -p tests/types/tsconfig.frameworks.json; then tally 1 0; echo "framework types: ok"; else tally 0 1; status=1; fi

rm -rf "$logdir"
echo
echo "took $((SECONDS / 60))m$((SECONDS % 60))s, set-up included"
echo "tests: ${passed} passed, ${failed} failed"
if [[ $status -ne 0 && $failed -eq 0 ]]; then echo "a runner failed without reporting a failed test (see above)"; fi
exit $status

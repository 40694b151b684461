#!/usr/bin/env bash
# Every test: Rust unit and integration tests (native) and clippy's library
# lints, time-boxed fuzzing, the JS suite against the built pkg/ under Node
# and under Bun, the JSON Schema Test Suite, the browser build in headless
# Chromium, and the public types of the installed package under TypeScript
# 5 and 7.
# Ends with one line "tests: N passed, M failed".
#
# On two cores the compiles are most of the time, so they overlap: the fuzz
# targets (the longest compile, whose last minutes use one core) build in
# the background while the package, the native tests and the lints build in
# the foreground. The JS suites, whose deadline tests read clocks, run only
# after every compile has finished.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
status=0
logdir=$(mktemp -d)
tally() { passed=$((passed + ${1:-0})); failed=$((failed + ${2:-0})); }

# Each step's heading says how long the run has taken so far, so a slow
# step shows where the minutes go.
step() { printf '\n== %s  [%dm%02ds]\n' "$1" $((SECONDS / 60)) $((SECONDS % 60)); }

bash scripts/setup.sh || { echo "tests: 0 passed, 1 failed (the set-up failed)"; exit 1; }

# The fuzz build starts after the set-up, beside the package's build: it
# keeps the second core busy while the package's link-time optimisation
# uses one (started before the set-up instead, it finished too early and
# the whole run took 1 min 40 s longer).
bash scripts/fuzz.sh build >"$logdir/fuzz-build.log" 2>&1 &
fuzz_build=$!

bash scripts/build.sh || { echo "tests: 0 passed, 1 failed (the build failed)"; exit 1; }
# A copy with a deliberately trapping export, for the trap-recovery test.
bash scripts/build-trap.sh || { echo "tests: 0 passed, 1 failed (the trap-test build failed)"; exit 1; }

step "Rust tests (cargo test)"
cargo test --quiet 2>&1 | tee "$logdir/cargo.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
# The vendored regex-syntax's Unicode tables, packed by its patch, against
# the generated tables they are packed from.
cargo test --quiet -p regex-syntax --lib unicode_tables::packed 2>&1 | tee -a "$logdir/cargo.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
while read -r p f; do tally "$p" "$f"; done < <(sed -nE 's/^test result: [a-zA-Z]+\. ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/p' "$logdir/cargo.log")

# One run for the wasm32 target covers the library as the package builds it
# (src/wasm/ included) and every test; no code is native-only.
step "Library lints: no unwrap, expect, panic or fallible indexing (cargo clippy --all-targets, wasm32)"
if cargo clippy --quiet --all-targets --target wasm32-unknown-unknown -- -D warnings; then
  tally 1 0
  echo "clippy: clean"
else
  tally 0 1
  status=1
fi

step "Fuzzing (libFuzzer, time-boxed)"
# FUZZ_SECONDS sets the box per target (here 20 by default, against
# fuzz.sh's own 45, so that the whole command fits in 15 minutes on two
# cores, set-up included; five targets, one per core at a time).
if wait "$fuzz_build" && FUZZ_SECONDS=${FUZZ_SECONDS:-20} bash scripts/fuzz.sh; then
  tally 1 0
else
  cat "$logdir/fuzz-build.log"
  tally 0 1
  status=1
fi

# The suites below each run on one core, so they run two at a time, each
# into its own log; the logs are printed and counted in order once both
# of a pair have finished. Node's and Bun's JS suites are one pair (about
# two minutes each); the rest is split into two halves of about a minute.
node_counts() { tally "$(sed -nE 's/^ℹ pass ([0-9]+)$/\1/p' "$1" | tail -1)" "$(sed -nE 's/^ℹ fail ([0-9]+)$/\1/p' "$1" | tail -1)"; }
bun_counts() { tally "$(sed -nE 's/^ *([0-9]+) pass$/\1/p' "$1" | tail -1)" "$(sed -nE 's/^ *([0-9]+) fail$/\1/p' "$1" | tail -1)"; }
vitest_counts() { tally "$(sed -nE 's/^ *Tests .* ([0-9]+) passed.*/\1/p' "$1" | tail -1)" "$(sed -nE 's/^ *Tests +([0-9]+) failed.*/\1/p' "$1" | tail -1)"; }

# run NAME COMMAND...: the command's output into $logdir/NAME.log, its exit
# code into $logdir/NAME.rc.
run() {
  local name=$1
  shift
  "$@" >"$logdir/$name.log" 2>&1
  echo $? >"$logdir/$name.rc"
}
# show NAME HEADING COUNTER: the heading, the log, its counts and its exit code.
show() {
  step "$2"
  cat "$logdir/$1.log"
  [[ $(cat "$logdir/$1.rc") -eq 0 ]] || status=1
  "$3" "$logdir/$1.log"
}

# Both runners find the tests in tests/js/'s folders by themselves (files
# named *.test.mjs; the helpers in tests/support/ are not tests).
step "JS suites under Node (node --test) and Bun (bun test), side by side"
run node node --test --test-reporter=spec tests/js/ &
node_js=$!
# Bun applies a test's own { timeout } but not its describe block's, which
# node --test applies; the heaviest describe blocks allow 60 s.
run bun node_modules/.bin/bun test --timeout 60000 tests/js/ &
bun_js=$!
wait "$node_js" "$bun_js"
show node "JS suite under Node (node --test)" node_counts
show bun "JS suite under Bun (bun test)" bun_counts

# The functions the package writes at run time have a fallback for a
# runtime that refuses to make them (a page's Content Security Policy):
# the suites of what they serve, again, with code generation refused.
run no-eval node --disallow-code-generation-from-strings --test --test-reporter=spec \
  tests/js/checking/copy-match.test.mjs tests/js/providers/usage-readers.test.mjs tests/js/guarded-calls/guarded-call.test.mjs \
  tests/js/checking/lane.test.mjs tests/js/checking/check-output.test.mjs tests/js/tools/tool-calls.test.mjs \
  tests/js/providers/usage-clients.test.mjs tests/js/tools/declarations.test.mjs tests/js/checking/check-program.test.mjs \
  tests/js/checking/value-in-place.test.mjs
show no-eval "Response and usage readers, and check programs, without functions made from source (node --disallow-code-generation-from-strings)" node_counts

first_half() {
  run conformance node --test --test-reporter=spec tests/conformance/
  run browser node --test --test-reporter=spec tests/browser/
  run matchers-bun node_modules/.bin/bun test tests/matchers/bun.test.mjs
  NO_COLOR=1 run matchers-vitest node_modules/.bin/vitest run --config tests/matchers/vitest.config.mjs
}
second_half() {
  run package node --test --test-reporter=spec tests/package/
  run types node --test --test-reporter=spec tests/types/
}
step "Conformance, the browser build, the matchers, the package and the types, in two halves side by side"
first_half &
first=$!
second_half &
second=$!
wait "$first" "$second"
show conformance "JSON Schema Test Suite conformance (node --test tests/conformance/)" node_counts
show browser "Browser build in headless Chromium (node --test tests/browser/)" node_counts
show matchers-bun "Test matchers under bun test (tests/matchers/bun.test.mjs)" bun_counts
show matchers-vitest "Test matchers under Vitest (tests/matchers/vitest.test.mjs)" vitest_counts
show package "npm package: the wasm size budget, publint, then the packed tarball installed into a fresh project (node --test tests/package/)" node_counts
show types "Public types: the packed tarball installed, user code with each SDK's types, the matchers and the README's and docs' code blocks, under TypeScript 5 and 7 (node --test tests/types/)" node_counts

rm -rf "$logdir"
echo
echo "took $((SECONDS / 60))m$((SECONDS % 60))s, set-up included"
echo "tests: ${passed} passed, ${failed} failed"
if [[ $status -ne 0 && $failed -eq 0 ]]; then echo "a runner failed without reporting a failed test (see above)"; fi
exit $status

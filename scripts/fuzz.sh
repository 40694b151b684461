#!/usr/bin/env bash
# Coverage-guided fuzzing of the core with libFuzzer, time-boxed.
#
#   bash scripts/fuzz.sh [seconds-per-target]   build, then run every target
#   bash scripts/fuzz.sh build                  only build the targets
#
# The box defaults to $FUZZ_SECONDS, else 45 seconds per target.
# FUZZ_TARGETS="rescue_json merge_usage" runs a subset; FUZZ_JOBS targets run
# at once (default: one per core), each libFuzzer process on one core.
#
# Each target starts from a copy of its committed seeds (fuzz/seeds/<target>)
# in a scratch corpus (fuzz/corpus/<target>, ignored by git), so a run costs
# the same every time and the seeds stay small; FUZZ_KEEP_CORPUS=1 keeps
# what earlier runs learned instead, for longer sessions by hand. Crashes,
# timeouts and out-of-memory inputs land in fuzz/artifacts/<target>/.
# Prints per target the executions, libFuzzer's final coverage (cov: edges,
# ft: features), the slowest input and peak memory, and any crash; exits
# non-zero when a target found one.
#
# Build: the targets are built by cargo directly, with the flags cargo fuzz
# (0.13) passes for libFuzzer's coverage instrumentation (the sancov pass,
# inline 8-bit counters, the PC table, compare tracing, stack depth, branch
# folding off, `--cfg fuzzing`), in release mode with debug assertions and
# overflow checks, so an arithmetic overflow is a crash too. Nothing needs
# installing first (cargo fuzz itself takes a minute and a half to install),
# and the build can start early, beside other work (scripts/test.sh starts it
# in the background). Four choices differ from cargo fuzz's defaults (the
# fourth: no debug info, see below):
# - opt-level 1 and 16 codegen units instead of opt-level 3 and one unit
#   per crate: the targets compile jsonschema's validators twice (over the
#   tape and over serde_json), and that build took 9.5 CPU-minutes, the
#   largest single cost of the test command; at opt-level 1 it takes about
#   6, for fewer executions in a short box.
# - no AddressSanitizer by default: stable rustc refuses `-Zsanitizer`, and
#   the crate has no unsafe code of its own. FUZZ_SANITIZER=address builds
#   with ASan anyway, through RUSTC_BOOTSTRAP=1 (stable ships the ASan
#   runtime; that variable makes stable accept nightly flags, and is meant
#   for building the compiler), into its own target directory: a longer
#   session by hand can afford that, the time-boxed test run cannot.
# Panics: fuzz/ is its own workspace, so the crate's release profile
# (panic = "abort") does not apply there; libfuzzer-sys installs a panic
# hook that aborts the process, so every panic is reported as a crash with
# its input saved, as it would trap the wasm instance.
set -uo pipefail
cd "$(dirname "$0")/.."

mode=run
if [[ ${1:-} == build ]]; then
  mode=build
  shift
fi
seconds=${1:-${FUZZ_SECONDS:-45}}
targets=(${FUZZ_TARGETS:-rescue_json check_output compile_schema merge_usage ecma_regex})
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
started=$SECONDS

if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: seconds per target must be a positive whole number, not '$seconds'" >&2
  exit 2
fi
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: FUZZ_JOBS must be a positive whole number, not '$jobs'" >&2
  exit 2
fi

say() { printf '[fuzz] %s\n' "$*" >&2; }

host=$(rustc -vV | sed -n 's/^host: //p')
flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
flags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table"
flags+=" -Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-simplifycfg-branch-fold-threshold=0"
flags+=" -Cllvm-args=-sanitizer-coverage-stack-depth --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
flags+=" -Ccodegen-units=16"
case ${FUZZ_SANITIZER:-none} in
  none) target_dir=fuzz/target ;;
  address)
    export RUSTC_BOOTSTRAP=1
    flags+=" -Zsanitizer=address"
    target_dir=fuzz/target/asan ;;
  *) echo "fuzz: FUZZ_SANITIZER is none or address" >&2; exit 2 ;;
esac
bindir="$target_dir/$host/release"

logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT

# No debug info by default: a crash's stack trace still names every
# function (the symbols stay), only file and line are missing, and the
# build takes 403 CPU-seconds instead of 459 with line tables.
# FUZZ_DEBUG_INFO=line-tables-only brings them back, for a crash to read.
debug_info=${FUZZ_DEBUG_INFO:-false}
case $debug_info in
  false | line-tables-only) ;;
  *) echo "fuzz: FUZZ_DEBUG_INFO is false or line-tables-only" >&2; exit 2 ;;
esac
[[ $debug_info == line-tables-only ]] && debug_info='"line-tables-only"'

say "building the fuzz targets"
build_start=$SECONDS
# --target: RUSTFLAGS then reach the targets but not build scripts.
if ! RUSTFLAGS="$flags${RUSTFLAGS:+ $RUSTFLAGS}" cargo build --manifest-path fuzz/Cargo.toml \
  --release --config "profile.release.debug=$debug_info" --config 'profile.release.opt-level=1' \
  --target "$host" --target-dir "$target_dir" --bins >"$logdir/build.log" 2>&1; then
  grep -vE '^\s+(Compiling|Downloaded|Downloading) ' "$logdir/build.log" | tail -60 >&2
  echo "fuzz: the fuzz targets did not build" >&2
  exit 1
fi
say "built in $((SECONDS - build_start))s"
[[ $mode == build ]] && exit 0

dict_for() {
  case $1 in
    rescue_json) echo fuzz/dicts/fence.dict ;;
    merge_usage) echo fuzz/dicts/usage.dict ;;
    *) echo fuzz/dicts/json.dict ;;
  esac
}

# Runs one target; writes its summary line to $logdir/<target>.summary and
# exits non-zero when it found something.
fuzz_one() {
  local target=$1 corpus="fuzz/corpus/$1" artifacts="fuzz/artifacts/$1"
  [[ ${FUZZ_KEEP_CORPUS:-0} == 1 ]] || rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts"
  for seed in "fuzz/seeds/$target"/*; do
    [[ -e "$corpus/${seed##*/}" ]] || cp "$seed" "$corpus/"
  done
  local log="$logdir/$target.log" marker="$logdir/$target.start"
  touch "$marker"
  say "running $target for ${seconds}s"
  # -timeout: one input taking 10 s is a hang for a per-response check.
  # -rss_limit_mb: one input needing 2 GiB is a failure to cap work.
  "$bindir/$target" -artifact_prefix="$artifacts/" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -dict="$(dict_for "$target")" "$corpus" >"$log" 2>&1
  local code=$?

  local execs speed slowest rss last cov ft corp found result
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
  speed=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -1)
  slowest=$(sed -nE 's/^stat::slowest_unit_time_sec: *([0-9]+).*/\1/p' "$log" | tail -1)
  rss=$(sed -nE 's/^stat::peak_rss_mb: *([0-9]+).*/\1/p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  corp=$(sed -nE 's/.* corp: ([0-9]+)\/.*/\1/p' <<<"$last")
  found=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log")
  # Artifacts a crashed run wrote, in case its log did not name them.
  if [[ -z $found ]]; then
    found=$(find "$artifacts" -type f -newer "$marker" 2>/dev/null)
  fi

  local failed=0
  if [[ $code -ne 0 || -n $found ]]; then
    failed=1
    result="FAILED (exit $code)"
    {
      echo "---- $target: what libFuzzer reported"
      if ! grep -E -A4 'panicked at|ERROR: libFuzzer|ALARM:|ParseDictionaryFile|^error' "$log" | head -40; then
        grep -vE '^#[0-9]+' "$log" | tail -20
      fi
      for artifact in $found; do
        echo "fuzz: $target: input saved at $artifact"
        echo "fuzz:   reproduce with: $bindir/$target $artifact"
      done
    } >&2
  else
    result="ok"
  fi
  printf '%-15s %11s %7s %6s %7s %6s %8s %7s  %s\n' "$target" "${execs:-?}" "${speed:-?}" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "${slowest:-?}s" "${rss:-?}MB" "$result" >"$logdir/$target.summary"
  return $failed
}

failed=0
running=0
for target in "${targets[@]}"; do
  fuzz_one "$target" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while ((running > 0)); do
  wait -n || failed=1
  running=$((running - 1))
done

echo
printf '%-15s %11s %7s %6s %7s %6s %8s %7s  %s\n' target executions exec/s cov ft corpus slowest peak result
for target in "${targets[@]}"; do cat "$logdir/$target.summary"; done
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, $jobs at a time, $((SECONDS - started))s in all including the build"
exit $failed

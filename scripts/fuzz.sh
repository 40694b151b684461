#!/usr/bin/env bash
# Coverage-guided fuzzing of the core with cargo fuzz (libFuzzer), time-boxed.
#
#   bash scripts/fuzz.sh [seconds-per-target]
#
# The box defaults to $FUZZ_SECONDS, else 45 seconds per target; with four
# targets and a warm build that is about three and a half minutes.
# FUZZ_TARGETS="rescue_json merge_usage" runs a subset.
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
# Build choices, for the stable toolchain this project pins:
# - `-s none`: cargo fuzz's default AddressSanitizer is switched on with
#   `-Zsanitizer=address`, which stable rustc refuses. The coverage
#   instrumentation libFuzzer needs (`-Cpasses=sancov-module` and the
#   sanitizer-coverage LLVM arguments) is made of stable flags, so the
#   fuzzing itself is unchanged; what is lost is ASan's watch over unsafe
#   code, and the crate has none of its own (its dependencies do).
#   FUZZ_SANITIZER=address builds with ASan anyway, through
#   RUSTC_BOOTSTRAP=1 (stable ships the ASan runtime; that variable makes
#   stable accept nightly flags, and is meant for building the compiler),
#   into its own target directory: a longer session by hand can afford
#   that, the time-boxed test run cannot (about half the executions).
# - Neither --release nor --dev: cargo fuzz then builds optimised code with
#   debug assertions and overflow checks, so an arithmetic overflow is a
#   crash too.
# - Panics: fuzz/ is its own workspace, so the crate's release profile
#   (panic = "abort") does not apply there; libfuzzer-sys installs a panic
#   hook that aborts the process, so every panic is reported as a crash
#   with its input saved, as it would trap the wasm instance.
set -uo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
seconds=${1:-${FUZZ_SECONDS:-45}}
targets=(${FUZZ_TARGETS:-rescue_json check_output compile_schema merge_usage})
started=$SECONDS

if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: seconds per target must be a positive whole number, not '$seconds'" >&2
  exit 2
fi

say() { printf '[fuzz] %s\n' "$*" >&2; }

if [[ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]]; then
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked \
    || cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" \
    || { echo "fuzz: could not install cargo-fuzz" >&2; exit 1; }
fi

case ${FUZZ_SANITIZER:-none} in
  none) build_flags=(-s none) target_dir=fuzz/target ;;
  address)
    export RUSTC_BOOTSTRAP=1
    build_flags=(-s address --target-dir fuzz/target/asan) target_dir=fuzz/target/asan ;;
  *) echo "fuzz: FUZZ_SANITIZER is none or address" >&2; exit 2 ;;
esac

logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT

say "building the fuzz targets"
build_start=$SECONDS
if ! cargo fuzz build "${build_flags[@]}" >"$logdir/build.log" 2>&1; then
  grep -vE '^\s+(Compiling|Downloaded|Downloading) ' "$logdir/build.log" | tail -60 >&2
  echo "fuzz: the fuzz targets did not build" >&2
  exit 1
fi
say "built in $((SECONDS - build_start))s"
bindir="$target_dir/$(rustc -vV | sed -n 's/^host: //p')/release"

dict_for() {
  case $1 in
    rescue_json) echo fuzz/dicts/fence.dict ;;
    merge_usage) echo fuzz/dicts/usage.dict ;;
    *) echo fuzz/dicts/json.dict ;;
  esac
}

summary=()
failed=0

for target in "${targets[@]}"; do
  corpus="fuzz/corpus/$target"
  artifacts="fuzz/artifacts/$target"
  [[ ${FUZZ_KEEP_CORPUS:-0} == 1 ]] || rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts"
  for seed in "fuzz/seeds/$target"/*; do
    [[ -e "$corpus/${seed##*/}" ]] || cp "$seed" "$corpus/"
  done
  log="$logdir/$target.log"
  marker="$logdir/$target.start"
  touch "$marker"
  say "running $target for ${seconds}s"
  # -timeout: one input taking 10 s is a hang for a per-response check.
  # -rss_limit_mb: one input needing 2 GiB is a failure to cap work.
  # The binary built above runs directly: `cargo fuzz run` would first
  # rebuild whatever changed in src/ since, inside the time box.
  "$bindir/$target" -artifact_prefix="$artifacts/" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -dict="$(dict_for "$target")" "$corpus" >"$log" 2>&1
  code=$?

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

  if [[ $code -ne 0 || -n $found ]]; then
    failed=1
    result="FAILED (exit $code)"
    echo "---- $target: what libFuzzer reported" >&2
    if ! grep -E -A4 'panicked at|ERROR: libFuzzer|ALARM:|ParseDictionaryFile|^error' "$log" | head -40 >&2; then
      grep -vE '^#[0-9]+' "$log" | tail -20 >&2
    fi
    for artifact in $found; do
      echo "fuzz: $target: input saved at $artifact" >&2
      echo "fuzz:   reproduce with: ${RUSTC_BOOTSTRAP:+RUSTC_BOOTSTRAP=1 }cargo fuzz run ${build_flags[*]} $target $artifact" >&2
    done
  else
    result="ok"
  fi
  summary+=("$(printf '%-15s %11s %7s %6s %7s %6s %8s %7s  %s' "$target" "${execs:-?}" "${speed:-?}" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "${slowest:-?}s" "${rss:-?}MB" "$result")")
done

echo
printf '%-15s %11s %7s %6s %7s %6s %8s %7s  %s\n' target executions exec/s cov ft corpus slowest peak result
printf '%s\n' "${summary[@]}"
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, $((SECONDS - started))s in all including the build"
exit $failed

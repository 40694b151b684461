#!/usr/bin/env bash
# What each part of the package's wasm module costs (bench/size.mjs):
#   bash bench/size.sh [--out FILE]
# Runs after scripts/build.sh: binds the release module again and optimises
# it as scripts/wasm-opt.sh does, but keeping its function names (-g), so
# that bench/size.mjs can name the package's functions; the code and data
# it reads are byte for byte those of pkg/wasm/guard_bg.wasm (it checks).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
wasm-bindgen --target web --weak-refs --out-dir "$dir" --out-name guard \
  target/wasm32-unknown-unknown/release/structured_output_guard.wasm
WASM_OPT_KEEP_NAMES=1 bash scripts/wasm-opt.sh "$dir/guard_bg.wasm" "$dir/named.wasm"
node bench/size.mjs "$dir/named.wasm" pkg/wasm/guard_bg.wasm "$@"

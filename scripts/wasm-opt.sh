#!/usr/bin/env bash
# Optimises a wasm module for size with the package's wasm-opt flags:
#   bash scripts/wasm-opt.sh IN.wasm OUT.wasm
# scripts/build.sh runs it on the package and bench/size-floor.sh on the
# jsonschema-only module, so both are measured after the same optimisation.
# The features enabled are those the Rust target emits (simd128 included).
set -euo pipefail
cd "$(dirname "$0")/.."
node_modules/.bin/wasm-opt -Oz --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
  "$1" -o "$2"

#!/usr/bin/env bash
# Optimises a wasm module for size with the package's wasm-opt flags:
#   bash scripts/wasm-opt.sh IN.wasm OUT.wasm
# scripts/build.sh runs it on the package and bench/size-floor.sh on the
# jsonschema-only module, so both are measured after the same optimisation.
# The features enabled are those the Rust target emits (simd128 included).
# The -Oz pipeline runs twice: inlining and merging in the first pass leave
# work for the second, which took 4.6 KB gzip more off the package's module
# (975,282 -> 970,723 B) for about 40 s of build time; a third gains little
# (--converge, run to a fixed point, another 0.5 KB for 80 s more).
set -euo pipefail
cd "$(dirname "$0")/.."
node_modules/.bin/wasm-opt -Oz -Oz --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
  "$1" -o "$2"

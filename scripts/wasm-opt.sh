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
# Then the functions are put in the order of their names, while the names
# (which wasm-bindgen keeps) are still there: the many instances of one
# generic function, and the validators of one keyword, come to lie side by
# side, where gzip's 32 KB window finds what they share. That took 42 KB
# gzip off the module (984,618 -> 942,518 B) for no measurable time; the
# order of functions changes nothing in what they do.
# WASM_OPT_KEEP_NAMES=1 keeps the function names (bench/size.sh): the same
# code and data, with a name section that the package does without.
set -euo pipefail
cd "$(dirname "$0")/.."
strip=(--strip-debug)
[[ ${WASM_OPT_KEEP_NAMES:-} == 1 ]] && strip=(-g)
node_modules/.bin/wasm-opt -Oz -Oz --reorder-functions-by-name "${strip[@]}" --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
  "$1" -o "$2"

#!/usr/bin/env bash
# Builds a copy of the package whose wasm has the `debug-trap` export, into
# target/trap-pkg/, for the trap-recovery test. The package in pkg/ never
# has it. Its own profile (see Cargo.toml): optimised, without LTO.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '[build-trap] %s\n' "$*" >&2; }
[[ -f pkg/facade.mjs ]] || { say "build pkg/ first (scripts/build.sh)"; exit 1; }

say "compiling the crate to wasm32 with the debug-trap feature"
cargo build --quiet --lib --target wasm32-unknown-unknown --profile trap-test --features debug-trap

out=target/trap-pkg
rm -rf "$out"
mkdir -p "$out/wasm"
wasm-bindgen --target web --weak-refs --out-dir "$out/wasm" --out-name guard \
  target/wasm32-unknown-unknown/trap-test/structured_output_guard.wasm
rm -f "$out"/wasm/*.d.ts
node scripts/glue-factory.mjs "$out/wasm/guard.js"
cp pkg/*.mjs "$out/"
say "$out is ready"

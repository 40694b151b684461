#!/usr/bin/env bash
# Builds a copy of the package whose wasm has a `debugTrap` export, into
# target/trap-pkg/, for the trap-recovery test. The package in pkg/ never
# has it. The copy is made from pkg/ itself (scripts/trap-module.mjs adds
# the export to the package's optimised module), so build pkg/ first.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '[build-trap] %s\n' "$*" >&2; }
[[ -f pkg/testing.mjs && -f pkg/wasm/guard_bg.wasm ]] || { say "build pkg/ first (scripts/build.sh)"; exit 1; }

out=target/trap-pkg
rm -rf "$out"
mkdir -p "$out"
node scripts/trap-module.mjs pkg/wasm "$out/wasm"
cp pkg/*.mjs "$out/"
# The browser entry as separate modules (pkg/browser.mjs inlines them), so
# that the page's testing.mjs shares its loader's state.
cp js/browser.mjs "$out/browser.mjs"
cp -r pkg/generated "$out/"
say "$out is ready"

#!/usr/bin/env bash
# Builds the npm package into pkg/: release wasm, wasm-bindgen glue
# (--target web, which Node, Bun and browsers all load), wasm-opt, the JS
# modules, and a CommonJS entry for require().
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

say() { printf '[build] %s\n' "$*" >&2; }

say "compiling the crate to wasm32 (release)"
cargo build --quiet --lib --release --target wasm32-unknown-unknown

rm -rf pkg/wasm
mkdir -p pkg/wasm
say "generating bindings"
wasm-bindgen --target web --weak-refs --out-dir pkg/wasm --out-name guard \
  target/wasm32-unknown-unknown/release/structured_output_guard.wasm
rm -f pkg/wasm/*.d.ts
node scripts/glue-factory.mjs pkg/wasm/guard.js

say "optimising the wasm for size"
bash scripts/wasm-opt.sh pkg/wasm/guard_bg.wasm pkg/wasm/guard_bg.wasm

say "copying the JavaScript modules"
find pkg -maxdepth 1 \( -name '*.mjs' -o -name '*.cjs' \) -delete
# Every module but the CommonJS bundle's shim. testing.mjs (the tests' hooks)
# is built here for the tests and left out of the published package by
# pkg/package.json's `files`.
for module in js/*.mjs; do
  [[ $module == js/cjs-shim.mjs ]] || cp "$module" pkg/
done
# Each declaration file twice: .d.ts for import, .d.cts for require.
for types in index matchers matchers-register ai-sdk; do
  cp "js/$types.d.ts" "pkg/$types.d.ts"
  cp "js/$types.d.ts" "pkg/$types.d.cts"
done
# The matchers and the AI SDK middleware import the package by its own name, so their CommonJS form
# is a plain transform (no bundle) that requires the same entry as the user.
for entry in matchers matchers-register ai-sdk; do
  node_modules/.bin/esbuild "js/$entry.mjs" --platform=node --format=cjs --log-level=warning --outfile="pkg/$entry.cjs"
done
# The constants generated from src/error.rs (see its tests), which the files
# above import.
rm -rf pkg/generated
mkdir -p pkg/generated
cp js/generated/contract.mjs pkg/generated/
cp README.md pkg/README.md
# The pages the README links to, so that its links lead somewhere in the
# installed package too.
rm -rf pkg/docs
mkdir -p pkg/docs
cp docs/*.md pkg/docs/
cp LICENSE pkg/LICENSE

say "bundling the browser entry"
# Browsers get one ES module: the loader and every module it imports, inlined
# (a page that loads the module graph as separate files waits for each level
# of imports in turn, about three times the whole load to the first verdict).
# It is pkg/browser.mjs, beside wasm/, so that the wasm's URL resolves as in
# the loader's source, and the glue fetches the wasm with
# WebAssembly.instantiateStreaming. Names are kept as written (no renaming),
# so that stack traces read as the source; the optional peer dependency stays
# an import of its own.
node_modules/.bin/esbuild pkg/browser.mjs --bundle --format=esm --platform=browser \
  --minify-whitespace --minify-syntax --external:@opentelemetry/api --log-level=warning \
  --outfile=pkg/browser.mjs --allow-overwrite

say "bundling the CommonJS entry"
node_modules/.bin/esbuild pkg/node.mjs --bundle --platform=node --format=cjs \
  --inject:js/cjs-shim.mjs --define:import.meta.url=importMetaUrl \
  --log-level=warning --outfile=pkg/node.cjs

raw=$(wc -c < pkg/wasm/guard_bg.wasm)
gz=$(gzip -9 -c pkg/wasm/guard_bg.wasm | wc -c)
say "pkg/ is ready: wasm ${raw} bytes raw, ${gz} bytes gzip"

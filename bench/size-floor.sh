#!/usr/bin/env bash
# The floor under the package's wasm size while it builds on jsonschema:
#   bash bench/size-floor.sh
# Builds bench/size-floor (jsonschema compile + is_valid and nothing else,
# every crate at opt-level "z"), optimises it as scripts/build.sh optimises
# the package (scripts/wasm-opt.sh), and prints its raw and gzip sizes (Node's zlib, level 9,
# as tests/package/wasm-size.test.mjs measures the package) beside the
# package's. Needs what scripts/build.sh installs. About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

out=target/size-floor
CARGO_TARGET_DIR="$out" cargo build --quiet --release --target wasm32-unknown-unknown \
  --manifest-path bench/size-floor/Cargo.toml
# The package's .cargo/config.toml (+simd128) applies here too: cargo reads
# it from the directory it runs in.
bash scripts/wasm-opt.sh "$out/wasm32-unknown-unknown/release/size_floor.wasm" "$out/size_floor.wasm"

node --input-type=module - "$out/size_floor.wasm" pkg/wasm/guard_bg.wasm <<'JS'
import { readFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
const [floorFile, packageFile] = process.argv.slice(2);
const size = (file) => {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const group = (n) => n.toLocaleString("en-US");
const floor = size(floorFile);
console.log(`jsonschema alone (compile + is_valid, opt-level "z"): ${group(floor.raw)} B raw, ${group(floor.gzip)} B gzip`);
if (existsSync(packageFile)) {
  const pkg = size(packageFile);
  console.log(`the package (pkg/wasm/guard_bg.wasm):                 ${group(pkg.raw)} B raw, ${group(pkg.gzip)} B gzip`);
}
console.log(`the #5 target:                                        ${group(600_000)} B gzip`);
JS

// The wasm size budget: pkg/wasm/guard_bg.wasm, the module every browser
// downloads and every Node or Bun process loads, compressed by Node's zlib at
// level 9 (bench/size.sh breaks the same figure down per crate and item).
// The budget is the size the module was last measured at plus at most 1%;
// it only goes down: lower it with every cut, and let the commit that changes
// it say what the bytes buy. WASM_GZIP_TARGET is the most a browser preview
// should have to download; the budget stays at or below it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

export const WASM_GZIP_TARGET = 700_000;
export const WASM_GZIP_BUDGET = 681_000;

const wasmFile = new URL("../../pkg/wasm/guard_bg.wasm", import.meta.url);

test(`the packaged wasm is at most ${WASM_GZIP_BUDGET.toLocaleString("en")} bytes gzip`, () => {
  const bytes = readFileSync(wasmFile);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], "pkg/wasm/guard_bg.wasm is not a wasm module");
  const gzip = gzipSync(bytes, { level: 9 }).length;
  console.log(`wasm: ${bytes.length.toLocaleString("en")} bytes raw, ${gzip.toLocaleString("en")} bytes gzip ` +
    `(budget ${WASM_GZIP_BUDGET.toLocaleString("en")}, target ${WASM_GZIP_TARGET.toLocaleString("en")})`);
  assert.ok(gzip <= WASM_GZIP_BUDGET, `the wasm grew to ${gzip} bytes gzip, past the budget of ${WASM_GZIP_BUDGET}`);
  assert.ok(WASM_GZIP_BUDGET <= WASM_GZIP_TARGET, "the budget is above the target: a browser preview would download more than it should");
});

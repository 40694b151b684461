// Node and Bun: the module is ready at import, synchronously.
import { readFileSync } from "node:fs";
import { createGlue } from "./wasm/guard.js";
import { markLoaded, pendingReload } from "./wasm-instance.mjs";

const bytes = readFileSync(new URL("./wasm/guard_bg.wasm", import.meta.url));
const module = new WebAssembly.Module(bytes);

/** A new instance of the compiled module, with its own glue. */
function instantiate() {
  const glue = createGlue();
  return { glue, exports: glue.initSync({ module }) };
}

const first = instantiate();
markLoaded(first.glue, first.exports, instantiate);

/**
 * Already loaded in Node and Bun; kept so the same code runs in a browser.
 * (Should the instance ever be replaced asynchronously after an internal
 * failure, it waits for that.)
 */
export function ready() {
  return pendingReload() ?? Promise.resolve();
}

export * from "./api.mjs";

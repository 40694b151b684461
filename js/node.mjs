// Node and Bun: the module is ready at import, synchronously.
import { readFileSync } from "node:fs";
import { initSync } from "./wasm/guard.js";
import { markLoaded } from "./facade.mjs";

markLoaded(initSync({ module: readFileSync(new URL("./wasm/guard_bg.wasm", import.meta.url)) }));

/** Already loaded in Node and Bun; kept so the same code runs in a browser. */
export function ready() {
  return Promise.resolve();
}

export * from "./api.mjs";

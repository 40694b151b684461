// Browsers: `await ready()` once before the other exports.
import init from "./wasm/guard.js";
import { markLoaded } from "./facade.mjs";

let loading;

/** Loads the wasm module; later calls return the same promise. */
export function ready() {
  loading ??= init({ module_or_path: new URL("./wasm/guard_bg.wasm", import.meta.url) }).then((exports) => {
    markLoaded(exports);
  });
  return loading;
}

export * from "./api.mjs";

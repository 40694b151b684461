// Browsers: `await ready()` once before the other exports.
// First, so that the wasm is on its way before the rest is evaluated.
import { compiledModule } from "./browser-wasm.mjs";
import { createGlue } from "./wasm/guard.js";
import { markLoaded, pendingReload } from "./wasm-instance.mjs";
import { makeNoFunctions } from "./functions-from-source.mjs";

// A page needs 'wasm-unsafe-eval' in its Content Security Policy (or none)
// for the WebAssembly; nothing here needs 'unsafe-eval', and nothing tries it.
makeNoFunctions();

let loading;

/**
 * Instantiates the wasm module, which has been fetching and compiling since
 * the entry was imported (see browser-wasm.mjs); later calls return the
 * same promise, or, while the module is being replaced after an internal
 * failure, one for that.
 */
export function ready() {
  const reload = pendingReload();
  if (reload) return reload;
  loading ??= (async () => {
    const module = await compiledModule;
    const glue = createGlue();
    const exports = await glue.init({ module_or_path: module });
    // After a trap the instance is replaced from the module already
    // compiled: synchronously where the browser allows it (so the very next
    // call works), else asynchronously (calls ask to `await ready()`).
    const instantiate = () => {
      const fresh = createGlue();
      return { glue: fresh, exports: fresh.initSync({ module }) };
    };
    const instantiateAsync = async () => {
      const fresh = createGlue();
      return { glue: fresh, exports: await fresh.init({ module_or_path: module }) };
    };
    markLoaded(glue, exports, instantiate, instantiateAsync);
  })();
  return loading;
}

export * from "./api.mjs";

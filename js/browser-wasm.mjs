// The browser entry's wasm module, fetched and compiled from the moment the
// entry is evaluated: js/browser.mjs imports this module first, so the
// request is on its way (and the module compiling, as its bytes arrive, off
// the main thread) while the rest of the entry is evaluated and the page
// goes on to `await ready()`, which only instantiates it.

/**
 * The compiled module (a WebAssembly.Module), or the reason it could not
 * be had, which `ready()` reports; nothing else awaits it, so a page that
 * never calls `ready()` sees no unhandled rejection.
 */
export const compiledModule = compile(new URL("./wasm/guard_bg.wasm", import.meta.url));
compiledModule.catch(() => {});

/**
 * Fetches and compiles the module at `url`: with
 * `WebAssembly.compileStreaming` where the host has it and the server
 * sends `application/wasm` (which streaming compilation requires), else
 * from the whole body.
 */
async function compile(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`structured-output-guard could not fetch its WebAssembly module: ${response.status} ${response.statusText} fetching '${response.url}'`);
  }
  const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (typeof WebAssembly.compileStreaming === "function" && type === "application/wasm") {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

// The wasm instance: loading, trap recovery (a trapped instance is dropped
// and the next call runs on a fresh one), the typed errors of raw calls, and
// the core's input buffer, into which texts are encoded once per crossing
// (see src/wasm/mod.rs).
import { SchemaError, argumentError } from "./errors.mjs";

let loaded = false;
/** The current instance's glue (see scripts/glue-factory.mjs) and memory. */
export let raw;
export let memory;
/** Makes a fresh instance after a trap; set by the loader. */
let reinstantiate;
/**
 * What the cache was set to (see setSchemaCacheCapacity in schemas.mjs): a
 * count, `{ maxBytes }`, or undefined for the default memory bound; a
 * fresh instance gets it too.
 */
export let cacheCapacity;

/** The cache's bound, given to every instance made from now on. */
export function keepCacheCapacity(capacity) {
  cacheCapacity = capacity;
}

/** Gives the current instance the cache bound kept (see `keepCacheCapacity`). */
export function applyCacheCapacity() {
  if (typeof cacheCapacity === "number") raw.setSchemaCacheCapacity(cacheCapacity);
  else if (cacheCapacity !== undefined) raw.setSchemaCacheMemory(cacheCapacity.maxBytes);
}

/** What forgets the state of an instance that trapped (see whenReplaced). */
const onReplace = [];

/**
 * Registers `forget`, run when a trapped instance is dropped and before the
 * next is made: handles and anything else kept for the dead instance must
 * go with it.
 */
export function whenReplaced(forget) {
  onReplace.push(forget);
}

/** Makes a fresh instance asynchronously, where making one synchronously is refused. */
let reinstantiateAsync;
/** The pending asynchronous re-instantiation, if any. */
let reloading;

/**
 * Called by a loader once a wasm instance exists: its glue, its exports,
 * and functions that make a fresh instance ({ glue, exports }) synchronously
 * and, optionally, asynchronously (browsers refuse synchronous instantiation
 * of large modules on the main thread).
 */
export function markLoaded(glue, exports, fresh, freshAsync) {
  raw = glue;
  memory = exports.memory;
  inputView = null;
  reinstantiate = fresh;
  reinstantiateAsync = freshAsync;
  loaded = true;
}

/** A promise for the re-instantiation in progress, or undefined. */
export function pendingReload() {
  return reloading;
}

/** Counts instances adopted, so a session can tell it outlived its own. */
export let instanceNumber = 0;

function adopt({ glue, exports }) {
  raw = glue;
  memory = exports.memory;
  inputView = null;
  instanceNumber += 1;
  applyCacheCapacity();
  loaded = true;
  loadFailure = undefined;
}

/**
 * A trap (a panic aborts, and an abort is a trap) leaves the instance's
 * memory in whatever state the panic found it: the instance is dropped and
 * the next call runs on a fresh one. Compiled validators are recompiled
 * from their source on first use; handles of the dead instance are retired
 * so nothing can reach the new one through them.
 */
function recoverFromTrap() {
  const dead = raw;
  for (const forget of onReplace) forget();
  loaded = false;
  try {
    adopt(reinstantiate());
  } catch (error) {
    if (reinstantiateAsync) {
      // Until it is done, calls say to `await ready()`, which waits for it.
      reloading = reinstantiateAsync().then(
        (fresh) => {
          adopt(fresh);
          reloading = undefined;
        },
        (asyncError) => {
          loadFailure = asyncError;
          reloading = undefined;
        },
      );
    } else {
      // Leave the module unloaded with the reason, rather than half working;
      // the next call tries again (the failure may be passing: the stack
      // can run out during a call made from deep recursion).
      loadFailure = error;
    }
  }
  dead.retire();
  traps += 1;
}

/** After a failed re-instantiation, one more try before refusing the call. */
function retryLoad() {
  try {
    adopt(reinstantiate());
  } catch (error) {
    loadFailure = error;
  }
}

let loadFailure;
export let traps = 0;

/** The current instance's raw exports, for callers that use them directly (tool-calls.mjs, the tests). */
export function rawGlue() {
  ensureLoaded();
  return raw;
}

/** Bytes of linear memory the wasm instance holds now (it only grows). */
export function wasmMemoryBytes() {
  ensureLoaded();
  return memory.buffer.byteLength;
}

export function ensureLoaded() {
  if (!loaded && loadFailure && !reloading && reinstantiate) retryLoad();
  if (!loaded) {
    let error;
    if (reloading) {
      error = new Error("structured-output-guard is re-instantiating after an internal failure: `await ready()` first");
    } else if (loadFailure) {
      error = new Error(`structured-output-guard could not be re-instantiated after an internal failure: ${loadFailure.message}`, { cause: loadFailure });
    } else {
      error = new Error("structured-output-guard is not loaded yet: call `await ready()` first");
    }
    error.code = "not_ready";
    throw error;
  }
}

export function translate(error) {
  if (error && error.code === "invalid_schema") return new SchemaError(error.message);
  if (error && error.code === "invalid_argument") return argumentError(error.message);
  // A trap, or the engine's stack running out inside wasm (a RangeError):
  // either way the call was cut off midway, with the instance's memory in
  // whatever state it was in (a RefCell still borrowed, the allocator
  // mid-update), so the instance is replaced before anything else runs.
  if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
    recoverFromTrap();
    const wrapped = new Error(`structured-output-guard failed internally (the module was re-instantiated; this call's input was not checked): ${error.message}`, { cause: error });
    wrapped.code = "internal";
    return wrapped;
  }
  return error;
}

/**
 * `text` safe to print, by the one function every message of the package
 * passes through (crates/tape/src/display.rs, through the core's
 * `shownText`): for the messages made here that name what a caller or a
 * model wrote, and for the public escapeForDisplay.
 */
export function displayText(text) {
  return callRaw(() => raw.shownText(String(text), false, true));
}

/** Runs a raw call with the module loaded and errors typed. */
export function callRaw(fn) {
  ensureLoaded();
  try {
    return fn();
  } catch (error) {
    throw translate(error);
  }
}

/** The same for raw calls whose result is JSON text (see src/wasm/mod.rs). */
export function callRawJson(fn) {
  return JSON.parse(callRaw(fn));
}

/**
 * Encodes `texts` one after another into wasm memory, then the JSON text
 * `tailOf(the byte length of each text)`. A buffer of about the texts'
 * length (and `extra` more units for the tail) usually suffices, as for a
 * string; when something does not fit, it is encoded again into one of the
 * largest size UTF-8 can need for what is known by then. Returns where the
 * JSON text starts and its length in bytes, or undefined when `tailOf`
 * gives no text.
 */
function encodeTexts(texts, extra, tailOf) {
  let units = 0;
  for (const text of texts) units += text.length;
  let capacity = units + (units >> 3) + extra + (extra >> 3) + 256;
  for (;;) {
    const view = inputOf(capacity);
    const lengths = [];
    let at = 0;
    for (const text of texts) {
      const { read, written } = encoder.encodeInto(text, view.subarray(at));
      if (read < text.length) break;
      lengths.push(written);
      at += written;
    }
    if (lengths.length < texts.length) {
      capacity = (units + extra) * 3 + 256;
      continue;
    }
    const tail = tailOf(lengths);
    if (tail === undefined) return undefined;
    const { read, written } = encoder.encodeInto(tail, view.subarray(at));
    if (read === tail.length) return { start: at, length: written };
    capacity = at + tail.length * 3 + 256;
  }
}

/**
 * Encodes `texts`, then a reader's copy (JSON text) as `[[byte length of
 * each text],copy]`, the form `split_texts` in src/providers/read.rs reads.
 * Returns where the JSON text starts and its length in bytes.
 */
export function encodeCopy(texts, copyText) {
  return encodeTexts(texts, copyText.length, (lengths) => `[[${lengths.join(",")}],${copyText}]`);
}

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

/**
 * The view of the core's input buffer the last response was encoded into.
 * The buffer only moves when inputBuffer grows it, so the view is reused
 * while it is large enough and still over the current memory: a grown
 * memory detaches the old ArrayBuffer, and a view of a detached buffer has
 * length 0 (cheaper to ask than `memory.buffer`); a new instance drops it.
 */
let inputView = null;

export function inputOf(capacity) {
  if (inputView === null || inputView.byteLength < capacity || inputView.byteLength === 0) {
    // inputBuffer may grow the memory, which detaches the old buffer: take
    // memory.buffer only after it returns.
    const pointer = raw.inputBuffer(capacity);
    inputView = new Uint8Array(memory.buffer, pointer, capacity);
  }
  return inputView;
}

/**
 * Encodes `text` straight into the input buffer with the native encoder,
 * leaving room for `extra` bytes after it, and gives the bytes written.
 * Most texts are nearly all ASCII, so a buffer of about the string's length
 * usually suffices; otherwise it is encoded again into one of the largest
 * size UTF-8 can need. `inputOf(written + extra)` is then the view it went
 * into.
 */
export function encodeInput(text, extra = 0) {
  const view = inputOf(text.length + (text.length >> 3) + 16 + extra);
  const { read, written } = encoder.encodeInto(text, view);
  if (read === text.length) return written;
  return encoder.encodeInto(text, inputOf(text.length * 3 + extra)).written;
}

// The public API over the raw wasm exports. Values cross into wasm as JSON
// text or, on the lanes, as bytes encoded into the core's input buffer (see
// src/wasm.rs); a response is first copied along the core's read plan (see
// js/read.mjs). This file turns arguments into that form, results into the
// shapes API.md promises, and raw errors into typed errors.
import { SchemaError, argumentError, withTypedErrors } from "./errors.mjs";
import { DEFAULTS } from "./generated/contract.mjs";
import { copyAlong } from "./read.mjs";

let loaded = false;
/** The current instance's glue (see scripts/glue-factory.mjs) and memory. */
let raw;
let memory;
/** Makes a fresh instance after a trap; set by the loader. */
let reinstantiate;
/** What the cache was set to, so a fresh instance gets it too. */
let cacheCapacity;

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
  reinstantiate = fresh;
  reinstantiateAsync = freshAsync;
  loaded = true;
}

/** A promise for the re-instantiation in progress, or undefined. */
export function pendingReload() {
  return reloading;
}

/** Counts instances adopted, so a session can tell it outlived its own. */
let instanceNumber = 0;

function adopt({ glue, exports }) {
  raw = glue;
  memory = exports.memory;
  instanceNumber += 1;
  if (cacheCapacity !== undefined) raw.setSchemaCacheCapacity(cacheCapacity);
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
  rawOf = new WeakMap();
  forgetSchemas();
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
let traps = 0;

/** The current instance's raw exports, for tests that reach below the public API. */
export function rawGlue() {
  ensureLoaded();
  return raw;
}

/** How many times the instance trapped and was replaced (for tests and diagnostics). */
export function trapCount() {
  return traps;
}

/** Bytes of linear memory the wasm instance holds now (it only grows). */
export function wasmMemoryBytes() {
  ensureLoaded();
  return memory.buffer.byteLength;
}

function ensureLoaded() {
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

function translate(error) {
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

/** Runs a raw call with the module loaded and errors typed. */
export function callRaw(fn) {
  ensureLoaded();
  try {
    return fn();
  } catch (error) {
    throw translate(error);
  }
}

/** The same for raw calls whose result is JSON text (see src/wasm.rs). */
function callRawJson(fn) {
  return JSON.parse(callRaw(fn));
}

/** JSON text for a value, or a typed error naming what could not be serialised. */
export function jsonText(what, value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    // BigInt, cycles, throwing getters and nesting deeper than the JS stack
    // end up here. The engine's own message can quote object keys, which
    // may hold anything, so only the kind of problem is named.
    throw argumentError(`${what} cannot be serialised to JSON: ${serialisationProblem(error)}`);
  }
  if (text === undefined) throw argumentError(`${what} must be a JSON value, not ${typeof value}`);
  return wellFormedJson(text);
}

function serialisationProblem(error) {
  const message = String(error?.message ?? error);
  if (error instanceof RangeError) return "it nests too deeply";
  if (/circular|cyclic/i.test(message)) return "it contains a cycle";
  if (/bigint/i.test(message)) return "it contains a BigInt";
  return `reading it threw ${error?.name ?? "an error"}`;
}

/**
 * JSON.stringify writes a lone UTF-16 surrogate as a `\udXXX` escape, which
 * is not Unicode and which the core refuses; it becomes U+FFFD, as it does
 * when a string with one is encoded to UTF-8 (see `wellFormed`).
 */
function wellFormedJson(text) {
  if (!/\\ud[89a-f]/i.test(text)) return text;
  return text.replace(
    /(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})(\\ud[c-f][0-9a-f]{2})?|(?<!\\)((?:\\\\)*)\\ud[c-f][0-9a-f]{2}/gi,
    (match, slashes, high, low, slashes2) => {
      if (high !== undefined) return low !== undefined ? match : `${slashes}\\ufffd`;
      return `${slashes2}\\ufffd`;
    },
  );
}

/**
 * A string with a lone UTF-16 surrogate (a stream cut inside an emoji, say)
 * is checked, and returned, with U+FFFD in its place: the check and the
 * returned value must see the same text, and UTF-8 cannot carry the
 * surrogate into the core.
 */
function wellFormed(text) {
  return typeof text.isWellFormed === "function" && !text.isWellFormed() ? text.toWellFormed() : text;
}

function optionsText(options) {
  if (options === undefined || options === null) return "null";
  if (typeof options !== "object" || Array.isArray(options)) {
    throw argumentError(`options must be an object, not ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  rejectNonFinite("options", options);
  return jsonText("options", options);
}

/**
 * JSON has no NaN or Infinity: JSON.stringify writes null, which would
 * quietly mean "the default". A number option that is not finite is refused.
 */
export function rejectNonFinite(what, object) {
  let entries;
  try {
    entries = Object.keys(object).map((key) => [key, object[key]]);
  } catch (error) {
    throw argumentError(`${what} could not be read: reading it threw ${error?.name ?? "an error"}`);
  }
  for (const [key, value] of entries) {
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw argumentError(`${what}.${key} must be a finite number, not ${value}`);
    }
  }
}

function schemaText(schema) {
  if (typeof schema === "string") return schema;
  if (schema === undefined) throw new SchemaError("a schema is required");
  let problem;
  try {
    problem = notJsonValue(schema);
  } catch (error) {
    throw new SchemaError(`the schema could not be read: reading it threw ${error?.name ?? "an error"}`);
  }
  if (problem) throw new SchemaError(`the schema must be a JSON value (an object, an array, a boolean or JSON text), not ${problem}`);
  try {
    return jsonText("the schema", schema);
  } catch (error) {
    throw new SchemaError(error.message);
  }
}

/** Levels the JSON-value check looks into; the core refuses deeper schemas anyway. */
const JSON_CHECK_DEPTH = 160;

/**
 * What in `value` is not a JSON value, or undefined. JSON.stringify writes
 * a Promise, a Map or a class instance as `{}`, which as a schema accepts
 * everything: an un-awaited schema would silently pass every response.
 * Plain objects (of any realm) and arrays are JSON; so are strings, finite
 * numbers, booleans and null. Iterative, so a hostile depth cannot overflow.
 */
function notJsonValue(value) {
  const stack = [[value, 0, ""]];
  while (stack.length > 0) {
    const [node, depth, at] = stack.pop();
    const where = at === "" ? "" : ` at ${at}`;
    switch (typeof node) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(node)) return `the number ${node}${where}`;
        continue;
      case "object":
        break;
      default:
        return `${typeof node === "undefined" ? "undefined" : `a ${typeof node}`}${where}`;
    }
    if (node === null) continue;
    if (depth >= JSON_CHECK_DEPTH) continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        if (node[i] !== undefined) stack.push([node[i], depth + 1, `${at}/${i}`]);
      }
      continue;
    }
    const proto = Object.getPrototypeOf(node);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) {
      return `${describeInstance(node)}${where}`;
    }
    for (const key of Object.keys(node)) {
      const member = node[key];
      // JSON.stringify leaves undefined members out, as a schema without them.
      if (member !== undefined) stack.push([member, depth + 1, `${at}/${pointerToken(key)}`]);
    }
  }
  return undefined;
}

function pointerToken(key) {
  return key.length > 40 ? "(a member)" : key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function describeInstance(node) {
  if (typeof node.then === "function") return "a Promise (was the schema awaited?)";
  if (node instanceof Map) return "a Map";
  if (node instanceof Set) return "a Set";
  if (node instanceof Date) return "a Date";
  if (node instanceof RegExp) return "a RegExp";
  if (ArrayBuffer.isView(node) || node instanceof ArrayBuffer) return "binary data";
  const name = node.constructor?.name;
  return typeof name === "string" && /^[A-Za-z_$][\w$]{0,40}$/.test(name) ? `an instance of ${name}` : "a class instance";
}

export function detectTruncation(source) {
  const text = source === undefined ? "null" : readText("the source", source, "output");
  return callRawJson(() => raw.detectTruncation(text));
}

/** The core's read plans (src/providers/read.rs), the same for every instance. */
let plans;

function readPlans() {
  plans ??= JSON.parse(callRaw(() => raw.readPlans()));
  return plans;
}

/**
 * What `readPlans()[plan]` asks of `value`, copied by property access (see
 * js/read.mjs); with `texts`, the strings under text nodes go there. A
 * getter that throws, or a revoked Proxy, is a typed error.
 */
function readCopy(what, value, plan, texts) {
  const node = readPlans()[plan];
  try {
    return copyAlong(value, node, plans, texts);
  } catch (error) {
    throw argumentError(`${what} could not be read: ${serialisationProblem(error)}`);
  }
}

/** JSON text of what `plan` reads of a response, a usage object or a truncation source. */
export function readText(what, value, plan) {
  if (typeof value === "string") return jsonText(what, value);
  return jsonText(what, readCopy(what, value, plan));
}

export function rescueJson(text) {
  if (typeof text !== "string") throw argumentError(`rescueJson takes a string, not ${typeof text}`);
  return callRawJson(() => raw.rescueJson(text));
}

// Validator → its handle in the current instance (replaced after a trap).
let rawOf = new WeakMap();
// Every Validator carries the text it was compiled from under a registered
// symbol, so a copy of this package loaded another way (ESM beside CJS) can
// recompile it instead of mistaking it for a plain schema object.
const SOURCE = Symbol.for("structured-output-guard.validator-source");
const freed = new WeakSet();

function handleOf(validator) {
  const handle = rawOf.get(validator);
  if (!handle) throw argumentError("this Validator was freed");
  return handle;
}

/** A compiled schema. */
export class Validator {
  constructor() {
    throw argumentError("use compileSchema(schema, options) to make a Validator");
  }

  validate(instance, options) {
    const text = jsonText("the instance", instance);
    const opts = optionsText(options);
    return callRawJson(() => handleForAnyValidator(this).validate(text, opts));
  }

  isValid(instance) {
    const text = jsonText("the instance", instance);
    return callRaw(() => handleForAnyValidator(this).isValid(text));
  }

  /** Releases the wasm memory now instead of at garbage collection. */
  free() {
    const handle = rawOf.get(this);
    freed.add(this);
    if (handle) {
      rawOf.delete(this);
      handle.free();
    }
  }
}

// Validator methods answer hostile arguments with typed errors, as the
// package's functions do (see api.mjs).
for (const method of ["validate", "isValid"]) {
  Object.defineProperty(Validator.prototype, method, {
    value: withTypedErrors(`Validator.${method}`, Validator.prototype[method]),
    writable: true,
    configurable: true,
  });
}

// A Validator is a Standard Schema (https://standardschema.dev), so the
// frameworks that take one (the AI SDK's Output.object, the OpenAI Agents
// SDK's outputType) validate with it and send the model its JSON Schema.
const standards = new WeakMap();

Object.defineProperty(Validator.prototype, "~standard", {
  get() {
    let standard = standards.get(this);
    if (standard === undefined) {
      standard = standardOf(this);
      standards.set(this, standard);
    }
    return standard;
  },
  enumerable: false,
  configurable: true,
});

function standardOf(validator) {
  const source = validator[SOURCE];
  const jsonSchema = (options) => {
    let target;
    try {
      target = options?.target;
    } catch (error) {
      throw argumentError(`the JSON Schema options could not be read: ${serialisationProblem(error)}`);
    }
    if (typeof target !== "string") throw argumentError(`the JSON Schema target must be "draft-2020-12" or "draft-07", not ${typeof target}`);
    return callRawJson(() => raw.standardJsonSchema(source.text, target, source.opts));
  };
  return {
    version: 1,
    vendor: "structured-output-guard",
    validate: (value) => standardValidate(validator, value),
    jsonSchema: { input: jsonSchema, output: jsonSchema },
  };
}

/**
 * Standard Schema's validate: synchronous (the OpenAI Agents SDK refuses
 * asynchronous validators), issues capped as validate() caps them, each
 * path an array of keys with array indices as numbers. A value that is not
 * JSON is an issue, not an exception.
 */
function standardValidate(validator, value) {
  let result;
  try {
    result = validator.validate(value);
  } catch (error) {
    return { issues: [{ message: error.message, path: [] }] };
  }
  if (result.valid) return { value };
  return { issues: result.errors.map((issue) => ({ message: issue.message, path: pathOf(value, issue.path) })) };
}

/** A JSON Pointer into `value` as keys, an array's indices as numbers. */
function pathOf(value, pointer) {
  if (pointer === "") return [];
  const keys = [];
  let node = value;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) {
      keys.push(Number(key));
      node = node[Number(key)];
    } else {
      keys.push(key);
      node = node !== null && typeof node === "object" ? node[key] : undefined;
    }
  }
  return keys;
}

function wrapValidator(handle, source) {
  const validator = Object.create(Validator.prototype);
  Object.defineProperty(validator, "schemaHash", { value: handle.schemaHash, enumerable: true });
  Object.defineProperty(validator, SOURCE, { value: source });
  rawOf.set(validator, handle);
  return validator;
}

export function compileSchema(schema, options) {
  // A Validator is already compiled: as schema text it would be read as an
  // object of unknown keywords, which accepts everything.
  if (isValidator(schema)) {
    if (options === undefined) return schema;
    return compileSchema(schema[SOURCE].text, options);
  }
  const record = recordOf(schema);
  if (record?.problem !== undefined) throw new SchemaError(record.problem);
  const text = record === undefined ? schemaText(schema) : record.text;
  const opts = optionsText(options);
  const key = record === undefined ? undefined : compileKey(options);
  const failed = key === undefined ? undefined : record.byKey.get(key)?.error;
  if (failed !== undefined) throw new SchemaError(failed);
  // Its own handle, not the cache's: the caller may free() it.
  let handle;
  try {
    handle = callRaw(() => raw.compileSchema(text, opts));
  } catch (error) {
    if (key !== undefined && error instanceof SchemaError) rememberFailure(record, key, error.message);
    throw error;
  }
  return wrapValidator(handle, { text, opts });
}

/** This instance's handle for a Validator made by any copy of the package. */
function handleForAnyValidator(validator) {
  if (rawOf.has(validator) || freed.has(validator)) return handleOf(validator);
  if (validator === null || typeof validator !== "object" || !(SOURCE in validator)) {
    throw argumentError("this method needs a Validator from compileSchema()");
  }
  const { text, opts } = validator[SOURCE];
  const own = compileSchema(text, JSON.parse(opts));
  rawOf.set(validator, rawOf.get(own));
  return handleOf(validator);
}

function isValidator(schema) {
  if (schema === null || typeof schema !== "object") return false;
  try {
    return schema instanceof Validator || SOURCE in schema;
  } catch {
    // A Proxy that refuses to be inspected is not a Validator.
    return false;
  }
}

// Schemas found by identity. Serialising a schema object, and the core
// parsing, canonicalising and hashing the text to find its compiled form,
// cost more than checking a small response, and executors pass the same
// object (or the same text) on every call. So, as ajv does, a schema object
// is read once: its text and its compiled handles are kept by the object
// itself (a WeakMap, so they go when it goes), and JSON text by the text, in
// a map bounded like the core's cache. A schema that fails to compile is
// remembered too, so a hostile one is not compiled again on every call. The
// core's content cache still serves equal schemas held in different objects.
// The price is ajv's: a schema object must not be changed after its first use.

/** The options that change what a schema compiles to; `resources` is keyed by nothing (too large). */
const COMPILE_KEYS = ["formats", "draft", "rejectUnknownFields", "unknownFormats", "customFormats"];
const DEFAULT_CACHE_CAPACITY = 128;

/**
 * schema object → { text, problem?, strict?, byKey: compile key → entry, lastUse };
 * an entry is { handle?, hash, error?, lastUse }, with a handle or the
 * error its compilation gave, or neither once its handle was evicted.
 */
let schemaRecords = new WeakMap();
/** The same records for JSON text, by the text; at most the cache capacity of them. */
let textRecords = new Map();
/** Entries holding a handle: at most the cache capacity, so wasm memory stays bounded. */
let liveEntries = new Set();
/** A clock for least-recently-used eviction. */
let uses = 0;

const capacityNow = () => cacheCapacity ?? DEFAULT_CACHE_CAPACITY;

/** The record for a schema already seen, if any (map look-ups only: a Proxy is not touched). */
function knownSchema(schema) {
  if (typeof schema === "string") return textRecords.get(schema);
  if (schema !== null && typeof schema === "object") return schemaRecords.get(schema);
  return undefined;
}

/**
 * The record for a schema object (not a Validator) or JSON text, made on
 * first use; undefined for anything else (a boolean schema is its own
 * short text).
 */
function recordOf(schema) {
  const known = knownSchema(schema);
  if (known !== undefined) return known;
  if (typeof schema === "string") {
    const record = { text: schema, problem: undefined, byKey: new Map(), lastUse: ++uses };
    textRecords.set(schema, record);
    if (textRecords.size > capacityNow()) evictText(record);
    return record;
  }
  if (schema === null || typeof schema !== "object") return undefined;
  let text;
  let problem;
  try {
    text = schemaText(schema);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    problem = error.message;
  }
  const record = { text, problem, byKey: new Map(), lastUse: ++uses };
  schemaRecords.set(schema, record);
  return record;
}

/**
 * The compile key of the options: "" for none, undefined when the schema
 * cannot be keyed (`resources`, or a value JSON cannot hold faithfully).
 */
function compileKey(options) {
  if (options === undefined || options === null) return "";
  try {
    if (options.resources !== undefined && options.resources !== null) return undefined;
    let picked;
    for (const key of COMPILE_KEYS) {
      const value = options[key];
      if (value === undefined) continue;
      if (typeof value === "number" && !Number.isFinite(value)) return undefined;
      (picked ??= {})[key] = value;
    }
    return picked === undefined ? "" : JSON.stringify(picked);
  } catch {
    return undefined;
  }
}

/**
 * The record's entry for these compile options, compiled on first use.
 * Undefined when the core refuses the options: that is the caller's
 * mistake, reported by the text path, and not the schema's to remember.
 */
function entryFor(record, key) {
  let entry = record.byKey.get(key);
  if (entry === undefined) {
    entry = { handle: undefined, hash: null, error: undefined, lastUse: 0 };
    record.byKey.set(key, entry);
  }
  entry.lastUse = record.lastUse = ++uses;
  if (entry.handle !== undefined || entry.error !== undefined) return entry;
  let handle;
  try {
    handle = callRaw(() => raw.compileSchema(record.text, key === "" ? "null" : key));
  } catch (error) {
    if (error instanceof SchemaError) {
      entry.error = error.message;
      return entry;
    }
    record.byKey.delete(key);
    if (error?.code === "invalid_argument") return undefined;
    throw error;
  }
  entry.handle = handle;
  entry.hash = handle.schemaHash;
  liveEntries.add(entry);
  if (liveEntries.size > capacityNow()) evictHandle(entry);
  return entry;
}

function rememberFailure(record, key, message) {
  if (!record.byKey.has(key)) record.byKey.set(key, { handle: undefined, hash: null, error: message, lastUse: ++uses });
}

function leastUsed(items, spare) {
  let oldest;
  for (const item of items) {
    if (item !== spare && (oldest === undefined || item.lastUse < oldest.lastUse)) oldest = item;
  }
  return oldest;
}

function releaseHandle(entry) {
  liveEntries.delete(entry);
  const { handle } = entry;
  entry.handle = undefined;
  // Owned by the cache alone (compileSchema hands out handles of its own).
  handle?.free();
}

/** Frees least-used handles down to the capacity; their records keep the text to compile again from. */
function evictHandle(spare) {
  while (liveEntries.size > capacityNow()) releaseHandle(leastUsed(liveEntries, spare));
}

function evictText(spare) {
  while (textRecords.size > capacityNow()) {
    const record = leastUsed(textRecords.values(), spare);
    textRecords.delete(record.text);
    for (const entry of record.byKey.values()) if (entry.handle !== undefined) releaseHandle(entry);
  }
}

/** Drops every record (after a trap the handles belong to the dead instance, and are not freed). */
function forgetSchemas() {
  schemaRecords = new WeakMap();
  textRecords = new Map();
  liveEntries = new Set();
}

/** The text of a schema object or JSON text, read once; SchemaError when it is not JSON. */
function textOfSchema(schema) {
  if (typeof schema === "string") return schema;
  const record = recordOf(schema);
  if (record === undefined) return schemaText(schema);
  if (record.problem !== undefined) throw new SchemaError(record.problem);
  return record.text;
}

function outputArgument(output) {
  if (typeof output === "string") return { text: wellFormed(output), isText: true };
  if (output === undefined || output === null) return { text: "", isText: true };
  if (typeof output !== "object") {
    throw argumentError(`output must be a string or an object, not ${typeof output}`);
  }
  return { text: readText("the output", output, "output"), isText: false };
}

/**
 * The check behind checkOutput and guardedCall: the verdict in API shape, and
 * `parse()` for the value of a failed verdict past the parse stage, which the
 * lenient path returns.
 */
export function checkDetailed(output, schema, options) {
  if (typeof output === "string") output = wellFormed(output);
  const lane = laneCheck(output, schema, options);
  if (lane !== undefined) return lane;
  const { text, isText } = outputArgument(output);
  const opts = optionsText(options);
  let result;
  if (schema === undefined || schema === null) {
    result = callRawJson(() => raw.checkOutput(text, isText, undefined, opts));
  } else if (rawOf.has(schema) || (!knownSchema(schema) && isValidator(schema))) {
    const handle = handleForAnyValidator(schema);
    result = callRawJson(() => raw.checkOutputWith(text, isText, handle, opts));
  } else {
    result = checkAgainst(text, isText, schema, options, opts);
  }
  return detailedFrom(result, text);
}

/** The check against a schema object, wrapper or text, compiled once per options. */
function checkAgainst(text, isText, schema, options, opts) {
  const record = recordOf(schema);
  if (record === undefined) {
    const schemaJson = readableSchemaText(schema, options);
    return callRawJson(() => raw.checkOutput(text, isText, schemaJson, opts));
  }
  if (record.problem !== undefined) {
    if (options?.onInvalidSchema === "throw") throw new SchemaError(record.problem);
    return checkWithoutSchema(text, isText, opts);
  }
  const key = compileKey(options);
  const entry = key === undefined ? undefined : entryFor(record, key);
  // `resources` (too large to key by), or options the core refuses: the
  // text path, which says why.
  if (entry === undefined) return callRawJson(() => raw.checkOutput(text, isText, record.text, opts));
  if (entry.handle !== undefined) return callRawJson(() => raw.checkOutputWith(text, isText, entry.handle, opts));
  try {
    return checkWithoutSchema(text, isText, opts);
  } catch (error) {
    // Asked to throw, the core throws about the schema it was not given;
    // the error is the one this schema's compilation gave.
    if (error instanceof SchemaError && options?.onInvalidSchema === "throw") throw new SchemaError(entry.error);
    throw error;
  }
}

/**
 * The core's check with a schema it cannot read: the options are checked
 * and the verdict degrades exactly as for a schema that fails to compile,
 * without handing the core the schema to fail on again.
 */
function checkWithoutSchema(text, isText, opts) {
  return callRawJson(() => raw.checkOutput(text, isText, "", opts));
}

/**
 * A core result as { verdict, parse }. The JSON text is a slice of the
 * caller's string (or, for a response object, handed back); it is parsed
 * only when a value is returned.
 */
function detailedFrom(result, text) {
  // No textEnd: the JSON runs to the end of the text.
  const jsonText =
    result.textStart !== undefined ? text.slice(result.textStart, result.textEnd) : result.text;
  const parse = () => (jsonText === undefined ? undefined : JSON.parse(jsonText));
  const verdict = shapeVerdict(result, result.ok ? parse() : undefined);
  return { verdict, parse };
}

/**
 * What the lane needs of the options ({ maxErrors, compiled: whether
 * compile options are given }), or undefined when they need the general
 * path (which also gives the typed error for options that cannot be read).
 */
function laneOptions(options) {
  if (options === undefined || options === null) return { maxErrors: DEFAULTS.maxErrors, compiled: false };
  if (typeof options !== "object" || Array.isArray(options)) return undefined;
  let maxErrors = DEFAULTS.maxErrors;
  let compiled = false;
  try {
    for (const key of Object.keys(options)) {
      const value = options[key];
      // JSON.stringify leaves undefined members out, so the core never sees them.
      if (value === undefined) continue;
      if (key === "maxErrors") {
        if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) return undefined;
        maxErrors = value;
      } else if (key === "onInvalidSchema") {
        // Once compiled, the schema cannot fail to compile; only a value the core would refuse matters.
        if (value !== "degrade" && value !== "throw") return undefined;
      } else if (COMPILE_KEYS.includes(key)) {
        compiled = true;
      } else {
        return undefined;
      }
    }
  } catch {
    return undefined;
  }
  return { maxErrors, compiled };
}

/**
 * The hot path (a string output, a schema already compiled, no options but
 * maxErrors, onInvalidSchema and, for a schema compiled here with them, the
 * compile options) asks the core for a status only; an accepted verdict is
 * built here from what the facade already holds. Anything else returns
 * undefined and takes the general path.
 */
function laneCheck(output, schema, options) {
  const isText = typeof output === "string";
  if (!isText && (output === null || typeof output !== "object")) return undefined;
  const lane = laneOptions(options);
  if (lane === undefined) return undefined;
  const { maxErrors, compiled } = lane;
  let handle = rawOf.get(schema);
  let schemaHash;
  if (handle !== undefined) {
    // A Validator's compile options were fixed when it was compiled; the
    // general path still checks the ones given here.
    if (compiled) return undefined;
    schemaHash = schema.schemaHash;
  } else {
    const record = knownSchema(schema);
    const entry = record?.byKey.get(compiled ? compileKey(options) : "");
    if (entry?.handle === undefined) return undefined;
    entry.lastUse = record.lastUse = ++uses;
    handle = entry.handle;
    schemaHash = entry.hash;
  }
  if (!isText) return readLane(output, handle, maxErrors, schemaHash);
  const status = callRaw(() => laneStatus(output, handle, maxErrors));
  if (status === 3) return undefined;
  return laneResult(status, output, schemaHash, null);
}

/**
 * The lane's answer for a status code (the low three bits of a status) and
 * the text the core checked: 2 the verdict the core wrote; 4 accepted, the
 * JSON is the whole text; 0 and 1 accepted, the JSON is the slice the core
 * names (1 inside a code fence). An accepted verdict is built here from
 * what the facade already holds.
 */
function laneResult(code, text, schemaHash, finishReason) {
  if (code === 2) return detailedFrom(JSON.parse(raw.laneTakeVerdict()), text);
  const jsonText = code === 4 ? text : text.slice(raw.laneStart(), raw.laneEnd());
  const value = JSON.parse(jsonText);
  const verdict = {
    ok: true,
    value,
    rescue: code === 1 ? "code_fence" : "none",
    schemaHash,
    degraded: false,
    finishReason,
  };
  return { verdict, parse: () => value };
}

/**
 * The lane for a response object: what the output plan reads of it goes to
 * the core in one call (see `checkReadLane` in src/wasm.rs), the answer
 * text encoded once into wasm memory and checked there. A status above 3
 * carries flags: 8 when the response gave a finish reason (its length from
 * bit 16), and from bit 4 the index of the text the answer is.
 */
function readLane(output, handle, maxErrors, schemaHash) {
  const texts = [];
  const copy = readCopy("the output", output, "output", texts);
  const status = callRaw(() => readLaneStatus(texts, copy, handle, maxErrors));
  const code = status & 7;
  if (code === 3) return undefined;
  const text = texts[(status >>> 4) & 0xfff];
  // The finish reason's bytes are at the start of the input buffer. The
  // check may have grown the memory, which detaches the view the texts were
  // encoded through: it is taken again over the memory as it is now.
  const reasonBytes = status >>> 16;
  const finishReason = (status & 8) !== 0 ? decoder.decode(inputOf(reasonBytes).subarray(0, reasonBytes)) : null;
  return laneResult(code, text, schemaHash, finishReason);
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
 * Encodes the texts and then the copy as `[[byte length of each text],
 * copy]` (see `encodeTexts`), and runs the lane over them.
 */
function readLaneStatus(texts, copy, handle, maxErrors) {
  const encoded = encodeTexts(texts, 0, (lengths) => {
    try {
      return JSON.stringify([lengths, copy]);
    } catch {
      return undefined;
    }
  });
  // A copy JSON cannot carry goes the general way, which says why.
  if (encoded === undefined) return 3;
  return raw.checkReadLane(encoded.start, encoded.length, handle, maxErrors);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Encodes the response straight into wasm memory with the native encoder
 * (most responses are nearly all ASCII, so a buffer of about the string's
 * length usually suffices; otherwise it is encoded again into one of the
 * largest size UTF-8 can need) and runs the lane over it.
 */
function laneStatus(text, handle, maxErrors) {
  let { read, written } = encodeInput(text, text.length + (text.length >> 3) + 16);
  if (read < text.length) ({ written } = encodeInput(text, text.length * 3));
  return raw.checkInputLane(written, handle, maxErrors);
}

/**
 * The view of the core's input buffer the last response was encoded into.
 * The buffer only moves when inputBuffer grows it, so the view is reused
 * while it is large enough and still over the current memory (a grown
 * memory, or a replaced instance, has a new ArrayBuffer).
 */
let inputView = null;

function encodeInput(text, capacity) {
  return encoder.encodeInto(text, inputOf(capacity));
}

function inputOf(capacity) {
  if (inputView === null || inputView.byteLength < capacity || inputView.buffer !== memory.buffer) {
    // inputBuffer may grow the memory, which detaches the old buffer: take
    // memory.buffer only after it returns.
    const pointer = raw.inputBuffer(capacity);
    inputView = new Uint8Array(memory.buffer, pointer, capacity);
  }
  return inputView;
}

// ---- streamed responses (src/stream.rs) ----

const PENDING = Object.freeze({ status: "pending" });

/** The rejected state from the core's JSON text, frozen: push returns it again and again. */
function rejectedState(json) {
  const state = JSON.parse(json);
  for (const issue of state.errors) Object.freeze(issue);
  Object.freeze(state.errors);
  return Object.freeze(state);
}

/**
 * A raw stream check for `schema` and `options`, the schema found as
 * checkOutput finds it (so a stream and checkOutput share compiled
 * validators, and degrade or throw alike for a schema that cannot compile).
 */
function openStream(schema, options, opts) {
  if (schema === undefined || schema === null) return raw.streamOpen(undefined, opts);
  if (rawOf.has(schema) || (!knownSchema(schema) && isValidator(schema))) {
    return raw.streamOpenWith(handleForAnyValidator(schema), opts);
  }
  const record = recordOf(schema);
  if (record === undefined) return raw.streamOpen(readableSchemaText(schema, options), opts);
  if (record.problem !== undefined) {
    if (options?.onInvalidSchema === "throw") throw new SchemaError(record.problem);
    return raw.streamOpen("", opts);
  }
  const key = compileKey(options);
  const entry = key === undefined ? undefined : entryFor(record, key);
  if (entry === undefined) return raw.streamOpen(record.text, opts);
  if (entry.handle !== undefined) return raw.streamOpenWith(entry.handle, opts);
  try {
    return raw.streamOpen("", opts);
  } catch (error) {
    if (error?.code === "invalid_schema") throw new SchemaError(entry.error);
    throw error;
  }
}

/**
 * Pieces are gathered before they cross into the core: a crossing costs
 * about as much as reading 64 bytes, and model streams send a few
 * characters at a time. The batch is this many bytes, and grows with the
 * text to a sixteenth of what was pushed, up to 16 times this: a
 * rejection comes at most that many bytes late, a small share of what the
 * stream already cost, while a long response crosses a few hundred times
 * instead of once every 64 bytes.
 */
let STREAM_BATCH = 64;

/**
 * Pieces of at most this many characters are gathered in the facade (see
 * StreamCheck); a longer one is encoded with `encodeInto`, which costs more
 * to call and less per character than copying them one by one.
 */
const GATHER_PIECE = 16;
/** The most a batch holds is 16 * STREAM_BATCH bytes (see batchAfter) and one piece more. */
const GATHER_BYTES = 2048;

/** The batch for a check that has been pushed `bytes` so far. */
function batchAfter(bytes) {
  return Math.min(16 * STREAM_BATCH, Math.max(STREAM_BATCH, bytes / 16));
}

/** For tests: the batch size (0 hands every piece over at once); returns the previous one. */
export function setStreamBatch(bytes) {
  const previous = STREAM_BATCH;
  STREAM_BATCH = bytes;
  return previous;
}

/**
 * A response checked as it streams in (see createStreamCheck). Pieces are
 * encoded into the check's own staging buffer in wasm memory and handed
 * over once a batch (see `batchAfter`) is waiting (at once for a longer
 * piece); the core keeps the text, and `end` reads the accepted JSON back
 * from it. Short ASCII pieces are first gathered in a buffer of the
 * facade's, and moved into the staging buffer as the batch crosses: a
 * view of wasm memory must be checked on every write (the memory may have
 * grown, detaching it, in any call), and that check costs more than the
 * write of a character.
 */
class StreamCheck {
  #handle;
  /** The instance the handle belongs to (see `trapCount`). */
  #generation;
  /** The view of the staging buffer, and the bytes waiting in it. */
  #view = null;
  #staged = 0;
  /** Bytes waiting after those, gathered here (see the class). */
  #gathered = new Uint8Array(GATHER_BYTES);
  #pending = 0;
  /**
   * Bytes the gathered ones may come to: none while a surrogate is held or
   * once the check has ended, which take the long way (so the short one
   * tests only this).
   */
  #room = GATHER_BYTES;
  /** A high surrogate that ended the last piece, waiting for its other half. */
  #held = "";
  #bytes = 0;
  /** Bytes waiting (staged and pending) that make a batch, as of the last crossing. */
  #due = batchAfter(0);
  #state = PENDING;
  #ended = false;

  constructor(open) {
    this.#handle = callRaw(open);
    this.#generation = traps;
  }

  /** UTF-8 bytes pushed so far. */
  get bytes() {
    return this.#bytes;
  }

  push(chunk) {
    if (typeof chunk !== "string") throw argumentError(`push takes a string, not ${argumentKind(chunk)}`);
    // The common piece, a few ASCII characters: gathered here, as pushes of
    // a character or two come by the hundred thousand. Unless the instance
    // trapped since the check began, it is the check's and it is loaded.
    const n = chunk.length;
    const at = this.#pending;
    if (n <= GATHER_PIECE && n > 0 && at + n <= this.#room && this.#generation === traps) {
      const gathered = this.#gathered;
      let i = 0;
      while (i < n) {
        const unit = chunk.charCodeAt(i);
        if (unit >= 0x80) break;
        gathered[at + i] = unit;
        i++;
      }
      if (i === n) {
        this.#pending = at + n;
        this.#bytes += n;
        if (this.#staged + at + n >= this.#due) this.#forward();
        return this.#state;
      }
    }
    if (this.#ended) throw argumentError("push after end(): this stream check has ended");
    if (this.#generation !== traps) this.#live();
    if (this.#held !== "") {
      chunk = this.#held + chunk;
      this.#held = "";
      this.#room = GATHER_BYTES;
    }
    // A character outside the BMP cut in two: its halves go to the core
    // together, as UTF-8 can only carry it whole.
    const last = chunk.charCodeAt(chunk.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#held = chunk.slice(-1);
      this.#room = 0;
      chunk = chunk.slice(0, -1);
    }
    if (chunk.length > 0) {
      this.#stage(chunk);
      if (this.#staged >= this.#due) this.#forward();
    }
    return this.#state;
  }

  end(finishReason) {
    if (finishReason !== undefined && finishReason !== null && typeof finishReason !== "string") {
      throw argumentError(`end takes a finish reason string, null or nothing, not ${argumentKind(finishReason)}`);
    }
    if (this.#ended) throw argumentError("end() was already called on this stream check");
    this.#live();
    if (this.#held !== "") {
      this.#stage(this.#held);
      this.#held = "";
    }
    if (this.#staged + this.#pending > 0) this.#forward();
    let result;
    let json;
    try {
      result = JSON.parse(this.#handle.end(finishReason ?? undefined));
      if (result.ok) json = this.#handle.json();
    } catch (error) {
      throw translate(error);
    }
    this.#ended = true;
    this.#room = 0;
    this.#handle.free();
    this.#handle = undefined;
    this.#view = null;
    return shapeVerdict(result, result.ok ? JSON.parse(json) : undefined);
  }

  /** The stream's text lives in the instance it began in; after a trap that instance is gone. */
  #live() {
    ensureLoaded();
    if (this.#generation !== traps) {
      const error = new Error("this stream check was lost when structured-output-guard was re-instantiated after an internal failure; start a new one");
      error.code = "internal";
      throw error;
    }
  }

  /** Moves the gathered bytes into the staging buffer, after those staged. */
  #flush() {
    const pending = this.#pending;
    if (pending === 0) return;
    const at = this.#staged;
    this.#viewFor(at + pending).set(this.#gathered.subarray(0, pending), at);
    this.#staged = at + pending;
    this.#pending = 0;
  }

  /** Encodes a piece after the bytes already waiting. */
  #stage(chunk) {
    this.#flush();
    const n = chunk.length;
    const at = this.#staged;
    const view = this.#viewFor(at + n * 3);
    let written = n;
    if (n <= 16) {
      for (let i = 0; i < n; i++) {
        const unit = chunk.charCodeAt(i);
        if (unit >= 0x80) {
          written = encoder.encodeInto(chunk, at === 0 ? view : view.subarray(at)).written;
          break;
        }
        view[at + i] = unit;
      }
    } else {
      written = encoder.encodeInto(chunk, at === 0 ? view : view.subarray(at)).written;
    }
    this.#staged = at + written;
    this.#bytes += written;
  }

  /**
   * The view of at least `capacity` staging bytes. The buffer moves only
   * when `staging` grows it, and the view must be remade when it is too
   * small or the memory grew (which detaches the old ArrayBuffer, and a
   * view of a detached buffer has length 0: cheaper to ask than
   * `memory.buffer`).
   */
  #viewFor(capacity) {
    const view = this.#view;
    if (view !== null && view.byteLength >= capacity) return view;
    const size = Math.max(capacity, GATHER_BYTES, view === null ? 0 : 2 * view.byteLength);
    try {
      const pointer = this.#handle.staging(size);
      this.#view = new Uint8Array(memory.buffer, pointer, size);
    } catch (error) {
      throw translate(error);
    }
    return this.#view;
  }

  /** One crossing: the waiting bytes are checked. */
  #forward() {
    try {
      this.#flush();
      if (this.#handle.push(this.#staged) === 1 && this.#state === PENDING) {
        this.#state = rejectedState(this.#handle.rejection());
      }
    } catch (error) {
      throw translate(error);
    } finally {
      this.#staged = 0;
      this.#pending = 0;
      this.#due = batchAfter(this.#bytes);
    }
  }
}

/**
 * A check of a response that streams in: `push` each piece as it arrives
 * (the state says as soon as the response can no longer be accepted),
 * `end` for the verdict, exactly checkOutput's on the whole text.
 */
export function createStreamCheck(schema, options) {
  const opts = optionsText(options);
  return new StreamCheck(() => openStream(schema, options, opts));
}


function shapeVerdict(r, parsed) {
  if (r.ok) {
    return { ok: true, value: parsed, rescue: r.rescue, schemaHash: r.schemaHash, degraded: r.degraded, finishReason: r.finishReason };
  }
  return {
    ok: false,
    failure: r.failure,
    message: r.message,
    errors: r.errors,
    moreErrors: r.moreErrors,
    errorHash: r.errorHash,
    schemaHash: r.schemaHash,
    degraded: r.degraded,
    rescue: r.rescue,
    finishReason: r.finishReason,
  };
}

/**
 * Schema text for checkOutput. A schema that cannot even be serialised is
 * uncompilable like any other: it degrades unless the caller asked to throw
 * (an empty text reaches the core as unreadable).
 */
function readableSchemaText(schema, options) {
  try {
    return schemaText(schema);
  } catch (error) {
    if (options?.onInvalidSchema === "throw") throw error;
    return "";
  }
}

export function checkOutput(output, schema, options) {
  return checkDetailed(output, schema, options).verdict;
}

export function normalizeUsage(usageOrResponse) {
  const text = usageOrResponse === undefined ? "null" : readText("the usage", usageOrResponse, "usage");
  return callRawJson(() => raw.normalizeUsage(text));
}

export function mergeUsage(...usages) {
  // Each usage, or response carrying one, is read along the usage plan: a
  // response's content, request and headers never reach the merge.
  const read = usages.map((u) => (u === undefined ? null : u !== null && typeof u === "object" ? readCopy("the usages", u, "usage") : u));
  const text = jsonText("the usages", read);
  return callRawJson(() => raw.mergeUsage(text));
}

/** Drops every cached compiled validator. */
export function clearSchemaCache() {
  callRaw(() => raw.clearSchemaCache());
  for (const entry of liveEntries) releaseHandle(entry);
  forgetSchemas();
}

/** Sets how many compiled validators the cache keeps (default 128). */
export function setSchemaCacheCapacity(capacity) {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw argumentError("the cache capacity must be a whole number from 1 up");
  }
  callRaw(() => raw.setSchemaCacheCapacity(capacity));
  cacheCapacity = capacity;
  evictHandle(undefined);
  evictText(undefined);
}

/** How many compiled validators are cached now. */
export function schemaCacheSize() {
  return callRaw(() => raw.schemaCacheSize());
}

/** The response-format wrapper's `strict` flag, if the schema is a wrapper. */
export function wrapperStrict(schema) {
  if (rawOf.has(schema) || (!knownSchema(schema) && isValidator(schema))) return undefined;
  const record = recordOf(schema);
  // Not a schema at all: the check that follows says why.
  if (record === undefined || record.problem !== undefined) return undefined;
  if (!("strict" in record)) record.strict = callRaw(() => raw.wrapperStrict(record.text));
  return record.strict;
}

export { isValidator, readCopy };

/** Where requests declare tools, as the core lists them (src/providers/tools.rs). */
let toolPaths;

/**
 * What a request holds at one tool path, as the core's codes: 0 nothing,
 * 1 tools, 2 could not be read, 3 a nested request's text (pushed to
 * `texts`). Read by property access, so getters and class instances count.
 */
function readToolLeaf(request, { path, leaf }, texts, index) {
  let node = request;
  for (const key of path) {
    if (node === null || (typeof node !== "object" && typeof node !== "function")) return 0;
    node = node instanceof Map ? node.get(key) : node[key];
  }
  if (node === undefined || node === null || node === false) return 0;
  if (leaf === "presence") return 1;
  if (leaf === "request_text") {
    let text;
    if (typeof node === "string") text = node;
    else if (ArrayBuffer.isView(node) || node instanceof ArrayBuffer) text = decoder.decode(node);
    else return 2;
    texts[index] = text;
    return 3;
  }
  if (Array.isArray(node)) return node.length > 0 ? 1 : 0;
  if (node instanceof Map || node instanceof Set) return node.size > 0 ? 1 : 0;
  if (typeof node === "object" && !ArrayBuffer.isView(node)) return Object.keys(node).length > 0 ? 1 : 0;
  // A present value of any other kind: the core counts it as tools.
  return 2;
}

/**
 * What a request holds at each of the core's tool paths, as a session's setup
 * takes it: the codes, and the texts of nested requests (or undefined).
 */
function readToolPaths(request) {
  toolPaths ??= requestPlan().tools;
  const found = new Array(toolPaths.length);
  const texts = [];
  for (let i = 0; i < toolPaths.length; i++) {
    try {
      found[i] = readToolLeaf(request, toolPaths[i], texts, i);
    } catch {
      // A getter or a Proxy that throws: what it hides may be tools.
      found[i] = 2;
    }
  }
  return { found, texts: texts.length > 0 ? Array.from(texts, (t) => t ?? null) : null };
}

/** What the core reads of a request: its tool paths and the members its provider guess reads. */
let plan;

function requestPlan() {
  plan ??= callRawJson(() => raw.requestPlan());
  return plan;
}

/** Each member's kind as the core's codes: 0 missing, 1 null, 2 string, 3 array, 4 anything else. */
function kindOf(value) {
  if (value === undefined) return 0;
  if (value === null) return 1;
  if (typeof value === "string") return 2;
  return Array.isArray(value) ? 3 : 4;
}

/**
 * What the core's provider guess needs of a request. A request whose
 * members cannot be read (a revoked Proxy) is a typed error: the guess
 * cannot be made, and the caller gave no appender.
 */
function readRequestShape(request) {
  const shapeMembers = requestPlan().shape;
  const shape = [];
  let text = null;
  for (const name of shapeMembers.members) {
    let value;
    try {
      value = request !== null && typeof request === "object" ? request[name] : undefined;
    } catch (error) {
      throw argumentError(`the request could not be read to find its shape: ${serialisationProblem(error)}`);
    }
    shape.push(kindOf(value));
    if (name === shapeMembers.text && typeof value === "string") text = value;
  }
  return { shape, text };
}

/** Where a session's schema comes from: a compiled handle of this instance, or text to compile. */
function sessionSchema(schema, options, throwing) {
  if (rawOf.has(schema) || (!knownSchema(schema) && isValidator(schema))) {
    return { handle: handleForAnyValidator(schema), source: schema[SOURCE].text, strict: undefined };
  }
  const record = recordOf(schema);
  if (record === undefined) {
    const text = readableSchemaText(schema, throwing ? { onInvalidSchema: "throw" } : undefined);
    return { text, source: text, strict: undefined };
  }
  if (record.problem !== undefined) {
    if (throwing) throw new SchemaError(record.problem);
    return { text: "", source: undefined, strict: undefined };
  }
  const strict = wrapperStrict(schema);
  const key = compileKey(options);
  const entry = key === undefined ? undefined : entryFor(record, key);
  // `resources` (too large to key by), or options the core refuses: the
  // core compiles the text, and says why.
  if (entry === undefined) return { text: record.text, source: record.text, strict };
  if (entry.handle !== undefined) return { handle: entry.handle, source: record.text, strict };
  if (throwing) throw new SchemaError(entry.error);
  return { text: "", source: record.text, strict };
}

/**
 * A guarded call's session in the core (src/session.rs): made from the
 * request and the options, stepped once per attempt, freed when the call
 * ends. `setup`: { checkOptions, strict, hasTools, retry, budgetsText,
 * appendFeedback: boolean }. A session lives in one instance: after a trap
 * replaced it, every method throws a typed error instead of reaching the
 * new instance with a handle of the old.
 */
export function openSession(request, schema, setup) {
  const { checkOptions } = setup;
  const checkText = optionsText(checkOptions);
  const from = sessionSchema(schema, checkOptions, checkOptions.onInvalidSchema !== "degrade");
  const tools = readToolPaths(request);
  const repairing = setup.retry === "repair";
  // Only a repair without the caller's appender needs the provider guess.
  const { shape, text } = repairing && !setup.appendFeedback ? readRequestShape(request) : { shape: [], text: null };
  const optionsJson =
    `{"check":${checkText},"strict":${setup.strict ?? null},"hasTools":${setup.hasTools ?? null},` +
    `"retry":${JSON.stringify(setup.retry ?? null)},"budgets":${setup.budgetsText}}`;
  const setupText =
    `{"check":${checkText},"strict":${setup.strict ?? null},"hasTools":${setup.hasTools ?? null},` +
    `"retry":${JSON.stringify(setup.retry ?? null)},"budgets":${setup.budgetsText},` +
    `"tools":${JSON.stringify(tools.found)},"toolTexts":${JSON.stringify(tools.texts)},` +
    `"shape":${JSON.stringify(shape)},"model":${JSON.stringify(text)},"wrapperStrict":${from.strict ?? null},` +
    `"appendFeedback":${setup.appendFeedback},"feedbackSchema":${repairing && from.source !== undefined ? JSON.stringify(from.source) : null}}`;
  const handle = callRaw(() => {
    const made = new raw.RawSession(setupText, from.handle === undefined ? from.text : undefined);
    if (from.handle !== undefined) made.useValidator(from.handle);
    return made;
  });
  openSessions.add(handle);
  const born = instanceNumber;
  const live = () => {
    if (born !== instanceNumber) {
      const error = new Error(
        "structured-output-guard was re-instantiated after an internal failure during this guarded call; the call's record of attempts went with the old instance, so the call stops here",
      );
      error.code = "internal";
      throw error;
    }
    return handle;
  };
  return {
    /**
     * What `step` hands the core of one response (`output`: the content
     * string, or an object read along the output plan): a typed error for
     * one that cannot be read, before anything is recorded.
     */
    read(output) {
      const texts = [];
      let copyText;
      if (typeof output === "string" || output === undefined || output === null) {
        texts.push(typeof output === "string" ? wellFormed(output) : "");
        copyText = TEXT_REFERENCE_0;
      } else if (typeof output === "object") {
        copyText = jsonText("the output", readCopy("the output", output, "output", texts));
      } else {
        throw argumentError(`output must be a string or an object, not ${typeof output}`);
      }
      return { texts, copyText };
    },
    /**
     * Checks a response `read` read, with its usage (JSON text; recorded
     * first, so it counts even when the check throws), and decides. The
     * result: { verdict (API shape), action, stoppedBy, usage, message?,
     * warning?, feedback? (with appender?, the built-in appender's name),
     * lenientValue (the lenient path's value, or null), summary? ({ usage,
     * attempts, audit }, with a final decision) }.
     */
    step({ texts, copyText }, usageText, aborted, deadlinePassed) {
      const session = live();
      const r = JSON.parse(
        callRaw(() => {
          const { start, length } = encodeStep(texts, `${copyText},${usageText}`);
          return session.step(start, length, aborted, deadlinePassed, false);
        }),
      );
      const json = r.at !== undefined ? texts[r.at].slice(r.textStart, r.textEnd) : r.verdict.text;
      const value = r.verdict.ok || r.lenientValue === true ? JSON.parse(json) : undefined;
      r.verdict = shapeVerdict(r.verdict, value);
      r.lenientValue = r.lenientValue === true ? value : null;
      return r;
    },
    /** A stream check (see createStreamCheck) with the session's schema and options. */
    streamCheck() {
      return new StreamCheck(() => live().openStream());
    },
    /** Whether a stream is stopped at its first definite rejection (not on the lenient path). */
    stopsStreamsEarly() {
      return callRaw(() => live().stopsStreamsEarly());
    },
    /**
     * Steps the session with a streamed attempt: `state` is the stream
     * check's rejected state, or the verdict its `end` gave (whose `value`
     * the result's verdict takes); `reportsText` the JSON list of the usage
     * reports its events carried; `facts` { bytes, stoppedEarly,
     * usageReported }. The result as `step` gives it.
     */
    stepStream(state, reportsText, facts, aborted, deadlinePassed) {
      const session = live();
      const { value, ...rest } = state;
      const stateText = jsonText("the stream's verdict", rest);
      const r = JSON.parse(
        callRaw(() =>
          session.stepStream(stateText, reportsText, facts.bytes, facts.stoppedEarly, facts.usageReported, aborted, deadlinePassed),
        ),
      );
      r.verdict = shapeVerdict(r.verdict, r.verdict.ok ? value : undefined);
      r.lenientValue = null;
      return r;
    },
    /**
     * Steps the session with a streamed attempt's whole text (the lenient
     * path, whose value is the JSON object found even when the check
     * fails), its finish reason, usage reports and facts, as `stepStream`.
     */
    stepStreamText(text, finishReason, reportsText, facts, aborted, deadlinePassed) {
      const session = live();
      const texts = [wellFormed(text)];
      const copyText = `{"content":${TEXT_REFERENCE_0},"finishReason":${JSON.stringify(finishReason ?? null)}}`;
      const r = JSON.parse(
        callRaw(() => {
          const { start, length } = encodeStep(texts, `${copyText},${reportsText}`);
          return session.stepStreamText(start, length, facts.bytes, facts.stoppedEarly, facts.usageReported, aborted, deadlinePassed);
        }),
      );
      const json = r.at !== undefined ? texts[r.at].slice(r.textStart, r.textEnd) : r.verdict.text;
      const value = r.verdict.ok || r.lenientValue === true ? JSON.parse(json) : undefined;
      r.verdict = shapeVerdict(r.verdict, value);
      r.lenientValue = r.lenientValue === true ? value : null;
      return r;
    },
    /** Counts a streamed attempt that has no verdict (it threw, or was aborted), with its usage reports. */
    recordStream(reportsText, facts) {
      const session = live();
      callRaw(() => session.stepStream(undefined, reportsText, facts.bytes, facts.stoppedEarly, facts.usageReported, false, false));
    },
    /** Counts the usage (JSON text) of an attempt whose response will not be checked. */
    recordUnchecked(usageText) {
      const session = live();
      callRaw(() => {
        const { start, length } = encodeStep([], `null,${usageText}`);
        session.step(start, length, false, false, true);
      });
    },
    /**
     * { usage, attempts, audit } so far. With `deadlineMs` and `running`,
     * the summary of a call whose deadline passed while attempt `running`
     * was waiting: stopped by the deadline, with the rejection's `message`.
     */
    summary(deadlineMs, running = 0) {
      const session = live();
      const ms = deadlineMs === undefined ? undefined : String(deadlineMs);
      return JSON.parse(callRaw(() => session.summary(ms, running)));
    },
    free() {
      openSessions.delete(handle);
      // A dead instance's glue is retired: nothing to free there.
      if (born === instanceNumber) handle.free();
    },
  };
}

/** The copy of a string output: a reference to the first text. */
const TEXT_REFERENCE_0 = '{"\\u0000":0}';

/**
 * Encodes the texts, then the JSON text `[[byte length of each
 * text],${rest}]`, as `read_step` in src/providers/read.rs reads them (see
 * `encodeTexts`). Returns where the JSON text starts and its length in
 * bytes.
 */
function encodeStep(texts, rest) {
  return encodeTexts(texts, rest.length, (lengths) => `[[${lengths.join(",")}],${rest}]`);
}

/** Sessions made and not yet freed. */
const openSessions = new Set();

/** How many sessions are made and not yet freed, for the leak tests. */
export function liveSessions() {
  return openSessions.size;
}

/**
 * Every option name guardedCall takes, as the core lists them
 * (src/options.rs): `{ own, check }`, its own and those each check takes.
 */
let guardOptions;
export function guardOptionNames() {
  guardOptions ??= callRawJson(() => raw.guardOptionNames());
  return guardOptions;
}

/**
 * Where each provider's stream events keep the text, the finish reason and
 * the usage (src/providers/stream_events.rs), the same for every instance.
 */
let streamReaderTable;
export function streamReaders() {
  streamReaderTable ??= JSON.parse(callRaw(() => raw.streamReaders()));
  return streamReaderTable;
}

/** Paths already redacted, as the audit prints the same few again and again. */
const redactedPaths = new Map();

/**
 * An issue path with anything that looks like a credential redacted (the
 * path names the output's keys, which the model wrote), for printing.
 */
export function redactPath(path) {
  let redacted = redactedPaths.get(path);
  if (redacted === undefined) {
    redacted = callRaw(() => raw.redactPointer(path));
    if (redactedPaths.size >= 1024) redactedPaths.clear();
    redactedPaths.set(path, redacted);
  }
  return redacted;
}

/** What checked a response, for audit records. */
/** The core's version, the same for every instance of one build. */
let version;

export function validatorVersion() {
  version ??= callRaw(() => raw.validatorVersion());
  return version;
}

/**
 * The repair message for a failed verdict: each failing path, its code and
 * the constraint `schema` sets there, never a value from the output, with
 * anything that looks like a credential redacted.
 */
export function repairFeedback(verdict, schema) {
  if (verdict === null || typeof verdict !== "object" || Array.isArray(verdict)) {
    throw argumentError(`repairFeedback needs a verdict from checkOutput, not ${verdict === null ? "null" : Array.isArray(verdict) ? "an array" : typeof verdict}`);
  }
  let fields;
  try {
    fields = { ok: verdict.ok, failure: verdict.failure, errors: verdict.errors, moreErrors: verdict.moreErrors };
  } catch (error) {
    throw argumentError(`repairFeedback could not read the verdict: reading it threw ${error?.name ?? "an error"}`);
  }
  const verdictText = jsonText("the verdict", fields);
  let schemaJson;
  if (isValidator(schema)) schemaJson = schema[SOURCE].text;
  else if (schema !== undefined && schema !== null) schemaJson = textOfSchema(schema);
  return callRaw(() => raw.repairFeedback(verdictText, schemaJson));
}

function argumentKind(value) {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}

/**
 * The schema to send in a provider's native structured-output mode, the
 * constraints that mode will not enforce (for post-validation), and where the
 * sent schema lets the model answer differently from the original (see
 * src/provider_schema.rs). `schema` is an object, JSON text, a
 * response-format wrapper or a Validator; the caller's object is only read.
 */
export function toProviderSchema(schema, provider) {
  if (typeof provider !== "string") {
    throw argumentError(`provider must be "openai", "anthropic", "gemini" or "ollama", not ${argumentKind(provider)}`);
  }
  let text;
  if (typeof schema === "string") text = schema;
  else if (isValidator(schema)) text = schema[SOURCE].text;
  else if (schema !== null && typeof schema === "object" && !Array.isArray(schema)) text = textOfSchema(schema);
  else throw argumentError(`toProviderSchema needs a schema object or JSON text, not ${argumentKind(schema)}`);
  return callRawJson(() => raw.toProviderSchema(text, provider));
}

// Compiled schemas: the Validator class and its handles in the current
// instance, and the schemas found by identity (a schema object, a
// response-format wrapper or JSON text, compiled once per set of compile
// options and kept in a bounded cache).
import { NotJsonValue, jsonText, keptUnread, optionsText, schemaText, valueSnapshot } from "./arguments.mjs";
import { SchemaError, argumentError, withTypedErrors2 } from "./errors.mjs";
import { standardFor } from "./standard-schema.mjs";
import { VALUE, collectedIssues, programOf, valueVerdict } from "./check-program.mjs";
import { DEFAULTS, INPUT_STATUS, LANE_STATUS } from "./generated/contract.mjs";
import { cacheCapacity, callRaw, callRawJson, encodeInput, keepCacheCapacity, raw, whenReplaced } from "./wasm-instance.mjs";

// Validator → its handle in the current instance (replaced after a trap).
export let rawOf = new WeakMap();
// Every Validator carries the text it was compiled from under a registered
// symbol, so a copy of this package loaded another way (ESM beside CJS) can
// recompile it instead of mistaking it for a plain schema object.
export const SOURCE = Symbol.for("structured-output-guard.validator-source");
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
    const program = programFor(this);
    const cap = program === null ? undefined : inputCap(options);
    if (cap !== undefined && acceptedInPlace(program, instance)) return { valid: true, errors: [], moreErrors: false };
    let snapshot = instanceSnapshot(instance, program?.reach);
    const verdict = cap === undefined ? undefined : valueVerdict(program, snapshot);
    if (verdict === true) return { valid: true, errors: [], moreErrors: false };
    if (program !== null && keptUnread()) snapshot = instanceSnapshot(snapshot);
    // Rejected: the program lists the issues where it can, as the core would.
    const collected = verdict === false ? collectedIssues(program, snapshot, VALUE, cap) : undefined;
    if (collected !== undefined) return { valid: false, errors: collected.errors, moreErrors: collected.moreErrors };
    return validateText(this, jsonText("the instance", snapshot), options);
  }

  isValid(instance) {
    const program = programFor(this);
    if (program !== null && acceptedInPlace(program, instance)) return true;
    let snapshot = instanceSnapshot(instance, program?.reach);
    const verdict = program === null ? undefined : valueVerdict(program, snapshot);
    if (verdict === true) return true;
    if (program !== null && keptUnread()) snapshot = instanceSnapshot(snapshot);
    // Rejected for certain: nothing to build.
    if (verdict === false) return false;
    const text = jsonText("the instance", snapshot);
    const status = callRaw(() => handleForAnyValidator(this).isValidInput(encodeInput(text)));
    if (status !== LANE_STATUS.unavailable) return status === INPUT_STATUS.valid;
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
    value: withTypedErrors2(`Validator.${method}`, Validator.prototype[method]),
    writable: true,
    configurable: true,
  });
}

/**
 * The check program of the Validator's handle in the current instance, or
 * null where the core checks (see `programOf`). Asked once a check: it
 * counts the checks made before a program. A value is read for it along
 * its `reach` (see `valueSnapshot`); what the program does not accept is
 * read whole (`keptUnread`) before the core checks it.
 */
export function programFor(validator) {
  const handle = rawOf.get(validator);
  return handle === undefined ? null : programOf(handle);
}

/** How a Validator's Standard Schema checks a value: its program, then the core (see standard-schema.mjs). */
const STANDARD_CHECKS = { program: programFor, verdict: valueVerdict, collect: (program, snapshot) => collectedIssues(program, snapshot, VALUE, DEFAULTS.maxErrors), validate: validateText };

// A Validator is a Standard Schema (see standard-schema.mjs).
Object.defineProperty(Validator.prototype, "~standard", {
  get() {
    return standardFor(this, this[SOURCE], STANDARD_CHECKS);
  },
  enumerable: false,
  configurable: true,
});

/**
 * Whether a program accepts a caller's value read where it lies, each
 * location once (see `inPlacePlan` in js/check-program.mjs): then the copy
 * would be made without a problem and accepted too. Anything else (a value
 * rejected, a value that is not JSON, a read that threw) is answered by the
 * copy, exactly; a value the program cannot read in place is copied at once.
 */
function acceptedInPlace(program, instance) {
  if (!program.inPlace || instance === undefined || typeof instance === "function" || typeof instance === "symbol") return false;
  try {
    return program.runInPlace(instance) === true;
  } catch {
    return false;
  }
}

/**
 * An instance as `validate` and `isValid` check it: its snapshot (see
 * `valueSnapshot`), along `reach` when given, read once; a typed error for
 * a value that is not JSON, saying what and where, never the error a
 * getter threw.
 */
function instanceSnapshot(instance, reach) {
  if (instance === undefined || typeof instance === "function" || typeof instance === "symbol") {
    throw argumentError(`the instance must be a JSON value, not ${typeof instance}`);
  }
  try {
    return valueSnapshot(instance, reach);
  } catch (error) {
    if (error instanceof NotJsonValue) throw notJsonError(error);
    throw error;
  }
}

/** The TypeError for an instance that is not JSON. */
export function notJsonError(problem) {
  const pointer = problem.pointer;
  return argumentError(`the instance cannot be serialised to JSON: ${problem.words} (at ${pointer === "" ? "the root" : pointer})`);
}

/**
 * A Validator's `validate` of JSON text already read (see `instanceSnapshot`):
 * the text encoded into the input buffer, and a valid one answered with a
 * number (see `validateInput` in src/wasm/schemas.rs); the general path reads (and
 * refuses) any other options, and any text the tape cannot.
 */
export function validateText(validator, text, options) {
  const cap = inputCap(options);
  if (cap !== undefined) {
    const status = callRaw(() => handleForAnyValidator(validator).validateInput(encodeInput(text), cap));
    if (status === LANE_STATUS.ok) return { valid: true, errors: [], moreErrors: false };
    if (status === LANE_STATUS.failed) return JSON.parse(raw.laneTakeVerdict());
  }
  const opts = optionsText(options);
  return callRawJson(() => handleForAnyValidator(validator).validate(text, opts));
}

/**
 * The issue cap of `validate`'s options when the input-buffer path takes
 * them (none, or a whole `maxErrors` alone, as the core reads it);
 * undefined for the general path, which reads the options and says what is
 * wrong with them.
 */
function inputCap(options) {
  if (options === undefined) return DEFAULTS.maxErrors;
  try {
    if (options === null || typeof options !== "object" || Object.getPrototypeOf(options) !== Object.prototype) return undefined;
    const keys = Object.keys(options);
    if (keys.length === 0) return DEFAULTS.maxErrors;
    if (keys.length !== 1 || keys[0] !== "maxErrors") return undefined;
    const value = options.maxErrors;
    return Number.isInteger(value) && value >= 0 && value <= 0xffffffff ? value : undefined;
  } catch {
    return undefined;
  }
}

function wrapValidator(handle, source) {
  const validator = Object.create(Validator.prototype);
  Object.defineProperty(validator, "schemaHash", { value: handle.schemaHash, enumerable: true });
  Object.defineProperty(validator, "dialect", { value: handle.dialect, enumerable: true });
  Object.defineProperty(validator, "unenforced", { value: freezeList(JSON.parse(handle.unenforced)), enumerable: true });
  Object.defineProperty(validator, SOURCE, { value: source });
  rawOf.set(validator, handle);
  return validator;
}

/** A list and its entries, frozen: a Validator's facts are not the caller's to change. */
function freezeList(list) {
  for (const entry of list) Object.freeze(entry);
  return Object.freeze(list);
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
export function handleForAnyValidator(validator) {
  if (rawOf.has(validator) || freed.has(validator)) return handleOf(validator);
  if (validator === null || typeof validator !== "object" || !(SOURCE in validator)) {
    throw argumentError("this method needs a Validator from compileSchema()");
  }
  const { text, opts } = validator[SOURCE];
  const own = compileSchema(text, JSON.parse(opts));
  rawOf.set(validator, rawOf.get(own));
  return handleOf(validator);
}

export function isValidator(schema) {
  if (schema === null || typeof schema !== "object") return false;
  try {
    return schema instanceof Validator || SOURCE in schema;
  } catch {
    // A Proxy that refuses to be inspected is not a Validator.
    return false;
  }
}

/**
 * Whether a schema argument is a Validator, of this copy of the package or
 * another: a handle of this instance, or an object not already known as a
 * schema that carries a Validator's source. A known schema object is not
 * inspected again.
 */
export function isValidatorArgument(schema) {
  return rawOf.has(schema) || (!knownSchema(schema) && isValidator(schema));
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
//
// The handles kept, like the core's cache, are bounded by the memory their
// compiled schemas hold (each weighed by the core as it was compiled, see
// `memoryBytes`), so that an agent's working set of thousands of tool
// schemas stays compiled; `setSchemaCacheCapacity(n)` bounds them by a count
// instead. Under a memory bound the least recently used go in batches, down
// to `EVICT_TO` of the bound, so that a working set larger than the bound
// costs one sort per batch rather than a scan per schema compiled.

/** The options that change what a schema compiles to; `resources` is keyed by nothing (too large). */
export const COMPILE_KEYS = ["formats", "draft", "rejectUnknownFields", "unknownFormats", "customFormats", "dialect", "baseUri"];
/** Under a memory bound, what is kept once the least used are evicted: this share of the bound. */
const EVICT_TO = 0.875;

/**
 * schema object → { text, problem?, strict?, byKey: compile key → entry, lastUse };
 * an entry is { handle?, hash, error?, lastUse, bytes }, with a handle or
 * the error its compilation gave, or neither once its handle was evicted.
 */
let schemaRecords = new WeakMap();
/** The same records for JSON text, by the text; bounded as the handles are (by their count, or their texts' length). */
let textRecords = new Map();
/** The characters of the texts `textRecords` holds. */
let textChars = 0;
/** Entries holding a handle: within the cache's bound, so wasm memory stays bounded. */
let liveEntries = new Set();
/** The memory the handles of `liveEntries` hold, in bytes. */
let liveBytes = 0;
/** A clock for least-recently-used eviction. */
export let uses = 0;

/** The core's default memory bound, read once. */
let defaultBytes;

/** The count that bounds the cache, if a caller gave one (see `setSchemaCacheCapacity`). */
const countBound = () => (typeof cacheCapacity === "number" ? cacheCapacity : undefined);
/** The memory bound in bytes, when the cache is bounded by memory. */
function bytesBound() {
  if (typeof cacheCapacity === "number") return undefined;
  if (cacheCapacity !== undefined) return cacheCapacity.maxBytes;
  defaultBytes ??= callRaw(() => raw.schemaCacheDefaultBytes());
  return defaultBytes;
}

/** The record for a schema already seen, if any (map look-ups only: a Proxy is not touched). */
export function knownSchema(schema) {
  if (typeof schema === "string") return textRecords.get(schema);
  if (schema !== null && typeof schema === "object") return schemaRecords.get(schema);
  return undefined;
}

/**
 * The record for a schema object (not a Validator) or JSON text, made on
 * first use; undefined for anything else (a boolean schema is its own
 * short text).
 */
export function recordOf(schema) {
  const known = knownSchema(schema);
  if (known !== undefined) return known;
  if (typeof schema === "string") {
    const record = { text: schema, problem: undefined, byKey: new Map(), lastUse: ++uses };
    textRecords.set(schema, record);
    textChars += schema.length;
    evictText(record);
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

/** The compile options whose default values compile what no option does (see `compile_options` in src/options.rs). */
const COMPILE_DEFAULTS = { formats: "assert", rejectUnknownFields: false, unknownFormats: "ignore" };

/** Whether a compile option has its default value. */
export function defaultCompileOption(key, value) {
  return Object.hasOwn(COMPILE_DEFAULTS, key) && COMPILE_DEFAULTS[key] === value;
}

/**
 * The compile key of the options: "" for none (or only defaults), undefined when the schema
 * cannot be keyed (`resources`, or a value JSON cannot hold faithfully).
 */
export function compileKey(options) {
  if (options === undefined || options === null) return "";
  try {
    if (options.resources !== undefined && options.resources !== null) return undefined;
    let picked;
    for (const key of COMPILE_KEYS) {
      const value = options[key];
      if (value === undefined || defaultCompileOption(key, value)) continue;
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
export function entryFor(record, key) {
  let entry = record.byKey.get(key);
  if (entry === undefined) {
    entry = { handle: undefined, hash: null, error: undefined, lastUse: 0, from: undefined, bytes: 0 };
    record.byKey.set(key, entry);
  }
  entry.lastUse = record.lastUse = ++uses;
  if (entry.handle !== undefined || entry.error !== undefined) return entry;
  let handle;
  try {
    handle = compiledText(record.text, key);
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
  entry.bytes = handle.memoryBytes;
  liveEntries.add(entry);
  liveBytes += entry.bytes;
  evictHandle(entry);
  return entry;
}

function rememberFailure(record, key, message) {
  if (!record.byKey.has(key)) record.byKey.set(key, { handle: undefined, hash: null, error: message, lastUse: ++uses, from: undefined, bytes: 0 });
}

function leastUsed(items, spare) {
  let oldest;
  for (const item of items) {
    if (item !== spare && (oldest === undefined || item.lastUse < oldest.lastUse)) oldest = item;
  }
  return oldest;
}

/** `items` but `spare`, the least recently used first. */
function byLastUse(items, spare) {
  const list = [];
  for (const item of items) if (item !== spare) list.push(item);
  return list.sort((a, b) => a.lastUse - b.lastUse);
}

function releaseHandle(entry) {
  liveEntries.delete(entry);
  liveBytes -= entry.bytes;
  const { handle } = entry;
  entry.handle = undefined;
  // A guarded call's record of where its schema comes from holds the handle too (see `sessionSchema`).
  entry.from = undefined;
  // Owned by the cache alone (compileSchema hands out handles of its own).
  handle?.free();
}

/**
 * Frees least-used handles down to the cache's bound (under a memory bound,
 * down to `EVICT_TO` of it, `spare` kept however large); their records keep
 * the text to compile again from.
 */
function evictHandle(spare) {
  const count = countBound();
  if (count !== undefined) {
    while (liveEntries.size > count) releaseHandle(leastUsed(liveEntries, spare));
    return;
  }
  const bytes = bytesBound();
  if (liveBytes <= bytes) return;
  for (const entry of byLastUse(liveEntries, spare)) {
    if (liveBytes <= bytes * EVICT_TO) break;
    releaseHandle(entry);
  }
}

/** Forgets least-used JSON texts down to the cache's bound (their length counted under a memory bound), with their handles. */
function evictText(spare) {
  const count = countBound();
  if (count !== undefined) {
    while (textRecords.size > count) forgetText(leastUsed(textRecords.values(), spare));
    return;
  }
  const bytes = bytesBound();
  if (textChars <= bytes) return;
  for (const record of byLastUse(textRecords.values(), spare)) {
    if (textChars <= bytes * EVICT_TO) break;
    forgetText(record);
  }
}

function forgetText(record) {
  textRecords.delete(record.text);
  textChars -= record.text.length;
  for (const entry of record.byKey.values()) if (entry.handle !== undefined) releaseHandle(entry);
}

/**
 * What the cache holds now, for the tests: the handles kept here and the
 * memory they hold, the JSON texts kept, and the core's count and memory.
 */
export function cacheState() {
  return {
    handles: liveEntries.size,
    handleBytes: liveBytes,
    texts: textRecords.size,
    textChars,
    core: callRaw(() => raw.schemaCacheSize()),
    coreBytes: callRaw(() => raw.schemaCacheBytes()),
    defaultBytes: callRaw(() => raw.schemaCacheDefaultBytes()),
  };
}

/** Puts back the cache's default bound (for the tests, which change it). */
export function defaultCacheBound() {
  callRaw(() => raw.setSchemaCacheMemory(raw.schemaCacheDefaultBytes()));
  keepCacheCapacity(undefined);
  evictHandle(undefined);
  evictText(undefined);
}

/** Drops every record (after a trap the handles belong to the dead instance, and are not freed). */
export function forgetSchemas() {
  schemaRecords = new WeakMap();
  textRecords = new Map();
  textChars = 0;
  liveEntries = new Set();
  liveBytes = 0;
}

// After a trap the handles belong to the dead instance: Validators compile
// again from their source on first use, and the cache starts empty.
whenReplaced(() => {
  rawOf = new WeakMap();
  forgetSchemas();
});

/** Marks a record and its entry as just used, for least-recently-used eviction. */
export function touch(record, entry) {
  entry.lastUse = record.lastUse = ++uses;
}

/** The text of a schema object or JSON text, read once; SchemaError when it is not JSON. */
export function textOfSchema(schema) {
  if (typeof schema === "string") return schema;
  const record = recordOf(schema);
  if (record === undefined) return schemaText(schema);
  if (record.problem !== undefined) throw new SchemaError(record.problem);
  return record.text;
}

/**
 * Schema text for checkOutput. A schema that cannot even be serialised is
 * uncompilable like any other: it degrades unless the caller asked to throw
 * (an empty text reaches the core as unreadable).
 */
export function readableSchemaText(schema, options) {
  try {
    return schemaText(schema);
  } catch (error) {
    if (options?.onInvalidSchema === "throw") throw error;
    return "";
  }
}

/** Drops every cached compiled validator. */
export function clearSchemaCache() {
  callRaw(() => raw.clearSchemaCache());
  for (const entry of liveEntries) releaseHandle(entry);
  forgetSchemas();
}

/**
 * Bounds the cache: by the number of compiled schemas it keeps (a whole
 * number from 1 up), or by the memory they hold (`{ maxBytes }`; by
 * default the core's, 32 MiB).
 */
export function setSchemaCacheCapacity(capacity) {
  if (typeof capacity === "number") {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw argumentError("the cache capacity must be a whole number from 1 up, or { maxBytes }");
    }
    callRaw(() => raw.setSchemaCacheCapacity(capacity));
    keepCacheCapacity(capacity);
  } else {
    const maxBytes = memoryBoundOf(capacity);
    callRaw(() => raw.setSchemaCacheMemory(maxBytes));
    keepCacheCapacity({ maxBytes });
  }
  evictHandle(undefined);
  evictText(undefined);
}

/** The `maxBytes` of a `{ maxBytes }` capacity, or the TypeError for anything else. */
function memoryBoundOf(capacity) {
  let maxBytes;
  try {
    if (capacity !== null && typeof capacity === "object" && !Array.isArray(capacity)) maxBytes = capacity.maxBytes;
  } catch {
    throw argumentError("the cache capacity could not be read");
  }
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > 0xffffffff) {
    throw argumentError("the cache capacity must be a whole number from 1 up, or { maxBytes } with a whole number of bytes from 1 to 4294967295");
  }
  return maxBytes;
}

/** How many compiled validators are cached now. */
export function schemaCacheSize() {
  return callRaw(() => raw.schemaCacheSize());
}

/** The response-format wrapper's `strict` flag, if the schema is a wrapper. */
export function wrapperStrict(schema) {
  if (isValidatorArgument(schema)) return undefined;
  const record = recordOf(schema);
  // Not a schema at all: the check that follows says why.
  if (record === undefined || record.problem !== undefined) return undefined;
  return recordStrict(record);
}

/** `wrapperStrict` of the schema whose record (see `recordOf`, one without a problem) this is. */
export function recordStrict(record) {
  if (!("strict" in record)) record.strict = wrapperStrictOf(record.text);
  return record.strict;
}

/*
 * The core's calls of `entryFor` and `recordStrict`, made once per record,
 * apart from the functions entered on every call: on Bun, a function that
 * holds a closure (an arrow, which takes its `this`) makes a scope object
 * every time it is entered, closure made or not.
 */
function compiledText(text, key) {
  return callRaw(() => raw.compileSchema(text, key === "" ? "null" : key));
}
function wrapperStrictOf(text) {
  return callRaw(() => raw.wrapperStrict(text));
}

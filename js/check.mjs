// checkOutput and the checks beside it: the lane (a string or a response
// object against a compiled schema, one crossing, a status back and the
// value parsed once here), the general path for everything else, and the
// verdict in the shape docs/api.md gives.
import { jsonText, optionsText, outputCopy, readCopy, readText, wellFormed } from "./arguments.mjs";
import { SchemaError, argumentError } from "./errors.mjs";
import { DEFAULTS, LANE_STATUS } from "./generated/contract.mjs";
import { callRaw, callRawJson, decoder, encodeCopy, encodeInput, encoder, ensureLoaded, inputOf, raw, translate } from "./wasm-instance.mjs";
import { programVerdict } from "./check-program.mjs";
import { argumentsValue, calledId } from "./response-copy.mjs";
import { COMPILE_KEYS, compileKey, defaultCompileOption, entryFor, handleForAnyValidator, isValidatorArgument, knownSchema, rawOf, readableSchemaText, recordOf, touch } from "./schemas.mjs";

export function detectTruncation(source) {
  const text = source === undefined ? "null" : readText("the source", source, "output");
  return callRawJson(() => raw.detectTruncation(text));
}

export function rescueJson(text) {
  if (typeof text !== "string") throw argumentError(`rescueJson takes a string, not ${typeof text}`);
  return callRawJson(() => raw.rescueJson(text));
}

function outputArgument(output) {
  if (typeof output === "string") return { text: wellFormed(output), isText: true };
  if (output === undefined || output === null) return { text: "", isText: true };
  if (typeof output !== "object") {
    throw argumentError(`output must be a string or an object, not ${typeof output}`);
  }
  return { text: readText("the output", output, "output"), isText: false };
}

/** The verdict in API shape (checkToolCalls checks a call's arguments with it too). */
export function checkOutput(output, schema, options) {
  if (typeof output === "string") output = wellFormed(output);
  const lane = laneCheck(output, schema, options);
  if (lane !== undefined) return lane;
  return checkGeneral(output, schema, options);
}

/**
 * checkOutput's general path: every call shape the lane does not take. Apart
 * from `checkOutput`, as its closures would make its variables a scope
 * object on every call, lane or not.
 */
function checkGeneral(output, schema, options) {
  const { text, isText } = outputArgument(output);
  const opts = optionsText(options);
  let result;
  if (schema === undefined || schema === null) {
    result = callRawJson(() => raw.checkOutput(text, isText, undefined, opts));
  } else if (isValidatorArgument(schema)) {
    const handle = handleForAnyValidator(schema);
    result = callRawJson(() => raw.checkOutputWith(text, isText, handle, opts));
  } else {
    result = checkAgainst(text, isText, schema, options, opts);
  }
  return verdictFrom(result, text);
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
 * A core result as a verdict in API shape. The JSON text is a slice of the
 * caller's string (or, for a response object, handed back); it is parsed
 * only when a value is returned.
 */
function verdictFrom(result, text) {
  if (!result.ok) return shapeVerdict(result, undefined);
  // No textEnd: the JSON runs to the end of the text.
  const jsonText =
    result.textStart !== undefined ? text.slice(result.textStart, result.textEnd) : result.text;
  return shapeVerdict(result, jsonText === undefined ? undefined : JSON.parse(jsonText));
}

/** The lane's options when none are given. */
const LANE_DEFAULTS = Object.freeze({ maxErrors: DEFAULTS.maxErrors, requireObject: true, compiled: false, text: undefined, toolName: undefined, namedText: undefined });

/**
 * The lane's options that hold only `maxErrors` and `requireObject`, made
 * once for caps up to this: options that leave the work unchanged cost a
 * call no allocation.
 */
const SHARED_CAPS = 64;
const laneCaps = [[], []];

function sharedLane(maxErrors, requireObject) {
  if (maxErrors > SHARED_CAPS) return { maxErrors, requireObject, compiled: false, text: undefined, toolName: undefined, namedText: undefined };
  const byCap = laneCaps[requireObject ? 0 : 1];
  return (byCap[maxErrors] ??= Object.freeze({ maxErrors, requireObject, compiled: false, text: undefined, toolName: undefined, namedText: undefined }));
}

/**
 * What the lane needs of the options ({ maxErrors, requireObject, compiled:
 * whether compile options are given, text: the options as JSON text when
 * they hold more than the core takes as a number or a boolean (maxErrors,
 * requireObject), onInvalidSchema, compile options and an empty rules list,
 * for the core to read; toolName: a tool's name given as `toolName`, and
 * namedText: the options but `toolName` as `text` would give them, for the
 * check of that call's arguments (see `namedLane`) }), or undefined when
 * they need the general path (which also gives the typed error for options
 * that cannot be read). The members read are the own enumerable ones, as
 * JSON.stringify reads them for the core.
 */
export function laneOptions(options) {
  if (options === undefined || options === null) return LANE_DEFAULTS;
  if (typeof options !== "object" || Array.isArray(options)) return undefined;
  let maxErrors = DEFAULTS.maxErrors;
  let requireObject = true;
  let compiled = false;
  let others = false;
  let toolName;
  try {
    // An object literal's members are its own, unless Object.prototype was given enumerable ones.
    const ownOnly = Object.getPrototypeOf(options) === Object.prototype && !inheritsMembers();
    for (const key in options) {
      if (!ownOnly && !hasOwn(options, key)) continue;
      const value = options[key];
      // JSON.stringify leaves undefined members out, so the core never sees them.
      if (value === undefined) continue;
      switch (key) {
        case "maxErrors":
          if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) return undefined;
          maxErrors = value;
          break;
        case "requireObject":
          if (typeof value === "boolean") requireObject = value;
          else others = true;
          break;
        case "onInvalidSchema":
          // Once compiled, the schema cannot fail to compile; only a value the core would refuse matters.
          if (value !== "degrade" && value !== "throw") return undefined;
          break;
        case "rules":
          // An empty list: no rules to check, what a missing list says too.
          if (!Array.isArray(value) || value.length !== 0) others = true;
          break;
        case "toolName":
          // A name as the core reads it (a non-empty string, each character as given).
          if (typeof value === "string" && value !== "" && typeof value.isWellFormed === "function" && value.isWellFormed()) toolName = value;
          else others = true;
          break;
        case "formats":
          // The compile option users spell out most, read without a search of the others.
          if (!defaultCompileOption("formats", value)) compiled = true;
          break;
        default:
          // A compile option at its default compiles what none does.
          if (COMPILE_KEYS.includes(key) || key === "resources") {
            if (!defaultCompileOption(key, value)) compiled = true;
          } else {
            // Rules, a value of the wrong type, or a name the core refuses
            // (it then sends the call the general way, which says why).
            others = true;
          }
      }
    }
    // Options that change nothing (`{}`, `{ maxErrors: 5 }`) read as none.
    if (!compiled && !others && toolName === undefined) return maxErrors === DEFAULTS.maxErrors && requireObject ? LANE_DEFAULTS : sharedLane(maxErrors, requireObject);
    // A string is its own answer, `toolName` or not (the core checks it as
    // content); for a response object, the named call's arguments are
    // checked with the other options (`namedText`).
    const text = others ? optionsText(options) : undefined;
    const namedText = toolName !== undefined && others ? optionsText({ ...options, toolName: undefined }) : undefined;
    return { maxErrors, requireObject, compiled, text, toolName, namedText };
  } catch {
    return undefined;
  }
}

const hasOwn = Object.hasOwn;
const NO_MEMBERS = {};

/** Whether an object literal inherits enumerable members (from a polluted Object.prototype). */
function inheritsMembers() {
  for (const _ in NO_MEMBERS) return true;
  return false;
}

/**
 * The hot path (a string or a response object, a schema already compiled,
 * any check options, and for a schema compiled here with them the compile
 * options) asks the core for a status only, in one call; an accepted
 * verdict is built here from what this side already holds. Anything else
 * (a Validator given compile options, a response object with `toolName`,
 * options the core cannot read) returns undefined and takes the general
 * path.
 */
function laneCheck(output, schema, options) {
  const isText = typeof output === "string";
  if (!isText && (output === null || typeof output !== "object")) return undefined;
  const lane = laneOptions(options);
  if (lane === undefined) return undefined;
  const { compiled } = lane;
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
    touch(record, entry);
    handle = entry.handle;
    schemaHash = entry.hash;
  }
  return laneWith(output, handle, schemaHash, lane);
}

/**
 * A tool call's arguments (JSON text) checked against its tool's schema, as
 * `checkOutput({ content: text, finishReason }, schema, options)` checks
 * them: the schema compiled on first use and found again by identity, and
 * the text and the response's finish reason handed to the core at once,
 * without a response object to read; anything the lane does not take (a
 * Validator given compile options, a schema that does not compile, options
 * the core must read) goes the general way.
 */
export function checkArguments(text, schema, finishReason, options) {
  const lane = laneOptions(options);
  const found = lane === undefined ? undefined : compiledFor(schema, options, lane.compiled);
  if (found !== undefined) {
    const content = wellFormed(text);
    const reason = finishReason ?? null;
    const code = laneStatus(content, found.handle, lane.maxErrors, lane.requireObject, lane.text, reason);
    if (code !== 3) return laneResult(code, content, found.hash, reason);
  }
  return checkOutput({ content: text, finishReason }, schema, options);
}

/**
 * The compiled handle and hash of a schema for the lane (compiled now if
 * it never was): a Validator's own (not when compile options are given),
 * or the cached entry of a schema object or text; undefined when there is
 * none to use (a schema that did not compile, options the core refuses).
 */
function compiledFor(schema, options, compiled) {
  const handle = rawOf.get(schema);
  if (handle !== undefined) return compiled ? undefined : { handle, hash: schema.schemaHash };
  if (isValidatorArgument(schema)) return undefined;
  const record = recordOf(schema);
  if (record === undefined || record.problem !== undefined) return undefined;
  const key = compiled ? compileKey(options) : "";
  const entry = key === undefined ? undefined : entryFor(record, key);
  return entry?.handle === undefined ? undefined : entry;
}

/**
 * The lane (see `laneCheck`) with the schema's compiled handle and its hash
 * already found, and the options as `laneOptions` gives them: the verdict,
 * or undefined for the general path. `output` is a well-formed
 * string or a response object.
 */
export function laneWith(output, handle, schemaHash, { maxErrors, requireObject, text, toolName, namedText }) {
  if (typeof output !== "string") {
    if (toolName !== undefined) return namedLane(output, handle, maxErrors, requireObject, namedText, schemaHash, toolName);
    return readLane(output, handle, maxErrors, requireObject, text, schemaHash);
  }
  // No options beyond the two the lane takes as numbers: the schema's
  // check program answers an accepted text without the core.
  if (text === undefined) {
    const verdict = programVerdict(output, handle, schemaHash, requireObject, maxErrors);
    if (verdict !== undefined) return verdict;
  }
  const { code } = decodeLaneStatus(laneStatus(output, handle, maxErrors, requireObject, text));
  if (code === LANE_STATUS.unavailable) return undefined;
  return laneResult(code, output, schemaHash, null);
}

/**
 * A lane status (`LANE_STATUS`, defined in src/status.rs) taken apart:
 * its `code`, the `index` of the text the answer is, and the finish
 * reason's byte length (`reasonLength`, null when the response gave none).
 * Every caller decodes a status here.
 */
export function decodeLaneStatus(status) {
  return {
    code: status & LANE_STATUS.codeMask,
    index: (status >>> LANE_STATUS.textShift) & LANE_STATUS.fieldMask,
    reasonLength: (status & LANE_STATUS.hasReason) === 0 ? null : status >>> LANE_STATUS.reasonShift,
  };
}

/**
 * The lane's answer for a status code (see `decodeLaneStatus`) and the
 * text the core checked: the verdict the core wrote when it failed, or,
 * accepted, the JSON as the whole text or the slice the core names (in a
 * code fence or not). An accepted verdict is built here from what this
 * side already holds.
 */
export function laneResult(code, text, schemaHash, finishReason) {
  if (code === LANE_STATUS.failed) return verdictFrom(JSON.parse(raw.laneTakeVerdict()), text);
  const jsonText = code === LANE_STATUS.okWhole ? text : text.slice(raw.laneStart(), raw.laneEnd());
  return {
    ok: true,
    value: JSON.parse(jsonText),
    rescue: code === LANE_STATUS.okFence ? "code_fence" : "none",
    schemaHash,
    degraded: false,
    finishReason,
  };
}

/**
 * The lane for a response object: what the output plan reads of it goes to
 * the core in one call (see `checkReadLane` in src/wasm/check.rs), the
 * answer text encoded once into wasm memory and checked there. Its status
 * carries the index of the text the answer is and the finish reason's
 * length (see `decodeLaneStatus`). The copy's
 * record (see `outputCopy`) keeps that answer: a response with a copy the
 * core has answered before skips the read, and its answer's text and
 * finish reason go to the core as the string lane's text does.
 */
function readLane(output, handle, maxErrors, requireObject, optionsJson, schemaHash) {
  const texts = [];
  const copy = outputCopy(output, texts);
  const known = copy.answer;
  if (known !== undefined) {
    const text = texts[known.index];
    // The answer's text checked by the schema's program, where no option
    // needs the core and the finish reason is no token limit.
    if (optionsJson === undefined && !tokenLimit(known.reason)) {
      const verdict = programVerdict(text, handle, schemaHash, requireObject, maxErrors);
      if (verdict !== undefined) {
        verdict.finishReason = known.reason;
        return verdict;
      }
    }
    const { code } = decodeLaneStatus(laneStatus(text, handle, maxErrors, requireObject, optionsJson, known.reason));
    return code === LANE_STATUS.unavailable ? undefined : laneResult(code, text, schemaHash, known.reason);
  }
  const { code, index, reasonLength } = decodeLaneStatus(readLaneStatus(texts, copy.text, handle, maxErrors, requireObject, optionsJson));
  if (code === LANE_STATUS.unavailable) return undefined;
  const text = texts[index];
  // The finish reason's bytes are at the start of the input buffer. The
  // check may have grown the memory, which detaches the view the texts were
  // encoded through: it is taken again over the memory as it is now.
  const finishReason = reasonLength !== null ? decoder.decode(inputOf(reasonLength).subarray(0, reasonLength)) : null;
  copy.answer = { index, reason: finishReason };
  return laneResult(code, text, schemaHash, finishReason);
}

/**
 * The lane for a response object checked with `toolName` (`optionsJson`:
 * the other options, as `laneOptions` gives them): the response read as
 * the tool-call reader reads it (see `readCalls` in js/tool-calls.mjs), its
 * calls' names and arguments references into the texts, so that the
 * core's reading of the calls (`readToolCallsAt`) is made once for the
 * responses of one shape; the arguments of the first call of that name
 * (as the core's general path takes it: `check_output` in src/verdict.rs)
 * are then checked as `readLane` checks an answer's text, with the
 * response's finish reason. Undefined, for the general path, where the
 * answer is not a string of the response (no call of that name, arguments
 * an SDK parsed) or the check finds no answer (whose message names the
 * response's calls).
 */
function namedLane(output, handle, maxErrors, requireObject, optionsJson, schemaHash, toolName) {
  const texts = [];
  texts.wholeStrings = true;
  const copy = outputCopy(output, texts, namedCopies);
  if (texts.ambiguous) return undefined;
  let read = copy.answer;
  if (read === undefined) {
    const answer = callsAt(texts, copy.text);
    read = answer === undefined ? null : JSON.parse(answer);
    copy.answer = read;
  }
  if (read === null) return undefined;
  const calls = read.calls;
  let index;
  for (let i = 0; i < calls.length; i++) {
    if (calledId(calls[i].name, texts) === toolName) {
      index = calls[i].text;
      break;
    }
  }
  if (index === undefined || argumentsValue(texts, index) !== undefined) return undefined;
  const text = texts[index];
  const reason = read.finishReason;
  if (optionsJson === undefined && !tokenLimit(reason)) {
    const verdict = programVerdict(text, handle, schemaHash, requireObject, maxErrors);
    if (verdict !== undefined) {
      verdict.finishReason = reason;
      return verdict;
    }
  }
  const { code } = decodeLaneStatus(laneStatus(text, handle, maxErrors, requireObject, optionsJson, reason));
  if (code === LANE_STATUS.unavailable) return undefined;
  const verdict = laneResult(code, text, schemaHash, reason);
  return verdict.failure === "empty" ? undefined : verdict;
}

/**
 * The tool-call reader's copies of the responses checked with `toolName`
 * last, each with the core's reading of its calls (see `outputCopy`).
 */
const namedCopies = [];

/** `readToolCallsAt` over the texts and the copy, encoded into wasm memory; apart from `namedLane`, as its closure would make `namedLane`'s variables a scope object on every call. */
function callsAt(texts, copyText) {
  return callRaw(() => {
    const { start, length } = encodeCopy(texts, copyText);
    return raw.readToolCallsAt(start, length);
  });
}

/** Finish reasons the core was asked about: whether each is a token limit. */
const tokenLimits = new Map();

function tokenLimit(reason) {
  if (reason === null) return false;
  let limit = tokenLimits.get(reason);
  if (limit === undefined) {
    limit = callRaw(() => raw.isTokenLimit(reason));
    // Reasons are a provider's few words; a stream of ever-new ones is not kept.
    if (tokenLimits.size < 256) tokenLimits.set(reason, limit);
  }
  return limit;
}

/**
 * The read lane's status for a copy the core has not answered before (see
 * `checkReadLane` in src/wasm/check.rs). Apart from `readLane`, as its closure
 * would make `readLane`'s variables a scope object on every call.
 */
function readLaneStatus(texts, copyText, handle, maxErrors, requireObject, optionsJson) {
  return callRaw(() => {
    const { start, length } = encodeCopy(texts, copyText);
    return raw.checkReadLane(start, length, handle, maxErrors, requireObject, optionsJson);
  });
}

/**
 * Encodes the response straight into wasm memory (see `encodeInput`), the
 * finish reason, if any, right after it, and runs the lane over it. callRaw's
 * work written out: on Bun a closure makes the variables it captures a scope
 * object on every call, and one here cost a response object's check about 5%
 * of its time.
 */
function laneStatus(text, handle, maxErrors, requireObject, optionsJson, reason = null) {
  ensureLoaded();
  try {
    const extra = reason === null ? 0 : reason.length * 3;
    const written = encodeInput(text, extra);
    if (reason === null) return raw.checkInputLane(written, undefined, handle, maxErrors, requireObject, optionsJson);
    return raw.checkInputLane(written, writeReason(reason, inputOf(written + extra), written), handle, maxErrors, requireObject, optionsJson);
  } catch (error) {
    throw translate(error);
  }
}

/**
 * Writes a finish reason's UTF-8 bytes into `view` at `at` and gives their
 * number. Reasons are short ASCII words, copied here faster than a call of
 * the encoder; anything else is encoded.
 */
function writeReason(reason, view, at) {
  for (let i = 0; i < reason.length; i++) {
    const unit = reason.charCodeAt(i);
    if (unit >= 0x80) return encoder.encodeInto(reason, view.subarray(at)).written;
    view[at + i] = unit;
  }
  return reason.length;
}

export function shapeVerdict(r, parsed) {
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
    // A stream check that ended after its rejection: where it was decided.
    ...(r.atByte === undefined ? {} : { atByte: r.atByte }),
  };
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

// checkToolCalls: every tool call in a response checked against the input
// schema of the tool it names, before anything runs it. The core reads the
// calls (src/response.rs) from a copy of the response whose calls' ids,
// names and arguments are references (so one provider's responses make the
// same copy, read once); the declarations are read by the core's rules
// from the live lists (js/declarations.mjs); each call's arguments are then
// checked like an output, against the live schema object (compiled once and
// found again by identity): by the schema's check program where it answers
// (see `programCheck`), else by the core.
import { argumentError } from "./errors.mjs";
import { boundedJsonText, jsonText, outputCopy, readText } from "./arguments.mjs";
import { checkArguments, compiledFor, laneOptions, tokenLimit } from "./check.mjs";
import { BAIL, VALUE, collectedIssues, errorHashOf, programOf, rejectionMessage } from "./check-program.mjs";
import { declaredTools } from "./declarations.mjs";
import { LIMITS } from "./generated/contract.mjs";
import { callRaw, encodeCopy, rawGlue } from "./wasm-instance.mjs";
import { argumentsValue, calledId } from "./response-copy.mjs";
import { recordOf } from "./schemas.mjs";
import { toolCallsRecorder } from "./stats.mjs";

/** The failure classes of a call's check, from its arguments' verdict. */
export const CALL_FAILURE = { truncated: "truncated", empty: "unparseable", unparseable: "unparseable", not_object: "not_object", schema: "schema" };

export function checkToolCalls(response, tools, options) {
  if (response === null || typeof response !== "object") {
    throw argumentError(`checkToolCalls takes a response object, not ${response === null ? "null" : typeof response}`);
  }
  if (tools === null || typeof tools !== "object") {
    throw argumentError(`checkToolCalls takes the tool declarations (or the request), not ${tools === null ? "null" : typeof tools}`);
  }
  if (options?.toolName !== undefined || options?.rules !== undefined) {
    throw argumentError("checkToolCalls checks every call against its own tool's schema: toolName and rules do not apply");
  }
  // `stats` counts the verdict; the check itself takes the other options.
  let record;
  if (options !== undefined && options !== null && typeof options === "object" && Object.hasOwn(options, "stats")) {
    record = toolCallsRecorder(options.stats);
    const { stats: _, ...rest } = options;
    options = rest;
  }
  const raw = rawGlue();
  const read = readCalls(response, raw);
  const verdict = callsVerdict(read, declaredTools(tools), options);
  record?.(verdict);
  return verdict;
}

/**
 * The verdict on the calls `read` gives (`{ finishReason, calls: [{ id,
 * name, arguments }] }`, the arguments as text or a value), each checked
 * against its tool in `declared` (see `declaredTools` in js/declarations.mjs).
 */
export function callsVerdict(read, declared, options) {
  const raw = rawGlue();
  const found = read.calls;
  const calls = [];
  // The options as the lane reads them, once for every call (undefined:
  // every call goes the general way, which reads them).
  const lane = laneOptions(options);
  if (found.length === 1) {
    calls.push(checkCall(found[0], declared, read.finishReason, options, lane));
  } else {
    // One check, with one budget for the pattern matching of every call:
    // otherwise each call would have one, and a response with many calls
    // would cost as much as that many responses. Loops, not closures: on
    // Bun a closure makes the variables it captures a scope object on
    // every call. (A single call's check is a check of its own.)
    beginCheck(raw);
    try {
      for (const call of found) calls.push(checkCall(call, declared, read.finishReason, options, lane));
    } finally {
      endCheck();
    }
  }
  const refused = [];
  let unchecked = 0;
  for (const call of calls) {
    if (!call.ok) refused.push(call);
    if (call.degraded) unchecked += 1;
  }
  const degraded = unchecked > 0;
  if (refused.length === 0) {
    let message;
    if (calls.length === 0) message = "The response makes no tool calls.";
    else if (!degraded) message = `All ${calls.length} tool call(s) match their tools' schemas.`;
    else message = `All ${calls.length} tool call(s) are well formed, but ${unchecked} of them ${unchecked === 1 ? "was" : "were"} not checked against its tool's schema, which could not be compiled.`;
    return { ok: true, degraded, message, calls };
  }
  return {
    ok: false,
    degraded,
    failure: refused[0].failure,
    message: `${refused.length} of ${calls.length} tool call(s) refused; the first: ${refused[0].message}`,
    calls,
  };
}

/** What a call's message adds when its tool's schema could not be compiled (`onInvalidSchema: "degrade"`). */
export const NOT_APPLIED = "its tool's schema could not be compiled, so it was checked for parse and shape only and the schema was not applied";

/**
 * The repair feedback for each refused call of a checkToolCalls verdict,
 * `[{ id, text }]`, with constraints read from the schema of the tool each
 * call names in `tools` (the declarations, or the request).
 */
export function toolCallFeedback(verdict, tools) {
  if (verdict === null || typeof verdict !== "object" || !Array.isArray(verdict.calls)) {
    throw argumentError("the tool-call feedback needs a verdict from checkToolCalls");
  }
  if (tools === null || typeof tools !== "object") {
    throw argumentError(`the tool-call feedback needs the tool declarations (or the request), not ${tools === null ? "null" : typeof tools}`);
  }
  const raw = rawGlue();
  const schemas = {};
  for (const [name, tool] of declaredTools(tools).all()) {
    if (tool.schema !== undefined) schemas[name] = tool.schema;
  }
  const fields = verdict.calls.map((call) => ({ id: call.id, name: call.name, ok: call.ok, failure: call.failure, errors: call.errors, moreErrors: call.moreErrors }));
  return JSON.parse(callRaw(() => raw.toolCallsFeedback(jsonText("the verdict", { calls: fields }), jsonText("the tools' schemas", schemas))));
}

/** repairFeedback for a checkToolCalls verdict: one paragraph per refused call. */
export function toolCallsRepairFeedback(verdict, tools) {
  const feedback = toolCallFeedback(verdict, tools);
  if (feedback.length === 0) throw argumentError("repairFeedback needs a refused verdict; every tool call here passed");
  return feedback.map((entry) => entry.text).join("\n\n");
}

/** The schema of a tool declared without parameters: it takes any object. */
const ANY_OBJECT = Object.freeze({ type: "object" });

/** The error hash of a call of a tool the request does not declare, computed once. */
let unknownToolHash;

/** One call's result: its arguments checked like an output against its tool's schema. */
function checkCall(call, declared, finishReason, options, lane) {
  const tool = declared.find(call.name);
  if (tool === undefined) {
    unknownToolHash ??= callRaw(() => rawGlue().failureHash("unknown_tool"));
    return {
      id: call.id,
      name: call.name,
      ok: false,
      degraded: false,
      failure: "unknown_tool",
      message: "The response calls a tool the request does not declare.",
      errors: [],
      moreErrors: false,
      errorHash: unknownToolHash,
    };
  }
  const schema = tool.schema === undefined ? ANY_OBJECT : readableDeclaration(tool.schema);
  // The schema's check program where it answers, else the core. Under
  // `onInvalidSchema: "throw"` a schema that cannot be compiled throws its
  // SchemaError there.
  let verdict = programCheck(call.arguments, schema, finishReason, options, lane);
  if (verdict === undefined) {
    verdict = checkArguments(argumentsText(call.arguments), schema, finishReason, options);
    if (verdict.failure === "truncated" && !verdict.degraded && lane !== undefined && lane.text === undefined) keepTruncated(finishReason, verdict);
  }
  const degraded = verdict.degraded === true;
  if (verdict.ok) {
    const message = degraded ? `The call's arguments are a JSON object, but ${NOT_APPLIED}.` : "The call's arguments match its tool's schema.";
    return { id: call.id, name: call.name, ok: true, degraded, value: verdict.value, message, errors: [], moreErrors: false, errorHash: null };
  }
  const message = verdict.failure === "empty" ? "The call has no arguments." : verdict.message;
  return {
    id: call.id,
    name: call.name,
    ok: false,
    degraded,
    failure: CALL_FAILURE[verdict.failure] ?? verdict.failure,
    message: degraded ? `${message} (${NOT_APPLIED}.)` : message,
    errors: verdict.errors,
    moreErrors: verdict.moreErrors,
    errorHash: verdict.errorHash,
  };
}

/**
 * The schema of a called tool, or the TypeError for one JSON.stringify
 * cannot write (a BigInt, a cycle): the declarations are read without
 * serialising them, and the tools called are held to what reading them
 * whole would have held them to.
 */
export function readableDeclaration(schema) {
  if (recordOf(schema)?.problem !== undefined) boundedJsonText("the tools", schema);
  return schema;
}

/**
 * A call's arguments checked by its schema's check program (see
 * `programOf` in js/check-program.mjs), without the core: the verdict
 * `checkArguments` gives, as far as `checkCall` reads it, or undefined
 * where the core must answer (options only the core reads, compile
 * options, a schema not compiled or without a program yet, a finish
 * reason that is a token limit, text arguments, arguments the program
 * cannot answer on). An object or array an SDK parsed is copied as JSON
 * would write and read it back (see `jsonCopy`), and that copy, the value
 * the call hands back, is what the program checks: no JSON text is
 * written, nothing crosses. At a token limit every call has the core's
 * verdict for that reason, once the core has given it.
 */
function programCheck(args, schema, finishReason, options, lane) {
  if (lane === undefined || lane.text !== undefined || lane.toolName !== undefined) return undefined;
  const found = compiledFor(schema, options, lane.compiled);
  if (found === undefined) return undefined;
  // At the token limit every call is truncated, whatever its arguments
  // (`check_prepared` in src/verdict.rs decides so before it reads them):
  // the core's verdict for the reason, once it has given one.
  if (tokenLimit(finishReason ?? null)) {
    const known = truncatedBy.get(finishReason);
    if (known === undefined || (typeof args !== "string" && jsonCopy(args) === NOT_COPIED)) return undefined;
    return { ok: false, failure: known.failure, message: known.message, errors: [], moreErrors: false, errorHash: known.errorHash, degraded: false };
  }
  // Text goes to the core's lane: one crossing, the text parsed there and
  // once here, which on the public tool-call corpus cost less than the
  // program's run and its issue list (bench/tool-calls.mjs: 1.2-1.5x the
  // lane's time with 1,000 tools, valid and mixed).
  if (typeof args === "string") return undefined;
  const program = programOf(found.handle);
  if (program === null) return undefined;
  const value = jsonCopy(args);
  if (value === NOT_COPIED) return undefined;
  if (lane.requireObject && (value === null || typeof value !== "object" || Array.isArray(value))) return undefined;
  let accepted;
  try {
    accepted = program.runValue(value);
  } catch (error) {
    // BAIL, or a stack that ran out in a deep walk: the core decides.
    if (error === BAIL || error instanceof RangeError) return undefined;
    throw error;
  }
  if (accepted) return { ok: true, value, degraded: false };
  const collected = collectedIssues(program, value, VALUE, lane.maxErrors);
  if (collected === undefined) return undefined;
  const { errors, moreErrors, wording } = collected;
  return { ok: false, failure: "schema", message: rejectionMessage(wording, errors, moreErrors), errors, moreErrors, errorHash: errorHashOf("schema", errors), degraded: false };
}

/**
 * The core's verdict on a call's arguments at each token-limit finish
 * reason met (a provider's few words; a stream of ever-new ones is not
 * kept): the same for every call stopped so (see `programCheck`).
 */
const truncatedBy = new Map();

/** Keeps the core's truncated verdict `verdict` for `reason` (see `truncatedBy`). */
function keepTruncated(reason, verdict) {
  if (typeof reason !== "string" || truncatedBy.has(reason) || truncatedBy.size >= 256 || !tokenLimit(reason)) return;
  if (verdict.errors.length > 0 || verdict.moreErrors) return;
  truncatedBy.set(reason, { failure: verdict.failure, message: verdict.message, errorHash: verdict.errorHash });
}

/** What `jsonCopy` gives for a value it leaves to JSON.stringify and the core. */
const NOT_COPIED = Symbol("not copied");

/**
 * Containers deep a copy goes at most: well within the core's nesting
 * limit (`LIMITS.schemaDepth`), so that what is copied the core would have
 * read too.
 */
const COPY_DEPTH = Math.min(64, LIMITS.schemaDepth - 1);

const isRawJson = typeof JSON.isRawJSON === "function" ? JSON.isRawJSON : undefined;

/**
 * `JSON.parse` of the text `argumentsText` writes of `value` (an SDK's
 * parsed arguments), made without the text: each member read once; a
 * member JSON leaves out of an object (undefined, a function, a symbol)
 * left out, and written as null in an array; -0 as 0. Anything whose text
 * is not that plain a copy (a number that is not finite, a string with a
 * lone surrogate, an object of a class, with a `toJSON` or written raw, a
 * `__proto__` member, a BigInt, nesting past COPY_DEPTH, a read that
 * throws) gives NOT_COPIED, for the text path to write and say.
 */
function jsonCopy(value) {
  try {
    return copyOf(value, 0);
  } catch {
    return NOT_COPIED;
  }
}

function copyOf(x, depth) {
  switch (typeof x) {
    case "string":
      if (!x.isWellFormed()) throw NOT_COPIED;
      return x;
    case "number":
      if (!Number.isFinite(x)) throw NOT_COPIED;
      return x === 0 ? 0 : x;
    case "boolean":
      return x;
    case "object":
      break;
    default:
      throw NOT_COPIED;
  }
  if (x === null) return null;
  if (depth >= COPY_DEPTH || typeof x.toJSON === "function" || (isRawJson !== undefined && isRawJson(x))) throw NOT_COPIED;
  if (Array.isArray(x)) {
    const length = x.length;
    const out = new Array(length);
    for (let i = 0; i < length; i++) {
      const item = x[i];
      out[i] = item === undefined || typeof item === "function" || typeof item === "symbol" ? null : copyOf(item, depth + 1);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(x);
  if (proto !== Object.prototype && proto !== null) throw NOT_COPIED;
  const out = {};
  const keys = Object.keys(x);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const member = x[key];
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    if (key === "__proto__" || !key.isWellFormed()) throw NOT_COPIED;
    out[key] = copyOf(member, depth + 1);
  }
  return out;
}

/** A call's arguments as the text to check: a string as it is, an object or array the SDK parsed as its JSON text. */
function argumentsText(value) {
  return typeof value === "string" ? value : jsonText("the response", value);
}

/**
 * The calls of `response` and its finish reason, as the core reads them:
 * `{ finishReason, calls: [{ id, name, arguments }] }`, each call's
 * `arguments` the text to check, or the object or array an SDK parsed.
 * The response is read along the output plan with the calls' arguments,
 * ids and names among the texts (see `wholeForCalls` and `idReference` in
 * js/response-copy.mjs), so the core reads the calls without parsing or writing back
 * their arguments (`readToolCallsAt`), and what it answers for a copy holds
 * for every response that makes the same copy (see `callCopies`); a copy it cannot
 * take so is sent as text (`readToolCalls`).
 */
function readCalls(response, raw) {
  const texts = [];
  texts.wholeStrings = true;
  const copy = outputCopy(response, texts, callCopies, "the response");
  if (!texts.ambiguous) {
    let read = copy.answer;
    if (read === undefined) {
      const answer = callsAt(raw, texts, copy.text);
      read = answer === undefined ? undefined : JSON.parse(answer);
      // Kept with the copy (when the copy is kept), never handed out.
      copy.answer = read;
    }
    if (read !== undefined) {
      const calls = [];
      for (const call of read.calls) {
        const args = call.text === undefined ? call.arguments : argumentsValue(texts, call.text) ?? texts[call.text];
        calls.push({ id: calledId(call.id, texts), name: calledId(call.name, texts), arguments: args });
      }
      return { finishReason: read.finishReason, calls };
    }
  }
  return callsInText(raw, response);
}

/**
 * `readToolCallsAt` over the texts and the copy, encoded into wasm memory.
 * This and the helpers after it make the core's calls apart from the
 * functions that need them, for the reason `checkToolCalls` gives.
 */
function callsAt(raw, texts, copyText) {
  return callRaw(() => {
    const { start, length } = encodeCopy(texts, copyText);
    return raw.readToolCallsAt(start, length);
  });
}

/** The calls of a response read from its JSON text (`readToolCalls`). */
function callsInText(raw, response) {
  return JSON.parse(callRaw(() => raw.readToolCalls(readText("the response", response, "output"))));
}

function beginCheck(raw) {
  callRaw(() => raw.beginCheck());
}

/**
 * The tool-call reader's copies of the responses read last, with what the
 * core answered for each (see `outputCopy` in js/arguments.mjs): the calls'
 * ids, names and arguments are references into the texts, so a provider's
 * responses make the same few copies call after call, whatever tools they
 * call.
 */
const callCopies = [];

/** Forgets the copies read so far and the core's answers (for the tests, which compare a fresh reading with the text's). */
export function forgetCallsRead() {
  callCopies.length = 0;
}

/** Ends the check of the calls. After a trap the instance that began it is
 * gone, and its replacement never began one. */
function endCheck() {
  try {
    rawGlue().endCheck();
  } catch {
    // Not loaded (re-instantiating after a trap): nothing to end.
  }
}

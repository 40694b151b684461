// checkToolCalls: every tool call in a response checked against the input
// schema of the tool it names, before anything runs it. The core reads the
// calls (src/response.rs) from a copy of the response whose calls' ids,
// names and arguments are references (so one provider's responses make the
// same copy, read once); the declarations are read by the core's rules
// from the live lists (js/declarations.mjs); each call's arguments are then
// checked like an output, against the live schema object (compiled once and
// found again by identity).
import { argumentError } from "./errors.mjs";
import { boundedJsonText, jsonText, outputCopy, readText } from "./arguments.mjs";
import { checkArguments } from "./check.mjs";
import { declaredTools } from "./declarations.mjs";
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
  if (found.length === 1) {
    calls.push(checkCall(found[0], declared, read.finishReason, options));
  } else {
    // One check, with one budget for the pattern matching of every call:
    // otherwise each call would have one, and a response with many calls
    // would cost as much as that many responses. Loops, not closures: on
    // Bun a closure makes the variables it captures a scope object on
    // every call. (A single call's check is a check of its own.)
    beginCheck(raw);
    try {
      for (const call of found) calls.push(checkCall(call, declared, read.finishReason, options));
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
function checkCall(call, declared, finishReason, options) {
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
  // Under `onInvalidSchema: "throw"` a schema that cannot be compiled throws its SchemaError here.
  const verdict = checkArguments(argumentsText(call.arguments), schema, finishReason, options);
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

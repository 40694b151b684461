// checkToolCalls: every tool call in a response checked against the input
// schema of the tool it names, before anything runs it. The core reads the
// calls and the declarations (src/response.rs, src/providers/declarations.rs);
// each call's arguments are then checked like an output, against the live
// schema object found at the pointer the core gives (so it is compiled once
// and found again by identity).
import { argumentError } from "./errors.mjs";
import { boundedJsonText, jsonText, outputCopy, readText, serialisationProblem } from "./arguments.mjs";
import { checkOutput } from "./check.mjs";
import { callRaw, encodeCopy, rawGlue } from "./instance.mjs";
import { calledId, memberOf } from "./read.mjs";
import { requestPlan } from "./session.mjs";

/** The failure classes of a call's check, from its arguments' verdict. */
const CALL_FAILURE = { truncated: "truncated", empty: "unparseable", unparseable: "unparseable", not_object: "not_object", schema: "schema" };

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
  const raw = rawGlue();
  const read = readCalls(response, raw);
  const byName = declaredOf(tools);

  // One check, with one budget for the pattern matching of every call:
  // otherwise each call would have one, and a response with many calls
  // would cost as much as that many responses. Loops, not closures: on Bun
  // a closure makes the variables it captures a scope object on every call.
  beginCheck(raw);
  const calls = [];
  try {
    for (const call of read.calls) calls.push(checkCall(call, byName.get(call.name), read.finishReason, options));
  } finally {
    endCheck();
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
const NOT_APPLIED = "its tool's schema could not be compiled, so it was checked for parse and shape only and the schema was not applied";

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
  for (const [name, tool] of declaredOf(tools)) {
    if (tool.schemaPointer !== null) schemas[name] = at(tool.list, tool.schemaPointer);
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

/** One call's result: its arguments checked like an output against its tool's schema. */
function checkCall(call, tool, finishReason, options) {
  if (tool === undefined) {
    return {
      id: call.id,
      name: call.name,
      ok: false,
      degraded: false,
      failure: "unknown_tool",
      message: "The response calls a tool the request does not declare.",
      errors: [],
      moreErrors: false,
      errorHash: callRaw(() => rawGlue().failureHash("unknown_tool")),
    };
  }
  // A tool declared without parameters takes any object.
  const schema = tool.schemaPointer === null ? { type: "object" } : at(tool.list, tool.schemaPointer);
  // Under `onInvalidSchema: "throw"` a schema that cannot be compiled throws its SchemaError here.
  const verdict = checkOutput({ content: call.arguments, finishReason }, schema, options);
  const { degraded } = verdict;
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
 * The calls of `response` and its finish reason, as the core reads them:
 * `{ finishReason, calls: [{ id, name, arguments }] }`, each call's
 * `arguments` the text to check. The response is read along the output
 * plan with the strings at the calls' arguments and ids among the texts
 * (see `wholeForCalls` and `idReference` in js/read.mjs), so the core reads
 * the calls without parsing or writing back their arguments
 * (`readToolCallsAt`), and what it answers for a copy holds for every
 * response that makes the same copy (see `callCopies`); a copy it cannot
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
        calls.push({ id: calledId(call.id, texts), name: call.name, arguments: call.text === undefined ? call.arguments : texts[call.text] });
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
 * ids and arguments are references into the texts, so a provider's
 * responses make the same few copies call after call.
 */
const callCopies = [];

/** Forgets the copies read so far and the core's answers (for the tests, which compare a fresh reading with the text's). */
export function forgetCallsRead() {
  callCopies.length = 0;
}

/**
 * The tools declared in `tools` (a request, or its declarations in any
 * shape), by name, the first declaration of a name kept: `{ list, schemaPointer }`,
 * the pointer into `list`, the live list or record of declarations the
 * name came from. A request's declarations are read at the core's
 * declaration paths by property access, so its messages are never
 * serialised; each list is read by the core once, and again only when it
 * changes (see `readDeclarations`).
 */
function declaredOf(tools) {
  const byName = new Map();
  const lists = Array.isArray(tools) ? [] : declarationLists(tools);
  if (lists.length === 0) addDeclared(byName, tools, readDeclarations(tools, "declaredTools"));
  for (const list of lists) addDeclared(byName, list, readDeclarations(list, "declaredToolsIn"));
  return byName;
}

/** The tools of `list` the core `declared` into `byName`, by name, a name's first declaration kept. */
function addDeclared(byName, list, declared) {
  for (const { name, schemaPointer } of declared) if (!byName.has(name)) byName.set(name, { list, schemaPointer });
}

/** The lists and records of declarations a request holds at the core's declaration paths. */
function declarationLists(request) {
  const lists = [];
  for (const path of requestPlan().declarations) {
    let node = request;
    try {
      for (const key of path) node = node === null || typeof node !== "object" ? undefined : memberOf(node, key);
    } catch (error) {
      throw argumentError(`the tools could not be read: ${serialisationProblem(error)}`);
    }
    if (node !== null && typeof node === "object") lists.push(node);
  }
  return lists;
}

/**
 * What the core read of a list (or record, or request) of declarations
 * before, by the object: its entries then, to see that it is unchanged,
 * and the tools it declared. A declaration added, removed or replaced makes
 * the list read again; one changed in place does not, as a schema object
 * changed after its first use is not compiled again.
 */
const declarationsRead = new WeakMap();

function readDeclarations(list, reader) {
  const entries = entriesOf(list);
  const known = declarationsRead.get(list);
  if (known !== undefined && known.reader === reader && sameEntries(known.entries, entries)) return known.declared;
  const declared = declarationsOf(list, reader);
  declarationsRead.set(list, { reader, entries, declared });
  return declared;
}

/** What the core's `reader` declares in `list` (apart, for the reason `checkToolCalls` gives). */
function declarationsOf(list, reader) {
  const text = boundedJsonText("the tools", list);
  return JSON.parse(callRaw(() => rawGlue()[reader](text)));
}

/** A list's items, or an object's member names and values, in order, read as JSON.stringify reads them. */
function entriesOf(list) {
  try {
    if (Array.isArray(list)) return list.slice();
    const entries = [];
    for (const name of Object.keys(list)) entries.push(name, list[name]);
    return entries;
  } catch (error) {
    throw argumentError(`the tools could not be read: ${serialisationProblem(error)}`);
  }
}

function sameEntries(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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

/**
 * The value at a JSON Pointer the core gave into the live declarations,
 * read token by token (a call's check looks its tool's schema up this way
 * every time, and splitting the pointer cost a twentieth of a small check).
 */
function at(root, pointer) {
  let node = root;
  for (let start = 1; start <= pointer.length; ) {
    let end = pointer.indexOf("/", start);
    if (end < 0) end = pointer.length;
    let key = pointer.slice(start, end);
    if (key.includes("~")) key = key.replace(/~1/g, "/").replace(/~0/g, "~");
    node = Array.isArray(node) ? node[Number(key)] : node?.[key];
    start = end + 1;
  }
  return node;
}

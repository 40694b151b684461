// A guarded call's session in the core (src/session.rs): what the core
// needs of the request (its tool paths, the members of its provider guess)
// read by property access, the schema found once, and the session stepped
// once per attempt (but for a first attempt the lane accepts, see
// `acceptFirst`). guarded-call.mjs and guarded-stream.mjs drive it.
import { jsonText, optionsText, outputCopy, serialisationProblem, wellFormed } from "./arguments.mjs";
import { functionFrom } from "./functions-from-source.mjs";
import { fromClass, hasMember, memberOf } from "./member-access.mjs";
import { decodeLaneStatus, laneOptions, laneResult, laneWith, shapeVerdict } from "./check.mjs";
import { SchemaError, argumentError } from "./errors.mjs";
import { LANE_STATUS } from "./generated/contract.mjs";
import { callRaw, callRawJson, decoder, encodeCopy, instanceNumber, raw } from "./wasm-instance.mjs";
import { SOURCE, compileKey, entryFor, handleForAnyValidator, isValidatorArgument, readableSchemaText, recordOf, recordStrict } from "./schemas.mjs";
import { validatorVersion } from "./schema-tools.mjs";
import { StreamCheck } from "./stream-check.mjs";
import { countedUsage, usageText } from "./usage-readers.mjs";

/** Where requests declare tools, as the core lists them (src/providers/tools.rs). */
let toolPaths;

/**
 * What a request holds at one tool path, as the core's codes: 0 nothing,
 * 1 tools, 2 could not be read, 3 a nested request's text (pushed to
 * `texts`). Read by property access, so getters and class instances count.
 */
function readToolLeaf(request, { path, leaf }, texts, index) {
  let node = request;
  // An index loop, ended at the first missing member: most paths find
  // nothing at their first name, and on Bun a for-of loop over each path
  // cost twice as much.
  for (let k = 0; k < path.length && node !== undefined; k++) node = toolStep(node, path[k]);
  return node === undefined ? 0 : leafCode(node, leaf, texts, index);
}

/** The member `key` of `node` on the way along a tool path (a Map's entry); undefined where the path ends. */
function toolStep(node, key) {
  if (node === null || (typeof node !== "object" && typeof node !== "function")) return undefined;
  return node instanceof Map ? node.get(key) : memberOf(node, key);
}

/** The code of what a tool path found at its end, `node` (see `readToolLeaf`). */
function leafCode(node, leaf, texts, index) {
  if (node === null || node === false) return 0;
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
 * `readToolPaths`'s codes for a request that is an object but not a Map,
 * written for the core's tool paths with their first names in the source:
 * on Bun, reading names from a list cost 8 absent members of a request
 * about 0.1 µs, a guarded call's 4%; written out, each is read as a
 * constant name is. null where no function can be made from source (see
 * `functionFrom` in js/functions-from-source.mjs), and until the first guarded call.
 */
let writtenToolPaths = null;

function writeToolPaths(paths) {
  const lines = ["let found = 0;", "let node;"];
  for (let i = 0; i < paths.length; i++) {
    const { path } = paths[i];
    const weight = 4 ** i;
    // A member only Object.prototype holds is none of the request's (see `memberOf`).
    const first = JSON.stringify(path[0]);
    let walk = `node = request[${first}]; if (node !== undefined && !Object.hasOwn(request, ${first}) && !fromClass(request, ${first})) node = undefined;`;
    for (let k = 1; k < path.length; k++) walk += ` if (node !== undefined) node = step(node, ${JSON.stringify(path[k])});`;
    // A getter or a Proxy that throws: what it hides may be tools.
    lines.push(`try { ${walk} if (node !== undefined) found += ${weight} * leafCode(node, paths[${i}].leaf, texts, ${i}); } catch { found += ${2 * weight}; }`);
  }
  lines.push("return found;");
  const written = functionFrom(["request", "texts", "paths", "step", "leafCode", "fromClass"], lines);
  return written === undefined ? null : written;
}

/** The core's tool paths, and the function written for them, on first use. */
function loadToolPaths() {
  if (toolPaths !== undefined) return;
  toolPaths = packableToolPaths(requestPlan().tools);
  writtenToolPaths = writeToolPaths(toolPaths);
}

/** Whether `value` is an object but not a Map; false for one that cannot say (a revoked Proxy). */
function objectNotMap(value) {
  if (value === null || typeof value !== "object") return false;
  try {
    return !(value instanceof Map);
  } catch {
    return false;
  }
}

/**
 * What a request holds at each of the core's tool paths, as a session's setup
 * takes it: the codes, path i's in bits 2i and 2i+1 of `found` (a number,
 * compared at once when an idle session is looked for; see `toolCodes`),
 * and the texts of nested requests (or null).
 */
function readToolPaths(request) {
  loadToolPaths();
  let found = 0;
  const texts = [];
  if (writtenToolPaths !== null && objectNotMap(request)) {
    found = writtenToolPaths(request, texts, toolPaths, toolStep, leafCode, fromClass);
  } else {
    for (let i = 0; i < toolPaths.length; i++) {
      let code;
      try {
        code = readToolLeaf(request, toolPaths[i], texts, i);
      } catch {
        // A getter or a Proxy that throws: what it hides may be tools.
        code = 2;
      }
      found += code * 4 ** i;
    }
  }
  if (texts.length === 0) return { found, texts: null };
  // A loop, not Array.from with an arrow: on Bun a function holding a
  // closure makes a scope object every time it is entered.
  const all = new Array(texts.length);
  for (let i = 0; i < texts.length; i++) all[i] = texts[i] ?? null;
  return { found, texts: all };
}

/**
 * `readToolPaths(request)`, read the written way (`written`, where a
 * function can be made) or by the general walk: for the tests, which hold
 * that the two agree.
 */
export function toolPathsReadBy(request, written) {
  loadToolPaths();
  const kept = writtenToolPaths;
  if (!written) writtenToolPaths = null;
  try {
    return readToolPaths(request);
  } finally {
    writtenToolPaths = kept;
  }
}

/** What the core reads of a request: its tool paths, the members its provider guess reads, where it declares tools. */
let plan;

export function requestPlan() {
  plan ??= callRawJson(() => raw.requestPlan());
  return plan;
}

/**
 * The member `key` of `node` as the readers take one (see `memberOf`: never
 * a polluted prototype's), or undefined where `node` has no members; a
 * throwing getter throws.
 */
function memberIn(node, key) {
  return node !== null && (typeof node === "object" || typeof node === "function") ? memberOf(node, key) : undefined;
}

/** The value at `path` from `node` (see `memberIn`). */
function walk(node, path) {
  for (let k = 0; k < path.length && node !== undefined; k++) node = memberIn(node, path[k]);
  return node;
}

/** Whether `value` can be a schema the request gives (an object that is not a list). */
function schemaObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The schema a request gives its provider, read along the core's table
 * (src/providers/request_schema.rs), first found first: `{ schema, strict,
 * toolName, dialect }` (`strict` the provider's flag where the schema has
 * one, `toolName` the forced tool's name), or undefined when the request
 * gives none. What a getter hides by throwing is not found.
 */
export function requestSchema(request) {
  if (request === null || typeof request !== "object") return undefined;
  for (const source of requestPlan().schemas) {
    let found;
    try {
      found = source.forced === null ? memberSchema(request, source) : forcedSchema(request, source);
    } catch {
      continue;
    }
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The members `requestSchema` looks at, as the core names them: for the error of a request that has none. */
export function requestSchemaPlaces() {
  return requestPlan().schemas.map((source) => source.name);
}

function memberSchema(request, source) {
  const schema = walk(request, source.schema);
  if (!schemaObject(schema)) return undefined;
  return foundSchema(source, schema, source.strict === null ? undefined : walk(request, source.strict), undefined);
}

function forcedSchema(request, source) {
  const { forced } = source;
  const choice = walk(request, forced.choice);
  if (!schemaObject(choice) || memberIn(choice, "type") !== forced.choiceType) return undefined;
  const name = walk(choice, forced.choiceName);
  const tools = walk(request, forced.tools);
  if (typeof name !== "string" || !Array.isArray(tools)) return undefined;
  for (const tool of tools) {
    if (walk(tool, forced.toolName) !== name) continue;
    const schema = walk(tool, source.schema);
    if (!schemaObject(schema)) return undefined;
    return foundSchema(source, schema, source.strict === null ? undefined : walk(tool, source.strict), name);
  }
  return undefined;
}

function foundSchema(source, schema, strict, toolName) {
  const dialect = source.jsonSchemaWith !== null && hasMember(schema, source.jsonSchemaWith) ? "json-schema" : source.dialect;
  return { schema, strict: typeof strict === "boolean" ? strict : undefined, toolName, dialect };
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
export function readRequestShape(request) {
  const shapeMembers = requestPlan().shape;
  const shape = [];
  let text = null;
  for (const name of shapeMembers.members) {
    let value;
    try {
      value = request !== null && typeof request === "object" ? memberOf(request, name) : undefined;
    } catch (error) {
      throw argumentError(`the request could not be read to find its shape: ${serialisationProblem(error)}`);
    }
    shape.push(kindOf(value));
    if (name === shapeMembers.text && typeof value === "string") text = value;
  }
  return { shape, text };
}

/** What `readRequestShape` gives when the provider guess is not needed. */
const NO_SHAPE = Object.freeze({ shape: Object.freeze([]), text: null });

/** The check options of options that hold none (most calls'): one object for all. */
export const NO_CHECK_OPTIONS = Object.freeze({});

/**
 * Where a session's schema comes from: a compiled handle of this instance
 * (`validator` when it is a Validator's), or text to compile. For a schema
 * compiled in the cache, one record per cache entry, kept with it until its
 * handle is freed.
 */
function sessionSchema(schema, options, throwing) {
  if (isValidatorArgument(schema)) {
    return { handle: handleForAnyValidator(schema), hash: schema.schemaHash, source: schema[SOURCE].text, strict: undefined, validator: true };
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
  const strict = recordStrict(record);
  const key = options === NO_CHECK_OPTIONS ? "" : compileKey(options);
  const entry = key === undefined ? undefined : entryFor(record, key);
  // `resources` (too large to key by), or options the core refuses: the
  // core compiles the text, and says why.
  if (entry === undefined) return { text: record.text, source: record.text, strict };
  if (entry.handle !== undefined) return (entry.from ??= { handle: entry.handle, hash: entry.hash, source: record.text, strict });
  if (throwing) throw new SchemaError(entry.error);
  return { text: "", source: record.text, strict };
}

/**
 * A guarded call's session in the core (src/session.rs): made from the
 * request and the options (or an idle one of the same setup, see
 * `idleSessions`), stepped once per attempt, freed or kept idle when the
 * call ends (`free`). `o`: the options as js/guarded-call.mjs reads them
 * (`schema`, `checkOptions`, `strict`, `hasTools`, `retry`, `budgetsText`,
 * and, by whether they are given, `appendFeedback`, `onAttempt` and
 * `record`: a step's result carries the attempt's usage only for
 * `onAttempt`, and its summary every attempt's failure and usage only for
 * a stats collector; left out, they are not parsed on every attempt for
 * nothing).
 * A session lives in one instance: after a trap replaced it, every method
 * throws a typed error instead of reaching the new instance with a handle
 * of the old.
 */
export function openSession(request, o) {
  const { checkOptions, schema } = o;
  // Most calls give no check option beside the schema: their options are
  // NO_CHECK_OPTIONS, whose text is "{}", and the lane reads them as none.
  const none = checkOptions === NO_CHECK_OPTIONS;
  const checkText = none ? "{}" : optionsText(checkOptions);
  const from = sessionSchema(schema, checkOptions, checkOptions.onInvalidSchema === "throw");
  const tools = readToolPaths(request);
  const appendFeedback = o.appendFeedback !== undefined;
  const repairing = o.retry === "repair";
  // Only a repair without the caller's appender needs the provider guess.
  const { shape, text } = repairing && !appendFeedback ? readRequestShape(request) : NO_SHAPE;
  const feedbackSchema = repairing && from.source !== undefined ? from.source : null;
  // The setup, part by part, in the order `setupTextOf` writes it: an idle
  // session is found by comparing them, and the text written only for a new one.
  const parts = [
    checkText,
    o.strict ?? null,
    o.hasTools ?? null,
    o.retry ?? null,
    o.budgetsText,
    tools.found,
    tools.texts,
    shape,
    text,
    from.strict ?? null,
    appendFeedback,
    feedbackSchema,
    o.onAttempt !== undefined,
    o.record !== undefined,
  ];
  // Only a session over a compiled handle is kept after its call: one made
  // from text compiled the text itself. An idle session of the same parts
  // was kept, so its texts are within the limit, and they are not counted
  // again.
  const idle = from.handle === undefined ? undefined : takeIdle(parts, from.handle);
  if (idle !== undefined) {
    openCount += 1;
    // The idle session serves again, as it is but for this call's schema
    // record and check options; its setup and `laneAccepts` are the same.
    idle.from = from;
    idle.lane = idle.laneAccepts ? laneOptions(none ? undefined : checkOptions) : undefined;
    idle.stepped = false;
    return idle;
  }
  const keep = from.handle !== undefined && textsLength(parts) <= IDLE_SETUP_LIMIT;
  const handle = newSessionHandle(parts, from);
  // Whether an attempt the lane accepts ends the call (see `acceptFirst`):
  // the core's answer for this setup, kept with the session while idle.
  const laneAccepts = from.handle !== undefined && laneAcceptsOf(handle);
  // The lane's reading of the check options, when it can take them.
  const lane = laneAccepts ? laneOptions(none ? undefined : checkOptions) : undefined;
  openCount += 1;
  return new GuardSession(handle, from, keep, parts, laneAccepts, lane);
}

/**
 * A new session in the core for a setup no idle session serves. Apart from
 * `openSession`: a closure there would make its variables a scope object
 * on every call, an idle session found or not.
 */
function newSessionHandle(parts, from) {
  return callRaw(() => {
    const made = new raw.RawSession(setupTextOf(parts), from.handle === undefined ? from.text : undefined);
    if (from.handle !== undefined) made.useValidator(from.handle);
    return made;
  });
}

/** The core's `laneAccepts` for a new session (see `openSession`), apart for the same reason. */
function laneAcceptsOf(handle) {
  return callRaw(() => handle.laneAccepts());
}

/**
 * A guarded call's session, as `openSession` makes it: its methods on the
 * prototype, not a dozen closures made for every call.
 */
class GuardSession {
  constructor(handle, from, keep, parts, laneAccepts, lane) {
    this.handle = handle;
    /** Where the schema came from (see `sessionSchema`). */
    this.from = from;
    /** Whether it is kept idle when the call ends. */
    this.keep = keep;
    this.parts = parts;
    this.laneAccepts = laneAccepts;
    this.lane = lane;
    /** The instance it lives in. */
    this.born = instanceNumber;
    /** Whether it was used (and may have recorded an attempt): a kept session is restarted only then. */
    this.stepped = false;
  }

  /** The session's handle, marked used; a typed error once its instance is gone. */
  live() {
    this.stepped = true;
    if (this.born !== instanceNumber) {
      const error = new Error(
        "structured-output-guard was re-instantiated after an internal failure during this guarded call; the call's record of attempts went with the old instance, so the call stops here",
      );
      error.code = "internal";
      throw error;
    }
    return this.handle;
  }

  /**
   * The call's result when its first attempt (`output`, with `usage` as
   * `usageRead` gives it) is one the lane accepts and the core said such
   * an attempt ends the call (`laneAccepts`): checked as checkOutput
   * checks it, in one call into the core, without stepping the session;
   * the result as `step` gives it. Undefined otherwise (not the first
   * attempt, a usage without a program, options or an output the lane
   * does not take, or a verdict that is not accepted): `read` and `step`
   * then check it as ever. Throws as `read` does for an output that
   * cannot be read.
   */
  acceptFirst(output, usage) {
    // A Validator was compiled with its own options; checkOutput's lane
    // leaves compile options given beside one to its general path.
    if (this.lane === undefined || (this.lane.compiled && this.from.validator) || this.stepped || usage.program === undefined) {
      return undefined;
    }
    if (this.born !== instanceNumber) return undefined;
    if (typeof output === "string") output = wellFormed(output);
    else if (output === null || typeof output !== "object") return undefined;
    const { from } = this;
    const verdict = laneWith(output, from.handle, from.hash, this.lane);
    if (verdict === undefined || !verdict.ok) return undefined;
    return acceptedFirst(verdict, countedUsage(usage), from.hash);
  }

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
      copyText = outputCopy(output, texts).text;
    } else {
      throw argumentError(`output must be a string or an object, not ${typeof output}`);
    }
    return { texts, copyText };
  }

  /**
   * Checks a response `read` read, with its usage (as `usageRead` in
   * js/usage-readers.mjs gives it; recorded first, so it counts even
   * when the check throws), and decides. The
   * result: { verdict (API shape), action, stoppedBy, usage? (with
   * `stepUsage`), message?, warning?, feedback? (with appender?, the
   * built-in appender's name), lenientValue (the lenient path's value, or
   * null), summary? ({ usage, attempts? (with `summaryAttempts`), audit },
   * with a final decision) }.
   */
  step({ texts, copyText }, usage, aborted, deadlinePassed) {
    const session = this.live();
    const { from } = this;
    // The lean case (see `stepLean` in src/wasm/session.rs) is built here, with the schema's hash this side keeps.
    let lean = false;
    const counted = usage.program !== undefined;
    const r = callRaw(() => {
      const { start, length } = encodeStep(texts, copyText, counted ? "null" : usage.text);
      const hashed = from.hash !== undefined;
      const status = counted
        ? session.stepCounted(start, length, aborted, deadlinePassed, hashed, usage.program, usage.counts)
        : session.stepLean(start, length, aborted, deadlinePassed, hashed);
      if (status === LANE_STATUS.failed) return JSON.parse(session.takeStep());
      lean = true;
      return leanStep(status, texts, session.takeStep(), from.hash, counted ? usage : undefined);
    });
    return lean ? r : writtenStep(r, texts);
  }

  /** A stream check (see createStreamCheck) with the session's schema and options. */
  streamCheck() {
    return new StreamCheck(() => this.live().openStream());
  }

  /** Whether a stream is stopped at its first definite rejection (not on the lenient path). */
  stopsStreamsEarly() {
    return callRaw(() => this.live().stopsStreamsEarly());
  }

  /**
   * Steps the session with a streamed attempt: `state` is the stream
   * check's rejected state, or the verdict its `end` gave (whose `value`
   * the result's verdict takes); `reportsText` the JSON list of the usage
   * reports its events carried; `facts` { bytes, stoppedEarly,
   * usageReported }. The result as `step` gives it.
   */
  stepStream(state, reportsText, facts, aborted, deadlinePassed) {
    const session = this.live();
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
  }

  /**
   * Steps the session with a streamed attempt's whole text (the lenient
   * path, whose value is the JSON object found even when the check
   * fails), its finish reason, usage reports and facts, as `stepStream`;
   * with `toolName`, the text is that tool's arguments.
   */
  stepStreamText(text, finishReason, reportsText, facts, aborted, deadlinePassed, toolName) {
    const session = this.live();
    const texts = [wellFormed(text)];
    // With toolName, the text is the named tool's arguments: a call of it, as the check reads one.
    const content = toolName === undefined ? TEXT_REFERENCE_0 : `[{"type":"tool-call","toolName":${JSON.stringify(toolName)},"input":${TEXT_REFERENCE_0}}]`;
    const copyText = `{"content":${content},"finishReason":${JSON.stringify(finishReason ?? null)}}`;
    const r = JSON.parse(
      callRaw(() => {
        const { start, length } = encodeStep(texts, copyText, reportsText);
        return session.stepStreamText(start, length, facts.bytes, facts.stoppedEarly, facts.usageReported, aborted, deadlinePassed);
      }),
    );
    return writtenStep(r, texts);
  }

  /** Counts a streamed attempt that has no verdict (it threw, or was aborted), with its usage reports. */
  recordStream(reportsText, facts) {
    const session = this.live();
    callRaw(() => session.stepStream(undefined, reportsText, facts.bytes, facts.stoppedEarly, facts.usageReported, false, false));
  }

  /** Counts the usage (as `usageRead` gives it) of an attempt whose response will not be checked. */
  recordUnchecked(usage) {
    const session = this.live();
    const text = usageText(usage);
    callRaw(() => {
      const { start, length } = encodeStep([], "null", text);
      session.step(start, length, false, false, true);
    });
  }

  /**
   * { usage, attempts, audit } so far. With `deadlineMs` and `running`,
   * the summary of a call whose deadline passed while attempt `running`
   * was waiting: stopped by the deadline, with the rejection's `message`.
   */
  summary(deadlineMs, running = 0) {
    const session = this.live();
    const ms = deadlineMs === undefined ? undefined : String(deadlineMs);
    return JSON.parse(callRaw(() => session.summary(ms, running)));
  }

  free() {
    const { handle, born } = this;
    openCount -= 1;
    // A dead instance's glue is retired: nothing to free there.
    if (born !== instanceNumber) return;
    if (!this.keep) {
      handle.free();
      return;
    }
    if (this.stepped && !restarted(handle)) return;
    // The latest setups are the likeliest to come again: the oldest idle session goes.
    if (idleSessions.length >= IDLE_HELD) {
      const oldest = idleSessions.shift();
      if (oldest.born === instanceNumber) oldest.handle.free();
    }
    idleSessions.push(this);
  }
}

/**
 * Whether a session that was stepped restarted (its ledger emptied) for
 * another call; false when the instance trapped as it did: nothing to keep.
 * Apart from `free` for the reason `newSessionHandle` is.
 */
function restarted(handle) {
  try {
    callRaw(() => handle.restart());
    return true;
  } catch {
    return false;
  }
}

/**
 * A step's result as the core wrote it (see `step_json` in src/session/wire.rs),
 * in the shape `step` gives: the verdict in API shape, and the value parsed
 * from the JSON (a slice of text `at`, or the verdict's own text) when the
 * verdict is accepted or the lenient path returns it.
 */
function writtenStep(r, texts) {
  const json = r.at !== undefined ? texts[r.at].slice(r.textStart, r.textEnd) : r.verdict.text;
  const value = r.verdict.ok || r.lenientValue === true ? JSON.parse(json) : undefined;
  r.verdict = shapeVerdict(r.verdict, value);
  r.lenientValue = r.lenientValue === true ? value : null;
  return r;
}

/**
 * The result of a lean step (see `lean_status` in src/session/wire.rs): a
 * first attempt accepted, as `step` gives it, built from the status (see
 * `decodeLaneStatus`), the texts, `pending` (the finish reason, then,
 * unless the usage was `counted`, the summary's usage as JSON text) and
 * the schema's hash, as the lane builds an accepted verdict.
 */
function leanStep(status, texts, pending, schemaHash, counted) {
  const { code, index, reasonLength } = decodeLaneStatus(status);
  const finishReason = reasonLength !== null ? pending.slice(0, reasonLength) : null;
  const usage = counted !== undefined ? countedUsage(counted) : JSON.parse(pending.slice(reasonLength ?? 0));
  return acceptedFirst(laneResult(code, texts[index], schemaHash, finishReason), usage, schemaHash);
}

/**
 * A call's result, as `step` gives it, for a first attempt accepted with
 * `verdict` (API shape) and `usage` (normalised): the call ends accepted.
 */
function acceptedFirst(verdict, usage, schemaHash) {
  const { rescue } = verdict;
  return {
    verdict,
    action: "accept",
    stoppedBy: "accepted",
    lenientValue: null,
    summary: {
      usage,
      audit: {
        attempts: [{ failure: null, errorHash: null, rescue }],
        schemaHash,
        validatorVersion: validatorVersion(),
        stoppedBy: "accepted",
        degraded: false,
      },
    },
  };
}

/** The copy of a string output: a reference to the first text. */
const TEXT_REFERENCE_0 = '["\\u0000",0]';

/**
 * Encodes the texts and after them `last` (the usage, or a stream's usage
 * reports, as JSON text), then the copy, as `read_step` in
 * src/providers/read.rs reads them (see `encodeCopy`).
 */
function encodeStep(texts, copyText, last) {
  return encodeCopy([...texts, last], copyText);
}

/**
 * How many sessions are made and not yet freed (a count, not a set of
 * them: a set's add and delete cost every call a little for a number only
 * the leak tests read). Each session is freed exactly once, as its call ends.
 */
let openCount = 0;

export function openSessionCount() {
  return openCount;
}

/**
 * Sessions whose calls ended, their ledger emptied (restarted, when their
 * call recorded anything), kept for a call with the same setup (see
 * `sameParts`) over the same compiled handle: an agent's guarded calls
 * repeat their options call after call, and making a session (its glue
 * object, the core's setup, the handle) cost more than half a small
 * response's check. At most `IDLE_HELD`, the latest kept, of
 * setups whose texts hold up to `IDLE_SETUP_LIMIT` characters; each keeps
 * its compiled schema alive.
 */
const idleSessions = [];
const IDLE_HELD = 4;
const IDLE_SETUP_LIMIT = 4096;

/**
 * A session's setup as the core reads it (see `read_setup` in
 * src/options.rs), from its `parts` (see `openSession`): written by hand,
 * as JSON.stringify is not needed for most of it.
 */
function setupTextOf(parts) {
  const [check, strict, hasTools, retry, budgets, tools, toolTexts, shape, model, wrapperStrict, appendFeedback, feedbackSchema, stepUsage, summaryAttempts] = parts;
  const json = (value) => (value === null ? null : JSON.stringify(value));
  return (
    `{"check":${check},"strict":${strict},"hasTools":${hasTools},"retry":${json(retry)},"budgets":${budgets},` +
    `"tools":[${toolCodes(tools).join(",")}],"toolTexts":${json(toolTexts)},"shape":[${shape.join(",")}],"model":${json(model)},` +
    `"wrapperStrict":${wrapperStrict},"appendFeedback":${appendFeedback},"feedbackSchema":${json(feedbackSchema)},` +
    `"stepUsage":${stepUsage},"summaryAttempts":${summaryAttempts}}`
  );
}

/**
 * The core's tool paths, as many as `readToolPaths` packs into one number
 * exactly (two bits each within 2^53): more would be a change to the core
 * that this side must follow, and every guarded call's test says so.
 */
function packableToolPaths(paths) {
  if (paths.length > 26) throw new Error(`internal: ${paths.length} tool paths do not fit the number readToolPaths packs them in`);
  return paths;
}

/** The tool paths' codes, in order, from the number `readToolPaths` gives. */
function toolCodes(found) {
  const codes = [];
  for (let i = 0; i < toolPaths.length; i++) codes.push(Math.floor(found / 4 ** i) % 4);
  return codes;
}

/**
 * The characters of every text among a setup's parts (see `openSession`):
 * the strings, and the strings in the lists (the nested requests' texts a
 * request's tool paths gave), whatever part they are, so that a part added
 * to the setup is counted without a word here.
 */
function textsLength(parts) {
  let length = 0;
  for (const part of parts) {
    if (typeof part === "string") length += part.length;
    else if (Array.isArray(part)) for (const item of part) if (typeof item === "string") length += item.length;
  }
  return length;
}

/** Whether two setups' parts are the same, member by member (their lists item by item). */
function sameParts(a, b) {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}

/** The idle session (with its `laneAccepts`) for a setup of `parts` over `validator`, or undefined. */
function takeIdle(parts, validator) {
  for (let i = idleSessions.length - 1; i >= 0; i--) {
    const idle = idleSessions[i];
    if (idle.born !== instanceNumber) {
      // Its instance was replaced after a trap; its glue went with it.
      idleSessions.splice(i, 1);
      continue;
    }
    if (idle.from.handle !== validator || !sameParts(idle.parts, parts)) continue;
    // Most often the latest, which comes off the end without a splice.
    if (i === idleSessions.length - 1) idleSessions.pop();
    else idleSessions.splice(i, 1);
    return idle;
  }
  return undefined;
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

export { streamReaders } from "./stream-read.mjs";

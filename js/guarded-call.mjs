// guardedCall: the only part of the package that awaits. It calls the
// model, reads clocks and signals, and runs the caller's callbacks; the
// guarded call's state and every decision (is this accepted? may we retry?
// with what words is it rejected? what did all the attempts cost?) live in
// a session in the Rust core (src/session.rs), stepped once per attempt; a
// first attempt checkOutput's lane accepts ends the call without a step,
// when the core says such an attempt does (`acceptFirst` in session.mjs).
import { jsonText, readCopy, readPlans, rejectNonFinite } from "./arguments.mjs";
import { NO_CHECK_OPTIONS, guardOptionNames, openSession, requestSchema, requestSchemaPlaces } from "./session.mjs";
import { textRead, usageOfResponse } from "./usage-readers.mjs";
import { memberOf } from "./member-access.mjs";
import { StructuredOutputError, argumentError, typedError } from "./errors.mjs";
import { appenderNamed } from "./feedback.mjs";
import { displayText } from "./wasm-instance.mjs";
import { statsRecorder } from "./stats.mjs";
import { attachTelemetry, readTelemetry, traced } from "./telemetry.mjs";

export function abortReason(signal) {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  return error;
}

export const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
/**
 * The model call of an attempt the caller or a deadline can abort: settles
 * with the model's response, or rejects when the attempt's signal aborts:
 * at once when the deadline passed, a moment later when the caller aborted.
 */
function callWithin(callModel, request, context, attempt) {
  const call = Promise.resolve().then(() => callModel(request, context));
  const { signal } = context;
  return new Promise((resolve, reject) => {
    // A call that returns right as the caller aborts still counts: its
    // tokens are spent and its output may be accepted. Only a call still
    // running a moment after the abort is abandoned.
    const onAbort = () => {
      if (attempt.timedOut()) finish(() => reject({ deadline: true }));
      else setTimeout(() => finish(() => reject({ aborted: abortReason(signal) })), 0);
    };
    let settled = false;
    const finish = (settle) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      settle();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    call.then(
      (value) => finish(() => resolve(value)),
      (error) => finish(() => reject({ thrown: error })),
    );
  });
}

/**
 * The attempt's signal, for callModel to pass on: it aborts when the caller's
 * does or the deadline passes. It is the one clock of the attempt, so the
 * call is never abandoned with its signal still live.
 */
export function attemptSignal(signal, deadline) {
  if (!signal && deadline === Infinity) return new UnboundedAttempt();
  return boundedAttempt(signal, deadline);
}

/** The deadline's abort reason. */
function deadlineReason() {
  const error = new Error("The guarded call's deadline passed");
  error.name = "TimeoutError";
  return error;
}

/**
 * `attemptSignal` for an attempt the caller's signal or a deadline can
 * abort. Apart, as its closures would make its variables a scope object
 * on every call, bounded or not.
 */
function boundedAttempt(signal, deadline) {
  const controller = new AbortController();
  const cleanups = [];
  let timedOut = false;
  if (signal) {
    const forward = () => controller.abort(abortReason(signal));
    if (signal.aborted) forward();
    else {
      signal.addEventListener("abort", forward, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", forward));
    }
  }
  const expire = () => {
    if (controller.signal.aborted) return;
    timedOut = true;
    controller.abort(deadlineReason());
  };
  if (deadline !== Infinity) {
    const timer = setTimeout(expire, Math.max(0, deadline - now()));
    cleanups.push(() => clearTimeout(timer));
  }
  return {
    signal: controller.signal,
    bounded: Boolean(signal) || deadline !== Infinity,
    deadline,
    /**
     * What the deadline's timer does, for a reader that found the deadline
     * passed before the timer could run (a stream that never lets the
     * event loop turn).
     */
    expire,
    timedOut: () => timedOut,
    /** Aborts the attempt's signal (a stream stopped early). */
    abort: (reason) => controller.abort(reason),
    release: () => cleanups.forEach((f) => f()),
  };
}

/**
 * The signal of an attempt that neither the caller nor a deadline can
 * abort: made when callModel first reads it (an AbortController costs more
 * than the rest of an attempt's bookkeeping), or when a stream stopped
 * early aborts it. A class: an object literal with a getter and three
 * closures, made for every attempt, cost more than the rest of its
 * bookkeeping too.
 */
class UnboundedAttempt {
  constructor() {
    this.controller = undefined;
    this.bounded = false;
    this.deadline = Infinity;
  }
  made() {
    this.controller ??= new AbortController();
    return this.controller;
  }
  get signal() {
    return this.made().signal;
  }
  timedOut() {
    return false;
  }
  expire() {}
  abort(reason) {
    this.made().abort(reason);
  }
  release() {}
}

/** The descriptor of every AttemptContext's `signal`, set as the class is made. */
let SIGNAL;

/**
 * callModel's second argument: `signal` (an own, enumerable member, so a
 * spread copy such as `{ ...context, timeout }` keeps it), read when
 * callModel reads it (see `UnboundedAttempt`), and `attempt`. On Node an
 * object literal with a getter cost 0.4 µs to make, about a tenth of an
 * attempt's bookkeeping, and an AttemptContext, an own accessor defined
 * from one shared descriptor, 0.13 µs; on Bun the literal costs half as
 * much as the class (0.04 and 0.08 µs), and is made there.
 */
function attemptContext(attempt, calls) {
  if (!LITERAL_CONTEXTS) return new AttemptContext(attempt, calls);
  return {
    get signal() {
      return attempt.signal;
    },
    attempt: calls,
  };
}
/** Whether contexts are object literals (see `attemptContext`): on Bun. */
const LITERAL_CONTEXTS = globalThis.process?.versions?.bun !== undefined;

class AttemptContext {
  #attempt;
  constructor(attempt, calls) {
    this.#attempt = attempt;
    Object.defineProperty(this, "signal", SIGNAL);
    this.attempt = calls;
  }
  static {
    SIGNAL = {
      get() {
        return this.#attempt.signal;
      },
      enumerable: true,
      configurable: true,
    };
  }
}

/** The option names of guardedCall and of guardedStream, as the core lists them. */
const optionNames = new Map();
function knownOptions(api) {
  let known = optionNames.get(api);
  if (known === undefined) {
    const { own, check, stream } = guardOptionNames();
    known = new Set(api === "guardedStream" ? [...own, ...stream, ...check] : [...own, ...check]);
    optionNames.set(api, known);
  }
  return known;
}

/** The names of the options each check takes, as the core lists them. */
let checkNames;

/**
 * The options as `readOptions` gives them, each undefined until read:
 * `usageOf` is `usage`, `budgetsText` the budgets as JSON text, `record`
 * the stats' record function, `checkOptions` those each check takes (as
 * the core names them).
 */
class GuardOptions {
  constructor(schema) {
    this.schema = schema;
    this.signal = undefined;
    this.read = undefined;
    this.usageOf = undefined;
    this.onAttempt = undefined;
    this.appendFeedback = undefined;
    this.onText = undefined;
    this.strict = undefined;
    this.hasTools = undefined;
    this.retry = undefined;
    this.deadlineMs = undefined;
    this.budgetsText = "null";
    this.record = undefined;
    /** `options.telemetry` as read; once the call is prepared, the call's telemetry (js/telemetry.mjs). */
    this.telemetry = undefined;
    this.checkOptions = NO_CHECK_OPTIONS;
    /** The provider's `strict` flag of the schema (the request's, or a response-format wrapper's), reported on every verdict. */
    this.providerStrict = undefined;
    /** The call's session, once `prepare` opened it. */
    this.session = undefined;
  }
}

/**
 * The options read and checked, for `api` (guardedCall, or guardedStream,
 * which takes its own option names too, and calls its model function
 * `model`). A plain object's members other than its own are
 * Object.prototype's, so only its own names are read (most calls give one
 * or two of the options); an object with a prototype of its own may
 * inherit options, and is asked for every name. Each is read once.
 */
function readOptions(request, callModel, options = {}, api = "guardedCall", model = "callModel") {
  if (typeof callModel !== "function") throw argumentError(`${api} needs ${model}(request) as a function`);
  if (options === null || typeof options !== "object") throw argumentError(`${api} needs options with a schema`);
  const known = knownOptions(api);
  const keys = Object.keys(options);
  for (const key of keys) {
    if (!known.has(key)) throw argumentError(`"${displayText(key.slice(0, 40))}" is not an option of ${api}; its options are ${[...known].join(", ")}`);
  }
  const { schema } = options;
  // Without the option, the schema the request gives its provider.
  const given = schema === undefined || schema === null ? requestSchema(request) : undefined;
  if (given === undefined && (schema === undefined || schema === null)) {
    throw argumentError(`${api} needs options.schema, or a request that gives its provider a schema (this one has none at ${requestSchemaPlaces().join(", ")})`);
  }
  const o = new GuardOptions(given === undefined ? schema : given.schema);
  for (const name of Object.getPrototypeOf(options) === Object.prototype ? keys : known) {
    if (name !== "schema") readOption(o, name, options[name]);
  }
  if (given !== undefined) takeRequestSchema(o, given);
  return o;
}

/**
 * What a schema read from the request brings with it, where the caller's
 * options say nothing: its dialect, the forced tool whose call carries the
 * output, and the provider's strict flag (reported, never a change to the
 * guard's own strictness).
 */
function takeRequestSchema(o, given) {
  const setCheck = (name, value) => {
    if (value === undefined || o.checkOptions[name] !== undefined) return;
    if (o.checkOptions === NO_CHECK_OPTIONS) o.checkOptions = {};
    o.checkOptions[name] = value;
  };
  setCheck("toolName", given.toolName);
  if (given.dialect !== "json-schema") setCheck("dialect", given.dialect);
  o.providerStrict = given.strict;
}

/** Checks option `name`'s `value` and keeps it in `o` (see `readOptions`). */
function readOption(o, name, value) {
  if (value === undefined) return;
  switch (name) {
    case "read":
    case "usage":
    case "onAttempt":
    case "appendFeedback":
    case "onText":
    case "onToolCall":
      if (typeof value !== "function") throw argumentError(`options.${name} must be a function`);
      o[name === "usage" ? "usageOf" : name] = value;
      return;
    case "strict":
    case "hasTools":
      if (typeof value !== "boolean") throw argumentError(`options.${name} must be a boolean, not ${typeof value}`);
      o[name] = value;
      return;
    case "signal":
      if (value === null || typeof value.aborted !== "boolean" || typeof value.addEventListener !== "function") {
        throw argumentError("options.signal must be an AbortSignal");
      }
      o.signal = value;
      return;
    case "retry":
      // The mode's names are the core's to read; only a value JSON cannot carry is refused here.
      if (value !== null && typeof value !== "string") {
        throw argumentError(`options.retry must be "identical" (or "resample"), or "repair", not ${typeof value}`);
      }
      o.retry = value;
      return;
    case "deadlineMs":
      if (!(typeof value === "number" && value > 0 && value <= 2 ** 31 - 1)) {
        throw argumentError("options.deadlineMs must be a number of milliseconds above 0 (at most 2147483647)");
      }
      o.deadlineMs = value;
      return;
    case "budgets":
      if (value !== null && typeof value === "object") rejectNonFinite("options.budgets", value);
      o.budgetsText = jsonText("options.budgets", value);
      return;
    case "stats":
      o.record = statsRecorder(value);
      return;
    case "telemetry":
      o.telemetry = readTelemetry(value);
      return;
    default:
      checkNames ??= new Set(guardOptionNames().check);
      if (!checkNames.has(name)) return;
      if (o.checkOptions === NO_CHECK_OPTIONS) o.checkOptions = {};
      o.checkOptions[name] = value;
  }
}

/**
 * The usage of a response for the session (see `usageOfResponse` and `usageRead`), never
 * throwing: a response whose usage cannot be read along the usage plan (a
 * revoked Proxy, a BigInt somewhere) still has it read from the members
 * providers keep it in.
 */
function usageOf(response) {
  try {
    if (response === undefined || response === null) return textRead("null");
    if (typeof response !== "object") return textRead(jsonText("the usage", response));
    return usageOfResponse(response);
  } catch {
    return textRead(fallbackUsageText(response));
  }
}

/** The usage of a response whose usage plan could not be read, as JSON text, never throwing. */
function fallbackUsageText(response) {
  const members = {};
  for (const key of ["usage", "usageMetadata", "usage_metadata", "meta"]) {
    let member;
    try {
      member = memberOf(response, key);
    } catch {
      // This member cannot be read either.
    }
    const copy = readableCopy(member);
    if (copy !== undefined) members[key] = copy;
  }
  try {
    return jsonText("the usage", members);
  } catch {
    return "{}";
  }
}

/**
 * What can be read of a usage object, never throwing: its own enumerable
 * members, each read once, a member whose getter throws (or an object
 * that cannot even list its members, a revoked Proxy) left out, as are
 * numbers that are not finite and BigInts past 2^53; at most
 * `READABLE_VALUES` values in all, to the depth the readers copy usage to.
 * For usage whose reading along the usage plan threw: the counts that can
 * be read still count.
 */
export function readableCopy(value) {
  return readableValue(value, 0, { left: READABLE_VALUES });
}
const READABLE_VALUES = 4096;

function readableValue(value, depth, budget) {
  if (--budget.left < 0) return undefined;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : undefined;
    case "bigint":
      return Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (depth >= readPlansDepth()) return null;
  let out;
  try {
    if (Array.isArray(value)) {
      out = [];
      for (let i = 0; i < value.length && budget.left > 0; i++) {
        let item;
        try {
          item = value[i];
        } catch {
          // Left out, as null.
        }
        out.push(readableValue(item, depth + 1, budget) ?? null);
      }
      return out;
    }
    out = {};
    const names = Object.keys(value);
    for (let i = 0; i < names.length && budget.left > 0; i++) {
      let member;
      try {
        member = value[names[i]];
      } catch {
        continue;
      }
      const copy = readableValue(member, depth + 1, budget);
      if (copy !== undefined) out[names[i]] = copy;
    }
    return out;
  } catch {
    return out;
  }
}

/** The depth the readers copy usage to (`deep_limit`); 16, as the core has it, should the plans be unreadable (an instance being replaced). */
function readPlansDepth() {
  try {
    return readPlans().deep_limit;
  } catch {
    return 16;
  }
}

/** What the caller's `usage(response)` returned, as JSON text read as mergeUsage reads a usage. */
function callerUsageText(usage) {
  if (usage === undefined) return "null";
  return jsonText("the usage", usage !== null && typeof usage === "object" ? readCopy("the usage", usage, "usage") : usage);
}

/**
 * Everything decided before the first model call: the options read and
 * checked, the schema compiled, the session made. A mistake there is the
 * caller's and should cost no tokens; a hostile argument (a revoked Proxy)
 * is a typed error.
 */
export function prepare(request, callModel, options, api, model) {
  const o = readOptions(request, callModel, options, api, model);
  // Before the session opens: telemetry chains the call's onAttempt and stats record, which the session's setup reads.
  if (o.telemetry !== undefined) attachTelemetry(o, request, api ?? "guardedCall");
  o.session = openSession(request, o);
  // A response-format wrapper given as the schema carries the provider's flag too.
  o.providerStrict ??= o.session.from.strict;
  return o;
}

export function guardedCall(request, callModel, options) {
  let o;
  try {
    o = prepare(request, callModel, options);
  } catch (error) {
    return Promise.reject(typedError("guardedCall", error));
  }
  if (o.telemetry !== undefined) {
    return traced(o, callModel, (model) => run(request, model, o, o.session), () => o.session.free());
  }
  return run(request, callModel, o, o.session);
}

/**
 * The request of a repair attempt: the caller's appender, or the one the
 * session named for the provider, adds the step's feedback to the original
 * request. An appender that throws, or returns nothing, fails the call.
 */
function repairedRequest(o, request, step, ends) {
  const append = o.appendFeedback ?? appenderNamed(step.appender);
  return ends.callback("appendFeedback", () => {
    const next = append(request, step.feedback);
    // Sent as is, undefined would reach the model as the request.
    if (next === undefined || next === null) {
      throw argumentError(`options.appendFeedback returned ${next}, not the request to send`);
    }
    return next;
  });
}

/**
 * How a guarded call ends, for guardedCall and guardedStream alike, and its
 * state, which the attempt loop keeps up to date: `calls` (attempts made so
 * far), `response` (the last; only guardedCall's result and errors carry
 * one, `withResponse`) and `verdicts`. `when` words a callback's failure
 * ("after" an attempt, or "during" one).
 * - `record`: the stats' record of the call, from the session's ledger:
 *   each paid attempt's failure ("unreadable" for one without a verdict)
 *   and usage.
 * - `settled`: for a step that ends the call with a value (accepted, or
 *   lenient), the call recorded as such and its result; undefined for a
 *   step that goes on or rejects.
 * - `reject`: the StructuredOutputError, with every attempt's usage;
 *   `pastDeadline`: the one for a call whose deadline passed mid-attempt.
 * - `settleOrNext`: the attempt loop's tail, once an attempt's step is
 *   known, carrying out what the session decided (src/policy.rs).
 * - `callbackFailed`, `callback`: a caller's callback that throws after an
 *   attempt was paid for gives an error that carries every attempt's usage,
 *   and the stats count them; `callbackOf` calls `o[name](arg)` so.
 */
export function endings(session, o, when, withResponse) {
  return new Endings(session, o, when, withResponse);
}

/**
 * What `endings` gives: its methods on the prototype, and the loop's state
 * its own members, not closures over the loop's variables (on Bun, a
 * function whose variables a closure captures makes a scope object every
 * time it is entered: each an allocation of a guarded call's every attempt).
 */
class Endings {
  constructor(session, o, when, withResponse) {
    this.session = session;
    this.o = o;
    this.when = when;
    this.withResponse = withResponse;
    this.calls = 0;
    this.response = undefined;
    this.verdicts = [];
    /** The settled call's result, and the next attempt's request: see `settleOrNext`. */
    this.result = undefined;
    this.nextRequest = undefined;
  }

  record(outcome, stoppedBy, summary) {
    const { o } = this;
    if (!o.record) return;
    let attempts;
    let degraded = false;
    try {
      const read = summary ?? this.session.summary();
      attempts = read.attempts;
      degraded = read.audit.degraded;
    } catch {
      // The session went with an instance that trapped: nothing to count.
      attempts = [];
    }
    o.record({ outcome, stoppedBy, attempts, degraded });
  }

  /** A step's verdict as the caller sees it: with the provider's strict flag, where the schema has one. */
  verdict(step) {
    const { verdict } = step;
    if (this.o.providerStrict !== undefined) verdict.providerStrict = this.o.providerStrict;
    this.verdicts.push(verdict);
    return verdict;
  }

  settled(step) {
    const { action, verdict, summary } = step;
    const accepted = action === "accept";
    if (!accepted && action !== "return_with_warning") return undefined;
    const outcome = accepted ? "accepted" : "lenient";
    this.record(outcome, outcome, summary);
    const result = { value: accepted ? verdict.value : step.lenientValue };
    if (this.withResponse) result.response = this.response;
    result.attempts = this.calls;
    result.usage = summary.usage;
    if (accepted) result.rescue = verdict.rescue;
    else result.warning = step.warning;
    result.verdicts = this.verdicts;
    result.degraded = summary.audit.degraded;
    result.audit = summary.audit;
    return result;
  }

  reject(message, failure, errors, stoppedBy, summary) {
    this.record("rejected", stoppedBy, summary);
    const { calls, response, verdicts } = this;
    return new StructuredOutputError(message, {
      failure,
      errors,
      attempts: calls,
      usage: summary.usage,
      response,
      verdicts,
      stoppedBy,
      degraded: summary.audit.degraded,
      audit: summary.audit,
    });
  }

  /**
   * The StructuredOutputError of a call whose deadline passed during attempt
   * `calls`: the last verdict's failure and issues, if an attempt had one.
   */
  pastDeadline() {
    const last = this.verdicts.at(-1);
    const summary = this.session.summary(this.o.deadlineMs, this.calls);
    return this.reject(summary.message, last ? last.failure : "deadline", last ? last.errors : [], "deadline", summary);
  }

  /**
   * The end of an attempt whose `step` (and `verdict`, see `verdict`) the
   * session gave, as the session decided (src/policy.rs): true when the
   * call settled, its result then in `result`; false when another attempt
   * follows, its request then in `nextRequest` (the caller's `request`
   * again for a resample, with the step's feedback for a repair); thrown,
   * the StructuredOutputError of a rejection.
   */
  settleOrNext(step, verdict, request) {
    const result = this.settled(step);
    if (result !== undefined) {
      this.result = result;
      return true;
    }
    switch (step.action) {
      case "resample":
        this.nextRequest = request;
        return false;
      case "repair":
        this.nextRequest = repairedRequest(this.o, request, step, this);
        return false;
      default:
        throw this.reject(step.message, verdict.failure, verdict.errors, step.stoppedBy, step.summary);
    }
  }

  callbackFailed(name, error) {
    const summary = this.session.summary();
    this.record("error", undefined, summary);
    const { calls, response, verdicts } = this;
    const failed = new Error(`options.${name} threw ${this.when} attempt ${calls}; this error carries the usage of every attempt made, in \`usage\``, { cause: error });
    failed.name = "GuardCallbackError";
    failed.code = "callback_failed";
    failed.callback = name;
    failed.attempts = calls;
    failed.usage = summary.usage;
    failed.response = response;
    failed.verdicts = verdicts;
    return failed;
  }

  callback(name, fn) {
    try {
      return fn();
    } catch (error) {
      throw this.callbackFailed(name, error);
    }
  }

  callbackOf(name, arg) {
    try {
      return this.o[name](arg);
    } catch (error) {
      throw this.callbackFailed(name, error);
    }
  }
}

/** The attempts of a guarded call, its session freed (or kept idle) as it ends. */
async function run(request, callModel, o, session) {
  try {
    const deadline = o.deadlineMs === undefined ? Infinity : now() + o.deadlineMs;
    let nextRequest = request;
    // The attempts, the last response and the verdicts are the endings' members.
    const ends = endings(session, o, "after", true);

    for (;;) {
      if (o.signal?.aborted) {
        ends.record("error", "aborted");
        throw abortReason(o.signal);
      }
      const calls = ++ends.calls;
      const attempt = attemptSignal(o.signal, deadline);
      let response;
      try {
        const context = attemptContext(attempt, calls);
        if (attempt.bounded) {
          response = await callWithin(callModel, nextRequest, context, attempt);
        } else {
          // Nothing can abort this attempt: callModel is called a turn
          // later, as `callWithin` calls it, and what it throws or rejects
          // with is the call's failure.
          await null;
          try {
            response = await callModel(nextRequest, context);
          } catch (error) {
            throw { thrown: error };
          }
        }
      } catch (outcome) {
        if (outcome.deadline) throw ends.pastDeadline();
        ends.record("error", outcome.aborted !== undefined ? "aborted" : undefined);
        throw outcome.aborted !== undefined ? outcome.aborted : outcome.thrown;
      } finally {
        attempt.release();
      }
      ends.response = response;
      let usage;
      let usageRead;
      if (o.usageOf) {
        try {
          usage = o.usageOf(response);
          usageRead = textRead(callerUsageText(usage));
        } catch (error) {
          // The built-in reading, so that no paid token is lost.
          session.recordUnchecked(usageOf(response));
          throw ends.callbackFailed("usage", error);
        }
      } else {
        usageRead = usageOf(response);
      }
      let output = response;
      if (o.read) {
        try {
          output = o.read(response);
        } catch (error) {
          session.recordUnchecked(usageRead);
          throw ends.callbackFailed("read", error);
        }
      }
      let read;
      // A first attempt the lane accepts ends the call without a step (see `acceptFirst`).
      let step;
      try {
        step = session.acceptFirst(output, usageRead);
        if (step === undefined) read = session.read(output);
      } catch (error) {
        // A response that cannot even be read (a cycle, a BigInt): a typed
        // error for the caller, and the attempt's tokens still counted.
        session.recordUnchecked(usageRead);
        ends.record("error");
        throw error;
      }
      try {
        step ??= session.step(read, usageRead, Boolean(o.signal?.aborted), now() >= deadline);
      } catch (error) {
        ends.record("error");
        throw error;
      }
      const { action, stoppedBy } = step;
      const verdict = ends.verdict(step);
      if (o.onAttempt) {
        ends.callbackOf("onAttempt", { attempt: calls, verdict, usage: o.usageOf ? usage : step.usage, action, stoppedBy });
      }
      if (ends.settleOrNext(step, verdict, request)) return ends.result;
      nextRequest = ends.nextRequest;
    }
  } finally {
    // Kept idle or freed, however the call ends.
    session.free();
  }
}

// OpenTelemetry spans and metrics of guardedCall and guardedStream, when
// `options.telemetry` asks for them: one span for the guarded call and a
// child span per attempt, and counters and histograms that mirror
// createGuardStats(). Without the option nothing here runs: the guarded
// call reads one member more, and `@opentelemetry/api` is never imported.
// With a tracer or a meter the caller passes, it is not imported either
// (their methods are all this file calls); `telemetry: true` imports it,
// once, for the global providers.
//
// What is known of an attempt or a call is what the core decided: the
// verdict, the step's action and stop reason, the session's record of every
// attempt (its failure class and usage) and the audit. This file only names
// those facts as attributes; it never reads the output or the request's
// text, and an issue path (which names the output's own keys) is redacted
// by the core's rule for credentials before it becomes an attribute.
import { argumentError } from "./errors.mjs";
import { callRaw, raw } from "./wasm-instance.mjs";
import { readRequestShape } from "./session.mjs";
import { redactPath, validatorVersion } from "./schema-tools.mjs";
import { normalizeUsage } from "./check.mjs";

/** The OpenTelemetry status codes (`SpanStatusCode` of @opentelemetry/api). */
const STATUS_OK = 1;
const STATUS_ERROR = 2;
/** `SpanKind.INTERNAL`: the guard's spans wrap the client's own. */
const KIND_INTERNAL = 0;

const SCOPE = "structured-output-guard";

/**
 * `options.telemetry`, read and checked: `true` (the global providers, read
 * when the call starts) or `{ tracer?, meter? }` with at least one of them.
 */
export function readTelemetry(value) {
  if (value === true) return { global: true, tracer: undefined, meter: undefined };
  if (value === null || typeof value !== "object") {
    throw argumentError(`options.telemetry must be true or { tracer, meter } (an OpenTelemetry Tracer, Meter or both), not ${value === null ? "null" : typeof value}`);
  }
  // A plain object's own members only: a member Object.prototype holds (a pollution) is not the caller's.
  const plain = Object.getPrototypeOf(value) === Object.prototype;
  const tracer = plain && !Object.hasOwn(value, "tracer") ? undefined : value.tracer;
  const meter = plain && !Object.hasOwn(value, "meter") ? undefined : value.meter;
  if (tracer !== undefined && (tracer === null || typeof tracer.startActiveSpan !== "function")) {
    throw argumentError("options.telemetry.tracer must be an OpenTelemetry Tracer (with startActiveSpan), as trace.getTracer() gives one");
  }
  if (meter !== undefined && (meter === null || typeof meter.createCounter !== "function" || typeof meter.createHistogram !== "function")) {
    throw argumentError("options.telemetry.meter must be an OpenTelemetry Meter (with createCounter and createHistogram), as metrics.getMeter() gives one");
  }
  if (tracer === undefined && meter === undefined) {
    throw argumentError("options.telemetry needs a tracer, a meter or both (or true for the global providers)");
  }
  return { global: false, tracer, meter };
}

/** The instrumentation scope's version: the package's, as the core names it. */
function scopeVersion() {
  const match = /^structured-output-guard\/(\S+)/.exec(validatorVersion());
  return match ? match[1] : undefined;
}

/** The global tracer and meter, from @opentelemetry/api, imported the first time they are asked for. */
let globals;
function globalProviders() {
  // A specifier in a variable: bundlers leave the optional peer dependency
  // alone, and a browser build never looks for it unless asked.
  const name = "@opentelemetry/api";
  globals ??= import(/* webpackIgnore: true */ /* @vite-ignore */ name).then(
    (api) => {
      const version = scopeVersion();
      return { tracer: api.trace.getTracer(SCOPE, version), meter: api.metrics.getMeter(SCOPE, version) };
    },
    (error) => {
      globals = undefined;
      const failed = argumentError(`options.telemetry: true needs the package @opentelemetry/api, which could not be imported (${String(error?.message ?? error).slice(0, 200)}); install it, or pass { tracer, meter }`);
      failed.cause = error;
      throw failed;
    },
  );
  return globals;
}

/** Each meter's instruments, made once. */
const instrumentsOf = new WeakMap();

function instruments(meter) {
  let made = instrumentsOf.get(meter);
  if (made !== undefined) return made;
  const counter = (name, description, unit) => meter.createCounter(name, { description, unit });
  const histogram = (name, description, unit, boundaries) =>
    meter.createHistogram(name, { description, unit, advice: boundaries ? { explicitBucketBoundaries: boundaries } : undefined });
  made = {
    calls: counter("structured_output.guard.calls", "Guarded calls that ended", "{call}"),
    accepted: counter("structured_output.guard.accepted", "Guarded calls whose output was accepted", "{call}"),
    acceptedFirstTry: counter("structured_output.guard.accepted_first_try", "Guarded calls accepted at their first attempt", "{call}"),
    rejected: counter("structured_output.guard.rejected", "Guarded calls rejected, by the failure class of their last attempt", "{call}"),
    lenient: counter("structured_output.guard.lenient", "Guarded calls that returned on the lenient path (strict: false)", "{call}"),
    errors: counter("structured_output.guard.errors", "Guarded calls that ended in an error (the model call threw, the caller aborted, a callback threw)", "{call}"),
    degraded: counter("structured_output.guard.degraded", "Guarded calls whose schema could not be applied", "{call}"),
    stops: counter("structured_output.guard.stops", "Guarded calls by the reason they stopped", "{call}"),
    attempts: histogram("structured_output.guard.attempts", "Attempts per guarded call", "{attempt}", [1, 2, 3, 4, 5, 6, 8, 11]),
    failedAttempts: counter("structured_output.guard.failed_attempts", "Attempts whose output failed, by failure class", "{attempt}"),
    tokens: counter("structured_output.guard.tokens", "Tokens of every attempt of guarded calls", "{token}"),
    failedAttemptTokens: counter("structured_output.guard.failed_attempt_tokens", "Tokens spent on attempts whose output failed", "{token}"),
    streamBytes: histogram("structured_output.stream.bytes", "Bytes of text a streamed attempt received before it ended or was stopped", "By"),
    stoppedEarly: counter("structured_output.stream.stopped_early", "Streamed attempts stopped at their first definite rejection", "{attempt}"),
  };
  instrumentsOf.set(meter, made);
  return made;
}

/** A number of tokens, when it is one. */
const count = (n) => (typeof n === "number" && Number.isFinite(n) ? n : undefined);

/**
 * What a request tells about itself: its model (`model`, when a string) and
 * the provider and operation its shape names, as the core guesses them.
 * Read once per call, never failing it.
 */
function requestNames(request) {
  try {
    const { shape, text } = readRequestShape(request);
    const key = `${shape.join("")} ${text}`;
    let names = namesOf.get(key);
    if (names === undefined) {
      const written = callRaw(() => raw.requestTelemetryNames(Uint8Array.from(shape), text ?? undefined));
      const { provider, operation } = written === undefined ? {} : JSON.parse(written);
      names = { model: text ?? undefined, provider, operation };
      if (namesOf.size >= 64) namesOf.clear();
      namesOf.set(key, names);
    }
    return names;
  } catch {
    return {};
  }
}

/** The names of the latest requests' shapes and models: an agent's calls repeat a few. */
const namesOf = new Map();

/**
 * Sets up the telemetry of one guarded call, after its options were read
 * and before its session opens: the call's `onAttempt` and stats record
 * are chained with this call's, which is how the core's per-attempt facts
 * (and its record of every attempt) reach the spans and the metrics.
 */
export function attachTelemetry(o, request, api) {
  const call = new CallTelemetry(o.telemetry, api, request);
  o.telemetry = call;
  const { onAttempt, record } = o;
  // The caller's usage(response) gives the caller's shape of usage: normalised here, as the core reads it.
  const normalize = api === "guardedCall" && o.usageOf !== undefined;
  // A stream's attempts report their bytes to the metrics too.
  if (call.wantsSpans || (call.wantsMetrics && api === "guardedStream")) {
    o.onAttempt = (event) => {
      call.attemptEnded(event, normalize);
      if (onAttempt !== undefined) return onAttempt(event);
      return undefined;
    };
  }
  if (call.wantsMetrics) {
    o.record = (facts) => {
      if (record !== undefined) record(facts);
      call.recorded(facts);
    };
  }
}

/** One guarded call's telemetry (see `attachTelemetry` and `traced`). */
class CallTelemetry {
  constructor(given, api, request) {
    this.given = given;
    this.api = api;
    this.names = requestNames(request);
    this.tracer = given.tracer;
    this.meter = given.meter;
    this.wantsSpans = given.global || given.tracer !== undefined;
    this.wantsMetrics = given.global || given.meter !== undefined;
    /** The span of the attempt running, until its verdict or the call's end. */
    this.attemptSpan = undefined;
  }

  /** The attributes every span of the call carries (those known of its request). */
  common(attributes) {
    const { model, provider, operation } = this.names;
    if (operation !== undefined) attributes["gen_ai.operation.name"] = operation;
    if (provider !== undefined) attributes["gen_ai.provider.name"] = provider;
    if (model !== undefined) attributes["gen_ai.request.model"] = model;
    return attributes;
  }

  /** The low-cardinality attributes of a metric: provider, model, and what is given. */
  metricAttributes(extra) {
    const attributes = {};
    const { model, provider } = this.names;
    if (provider !== undefined) attributes["gen_ai.provider.name"] = provider;
    if (model !== undefined) attributes["gen_ai.request.model"] = model;
    return Object.assign(attributes, extra);
  }

  spanName(suffix) {
    const { model } = this.names;
    return `${this.api}${suffix}${model === undefined ? "" : ` ${model}`}`;
  }

  /**
   * The caller's model function, each call of it inside its attempt's span,
   * made the active span while it runs, so that the spans the provider's
   * SDK starts there are the attempt's children.
   */
  wrapModel(model) {
    if (this.tracer === undefined) return model;
    return (request, context) => {
      const attributes = this.common({ "structured_output.attempt": context.attempt });
      let entered = false;
      try {
        return this.tracer.startActiveSpan(this.spanName(".attempt"), { kind: KIND_INTERNAL, attributes }, (span) => {
          entered = true;
          this.endAttempt(undefined);
          this.attemptSpan = span;
          return model(request, context);
        });
      } catch (error) {
        // What the model function threw is the attempt's; a tracer that throws before calling it is not.
        if (entered) throw error;
        return model(request, context);
      }
    };
  }

  /** An attempt's verdict came (the step's event, as onAttempt receives it): its span ends with it. */
  attemptEnded(event, normalize) {
    try {
      if (this.meter !== undefined && event.bytes !== undefined) {
        const made = instruments(this.meter);
        made.streamBytes.record(event.bytes, this.metricAttributes({ "structured_output.stream.stopped_early": event.stoppedEarly }));
        if (event.stoppedEarly) made.stoppedEarly.add(1, this.metricAttributes({ "structured_output.failure": event.verdict.failure }));
      }
      const span = this.attemptSpan;
      if (span === undefined) return;
      this.attemptSpan = undefined;
      const usage = normalize ? safeNormalized(event.usage) : event.usage;
      span.setAttributes(attemptAttributes(event, usage));
      span.end();
    } catch {
      // Telemetry never fails the call.
    }
  }

  /** Ends the attempt span still open (the attempt threw, or was aborted) with what ended the call. */
  endAttempt(error) {
    const span = this.attemptSpan;
    if (span === undefined) return;
    this.attemptSpan = undefined;
    try {
      if (error !== undefined) span.setAttribute("error.type", errorType(error));
      span.end();
    } catch {
      // Telemetry never fails the call.
    }
  }

  /** The stats record of the call (see `Endings.record`): the metrics. */
  recorded({ outcome, stoppedBy, attempts, degraded }) {
    try {
      const made = instruments(this.meter);
      const plain = this.metricAttributes({});
      made.calls.add(1, plain);
      made.attempts.record(attempts.length, plain);
      if (outcome === "accepted") {
        made.accepted.add(1, plain);
        if (attempts.length === 1) made.acceptedFirstTry.add(1, plain);
      } else if (outcome === "rejected") {
        const last = attempts.findLast((a) => a.failure);
        made.rejected.add(1, this.metricAttributes({ "structured_output.failure": last?.failure ?? stoppedBy ?? "unknown" }));
      } else if (outcome === "lenient") {
        made.lenient.add(1, plain);
      } else {
        made.errors.add(1, plain);
      }
      if (degraded) made.degraded.add(1, plain);
      if (stoppedBy) made.stops.add(1, this.metricAttributes({ "structured_output.stopped_by": stoppedBy }));
      for (const attempt of attempts) {
        const tokens = attempt.usage?.tokens;
        const input = count(tokens?.input);
        const output = count(tokens?.output);
        if (input) made.tokens.add(input, this.metricAttributes({ "gen_ai.token.type": "input" }));
        if (output) made.tokens.add(output, this.metricAttributes({ "gen_ai.token.type": "output" }));
        if (!attempt.failure) continue;
        const failure = { "structured_output.failure": attempt.failure };
        made.failedAttempts.add(1, this.metricAttributes(failure));
        if (input) made.failedAttemptTokens.add(input, this.metricAttributes({ ...failure, "gen_ai.token.type": "input" }));
        if (output) made.failedAttemptTokens.add(output, this.metricAttributes({ ...failure, "gen_ai.token.type": "output" }));
      }
    } catch {
      // Telemetry never fails the call.
    }
  }
}

/** A usage normalised, or undefined when it cannot be. */
function safeNormalized(usage) {
  try {
    return normalizeUsage(usage);
  } catch {
    return undefined;
  }
}

/** An attempt span's attributes at its verdict. */
function attemptAttributes(event, usage) {
  const { verdict, action, stoppedBy } = event;
  const attributes = { "structured_output.action": action };
  if (typeof verdict.finishReason === "string") attributes["gen_ai.response.finish_reasons"] = [verdict.finishReason];
  const tokens = usage?.tokens;
  if (count(tokens?.input) !== undefined) attributes["gen_ai.usage.input_tokens"] = tokens.input;
  if (count(tokens?.output) !== undefined) attributes["gen_ai.usage.output_tokens"] = tokens.output;
  verdictAttributes(verdict, attributes);
  if (stoppedBy) attributes["structured_output.stopped_by"] = stoppedBy;
  if (event.bytes !== undefined) {
    attributes["structured_output.stream.bytes"] = event.bytes;
    attributes["structured_output.stream.stopped_early"] = event.stoppedEarly;
    attributes["structured_output.stream.usage_reported"] = event.usageReported;
  }
  return attributes;
}

/** A verdict's attributes: its class, hashes and issues (codes and redacted paths), never its value or message. */
function verdictAttributes(verdict, attributes) {
  attributes["structured_output.accepted"] = verdict.ok === true;
  attributes["structured_output.rescue"] = verdict.rescue;
  attributes["structured_output.degraded"] = verdict.degraded === true;
  if (typeof verdict.schemaHash === "string") attributes["structured_output.schema_hash"] = verdict.schemaHash;
  if (verdict.ok) return;
  attributes["structured_output.failure"] = verdict.failure;
  if (typeof verdict.errorHash === "string") attributes["structured_output.error_hash"] = verdict.errorHash;
  const errors = Array.isArray(verdict.errors) ? verdict.errors : [];
  attributes["structured_output.issue.codes"] = errors.map((issue) => String(issue.code));
  attributes["structured_output.issue.paths"] = errors.map((issue) => redactPath(String(issue.path)));
  attributes["structured_output.issue.more"] = verdict.moreErrors === true;
}

/**
 * The low-cardinality name of what ended a call in error (`error.type`):
 * a StructuredOutputError's failure class, an error's code, or its name.
 */
function errorType(error) {
  if (error !== null && typeof error === "object") {
    if (error.name === "StructuredOutputError" && typeof error.failure === "string") return error.failure;
    if (typeof error.code === "string" && error.code !== "") return error.code;
    if (typeof error.name === "string" && error.name !== "") return error.name;
  }
  return "_OTHER";
}

/** The call span's attributes for a result. */
function resultAttributes(result) {
  const { audit } = result;
  const attributes = {
    // An accepted call's result has its rescue; a lenient one's, its warning.
    "structured_output.outcome": Object.hasOwn(result, "rescue") ? "accepted" : "lenient",
    "structured_output.attempts": result.attempts,
    "structured_output.degraded": result.degraded === true,
  };
  if (typeof result.rescue === "string") attributes["structured_output.rescue"] = result.rescue;
  auditAttributes(audit, attributes);
  usageAttributes(result.usage, attributes);
  const last = result.verdicts?.at(-1);
  if (typeof last?.finishReason === "string") attributes["gen_ai.response.finish_reasons"] = [last.finishReason];
  return attributes;
}

/** The audit's part of the call span: the stop reason, the schema hash, and the failure classes of the attempts. */
function auditAttributes(audit, attributes) {
  if (audit === null || typeof audit !== "object") return;
  if (typeof audit.stoppedBy === "string") attributes["structured_output.stopped_by"] = audit.stoppedBy;
  if (typeof audit.schemaHash === "string") attributes["structured_output.schema_hash"] = audit.schemaHash;
  if (Array.isArray(audit.attempts)) {
    attributes["structured_output.attempt.failures"] = audit.attempts.map((a) => a.failure ?? "none");
    const stopped = audit.attempts.filter((a) => a.stoppedEarly === true).length;
    if (audit.attempts.some((a) => a.bytes !== undefined)) {
      attributes["structured_output.stream.bytes"] = audit.attempts.reduce((sum, a) => sum + (count(a.bytes) ?? 0), 0);
      attributes["structured_output.stream.stopped_early"] = stopped > 0;
    }
  }
}

/** The merged usage of every attempt: the call's own (the attempt spans carry each attempt's as gen_ai.usage.*). */
function usageAttributes(usage, attributes) {
  const tokens = usage?.tokens;
  if (count(tokens?.input) !== undefined) attributes["structured_output.usage.input_tokens"] = tokens.input;
  if (count(tokens?.output) !== undefined) attributes["structured_output.usage.output_tokens"] = tokens.output;
}

/** The call span's attributes for a rejection or an error. */
function errorAttributes(error) {
  const attributes = { "structured_output.outcome": "error", "error.type": errorType(error) };
  if (error === null || typeof error !== "object") return attributes;
  if (error.name === "StructuredOutputError") {
    attributes["structured_output.outcome"] = "rejected";
    const last = error.verdicts?.at(-1);
    if (last !== undefined && !last.ok) verdictAttributes(last, attributes);
    if (typeof last?.finishReason === "string") attributes["gen_ai.response.finish_reasons"] = [last.finishReason];
    attributes["structured_output.failure"] = error.failure;
    if (typeof error.degraded === "boolean") attributes["structured_output.degraded"] = error.degraded;
    auditAttributes(error.audit, attributes);
  }
  if (typeof error.attempts === "number") attributes["structured_output.attempts"] = error.attempts;
  usageAttributes(error.usage, attributes);
  return attributes;
}

/**
 * Runs a guarded call with its telemetry (`o.telemetry`, as
 * `attachTelemetry` set it up): `run(model)` is the call's attempt loop,
 * given the model function wrapped in attempt spans; it runs inside the
 * call's span, made the active span so that each attempt's span is its
 * child. `release` frees what the call holds when the global providers
 * cannot be loaded and `run` is never entered.
 */
export async function traced(o, model, run, release) {
  const call = o.telemetry;
  if (call.given.global) {
    let providers;
    try {
      providers = await globalProviders();
    } catch (error) {
      release?.();
      throw error;
    }
    call.tracer = providers.tracer;
    call.meter = providers.meter;
  }
  const wrapped = call.wrapModel(model);
  if (call.tracer === undefined) return run(wrapped);
  const attributes = call.common({});
  let entered = false;
  try {
    return call.tracer.startActiveSpan(call.spanName(""), { kind: KIND_INTERNAL, attributes }, (span) => {
      entered = true;
      return runInSpan(call, span, wrapped, run);
    });
  } catch (error) {
    // A tracer that throws before running the call does not stop it.
    if (entered) throw error;
    return run(wrapped);
  }
}

/** The call run inside its span, which ends with the call's result or error. */
async function runInSpan(call, span, wrapped, run) {
  try {
    const result = await run(wrapped);
    call.endAttempt(undefined);
    try {
      span.setAttributes(resultAttributes(result));
      span.setStatus({ code: STATUS_OK });
      span.end();
    } catch {
      // Telemetry never fails the call.
    }
    return result;
  } catch (error) {
    call.endAttempt(error);
    try {
      span.setAttributes(errorAttributes(error));
      span.setStatus({ code: STATUS_ERROR, message: statusMessage(error) });
      span.end();
    } catch {
      // Telemetry never fails the call.
    }
    throw error;
  }
}

/**
 * The status description of a call that rejected: the guard's own message
 * (which never quotes the output) for its rejection; for anything else
 * only what kind of error it was, as its message may quote what the
 * guard cannot vouch for.
 */
function statusMessage(error) {
  if (error?.name === "StructuredOutputError" && typeof error.message === "string") return error.message;
  return errorType(error);
}

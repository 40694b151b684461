// guardedCall: the only part of the package that awaits. Every decision
// (may we retry? is this accepted?) is asked of the Rust core; this file
// calls the model, reads clocks and signals, and keeps the record.
import {
  checkBudgets,
  checkDetailed,
  guardOptionNames,
  jsonText,
  mergeUsage,
  rejectNonFinite,
  nextAction,
  normalizeUsage,
  repairFeedback,
  requestCarriesTools,
  validatorVersion,
  wrapperStrict,
} from "./facade.mjs";
import { StructuredOutputError, argumentError, typedError } from "./errors.mjs";
import { feedbackAppenderFor } from "./feedback.mjs";
import { statsRecorder } from "./stats.mjs";

function abortReason(signal) {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  return error;
}

function checkOptionsOf(options) {
  const picked = {};
  for (const key of ["maxErrors", "requireObject", "toolName", "formats", "draft", "rejectUnknownFields", "unknownFormats", "resources", "customFormats", "rules"]) {
    if (options[key] !== undefined) picked[key] = options[key];
  }
  return picked;
}

const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

/**
 * Settles with the model's response, or rejects when the attempt's signal
 * aborts: at once when the deadline passed, a moment later when the caller
 * aborted.
 */
function callWithin(callModel, request, context, attempt) {
  const call = Promise.resolve().then(() => callModel(request, context));
  if (!attempt.bounded) return call.catch((error) => Promise.reject({ thrown: error }));
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
function attemptSignal(signal, deadline) {
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
  if (deadline !== Infinity) {
    const timer = setTimeout(() => {
      if (controller.signal.aborted) return;
      timedOut = true;
      const error = new Error("The guarded call's deadline passed");
      error.name = "TimeoutError";
      controller.abort(error);
    }, Math.max(0, deadline - now()));
    cleanups.push(() => clearTimeout(timer));
  }
  return {
    signal: controller.signal,
    bounded: Boolean(signal) || deadline !== Infinity,
    timedOut: () => timedOut,
    release: () => cleanups.forEach((f) => f()),
  };
}

function readOptions(request, callModel, options) {
  if (typeof callModel !== "function") throw argumentError("guardedCall needs callModel(request) as a function");
  if (options === null || typeof options !== "object") throw argumentError("guardedCall needs options with a schema");
  const known = guardOptionNames();
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    throw argumentError(`"${unknown.slice(0, 40)}" is not an option of guardedCall; its options are ${known.join(", ")}`);
  }
  const { schema, signal, read, usage: usageOf, onAttempt, appendFeedback } = options;
  if (schema === undefined || schema === null) throw argumentError("guardedCall needs options.schema");
  for (const [name, fn] of [["read", read], ["usage", usageOf], ["onAttempt", onAttempt], ["appendFeedback", appendFeedback]]) {
    if (fn !== undefined && typeof fn !== "function") throw argumentError(`options.${name} must be a function`);
  }
  for (const name of ["strict", "hasTools"]) {
    if (options[name] !== undefined && typeof options[name] !== "boolean") {
      throw argumentError(`options.${name} must be a boolean, not ${typeof options[name]}`);
    }
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== "boolean" || typeof signal.addEventListener !== "function")) {
    throw argumentError("options.signal must be an AbortSignal");
  }
  // "identical" is the contract's name for resampling the identical request.
  const retry = options.retry === "identical" ? "resample" : options.retry ?? "resample";
  if (retry !== "resample" && retry !== "repair") {
    throw argumentError(`options.retry must be "identical" (or "resample"), or "repair", not ${typeof retry === "string" ? "another string" : typeof retry}`);
  }
  const { deadlineMs } = options;
  if (deadlineMs !== undefined && !(typeof deadlineMs === "number" && deadlineMs > 0 && deadlineMs <= 2 ** 31 - 1)) {
    throw argumentError("options.deadlineMs must be a number of milliseconds above 0 (at most 2147483647)");
  }
  if (options.budgets !== null && typeof options.budgets === "object") rejectNonFinite("options.budgets", options.budgets);
  const budgetsText = options.budgets === undefined ? "null" : jsonText("options.budgets", options.budgets);
  checkBudgets(budgetsText);
  const append = retry === "repair" ? appendFeedback ?? feedbackAppenderFor(request) : undefined;
  if (retry === "repair" && !append) {
    throw argumentError(
      'retry: "repair" needs options.appendFeedback(request, text) for this request shape (built in: OpenAI chat, OpenAI Responses, Anthropic messages, Gemini contents)',
    );
  }
  return { schema, signal, read, usageOf, onAttempt, retry, append, deadlineMs, budgetsText, record: statsRecorder(options.stats) };
}

/**
 * The usage in a response, never throwing: a response that cannot be
 * serialised whole (a cycle, a BigInt somewhere) still has its usage read
 * from the members providers keep it in.
 */
function usageOfResponse(response) {
  try {
    return normalizeUsage(response ?? null);
  } catch {
    const members = {};
    for (const key of ["usage", "usageMetadata", "usage_metadata", "meta"]) {
      try {
        if (response?.[key] !== undefined) members[key] = JSON.parse(JSON.stringify(response[key]));
      } catch {
        // This member cannot be read either.
      }
    }
    try {
      return normalizeUsage(members);
    } catch {
      return {};
    }
  }
}

/**
 * Everything decided before the first model call: the options read and
 * checked, the schema compiled. A mistake there is the caller's and should
 * cost no tokens; a hostile argument (a revoked Proxy) is a typed error.
 */
function prepare(request, callModel, options) {
  const o = readOptions(request, callModel, options);
  const strict = options.strict ?? wrapperStrict(o.schema) ?? true;
  const checkOptions = checkOptionsOf(options);
  // Unless asked to degrade, a schema that cannot compile throws here. The
  // compiled validator is cached, so the checks below reuse it.
  checkDetailed("{}", o.schema, { ...checkOptions, onInvalidSchema: options.onInvalidSchema ?? "throw" });
  if (options.onInvalidSchema !== undefined) checkOptions.onInvalidSchema = options.onInvalidSchema;
  const carriesTools = requestCarriesTools(request, options.hasTools);
  return { o, strict, checkOptions, carriesTools };
}

export async function guardedCall(request, callModel, options) {
  let prepared;
  try {
    prepared = prepare(request, callModel, options);
  } catch (error) {
    throw typedError("guardedCall", error);
  }
  const { o, strict, checkOptions, carriesTools } = prepared;
  const deadline = o.deadlineMs === undefined ? Infinity : now() + o.deadlineMs;

  const responses = [];
  const usages = [];
  const verdicts = [];
  const history = [];
  let nextRequest = request;
  let calls = 0;

  const auditOf = (stoppedBy) => ({
    attempts: verdicts.map((v) => ({ failure: v.ok ? null : v.failure, errorHash: v.ok ? null : v.errorHash, rescue: v.rescue })),
    schemaHash: verdicts.find((v) => v.schemaHash)?.schemaHash ?? null,
    validatorVersion: validatorVersion(),
    stoppedBy,
  });
  // The stats' record of this call. `pending`: the last attempt was paid
  // for but has no verdict (its response could not be checked).
  const record = (outcome, stoppedBy, pending = false) => {
    const attempts = verdicts.map((v, i) => ({ failure: v.ok ? null : v.failure, usage: usages[i] }));
    if (pending) attempts.push({ failure: "unreadable", usage: usages.at(-1) });
    o.record?.({ outcome, stoppedBy, attempts });
  };
  const reject = (message, failure, errors, stoppedBy) => {
    record("rejected", stoppedBy);
    return new StructuredOutputError(message, {
      failure,
      errors,
      attempts: calls,
      usage: mergeUsage(...usages),
      response: responses.at(-1),
      verdicts,
      stoppedBy,
      audit: auditOf(stoppedBy),
    });
  };

  // A caller's callback that throws after an attempt was paid for: the
  // error that propagates carries every attempt's usage, and the stats
  // count them. `pending`: the current attempt has no verdict yet.
  const callbackFailed = (name, error, pending) => {
    record("error", undefined, pending);
    const failed = new Error(`options.${name} threw after attempt ${calls}; this error carries the usage of every attempt made, in \`usage\``, { cause: error });
    failed.name = "GuardCallbackError";
    failed.code = "callback_failed";
    failed.callback = name;
    failed.attempts = calls;
    failed.usage = mergeUsage(...usages);
    failed.response = responses.at(-1);
    failed.verdicts = verdicts;
    return failed;
  };
  const callback = (name, fn, pending) => {
    try {
      return fn();
    } catch (error) {
      throw callbackFailed(name, error, pending);
    }
  };

  for (;;) {
    if (o.signal?.aborted) {
      record("error", "aborted");
      throw abortReason(o.signal);
    }
    calls += 1;
    const attempt = attemptSignal(o.signal, deadline);
    let response;
    try {
      response = await callWithin(callModel, nextRequest, { signal: attempt.signal, attempt: calls }, attempt);
    } catch (outcome) {
      if (outcome.deadline) {
        const last = verdicts.at(-1);
        throw reject(
          `No accepted output within the deadline of ${o.deadlineMs} ms (attempt ${calls} was still running)${last ? `; the last finished attempt failed: ${last.failure}` : ""}.`,
          last ? last.failure : "deadline",
          last ? last.errors : [],
          "deadline",
        );
      }
      record("error", outcome.aborted !== undefined ? "aborted" : undefined);
      throw outcome.aborted !== undefined ? outcome.aborted : outcome.thrown;
    } finally {
      attempt.release();
    }
    responses.push(response);
    if (o.usageOf) {
      try {
        usages.push(o.usageOf(response));
      } catch (error) {
        // The built-in reading, so that no paid token is lost.
        usages.push(usageOfResponse(response));
        throw callbackFailed("usage", error, true);
      }
    } else {
      usages.push(usageOfResponse(response));
    }
    const output = o.read ? callback("read", () => o.read(response), true) : response;
    let checked;
    try {
      checked = checkDetailed(output, o.schema, checkOptions);
    } catch (error) {
      // A response that cannot even be read (a cycle, a BigInt): a typed
      // error for the caller, and the attempt's tokens still counted.
      record("error", undefined, true);
      throw error;
    }
    const { verdict, parse } = checked;
    verdicts.push(verdict);
    history.push({ failure: verdict.ok ? null : verdict.failure, errorHash: verdict.ok ? null : verdict.errorHash });
    const decision = nextAction(
      history,
      o.budgetsText,
      carriesTools,
      Boolean(o.signal?.aborted),
      now() >= deadline,
      strict,
      o.retry === "repair",
    );
    if (o.onAttempt) {
      callback("onAttempt", () =>
        o.onAttempt({ attempt: calls, verdict, usage: usages[calls - 1], action: decision.action, stoppedBy: decision.stoppedBy }),
      );
    }
    switch (decision.action) {
      case "accept":
        record("accepted", "accepted");
        return {
          value: verdict.value,
          response,
          attempts: calls,
          usage: mergeUsage(...usages),
          rescue: verdict.rescue,
          verdicts,
          audit: auditOf("accepted"),
        };
      case "return_with_warning": {
        record("lenient", "lenient");
        const parsed = parse();
        return {
          value: parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null,
          response,
          attempts: calls,
          usage: mergeUsage(...usages),
          warning: `${verdict.failure}: ${verdict.message}`,
          verdicts,
          audit: auditOf("lenient"),
        };
      }
      case "resample":
        nextRequest = request;
        continue;
      case "repair": {
        const feedback = repairFeedback(verdict, o.schema);
        nextRequest = callback("appendFeedback", () => {
          const next = o.append(request, feedback);
          // Sent as is, undefined would reach the model as the request.
          if (next === undefined || next === null) {
            throw argumentError(`options.appendFeedback returned ${next}, not the request to send`);
          }
          return next;
        });
        continue;
      }
      default: {
        const why = {
          tools: "the request carries tools, so it is not retried",
          aborted: "the call was aborted",
          deadline: "the deadline passed",
          repeated_error: "the same error came twice in a row",
          budget: `no retries are left after ${calls} ${calls === 1 ? "attempt" : "attempts"}`,
        }[decision.stoppedBy] ?? decision.stoppedBy;
        throw reject(
          `The model's output was rejected (${verdict.failure}; ${why}). ${verdict.message}`,
          verdict.failure,
          verdict.errors,
          decision.stoppedBy,
        );
      }
    }
  }
}

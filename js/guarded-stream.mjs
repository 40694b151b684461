// guardedStream: guardedCall for a streamed answer. It iterates the model's
// stream, reads each event along the core's table of stream events
// (js/stream-read.mjs), pushes the text into a stream check and, at the
// first definite rejection, aborts the attempt's signal so the provider
// stops generating what can no longer be accepted. Which events carry
// what, whether a stream is stopped, how an attempt's usage reports add up
// and what happens after each attempt are the core's (the session of
// src/session.rs, stepped once per attempt with the verdict the stream
// check gave); this file only awaits, aborts, times and calls back.
import { jsonText, readCopy } from "./arguments.mjs";
import { streamReaders } from "./session.mjs";
import { argumentError, typedError } from "./errors.mjs";
import { abortReason, attemptSignal, endings, now, prepare as prepareCall, readableCopy } from "./guarded-call.mjs";
import { memberOf } from "./member-access.mjs";
import { StreamedCalls, readEvent } from "./stream-read.mjs";
import { ToolCallStreamCheck, toolsDeclared } from "./tool-call-stream.mjs";
import { traced } from "./telemetry.mjs";

export async function guardedStream(request, streamModel, options) {
  let o;
  try {
    o = prepareCall(request, streamModel, options, "guardedStream", "streamModel");
  } catch (error) {
    throw typedError("guardedStream", error);
  }
  const { session } = o;
  try {
    if (o.telemetry !== undefined) return await traced(o, streamModel, (model) => run(request, model, o, session));
    return await run(request, streamModel, o, session);
  } finally {
    session.free();
  }
}

/** The options a call's check takes: the output's, without the output's own toolName and rules. */
function toolCallOptions(o) {
  const { toolName, rules, ...rest } = o.checkOptions ?? {};
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/** Why a stream the check rejected was stopped: the reason its signal aborts with. */
function stopReason(state) {
  const error = new Error(`structured-output-guard stopped the stream: its output can no longer be accepted (${state.failure}). ${state.message}`);
  error.name = "AbortError";
  error.code = "stream_rejected";
  return error;
}

/** An outcome of the attempt other than its stream ending or being stopped. */
class Interrupted {
  constructor(kind, value) {
    this.kind = kind;
    this.value = value;
  }
}

/**
 * What interrupts the attempt when its signal aborts for the caller or the
 * deadline (not when the attempt itself stopped the stream): `outcome`
 * holds the Interrupted, for the read loop to look at between events, and
 * the event being waited for (see `nextEvent`) is rejected with it.
 */
class Interruption {
  constructor(clock, attempt) {
    this.outcome = undefined;
    /** Rejects the event being waited for, if any. */
    this.waiter = null;
    this.signal = clock.signal;
    this.onAbort = () => {
      if (attempt.stopping) return;
      this.outcome = clock.timedOut() ? new Interrupted("deadline") : new Interrupted("aborted", abortReason(clock.signal));
      this.waiter?.(this.outcome);
    };
    if (this.signal.aborted) this.onAbort();
    else this.signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /**
   * `promise`, or its rejection with the Interrupted once the attempt is
   * interrupted. One promise a wait, settled by whichever comes first: a
   * race against one promise kept for the whole attempt would add a
   * reaction to it at every event, which the garbage collector then
   * carried (on Node it took half the read loop's time).
   */
  race(promise) {
    if (this.outcome !== undefined) return Promise.reject(this.outcome);
    return new Promise((resolve, reject) => {
      this.waiter = reject;
      promise.then(resolve, reject);
    });
  }

  release() {
    this.waiter = null;
    this.signal.removeEventListener("abort", this.onAbort);
  }
}

/**
 * Milliseconds the read loop goes without a turn of the event loop: a
 * stream whose events resolve at once (an async generator that never
 * awaits anything but its own yields) would otherwise keep every timer
 * and every abort from firing, the deadline's and the caller's among them.
 * On such a stream a turn every 10 ms cost the read loop 0-3% of its time
 * on Node 20 and Bun 1.4 (2,000 rows in 7,579 events); a caller's abort
 * fires at most that late.
 */
const TURN_MS = 10;

/**
 * Events between two readings of the clock: reading it cost Node 20 about
 * 0.1 µs, a fourteenth of an event's handling, and an event costs at
 * least a promise's turn, so a deadline is found passed at most a handful
 * of events late.
 */
const CLOCK_EVENTS = 8;

/** A promise that settles on the next turn of the event loop, after the timers and I/O due. */
const nextTurn =
  typeof setImmediate === "function"
    ? () => new Promise((resolve) => setImmediate(resolve))
    : typeof MessageChannel === "function"
      ? () =>
          new Promise((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => {
              channel.port1.close();
              resolve();
            };
            channel.port2.postMessage(null);
          })
      : () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * What `options.read` returned for an event, as the read loop takes a
 * built-in reader's (see `readEvent` in js/stream-read.mjs): its `text`,
 * `finishReason` and `usage`, each an own member or a class's (never a
 * polluted Object.prototype's); a typed error for anything but an object.
 */
function callerRead(read) {
  if (read === null || typeof read !== "object") {
    throw new Interrupted("callback", { name: "read", error: argumentError(`options.read returned ${read === null ? "null" : typeof read}, not { text?, finishReason?, usage? }`) });
  }
  try {
    return { text: memberOf(read, "text"), finishReason: memberOf(read, "finishReason"), usage: memberOf(read, "usage"), usageKey: undefined, failed: false, error: undefined };
  } catch (error) {
    throw new Interrupted("callback", { name: "read", error });
  }
}

/** The iterator of what streamModel returned: an async iterable, or a plain iterable. */
function iteratorOf(stream) {
  if (stream !== null && (typeof stream === "object" || typeof stream === "function")) {
    if (typeof stream[Symbol.asyncIterator] === "function") return stream[Symbol.asyncIterator]();
    if (typeof stream[Symbol.iterator] === "function" && typeof stream !== "string") return stream[Symbol.iterator]();
  }
  throw argumentError(`streamModel must return an async iterable of chunks (or a promise of one), not ${stream === null ? "null" : typeof stream}`);
}

/** Ends an iterator left early, without waiting on it or minding how it ends. */
function leave(iterator) {
  if (iterator === undefined || typeof iterator.return !== "function") return;
  try {
    Promise.resolve(iterator.return()).catch(() => {});
  } catch {
    // An iterator that throws as it is left has nothing more to give.
  }
}

/**
 * Runs one attempt's stream to its end, or to the first definite rejection
 * (when the session stops streams), filling in `attempt`. Throws an
 * Interrupted for the caller's abort, the deadline, the stream throwing
 * (or reporting its own failure) and a callback throwing.
 */
async function runStream(streamModel, request, number, clock, check, attempt, o, readers, stopsEarly) {
  const waiting = new Interruption(clock, attempt);
  let iterator;
  const call = (name, fn) => {
    try {
      return fn();
    } catch (error) {
      throw new Interrupted("callback", { name, error });
    }
  };
  try {
    let stream;
    try {
      stream = streamModel(request, { signal: clock.signal, attempt: number });
    } catch (error) {
      throw new Interrupted("thrown", error);
    }
    if (stream !== null && typeof stream?.then === "function") {
      stream = await waiting.race(Promise.resolve(stream).catch((error) => Promise.reject(new Interrupted("thrown", error))));
    }
    try {
      iterator = iteratorOf(stream);
    } catch (error) {
      throw new Interrupted("thrown", error);
    }
    const { deadline } = clock;
    let turned = now();
    let events = 0;
    for (;;) {
      const next = Promise.resolve()
        .then(() => iterator.next())
        .catch((error) => Promise.reject(new Interrupted("thrown", error)));
      const step = await waiting.race(next);
      // The clock is read here every CLOCK_EVENTS events, not only by the
      // deadline's timer, and the event loop is let turn every TURN_MS, so
      // that neither the deadline nor the caller's abort waits on the
      // stream to let them fire.
      if (++events === CLOCK_EVENTS) {
        events = 0;
        const at = now();
        if (at >= deadline) clock.expire();
        else if (at - turned >= TURN_MS) {
          await nextTurn();
          turned = now();
        }
      }
      if (waiting.outcome !== undefined) throw waiting.outcome;
      if (step === null || typeof step !== "object") throw new Interrupted("thrown", argumentError("the stream's iterator returned a result that is not an object"));
      if (step.done) {
        iterator = undefined;
        return;
      }
      const chunk = step.value;
      const read = o.read ? callerRead(call("read", () => o.read(chunk))) : readEvent(chunk, readers);
      if (read.failed) throw new Interrupted("thrown", read.error);
      if (attempt.toolCalls !== undefined && (read.calls !== undefined || read.finishReason !== undefined) && !o.read) {
        const decided = attempt.toolCalls.pushRead(read);
        for (const event of decided) call("onToolCall", () => o.onToolCall(event));
      }
      const usage = o.usageOf ? call("usage", () => o.usageOf(chunk)) : read.usage;
      if (usage !== undefined && usage !== null) {
        // A built-in reader's report replaces the last one read at the same
        // path (a running total of the same members); a callback's are all
        // kept. The core lays them over each other in the order of the
        // latest reports (see usage::overlay_usage).
        const key = o.usageOf || o.read ? (attempt.callbackReports += 1) : read.usageKey;
        let copy;
        try {
          copy = typeof usage === "object" ? readCopy("the usage", usage, "usage") : usage;
        } catch {
          // A usage that cannot be read along the usage plan (a getter
          // that throws) is read around, as guardedCall reads one: what can
          // be read of it counts, and the answer is not lost for it.
          copy = readableCopy(usage);
        }
        attempt.reports.delete(key);
        attempt.reports.set(key, copy);
      }
      const { finishReason } = read;
      if (typeof finishReason === "string" && finishReason.trim() !== "") attempt.finishReason = finishReason;
      // With toolName, the output is the named tool's arguments, as the
      // calls' pieces bring them (a `read` callback gives them as text).
      // A string chunk is text either way: with toolName, the arguments' own.
      const text = attempt.calls === undefined || o.read || typeof chunk === "string" ? read.text : read.calls === undefined ? undefined : attempt.calls.take(read.calls);
      if (text === undefined || text === null || text === "") continue;
      if (typeof text !== "string") {
        throw new Interrupted("callback", { name: "read", error: argumentError(`options.read gave text that is ${typeof text}, not a string`) });
      }
      // The lenient path needs the whole text (see `stepStreamText`).
      if (!stopsEarly) attempt.texts.push(text);
      const state = check.push(text);
      if (state.status === "rejected") {
        attempt.state ??= state;
        if (stopsEarly) {
          attempt.stoppedEarly = true;
          attempt.stopping = true;
          clock.abort(stopReason(state));
          return;
        }
        continue;
      }
      if (o.onText) call("onText", () => o.onText(text, { attempt: number }));
    }
  } catch (error) {
    // The provider's request stops with the signal; the iterator is left below.
    if (!clock.signal.aborted) {
      attempt.stopping = true;
      clock.abort(error instanceof Interrupted && error.kind === "thrown" ? error.value : new Error("guardedStream stopped reading the stream"));
    }
    throw error instanceof Interrupted ? error : new Interrupted("thrown", error);
  } finally {
    waiting.release();
    leave(iterator);
  }
}

async function run(request, streamModel, o, session) {
  const deadline = o.deadlineMs === undefined ? Infinity : now() + o.deadlineMs;
  let nextRequest = request;
  const stopsEarly = session.stopsStreamsEarly();
  const readers = o.read ? undefined : streamReaders();
  // The attempts and the verdicts are the endings' members; a stream's result has no response.
  const ends = endings(session, o, "during", false);

  for (;;) {
    if (o.signal?.aborted) {
      ends.record("error", "aborted");
      throw abortReason(o.signal);
    }
    const calls = ++ends.calls;
    const clock = attemptSignal(o.signal, deadline);
    const check = session.streamCheck();
    const attempt = { reports: new Map(), finishReason: null, state: undefined, stoppedEarly: false, stopping: false, texts: [], callbackReports: 0, calls: undefined };
    const toolName = o.checkOptions?.toolName;
    if (toolName !== undefined) attempt.calls = new StreamedCalls(toolName, (name) => check.noteToolCall(name));
    // Every tool call checked against its own tool, as it streams.
    if (o.onToolCall) {
      o.toolsDeclared ??= toolsDeclared(request);
      attempt.toolCalls = new ToolCallStreamCheck(o.toolsDeclared, toolCallOptions(o));
    }
    const reportsText = () => jsonText("the usage", [...attempt.reports.values()]);
    const facts = () => ({ bytes: check.bytes, stoppedEarly: attempt.stoppedEarly, usageReported: attempt.reports.size > 0 });
    try {
      await runStream(streamModel, nextRequest, calls, clock, check, attempt, o, readers, stopsEarly);
    } catch (outcome) {
      // The attempt has no verdict: its check is not needed.
      check.free();
      // Whatever stopped the attempt, the usage its events reported counts.
      session.recordStream(reportsText(), facts());
      switch (outcome.kind) {
        case "deadline":
          throw ends.pastDeadline();
        case "aborted":
          ends.record("error", "aborted");
          throw outcome.value;
        case "callback":
          throw ends.callbackFailed(outcome.value.name, outcome.value.error);
        default:
          ends.record("error");
          throw outcome.value;
      }
    } finally {
      clock.release();
      attempt.toolCalls?.free();
    }
    let state;
    if (attempt.stoppedEarly || !stopsEarly) {
      state = attempt.state;
      // Stopped, or checked from its whole text (the lenient path).
      check.free();
    } else {
      try {
        state = check.end(attempt.finishReason);
      } catch (error) {
        session.recordStream(reportsText(), facts());
        ends.record("error");
        throw error;
      }
    }
    let step;
    try {
      const aborted = Boolean(o.signal?.aborted);
      const late = now() >= deadline;
      step = stopsEarly
        ? session.stepStream(state, reportsText(), facts(), aborted, late)
        : session.stepStreamText(attempt.texts.join(""), attempt.finishReason, reportsText(), facts(), aborted, late, o.checkOptions?.toolName);
    } catch (error) {
      ends.record("error");
      throw error;
    }
    const { action, stoppedBy } = step;
    const verdict = ends.verdict(step);
    if (o.onAttempt) {
      const { bytes, stoppedEarly, usageReported } = facts();
      ends.callbackOf("onAttempt", { attempt: calls, verdict, usage: step.usage, action, stoppedBy, bytes, stoppedEarly, usageReported });
    }
    if (ends.settleOrNext(step, verdict, request)) return ends.result;
    nextRequest = ends.nextRequest;
  }
}

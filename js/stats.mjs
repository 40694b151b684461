// A collector of guarded-call outcomes for dashboards and audits:
// pass it as `options.stats` to every guardedCall and read `snapshot()`.
import { argumentError } from "./errors.mjs";
import { FAILURE_CLASSES } from "./generated/contract.mjs";

// Registered, so a collector made by one copy of the package (ESM beside
// CJS) is recognised by the other.
export const RECORD = Symbol.for("structured-output-guard.stats-record");
/** The same, for one checkToolCalls verdict. */
export const RECORD_TOOL_CALLS = Symbol.for("structured-output-guard.stats-record-tool-calls");

function tokensOf(usage) {
  const t = usage?.tokens;
  if (!t || typeof t !== "object") return { input: 0, output: 0, total: 0 };
  const input = Number.isFinite(t.input) ? t.input : 0;
  const output = Number.isFinite(t.output) ? t.output : 0;
  const total = Number.isFinite(t.total) ? t.total : input + output;
  return { input, output, total };
}

function costOf(usage) {
  const total = usage?.cost?.total;
  return Number.isFinite(total) ? total : 0;
}

function emptyState() {
  return {
    calls: 0,
    accepted: 0,
    acceptedFirstTry: 0,
    rejected: 0,
    lenient: 0,
    errors: 0,
    degraded: 0,
    attempts: 0,
    retriesBeforeAccept: 0,
    failures: Object.fromEntries(FAILURE_CLASSES.map((f) => [f, 0])),
    stoppedBy: {},
    repeatedErrorStops: 0,
    failedAttemptTokens: { input: 0, output: 0, total: 0 },
    failedAttemptCost: 0,
    tokens: { input: 0, output: 0, total: 0 },
    cost: 0,
    toolCalls: { checks: 0, calls: 0, refused: 0, degraded: 0 },
  };
}

/**
 * A fresh collector. `snapshot()` returns a copy of the counts so far;
 * `reset()` starts over.
 */
export function createGuardStats() {
  let state = emptyState();
  return {
    snapshot() {
      const s = structuredClone(state);
      return {
        ...s,
        retriesPerAccept: s.accepted === 0 ? 0 : s.retriesBeforeAccept / s.accepted,
      };
    },
    reset() {
      state = emptyState();
    },
    /**
     * One guarded call's record: `outcome` is "accepted", "rejected",
     * "lenient" (the strict: false path) or "error" (callModel threw, the
     * call was aborted, a response could not be read); `attempts` holds
     * each finished attempt's failure (null when accepted, "unreadable" for
     * a response that could not be checked) and usage; `degraded`, whether
     * the call's schema could not be applied (only the parse-level checks ran).
     */
    /**
     * One checkToolCalls verdict: its calls, those refused, and those
     * checked without their tool's schema, which could not be compiled.
     */
    [RECORD_TOOL_CALLS](verdict) {
      const counts = state.toolCalls;
      counts.checks += 1;
      for (const call of verdict.calls) {
        counts.calls += 1;
        if (!call.ok) counts.refused += 1;
        if (call.degraded) counts.degraded += 1;
      }
    },
    [RECORD]({ outcome, attempts, stoppedBy, degraded }) {
      state.calls += 1;
      if (degraded) state.degraded += 1;
      state.attempts += attempts.length;
      if (outcome === "accepted") {
        state.accepted += 1;
        if (attempts.length === 1) state.acceptedFirstTry += 1;
        state.retriesBeforeAccept += attempts.length - 1;
      } else if (outcome === "rejected") {
        state.rejected += 1;
      } else if (outcome === "lenient") {
        state.lenient += 1;
      } else {
        state.errors += 1;
      }
      if (stoppedBy) state.stoppedBy[stoppedBy] = (state.stoppedBy[stoppedBy] ?? 0) + 1;
      if (stoppedBy === "repeated_error") state.repeatedErrorStops += 1;
      for (const attempt of attempts) {
        const tokens = tokensOf(attempt.usage);
        const cost = costOf(attempt.usage);
        for (const key of ["input", "output", "total"]) state.tokens[key] += tokens[key];
        state.cost += cost;
        if (attempt.failure) {
          // "unreadable": a response that could not be checked at all.
          if (attempt.failure !== "unreadable") state.failures[attempt.failure] = (state.failures[attempt.failure] ?? 0) + 1;
          for (const key of ["input", "output", "total"]) state.failedAttemptTokens[key] += tokens[key];
          state.failedAttemptCost += cost;
        }
      }
    },
  };
}

/**
 * `stats` if it is a collector from createGuardStats() that records with
 * `record` (RECORD or RECORD_TOOL_CALLS), or the typed error.
 */
function collector(stats, record) {
  if (stats === null || typeof stats !== "object" || typeof stats[record] !== "function") {
    throw argumentError("options.stats must be a collector from createGuardStats()");
  }
  return stats;
}

/** The collector's record function for checkToolCalls verdicts, or a typed error for anything else. */
export function toolCallsRecorder(stats) {
  if (stats === undefined) return undefined;
  const checked = collector(stats, RECORD_TOOL_CALLS);
  return (verdict) => checked[RECORD_TOOL_CALLS](verdict);
}

/** The collector's record function, or a typed error for anything else. */
export function statsRecorder(stats) {
  if (stats === undefined) return undefined;
  return recorderOf(collector(stats, RECORD));
}

/**
 * The record function of a collector. Apart from `statsRecorder`, which
 * every guarded call enters: on Bun a function holding a closure makes a
 * scope object each time it is entered, stats given or not.
 */
function recorderOf(stats) {
  return (record) => stats[RECORD](record);
}

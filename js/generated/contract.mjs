// Generated from src/error.rs and src/status.rs by the tests of
// src/error.rs: do not edit. After a change there,
// `UPDATE_CONTRACT=1 cargo test contract` rewrites this file.

/** The failure classes of a verdict, in the order the stages run. */
export const FAILURE_CLASSES = Object.freeze(["truncated", "empty", "unparseable", "not_object", "schema", "rule"]);

/** What a guarded call does after an attempt (`AttemptEvent.action`). */
export const ACTIONS = Object.freeze(["accept", "resample", "repair", "reject", "return_with_warning"]);

/** Why a guarded call made no further attempt (`stoppedBy`). */
export const STOP_REASONS = Object.freeze([
  "accepted",
  "lenient",
  "tools",
  "aborted",
  "deadline",
  "repeated_error",
  "budget",
]);

/** Every code an issue can carry. */
export const ISSUE_CODES = Object.freeze([
  "type",
  "enum",
  "const",
  "required",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minProperties",
  "maxProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
  "propertyNames",
  "anyOf",
  "oneOf",
  "not",
  "falseSchema",
  "contentEncoding",
  "contentMediaType",
  "$ref",
  "rule",
]);

/** Defaults: issues per check, retries without budgets, and the most any budget allows. */
export const DEFAULTS = Object.freeze({ maxErrors: 5, totalRetries: 1, maxRetries: 10 });

/** Limits: the levels of nesting a schema may have; the most counts a usage program sums from. */
export const LIMITS = Object.freeze({ schemaDepth: 127, usageCounts: 50 });

/**
 * A lane status (the lanes, `validateInput`, a session's lean step): a code
 * (accepted at offsets, accepted from a code fence, failed, unavailable,
 * accepted whole) in its low bits; above them the finish-reason flag, the
 * index of the answer's text and the reason's length. Decoded by
 * `decodeLaneStatus` in check.mjs.
 */
export const LANE_STATUS = Object.freeze({
  ok: 0,
  okFence: 1,
  failed: 2,
  unavailable: 3,
  okWhole: 4,
  codeMask: 7,
  hasReason: 8,
  textShift: 4,
  reasonShift: 16,
  fieldMask: 4095,
});

/** `isValidInput`'s answers besides `LANE_STATUS.unavailable`, a stream push's, and `judgeStrings`' when it judged nothing. */
export const INPUT_STATUS = Object.freeze({ valid: 1, invalid: 0, pushPending: 0, pushRejected: 1, notJudged: 4294967295 });

// Shared fixtures for the JS test suite: realistic provider responses (shapes
// taken from the providers' public SDKs, see docs/providers.md),
// the schemas the tests check against, and assertion helpers.
//
// Not a test file itself: neither `node --test` nor `bun test` picks up a
// `fixtures.mjs`.
import assert from "node:assert/strict";

/** 32 lowercase hex digits: the shape of errorHash. */
export const HEX32 = /^[0-9a-f]{32}$/;

/** 64 lowercase hex digits: the shape of schemaHash (SHA-256). */
export const HEX64 = /^[0-9a-f]{64}$/;

/** The observations schema from the issue: the hollow row must fail it. */
export const OBSERVATIONS_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["observations"],
  additionalProperties: false,
  properties: {
    observations: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "text", "importance"],
        additionalProperties: false,
        properties: {
          type: { enum: ["fact", "decision", "question"] },
          text: { type: "string" },
          importance: { type: "integer" },
        },
      },
    },
  },
};

export const GOOD_OBSERVATIONS = {
  observations: [
    { type: "fact", text: "The invoice total is 1,240 EUR.", importance: 3 },
    { type: "question", text: "Is the VAT included?", importance: 2 },
  ],
};

/** A small schema for the call-level tests. */
export const CITY_SCHEMA = {
  type: "object",
  required: ["city", "population"],
  additionalProperties: false,
  properties: {
    city: { type: "string", minLength: 1 },
    population: { type: "integer", minimum: 0 },
  },
};

// ---------------------------------------------------------------------------
// Provider responses
// ---------------------------------------------------------------------------

/**
 * A document of rows, as the stream tests stream it: `{ rows: [{ id, status }] }`
 * with at most `maxItems` rows.
 */
export function rowsSchema(maxItems) {
  return {
    type: "object",
    required: ["rows"],
    additionalProperties: false,
    properties: {
      rows: {
        type: "array",
        maxItems,
        items: {
          type: "object",
          required: ["id", "status"],
          properties: { id: { type: "integer" }, status: { enum: ["open", "closed"] } },
        },
      },
    },
  };
}

/** The text of a rows document with `count` rows; row `bad` (1-based) has a status outside the enum. */
export function rowsText(count, bad = 0) {
  const rows = [];
  for (let i = 1; i <= count; i++) rows.push(JSON.stringify({ id: i, status: i === bad ? "bogus" : i % 2 ? "open" : "closed" }));
  return `{"rows":[${rows.join(",")}]}`;
}

/** The text cut into pieces of `size` characters, as a model streams it. */
export function pieces(text, size = 16) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** OpenAI Chat Completions response. */
export function openaiChat(content, { finishReason = "stop", usage = { prompt_tokens: 120, completion_tokens: 30 }, model = "gpt-4.1-mini" } = {}) {
  return {
    id: "chatcmpl-BxT3kq9",
    object: "chat.completion",
    created: 1767225600,
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: {
      total_tokens: (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      ...usage,
    },
    service_tier: "default",
    system_fingerprint: "fp_6f2eabb9a5",
  };
}

/** Mistral chat completion (OpenAI-like, with its own `model_length`). */
export function mistralChat(content, finishReason = "stop") {
  return {
    id: "cmpl-e5cc70bb28c444948073e77776eb30ef",
    object: "chat.completion",
    model: "mistral-large-latest",
    created: 1767225600,
    choices: [{ index: 0, message: { role: "assistant", content, tool_calls: null }, finish_reason: finishReason }],
    usage: { prompt_tokens: 40, completion_tokens: 25, total_tokens: 65 },
  };
}

/** Anthropic Messages response. */
export function anthropicMessage(text, { stopReason = "end_turn", usage = { input_tokens: 200, output_tokens: 40 } } = {}) {
  return {
    id: "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text }],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { service_tier: "standard", ...usage },
  };
}

/** Google Gemini generateContent response. */
export function geminiResponse(text, { finishReason = "STOP", usageMetadata = { promptTokenCount: 80, candidatesTokenCount: 20, totalTokenCount: 100 } } = {}) {
  return {
    candidates: [
      {
        content: { role: "model", parts: [{ text }] },
        finishReason,
        index: 0,
      },
    ],
    usageMetadata,
    modelVersion: "gemini-2.5-flash",
    responseId: "x2lnaOHvL8Wd1dkP8p6JmQo",
  };
}

/** AWS Bedrock Converse response. */
export function bedrockConverse(text, stopReason = "end_turn") {
  return {
    output: { message: { role: "assistant", content: [{ text }] } },
    stopReason,
    usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 },
    metrics: { latencyMs: 812 },
  };
}

/** OpenAI Responses API response. */
export function openaiResponses(text, { status = "completed", reason = null } = {}) {
  return {
    id: "resp_67ccd2bed1ec8190b14f964abc054267",
    object: "response",
    created_at: 1767225600,
    status,
    incomplete_details: reason === null ? null : { reason },
    model: "gpt-4.1-2025-04-14",
    output: [
      { type: "reasoning", id: "rs_1", summary: [] },
      {
        type: "message",
        id: "msg_67ccd2bf17f0819081ff3bb2cf6508e6",
        status,
        role: "assistant",
        content: [{ type: "output_text", text, annotations: [] }],
      },
    ],
    usage: { input_tokens: 36, output_tokens: 87, total_tokens: 123, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
}

// ---------------------------------------------------------------------------
// Assertion helpers
// ---------------------------------------------------------------------------

/** A callModel that serves `responses` in order and records every request it saw. */
export function scripted(...responses) {
  const calls = [];
  const callModel = async (request) => {
    calls.push(request);
    if (calls.length > responses.length) throw new Error(`unexpected call #${calls.length}`);
    const next = responses[calls.length - 1];
    return typeof next === "function" ? next(request) : next;
  };
  return { calls, callModel };
}

/** Runs `fn`, which must throw, and returns what it threw. */
export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail("expected the call to throw");
}

/** Awaits `promise`, which must reject, and returns the rejection reason. */
export async function rejected(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected the promise to reject");
}

/** A TypeError carrying the stable code "invalid_argument" and a message matching `message`. */
export function assertArgumentError(error, message) {
  assert.ok(error instanceof TypeError, `expected a TypeError, got ${error?.constructor?.name}: ${error?.message}`);
  assert.equal(error.code, "invalid_argument");
  if (message !== undefined) assert.match(error.message, message);
}

/**
 * Issues in API shape: `expected` lists `[path, schemaPath, code, message?]`
 * in order. The message wording is for people and may be improved, so it is
 * checked to be one sentence naming the path (and to match `message`, a
 * RegExp, when given), not compared verbatim.
 */
/** The parameter each keyword's issue carries (docs/api.md, "Issue codes"); the others carry none. */
const PARAM_OF = {
  required: "missingProperty",
  minLength: "limit",
  maxLength: "limit",
  minItems: "limit",
  maxItems: "limit",
  minProperties: "limit",
  maxProperties: "limit",
  minimum: "limit",
  maximum: "limit",
  exclusiveMinimum: "limit",
  exclusiveMaximum: "limit",
  multipleOf: "multipleOf",
  format: "format",
  pattern: "pattern",
  type: "type",
};

/** An issue's `params`: exactly its keyword's one parameter, or none. */
export function assertParams(issue) {
  const name = PARAM_OF[issue.code];
  if (name === undefined) {
    assert.equal("params" in issue, false, `${issue.code} carries no params`);
    return;
  }
  assert.deepEqual(Object.keys(issue.params), [name], `${issue.code}'s params`);
}

export function assertIssues(errors, expected) {
  assert.deepEqual(
    errors.map((issue) => [issue.path, issue.schemaPath, issue.code]),
    expected.map(([path, schemaPath, code]) => [path, schemaPath, code]),
  );
  errors.forEach((issue, i) => {
    assert.deepEqual(Object.keys(issue).filter((key) => key !== "params").sort(), ["code", "message", "path", "schemaPath"]);
    assertParams(issue);
    assert.equal(typeof issue.message, "string");
    assert.match(issue.message, /^\S.*\.$/s, "one sentence");
    if (issue.path !== "") assert.ok(issue.message.includes(issue.path), `message names ${issue.path}: ${issue.message}`);
    const message = expected[i][3];
    if (message !== undefined) assert.match(issue.message, message);
  });
}

/** A failed verdict in API shape, with the fields every failure carries. */
export function assertFailure(verdict, failure, { issues = [], moreErrors = false, degraded = false } = {}) {
  assert.equal(verdict.ok, false, `expected failure "${failure}", got ok: ${JSON.stringify(verdict)}`);
  assert.equal(verdict.failure, failure, verdict.message);
  assert.equal(typeof verdict.message, "string");
  assert.ok(verdict.message.length > 0);
  assertIssues(verdict.errors, issues);
  assert.equal(verdict.moreErrors, moreErrors);
  assert.match(verdict.errorHash, HEX32);
  assert.equal(verdict.degraded, degraded);
  assert.equal("value" in verdict, false, "a failed verdict carries no value");
}

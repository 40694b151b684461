// normalizeUsage and mergeUsage: nothing billable is dropped.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { anthropicMessage, bedrockConverse, geminiResponse, openaiChat, openaiResponses } from "../../support/fixtures.mjs";

describe("normalizeUsage", () => {
  test("OpenAI chat usage: cached and reasoning tokens mapped, unknown numbers kept", () => {
    const usage = {
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 192, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 4 },
    };
    assert.deepEqual(guard.normalizeUsage(usage), {
      tokens: {
        input: 1200,
        output: 300,
        total: 1500,
        cacheRead: 1024,
        reasoning: 192,
        prompt_tokens_details: { audio_tokens: 0 },
        completion_tokens_details: { audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 4 },
      },
    });
  });

  test("a whole OpenAI chat completion reads its usage member, not its metadata numbers", () => {
    const response = openaiChat('{"a":1}', { usage: { prompt_tokens: 11, completion_tokens: 4 } });
    delete response.usage.prompt_tokens_details;
    delete response.usage.completion_tokens_details;
    assert.deepEqual(guard.normalizeUsage(response), { tokens: { input: 11, output: 4, total: 15 } });
  });

  test("Anthropic with cache: input counts the cached part, total is input + output", () => {
    const response = anthropicMessage("{}", {
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 200,
        cache_read_input_tokens: 1000,
        output_tokens: 55,
        cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 0 },
        server_tool_use: { web_search_requests: 2 },
      },
    });
    assert.deepEqual(guard.normalizeUsage(response), {
      tokens: {
        input: 1210,
        output: 55,
        total: 1265,
        cacheRead: 1000,
        cacheWrite: 200,
        cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 0 },
        server_tool_use: { web_search_requests: 2 },
      },
    });
  });

  test("a response with a usage object is read no further than it; without one, its own numbers count", () => {
    const reads = [];
    const responseWith = (usage) => {
      const response = { usage, choices: [] };
      for (const name of ["id", "model", "prompt_eval_count"]) {
        Object.defineProperty(response, name, { enumerable: true, get: () => (reads.push(name), name === "prompt_eval_count" ? 99 : "x") });
      }
      return response;
    };
    assert.deepEqual(guard.normalizeUsage(responseWith({ prompt_tokens: 3, completion_tokens: 4 })), { tokens: { input: 3, output: 4, total: 7 } });
    assert.deepEqual(reads, []);
    // A usage member that holds no object: the response's own numbers are read.
    assert.equal(guard.normalizeUsage(responseWith([1])).tokens.input, 99);
    assert.deepEqual(reads, ["id", "model", "prompt_eval_count"]);
    const ollama = { model: "llama", usage: null, prompt_eval_count: 5, eval_count: 6, done: true };
    assert.deepEqual(guard.normalizeUsage(ollama), { tokens: { input: 5, output: 6, total: 11 } });
  });

  test("Anthropic without cache fields", () => {
    assert.deepEqual(guard.normalizeUsage({ input_tokens: 12, output_tokens: 8 }), { tokens: { input: 12, output: 8, total: 20 } });
  });

  test("Gemini usageMetadata: thoughts count as output and as reasoning", () => {
    const response = geminiResponse("{}", {
      usageMetadata: {
        promptTokenCount: 500,
        cachedContentTokenCount: 300,
        candidatesTokenCount: 80,
        thoughtsTokenCount: 120,
        totalTokenCount: 700,
        toolUsePromptTokenCount: 9,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 500 }],
        trafficType: "ON_DEMAND",
      },
    });
    assert.deepEqual(guard.normalizeUsage(response), {
      tokens: {
        input: 500,
        output: 200,
        total: 700,
        cacheRead: 300,
        reasoning: 120,
        toolUsePromptTokenCount: 9,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 500 }],
      },
    });
  });

  test("Bedrock Converse: input counts cache reads and writes", () => {
    const usage = { inputTokens: 20, outputTokens: 30, totalTokens: 350, cacheReadInputTokens: 250, cacheWriteInputTokens: 50 };
    const expected = { tokens: { input: 320, output: 30, total: 350, cacheRead: 250, cacheWrite: 50 } };
    assert.deepEqual(guard.normalizeUsage(usage), expected);
    assert.deepEqual(guard.normalizeUsage({ ...bedrockConverse("{}"), usage }), expected);
  });

  test("OpenAI Responses usage", () => {
    assert.deepEqual(guard.normalizeUsage(openaiResponses("{}")), { tokens: { input: 36, output: 87, total: 123, cacheRead: 0, reasoning: 0 } });
  });

  test("executor-normalised usage is returned as is", () => {
    const usage = {
      tokens: { input: 1, output: 2, total: 3 },
      cost: { total: 0.5, pricing: { input: 0.000001 } },
      timing: { startTime: 1, endTime: 2, duration: 1, timeSegments: [{ type: "model" }] },
    };
    assert.deepEqual(guard.normalizeUsage(usage), usage);
  });

  test("non-objects and responses without usage normalise to {}", () => {
    for (const value of [undefined, null, 3, "usage", true, [1, 2], {}]) {
      assert.deepEqual(guard.normalizeUsage(value), {}, String(value));
    }
    assert.deepEqual(guard.normalizeUsage({ id: "chatcmpl-2", created: 1700000000, choices: [{ index: 0, finish_reason: "stop" }] }), {});
  });
});

describe("mergeUsage", () => {
  test("sums known and unknown numeric token fields across providers' shapes", () => {
    const merged = guard.mergeUsage(
      { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, brand_new_tokens: 3, completion_tokens_details: { audio_tokens: 1 } },
      { id: "chatcmpl-9", choices: [], usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140, brand_new_tokens: 4, prompt_tokens_details: { cached_tokens: 100 } } },
    );
    assert.deepEqual(merged, {
      tokens: { input: 220, output: 30, total: 250, cacheRead: 100, brand_new_tokens: 7, completion_tokens_details: { audio_tokens: 1 } },
    });
  });

  test("mixed providers add up with one meaning of input", () => {
    const merged = guard.mergeUsage(
      geminiResponse("{}", { usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 60, candidatesTokenCount: 10, totalTokenCount: 110 } }),
      { usage: { inputTokens: 40, cacheReadInputTokens: 60, outputTokens: 10, totalTokens: 110 } },
      anthropicMessage("{}", { usage: { input_tokens: 40, cache_read_input_tokens: 60, output_tokens: 10 } }),
    );
    assert.deepEqual(merged, { tokens: { input: 300, output: 30, total: 330, cacheRead: 180 } });
  });

  test("executor usage: sums, earliest start, latest end, summed duration, concatenated segments, pricing not summed", () => {
    const first = {
      tokens: { input: 10, output: 5, total: 15, mystery_units: 2 },
      cost: { input: 0.25, output: 0.5, total: 0.75, pricing: { input: 0.025, output: 0.1 } },
      timing: { startTime: 2000, endTime: 3000, duration: 1000, timeSegments: [{ type: "model", n: 1 }] },
    };
    const second = {
      tokens: { input: 12, output: 6, total: 18, mystery_units: 3, audio: 4 },
      cost: { input: 0.5, output: 0.25, total: 0.75, toolCost: 0.125, pricing: { input: 0.03, output: 0.12 } },
      timing: { startTime: 1000, endTime: 4000, duration: 500, timeSegments: [{ type: "tool", n: 2 }, { type: "model", n: 3 }] },
    };
    assert.deepEqual(guard.mergeUsage(first, second), {
      tokens: { input: 22, output: 11, total: 33, mystery_units: 5, audio: 4 },
      cost: { input: 0.75, output: 0.75, total: 1.5, toolCost: 0.125, pricing: { input: 0.03, output: 0.12 } },
      timing: {
        startTime: 1000,
        endTime: 4000,
        duration: 1500,
        timeSegments: [{ type: "model", n: 1 }, { type: "tool", n: 2 }, { type: "model", n: 3 }],
      },
    });
    // The inputs are not changed.
    assert.deepEqual(first.timing.timeSegments, [{ type: "model", n: 1 }]);
    assert.equal(first.tokens.input, 10);
  });

  test("earliest start and latest end are picked wherever they sit in the list", () => {
    const merged = guard.mergeUsage(
      { timing: { startTime: 5000, endTime: 6000, duration: 1000 } },
      { timing: { startTime: 4000, endTime: 5500, duration: 1500 } },
      { timing: { startTime: 4500, endTime: 7000, duration: 2500 } },
    );
    assert.deepEqual(merged, { timing: { startTime: 4000, endTime: 7000, duration: 5000 } });
  });

  test("ISO-8601 start and end times compare as times", () => {
    const merged = guard.mergeUsage(
      { timing: { startTime: "2026-03-01T10:00:05Z", endTime: "2026-03-01T10:00:09Z" } },
      { timing: { startTime: "2026-03-01T10:00:01Z", endTime: "2026-03-01T10:00:20Z" } },
    );
    assert.deepEqual(merged.timing, { startTime: "2026-03-01T10:00:01Z", endTime: "2026-03-01T10:00:20Z" });
  });

  test("pricing keeps the latest rates, even when a later attempt has none", () => {
    const merged = guard.mergeUsage(
      { cost: { total: 1, pricing: { input: 0.5, output: 1.5 } } },
      { cost: { total: 2 } },
      { cost: { total: 0.5, pricing: { input: 0.5, output: 1.5 } } },
    );
    assert.deepEqual(merged, { cost: { total: 3.5, pricing: { input: 0.5, output: 1.5 } } });
  });

  test("non-numeric fields keep the latest non-null value; a number is not replaced by text", () => {
    const merged = guard.mergeUsage(
      { cost: { currency: "USD", model: "a" }, tokens: { input: 5 } },
      { cost: { currency: "EUR", model: null }, tokens: { input: "n/a" } },
    );
    assert.deepEqual(merged, { cost: { currency: "EUR", model: "a" }, tokens: { input: 5 } });
  });

  test("whole provider responses merge through their usage", () => {
    const merged = guard.mergeUsage(
      openaiChat('{"a":', { finishReason: "length", usage: { prompt_tokens: 120, completion_tokens: 4096 } }),
      openaiChat('{"a":1}', { usage: { prompt_tokens: 120, completion_tokens: 30 } }),
    );
    assert.deepEqual(merged, {
      tokens: {
        input: 240,
        output: 4126,
        total: 4366,
        cacheRead: 0,
        reasoning: 0,
        prompt_tokens_details: { audio_tokens: 0 },
        completion_tokens_details: { audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
  });

  test("nothing, null and undefined merge to {}", () => {
    assert.deepEqual(guard.mergeUsage(), {});
    assert.deepEqual(guard.mergeUsage(null, undefined), {});
    assert.deepEqual(guard.mergeUsage(undefined, { tokens: { input: 3 } }, null), { tokens: { input: 3 } });
  });

  test("merging is associative: merge(merge(a, b), c) equals merge(a, b, c)", () => {
    const a = { prompt_tokens: 3, completion_tokens: 4, completion_tokens_details: { audio_tokens: 1 } };
    const b = { tokens: { input: 1 }, timing: { startTime: 5, timeSegments: ["s1"] } };
    const c = { timing: { startTime: 2, timeSegments: ["s2"] }, cost: { total: 1 } };
    const once = guard.mergeUsage(a, b, c);
    assert.deepEqual(guard.mergeUsage(guard.mergeUsage(a, b), c), once);
    assert.deepEqual(once, {
      tokens: { input: 4, output: 4, total: 7, completion_tokens_details: { audio_tokens: 1 } },
      timing: { startTime: 2, timeSegments: ["s1", "s2"] },
      cost: { total: 1 },
    });
  });
});

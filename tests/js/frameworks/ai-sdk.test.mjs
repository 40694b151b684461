// The Vercel AI SDK's results, as the SDK builds them: generateText keeps
// `text`, `content`, `finishReason` and `usage` as getters on its result
// class, and `output` throws when no output was asked for. They are driven
// by the SDK's own mock model (`ai/test`) and by the real OpenAI provider
// against a local server, so the guard meets the same objects users hand it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateText, generateObject, jsonSchema } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createOpenAI } from "@ai-sdk/openai";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, openaiChat } from "../../support/fixtures.mjs";
import { withWireServer } from "../../support/wire-server.mjs";

const GOOD = '{"city":"Oslo","population":709000}';
const CUT = '{"city":"Os';
const PROMPT = "secret prompt: the user's address is 1 Main St";

/** A mock model that answers with each of `texts` in turn. */
function model(...answers) {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const { text, finish = "stop" } = answers[Math.min(call++, answers.length - 1)];
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: finish, raw: finish === "length" ? "max_tokens" : "end_turn" },
        usage: {
          inputTokens: { total: 12, noCache: 10, cacheRead: 2, cacheWrite: undefined },
          outputTokens: { total: 7, text: 5, reasoning: 2 },
        },
        warnings: [],
        response: { id: `r${call}`, modelId: "mock", headers: { "x-request-id": "abc" } },
      };
    },
  });
}

describe("generateText results", () => {
  test("a valid answer is accepted, read through the result's getters", async () => {
    const result = await generateText({ model: model({ text: GOOD }), prompt: PROMPT });
    assert.notEqual(Object.getPrototypeOf(result), Object.prototype, "the SDK's result is a class instance");
    assert.equal(JSON.stringify(result).includes(GOOD), false, "JSON.stringify cannot see the getters");
    const verdict = guard.checkOutput(result, CITY_SCHEMA);
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, JSON.parse(GOOD));
    assert.equal(verdict.finishReason, "stop");
    // The same with a compiled validator and with a response-format wrapper.
    assert.equal(guard.checkOutput(result, guard.compileSchema(CITY_SCHEMA)).ok, true);
    assert.equal(guard.checkOutput(result, { type: "json_schema", json_schema: { name: "city", schema: CITY_SCHEMA, strict: true } }).ok, true);
  });

  test("an answer cut at the token limit is truncated", async () => {
    const result = await generateText({ model: model({ text: CUT, finish: "length" }), prompt: PROMPT });
    assert.deepEqual(guard.detectTruncation(result), { truncated: true, finishReason: "length" });
    assert.equal(guard.checkOutput(result, CITY_SCHEMA).failure, "truncated");
  });

  test("each step of a multi-step result reads too", async () => {
    const result = await generateText({ model: model({ text: GOOD }), prompt: PROMPT });
    assert.equal(result.steps.length, 1);
    assert.equal(guard.checkOutput(result.steps[0], CITY_SCHEMA).ok, true);
  });

  test("usage is the call's, without prompts, answers or headers", async () => {
    const result = await generateText({ model: model({ text: GOOD }), prompt: PROMPT });
    const usage = guard.normalizeUsage(result);
    assert.equal(usage.tokens.input, 12);
    assert.equal(usage.tokens.output, 7);
    assert.equal(usage.tokens.cacheRead, 2);
    assert.equal(usage.tokens.reasoning, 2);
    const text = JSON.stringify(usage);
    for (const leak of ["secret prompt", "Oslo", "x-request-id", "steps"]) assert.equal(text.includes(leak), false, `${leak} in ${text}`);
  });

  test("guardedCall with generateText as callModel: a valid answer is accepted at once", async () => {
    const mock = model({ text: GOOD });
    const result = await guard.guardedCall({ prompt: PROMPT }, (request) => generateText({ model: mock, ...request }), { schema: CITY_SCHEMA });
    assert.deepEqual(result.value, JSON.parse(GOOD));
    assert.equal(result.attempts, 1);
    assert.equal(mock.doGenerateCalls.length, 1);
    assert.equal(result.usage.tokens.input, 12);
  });

  test("guardedCall resamples a cut answer once and sums both attempts", async () => {
    const mock = model({ text: CUT, finish: "length" }, { text: GOOD });
    const result = await guard.guardedCall({ prompt: PROMPT }, (request) => generateText({ model: mock, ...request }), { schema: CITY_SCHEMA });
    assert.equal(result.attempts, 2);
    assert.equal(mock.doGenerateCalls.length, 2);
    assert.equal(result.usage.tokens.input, 24);
  });

  test("the real OpenAI provider's result, from a local server", async () => {
    await withWireServer([openaiChat(GOOD)], async (server) => {
      const openai = createOpenAI({ apiKey: "test", baseURL: `${server.url}/v1` });
      const result = await generateText({ model: openai.chat("gpt-4o-mini"), prompt: PROMPT });
      const verdict = guard.checkOutput(result, CITY_SCHEMA);
      assert.equal(verdict.ok, true, verdict.message);
      assert.equal(server.requests.length, 1);
    });
  });
});

describe("generateObject results", () => {
  const COLOUR_SCHEMA = {
    type: "object",
    required: ["colour"],
    properties: { colour: { enum: ["red", "green"] } },
  };

  test("the value the SDK let through is checked: an enum violation is reported", async () => {
    // The SDK's jsonSchema() does no validation of its own.
    const result = await generateObject({ model: model({ text: '{"colour":"purple"}' }), schema: jsonSchema(COLOUR_SCHEMA), prompt: PROMPT });
    assert.deepEqual(result.object, { colour: "purple" });
    const verdict = guard.checkOutput(result, COLOUR_SCHEMA);
    assert.equal(verdict.ok, false);
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.errors[0].path, "/colour");
    assert.equal(verdict.errors[0].code, "enum");
  });

  test("a conforming value is accepted", async () => {
    const result = await generateObject({ model: model({ text: '{"colour":"red"}' }), schema: jsonSchema(COLOUR_SCHEMA), prompt: PROMPT });
    const verdict = guard.checkOutput(result, COLOUR_SCHEMA);
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, { colour: "red" });
  });
});

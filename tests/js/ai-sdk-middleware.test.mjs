// guardMiddleware in the Vercel AI SDK's wrapLanguageModel, driven by the
// SDK's own mock model: the retry policy runs inside generateText.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { guardMiddleware } from "../../pkg/ai-sdk.mjs";
import * as guard from "../../pkg/node.mjs";
import { CITY_SCHEMA } from "./fixtures.mjs";

const GOOD = '{"city":"Oslo","population":709000}';

function model(...answers) {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const { text, finish = "stop" } = answers[Math.min(call++, answers.length - 1)];
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: finish, raw: finish },
        usage: { inputTokens: { total: 10, noCache: 8, cacheRead: 2 }, outputTokens: { total: 5, text: 5 } },
        warnings: [],
      };
    },
  });
}

describe("guardMiddleware", () => {
  test("truncated, then valid: two model calls, and the usage of both", async () => {
    const mock = model({ text: '{"city":"Os', finish: "length" }, { text: GOOD });
    const wrapped = wrapLanguageModel({ model: mock, middleware: guardMiddleware({ schema: CITY_SCHEMA }) });
    const result = await generateText({ model: wrapped, prompt: "Oslo?" });
    assert.equal(result.text, GOOD);
    assert.equal(mock.doGenerateCalls.length, 2);
    assert.equal(result.usage.inputTokens, 20);
    assert.equal(result.usage.outputTokens, 10);
    assert.equal(result.usage.cachedInputTokens, 4);
  });

  test("a call with tools is never resampled", async () => {
    const mock = model({ text: '{"city":"Os', finish: "length" }, { text: GOOD });
    const wrapped = wrapLanguageModel({ model: mock, middleware: guardMiddleware({ schema: CITY_SCHEMA }) });
    await assert.rejects(
      generateText({ model: wrapped, prompt: "Oslo?", tools: { lookup: tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "x" }) } }),
      (error) => error instanceof guard.StructuredOutputError && error.stoppedBy === "tools",
    );
    assert.equal(mock.doGenerateCalls.length, 1);
  });

  test("repair adds the feedback to the prompt", async () => {
    const mock = model({ text: '{"city":"Oslo","population":-1}' }, { text: GOOD });
    const wrapped = wrapLanguageModel({ model: mock, middleware: guardMiddleware({ schema: CITY_SCHEMA, retry: "repair" }) });
    const result = await generateText({ model: wrapped, prompt: "Oslo?" });
    assert.equal(result.text, GOOD);
    const second = mock.doGenerateCalls[1].prompt;
    assert.equal(second.length, mock.doGenerateCalls[0].prompt.length + 1);
    assert.match(second.at(-1).content[0].text, /\/population/);
  });

  test("needs a schema", () => {
    assert.throws(() => guardMiddleware({}), (error) => error.code === "invalid_argument");
  });
});

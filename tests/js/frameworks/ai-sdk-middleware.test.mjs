// guardMiddleware in the Vercel AI SDK's wrapLanguageModel, driven by the
// SDK's own mock model: the retry policy runs inside generateText.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { guardMiddleware } from "../../../pkg/ai-sdk.mjs";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA } from "../../support/fixtures.mjs";

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

  test("a result whose content and finish reason are getters on a class passes through whole", async () => {
    class Result {
      #text;
      constructor(text) {
        this.#text = text;
        this.warnings = [];
      }
      get content() {
        return [{ type: "text", text: this.#text }];
      }
      get finishReason() {
        return { unified: "stop", raw: "stop" };
      }
      get usage() {
        return { inputTokens: { total: 10, noCache: 10 }, outputTokens: { total: 5, text: 5 } };
      }
      describe() {
        return "a method, not a member";
      }
    }
    const mock = new MockLanguageModelV3({ doGenerate: async () => new Result(GOOD) });
    const wrapped = wrapLanguageModel({ model: mock, middleware: guardMiddleware({ schema: CITY_SCHEMA }) });
    const result = await generateText({ model: wrapped, prompt: "Oslo?" });
    assert.equal(result.text, GOOD);
    assert.equal(result.finishReason, "stop");
    assert.equal(result.usage.inputTokens, 10);
    assert.equal(result.usage.outputTokens, 5);
  });

  test("a usage that cannot be read is read around: the accepted answer comes back, never the getter's error", async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: "text", text: GOOD }],
        finishReason: { unified: "stop", raw: "stop" },
        get usage() {
          throw new Error("usage refused");
        },
        warnings: [],
      }),
    });
    const wrapped = wrapLanguageModel({ model: mock, middleware: guardMiddleware({ schema: CITY_SCHEMA }) });
    const result = await generateText({ model: wrapped, prompt: "Oslo?" });
    assert.equal(result.text, GOOD);
    assert.equal(result.usage.inputTokens, undefined);
  });

  test("hostile figures never make the usage negative", async () => {
    const figures = [
      { inputTokens: { total: 5, noCache: 0, cacheRead: 100 }, outputTokens: { total: 2, text: 0, reasoning: 50 } },
      { inputTokens: { total: -5, cacheWrite: 3 }, outputTokens: { total: -1, reasoning: -4 } },
      { inputTokens: { total: 5, cacheRead: Number.MAX_SAFE_INTEGER }, outputTokens: { total: 1e300, reasoning: 1e308 } },
    ];
    for (const usage of figures) {
      const mock = new MockLanguageModelV3({
        doGenerate: async () => ({ content: [{ type: "text", text: GOOD }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }),
      });
      const wrapped = wrapLanguageModel({ model: mock, middleware: guardMiddleware({ schema: CITY_SCHEMA }) });
      const result = await generateText({ model: wrapped, prompt: "Oslo?" });
      assert.equal(result.text, GOOD);
      const counts = [];
      const collect = (value) => {
        if (typeof value === "number") counts.push(value);
        else if (value !== null && typeof value === "object") Object.values(value).forEach(collect);
      };
      collect(result.usage);
      for (const count of counts) assert.ok(Number.isFinite(count) && count >= 0, `${JSON.stringify(usage)} gave ${JSON.stringify(result.usage)}`);
    }
  });

  test("needs a schema", () => {
    assert.throws(() => guardMiddleware({}), (error) => error.code === "invalid_argument");
  });
});

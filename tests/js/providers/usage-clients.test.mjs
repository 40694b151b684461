// Usage as the real clients hand it back: each SDK is driven against a
// local server in its provider's wire format, and what normalizeUsage and
// mergeUsage make of its response objects is checked field by field.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import * as guard from "../../../pkg/node.mjs";
import { withWireServer } from "../../support/wire-server.mjs";

describe("usage from the real clients", () => {
  test("OpenAI Responses: cached reads and writes, reasoning", async () => {
    const body = {
      id: "resp_1", object: "response", created_at: 1, status: "completed", model: "gpt-5-mini",
      output: [{ type: "message", id: "m1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "{}", annotations: [] }] }],
      usage: { input_tokens: 100, input_tokens_details: { cached_tokens: 40, cache_write_tokens: 10 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 130 },
    };
    await withWireServer([body, body], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1` });
      const response = await client.responses.create({ model: "gpt-5-mini", input: "?" });
      assert.deepEqual(guard.normalizeUsage(response).tokens, { input: 100, output: 30, total: 130, cacheRead: 40, cacheWrite: 10, reasoning: 12 });
      const twice = guard.mergeUsage(response, await client.responses.create({ model: "gpt-5-mini", input: "?" }));
      assert.deepEqual(twice.tokens, { input: 200, output: 60, total: 260, cacheRead: 80, cacheWrite: 20, reasoning: 24 });
    });
  });

  test("Anthropic: cache reads and writes counted in the input, thinking as reasoning", async () => {
    const body = {
      id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5",
      content: [{ type: "text", text: "{}" }], stop_reason: "end_turn", stop_sequence: null,
      usage: { input_tokens: 10, cache_read_input_tokens: 50, cache_creation_input_tokens: 5, output_tokens: 20, output_tokens_details: { thinking_tokens: 8 }, server_tool_use: { web_search_requests: 2 } },
    };
    await withWireServer([body], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url });
      const response = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "?" }] });
      const usage = guard.normalizeUsage(response);
      assert.equal(usage.tokens.input, 65);
      assert.equal(usage.tokens.cacheRead, 50);
      assert.equal(usage.tokens.cacheWrite, 5);
      assert.equal(usage.tokens.reasoning, 8);
      assert.equal(usage.tokens.output, 20);
      // A counter the mapping does not know is kept, not dropped.
      assert.match(JSON.stringify(usage), /web_search_requests/);
    });
  });

  test("Gemini via @google/genai: thoughts count as output, per-modality counts merge by modality", async () => {
    const body = (n) => ({
      candidates: [{ content: { role: "model", parts: [{ text: "{}" }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: n, candidatesTokenCount: 4, thoughtsTokenCount: 3, totalTokenCount: n + 7, promptTokensDetails: [{ modality: "TEXT", tokenCount: n - 2 }, { modality: "IMAGE", tokenCount: 2 }] },
      modelVersion: "gemini-2.5-flash",
    });
    await withWireServer([body(10), body(20)], async (server) => {
      const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
      const first = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "?" });
      const second = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "?" });
      assert.equal(Object.getPrototypeOf(first).constructor.name, "GenerateContentResponse");
      const one = guard.normalizeUsage(first);
      assert.equal(one.tokens.output, 7);
      assert.equal(one.tokens.reasoning, 3);
      const both = guard.mergeUsage(first, second);
      assert.equal(both.tokens.input, 30);
      const details = JSON.stringify(both);
      assert.match(details, /"modality":"TEXT","tokenCount":26/);
      assert.match(details, /"modality":"IMAGE","tokenCount":4/);
    });
  });
});

// A request that declares tools is never resampled, in every provider's and
// SDK's shape: tools run inside the provider call, and a resample would run
// them again. The real clients are driven against a local server in each
// provider's wire format, so the request objects users build, and the
// responses the SDKs return, meet the guard as they do in use.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { GoogleGenAI } from "@google/genai";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { jsonSchema, tool } from "ai";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, anthropicMessage, geminiResponse, openaiChat, openaiResponses, rejected, scripted } from "../../support/fixtures.mjs";
import { withWireServer } from "../../support/wire-server.mjs";
import { toolPathsReadBy } from "../../../pkg/testing.mjs";

const CUT = '{"city":"Os';
const GOOD = '{"city":"Oslo","population":709000}';

const geminiCut = () => geminiResponse(CUT, { finishReason: "MAX_TOKENS" });
const geminiGood = () => geminiResponse(GOOD);

const LOOKUP = { name: "lookup_population", description: "Looks up a city's population.", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } };

/** The guarded call must stop after one attempt, for the tools. */
async function assertOneAttempt(run, requests) {
  const error = await rejected(run);
  assert.ok(error instanceof guard.StructuredOutputError, `expected StructuredOutputError, got ${error}`);
  assert.equal(error.stoppedBy, "tools");
  assert.equal(error.failure, "truncated");
  assert.equal(error.attempts, 1);
  assert.equal(requests.length, 1, "exactly one request reached the provider");
}

describe("@google/genai: config.tools", { timeout: 20000 }, () => {
  const client = (server) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: server.url } });

  for (const [label, tools] of [
    ["functionDeclarations", [{ functionDeclarations: [LOOKUP] }]],
    ["googleSearch", [{ googleSearch: {} }]],
    ["codeExecution", [{ codeExecution: {} }]],
  ]) {
    test(`a ${label} tool: one request, never resampled`, async () => {
      await withWireServer([geminiCut(), geminiGood()], async (server) => {
        const ai = client(server);
        const request = { model: "gemini-2.5-flash", contents: "Which city, and how many people?", config: { tools } };
        await assertOneAttempt(guard.guardedCall(request, (r) => ai.models.generateContent(r), { schema: CITY_SCHEMA }), server.requests);
        assert.ok(Array.isArray(server.requests[0].body.tools), "the SDK sent the tools");
      });
    });
  }

  test("without tools the truncated reply is resampled and the second accepted", async () => {
    await withWireServer([geminiCut(), geminiGood()], async (server) => {
      const ai = client(server);
      const request = { model: "gemini-2.5-flash", contents: "Which city?", config: { temperature: 0 } };
      const result = await guard.guardedCall(request, (r) => ai.models.generateContent(r), { schema: CITY_SCHEMA });
      assert.deepEqual(result.value, JSON.parse(GOOD));
      assert.equal(server.requests.length, 2);
    });
  });

  test("Gemini REST: top-level tools", async () => {
    const { calls, callModel } = scripted(geminiCut(), geminiGood());
    const request = { contents: [{ role: "user", parts: [{ text: "Which city?" }] }], tools: [{ functionDeclarations: [LOOKUP] }] };
    await assertOneAttempt(guard.guardedCall(request, callModel, { schema: CITY_SCHEMA }), calls);
  });
});

describe("Anthropic: tools, server tools and the MCP connector", { timeout: 20000 }, () => {
  const cut = () => anthropicMessage(CUT, { stopReason: "max_tokens" });
  const good = () => anthropicMessage(GOOD);
  const client = (server) => new Anthropic({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
  const base = { model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "Which city?" }] };

  test("mcp_servers (beta MCP connector): one request", async () => {
    await withWireServer([cut(), good()], async (server) => {
      const anthropic = client(server);
      const request = { ...base, mcp_servers: [{ type: "url", url: "https://mcp.example/sse", name: "example" }], betas: ["mcp-client-2025-04-04"] };
      await assertOneAttempt(guard.guardedCall(request, (r) => anthropic.beta.messages.create(r), { schema: CITY_SCHEMA }), server.requests);
      assert.equal(server.requests[0].body.mcp_servers.length, 1);
    });
  });

  test("a server-side web search tool: one request", async () => {
    await withWireServer([cut(), good()], async (server) => {
      const anthropic = client(server);
      const request = { ...base, tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 1 }] };
      await assertOneAttempt(guard.guardedCall(request, (r) => anthropic.messages.create(r), { schema: CITY_SCHEMA }), server.requests);
    });
  });

  test("without tools: resampled", async () => {
    await withWireServer([cut(), good()], async (server) => {
      const anthropic = client(server);
      const result = await guard.guardedCall(base, (r) => anthropic.messages.create(r), { schema: CITY_SCHEMA });
      assert.equal(result.attempts, 2);
      assert.equal(server.requests.length, 2);
    });
  });
});

describe("OpenAI: Responses hosted tools and Chat web search", { timeout: 20000 }, () => {
  const client = (server) => new OpenAI({ apiKey: "test-key", baseURL: `${server.url}/v1`, maxRetries: 0 });

  test("a Responses mcp tool: one request", async () => {
    await withWireServer([openaiResponses(CUT, { status: "incomplete", reason: "max_output_tokens" }), openaiResponses(GOOD)], async (server) => {
      const openai = client(server);
      const request = { model: "gpt-5", input: "Which city?", tools: [{ type: "mcp", server_label: "example", server_url: "https://mcp.example/sse", require_approval: "never" }] };
      await assertOneAttempt(guard.guardedCall(request, (r) => openai.responses.create(r), { schema: CITY_SCHEMA }), server.requests);
    });
  });

  test("Chat web_search_options, even empty: one request", async () => {
    await withWireServer([openaiChat(CUT, { finishReason: "length" }), openaiChat(GOOD)], async (server) => {
      const openai = client(server);
      const request = { model: "gpt-4o-search-preview", messages: [{ role: "user", content: "Which city?" }], web_search_options: {} };
      await assertOneAttempt(guard.guardedCall(request, (r) => openai.chat.completions.create(r), { schema: CITY_SCHEMA }), server.requests);
    });
  });
});

describe("Bedrock, the AI SDK, Mistral, Cohere, Ollama and unusual containers", () => {
  const bodyWithTools = JSON.stringify({
    anthropic_version: "bedrock-2023-05-31",
    max_tokens: 64,
    messages: [{ role: "user", content: "Which city?" }],
    tools: [{ name: "lookup_population", input_schema: { type: "object" } }],
  });
  const cut = () => openaiChat(CUT, { finishReason: "length" });
  const good = () => openaiChat(GOOD);

  const CARRIERS = [
    ["Bedrock Converse toolConfig.tools", { modelId: "m", messages: [], toolConfig: { tools: [{ toolSpec: { name: "lookup" } }] } }],
    ["Bedrock InvokeModel body as text", { modelId: "anthropic.claude", contentType: "application/json", body: bodyWithTools }],
    ["Bedrock InvokeModel body as bytes", { modelId: "anthropic.claude", body: new TextEncoder().encode(bodyWithTools) }],
    ["an InvokeModelCommand's input.body", { input: { modelId: "anthropic.claude", body: bodyWithTools } }],
    ["an AI SDK tools record", { prompt: "Which city?", tools: { lookup: tool({ description: "Looks up a population.", inputSchema: jsonSchema({ type: "object" }) }) } }],
    ["Mistral tools", { model: "mistral-large-latest", messages: [], tools: [{ type: "function", function: { name: "lookup", parameters: {} } }] }],
    ["Cohere v2 tools", { model: "command-a", messages: [], tools: [{ type: "function", function: { name: "lookup", parameters: {} } }] }],
    ["Ollama tools", { model: "llama3.2", messages: [], stream: false, tools: [{ type: "function", function: { name: "lookup" } }] }],
    ["a Map of tools", { messages: [], tools: new Map([["lookup", { description: "d" }]]) }],
    ["tools behind a getter", new (class Request { get tools() { return [{ type: "function", function: { name: "lookup" } }]; } })()],
    ["a getter that throws", { get tools() { throw new Error("not readable"); } }],
    ["a Proxy that throws", new Proxy({}, { get() { throw new Error("not readable"); } })],
  ];

  for (const [label, request] of CARRIERS) {
    test(`${label}: one attempt`, async () => {
      const { calls, callModel } = scripted(cut(), good());
      await assertOneAttempt(guard.guardedCall(request, callModel, { schema: CITY_SCHEMA }), calls);
    });
  }

  test("the reader written for the tool paths reads every request as the general walk does", () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const requests = [
      ...CARRIERS.map(([, request]) => request),
      {},
      { messages: [], tools: [] },
      { tools: null, functions: false, web_search_options: false, mcp_servers: [] },
      { web_search_options: {}, body: 5, input: { body: new ArrayBuffer(0) } },
      { toolConfig: null, config: "text", input: 3 },
      { toolConfig: new Map([["tools", [1]]]), config: { tools: new Set([1]) } },
      { config: { get tools() { throw new Error("not readable"); } } },
      { tools: 0, functions: Symbol("f"), mcp_servers: () => 1 },
      { body: new Uint8Array([123, 125]), input: { body: "{}" } },
      Object.create({ tools: [1] }),
      [1, 2],
      new Map([["tools", [1]]]),
      revoked.proxy,
      new Proxy({ tools: [] }, {}),
    ];
    for (const request of requests) {
      const general = toolPathsReadBy(request, false);
      assert.deepEqual(toolPathsReadBy(request, true), general);
    }
    // The cases above reach every code: nothing, tools, unreadable, a nested request's text.
    const codes = new Set(requests.flatMap((request) => {
      const { found } = toolPathsReadBy(request, true);
      return Array.from({ length: 8 }, (_, i) => Math.floor(found / 4 ** i) % 4);
    }));
    assert.deepEqual([...codes].sort(), [0, 1, 2, 3]);
  });

  const EMPTY = [
    ["an empty tools array", { messages: [], tools: [] }],
    ["an empty Map", { messages: [], tools: new Map() }],
    ["an empty AI SDK record", { prompt: "x", tools: {} }],
    ["a body without tools", { modelId: "m", body: JSON.stringify({ messages: [] }) }],
  ];
  for (const [label, request] of EMPTY) {
    test(`${label}: no tools, so resampled`, async () => {
      const { calls, callModel } = scripted(cut(), good());
      const result = await guard.guardedCall(request, callModel, { schema: CITY_SCHEMA });
      assert.equal(result.attempts, 2);
      assert.equal(calls.length, 2);
    });
  }
});

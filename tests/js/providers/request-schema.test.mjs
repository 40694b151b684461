// guardedCall and guardedStream with no `schema` option check against the
// schema the request gives the provider, read along the core's paths: each
// provider's request form, driven through its real SDK client against a
// local server in its wire format. And a schema the guard cannot apply
// degrades, visibly, by default.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI, Type } from "@google/genai";
import { z as z3 } from "zod3";
import { zodResponseFormat } from "openai/helpers/zod";
import * as guard from "../../../pkg/node.mjs";
import { anthropicMessage, geminiResponse, openaiChat, openaiResponses, rejected } from "../../support/fixtures.mjs";
import { sse, withWireServer } from "../../support/wire-server.mjs";

const CITY = {
  type: "object",
  properties: { city: { type: "string" }, population: { type: "integer", minimum: 0 } },
  required: ["city", "population"],
  additionalProperties: false,
};
const GOOD = { city: "Oslo", population: 709000 };
const BAD = { city: "Oslo", population: "many" };
const messages = [{ role: "user", content: "Oslo?" }];

describe("guardedCall reads the schema from the request", () => {
  test("OpenAI Chat response_format.json_schema, from the real client: resampled against it, and strict: false reported", async () => {
    await withWireServer([openaiChat(JSON.stringify(BAD)), openaiChat(JSON.stringify(GOOD))], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const request = { model: "gpt-4.1-mini", messages, response_format: { type: "json_schema", json_schema: { name: "city", schema: CITY, strict: false } } };
      const result = await guard.guardedCall(request, (req) => client.chat.completions.create(req));
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, GOOD);
      assert.equal(result.verdicts[0].failure, "schema");
      assert.equal(result.verdicts[0].errors[0].path, "/population");
      assert.deepEqual(result.verdicts.map((v) => v.providerStrict), [false, false]);
      assert.equal(result.degraded, false);
    });
  });

  test("the Zod 3 helper's response_format: null accepted where the helper wrote nullable", async () => {
    const Moderation = z3.object({ is_violating: z3.boolean(), explanation_if_violating: z3.string().nullable() });
    await withWireServer([openaiChat('{"is_violating":false,"explanation_if_violating":null}')], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const request = { model: "gpt-4.1-mini", messages, response_format: zodResponseFormat(Moderation, "moderation") };
      const result = await guard.guardedCall(request, (req) => client.chat.completions.create(req));
      assert.deepEqual(result.value, { is_violating: false, explanation_if_violating: null });
      assert.equal(result.verdicts[0].providerStrict, true);
    });
  });

  test("OpenAI Responses text.format, from the real client", async () => {
    await withWireServer([openaiResponses(JSON.stringify(BAD)), openaiResponses(JSON.stringify(GOOD))], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const request = { model: "gpt-4.1", input: "Oslo?", text: { format: { type: "json_schema", name: "city", schema: CITY, strict: true } } };
      const result = await guard.guardedCall(request, (req) => client.responses.create(req));
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, GOOD);
    });
  });

  test("Anthropic's forced tool: its input_schema, and its name as toolName", async () => {
    const toolUse = (input) => ({ ...anthropicMessage(""), content: [{ type: "tool_use", id: "toolu_1", name: "record_city", input }], stop_reason: "tool_use" });
    await withWireServer([toolUse(GOOD), toolUse(BAD)], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const request = {
        model: "claude-sonnet-4-5",
        max_tokens: 256,
        messages,
        tools: [{ name: "other", input_schema: { type: "object" } }, { name: "record_city", input_schema: CITY }],
        tool_choice: { type: "tool", name: "record_city" },
      };
      const result = await guard.guardedCall(request, (req) => client.messages.create(req));
      assert.deepEqual(result.value, GOOD);
      // The request carries tools, so it is not resampled: the bad input is rejected at once.
      const error = await rejected(guard.guardedCall(request, (req) => client.messages.create(req)));
      assert.equal(error.name, "StructuredOutputError");
      assert.equal(error.failure, "schema");
      assert.equal(error.errors[0].path, "/population");
    });
  });

  test("OpenAI's forced function (Chat and Responses): its parameters, and its name as toolName", async () => {
    const call = (args) => {
      const body = openaiChat(null, { finishReason: "tool_calls" });
      body.choices[0].message.tool_calls = [{ id: "call_1", type: "function", function: { name: "record_city", arguments: JSON.stringify(args) } }];
      return body;
    };
    const responsesCall = (args) => ({
      ...openaiResponses(""),
      output: [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "record_city", arguments: JSON.stringify(args), status: "completed" }],
    });
    await withWireServer([call(BAD), responsesCall(GOOD)], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const chat = {
        model: "gpt-4.1-mini",
        messages,
        tools: [{ type: "function", function: { name: "record_city", parameters: CITY, strict: true } }],
        tool_choice: { type: "function", function: { name: "record_city" } },
      };
      const error = await rejected(guard.guardedCall(chat, (req) => client.chat.completions.create(req)));
      assert.equal(error.failure, "schema");
      assert.equal(error.verdicts[0].providerStrict, true);
      const responses = {
        model: "gpt-4.1",
        input: "Oslo?",
        tools: [{ type: "function", name: "record_city", parameters: CITY, strict: true }],
        tool_choice: { type: "function", name: "record_city" },
      };
      const result = await guard.guardedCall(responses, (req) => client.responses.create(req));
      assert.deepEqual(result.value, GOOD);
    });
  });

  test("Gemini config.responseSchema (Gemini's Schema) and config.responseJsonSchema, from the real @google/genai client", async () => {
    const rooms = {
      type: Type.OBJECT,
      properties: { rooms: { type: Type.ARRAY, minItems: "1", items: { type: Type.INTEGER, format: "enum", enum: ["101", "201"] } } },
      required: ["rooms"],
    };
    await withWireServer(
      [geminiResponse('{"rooms":[]}'), geminiResponse('{"rooms":[201]}'), geminiResponse('{"city":"Oslo","population":-1}'), geminiResponse(JSON.stringify(GOOD))],
      async (server) => {
        const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
        const gemini = { model: "gemini-2.5-flash", contents: "Rooms?", config: { responseMimeType: "application/json", responseSchema: rooms } };
        const result = await guard.guardedCall(gemini, (req) => ai.models.generateContent(req));
        assert.equal(result.attempts, 2);
        assert.equal(result.verdicts[0].errors[0].code, "minItems");
        assert.deepEqual(result.value, { rooms: [201] });
        // The SDK sent the Schema as written.
        assert.deepEqual(server.requests[0].body.generationConfig.responseSchema.properties.rooms.minItems, "1");
        const json = { model: "gemini-2.5-flash", contents: "Oslo?", config: { responseMimeType: "application/json", responseJsonSchema: CITY } };
        const second = await guard.guardedCall(json, (req) => ai.models.generateContent(req));
        assert.equal(second.attempts, 2);
        assert.deepEqual(second.value, GOOD);
      },
    );
  });

  test("the REST generationConfig form and Ollama's format, over fetch", async () => {
    const ollama = (content) => ({ model: "llama3.2", created_at: "2026-01-01T00:00:00Z", message: { role: "assistant", content }, done: true, done_reason: "stop", prompt_eval_count: 10, eval_count: 5 });
    await withWireServer(
      [geminiResponse('{"n":3}'), geminiResponse('{"n":2}'), ollama(JSON.stringify(BAD)), ollama(JSON.stringify(GOOD))],
      async (server) => {
        const post = async (path, body) => (await fetch(`${server.url}${path}`, { method: "POST", body: JSON.stringify(body) })).json();
        // The documentation's lower-case spelling: the member says it is Gemini's Schema.
        const rest = {
          contents: [{ role: "user", parts: [{ text: "n?" }] }],
          generationConfig: { responseMimeType: "application/json", responseSchema: { type: "object", properties: { n: { type: "integer", format: "enum", enum: ["1", "2"] } }, required: ["n"] } },
        };
        const result = await guard.guardedCall(rest, (req) => post("/v1beta/models/gemini-2.5-flash:generateContent", req));
        assert.equal(result.attempts, 2);
        assert.deepEqual(result.value, { n: 2 });
        const local = { model: "llama3.2", messages, stream: false, format: CITY };
        const second = await guard.guardedCall(local, (req) => post("/api/chat", req));
        assert.equal(second.attempts, 2);
        assert.deepEqual(second.value, GOOD);
      },
    );
  });

  test("options.schema wins over the request's", async () => {
    const request = { model: "gpt-4.1-mini", messages, response_format: { type: "json_schema", json_schema: { name: "city", schema: CITY } } };
    const result = await guard.guardedCall(request, async () => openaiChat('{"anything":true}'), { schema: { type: "object" } });
    assert.deepEqual(result.value, { anything: true });
  });

  test("a request with no schema and no schema option: the TypeError names the members looked at", async () => {
    for (const request of [{ model: "gpt-4.1-mini", messages }, { model: "llama3.2", messages, format: "json" }]) {
      const error = await rejected(guard.guardedCall(request, async () => openaiChat("{}"), {}));
      assert.ok(error instanceof TypeError);
      assert.equal(error.code, "invalid_argument");
      assert.match(error.message, /^guardedCall needs options\.schema/);
      for (const member of ["response_format.json_schema.schema", "text.format.schema", "tool_choice", "config.responseSchema", "config.responseJsonSchema", "generationConfig.responseSchema", "format"]) {
        assert.ok(error.message.includes(member), `${member} in ${error.message}`);
      }
    }
    const noOptions = await rejected(guard.guardedCall({ messages }, async () => openaiChat("{}")));
    assert.match(noOptions.message, /guardedCall needs options\.schema/);
  });
});

describe("guardedStream reads the schema from the request", () => {
  test("OpenAI Chat response_format, streamed through the real client", async () => {
    const chunk = (content, finish = null) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4.1-mini", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
    await withWireServer(
      [sse([chunk('{"city":"Oslo",'), chunk('"population":"many"}', "stop"), "data: [DONE]\n\n"]), sse([chunk(JSON.stringify(GOOD), "stop"), "data: [DONE]\n\n"])],
      async (server) => {
        const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
        const request = { model: "gpt-4.1-mini", messages, stream: true, response_format: { type: "json_schema", json_schema: { name: "city", schema: CITY, strict: true } } };
        const result = await guard.guardedStream(request, (req, { signal }) => client.chat.completions.create(req, { signal }));
        assert.equal(result.attempts, 2);
        assert.deepEqual(result.value, GOOD);
        assert.equal(result.verdicts[0].failure, "schema");
        assert.equal(result.verdicts[0].providerStrict, true);
      },
    );
  });
});

describe("a schema the guard cannot apply degrades, and says so", () => {
  const unusable = { type: "object", properties: { a: { type: "strin" } } };

  test("guardedCall and guardedStream degrade by default: the result, its audit and the stats say degraded", async () => {
    const stats = guard.createGuardStats();
    const result = await guard.guardedCall({}, async () => openaiChat('{"a":5}'), { schema: unusable, stats });
    assert.deepEqual(result.value, { a: 5 });
    assert.equal(result.degraded, true);
    assert.equal(result.audit.degraded, true);
    assert.equal(result.verdicts[0].degraded, true);
    assert.equal(stats.snapshot().degraded, 1);
    const streamed = await guard.guardedStream({}, async function* () {
      yield '{"a":';
      yield "5}";
    }, { schema: unusable, stats });
    assert.equal(streamed.degraded, true);
    assert.equal(stats.snapshot().degraded, 2);
    const error = await rejected(guard.guardedCall({}, async () => openaiChat("not json"), { schema: unusable, budgets: { total: 0 } }));
    assert.equal(error.failure, "unparseable");
    assert.equal(error.degraded, true);
    assert.equal(error.audit.degraded, true);
    const fine = await guard.guardedCall({}, async () => openaiChat('{"a":"x"}'), { schema: { type: "object" }, stats });
    assert.equal(fine.degraded, false);
    assert.equal(stats.snapshot().degraded, 2);
  });

  test("onInvalidSchema: \"throw\" still throws the SchemaError before any call", async () => {
    let called = 0;
    const error = await rejected(guard.guardedCall({}, async () => (called++, openaiChat("{}")), { schema: unusable, onInvalidSchema: "throw" }));
    assert.ok(error instanceof guard.SchemaError);
    assert.equal(called, 0);
  });
});

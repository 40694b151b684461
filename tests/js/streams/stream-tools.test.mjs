// Forced-tool output in a stream: with `toolName`, the named tool's
// argument text, as each provider streams it, is the output. The events
// come from the real SDK clients, driven against a local server that
// streams each provider's server-sent events; a stream check's end must
// equal checkOutput on the response the SDK assembles, and guardedStream
// must stop a doomed call early and never resample it (a request with tools).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { jsonSchema, streamText } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import * as guard from "../../../pkg/node.mjs";
import { sse, withWireServer } from "../../support/wire-server.mjs";
import { pieces, rowsSchema, rowsText } from "../../support/fixtures.mjs";

const TOOL = "record_rows";
const schema = rowsSchema(200);

const argumentsText = rowsText;

const frame = (data, event) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
const good = argumentsText(4);
const doomed = argumentsText(150, 3);
const delayMs = 2;

// ---- each provider's stream of a tool call ----

/** OpenAI Chat: the forced call at index 0, another tool's call interleaved at index 1. */
function chatTools(args, { finish = "tool_calls", name = TOOL } = {}) {
  const chunk = (delta, finishReason = null) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const other = pieces('{"note":"interleaved"}', 6);
  const out = [frame(chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }] }))];
  out.push(frame(chunk({ tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name: "log_note", arguments: "" } }] })));
  pieces(args).forEach((p, i) => {
    out.push(frame(chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] })));
    if (i < other.length) out.push(frame(chunk({ tool_calls: [{ index: 1, function: { arguments: other[i] } }] })));
  });
  out.push(frame(chunk({}, finish)), "data: [DONE]\n\n");
  return out;
}

function responsesTools(args, { status = "completed", name = TOOL } = {}) {
  let n = 0;
  const item = (extra) => ({ type: "function_call", id: "fc_1", call_id: "call_1", name, ...extra });
  const response = (state, extra = {}) => ({ id: "resp_1", object: "response", created_at: 1, status: state, model: "gpt-5-mini", output: [], ...extra });
  const done = status === "completed"
    ? { type: "response.completed", response: response("completed", { output: [item({ arguments: args, status: "completed" })] }) }
    : { type: "response.incomplete", response: response("incomplete", { incomplete_details: { reason: "max_output_tokens" }, output: [item({ arguments: args, status: "incomplete" })] }) };
  return [
    frame({ type: "response.created", sequence_number: n++, response: response("in_progress") }, "response.created"),
    frame({ type: "response.output_item.added", sequence_number: n++, output_index: 0, item: item({ arguments: "", status: "in_progress" }) }, "response.output_item.added"),
    ...pieces(args).map((delta) => frame({ type: "response.function_call_arguments.delta", sequence_number: n++, item_id: "fc_1", output_index: 0, delta }, "response.function_call_arguments.delta")),
    frame({ type: "response.function_call_arguments.done", sequence_number: n++, item_id: "fc_1", output_index: 0, arguments: args }, "response.function_call_arguments.done"),
    frame({ ...done, sequence_number: n++ }, done.type),
  ];
}

function anthropicTools(args, { stop = "tool_use", name = TOOL } = {}) {
  return [
    frame({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } }, "message_start"),
    frame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
    frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Recording." } }, "content_block_delta"),
    frame({ type: "content_block_stop", index: 0 }, "content_block_stop"),
    frame({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name, input: {} } }, "content_block_start"),
    ...pieces(args).map((partial_json) => frame({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json } }, "content_block_delta")),
    frame({ type: "content_block_stop", index: 1 }, "content_block_stop"),
    frame({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 40 } }, "message_delta"),
    frame({ type: "message_stop" }, "message_stop"),
  ];
}

function geminiTools(args, { finish = "STOP", name = TOOL } = {}) {
  return [
    `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "thinking", thought: true }] }, index: 0 }], modelVersion: "gemini-2.5-flash" })}\r\n\r\n`,
    `data: ${JSON.stringify({
      candidates: [{ content: { role: "model", parts: [{ functionCall: { name, args: JSON.parse(args) } }] }, index: 0, finishReason: finish }],
      usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 20, totalTokenCount: 28 },
      modelVersion: "gemini-2.5-flash",
    })}\r\n\r\n`,
  ];
}

// ---- the clients: each gives its events and the response it assembles ----

const chatRequest = { model: "gpt-4o-mini", messages: [{ role: "user", content: "rows" }], tools: [{ type: "function", function: { name: TOOL, parameters: schema } }], tool_choice: { type: "function", function: { name: TOOL } } };
const responsesRequest = { model: "gpt-5-mini", input: "rows", tools: [{ type: "function", name: TOOL, parameters: schema, strict: false }], tool_choice: { type: "function", name: TOOL } };
const anthropicRequest = { model: "claude-sonnet-4-5", max_tokens: 1000, messages: [{ role: "user", content: "rows" }], tools: [{ name: TOOL, input_schema: schema }], tool_choice: { type: "tool", name: TOOL } };
const geminiRequest = { model: "gemini-2.5-flash", contents: "rows", config: { tools: [{ functionDeclarations: [{ name: TOOL, parametersJsonSchema: schema }] }] } };

const providers = {
  "OpenAI Chat": {
    script: chatTools,
    truncated: (args) => chatTools(args, { finish: "length" }),
    request: { ...chatRequest, stream: true },
    client: (url) => new OpenAI({ apiKey: "test", baseURL: `${url}/v1`, maxRetries: 0 }),
    stream: (client, request, signal) => client.chat.completions.create(request, { signal }),
    async assembled(client, request) {
      const stream = client.chat.completions.stream(request);
      const events = [];
      for await (const event of stream) events.push(event);
      return { events, response: await stream.finalChatCompletion() };
    },
  },
  "OpenAI Responses": {
    script: responsesTools,
    truncated: (args) => responsesTools(args, { status: "incomplete" }),
    request: { ...responsesRequest, stream: true },
    client: (url) => new OpenAI({ apiKey: "test", baseURL: `${url}/v1`, maxRetries: 0 }),
    stream: (client, request, signal) => client.responses.create(request, { signal }),
    async assembled(client, request) {
      const events = [];
      for await (const event of await client.responses.create(request)) events.push(event);
      const last = events.at(-1);
      return { events, response: last.response };
    },
  },
  Anthropic: {
    script: anthropicTools,
    truncated: (args) => anthropicTools(args, { stop: "max_tokens" }),
    request: { ...anthropicRequest, stream: true },
    client: (url) => new Anthropic({ apiKey: "test", baseURL: url, maxRetries: 0 }),
    stream: (client, request, signal) => client.messages.create(request, { signal }),
    async assembled(client, request) {
      const { stream: _, ...params } = request;
      const stream = client.messages.stream(params);
      const events = [];
      for await (const event of stream) events.push(event);
      return { events, response: await stream.finalMessage() };
    },
  },
  Gemini: {
    script: geminiTools,
    truncated: (args) => geminiTools(args, { finish: "MAX_TOKENS" }),
    request: geminiRequest,
    client: (url) => new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: url } }),
    stream: (client, request, signal) => client.models.generateContentStream({ ...request, config: { ...request.config, abortSignal: signal } }),
    async assembled(client, request) {
      const events = [];
      for await (const event of await client.models.generateContentStream(request)) events.push(event);
      // The chunk that carries the call and the finish reason is the response.
      return { events, response: events.at(-1) };
    },
  },
  "AI SDK": {
    script: chatTools,
    truncated: (args) => chatTools(args, { finish: "length" }),
    request: { prompt: "rows" },
    client: (url) => createOpenAI({ apiKey: "test", baseURL: `${url}/v1` }),
    stream: (openai, request, signal) =>
      streamText({
        model: openai.chat("gpt-4o-mini"),
        prompt: request.prompt,
        tools: { [TOOL]: { inputSchema: jsonSchema({ type: "object" }) }, log_note: { inputSchema: jsonSchema({ type: "object" }) } },
        toolChoice: { type: "tool", toolName: TOOL },
        abortSignal: signal,
        maxRetries: 0,
      }).fullStream,
    async assembled(openai, request) {
      const result = streamText({
        model: openai.chat("gpt-4o-mini"),
        prompt: request.prompt,
        tools: { [TOOL]: { inputSchema: jsonSchema({ type: "object" }) }, log_note: { inputSchema: jsonSchema({ type: "object" }) } },
        toolChoice: { type: "tool", toolName: TOOL },
        maxRetries: 0,
      });
      const events = [];
      for await (const part of result.fullStream) events.push(part);
      return { events, response: { content: await result.content, finishReason: await result.finishReason } };
    },
  },
};

/** Every event pushed into a stream check for the tool; its first rejection and its end. */
function checkEvents(events, options = { toolName: TOOL }) {
  const check = guard.createStreamCheck(schema, options);
  let rejected;
  for (const event of events) {
    const state = check.push(event);
    if (state.status === "rejected") rejected ??= state;
  }
  return { rejected, verdict: check.end() };
}

async function closedEarly(server) {
  for (let i = 0; i < 100 && !server.streams[0]?.closedEarly; i++) await new Promise((r) => setTimeout(r, 10));
  return server.streams[0];
}

for (const [provider, p] of Object.entries(providers)) {
  describe(`forced-tool output in a stream: ${provider}`, () => {
    test("createStreamCheck with toolName: end() equals checkOutput on the assembled response, accepted, invalid and truncated", async () => {
      // Gemini sends a call whole, as an object: a truncated one still parses.
      const cut = provider === "Gemini" ? good : good.slice(0, 30);
      const scripts = [p.script(good), p.script(argumentsText(6, 2)), p.truncated(cut), p.script(good, { name: "other_tool" })];
      await withWireServer(scripts.map((s) => sse(s)), async (server) => {
        const client = p.client(server.url);
        const verdicts = [];
        for (let i = 0; i < scripts.length; i++) {
          const { events, response } = await p.assembled(client, p.request);
          const { verdict, rejected } = checkEvents(events);
          const expected = guard.checkOutput(response, schema, { toolName: TOOL });
          // A rejection ends the stream check with it, and says where it was decided.
          assert.deepEqual(verdict, rejected ? { ...expected, atByte: rejected.atByte } : expected, `${provider} script ${i}`);
          verdicts.push(verdict);
        }
        const [accepted, invalid, truncated, missing] = verdicts;
        assert.equal(accepted.ok, true, accepted.message);
        assert.deepEqual(accepted.value, JSON.parse(good));
        assert.equal(invalid.failure, "schema");
        assert.equal(truncated.failure, "truncated");
        assert.equal(missing.failure, "empty");
        assert.match(missing.message, new RegExp(`"${TOOL}"`));
      });
    });

    test("guardedStream with toolName: accepted, and a doomed call stopped early with the connection dropped, never resampled", async () => {
      await withWireServer([sse(p.script(good)), sse(p.script(doomed), { delayMs }), sse(p.script(good))], async (server) => {
        const client = p.client(server.url);
        const streamModel = (request, { signal }) => p.stream(client, request, signal);
        const result = await guard.guardedStream(p.request, streamModel, { schema, toolName: TOOL });
        assert.equal(result.attempts, 1);
        assert.deepEqual(result.value, JSON.parse(good));
        const error = await guard.guardedStream(p.request, streamModel, { schema, toolName: TOOL }).catch((e) => e);
        assert.ok(error instanceof guard.StructuredOutputError, String(error));
        assert.equal(error.failure, "schema");
        assert.equal(error.attempts, 1, "a request with tools is never resampled");
        assert.deepEqual(error.verdicts[0].errors.map((e) => [e.path, e.code]), [["/rows/2/status", "enum"]]);
        const [, stopped] = error.audit.attempts.length === 1 ? [null, error.audit.attempts[0]] : error.audit.attempts;
        if (provider !== "Gemini") {
          // Gemini sends the call whole: nothing is left to stop.
          assert.equal(stopped.stoppedEarly, true);
          assert.ok(stopped.bytes < doomed.length / 2, `${stopped.bytes} of ${doomed.length} bytes`);
          const streams = server.streams.slice(1);
          for (let i = 0; i < 100 && !streams[0].closedEarly; i++) await new Promise((r) => setTimeout(r, 10));
          assert.equal(streams[0].closedEarly, true);
        }
        assert.equal(server.requests.length, 2);
      });
    });
  });
}

describe("forced-tool output in a stream: what the check takes", () => {
  test("strings are the tool's argument text itself; a bad toolName is a typed error", () => {
    const check = guard.createStreamCheck(schema, { toolName: TOOL });
    for (const piece of pieces(good, 5)) assert.equal(check.push(piece).status, "pending");
    assert.deepEqual(check.end("tool_calls").value, JSON.parse(good));
    assert.throws(() => guard.createStreamCheck(schema, { toolName: 5 }), (e) => e instanceof TypeError && e.code === "invalid_argument");
    const plain = guard.createStreamCheck(schema);
    assert.throws(() => plain.push({ type: "tool-input-delta", id: "1", delta: "{" }), (e) => e instanceof TypeError && e.code === "invalid_argument");
    plain.free();
  });

  test("guardedStream with toolName: strings are argument text, and the lenient path finds the tool's object", async () => {
    const strings = () => pieces(good, 5);
    const strictResult = await guard.guardedStream({}, strings, { schema, toolName: TOOL });
    assert.deepEqual(strictResult.value, JSON.parse(good));
    const lenient = await guard.guardedStream({}, () => pieces(argumentsText(3, 2), 5), { schema, toolName: TOOL, strict: false });
    assert.deepEqual(lenient.value, JSON.parse(argumentsText(3, 2)));
    assert.match(lenient.warning, /^schema/);
  });

  test("a stream with no tool call at all is empty, naming the tool, as checkOutput says", () => {
    const check = guard.createStreamCheck(schema, { toolName: TOOL });
    check.push({ type: "text-delta", id: "t", text: '{"rows":[]}' });
    check.push({ type: "finish", finishReason: "stop", totalUsage: {} });
    const verdict = check.end();
    assert.equal(verdict.failure, "empty");
    assert.equal(verdict.message, guard.checkOutput({ content: [{ type: "text", text: '{"rows":[]}' }], finishReason: "stop" }, schema, { toolName: TOOL }).message);
    assert.match(verdict.message, /"record_rows"/);
  });
});

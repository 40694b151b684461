// Every tool call of a streamed response checked against its own tool's
// schema as its arguments stream (createToolCallStreamCheck, and
// guardedStream's onToolCall). The events come from the real SDK clients
// against a local server streaming each provider's server-sent events: a
// call is reported rejected the moment its arguments can no longer be
// valid, and accepted as they end; the end equals checkToolCalls on the
// response the SDK assembles, over generated calls and random chunkings.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import * as guard from "../../../pkg/node.mjs";
import { sse, withWireServer } from "../../support/wire-server.mjs";
import { prng } from "../../support/random.mjs";

const WEATHER = {
  type: "object",
  required: ["unit", "city"],
  additionalProperties: false,
  properties: { unit: { enum: ["c", "f"] }, city: { type: "string", maxLength: 40 }, comment: { type: "string" } },
};
const ADD = { type: "object", required: ["a", "b"], properties: { a: { type: "integer" }, b: { type: "integer", minimum: 0 } } };
const NOTE = { type: "object", required: ["text"], properties: { text: { type: "string" } } };
const chatTools = [
  { type: "function", function: { name: "get_weather", parameters: WEATHER } },
  { type: "function", function: { name: "add", parameters: ADD } },
  { type: "function", function: { name: "note", parameters: NOTE } },
];
const chatRequest = { model: "gpt-4o-mini", messages: [{ role: "user", content: "go" }], tools: chatTools, stream: true };
const anthropicRequest = {
  model: "claude-sonnet-4-5",
  max_tokens: 1000,
  messages: [{ role: "user", content: "go" }],
  tools: chatTools.map(({ function: f }) => ({ name: f.name, input_schema: f.parameters })),
};

const frame = (data, event) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

/** OpenAI Chat chunks of `calls` ({ name, args }), their argument pieces interleaved round-robin. */
function chatStream(calls, pieceSize = () => 8, finish = "tool_calls") {
  const chunk = (delta, finishReason = null) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const out = [frame(chunk({ role: "assistant", content: null }))];
  const rest = calls.map((c) => c.args);
  calls.forEach((c, index) => out.push(frame(chunk({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name: c.name, arguments: "" } }] }))));
  while (rest.some((r) => r.length > 0)) {
    rest.forEach((r, index) => {
      if (r.length === 0) return;
      const n = pieceSize();
      out.push(frame(chunk({ tool_calls: [{ index, function: { arguments: r.slice(0, n) } }] })));
      rest[index] = r.slice(n);
    });
  }
  out.push(frame(chunk({}, finish)), "data: [DONE]\n\n");
  return out;
}

/** Anthropic message stream events of `calls`, one block after another. */
function anthropicStream(calls, pieceSize = () => 8, stop = "tool_use") {
  const out = [frame({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }, "message_start")];
  calls.forEach((c, index) => {
    out.push(frame({ type: "content_block_start", index, content_block: { type: "tool_use", id: `toolu_${index}`, name: c.name, input: {} } }, "content_block_start"));
    for (let r = c.args; r.length > 0; ) {
      const n = pieceSize();
      out.push(frame({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: r.slice(0, n) } }, "content_block_delta"));
      r = r.slice(n);
    }
    out.push(frame({ type: "content_block_stop", index }, "content_block_stop"));
  });
  out.push(frame({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 9 } }, "message_delta"), frame({ type: "message_stop" }, "message_stop"));
  return out;
}

/** Every event pushed; the decided ToolCallEvents in order, each with the events pushed before it. */
function checkAll(events, tools) {
  const check = guard.createToolCallStreamCheck(tools);
  const decided = [];
  events.forEach((event, at) => {
    for (const e of check.push(event)) decided.push({ ...e, at });
  });
  return { decided, verdict: check.end() };
}

async function chatAssembled(client, request = chatRequest) {
  const stream = client.chat.completions.stream(request);
  const events = [];
  for await (const event of stream) events.push(event);
  return { events, response: await stream.finalChatCompletion() };
}

async function anthropicAssembled(client) {
  const { stream: _, ...params } = anthropicRequest;
  const stream = client.messages.stream(params);
  const events = [];
  for await (const event of stream) events.push(event);
  return { events, response: await stream.finalMessage() };
}

const longComment = "x".repeat(120);

describe("createToolCallStreamCheck", () => {
  test("three interleaved calls, the second invalid: its rejection comes before its arguments end, the others are accepted", async () => {
    const calls = [
      { name: "add", args: JSON.stringify({ a: 1, b: 2, pad: longComment }) },
      { name: "get_weather", args: JSON.stringify({ unit: "kelvin", city: "Oslo", comment: longComment }) },
      { name: "note", args: JSON.stringify({ text: longComment }) },
    ];
    await withWireServer([sse(chatStream(calls))], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const { events, response } = await chatAssembled(client);
      const { decided, verdict } = checkAll(events, chatRequest);
      const lastPieceOf = (index) => events.findLastIndex((e) => e.choices[0]?.delta?.tool_calls?.some((c) => c.index === index && c.function?.arguments));
      const second = decided.find((e) => e.index === 1);
      assert.equal(second.status, "rejected");
      assert.equal(second.failure, "schema");
      assert.equal(second.name, "get_weather");
      assert.equal(second.id, "call_1");
      assert.deepEqual(second.errors.map((e) => [e.path, e.code]), [["/unit", "enum"]]);
      assert.ok(second.at < lastPieceOf(1), `rejected at event ${second.at}; its arguments end at ${lastPieceOf(1)}`);
      assert.equal(typeof second.atByte, "number");
      const accepted = decided.filter((e) => e.status === "accepted");
      assert.deepEqual(accepted.map((e) => [e.index, e.name]), [[0, "add"], [2, "note"]]);
      assert.deepEqual(accepted[0].value, JSON.parse(calls[0].args));
      // The rejection came first: an executor may start the valid calls, and never the invalid one.
      assert.ok(decided.indexOf(second) < decided.indexOf(accepted[0]));
      assert.equal(decided.length, 3, "each call is reported once");
      assert.deepEqual(verdict, guard.checkToolCalls(response, chatRequest));
    });
  });

  test("an unknown tool is reported the moment its name arrives", async () => {
    const calls = [{ name: "launch_rockets", args: JSON.stringify({ count: 3, pad: longComment }) }, { name: "note", args: '{"text":"ok"}' }];
    await withWireServer([sse(anthropicStream(calls))], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const { events, response } = await anthropicAssembled(client);
      const { decided, verdict } = checkAll(events, anthropicRequest);
      const start = events.findIndex((e) => e.type === "content_block_start" && e.content_block.name === "launch_rockets");
      assert.deepEqual([decided[0].at, decided[0].status, decided[0].failure, decided[0].name], [start, "rejected", "unknown_tool", "launch_rockets"]);
      assert.deepEqual(decided.slice(1).map((e) => [e.index, e.status]), [[1, "accepted"]]);
      assert.deepEqual(verdict, guard.checkToolCalls(response, anthropicRequest));
    });
  });

  test("differential: generated calls in random chunkings, the end equals checkToolCalls and each event agrees with it", async () => {
    const next = prng(0x7001);
    const below = next.below;
    const argsFor = (name) => {
      const bad = below(3) === 0;
      switch (name) {
        case "get_weather":
          return JSON.stringify({ unit: bad ? "kelvin" : below(2) ? "c" : "f", city: bad && below(2) ? "x".repeat(50) : "Oslo", ...(below(2) ? { comment: "c".repeat(below(80)) } : {}) });
        case "add":
          return JSON.stringify({ a: below(9), b: bad ? -1 : below(9), ...(below(2) ? { pad: "p".repeat(below(80)) } : {}) });
        case "note":
          return bad ? JSON.stringify({ text: 5 }) : JSON.stringify({ text: "t".repeat(below(90)) });
        default:
          return JSON.stringify({ any: below(9) });
      }
    };
    const names = ["get_weather", "add", "note", "note", "unknown_tool_x"];
    const scripts = [];
    for (let n = 0; n < 24; n++) {
      const calls = Array.from({ length: 1 + below(4) }, () => {
        const name = names[below(names.length)];
        return { name, args: argsFor(name) };
      });
      const pieceSize = () => 1 + below(12);
      const anthropic = n % 3 === 2;
      const finish = below(8) === 0 ? (anthropic ? "max_tokens" : "length") : anthropic ? "tool_use" : "tool_calls";
      scripts.push({ anthropic, events: anthropic ? anthropicStream(calls, pieceSize, finish) : chatStream(calls, pieceSize, finish) });
    }
    let rejected = 0;
    let rejectedEarly = 0;
    let accepted = 0;
    await withWireServer(scripts.map((s) => sse(s.events)), async (server) => {
      const openai = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const anthropic = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      for (const script of scripts) {
        const request = script.anthropic ? anthropicRequest : chatRequest;
        const { events, response } = script.anthropic ? await anthropicAssembled(anthropic) : await chatAssembled(openai);
        const { decided, verdict } = checkAll(events, request);
        const expected = guard.checkToolCalls(response, request);
        assert.deepEqual(verdict, expected);
        // Each call reported once; an accepted one is accepted at the end, a rejected one refused.
        assert.deepEqual([...new Set(decided.map((e) => e.index))].sort(), decided.map((e) => e.index).sort());
        for (const e of decided) {
          const call = expected.calls[e.index];
          if (e.status === "accepted") {
            accepted++;
            // A call whose arguments ended valid is accepted then; a response
            // that stops at the token limit after it refuses every call as
            // truncated at the end (an Anthropic block ends before the stop
            // reason comes).
            if (call.failure === "truncated") continue;
            assert.equal(call.ok, true, `${call.name}: accepted while streaming, refused at the end (${call.message})`);
            assert.deepEqual(e.value, call.value);
          } else {
            rejected++;
            rejectedEarly += e.atByte === undefined ? 0 : 1;
            assert.equal(call.ok, false, `${e.name}: rejected while streaming (${e.message}), accepted at the end`);
          }
        }
      }
    });
    // Short arguments are decided as they end (pieces cross into the core in batches of 64 characters).
    assert.ok(rejected > 5 && rejectedEarly > 0 && accepted > 10, `${rejected} rejected, ${rejectedEarly} before their arguments ended, ${accepted} accepted`);
  });

  test("a tool whose schema cannot be compiled: its calls are checked for parse and shape only, and say so", async () => {
    const request = { ...anthropicRequest, tools: [{ name: "note", input_schema: { type: "object", properties: { text: { type: "strnig" } } } }] };
    const calls = [{ name: "note", args: '{"text":5}' }, { name: "note", args: `[${"1,".repeat(60)}1]` }];
    await withWireServer([sse(anthropicStream(calls))], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const { events, response } = await anthropicAssembled(client);
      const { decided, verdict } = checkAll(events, request);
      // Blocks stream one after another: the first ends accepted before the second begins.
      assert.deepEqual(decided.map((e) => [e.index, e.status, e.degraded]), [[0, "accepted", true], [1, "rejected", true]]);
      assert.equal(decided.find((e) => e.index === 1).failure, "not_object");
      assert.match(decided.find((e) => e.index === 0).message, /schema was not applied/);
      assert.deepEqual(verdict, guard.checkToolCalls(response, request));
      assert.equal(verdict.degraded, true);
    });
  });

  test("misuse is a typed error", () => {
    for (const bad of [null, 5, "tools"]) {
      assert.throws(() => guard.createToolCallStreamCheck(bad), (e) => e instanceof TypeError && e.code === "invalid_argument");
    }
    assert.throws(() => guard.createToolCallStreamCheck(chatTools, { toolName: "x" }), (e) => e.code === "invalid_argument");
    const check = guard.createToolCallStreamCheck(chatTools);
    assert.throws(() => check.push("text"), (e) => e instanceof TypeError && e.code === "invalid_argument");
    check.end();
    assert.throws(() => check.push({}), (e) => e.code === "invalid_argument");
  });
});

describe("guardedStream's onToolCall", () => {
  test("receives each call's event as it is decided, with the same shape", async () => {
    const calls = [
      { name: "add", args: JSON.stringify({ a: 1, b: 2 }) },
      { name: "get_weather", args: JSON.stringify({ unit: "kelvin", city: "Oslo", comment: longComment }) },
    ];
    const events = chatStream(calls);
    await withWireServer([sse(events), sse(events)], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const seen = [];
      const result = await guard.guardedStream(chatRequest, (request, { signal }) => client.chat.completions.create(request, { signal }), {
        schema: { type: "object" },
        strict: false,
        onToolCall: (event) => seen.push(event),
      });
      assert.equal(result.attempts, 1);
      const { events: sdkEvents } = await chatAssembled(client);
      assert.deepEqual(seen, checkAll(sdkEvents, chatRequest).decided.map(({ at, ...e }) => e));
      // The invalid call is refused while it streams; the valid one is accepted as the response ends.
      assert.deepEqual(seen.map((e) => [e.name, e.status]), [["get_weather", "rejected"], ["add", "accepted"]]);
      await assert.rejects(
        guard.guardedStream(chatRequest, () => [], { schema: { type: "object" }, onToolCall: 5 }),
        (e) => e instanceof TypeError && e.code === "invalid_argument",
      );
    });
  });
});

// Amazon Bedrock through the real `@aws-sdk/client-bedrock-runtime`: its
// `ConverseCommand` output and the events its `ConverseStreamCommand`
// decodes from the binary event stream, against a local HTTP/2 server that
// frames each event as Bedrock does (tests/support/event-stream-server.mjs).
// A stream check's end must equal checkOutput (or checkToolCalls) on the
// Converse response that carries what the stream carried, fetched through
// the same SDK; guardedStream must stop a doomed stream early with the
// connection dropped, never resample a request with tools, and count the
// usage each attempt reported in `metadata.usage` once.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, ModelStreamErrorException } from "@aws-sdk/client-bedrock-runtime";
import * as guard from "../../../pkg/node.mjs";
import { event, eventStream, exception, withEventStreamServer } from "../../support/event-stream-server.mjs";
import { pieces, rowsSchema, rowsText } from "../../support/fixtures.mjs";

// The SDK warns once per process on Node before 22 that versions published
// after January 2027 will require it; the pinned version runs on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const MODEL = "anthropic.claude-sonnet-4-5-v1:0";
const TOOL = "record_rows";
const schema = rowsSchema(200);
const good = rowsText(4);
const doomed = rowsText(150, 3);
const delayMs = 2;

const client = (url) =>
  new BedrockRuntimeClient({ region: "us-east-1", endpoint: url, credentials: { accessKeyId: "AKIDLOCALTEST", secretAccessKey: "local-test-secret" }, maxAttempts: 1 });

const messages = [{ role: "user", content: [{ text: "rows" }] }];
const textRequest = { modelId: MODEL, messages };
const toolRequest = {
  modelId: MODEL,
  messages,
  toolConfig: { tools: [{ toolSpec: { name: TOOL, inputSchema: { json: schema } } }], toolChoice: { tool: { name: TOOL } } },
};

// ---- what the server says ----

/**
 * A ConverseStream reply: `blocks` (`{ text }`, `{ reasoning }` or `{
 * toolUse: { toolUseId, name, input } }`, input as text) streamed in
 * pieces of `size`, the tool
 * blocks' pieces interleaved round-robin by block, then the stop reason and
 * the usage.
 */
function converseStream(blocks, { stop = "end_turn", usage = { inputTokens: 12, outputTokens: 40, totalTokens: 52 }, size = 16 } = {}) {
  const out = [event("messageStart", { role: "assistant" })];
  const rest = blocks.map((block) => pieces(block.text ?? block.reasoning ?? block.toolUse.input, size));
  blocks.forEach((block, contentBlockIndex) => {
    if (block.toolUse) out.push(event("contentBlockStart", { contentBlockIndex, start: { toolUse: { toolUseId: block.toolUse.toolUseId, name: block.toolUse.name } } }));
  });
  while (rest.some((r) => r.length > 0)) {
    rest.forEach((r, contentBlockIndex) => {
      if (r.length === 0) return;
      const piece = r.shift();
      // Bedrock pads every event with `p`, which the SDK leaves out.
      const block = blocks[contentBlockIndex];
      const deltaOf = (text) => (block.toolUse ? { toolUse: { input: text } } : block.reasoning !== undefined ? { reasoningContent: { text } } : { text });
      out.push(event("contentBlockDelta", { contentBlockIndex, delta: deltaOf(piece), p: "abcdefghij".slice(0, 1 + (piece.length % 10)) }));
      // A text or reasoning block streams whole before the next block.
      if (!block.toolUse) while (r.length > 0) out.push(event("contentBlockDelta", { contentBlockIndex, delta: deltaOf(r.shift()) }));
    });
  }
  blocks.forEach((_, contentBlockIndex) => out.push(event("contentBlockStop", { contentBlockIndex })));
  out.push(event("messageStop", { stopReason: stop }));
  out.push(event("metadata", { usage, metrics: { latencyMs: 120 } }));
  return out;
}

const toolUse = (input, name = TOOL, toolUseId = "tooluse_1") => ({ toolUse: { toolUseId, name, input } });

/**
 * The Converse response that carries what a stream's events carried, as a
 * user assembles it: text and reasoning joined, each tool block's input text joined and
 * parsed (kept as text where it does not parse), the stop reason and the
 * usage.
 */
function assemble(events) {
  const content = [];
  let stopReason;
  let usage;
  for (const e of events) {
    if (e.contentBlockStart?.start?.toolUse) {
      const { toolUseId, name } = e.contentBlockStart.start.toolUse;
      content[e.contentBlockStart.contentBlockIndex] = { toolUse: { toolUseId, name, input: "" } };
    } else if (e.contentBlockDelta) {
      const { contentBlockIndex, delta } = e.contentBlockDelta;
      if (delta.text !== undefined) content[contentBlockIndex] = { text: (content[contentBlockIndex]?.text ?? "") + delta.text };
      else if (delta.reasoningContent?.text !== undefined) {
        const text = (content[contentBlockIndex]?.reasoningContent.reasoningText.text ?? "") + delta.reasoningContent.text;
        content[contentBlockIndex] = { reasoningContent: { reasoningText: { text } } };
      }
      else if (delta.toolUse) content[contentBlockIndex].toolUse.input += delta.toolUse.input;
    } else if (e.messageStop) stopReason = e.messageStop.stopReason;
    else if (e.metadata) usage = e.metadata.usage;
  }
  for (const block of content) {
    if (!block.toolUse) continue;
    // A tool called without arguments streams no input (or an empty
    // piece); Converse gives it `{}`.
    if (block.toolUse.input === "") block.toolUse.input = "{}";
    try {
      block.toolUse.input = JSON.parse(block.toolUse.input);
    } catch {
      // A cut input stays its text.
    }
  }
  return { output: { message: { role: "assistant", content } }, stopReason, usage, metrics: { latencyMs: 120 } };
}

/** The SDK's events of one ConverseStream call. */
async function streamEvents(bedrock, request) {
  const response = await bedrock.send(new ConverseStreamCommand(request));
  const events = [];
  for await (const e of response.stream) events.push(e);
  return { response, events };
}

/** The stream function guardedStream takes: the SDK's `response.stream`, the signal passed on as `abortSignal`. */
const streamModel = (bedrock) => async (request, { signal }) => (await bedrock.send(new ConverseStreamCommand(request), { abortSignal: signal })).stream;

/** Waits until the server saw the client go away from stream `i`. */
async function closedEarly(server, i = 0) {
  for (let n = 0; n < 100 && !server.streams[i]?.closedEarly; n++) await new Promise((r) => setTimeout(r, 10));
  return server.streams[i];
}

/** Every numeric leaf of a usage's tokens, summed. */
const leaves = (value) => (typeof value === "number" ? value : value !== null && typeof value === "object" ? Object.values(value).reduce((sum, v) => sum + leaves(v), 0) : 0);

describe("Bedrock Converse through the real SDK", () => {
  test("checkOutput, checkToolCalls and normalizeUsage read ConverseCommand's output, $metadata and all", async () => {
    const usage = { inputTokens: 30, outputTokens: 11, totalTokens: 51, cacheReadInputTokens: 6, cacheWriteInputTokens: 4 };
    const replies = [
      assemble([{ contentBlockDelta: { contentBlockIndex: 0, delta: { text: good } } }, { messageStop: { stopReason: "end_turn" } }, { metadata: { usage } }]),
      assemble([{ contentBlockDelta: { contentBlockIndex: 0, delta: { text: good } } }, { messageStop: { stopReason: "max_tokens" } }]),
      { output: { message: { role: "assistant", content: [{ text: "Recording." }, toolUse(JSON.parse(rowsText(5, 2)))] } }, stopReason: "tool_use", usage },
    ];
    await withEventStreamServer(replies, async (server) => {
      const bedrock = client(server.url);
      const text = await bedrock.send(new ConverseCommand(textRequest));
      assert.equal(text.$metadata.httpStatusCode, 200);
      const accepted = guard.checkOutput(text, schema);
      assert.equal(accepted.ok, true, accepted.message);
      assert.deepEqual(accepted.value, JSON.parse(good));
      assert.equal(accepted.finishReason, "end_turn");
      // Bedrock's input tokens leave out the cache: reads and writes count as input too.
      assert.deepEqual(guard.normalizeUsage(text).tokens, { input: 40, output: 11, total: 51, cacheRead: 6, cacheWrite: 4 });
      assert.deepEqual(guard.normalizeUsage(text.usage), guard.normalizeUsage(text));

      const cut = guard.checkOutput(await bedrock.send(new ConverseCommand(textRequest)), schema);
      assert.equal(cut.failure, "truncated");
      assert.equal(cut.finishReason, "max_tokens");

      const tool = await bedrock.send(new ConverseCommand(toolRequest));
      const forced = guard.checkOutput(tool, schema, { toolName: TOOL });
      assert.equal(forced.failure, "schema");
      assert.deepEqual(forced.errors.map((e) => [e.path, e.code]), [["/rows/1/status", "enum"]]);
      const calls = guard.checkToolCalls(tool, toolRequest);
      assert.deepEqual(calls.calls.map((c) => [c.id, c.name, c.ok, c.failure]), [["tooluse_1", TOOL, false, "schema"]]);
      assert.equal(server.requests[0].url, `/model/${encodeURIComponent(MODEL)}/converse`);
      bedrock.destroy();
    });
  });

  test("guardedCall: an invalid answer resampled with both usages merged; a request with tools never resampled", async () => {
    const usage = { inputTokens: 20, outputTokens: 9, totalTokens: 29, cacheReadInputTokens: 3 };
    const answer = (text) => ({ output: { message: { role: "assistant", content: [{ text }] } }, stopReason: "end_turn", usage, metrics: { latencyMs: 5 } });
    const forced = (input) => ({ output: { message: { role: "assistant", content: [toolUse(input)] } }, stopReason: "tool_use", usage, metrics: { latencyMs: 5 } });
    await withEventStreamServer([answer(rowsText(3, 1)), answer(good), forced(JSON.parse(rowsText(3, 2))), forced(JSON.parse(good))], async (server) => {
      const bedrock = client(server.url);
      const callModel = (request) => bedrock.send(new ConverseCommand(request));
      const result = await guard.guardedCall(textRequest, callModel, { schema });
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, JSON.parse(good));
      assert.deepEqual(result.usage.tokens, guard.mergeUsage(guard.normalizeUsage(usage), guard.normalizeUsage(usage)).tokens);
      assert.equal(leaves(result.usage.tokens), 2 * leaves(guard.normalizeUsage(usage).tokens));
      const error = await guard.guardedCall(toolRequest, callModel, { schema, toolName: TOOL }).catch((e) => e);
      assert.ok(error instanceof guard.StructuredOutputError, String(error));
      assert.equal(error.failure, "schema");
      assert.equal(error.attempts, 1, "a request with tools is never resampled");
      assert.equal(server.requests.length, 3);
      bedrock.destroy();
    });
  });
});

describe("Bedrock's forced tool read from the request", () => {
  test("toolConfig.toolChoice.tool names the tool whose inputSchema.json is the schema and whose toolUse carries the output, with no schema option", async () => {
    const forced = (input) => ({ output: { message: { role: "assistant", content: [toolUse(input)] } }, stopReason: "tool_use", usage: { inputTokens: 4, outputTokens: 5, totalTokens: 9 }, metrics: { latencyMs: 5 } });
    await withEventStreamServer([forced(JSON.parse(good)), forced(JSON.parse(rowsText(3, 2))), eventStream(converseStream([toolUse(good)], { stop: "tool_use" }))], async (server) => {
      const bedrock = client(server.url);
      const callModel = (request) => bedrock.send(new ConverseCommand(request));
      const result = await guard.guardedCall(toolRequest, callModel);
      assert.deepEqual(result.value, JSON.parse(good));
      const error = await guard.guardedCall(toolRequest, callModel).catch((e) => e);
      assert.ok(error instanceof guard.StructuredOutputError, String(error));
      assert.equal(error.failure, "schema");
      assert.equal(error.attempts, 1, "a request with a forced tool is never resampled");
      assert.deepEqual(error.verdicts[0].errors.map((e) => [e.path, e.code]), [["/rows/1/status", "enum"]]);
      const streamed = await guard.guardedStream(toolRequest, streamModel(bedrock));
      assert.deepEqual(streamed.value, JSON.parse(good));
      // A choice of any tool forces none: the request then has no schema.
      const anyTool = { ...toolRequest, toolConfig: { ...toolRequest.toolConfig, toolChoice: { any: {} } } };
      const missing = await guard.guardedCall(anyTool, callModel).catch((e) => e);
      assert.ok(missing instanceof TypeError && /toolChoice/.test(missing.message), String(missing));
      assert.equal(server.requests.length, 3);
      bedrock.destroy();
    });
  });
});

describe("Bedrock ConverseStream through the real SDK: text", () => {
  test("guardedStream: invalid and truncated answers resampled, each verdict checkOutput's on the Converse response, until one is accepted", async () => {
    // The accepted answer thinks first: its reasoning is not the answer.
    const scripts = [converseStream([{ text: rowsText(6, 2) }]), converseStream([{ text: good.slice(0, 30) }], { stop: "max_tokens" }), converseStream([{ reasoning: 'The rows, as {"rows": [...]}.' }, { text: good }])];
    // Each script twice: once for guardedStream, once read whole here; each message cut across two writes.
    await withEventStreamServer([...scripts, ...scripts].map((s) => eventStream(s, { split: true })), async (server) => {
      const bedrock = client(server.url);
      const result = await guard.guardedStream(textRequest, streamModel(bedrock), { schema, budgets: { total: 2 } });
      assert.equal(result.attempts, 3);
      assert.deepEqual(result.value, JSON.parse(good));
      for (const [i, verdict] of result.verdicts.entries()) {
        const { response, events } = await streamEvents(bedrock, textRequest);
        assert.equal(response.$metadata.httpStatusCode, 200);
        assert.deepEqual(Object.keys(events[0]), ["messageStart"]);
        const expected = guard.checkOutput(assemble(events), schema);
        // A stream stopped early never reached its stop reason.
        assert.deepEqual(verdict, result.audit.attempts[i].stoppedEarly ? { ...expected, finishReason: null } : expected, `attempt ${i + 1}`);
      }
      const [invalid, truncated, accepted] = result.verdicts;
      assert.equal(invalid.failure, "schema");
      assert.deepEqual([truncated.failure, truncated.finishReason], ["truncated", "max_tokens"]);
      assert.deepEqual([accepted.ok, accepted.finishReason], [true, "end_turn"]);
      assert.deepEqual(accepted.value, JSON.parse(good));
      assert.deepEqual(result.audit.attempts.map((a) => [a.stoppedEarly, a.usageReported]), [[true, false], [false, true], [false, true]]);
      bedrock.destroy();
    });
  });

  test("guardedStream: a doomed stream stopped early with the connection dropped, resampled, each attempt's metadata.usage counted once", async () => {
    const usage = { inputTokens: 25, outputTokens: 30, totalTokens: 62, cacheReadInputTokens: 4, cacheWriteInputTokens: 3 };
    // The second answer fails only at its end (the root's `required`), so its usage is reported.
    const replies = [eventStream(converseStream([{ text: doomed }], { usage }), { delayMs }), eventStream(converseStream([{ text: "{}" }], { usage })), eventStream(converseStream([{ text: good }], { usage }))];
    await withEventStreamServer(replies, async (server) => {
      const bedrock = client(server.url);
      const result = await guard.guardedStream(textRequest, streamModel(bedrock), { schema, budgets: { total: 2 } });
      assert.equal(result.attempts, 3);
      assert.deepEqual(result.value, JSON.parse(good));
      assert.equal(result.verdicts[2].finishReason, "end_turn");
      const [stopped, reported, accepted] = result.audit.attempts;
      assert.equal(stopped.stoppedEarly, true);
      assert.ok(stopped.bytes < doomed.length / 4, `${stopped.bytes} of ${doomed.length} bytes`);
      assert.equal(stopped.usageReported, false, "Bedrock reports usage after the stop reason");
      assert.deepEqual([reported.usageReported, accepted.usageReported], [true, true]);
      const once = guard.normalizeUsage(usage).tokens;
      assert.deepEqual(once, { input: 32, output: 30, total: 62, cacheRead: 4, cacheWrite: 3 });
      assert.deepEqual(result.usage.tokens, { input: 64, output: 60, total: 124, cacheRead: 8, cacheWrite: 6 });
      assert.equal(leaves(result.usage.tokens), 2 * leaves(once));
      const first = await closedEarly(server);
      assert.equal(first.closedEarly, true);
      assert.ok(first.written < first.total / 2, `${first.written} of ${first.total} messages written`);
      bedrock.destroy();
    });
  });

  test("a modelled stream error thrown by the SDK propagates unchanged, with no resample", async () => {
    const broken = converseStream([{ text: good }]).slice(0, 3).concat(exception("modelStreamErrorException", "the model stopped"));
    await withEventStreamServer([eventStream(broken), eventStream(converseStream([{ text: good }]))], async (server) => {
      const bedrock = client(server.url);
      const error = await guard.guardedStream(textRequest, streamModel(bedrock), { schema }).catch((e) => e);
      assert.ok(error instanceof ModelStreamErrorException, String(error));
      assert.equal(error.message, "the model stopped");
      assert.equal(server.requests.length, 1);
      bedrock.destroy();
    });
  });
});

describe("Bedrock ConverseStream through the real SDK: forced-tool output", () => {
  test("createStreamCheck with toolName: end() equals checkOutput on the Converse response, accepted, invalid, truncated and missing", async () => {
    const withText = (input, options, name) => converseStream([{ text: "Recording." }, toolUse(input, name)], { stop: "tool_use", ...options });
    const scripts = [withText(good), withText(rowsText(6, 2)), withText(good.slice(0, 30), { stop: "max_tokens" }), withText(good, {}, "other_tool")];
    await withEventStreamServer(scripts.map((s) => eventStream(s)), async (server) => {
      const bedrock = client(server.url);
      const verdicts = [];
      for (const [i, _] of scripts.entries()) {
        const { events } = await streamEvents(bedrock, toolRequest);
        const check = guard.createStreamCheck(schema, { toolName: TOOL });
        let rejected;
        for (const e of events) {
          const state = check.push(e);
          if (state.status === "rejected") rejected ??= state;
        }
        const verdict = check.end();
        verdicts.push(verdict);
        const expected = guard.checkOutput(assemble(events), schema, { toolName: TOOL });
        assert.deepEqual(verdict, rejected ? { ...expected, atByte: rejected.atByte } : expected, `script ${i}`);
      }
      const [accepted, invalid, truncated, missing] = verdicts;
      assert.equal(accepted.ok, true, accepted.message);
      assert.deepEqual(accepted.value, JSON.parse(good));
      assert.equal(accepted.finishReason, "tool_use");
      assert.equal(invalid.failure, "schema");
      assert.equal(truncated.failure, "truncated");
      assert.equal(truncated.finishReason, "max_tokens");
      assert.equal(missing.failure, "empty");
      assert.match(missing.message, new RegExp(`"${TOOL}"`));
      bedrock.destroy();
    });
  });

  test("the assembled response fetched through ConverseCommand reads as the stream did", async () => {
    const script = converseStream([{ text: "Recording." }, toolUse(rowsText(6, 2))], { stop: "tool_use" });
    await withEventStreamServer([eventStream(script)], async (server) => {
      const bedrock = client(server.url);
      const { events } = await streamEvents(bedrock, toolRequest);
      const assembled = assemble(events);
      await withEventStreamServer([assembled], async (second) => {
        const again = client(second.url);
        const response = await again.send(new ConverseCommand(toolRequest));
        assert.deepEqual(guard.checkOutput(response, schema, { toolName: TOOL }), guard.checkOutput(assembled, schema, { toolName: TOOL }));
        assert.deepEqual(guard.checkToolCalls(response, toolRequest), guard.checkToolCalls(assembled, toolRequest));
        again.destroy();
      });
      bedrock.destroy();
    });
  });

  test("guardedStream with toolName: accepted; a doomed call stopped early with the connection dropped, never resampled", async () => {
    const script = (input) => converseStream([toolUse(input)], { stop: "tool_use" });
    await withEventStreamServer([eventStream(script(good)), eventStream(script(doomed), { delayMs }), eventStream(script(good))], async (server) => {
      const bedrock = client(server.url);
      const result = await guard.guardedStream(toolRequest, streamModel(bedrock), { schema, toolName: TOOL });
      assert.equal(result.attempts, 1);
      assert.deepEqual(result.value, JSON.parse(good));
      assert.equal(result.verdicts[0].finishReason, "tool_use");
      assert.deepEqual(result.usage.tokens, { input: 12, output: 40, total: 52 });
      const error = await guard.guardedStream(toolRequest, streamModel(bedrock), { schema, toolName: TOOL }).catch((e) => e);
      assert.ok(error instanceof guard.StructuredOutputError, String(error));
      assert.equal(error.failure, "schema");
      assert.equal(error.attempts, 1, "a request with tools is never resampled");
      assert.deepEqual(error.verdicts[0].errors.map((e) => [e.path, e.code]), [["/rows/2/status", "enum"]]);
      const [stopped] = error.audit.attempts;
      assert.equal(stopped.stoppedEarly, true);
      assert.ok(stopped.bytes < doomed.length / 4, `${stopped.bytes} of ${doomed.length} bytes`);
      const second = await closedEarly(server, 1);
      assert.equal(second.closedEarly, true);
      assert.ok(second.written < second.total / 2, `${second.written} of ${second.total} messages written`);
      assert.equal(server.requests.length, 2);
      bedrock.destroy();
    });
  });
});

const WEATHER = {
  type: "object",
  required: ["unit", "city"],
  additionalProperties: false,
  properties: { unit: { enum: ["c", "f"] }, city: { type: "string", maxLength: 40 }, comment: { type: "string" } },
};
const ADD = { type: "object", required: ["a", "b"], properties: { a: { type: "integer" }, b: { type: "integer", minimum: 0 } } };
const NOTE = { type: "object", required: ["text"], properties: { text: { type: "string" } } };
const callsRequest = {
  modelId: MODEL,
  messages,
  toolConfig: {
    tools: [
      { toolSpec: { name: "get_weather", inputSchema: { json: WEATHER } } },
      { toolSpec: { name: "add", inputSchema: { json: ADD } } },
      { toolSpec: { name: "note", inputSchema: { json: NOTE } } },
    ],
  },
};
const longComment = "x".repeat(120);
const threeCalls = [
  toolUse(JSON.stringify({ a: 1, b: 2, pad: longComment }), "add", "tooluse_a"),
  toolUse(JSON.stringify({ unit: "kelvin", city: "Oslo", comment: longComment }), "get_weather", "tooluse_w"),
  toolUse(JSON.stringify({ text: longComment }), "note", "tooluse_n"),
];

describe("Bedrock ConverseStream through the real SDK: every tool call checked as it streams", () => {
  test("three interleaved calls, the second invalid: its rejection comes before its input ends, the others are accepted", async () => {
    await withEventStreamServer([eventStream(converseStream(threeCalls, { stop: "tool_use", size: 8 }))], async (server) => {
      const bedrock = client(server.url);
      const { events } = await streamEvents(bedrock, callsRequest);
      const check = guard.createToolCallStreamCheck(callsRequest);
      const decided = [];
      events.forEach((e, at) => {
        for (const d of check.push(e)) decided.push({ ...d, at });
      });
      const verdict = check.end();
      const lastPieceOf = (index) => events.findLastIndex((e) => e.contentBlockDelta?.contentBlockIndex === index);
      const second = decided.find((e) => e.index === 1);
      assert.deepEqual([second.status, second.failure, second.name, second.id], ["rejected", "schema", "get_weather", "tooluse_w"]);
      assert.deepEqual(second.errors.map((e) => [e.path, e.code]), [["/unit", "enum"]]);
      assert.ok(second.at < lastPieceOf(1), `rejected at event ${second.at}; its input ends at ${lastPieceOf(1)}`);
      assert.equal(typeof second.atByte, "number");
      const accepted = decided.filter((e) => e.status === "accepted");
      assert.deepEqual(accepted.map((e) => [e.index, e.name, e.id]), [[0, "add", "tooluse_a"], [2, "note", "tooluse_n"]]);
      assert.deepEqual(accepted[0].value, JSON.parse(threeCalls[0].toolUse.input));
      assert.ok(decided.indexOf(second) < decided.indexOf(accepted[0]));
      assert.equal(decided.length, 3, "each call is reported once");
      assert.deepEqual(verdict, guard.checkToolCalls(assemble(events), callsRequest));
      assert.deepEqual(verdict.calls.map((c) => c.ok), [true, false, true]);
      bedrock.destroy();
    });
  });

  test("guardedStream's onToolCall hears each call as it is decided, and a token limit refuses every call at the end", async () => {
    const events = converseStream(threeCalls, { stop: "tool_use", size: 8 });
    const cut = converseStream(threeCalls.slice(0, 1), { stop: "max_tokens", size: 8 });
    await withEventStreamServer([eventStream(events), eventStream(events), eventStream(cut)], async (server) => {
      const bedrock = client(server.url);
      const seen = [];
      const result = await guard.guardedStream(callsRequest, streamModel(bedrock), { schema: { type: "object" }, strict: false, onToolCall: (e) => seen.push(e) });
      assert.equal(result.attempts, 1);
      const { events: sdkEvents } = await streamEvents(bedrock, callsRequest);
      const check = guard.createToolCallStreamCheck(callsRequest);
      assert.deepEqual(seen, sdkEvents.flatMap((e) => check.push(e)));
      assert.deepEqual(seen.map((e) => [e.name, e.status]), [["get_weather", "rejected"], ["add", "accepted"], ["note", "accepted"]]);
      const { events: cutEvents } = await streamEvents(bedrock, callsRequest);
      const cutCheck = guard.createToolCallStreamCheck(callsRequest);
      for (const e of cutEvents) cutCheck.push(e);
      const cutVerdict = cutCheck.end();
      assert.deepEqual(cutVerdict, guard.checkToolCalls(assemble(cutEvents), callsRequest));
      assert.deepEqual(cutVerdict.calls.map((c) => c.failure), ["truncated"]);
      bedrock.destroy();
    });
  });

  test("a tool called without arguments: no input streamed, or an empty piece, is `{}`, as Converse gives it", async () => {
    const tools = [{ toolSpec: { name: "list_rooms", inputSchema: { json: { type: "object", additionalProperties: false } } } }, ...callsRequest.toolConfig.tools];
    const request = { ...callsRequest, toolConfig: { tools } };
    const script = [
      event("messageStart", { role: "assistant" }),
      event("contentBlockStart", { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_r", name: "list_rooms" } } }),
      event("contentBlockStop", { contentBlockIndex: 0 }),
      event("contentBlockStart", { contentBlockIndex: 1, start: { toolUse: { toolUseId: "tooluse_r2", name: "list_rooms" } } }),
      event("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: "" } } }),
      event("contentBlockStop", { contentBlockIndex: 1 }),
      event("contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tooluse_n", name: "note" } } }),
      event("contentBlockStop", { contentBlockIndex: 2 }),
      event("messageStop", { stopReason: "tool_use" }),
      event("metadata", { usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 }, metrics: { latencyMs: 9 } }),
    ];
    const converse = {
      output: { message: { role: "assistant", content: [toolUse({}, "list_rooms", "tooluse_r"), toolUse({}, "list_rooms", "tooluse_r2"), toolUse({}, "note", "tooluse_n")] } },
      stopReason: "tool_use",
      usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
      metrics: { latencyMs: 9 },
    };
    await withEventStreamServer([eventStream(script), converse], async (server) => {
      const bedrock = client(server.url);
      const { events } = await streamEvents(bedrock, request);
      const response = await bedrock.send(new ConverseCommand(request));
      const expected = guard.checkToolCalls(response, request);
      assert.deepEqual(expected.calls.map((c) => [c.name, c.ok, c.failure]), [["list_rooms", true, undefined], ["list_rooms", true, undefined], ["note", false, "schema"]]);
      const check = guard.createToolCallStreamCheck(request);
      const decided = events.flatMap((e) => check.push(e));
      assert.deepEqual(decided.map((e) => [e.index, e.status, e.value]), [[0, "accepted", {}], [1, "accepted", {}], [2, "rejected", undefined]]);
      assert.deepEqual(check.end(), expected);
      const forced = guard.createStreamCheck({ type: "object", additionalProperties: false }, { toolName: "list_rooms" });
      for (const e of events) forced.push(e);
      assert.deepEqual(forced.end(), guard.checkOutput(response, { type: "object", additionalProperties: false }, { toolName: "list_rooms" }));
      bedrock.destroy();
    });
  });
});

describe("Bedrock ConverseStream: the docs' event tables", () => {
  test("each path the Bedrock rows name reaches a value in the SDK's events", async () => {
    const script = converseStream([{ text: "Recording." }, toolUse(good)], { stop: "tool_use" });
    await withEventStreamServer([eventStream(script)], async (server) => {
      const bedrock = client(server.url);
      const { events } = await streamEvents(bedrock, toolRequest);
      const reaches = (path) => events.some((e) => path.split(".").reduce((v, name) => (v === undefined || v === null ? undefined : v[name]), e) !== undefined);
      const kinds = new Set(events.flatMap((e) => Object.keys(e)));
      let named = 0;
      for (const page of ["docs/providers.md", "docs/streaming.md"]) {
        const rows = readFileSync(new URL(`../../../${page}`, import.meta.url), "utf8").split("\n").filter((line) => line.startsWith("| Bedrock ConverseStream"));
        assert.ok(rows.length > 0, `${page} has Bedrock rows`);
        for (const row of rows) {
          for (const [, path] of row.matchAll(/`([A-Za-z.]+)`/g)) {
            const [kind] = path.split(".");
            if (!kinds.has(kind)) continue;
            named += 1;
            assert.ok(reaches(path), `${page}: \`${path}\` reaches nothing in the SDK's events`);
          }
        }
      }
      assert.ok(named >= 8, `${named} paths named`);
      // The key of each piece of a block, which the tool row names alone.
      assert.ok(events.filter((e) => e.contentBlockDelta || e.contentBlockStart || e.contentBlockStop).every((e) => typeof Object.values(e)[0].contentBlockIndex === "number"));
      bedrock.destroy();
    });
  });
});

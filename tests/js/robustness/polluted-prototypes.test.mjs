// An enumerable member on Object.prototype or Array.prototype (another
// library's, or a pollution elsewhere in the application) changes nothing
// the package answers: every walk over a caller's object reads its own
// members only. Each test pollutes, and cleans up after itself whatever
// happens.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { generateText, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import * as guard from "../../../pkg/node.mjs";
import { guardMiddleware } from "../../../pkg/ai-sdk.mjs";
import { matchers } from "../../../pkg/matchers.mjs";
import { anthropicMessage, bedrockConverse, geminiResponse, mistralChat, openaiChat, openaiResponses, scripted } from "../../support/fixtures.mjs";
import { withWireServer } from "../../support/wire-server.mjs";

/**
 * Runs `fn` with an enumerable member named `name` on Object.prototype and
 * on Array.prototype (set by assignment, as a pollution sets it), and
 * removes both afterwards, whether `fn` returns, throws or rejects.
 */
export async function polluted(fn, name = "polluted", value = 1) {
  Object.prototype[name] = value;
  Array.prototype[name] = value;
  try {
    return await fn();
  } finally {
    delete Object.prototype[name];
    delete Array.prototype[name];
  }
}

function anthropicBody(output) {
  return {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [{ type: "text", text: '{"city":"Oslo"}' }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: 1200,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: output,
    },
  };
}

describe("Object.prototype.polluted = 1", () => {
  test("an Anthropic response's usage is counted right on every guarded call, and in the stats", async () => {
    const bodies = [350, 350, 350, 351];
    await withWireServer(bodies.map(anthropicBody), async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url });
      const stats = guard.createGuardStats();
      const outputs = await polluted(async () => {
        const seen = [];
        for (let i = 0; i < bodies.length; i++) {
          const result = await guard.guardedCall(
            { model: "claude-test", max_tokens: 100, messages: [{ role: "user", content: "?" }] },
            (request) => client.messages.create(request),
            { schema: { type: "object" }, stats },
          );
          seen.push(result.usage.tokens.output);
          assert.equal(result.usage.tokens.input, 1200);
          assert.equal(result.usage.tokens.total, 1200 + bodies[i]);
        }
        return seen;
      });
      assert.deepEqual(outputs, bodies);
      const snapshot = stats.snapshot();
      assert.equal(snapshot.tokens.output, 350 * 3 + 351);
      assert.equal(snapshot.tokens.input, 1200 * 4);
    });
  });
});

/** What a call answered, as data to compare: its value, or what it threw. */
async function answerOf(fn) {
  try {
    return { value: await fn() };
  } catch (error) {
    return { threw: { name: error?.name, code: error?.code, message: String(error?.message) } };
  }
}

const OBSERVATION = { type: "object", required: ["city", "tags"], properties: { city: { type: "string", minLength: 2 }, tags: { type: "array", items: { type: "string" }, maxItems: 2 }, when: { type: "string", format: "date" } } };
const GOOD = '{"city":"Oslo","tags":["a","b"],"when":"2024-02-29"}';
const BAD = '{"city":"O","tags":["a","b",3],"when":"2024-02-30"}';

/** An OpenAI chat completion streamed as chunks, the last carrying usage. */
function chatChunks(text, usage) {
  const pieces = text.match(/.{1,5}/g);
  const chunks = pieces.map((piece) => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] }));
  chunks.push({ object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
  chunks.push({ object: "chat.completion.chunk", choices: [], usage });
  return chunks;
}

/**
 * The inputs of `surface`, made clean (a test's own destructuring defaults
 * would read a polluted prototype's member), each round with other counts,
 * so that a shape remembered from an earlier round and read wrong shows.
 */
function inputs(round) {
  const usage = { prompt_tokens: 100 + round, completion_tokens: 30 + round };
  return {
    usage,
    responses: {
      chat: openaiChat(GOOD, { usage }),
      chatBad: openaiChat(BAD, { usage }),
      responses: openaiResponses(GOOD),
      responsesBad: openaiResponses(BAD),
      anthropic: anthropicMessage(GOOD, { usage: { input_tokens: 200 + round, cache_read_input_tokens: 5, cache_creation: { ephemeral_5m_input_tokens: 0 }, output_tokens: 40 + round } }),
      anthropicBad: anthropicMessage(BAD),
      gemini: geminiResponse(BAD, { usageMetadata: { promptTokenCount: 80 + round, candidatesTokenCount: 20, totalTokenCount: 100 + round, promptTokensDetails: [{ modality: "TEXT", tokenCount: 80 + round }] } }),
      geminiGood: geminiResponse(GOOD),
      bedrock: bedrockConverse(GOOD),
      mistral: mistralChat(BAD),
      plain: { content: GOOD, finishReason: "stop" },
    },
    chunks: chatChunks(GOOD, usage),
  };
}

/**
 * Every public entry of the package on `inputs`, each answer as data: run
 * once clean and again polluted, the answers must be the same.
 */
async function surface({ usage, responses, chunks }, { aiSdk = true } = {}) {
  const answers = [];
  const add = async (label, fn) => answers.push([label, await answerOf(fn)]);
  const validator = guard.compileSchema(OBSERVATION);
  const wrapper = { name: "observation", strict: true, schema: OBSERVATION };
  for (const [name, response] of Object.entries(responses)) {
    for (const schema of [OBSERVATION, validator, wrapper]) {
      await add(`checkOutput ${name}`, () => guard.checkOutput(response, schema));
    }
    await add(`normalizeUsage ${name}`, () => guard.normalizeUsage(response));
    await add(`detectTruncation ${name}`, () => guard.detectTruncation(response));
  }
  await add("checkOutput text", () => guard.checkOutput("```json\n" + BAD + "\n```", OBSERVATION, { maxErrors: 10 }));
  await add("mergeUsage", () => guard.mergeUsage(...Object.values(responses)));
  await add("rescueJson", () => guard.rescueJson("Here:\n```json\n[1,2]\n```"));
  await add("repairFeedback", () => guard.repairFeedback(guard.checkOutput(BAD, OBSERVATION), OBSERVATION));
  await add("toProviderSchema", () => guard.toProviderSchema(OBSERVATION, "openai"));

  const value = { city: "Oslo", tags: ["a", "b", "c"], when: "2024-02-30" };
  const matcherAnswer = ({ pass, message }) => ({ pass, message: message() });
  await add("toSatisfySchema", () => matcherAnswer(matchers.toSatisfySchema(value, OBSERVATION, { maxErrors: 10 })));
  await add("toBeAcceptedOutput", () => matcherAnswer(matchers.toBeAcceptedOutput(responses.gemini, OBSERVATION)));
  await add("validate", () => validator.validate(value, { maxErrors: 10 }));
  await add("isValid", () => validator.isValid(value));
  await add("~standard.validate", () => validator["~standard"].validate(value));
  await add("~standard.validate, valid", () => validator["~standard"].validate({ city: "Oslo", tags: [] }));

  const tools = [
    { type: "function", function: { name: "lookup", parameters: { type: "object", required: ["q"], properties: { q: { type: "string" } } } } },
    { type: "function", function: { name: "broken", parameters: { type: "object", properties: { a: { type: "string", required: true } } } } },
  ];
  const toolResponse = {
    choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [
      { id: "c1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } },
      { id: "c2", type: "function", function: { name: "lookup", arguments: '{"q":5}' } },
      { id: "c3", type: "function", function: { name: "broken", arguments: '{"a":5}' } },
      { id: "c4", type: "function", function: { name: "missing", arguments: "{}" } },
    ] } }],
    usage,
  };
  await add("checkToolCalls", () => guard.checkToolCalls(toolResponse, tools));
  await add("checkToolCalls, the request", () => guard.checkToolCalls(toolResponse, { model: "m", tools }));
  await add("repairFeedback of tool calls", () => guard.repairFeedback(guard.checkToolCalls(toolResponse, tools), tools));

  const stream = guard.createStreamCheck(OBSERVATION);
  const states = [];
  for (const piece of BAD.match(/.{1,3}/g)) states.push(stream.push(piece).status);
  await add("createStreamCheck", () => ({ states, end: stream.end("stop") }));

  for (const [name, first, second] of [
    ["chat", responses.chatBad, responses.chat],
    ["anthropic", responses.anthropicBad, responses.anthropic],
    ["gemini", responses.gemini, responses.geminiGood],
    ["responses", responses.responsesBad, responses.responses],
  ]) {
    for (const retry of ["identical", "repair"]) {
      const stats = guard.createGuardStats();
      const script = scripted(first, second);
      await add(`guardedCall ${name} ${retry}`, async () => {
        const result = await guard.guardedCall({ model: "m", messages: [{ role: "user", content: "?" }] }, script.callModel, { schema: OBSERVATION, retry, stats });
        return { ...result, response: undefined, requests: script.calls, stats: stats.snapshot() };
      });
    }
  }
  await add("guardedCall rejected", () => guard.guardedCall({}, async () => responses.chatBad, { schema: OBSERVATION }).catch((error) => ({ ...error, response: undefined, message: error.message })));
  if (aiSdk) await add("AI SDK middleware", async () => {
    let call = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: "text", text: call++ === 0 ? BAD : GOOD }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: { total: usage.prompt_tokens, noCache: usage.prompt_tokens }, outputTokens: { total: usage.completion_tokens } },
        warnings: [],
      }),
    });
    const wrapped = wrapLanguageModel({ model: mock, middleware: guardMiddleware({ schema: OBSERVATION }) });
    const result = await generateText({ model: wrapped, prompt: "?" });
    return { text: result.text, usage: result.usage, calls: mock.doGenerateCalls.length };
  });
  await add("guardedStream", async () => {
    const result = await guard.guardedStream({ model: "m" }, async function* () {
      yield* chunks;
    }, { schema: OBSERVATION });
    return result;
  });
  return answers;
}

describe("the whole public surface, with Object.prototype and Array.prototype polluted", () => {
  test("answers exactly as it does clean, round after round", async () => {
    const clean = [];
    const dirty = [];
    for (let round = 0; round < 3; round++) {
      const given = inputs(round);
      dirty.push(await polluted(() => surface(given)));
      clean.push(await surface(given));
    }
    for (let round = 0; round < 3; round++) {
      assert.equal(dirty[round].length, clean[round].length);
      for (let i = 0; i < clean[round].length; i++) {
        assert.deepEqual(dirty[round][i], clean[round][i], `round ${round}: ${clean[round][i][0]}`);
      }
    }
  });
});

/**
 * Names the readers look up in responses, requests, usage and stream
 * events: a pollution under one of them is no member of the caller's object.
 */
const READ_NAMES = ["content", "text", "usage", "tokens", "tools", "input", "choices", "arguments", "finish_reason", "message"];

describe("a polluted member named as one the readers look for", () => {
  for (const name of READ_NAMES) {
    test(`Object.prototype.${name} and Array.prototype.${name}, a string or an object`, async () => {
      const given = inputs(0);
      // Not the AI SDK: generateText itself reads a polluted "tools" as its caller's tools.
      const clean = await surface(given, { aiSdk: false });
      for (const value of ["x", { a: 1, text: "x" }]) {
        const dirty = await polluted(() => surface(given, { aiSdk: false }), name, value);
        for (let i = 0; i < clean.length; i++) assert.deepEqual(dirty[i], clean[i], `${JSON.stringify(value)}: ${clean[i][0]}`);
      }
    });
  }
});


describe("a request's own schema, with a polluted prototype", () => {
  test("a response format only Object.prototype holds is none of the request's", async () => {
    const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "?" }] };
    const callModel = async () => openaiChat('{"city":"Oslo"}');
    const format = (required) => ({ type: "json_schema", json_schema: { name: "reply", schema: { type: "object", required: [required] } } });
    const outcome = await polluted(() => guard.guardedCall(request, callModel, {}).then(() => "resolved", (error) => error), "response_format", format("polluted"));
    assert.ok(outcome instanceof TypeError, String(outcome));
    assert.equal(outcome.code, "invalid_argument");
    assert.match(outcome.message, /needs options\.schema, or a request that gives its provider a schema/);
    // The request's own response format is read as before.
    const own = await guard.guardedCall({ ...request, response_format: format("city") }, callModel, {});
    assert.deepEqual(own.value, { city: "Oslo" });
  });
});

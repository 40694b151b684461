// guardedStream: a streamed answer checked as it arrives, stopped at the
// first definite rejection, then the same policy as guardedCall. The fault
// cases run on scripted streams; each provider's events come from its real
// SDK, driven against a local server streaming server-sent events.
import { describe, test } from "node:test";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { streamText } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import * as guard from "../../../pkg/node.mjs";
import { sse, withWireServer } from "../../support/wire-server.mjs";
import { pieces, rowsSchema, rowsText } from "../../support/fixtures.mjs";

const schema = rowsSchema(50);

const documentText = rowsText;

const good = documentText(4);
const doomed = documentText(40, 3);

/** A stream of strings that records how far it was read and whether it was left early. */
function scripted(texts, log, { before } = {}) {
  return async function* stream() {
    log.started += 1;
    try {
      for (const text of texts) {
        if (before) await before(log);
        log.yielded += 1;
        yield text;
      }
      log.finished = true;
    } finally {
      log.closed = true;
    }
  };
}

const newLog = () => ({ started: 0, yielded: 0, finished: false, closed: false });

describe("guardedStream on scripted streams", () => {
  test("a valid stream is accepted on the first attempt, its text forwarded", async () => {
    const seen = [];
    const result = await guard.guardedStream({ messages: [] }, () => pieces(good), {
      schema,
      onText: (text, { attempt }) => seen.push([attempt, text]),
    });
    assert.equal(result.attempts, 1);
    assert.deepEqual(result.value, JSON.parse(good));
    assert.equal(result.rescue, "none");
    assert.equal(seen.map(([, text]) => text).join(""), good);
    assert.ok(seen.every(([attempt]) => attempt === 1));
    const [audited] = result.audit.attempts;
    assert.equal(audited.bytes, Buffer.byteLength(good));
    assert.equal(audited.stoppedEarly, false);
    assert.equal(audited.usageReported, false);
    assert.deepEqual(result.usage, {});
    assert.equal(result.audit.stoppedBy, "accepted");
  });

  test("a definite rejection aborts the attempt's signal at once, stops reading, and resamples once", async () => {
    const logs = [newLog(), newLog()];
    const signals = [];
    const forwarded = [];
    let abortedWhileReading = false;
    const result = await guard.guardedStream(
      { messages: [] },
      (request, { signal, attempt }) => {
        signals.push(signal);
        const log = logs[attempt - 1];
        return scripted(pieces(attempt === 1 ? doomed : good), log, {
          before: () => {
            if (signal.aborted) abortedWhileReading = true;
          },
        })();
      },
      { schema, onText: (text, { attempt }) => forwarded.push([attempt, text]) },
    );
    assert.equal(result.attempts, 2);
    assert.deepEqual(result.value, JSON.parse(good));
    assert.equal(signals[0].aborted, true);
    assert.equal(signals[0].reason.code, "stream_rejected");
    assert.equal(signals[1].aborted, false);
    // Nothing was read after the rejection, and the stream was left.
    assert.equal(abortedWhileReading, false);
    assert.equal(logs[0].finished, false);
    assert.equal(logs[0].closed, true);
    const [stopped, accepted] = result.audit.attempts;
    assert.equal(stopped.failure, "schema");
    assert.equal(stopped.stoppedEarly, true);
    // Stopped once the check saw the "b" no enum value starts with: pieces
    // cross into the core in batches of 64 bytes in the first kilobyte,
    // where this violation is, so within a batch and a piece of it.
    const violation = doomed.indexOf('"bogus"') + 2;
    assert.ok(stopped.bytes >= violation && stopped.bytes <= violation + 64 + 16, `${stopped.bytes} bytes read, the violation at ${violation}`);
    assert.ok(stopped.bytes < doomed.length / 5);
    assert.equal(accepted.failure, null);
    assert.equal(result.verdicts[0].errors[0].path, "/rows/2/status");
    assert.equal(result.verdicts[0].errors[0].code, "enum");
    // The rejected text never reached onText past the batch that showed it.
    const firstAttemptText = forwarded.filter(([attempt]) => attempt === 1).map(([, text]) => text).join("");
    assert.ok(!firstAttemptText.includes('"bogus","id"'));
    assert.equal(forwarded.filter(([attempt]) => attempt === 2).map(([, text]) => text).join(""), good);
  });

  test("a request with tools is never resampled, even when stopped early", async () => {
    let calls = 0;
    const error = await guard
      .guardedStream({ messages: [], tools: [{ type: "function", function: { name: "f" } }] }, () => {
        calls += 1;
        return pieces(doomed);
      }, { schema })
      .then(() => assert.fail("accepted"), (e) => e);
    assert.ok(error instanceof guard.StructuredOutputError);
    assert.equal(error.stoppedBy, "tools");
    assert.equal(error.failure, "schema");
    assert.equal(calls, 1);
    assert.equal(error.attempts, 1);
    assert.equal(error.audit.attempts[0].stoppedEarly, true);
    assert.match(error.message, /carries tools/);
  });

  test("the caller's abort during the stream stops it with the caller's reason, no resample", async () => {
    const controller = new AbortController();
    const log = newLog();
    let calls = 0;
    let modelSignal;
    const stats = guard.createGuardStats();
    const reason = new Error("user went away");
    const run = guard.guardedStream(
      { messages: [] },
      (request, { signal }) => {
        calls += 1;
        modelSignal = signal;
        return scripted(pieces(good, 4), log, {
          before: async (l) => {
            if (l.yielded === 2) controller.abort(reason);
            // A stream that never ends on its own after that.
            if (l.yielded >= 2) await new Promise(() => {});
          },
        })();
      },
      { schema, signal: controller.signal, stats, read: (chunk) => ({ text: chunk, usage: { prompt_tokens: 5 } }) },
    );
    await assert.rejects(run, (e) => e === reason);
    assert.equal(calls, 1);
    assert.equal(modelSignal.aborted, true);
    const snapshot = stats.snapshot();
    assert.equal(snapshot.errors, 1);
    assert.equal(snapshot.stoppedBy.aborted, 1);
    // The usage the stream reported before the abort still counts.
    assert.equal(snapshot.tokens.input, 5);
  });

  test("the deadline during the stream rejects with failure deadline, keeping the reported usage", async () => {
    const log = newLog();
    let modelSignal;
    const error = await guard
      .guardedStream(
        { messages: [] },
        (request, { signal }) => {
          modelSignal = signal;
          return scripted(pieces(good, 4), log, {
            before: async (l) => {
              // A stream that stalls, as a provider's does, until its signal aborts.
              if (l.yielded >= 3) await new Promise((resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
            },
          })();
        },
        { schema, deadlineMs: 60, read: (chunk) => ({ text: chunk, usage: { input_tokens: 7, output_tokens: 2 } }) },
      )
      .then(() => assert.fail("accepted"), (e) => e);
    assert.ok(error instanceof guard.StructuredOutputError);
    assert.equal(error.failure, "deadline");
    assert.equal(error.stoppedBy, "deadline");
    assert.match(error.message, /deadline of 60 ms/);
    assert.equal(error.usage.tokens.input, 7);
    assert.equal(modelSignal.aborted, true);
    assert.equal(modelSignal.reason.name, "TimeoutError");
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(log.closed, true);
  });

  describe("a stream that never yields to the event loop is still bounded by the deadline and the caller's signal", () => {
    /** The scenario of tests/support/runaway-stream.mjs run in its own process (killed after 10 s), and how it settled. */
    function runaway(scenario) {
      const child = spawnSync(process.execPath, [fileURLToPath(new URL("../../support/runaway-stream.mjs", import.meta.url)), scenario], { encoding: "utf8", timeout: 10_000 });
      assert.equal(child.signal, null, `"${scenario}" did not settle within 10 s: the stream kept the call from ever settling`);
      assert.equal(child.status, 0, child.stderr);
      return JSON.parse(child.stdout);
    }

    for (const scenario of ["never yields, deadline", "a plain iterable without end", "nothing but values that are not events", "empty text, forever"]) {
      test(`${scenario}: failure deadline, within the deadline and a turn`, () => {
        const outcome = runaway(scenario);
        assert.equal(outcome.settled, "rejected");
        assert.equal(outcome.name, "StructuredOutputError");
        assert.equal(outcome.failure, "deadline");
        assert.equal(outcome.stoppedBy, "deadline");
        assert.ok(outcome.ms >= 195 && outcome.ms < 1500, `settled after ${outcome.ms} ms`);
      });
    }

    test("the usage reported before the stream ran away counts", () => {
      const outcome = runaway("never yields, usage reported first");
      assert.equal(outcome.failure, "deadline");
      assert.equal(outcome.usage.tokens.input, 1200);
      assert.ok(outcome.ms < 1500, `settled after ${outcome.ms} ms`);
    });

    test("the caller's abort, from a timer, stops it with the caller's reason", () => {
      const outcome = runaway("never yields, caller's abort");
      assert.equal(outcome.settled, "rejected");
      assert.equal(outcome.message, "the caller gave up");
      assert.ok(outcome.ms >= 195 && outcome.ms < 1500, `settled after ${outcome.ms} ms`);
    });
  });

  test("a usage report that cannot be read is read around: the answer is accepted, the counts that can be read count", async () => {
    const throwing = { prompt_tokens: 11, completion_tokens: 4 };
    Object.defineProperty(throwing, "prompt_tokens_details", { enumerable: true, get() { throw new Error("hostile getter"); } });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    for (const [usage, input] of [[throwing, 11], [revoked.proxy, undefined]]) {
      const chunks = [
        ...pieces(good, 8).map((text) => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })),
        { object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
        { object: "chat.completion.chunk", choices: [], usage },
      ];
      const result = await guard.guardedStream({ model: "m", messages: [] }, async function* () {
        yield* chunks;
      }, { schema });
      assert.deepEqual(result.value, JSON.parse(good));
      assert.equal(result.attempts, 1);
      assert.equal(result.usage.tokens?.input, input);
      assert.equal(result.audit.attempts[0].usageReported, true);
    }
  });

  test("a stream that throws propagates its error unchanged, no resample", async () => {
    const boom = new Error("connection reset");
    let calls = 0;
    await assert.rejects(
      guard.guardedStream(
        { messages: [] },
        async function* stream() {
          calls += 1;
          yield '{"rows":[';
          throw boom;
        },
        { schema },
      ),
      (e) => e === boom,
    );
    assert.equal(calls, 1);
    // Throwing before returning a stream is the same.
    const early = new Error("no connection");
    await assert.rejects(guard.guardedStream({}, () => Promise.reject(early), { schema }), (e) => e === early);
  });

  test("an AI SDK error part is thrown as the stream's own failure", async () => {
    const failure = new Error("overloaded");
    await assert.rejects(
      guard.guardedStream({}, () => [{ type: "start" }, { type: "text-delta", id: "0", text: "{" }, { type: "error", error: failure }], { schema }),
      (e) => e === failure,
    );
  });

  test("a stream that ends without a finish reason: whole JSON is accepted, cut JSON is unparseable and resampled", async () => {
    const chunk = (content, finish = null) => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content }, finish_reason: finish }] });
    const whole = await guard.guardedStream({}, () => pieces(good).map((p) => chunk(p)), { schema });
    assert.equal(whole.attempts, 1);
    assert.equal(whole.verdicts[0].finishReason, null);
    const cut = good.slice(0, 30);
    let calls = 0;
    const retried = await guard.guardedStream(
      {},
      () => {
        calls += 1;
        return calls === 1 ? pieces(cut).map((p) => chunk(p)) : [...pieces(good).map((p) => chunk(p)), chunk(undefined, "stop")];
      },
      { schema },
    );
    assert.equal(retried.attempts, 2);
    assert.equal(retried.verdicts[0].failure, "unparseable");
    assert.equal(retried.audit.attempts[0].stoppedEarly, false);
    assert.equal(retried.verdicts[1].finishReason, "stop");
  });

  test("a token-limit finish reason is truncation, even when the JSON is whole", async () => {
    const events = (finish) => [
      { type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 1 } } },
      ...pieces(good).map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
      { type: "message_delta", delta: { stop_reason: finish }, usage: { output_tokens: 9 } },
    ];
    let calls = 0;
    const result = await guard.guardedStream({}, () => events(++calls === 1 ? "max_tokens" : "end_turn"), { schema });
    assert.equal(result.verdicts[0].failure, "truncated");
    assert.equal(result.attempts, 2);
    // Each attempt's reports are running totals (input 3, output 9), and the attempts add up.
    assert.equal(result.usage.tokens.input, 6);
    assert.equal(result.usage.tokens.output, 18);
  });

  test("usage: each attempt's reports merged; a stopped attempt that reported none is counted as such", async () => {
    let calls = 0;
    const result = await guard.guardedStream(
      {},
      () => {
        calls += 1;
        const texts = pieces(calls === 1 ? doomed : good);
        const chunks = texts.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] }));
        return [...chunks, { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }, { choices: [], usage: { prompt_tokens: 11, completion_tokens: 40 + calls, total_tokens: 51 + calls } }];
      },
      { schema },
    );
    assert.equal(result.attempts, 2);
    const [stopped, accepted] = result.audit.attempts;
    assert.equal(stopped.usageReported, false);
    assert.equal(accepted.usageReported, true);
    assert.deepEqual(result.usage.tokens, { input: 11, output: 42, total: 53 });

    // Usage reported before the stop counts, with the later attempt's.
    calls = 0;
    const both = await guard.guardedStream(
      {},
      () => {
        calls += 1;
        return [{ choices: [], usage: { prompt_tokens: 10 } }, ...pieces(calls === 1 ? doomed : good), { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } }];
      },
      { schema },
    );
    assert.equal(both.audit.attempts[0].usageReported, true);
    assert.deepEqual(both.usage.tokens, { input: 20, output: 5, total: 25 });
  });

  test("budgets, a repeated error and repair mode decide after a stopped stream as after a call", async () => {
    let calls = 0;
    const error = await guard
      .guardedStream({}, () => {
        calls += 1;
        return pieces(doomed);
      }, { schema, budgets: { total: 3 } })
      .then(() => assert.fail("accepted"), (e) => e);
    assert.equal(error.stoppedBy, "repeated_error");
    assert.equal(calls, 2);

    const requests = [];
    const repaired = await guard.guardedStream(
      { messages: [{ role: "user", content: "rows please" }] },
      (request) => {
        requests.push(request);
        return pieces(requests.length === 1 ? doomed : good);
      },
      { schema, retry: "repair" },
    );
    assert.equal(repaired.attempts, 2);
    assert.equal(requests[1].messages.length, 2);
    assert.match(JSON.stringify(requests[1].messages[1]), /rows\/2\/status/);

    calls = 0;
    const none = await guard
      .guardedStream({}, () => {
        calls += 1;
        return pieces(doomed);
      }, { schema, budgets: { total: 0 } })
      .then(() => assert.fail("accepted"), (e) => e);
    assert.equal(none.stoppedBy, "budget");
    assert.equal(calls, 1);
  });

  test("options.read reads any chunk shape; misuse is a typed error before any call", async () => {
    const bits = pieces(good);
    const result = await guard.guardedStream({}, () => bits.map((t) => ({ bit: t })), {
      schema,
      // Input reported first, output at the end: the later report's members replace the earlier one's.
      read: (chunk) => ({ text: chunk.bit, usage: chunk.bit === bits[0] ? { prompt_tokens: 2, completion_tokens: 0 } : chunk.bit === bits.at(-1) ? { completion_tokens: 9 } : undefined }),
    });
    assert.deepEqual(result.value, JSON.parse(good));
    assert.equal(result.usage.tokens.input, 2);
    assert.equal(result.usage.tokens.output, 9);
    await assert.rejects(guard.guardedStream({}, () => [], { schema, onTxt: () => {} }), (e) => e.code === "invalid_argument" && /not an option of guardedStream/.test(e.message));
    // A forced tool's stream with no call of it is empty, naming the tool, and not resampled.
    await assert.rejects(guard.guardedStream({}, () => [], { schema, toolName: "answer" }), (e) => e instanceof guard.StructuredOutputError && e.failure === "empty" && e.attempts === 1 && /"answer"/.test(e.message));
    await assert.rejects(guard.guardedStream({}, "model", { schema }), (e) => e.code === "invalid_argument" && /streamModel/.test(e.message));
    await assert.rejects(guard.guardedStream({}, () => 42, { schema }), (e) => e.code === "invalid_argument" && /async iterable/.test(e.message));
    const failed = await guard
      .guardedStream({}, () => [good], { schema, onText: () => { throw new Error("ui broke"); } })
      .then(() => assert.fail("accepted"), (e) => e);
    assert.equal(failed.code, "callback_failed");
    assert.equal(failed.callback, "onText");
  });

  test("the lenient path reads the whole stream and never stops it", async () => {
    const log = newLog();
    const result = await guard.guardedStream({}, () => scripted(pieces(doomed), log)(), { schema, strict: false });
    assert.equal(log.finished, true);
    assert.equal(result.attempts, 1);
    // As guardedCall's lenient path: the object found, with the warning.
    assert.deepEqual(result.value, JSON.parse(doomed));
    assert.match(result.warning, /^schema/);
    const cut = await guard.guardedStream({}, () => [doomed.slice(0, 50)], { schema, strict: false });
    assert.equal(cut.value, null);
    assert.match(cut.warning, /^unparseable/);
    assert.equal(result.audit.attempts[0].stoppedEarly, false);
    assert.equal(result.audit.attempts[0].bytes, doomed.length);
  });
});

// ---- the providers' own stream events, from their SDKs ----

const frame = (data, event) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

function chatStream(text, { usage } = {}) {
  const chunk = (delta, finish) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] });
  return [
    frame(chunk({ role: "assistant", content: "" }, null)),
    ...pieces(text).map((content) => frame(chunk({ content }, null))),
    frame(chunk({}, "stop")),
    ...(usage ? [frame({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [], usage })] : []),
    "data: [DONE]\n\n",
  ];
}

function responsesStream(text, usage) {
  const response = (status, extra = {}) => ({ id: "resp_1", object: "response", created_at: 1, status, model: "gpt-5-mini", output: [], ...extra });
  let n = 0;
  return [
    frame({ type: "response.created", sequence_number: n++, response: response("in_progress") }, "response.created"),
    ...pieces(text).map((delta) => frame({ type: "response.output_text.delta", sequence_number: n++, item_id: "m1", output_index: 0, content_index: 0, delta, logprobs: [] }, "response.output_text.delta")),
    frame({ type: "response.completed", sequence_number: n++, response: response("completed", { usage }) }, "response.completed"),
  ];
}

function anthropicStream(text, { input, output }) {
  return [
    frame({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-5-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1 } } }, "message_start"),
    frame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
    frame({ type: "ping" }, "ping"),
    ...pieces(text).map((t) => frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: t } }, "content_block_delta")),
    frame({ type: "content_block_stop", index: 0 }, "content_block_stop"),
    frame({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: output } }, "message_delta"),
    frame({ type: "message_stop" }, "message_stop"),
  ];
}

function geminiStream(text, prompt) {
  const parts = pieces(text);
  return parts.map((t, i) =>
    `data: ${JSON.stringify({
      candidates: [{ content: { role: "model", parts: i === 0 ? [{ text: "thinking it over", thought: true }, { text: t }] : [{ text: t }] }, index: 0, ...(i === parts.length - 1 ? { finishReason: "STOP" } : {}) }],
      usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: i + 1, totalTokenCount: prompt + i + 1 },
      modelVersion: "gemini-2.5-flash",
    })}\r\n\r\n`,
  );
}

/** Waits until the server saw the client go away from the first stream. */
async function closedEarly(server) {
  for (let i = 0; i < 100 && !server.streams[0]?.closedEarly; i++) await new Promise((r) => setTimeout(r, 10));
  return server.streams[0];
}

const bad = documentText(120, 3);
const delayMs = 2;

describe("guardedStream on the real SDKs' stream events", () => {
  test("OpenAI Chat completion chunks: stopped early, the connection dropped, resampled with usage", async () => {
    const usage = { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50 };
    await withWireServer([sse(chatStream(bad, { usage }), { delayMs }), sse(chatStream(good, { usage }))], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const result = await guard.guardedStream(
        { model: "gpt-4o-mini", messages: [{ role: "user", content: "rows" }], stream: true, stream_options: { include_usage: true } },
        (request, { signal }) => client.chat.completions.create(request, { signal }),
        { schema },
      );
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, JSON.parse(good));
      const [stopped, accepted] = result.audit.attempts;
      assert.equal(stopped.stoppedEarly, true);
      assert.equal(stopped.usageReported, false);
      assert.equal(accepted.usageReported, true);
      assert.deepEqual(result.usage.tokens, { input: 20, output: 30, total: 50 });
      assert.equal(result.verdicts[1].finishReason, "stop");
      const first = await closedEarly(server);
      assert.equal(first.closedEarly, true);
      assert.ok(first.written < first.total / 2, `${first.written} of ${first.total} chunks written`);
    });
  });

  test("OpenAI Responses stream events", async () => {
    const usage = { input_tokens: 9, output_tokens: 14, total_tokens: 23 };
    await withWireServer([sse(responsesStream(bad, usage), { delayMs }), sse(responsesStream(good, usage))], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const result = await guard.guardedStream(
        { model: "gpt-5-mini", input: "rows", stream: true },
        (request, { signal }) => client.responses.create(request, { signal }),
        { schema },
      );
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, JSON.parse(good));
      assert.equal(result.audit.attempts[0].stoppedEarly, true);
      assert.equal(result.verdicts[1].finishReason, "completed");
      assert.deepEqual(result.usage.tokens, { input: 9, output: 14, total: 23 });
      assert.equal((await closedEarly(server)).closedEarly, true);
    });
  });

  test("Anthropic message stream events: the input tokens reported at the start count for the stopped attempt", async () => {
    await withWireServer([sse(anthropicStream(bad, { input: 12, output: 300 }), { delayMs }), sse(anthropicStream(good, { input: 12, output: 30 }))], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const result = await guard.guardedStream(
        { model: "claude-sonnet-5-5", max_tokens: 1000, messages: [{ role: "user", content: "rows" }], stream: true },
        (request, { signal }) => client.messages.create(request, { signal }),
        { schema },
      );
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, JSON.parse(good));
      const [stopped, accepted] = result.audit.attempts;
      assert.equal(stopped.stoppedEarly, true);
      assert.equal(stopped.usageReported, true);
      assert.equal(accepted.usageReported, true);
      // 12 + 12 in; the stopped attempt reported 1 output token so far, the accepted one 30 in all.
      assert.equal(result.usage.tokens.input, 24);
      assert.equal(result.usage.tokens.output, 31);
      assert.equal(result.verdicts[1].finishReason, "end_turn");
      assert.equal((await closedEarly(server)).closedEarly, true);
    });
  });

  test("Anthropic messages.stream(): the MessageStream helper's events read alike", async () => {
    await withWireServer([sse(anthropicStream(good, { input: 5, output: 8 }))], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const result = await guard.guardedStream(
        { model: "claude-sonnet-5-5", max_tokens: 1000, messages: [{ role: "user", content: "rows" }] },
        (request, { signal }) => client.messages.stream(request, { signal }),
        { schema },
      );
      assert.equal(result.attempts, 1);
      assert.deepEqual(result.value, JSON.parse(good));
      assert.deepEqual([result.usage.tokens.input, result.usage.tokens.output], [5, 8]);
      assert.equal(result.verdicts[0].finishReason, "end_turn");
    });
  });

  test("Gemini generateContentStream chunks: thought parts left out, running usage totals", async () => {
    await withWireServer([sse(geminiStream(bad, 8), { delayMs }), sse(geminiStream(good, 8))], async (server) => {
      const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
      const result = await guard.guardedStream(
        { model: "gemini-2.5-flash", contents: "rows" },
        (request, { signal }) => ai.models.generateContentStream({ ...request, config: { abortSignal: signal } }),
        { schema },
      );
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, JSON.parse(good));
      const [stopped, accepted] = result.audit.attempts;
      assert.equal(stopped.stoppedEarly, true);
      assert.equal(stopped.usageReported, true);
      assert.equal(accepted.usageReported, true);
      assert.equal(result.verdicts[1].finishReason, "STOP");
      // The accepted stream's last chunk says 8 + pieces; the stopped one's last chunk read said 8 + its count.
      const goodPieces = pieces(good).length;
      assert.equal(result.usage.tokens.input, 16);
      assert.ok(result.usage.tokens.output > goodPieces && result.usage.tokens.output < goodPieces + 12, `output ${result.usage.tokens.output}`);
      assert.equal((await closedEarly(server)).closedEarly, true);
    });
  });

  test("AI SDK streamText fullStream parts", async () => {
    const usage = { prompt_tokens: 6, completion_tokens: 21, total_tokens: 27 };
    await withWireServer([sse(chatStream(bad, { usage }), { delayMs }), sse(chatStream(good, { usage }))], async (server) => {
      const openai = createOpenAI({ apiKey: "test", baseURL: `${server.url}/v1` });
      const result = await guard.guardedStream(
        { prompt: "rows" },
        (request, { signal }) => streamText({ model: openai.chat("gpt-4o-mini"), prompt: request.prompt, abortSignal: signal, maxRetries: 0 }).fullStream,
        { schema },
      );
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.value, JSON.parse(good));
      assert.equal(result.audit.attempts[0].stoppedEarly, true);
      assert.equal(result.audit.attempts[0].usageReported, false);
      assert.equal(result.verdicts[1].finishReason, "stop");
      assert.equal(result.usage.tokens.input, 6);
      assert.equal(result.usage.tokens.output, 21);
      assert.equal((await closedEarly(server)).closedEarly, true);
    });
  });

  test("AI SDK streams: the merged usage holds each token the server reported once", async () => {
    // Cached input and reasoning output: the AI SDK reports them in its own
    // members, in breakdowns, and in the provider's usage under `raw`.
    const usage = { prompt_tokens: 6, completion_tokens: 21, total_tokens: 27, prompt_tokens_details: { cached_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 3 } };
    // The first answer fails only at its end (the root's `required`), so its usage is reported.
    await withWireServer([sse(chatStream("{}", { usage })), sse(chatStream(good, { usage }))], async (server) => {
      const openai = createOpenAI({ apiKey: "test", baseURL: `${server.url}/v1` });
      const result = await guard.guardedStream(
        { prompt: "rows" },
        (request, { signal }) => streamText({ model: openai.chat("gpt-4o-mini"), prompt: request.prompt, abortSignal: signal, maxRetries: 0 }).fullStream,
        { schema },
      );
      assert.equal(result.attempts, 2);
      assert.deepEqual(result.audit.attempts.map((a) => a.usageReported), [true, true]);
      /** Every numeric leaf of a usage's tokens, summed. */
      const leaves = (value) => (typeof value === "number" ? value : value !== null && typeof value === "object" ? Object.values(value).reduce((sum, v) => sum + leaves(v), 0) : 0);
      // What the server reported, twice, as normalizeUsage maps it.
      const reported = guard.normalizeUsage(usage).tokens;
      assert.deepEqual(reported, { input: 6, output: 21, total: 27, cacheRead: 2, reasoning: 3 });
      assert.equal(leaves(result.usage.tokens), 2 * leaves(reported));
      assert.deepEqual(result.usage.tokens, { input: 12, output: 42, total: 54, cacheRead: 4, reasoning: 6 });
    });
  });
});

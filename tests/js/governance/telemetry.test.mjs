// OpenTelemetry spans and metrics of guardedCall and guardedStream, read
// back from the real SDKs: @opentelemetry/sdk-trace-base's in-memory
// exporter and @opentelemetry/sdk-metrics' reader, with the AsyncLocalStorage
// context manager a Node service registers, around the real OpenAI client
// talking to a local server. Runs under node --test and bun test.
import { describe, test, before, beforeEach } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { context, metrics, trace, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import * as guard from "../../../pkg/node.mjs";
import { reply, sse, withWireServer } from "../../support/wire-server.mjs";

const schema = {
  type: "object",
  required: ["city"],
  additionalProperties: false,
  properties: { city: { type: "string" } },
};

/** Text that must never reach a span or a metric: what the model wrote, and what the prompt said. */
const OUTPUT_SECRET = "Zanzibar-output-text";
const PROMPT_SECRET = "prompt-text-Kilimanjaro";
/** A key the model wrote that looks like a credential: its path is redacted. */
const KEY_SECRET = "sk-proj-Zq8fK2mN4pR7tV1xY3bC5dE9gH0jL6nQ";

const request = (extra = {}) => ({ model: "gpt-4o-mini", messages: [{ role: "user", content: PROMPT_SECRET }], ...extra });

function completion(content, finishReason = "stop", usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 }) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4o-mini",
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: finishReason, logprobs: null }],
    usage,
  };
}

/** A reader whose collect() gives the metrics recorded so far. */
class TestReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = tracerProvider.getTracer("telemetry-test");
let reader;
let meter;

before(() => {
  // What a Node service's OpenTelemetry setup registers: the context that
  // follows awaits, so spans started inside callModel find their parent.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
});

beforeEach(() => {
  exporter.reset();
  reader = new TestReader();
  meter = new MeterProvider({ readers: [reader] }).getMeter("telemetry-test");
});

/** The metrics recorded so far: name -> data points ({ attributes, value }). */
async function collected(from = reader) {
  const { resourceMetrics } = await from.collect();
  const out = {};
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) out[metric.descriptor.name] = metric.dataPoints;
  }
  return out;
}

/** The sum of a counter's points whose attributes include `where`. */
function sum(points, where = {}) {
  return (points ?? []).filter((p) => Object.entries(where).every(([k, v]) => p.attributes[k] === v)).reduce((total, p) => total + p.value, 0);
}

const parentOf = (span) => span.parentSpanContext?.spanId;
const idOf = (span) => span.spanContext().spanId;

/** Every span's name, attributes, status and events as one text, to search for what must not be there. */
function everything(spans) {
  return JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events })));
}

function assertNoOutputText(spans) {
  const text = everything(spans);
  for (const secret of [OUTPUT_SECRET, PROMPT_SECRET, KEY_SECRET]) assert.ok(!text.includes(secret), `a span carries ${secret}: ${text}`);
}

/** The call span and its attempt spans, with the caller's span around the call. */
function tree(spans, api = "guardedCall") {
  const call = spans.find((s) => s.name.startsWith(`${api} `) || s.name === api);
  assert.ok(call, `no ${api} span among ${spans.map((s) => s.name).join(", ")}`);
  const attempts = spans.filter((s) => parentOf(s) === idOf(call)).sort((a, b) => a.attributes["structured_output.attempt"] - b.attributes["structured_output.attempt"]);
  return { call, attempts };
}

describe("telemetry: spans and metrics with the real OpenTelemetry SDKs", () => {
  test("a truncated attempt, then a valid one: the call is OK, its first attempt shows the failure, the SDK's span nests under each attempt", async () => {
    const truncated = completion(`{"city":"${OUTPUT_SECRET}`, "length", { prompt_tokens: 11, completion_tokens: 50, total_tokens: 61 });
    const valid = completion(`{"city":"${OUTPUT_SECRET}"}`, "stop", { prompt_tokens: 11, completion_tokens: 9, total_tokens: 20 });
    await withWireServer([truncated, valid], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const result = await tracer.startActiveSpan("agent step", async (outer) => {
        try {
          return await guard.guardedCall(
            request(),
            // The caller's own span around the SDK call, as an instrumented SDK starts one.
            (req, { signal }) => tracer.startActiveSpan("chat gpt-4o-mini", (sdk) => client.chat.completions.create(req, { signal }).finally(() => sdk.end())),
            { schema, telemetry: { tracer, meter } },
          );
        } finally {
          outer.end();
        }
      });
      assert.equal(result.attempts, 2);
      const spans = exporter.getFinishedSpans();
      const outer = spans.find((s) => s.name === "agent step");
      const { call, attempts } = tree(spans);
      assert.equal(call.name, "guardedCall gpt-4o-mini");
      assert.equal(parentOf(call), idOf(outer), "the call span is a child of the caller's active span");
      assert.equal(attempts.length, 2);
      assert.deepEqual(attempts.map((a) => a.name), ["guardedCall.attempt gpt-4o-mini", "guardedCall.attempt gpt-4o-mini"]);
      for (const attempt of attempts) {
        const sdk = spans.filter((s) => s.name === "chat gpt-4o-mini" && parentOf(s) === idOf(attempt));
        assert.equal(sdk.length, 1, "the span started inside callModel is the attempt's child");
      }
      assert.equal(call.status.code, SpanStatusCode.OK);
      assert.ok(attempts.every((a) => a.status.code !== SpanStatusCode.ERROR));
      const [first, second] = attempts.map((a) => a.attributes);
      assert.equal(first["gen_ai.operation.name"], "chat");
      assert.equal(first["gen_ai.provider.name"], "openai");
      assert.equal(first["gen_ai.request.model"], "gpt-4o-mini");
      assert.deepEqual(first["gen_ai.response.finish_reasons"], ["length"]);
      assert.equal(first["gen_ai.usage.input_tokens"], 11);
      assert.equal(first["gen_ai.usage.output_tokens"], 50);
      assert.equal(first["structured_output.failure"], "truncated");
      assert.equal(first["structured_output.accepted"], false);
      assert.equal(first["structured_output.action"], "resample");
      assert.match(first["structured_output.error_hash"], /^[0-9a-f]+$/);
      assert.match(first["structured_output.schema_hash"], /^[0-9a-f]{64}$/);
      assert.equal(second["structured_output.accepted"], true);
      assert.equal(second["structured_output.action"], "accept");
      assert.equal(second["structured_output.failure"], undefined);
      assert.deepEqual(second["gen_ai.response.finish_reasons"], ["stop"]);
      assert.equal(second["gen_ai.usage.output_tokens"], 9);
      const c = call.attributes;
      assert.equal(c["structured_output.outcome"], "accepted");
      assert.equal(c["structured_output.attempts"], 2);
      assert.equal(c["structured_output.stopped_by"], "accepted");
      assert.equal(c["structured_output.rescue"], "none");
      assert.deepEqual(c["structured_output.attempt.failures"], ["truncated", "none"]);
      assert.equal(c["structured_output.schema_hash"], first["structured_output.schema_hash"]);
      assert.equal(c["structured_output.usage.input_tokens"], 22);
      assert.equal(c["structured_output.usage.output_tokens"], 59);
      assert.equal(c["error.type"], undefined);
      assertNoOutputText(spans);

      const m = await collected();
      assert.equal(sum(m["structured_output.guard.calls"]), 1);
      assert.equal(sum(m["structured_output.guard.accepted"]), 1);
      assert.equal(sum(m["structured_output.guard.accepted_first_try"]), 0);
      assert.equal(sum(m["structured_output.guard.failed_attempts"], { "structured_output.failure": "truncated" }), 1);
      assert.equal(sum(m["structured_output.guard.failed_attempt_tokens"], { "gen_ai.token.type": "output" }), 50);
      assert.equal(sum(m["structured_output.guard.failed_attempt_tokens"], { "gen_ai.token.type": "input" }), 11);
      assert.equal(sum(m["structured_output.guard.tokens"], { "gen_ai.token.type": "output" }), 59);
      const [attemptsPoint] = m["structured_output.guard.attempts"];
      assert.equal(attemptsPoint.value.count, 1);
      assert.equal(attemptsPoint.value.sum, 2);
      assert.deepEqual(attemptsPoint.attributes, { "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o-mini" });
    });
  });

  test("a rejected call: the call span is ERROR with the failure class, the issue codes and redacted paths, never the output", async () => {
    const wrong = completion(`{"city":"${OUTPUT_SECRET}","${KEY_SECRET}":1}`);
    // Extra members must be strings: the path names the key the model wrote.
    const open = { ...schema, additionalProperties: { type: "string" } };
    await withWireServer([wrong, wrong], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const stats = guard.createGuardStats();
      const error = await guard
        .guardedCall(request(), (req, { signal }) => client.chat.completions.create(req, { signal }), { schema: open, stats, telemetry: { tracer, meter } })
        .then(() => assert.fail("the call should reject"), (e) => e);
      assert.equal(error.name, "StructuredOutputError");
      assert.equal(error.stoppedBy, "repeated_error");
      const spans = exporter.getFinishedSpans();
      const { call, attempts } = tree(spans);
      assert.equal(attempts.length, 2);
      assert.equal(call.status.code, SpanStatusCode.ERROR);
      assert.ok(attempts.every((a) => a.status.code === SpanStatusCode.UNSET), "an attempt's failure is in its attributes; only the call's rejection is an error status");
      const c = call.attributes;
      assert.equal(c["error.type"], "schema");
      assert.equal(c["structured_output.outcome"], "rejected");
      assert.equal(c["structured_output.failure"], "schema");
      assert.equal(c["structured_output.stopped_by"], "repeated_error");
      assert.equal(c["structured_output.attempts"], 2);
      assert.deepEqual(c["structured_output.issue.codes"], ["type"]);
      assert.deepEqual(c["structured_output.issue.paths"], ["/[redacted]"]);
      assert.equal(c["structured_output.error_hash"], error.verdicts[1].errorHash);
      assert.deepEqual(attempts[0].attributes["structured_output.issue.paths"], ["/[redacted]"]);
      assert.equal(attempts[1].attributes["structured_output.action"], "reject");
      assert.equal(attempts[1].attributes["structured_output.stopped_by"], "repeated_error");
      assertNoOutputText(spans);

      // The metrics say what the stats collector says.
      const m = await collected();
      const s = stats.snapshot();
      assert.equal(sum(m["structured_output.guard.calls"]), s.calls);
      assert.equal(sum(m["structured_output.guard.rejected"], { "structured_output.failure": "schema" }), s.rejected);
      assert.equal(sum(m["structured_output.guard.failed_attempts"], { "structured_output.failure": "schema" }), s.failures.schema);
      assert.equal(sum(m["structured_output.guard.failed_attempt_tokens"], { "gen_ai.token.type": "input" }), s.failedAttemptTokens.input);
      assert.equal(sum(m["structured_output.guard.stops"], { "structured_output.stopped_by": "repeated_error" }), s.repeatedErrorStops);
      assert.equal(s.rejected, 1);
      for (const points of Object.values(m)) {
        for (const point of points) {
          for (const key of Object.keys(point.attributes)) {
            assert.ok(["gen_ai.provider.name", "gen_ai.request.model", "gen_ai.token.type", "structured_output.failure", "structured_output.stopped_by", "structured_output.stream.stopped_early"].includes(key), `a metric attribute ${key}`);
          }
        }
      }
    });
  });

  test("a call with tools is not resampled: one attempt span, stopped by tools", async () => {
    const wrong = completion(`{"town":"${OUTPUT_SECRET}"}`);
    await withWireServer([wrong], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const tools = [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: {} } } }];
      const error = await guard
        .guardedCall(request({ tools }), (req, { signal }) => client.chat.completions.create(req, { signal }), { schema, telemetry: { tracer, meter } })
        .then(() => assert.fail("the call should reject"), (e) => e);
      assert.equal(error.stoppedBy, "tools");
      assert.equal(server.requests.length, 1);
      const spans = exporter.getFinishedSpans();
      const { call, attempts } = tree(spans);
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0].attributes["structured_output.action"], "reject");
      assert.equal(attempts[0].attributes["structured_output.stopped_by"], "tools");
      assert.deepEqual(attempts[0].attributes["structured_output.issue.codes"], ["additionalProperties", "required"]);
      assert.deepEqual(attempts[0].attributes["structured_output.issue.paths"], ["", ""]);
      assert.equal(call.status.code, SpanStatusCode.ERROR);
      assert.equal(call.attributes["structured_output.stopped_by"], "tools");
      assertNoOutputText(spans);
      const m = await collected();
      assert.equal(sum(m["structured_output.guard.stops"], { "structured_output.stopped_by": "tools" }), 1);
      assert.equal(m["structured_output.guard.attempts"][0].value.sum, 1);
    });
  });

  test("a stream stopped early: its attempt span says so with the bytes received, the call is OK", async () => {
    const frame = (data) => `data: ${JSON.stringify(data)}\n\n`;
    const chunk = (delta, finish) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] });
    const stream = (text) => [
      frame(chunk({ role: "assistant", content: "" }, null)),
      ...text.match(/.{1,8}/g).map((content) => frame(chunk({ content }, null))),
      frame(chunk({}, "stop")),
      frame({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [], usage: { prompt_tokens: 5, completion_tokens: 8, total_tokens: 13 } }),
      "data: [DONE]\n\n",
    ];
    const long = `{"town":"${OUTPUT_SECRET}", "more": "${"x".repeat(400)}"}`;
    await withWireServer([sse(stream(long), { delayMs: 2 }), sse(stream(`{"city":"${OUTPUT_SECRET}"}`))], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const result = await guard.guardedStream(
        request({ stream: true, stream_options: { include_usage: true } }),
        (req, { signal }) => client.chat.completions.create(req, { signal }),
        { schema, telemetry: { tracer, meter } },
      );
      assert.equal(result.attempts, 2);
      const spans = exporter.getFinishedSpans();
      const { call, attempts } = tree(spans, "guardedStream");
      assert.equal(call.name, "guardedStream gpt-4o-mini");
      assert.equal(call.status.code, SpanStatusCode.OK);
      assert.equal(attempts.length, 2);
      const [stopped, accepted] = attempts.map((a) => a.attributes);
      assert.equal(stopped["structured_output.stream.stopped_early"], true);
      assert.equal(stopped["structured_output.failure"], "schema");
      assert.equal(stopped["structured_output.stream.bytes"], result.audit.attempts[0].bytes);
      assert.ok(stopped["structured_output.stream.bytes"] < long.length);
      assert.equal(stopped["structured_output.stream.usage_reported"], false);
      assert.equal(accepted["structured_output.stream.stopped_early"], false);
      assert.equal(accepted["gen_ai.usage.input_tokens"], 5);
      assert.deepEqual(accepted["gen_ai.response.finish_reasons"], ["stop"]);
      assert.equal(call.attributes["structured_output.stream.stopped_early"], true);
      assertNoOutputText(spans);
      const m = await collected();
      assert.equal(sum(m["structured_output.stream.stopped_early"]), 1);
      const bytes = m["structured_output.stream.bytes"];
      assert.equal(bytes.reduce((n, p) => n + p.value.count, 0), 2);
      assert.equal(bytes.find((p) => p.attributes["structured_output.stream.stopped_early"] === true).value.sum, result.audit.attempts[0].bytes);
      assert.equal(sum(m["structured_output.guard.accepted"]), 1);
    });
  });

  test("a caller's abort: the call span is ERROR with the abort's type, the running attempt's span ends", async () => {
    const controller = new AbortController();
    const stats = guard.createGuardStats();
    const error = await guard
      .guardedCall(
        request(),
        (req, { signal }) =>
          new Promise((_, reject) => {
            signal.addEventListener("abort", () => reject(signal.reason));
            setTimeout(() => controller.abort(), 5);
          }),
        { schema, signal: controller.signal, stats, telemetry: { tracer, meter } },
      )
      .then(() => assert.fail("the call should reject"), (e) => e);
    assert.equal(error.name, "AbortError");
    const spans = exporter.getFinishedSpans();
    const { call, attempts } = tree(spans);
    assert.equal(call.status.code, SpanStatusCode.ERROR);
    assert.equal(call.attributes["error.type"], "AbortError");
    assert.equal(call.attributes["structured_output.outcome"], "error");
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0].attributes["error.type"], "AbortError");
    assert.equal(attempts[0].attributes["structured_output.failure"], undefined);
    const m = await collected();
    const s = stats.snapshot();
    assert.equal(s.errors, 1);
    assert.equal(sum(m["structured_output.guard.errors"]), s.errors);
    assert.equal(sum(m["structured_output.guard.calls"]), s.calls);
    // callModel rejected with the abort's reason itself: the call ended in that error, not at a stop.
    assert.deepEqual(s.stoppedBy, {});
    assert.equal(m["structured_output.guard.stops"], undefined);
  });

  test("the SDK's own error: the call span is ERROR with the error's type, never its message, which quotes the server", async () => {
    await withWireServer([reply(500, { error: { message: `upstream said ${OUTPUT_SECRET}`, type: "server_error" } })], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const error = await guard
        .guardedCall(request(), (req, { signal }) => client.chat.completions.create(req, { signal }), { schema, telemetry: { tracer, meter } })
        .then(() => assert.fail("the call should reject"), (e) => e);
      assert.ok(error instanceof OpenAI.InternalServerError);
      const spans = exporter.getFinishedSpans();
      const { call, attempts } = tree(spans);
      assert.equal(call.status.code, SpanStatusCode.ERROR);
      assert.equal(call.attributes["error.type"], error.name);
      assert.equal(call.status.message, error.name);
      assert.equal(attempts[0].attributes["error.type"], error.name);
      assertNoOutputText(spans);
    });
  });

  test("the lenient path: one attempt, the call OK with outcome lenient", async () => {
    const result = await guard.guardedCall(request(), async () => completion(`{"town":"${OUTPUT_SECRET}"}`), { schema, strict: false, telemetry: { tracer, meter } });
    assert.equal(result.warning.startsWith("schema"), true);
    const spans = exporter.getFinishedSpans();
    const { call, attempts } = tree(spans);
    assert.equal(call.status.code, SpanStatusCode.OK);
    assert.equal(call.attributes["structured_output.outcome"], "lenient");
    assert.equal(call.attributes["structured_output.stopped_by"], "lenient");
    assert.equal(attempts[0].attributes["structured_output.action"], "return_with_warning");
    assertNoOutputText(spans);
    assert.equal(sum((await collected())["structured_output.guard.lenient"]), 1);
  });

  test("telemetry: true uses the global providers", async () => {
    const globalReader = new TestReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [globalReader] }));
    const result = await guard.guardedCall(request(), async () => completion('{"city":"Oslo"}'), { schema, telemetry: true });
    assert.equal(result.attempts, 1);
    const { call, attempts } = tree(exporter.getFinishedSpans());
    assert.equal(attempts.length, 1);
    assert.equal(call.instrumentationScope.name, "structured-output-guard");
    assert.match(call.instrumentationScope.version, /^\d+\.\d+\.\d+/);
    assert.equal(call.status.code, SpanStatusCode.OK);
    const m = await collected(globalReader);
    assert.equal(sum(m["structured_output.guard.accepted_first_try"]), 1);
  });

  test("a tracer or a meter that throws never fails the call", async () => {
    const broken = () => {
      throw new Error("exporter down");
    };
    const tracerThatThrows = { startActiveSpan: broken };
    const meterThatThrows = { createCounter: broken, createHistogram: broken };
    const result = await guard.guardedCall(request(), async () => completion('{"city":"Oslo"}'), { schema, telemetry: { tracer: tracerThatThrows, meter: meterThatThrows } });
    assert.deepEqual(result.value, { city: "Oslo" });
    const streamed = await guard.guardedStream(request(), async function* () {
      yield '{"city":"Oslo"}';
    }, { schema, telemetry: { tracer: tracerThatThrows, meter: meterThatThrows } });
    assert.deepEqual(streamed.value, { city: "Oslo" });
  });

  test("a tracer or meter only Object.prototype holds is not the caller's", async () => {
    Object.prototype.tracer = { startActiveSpan: "polluted" };
    try {
      const result = await guard.guardedCall(request(), async () => completion('{"city":"Oslo"}'), { schema, telemetry: { meter } });
      assert.deepEqual(result.value, { city: "Oslo" });
    } finally {
      delete Object.prototype.tracer;
    }
    assert.equal(exporter.getFinishedSpans().length, 0);
    assert.equal(sum((await collected())["structured_output.guard.calls"]), 1);
  });

  test("a tracer alone gives spans, a meter alone metrics; a wrong value is a typed error before any model call", async () => {
    await guard.guardedCall(request(), async () => completion('{"city":"Oslo"}'), { schema, telemetry: { meter } });
    assert.equal(exporter.getFinishedSpans().length, 0);
    assert.equal(sum((await collected())["structured_output.guard.calls"]), 1);
    await guard.guardedCall(request(), async () => completion('{"city":"Oslo"}'), { schema, telemetry: { tracer } });
    assert.equal(exporter.getFinishedSpans().length, 2);
    let calls = 0;
    const model = async () => {
      calls += 1;
      return completion('{"city":"Oslo"}');
    };
    for (const telemetry of [false, null, {}, { tracer: {} }, { meter: { createCounter() {} } }]) {
      await assert.rejects(guard.guardedCall(request(), model, { schema, telemetry }), (e) => e instanceof TypeError && e.code === "invalid_argument" && /options\.telemetry/.test(e.message));
      await assert.rejects(guard.guardedStream(request(), model, { schema, telemetry }), (e) => e instanceof TypeError && e.code === "invalid_argument" && /options\.telemetry/.test(e.message));
    }
    assert.equal(calls, 0);
  });
});

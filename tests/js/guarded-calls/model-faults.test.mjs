// guardedCall when the model call misbehaves: throws (anything), returns
// nonsense, hangs past the deadline, ignores an abort, or runs a thousand
// times at once. Whatever happens, the call settles; usage reported is the
// sum of every finished attempt's usage; a request that carries tools is
// never retried; and errors thrown by callModel itself propagate unchanged,
// with the finished attempts still counted by onAttempt and the stats.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { prng } from "../../support/random.mjs";

const SCHEMA = {
  type: "object",
  required: ["id", "city"],
  additionalProperties: false,
  properties: {
    id: { type: "integer", minimum: 0 },
    city: { type: "string", minLength: 1 },
  },
};

const REQUEST = Object.freeze({ model: "gpt-4.1-mini", messages: [{ role: "user", content: "Capital of Norway as JSON." }] });

/** An OpenAI chat completion with distinct token counts. */
function chat(content, { finishReason = "stop", input = 100, output = 10 } = {}) {
  return {
    id: "chatcmpl-fault",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
}

/** What guardedCall must report for the responses that were served: each normalised, then merged. */
function usageOf(served) {
  return guard.mergeUsage(...served.map((response) => guard.normalizeUsage(response ?? null)));
}

/**
 * A callModel that plays `steps` in order, recording the responses it
 * served. A step is a response, or a function of (request, context) that
 * returns or throws what the step should.
 */
function script(...steps) {
  const served = [];
  const requests = [];
  const contexts = [];
  const callModel = (request, context) => {
    requests.push(request);
    contexts.push(context);
    const step = steps[requests.length - 1];
    if (requests.length > steps.length) throw new Error(`unexpected call #${requests.length}`);
    const record = (response) => (served.push(response), response);
    if (typeof step !== "function") return Promise.resolve(record(step));
    const result = step(request, context);
    return result && typeof result.then === "function" ? result.then(record) : record(result);
  };
  return { callModel, served, requests, contexts };
}

/** Settles a promise into `{ value }` or `{ reason }`, whatever was thrown (even undefined). */
async function settle(promise) {
  try {
    return { fulfilled: true, value: await promise };
  } catch (reason) {
    return { fulfilled: false, reason };
  }
}

/** Runs a guarded call with a fresh stats collector and an onAttempt recorder. */
async function guarded(callModel, options = {}, request = REQUEST) {
  const stats = guard.createGuardStats();
  const events = [];
  const outcome = await settle(
    guard.guardedCall(request, callModel, { schema: SCHEMA, stats, onAttempt: (event) => events.push(event), ...options }),
  );
  return { ...outcome, events, snapshot: stats.snapshot() };
}

const tokensOf = (usage) => ({
  input: usage.tokens?.input ?? 0,
  output: usage.tokens?.output ?? 0,
  total: usage.tokens?.total ?? (usage.tokens?.input ?? 0) + (usage.tokens?.output ?? 0),
});

/**
 * No usage was lost: onAttempt saw every finished attempt with its own
 * usage, and the stats counted those attempts and their tokens.
 */
function assertAccounted({ events, snapshot }, served, { failedAttempts = served.length } = {}) {
  assert.equal(events.length, served.length, "one onAttempt event per finished attempt");
  events.forEach((event, i) => assert.deepEqual(event.usage, guard.normalizeUsage(served[i] ?? null), `attempt ${i + 1}'s usage`));
  assert.equal(snapshot.calls, 1, "the call is counted");
  assert.equal(snapshot.attempts, served.length, "every finished attempt is counted");
  assert.deepEqual(snapshot.tokens, tokensOf(usageOf(served)), "the tokens of every finished attempt are counted");
  const failed = served.slice(0, failedAttempts);
  assert.deepEqual(snapshot.failedAttemptTokens, tokensOf(usageOf(failed)), "failed attempts' tokens are counted as such");
}

/** A printable form of anything thrown, even an object without a prototype. */
function safeString(value) {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const GOOD = (id = 1) => JSON.stringify({ id, city: "Oslo" });

// ---------------------------------------------------------------------------
// callModel throws
// ---------------------------------------------------------------------------

describe("callModel throws", () => {
  const THROWN = [
    ["an Error, synchronously", () => new Error("503 from the provider"), "sync"],
    ["an Error, as a rejection", () => new Error("socket hang up"), "async"],
    ["a TypeError", () => new TypeError("fetch failed"), "async"],
    ["a string", () => "rate limited", "sync"],
    ["a string, as a rejection", () => "rate limited", "async"],
    ["undefined", () => undefined, "sync"],
    ["undefined, as a rejection", () => undefined, "async"],
    ["null", () => null, "async"],
    ["a number", () => 429, "sync"],
    ["an object without a prototype", () => Object.assign(Object.create(null), { status: 500 }), "async"],
    ["a frozen plain object", () => Object.freeze({ error: { type: "overloaded_error" } }), "sync"],
    ["a symbol", () => Symbol("boom"), "async"],
  ];

  for (const [name, make, mode] of THROWN) {
    test(`${name} on the first attempt propagates unchanged, with no retry`, async () => {
      const value = make();
      const { callModel, requests } = script(() => {
        if (mode === "sync") throw value;
        return Promise.reject(value);
      });
      const run = await guarded(callModel, { budgets: { total: 3 } });
      assert.equal(run.fulfilled, false);
      assert.ok(Object.is(run.reason, value), `rejected with ${safeString(run.reason)}, not the thrown value`);
      assert.equal(requests.length, 1, "no retry after a throw");
      assertAccounted(run, []);
      assert.equal(run.snapshot.errors, 1);
    });

    test(`${name} on a retry propagates unchanged, and the finished attempts stay counted`, async () => {
      const value = make();
      const first = chat('{"id":1,"city":""}', { input: 310, output: 21 });
      const second = chat("not json", { input: 311, output: 3 });
      const { callModel, requests, served } = script(first, second, () => {
        if (mode === "sync") throw value;
        return Promise.reject(value);
      });
      const run = await guarded(callModel, { budgets: { total: 3 } });
      assert.equal(run.fulfilled, false);
      assert.ok(Object.is(run.reason, value));
      assert.equal(requests.length, 3);
      assert.deepEqual(served, [first, second]);
      assertAccounted(run, served);
      assert.deepEqual(run.snapshot.tokens, { input: 621, output: 24, total: 645 });
      assert.equal(run.snapshot.errors, 1);
    });
  }
});

// ---------------------------------------------------------------------------
// callModel returns nonsense
// ---------------------------------------------------------------------------

describe("callModel returns something that is not a usable response", () => {
  // Each: what callModel resolves with. The outcome must be a
  // StructuredOutputError (the response is bad output) or a typed
  // TypeError (callModel broke its contract), never a crash or a hang.
  const NONSENSE = [
    ["null", () => null],
    ["undefined", () => undefined],
    ["a number", () => 42],
    ["a boolean", () => true],
    ["a BigInt", () => 7n],
    ["a symbol", () => Symbol("response")],
    ["a function", () => () => "{}"],
    ["an array", () => [chat(GOOD())]],
    ["an empty object", () => ({})],
    ["an object of the wrong shape", () => ({ data: { answer: GOOD() }, usage: { prompt_tokens: 5, completion_tokens: 1 } })],
    ["a response whose content is a number", () => chat(42)],
    ["a response whose content is an object", () => chat({ id: 1, city: "Oslo" })],
    ["a response whose content is null", () => chat(null)],
    ["a response whose choices are empty", () => ({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 0 } })],
    ["a response whose message is missing", () => ({ choices: [{ finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 0 } })],
    ["a response whose usage is a string", () => ({ ...chat("{}"), usage: "lots" })],
    ["a response whose token counts are strings", () => chat("{}", { input: "100", output: "10" })],
    ["a response whose token counts are negative or NaN", () => chat("{}", { input: -5, output: NaN })],
    ["an Anthropic message with only a tool_use block", () => ({ type: "message", content: [{ type: "tool_use", id: "t", name: "f", input: {} }], stop_reason: "tool_use", usage: { input_tokens: 20, output_tokens: 7 } })],
  ];

  for (const [name, make] of NONSENSE) {
    test(`${name}: a typed outcome, and the usage of every attempt`, async () => {
      const { callModel, served } = script(make, make, make);
      const run = await guarded(callModel);
      assert.equal(run.fulfilled, false, `accepted ${JSON.stringify(run.value?.value)}`);
      if (run.reason instanceof guard.StructuredOutputError) {
        assert.equal(run.reason.attempts, served.length);
        assert.ok(served.length >= 1 && served.length <= 2);
        assert.deepEqual(run.reason.usage, usageOf(served));
        assertAccounted(run, served);
      } else {
        assert.ok(run.reason instanceof TypeError, `rejected with ${run.reason?.constructor?.name}: ${run.reason?.message ?? String(run.reason)}`);
        assert.equal(run.reason.code, "invalid_argument");
        assert.equal(served.length, 1, "no retry after a broken contract");
      }
    });
  }

  test("the usage a response carries is never lost, whatever else it holds", async () => {
    // Each response is well formed apart from one member, and carries
    // tokens that were spent: they must reach error.usage or the stats.
    const cyclic = chat('{"id":1,"city":""}', { input: 50, output: 5 });
    cyclic.request = { response: cyclic };
    const lost = [];
    for (const [name, response, expectedFailure] of [
      ["a response holding a reference to itself", cyclic, "schema"],
      ["a response cut inside an emoji (half a surrogate pair)", chat('{"id":1,"city":"Oslo \ud83d', { finishReason: "length", input: 60, output: 4096 }), "truncated"],
      ["a response with a lone surrogate in a string", chat('{"id":1,"city":"\udc00"}', { input: 70, output: 9 }), undefined],
      ["a response with a BigInt member", { ...chat('{"id":1,"city":""}', { input: 80, output: 6 }), created: 1767225600n }, "schema"],
    ]) {
      const { callModel, served } = script(response, response);
      const run = await guarded(callModel, { budgets: { total: 1 } });
      const reported = run.reason?.usage ?? run.value?.usage;
      const counted = run.snapshot.tokens.input;
      const spent = served.reduce((sum, r) => sum + r.usage.prompt_tokens, 0);
      if (counted !== spent || reported === undefined) {
        lost.push(
          `${name}: ${spent} input tokens spent over ${served.length} attempt(s); stats counted ${counted}; ` +
            `${run.fulfilled ? "accepted" : `rejected with ${run.reason?.constructor?.name} (${run.reason?.code}) "${run.reason?.message}"`}`,
        );
        continue;
      }
      assert.equal(tokensOf(reported).input, spent, name);
      if (expectedFailure) assert.equal(run.reason?.failure, expectedFailure, name);
    }
    assert.deepEqual(lost, [], `usage lost:\n${lost.join("\n")}`);
  });
});

// ---------------------------------------------------------------------------
// Hangs, deadlines and aborts
// ---------------------------------------------------------------------------

const never = () => new Promise(() => {});
const after = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));

describe("a callModel that hangs or ignores its signal", () => {
  for (const deadlineMs of [30, 50, 80]) {
    test(`hanging past deadlineMs ${deadlineMs}: rejects with failure "deadline" and no usage`, { timeout: 10_000 }, async () => {
      const { callModel, contexts } = script(never);
      const run = await guarded(callModel, { deadlineMs });
      assert.equal(run.fulfilled, false);
      assert.ok(run.reason instanceof guard.StructuredOutputError);
      assert.equal(run.reason.failure, "deadline");
      assert.equal(run.reason.stoppedBy, "deadline");
      assert.equal(run.reason.attempts, 1);
      assert.deepEqual(run.reason.usage, usageOf([]));
      assert.equal(contexts[0].signal.aborted, true, "the call's own signal is aborted");
      assertAccounted(run, []);
      assert.equal(run.snapshot.rejected, 1);
    });
  }

  test("a failed attempt, then a retry that hangs: the first attempt's failure and usage are reported", { timeout: 10_000 }, async () => {
    const first = chat('{"id":-1,"city":"Oslo"}', { input: 120, output: 12 });
    const { callModel, served } = script(first, never);
    const run = await guarded(callModel, { deadlineMs: 60, budgets: { total: 3 } });
    assert.ok(run.reason instanceof guard.StructuredOutputError);
    assert.equal(run.reason.stoppedBy, "deadline");
    assert.equal(run.reason.failure, "schema");
    assert.deepEqual(run.reason.usage, usageOf(served));
    assertAccounted(run, served);
  });

  test("a call that resolves, or rejects, after the deadline is ignored without an unhandled rejection", { timeout: 10_000 }, async () => {
    const unhandled = [];
    const onUnhandled = (reason) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      for (const late of [() => after(120, chat(GOOD())), () => after(120).then(() => Promise.reject(new Error("late failure")))]) {
        const { callModel } = script(late);
        const run = await guarded(callModel, { deadlineMs: 40 });
        assert.equal(run.reason?.failure, "deadline");
      }
      await after(200);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    assert.deepEqual(unhandled, []);
  });

  test("aborted while callModel is pending and ignoring the signal: rejects with the signal's reason", { timeout: 10_000 }, async () => {
    for (const reason of [new Error("user navigated away"), "a string reason", undefined]) {
      const controller = new AbortController();
      const { callModel } = script(() => {
        setTimeout(() => (reason === undefined ? controller.abort() : controller.abort(reason)), 20);
        return never();
      });
      const run = await guarded(callModel, { signal: controller.signal, budgets: { total: 3 } });
      assert.equal(run.fulfilled, false);
      if (reason === undefined) assert.equal(run.reason?.name, "AbortError");
      else assert.ok(Object.is(run.reason, reason));
      assertAccounted(run, []);
      assert.equal(run.snapshot.stoppedBy.aborted, 1);
    }
  });

  test("aborted during a retry: the finished attempt's usage stays counted", { timeout: 10_000 }, async () => {
    const controller = new AbortController();
    const first = chat("I cannot answer that.", { input: 90, output: 6 });
    const { callModel, served, requests } = script(first, () => {
      setTimeout(() => controller.abort(new Error("stop")), 20);
      return never();
    });
    const run = await guarded(callModel, { signal: controller.signal, budgets: { total: 3 } });
    assert.equal(run.reason?.message, "stop");
    assert.equal(requests.length, 2);
    assertAccounted(run, served);
  });

  test("abort and deadline together: whichever comes first settles the call", { timeout: 10_000 }, async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("caller gave up")), 200);
    const { callModel } = script(never);
    const run = await guarded(callModel, { signal: controller.signal, deadlineMs: 30 });
    assert.equal(run.reason?.failure, "deadline");
    const second = new AbortController();
    setTimeout(() => second.abort(new Error("caller gave up")), 10);
    const run2 = await guarded(script(never).callModel, { signal: second.signal, deadlineMs: 5_000 });
    assert.equal(run2.reason?.message, "caller gave up");
  });
});

// ---------------------------------------------------------------------------
// Budgets
// ---------------------------------------------------------------------------

describe("retries with budgets: { total: 3 }", () => {
  test("three different failures, then an accepted output: four calls, every attempt's usage summed", async () => {
    const served = [
      chat("not json", { input: 100, output: 3 }),
      chat('{"id":1,"city":""}', { input: 101, output: 12 }),
      chat('{"id":1,"city":"Os', { finishReason: "length", input: 102, output: 4096 }),
      chat(GOOD(), { input: 103, output: 14 }),
    ];
    const { callModel, requests } = script(...served);
    const run = await guarded(callModel, { budgets: { total: 3 } });
    assert.equal(run.fulfilled, true, run.reason?.message);
    assert.equal(run.value.attempts, 4);
    assert.ok(requests.every((r) => r === REQUEST), "each retry is the identical request");
    assert.deepEqual(run.value.usage, usageOf(served));
    assert.deepEqual(tokensOf(run.value.usage), { input: 406, output: 4125, total: 4531 });
    assertAccounted(run, served, { failedAttempts: 3 });
    assert.equal(run.snapshot.accepted, 1);
  });

  test("four failures with different errors: rejected after four calls by the budget, with all four usages", async () => {
    const served = [
      chat('{"id":-1,"city":"Oslo"}', { input: 1, output: 2 }),
      chat('{"id":1,"city":""}', { input: 3, output: 4 }),
      chat('{"city":"Oslo"}', { input: 5, output: 6 }),
      chat('{"id":1,"city":"Oslo","extra":1}', { input: 7, output: 8 }),
      chat(GOOD(), { input: 9, output: 10 }),
    ];
    const { callModel, requests } = script(...served);
    const run = await guarded(callModel, { budgets: { total: 3 } });
    assert.equal(run.fulfilled, false);
    assert.equal(requests.length, 4, "the fifth response is never asked for");
    assert.equal(run.reason.stoppedBy, "budget");
    assert.equal(run.reason.attempts, 4);
    assert.deepEqual(run.reason.usage, usageOf(served.slice(0, 4)));
    assert.deepEqual(tokensOf(run.reason.usage), { input: 16, output: 20, total: 36 });
    assertAccounted(run, served.slice(0, 4));
  });

  test("repair mode under the same budget: four calls, each built from the original request", async () => {
    const served = [
      chat("[]", { input: 11, output: 1 }),
      chat('{"id":1}', { input: 12, output: 2 }),
      chat("", { input: 13, output: 0 }),
      chat(GOOD(), { input: 14, output: 4 }),
    ];
    const { callModel, requests } = script(...served);
    const run = await guarded(callModel, { budgets: { total: 3 }, retry: "repair" });
    assert.equal(run.fulfilled, true, run.reason?.message);
    assert.equal(requests.length, 4);
    for (const request of requests.slice(1)) {
      assert.equal(request.messages.length, REQUEST.messages.length + 1, "one feedback message added to the original");
    }
    assert.deepEqual(run.value.usage, usageOf(served));
    assertAccounted(run, served, { failedAttempts: 3 });
  });
});

// ---------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------

describe("a request that carries tools is never retried", () => {
  const TOOL = { type: "function", function: { name: "lookup_population", parameters: { type: "object", properties: {} } } };
  const CARRIERS = [
    ["a tools array", { ...REQUEST, tools: [TOOL] }, {}],
    ["a functions array", { ...REQUEST, functions: [{ name: "lookup_population", parameters: {} }] }, {}],
    ["toolConfig.tools", { toolConfig: { tools: [{ toolSpec: { name: "lookup" } }] }, messages: [] }, {}],
    ["hasTools: true", REQUEST, { hasTools: true }],
    ["tools and hasTools: false", { ...REQUEST, tools: [TOOL] }, { hasTools: false }],
  ];
  const FAILURES = [
    ["truncated", () => chat('{"id":1,"city":"Os', { finishReason: "length", input: 21, output: 4096 })],
    ["empty", () => chat("", { input: 22, output: 0 })],
    ["unparseable", () => chat("Sure! Here it is: {", { input: 23, output: 5 })],
    ["not_object", () => chat("[1,2]", { input: 24, output: 3 })],
    ["schema", () => chat('{"id":-1,"city":""}', { input: 25, output: 9 })],
    ["rule", () => chat('{"id":7,"city":"Oslo"}', { input: 26, output: 9 })],
  ];
  const RULES = [{ name: "even-id", then: { properties: { id: { multipleOf: 2 } } }, message: "the id must be even" }];
  const BUDGETS = [undefined, { total: 3 }, { total: 10, truncated: 10, empty: 10, unparseable: 10, not_object: 10, schema: 10, rule: 10 }];

  test("for every failure class, budget and retry mode: exactly one call, its usage reported", async () => {
    let runs = 0;
    for (const [carrier, request, extra] of CARRIERS) {
      for (const [failure, make] of FAILURES) {
        for (const budgets of BUDGETS) {
          for (const retry of ["resample", "repair"]) {
            const response = make();
            const { callModel, requests } = script(response, chat(GOOD()), chat(GOOD()));
            const context = `${carrier}, ${failure}, budgets ${JSON.stringify(budgets)}, ${retry}`;
            const run = await guarded(callModel, { ...extra, budgets, retry, rules: RULES, appendFeedback: (r, text) => ({ ...r, feedback: text }) }, request);
            assert.equal(requests.length, 1, context);
            assert.equal(run.fulfilled, false, context);
            assert.ok(run.reason instanceof guard.StructuredOutputError, context);
            assert.equal(run.reason.failure, failure, context);
            assert.equal(run.reason.stoppedBy, "tools", context);
            assert.deepEqual(run.reason.usage, usageOf([response]), context);
            assertAccounted(run, [response]);
            runs += 1;
          }
        }
      }
    }
    assert.equal(runs, CARRIERS.length * FAILURES.length * BUDGETS.length * 2);
  });

  test("with tools, a deadline or an abort still ends after one call", { timeout: 10_000 }, async () => {
    const request = { ...REQUEST, tools: [TOOL] };
    const hung = await guarded(script(never).callModel, { deadlineMs: 40, budgets: { total: 3 } }, request);
    assert.equal(hung.reason?.failure, "deadline");
    const controller = new AbortController();
    const { callModel, requests } = script(() => {
      setTimeout(() => controller.abort(new Error("stop")), 10);
      return never();
    });
    const aborted = await guarded(callModel, { signal: controller.signal, budgets: { total: 3 } }, request);
    assert.equal(aborted.reason?.message, "stop");
    assert.equal(requests.length, 1);
  });
});

// ---------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------


describe("1,000 concurrent guarded calls sharing the module", () => {
  test("each result matches its own script, with its own usage, and nothing crosses between calls", { timeout: 60_000 }, async () => {
    const random = prng(20261130);
    const validator = guard.compileSchema(SCHEMA);
    const stats = guard.createGuardStats();
    // Each kind: the contents served, in order, and whether the call ends accepted.
    const KINDS = [
      ["valid", (id) => [GOOD(id)], true],
      ["fenced", (id) => ["```json\n" + GOOD(id) + "\n```"], true],
      ["invalid then valid", (id) => [JSON.stringify({ id, city: "" }), GOOD(id)], true],
      ["truncated then valid", (id) => [{ content: GOOD(id).slice(0, 9), finishReason: "length" }, GOOD(id)], true],
      ["unparseable then fenced", (id) => [`Here you go: ${GOOD(id)}`, "```\n" + GOOD(id) + "\n```"], true],
      ["invalid twice", (id) => [JSON.stringify({ id, city: "" }), JSON.stringify({ id: -id - 1, city: "Oslo" })], false],
      ["truncated twice", (id) => [{ content: "{", finishReason: "length" }, { content: GOOD(id), finishReason: "max_tokens" }], false],
    ];
    const plans = Array.from({ length: 1000 }, (_, id) => {
      const [kind, contents, accepted] = KINDS[Math.floor(random() * KINDS.length)];
      const steps = contents(id).map((c, attempt) => {
        const { content, finishReason = "stop" } = typeof c === "string" ? { content: c } : c;
        return { response: chat(content, { finishReason, input: 1000 + id, output: attempt + 1 }), delay: Math.floor(random() * 8) };
      });
      return { id, kind, steps, accepted, schema: random() < 0.5 ? validator : SCHEMA };
    });

    const runs = plans.map(async (plan) => {
      const served = [];
      const request = { ...REQUEST, metadata: { id: plan.id } };
      const callModel = async (req) => {
        assert.equal(req.metadata.id, plan.id, "each call gets its own request");
        const step = plan.steps[served.length];
        await after(step.delay);
        served.push(step.response);
        return step.response;
      };
      const outcome = await settle(guard.guardedCall(request, callModel, { schema: plan.schema, stats }));
      return { plan, served, outcome };
    });
    const results = await Promise.all(runs);

    let spentInput = 0;
    for (const { plan, served, outcome } of results) {
      const context = `call ${plan.id} (${plan.kind})`;
      assert.equal(served.length, plan.steps.length, `${context}: every scripted response was asked for`);
      spentInput += served.reduce((sum, r) => sum + r.usage.prompt_tokens, 0);
      assert.equal(outcome.fulfilled, plan.accepted, `${context}: ${outcome.reason?.message}`);
      if (plan.accepted) {
        assert.deepEqual(outcome.value.value, { id: plan.id, city: "Oslo" }, context);
        assert.ok(outcome.value.response === served.at(-1), `${context}: the response is its own last one`);
        assert.equal(outcome.value.attempts, served.length, context);
        assert.deepEqual(outcome.value.usage, usageOf(served), context);
      } else {
        assert.ok(outcome.reason instanceof guard.StructuredOutputError, context);
        assert.ok(outcome.reason.response === served.at(-1), context);
        assert.equal(outcome.reason.attempts, served.length, context);
        assert.deepEqual(outcome.reason.usage, usageOf(served), context);
      }
      const usage = outcome.fulfilled ? outcome.value.usage : outcome.reason.usage;
      assert.deepEqual(tokensOf(usage), {
        input: (1000 + plan.id) * served.length,
        output: (served.length * (served.length + 1)) / 2,
        total: (1000 + plan.id) * served.length + (served.length * (served.length + 1)) / 2,
      }, `${context}: tokens are this call's own`);
    }
    const snapshot = stats.snapshot();
    assert.equal(snapshot.calls, 1000);
    assert.equal(snapshot.accepted + snapshot.rejected, 1000);
    assert.equal(snapshot.accepted, plans.filter((p) => p.accepted).length);
    assert.equal(snapshot.tokens.input, spentInput);
    assert.ok(new Set(plans.map((p) => p.kind)).size === KINDS.length, "every kind ran");
    // The module still answers correctly.
    assert.equal(guard.checkOutput(GOOD(5), validator).ok, true);
  });
});

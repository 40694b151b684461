// guardedCall: one call, at most one resample with the identical request,
// never a resample when tools ran or the caller aborted.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import {
  CITY_SCHEMA,
  anthropicMessage,
  assertArgumentError,
  geminiResponse,
  openaiChat,
  rejected,
  scripted,
} from "../../support/fixtures.mjs";

const OSLO = { city: "Oslo", population: 709037 };
const OSLO_TEXT = JSON.stringify(OSLO);

function chatRequest(extra = {}) {
  return {
    model: "gpt-4.1-mini",
    messages: [
      { role: "system", content: "Answer with JSON only." },
      { role: "user", content: "Which city is the capital of Norway, and how many people live there?" },
    ],
    response_format: { type: "json_schema", json_schema: { name: "city", strict: true, schema: CITY_SCHEMA } },
    max_completion_tokens: 4096,
    ...extra,
  };
}

describe("guardedCall: resample once", () => {
  test("truncated then valid: exactly 2 calls with the identical request object, tokens summed", async () => {
    const request = chatRequest();
    const truncated = openaiChat('{"city":"Oslo","popul', { finishReason: "length", usage: { prompt_tokens: 310, completion_tokens: 4096 } });
    const valid = openaiChat(OSLO_TEXT, { usage: { prompt_tokens: 310, completion_tokens: 18 } });
    const { calls, callModel } = scripted(truncated, valid);

    const result = await guard.guardedCall(request, callModel, { schema: CITY_SCHEMA });

    assert.equal(calls.length, 2);
    assert.ok(calls[0] === request, "first call must get the caller's request object");
    assert.ok(calls[1] === request, "the resample must get the identical request object");
    assert.deepEqual(result.value, OSLO);
    assert.equal(result.attempts, 2);
    assert.equal(result.rescue, "none");
    assert.ok(result.response === valid, "response is the accepted (last) response");
    assert.equal(result.usage.tokens.input, 620);
    assert.equal(result.usage.tokens.output, 4114);
    assert.equal(result.usage.tokens.total, 4734);
    assert.equal(result.usage.tokens.cacheRead, 0);
    assert.equal(result.usage.tokens.reasoning, 0);
    assert.deepEqual(result.usage, guard.mergeUsage(truncated, valid));
  });

  test("Gemini MAX_TOKENS then valid: usageMetadata of both attempts summed", async () => {
    const request = { contents: [{ role: "user", parts: [{ text: "Capital of Norway as JSON" }] }], generationConfig: { responseMimeType: "application/json" } };
    const { calls, callModel } = scripted(
      geminiResponse('{"city":"Oslo","population":709037}', {
        finishReason: "MAX_TOKENS",
        usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12, thoughtsTokenCount: 1012, totalTokenCount: 1064 },
      }),
      geminiResponse(OSLO_TEXT, { usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12, thoughtsTokenCount: 300, totalTokenCount: 352 } }),
    );
    const result = await guard.guardedCall(request, callModel, { schema: CITY_SCHEMA });
    assert.equal(calls.length, 2);
    assert.ok(calls[1] === request);
    assert.deepEqual(result.value, OSLO);
    assert.deepEqual(result.usage, { tokens: { input: 80, output: 1336, total: 1416, reasoning: 1312 } });
  });

  test("a valid first response makes exactly one call", async () => {
    const { calls, callModel } = scripted(anthropicMessage("```json\n" + OSLO_TEXT + "\n```"));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA });
    assert.equal(calls.length, 1);
    assert.equal(result.attempts, 1);
    assert.equal(result.rescue, "code_fence");
    assert.deepEqual(result.value, OSLO);
    assert.deepEqual(result.usage, { tokens: { input: 200, output: 40, total: 240 } });
  });

  test("a synchronous callModel works too", async () => {
    let n = 0;
    const result = await guard.guardedCall(chatRequest(), () => (++n === 1 ? openaiChat("not json") : openaiChat(OSLO_TEXT)), { schema: CITY_SCHEMA });
    assert.equal(n, 2);
    assert.deepEqual(result.value, OSLO);
  });

  test("invalid twice rejects with StructuredOutputError carrying both attempts", async () => {
    const first = anthropicMessage('{"city":"","population":709037}', { usage: { input_tokens: 500, cache_read_input_tokens: 2000, output_tokens: 21 } });
    const second = anthropicMessage('{"city":"","population":-1}', { usage: { input_tokens: 500, cache_read_input_tokens: 2000, output_tokens: 19 } });
    const { calls, callModel } = scripted(first, second);
    const request = chatRequest();

    const error = await rejected(guard.guardedCall(request, callModel, { schema: CITY_SCHEMA }));

    assert.equal(calls.length, 2);
    assert.ok(calls[1] === request);
    assert.ok(error instanceof Error);
    assert.ok(error instanceof guard.StructuredOutputError);
    assert.equal(error.name, "StructuredOutputError");
    assert.equal(error.failure, "schema");
    assert.equal(error.attempts, 2);
    assert.ok(error.response === second, "response is the last response");
    assert.equal(error.verdicts.length, 2);
    assert.equal(error.verdicts[0].failure, "schema");
    assert.deepEqual(error.verdicts[0].errors.map((e) => [e.path, e.code]), [["/city", "minLength"]]);
    assert.deepEqual(error.errors.map((e) => [e.path, e.code]), [["/city", "minLength"], ["/population", "minimum"]]);
    assert.deepEqual(error.errors, error.verdicts[1].errors);
    assert.deepEqual(error.usage, { tokens: { input: 5000, output: 40, total: 5040, cacheRead: 4000 } });
    assert.match(error.message, /schema/);
  });

  test("a failure of another class on the second attempt is the one reported", async () => {
    const { callModel } = scripted(openaiChat('{"city":""}'), openaiChat("I cannot answer that."));
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA }));
    assert.equal(error.failure, "unparseable");
    assert.deepEqual(error.errors, []);
    assert.deepEqual(error.verdicts.map((v) => v.failure), ["schema", "unparseable"]);
  });

  test("a Validator works as the schema", async () => {
    const validator = guard.compileSchema(CITY_SCHEMA);
    const { calls, callModel } = scripted(openaiChat("[]"), openaiChat(OSLO_TEXT));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: validator });
    assert.equal(calls.length, 2);
    assert.deepEqual(result.value, OSLO);
    assert.equal(result.verdicts[0].failure, "not_object");
  });
});

describe("guardedCall: no resample when tools ran", () => {
  const BAD = () => openaiChat('{"city":"Oslo"}');

  test("a non-empty `tools` array makes exactly one call", async () => {
    const request = chatRequest({ tools: [{ type: "function", function: { name: "lookup_population", parameters: { type: "object", properties: {} } } }] });
    const { calls, callModel } = scripted(BAD());
    const error = await rejected(guard.guardedCall(request, callModel, { schema: CITY_SCHEMA }));
    assert.equal(calls.length, 1);
    assert.ok(error instanceof guard.StructuredOutputError);
    assert.equal(error.failure, "schema");
    assert.equal(error.attempts, 1);
    assert.equal(error.verdicts.length, 1);
  });

  test("a non-empty legacy `functions` array makes exactly one call", async () => {
    const { calls, callModel } = scripted(BAD());
    const error = await rejected(guard.guardedCall(chatRequest({ functions: [{ name: "lookup_population", parameters: {} }] }), callModel, { schema: CITY_SCHEMA }));
    assert.equal(calls.length, 1);
    assert.equal(error.attempts, 1);
  });

  test("options.hasTools: true makes exactly one call", async () => {
    const { calls, callModel } = scripted(BAD());
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, hasTools: true }));
    assert.equal(calls.length, 1);
    assert.equal(error.attempts, 1);
  });

  test("Bedrock toolConfig.tools makes exactly one call", async () => {
    const { calls, callModel } = scripted(BAD());
    await rejected(guard.guardedCall({ toolConfig: { tools: [{ toolSpec: { name: "lookup" } }] } }, callModel, { schema: CITY_SCHEMA }));
    assert.equal(calls.length, 1);
  });

  test("an empty tools array is no tools: the resample happens", async () => {
    const { calls, callModel } = scripted(BAD(), openaiChat(OSLO_TEXT));
    const result = await guard.guardedCall(chatRequest({ tools: [], functions: [] }), callModel, { schema: CITY_SCHEMA, hasTools: false });
    assert.equal(calls.length, 2);
    assert.deepEqual(result.value, OSLO);
  });

  test("a request that cannot be read may hide tools: exactly one call", async () => {
    const { proxy: revoked, revoke } = Proxy.revocable(chatRequest(), {});
    revoke();
    const hidden = [
      ["a revoked Proxy", revoked],
      ["a Proxy whose prototype cannot be read", new Proxy(chatRequest(), { getPrototypeOf() { throw new Error("no"); } })],
      ["a getter of `tools` that throws", Object.defineProperty(chatRequest(), "tools", { get() { throw new Error("no"); }, enumerable: true })],
      ["a getter of `toolConfig` that throws", Object.defineProperty(chatRequest(), "toolConfig", { get() { throw new Error("no"); } })],
    ];
    for (const [what, request] of hidden) {
      // Twice: the second call meets the request reader as the first left it.
      for (let round = 0; round < 2; round++) {
        const { calls, callModel } = scripted(BAD(), openaiChat(OSLO_TEXT));
        const error = await rejected(guard.guardedCall(request, callModel, { schema: CITY_SCHEMA }));
        assert.equal(calls.length, 1, what);
        assert.equal(error.stoppedBy, "tools", what);
      }
    }
  });

  test("tools in a Map request, or behind a getter, make exactly one call; none make a resample", async () => {
    const tools = [{ type: "function", function: { name: "f" } }];
    const withTools = [
      ["a Map with tools", new Map([["model", "m"], ["tools", tools]])],
      ["a Map with toolConfig.tools", new Map([["toolConfig", { tools }]])],
      ["a getter of tools", Object.defineProperty(chatRequest(), "tools", { get: () => tools })],
      ["a class instance with tools on its prototype", new (class { get tools() { return tools; } })()],
    ];
    for (const [what, request] of withTools) {
      const { calls, callModel } = scripted(BAD(), openaiChat(OSLO_TEXT));
      const error = await rejected(guard.guardedCall(request, callModel, { schema: CITY_SCHEMA }));
      assert.equal(calls.length, 1, what);
      assert.equal(error.stoppedBy, "tools", what);
    }
    for (const request of [new Map([["model", "m"]]), new Map([["tools", []]]), "a string request", 7, null]) {
      const { calls, callModel } = scripted(BAD(), openaiChat(OSLO_TEXT));
      const result = await guard.guardedCall(request, callModel, { schema: CITY_SCHEMA });
      assert.equal(calls.length, 2, String(request));
      assert.deepEqual(result.value, OSLO);
    }
  });

  test("a request with tools and a valid response is accepted", async () => {
    const { calls, callModel } = scripted(openaiChat(OSLO_TEXT));
    const result = await guard.guardedCall(chatRequest({ tools: [{ type: "function", function: { name: "f" } }] }), callModel, { schema: CITY_SCHEMA });
    assert.equal(calls.length, 1);
    assert.deepEqual(result.value, OSLO);
  });
});

describe("guardedCall: the lenient path (strict: false)", () => {
  test("non-JSON: one call, a warning, value null, no throw", async () => {
    const response = openaiChat("Sure! Oslo has about 709k people.");
    const { calls, callModel } = scripted(response);
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, strict: false });
    assert.equal(calls.length, 1);
    assert.equal(result.value, null);
    assert.equal(result.attempts, 1);
    assert.ok(result.response === response);
    assert.equal(typeof result.warning, "string");
    assert.match(result.warning, /^unparseable: The response is not valid JSON/);
    assert.deepEqual(result.usage, guard.normalizeUsage(response));
  });

  test("a schema failure returns the parsed object with a warning", async () => {
    const { calls, callModel } = scripted(openaiChat('{"city":"Oslo","population":"many"}'));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, strict: false });
    assert.equal(calls.length, 1);
    assert.deepEqual(result.value, { city: "Oslo", population: "many" });
    assert.match(result.warning, /^schema: /);
    assert.match(result.warning, /\/population/);
  });

  test("a schema failure in a text output returns the value of exactly the JSON", async () => {
    // Non-ASCII inside the JSON, so byte and UTF-16 offsets differ; the
    // JSON runs to the end of the text or stops short of it.
    const value = { city: "Ålesund 🌊", population: "many" };
    const json = JSON.stringify(value);
    const texts = [json, ` \n${json}`, `${json}\n\n`, `\`\`\`json\n${json}\n\`\`\`\n`];
    for (const schema of [CITY_SCHEMA, guard.compileSchema(CITY_SCHEMA)]) {
      for (const text of texts) {
        const { callModel } = scripted(text);
        const result = await guard.guardedCall(chatRequest(), callModel, { schema, strict: false, read: (r) => r });
        assert.deepEqual(result.value, value, JSON.stringify(text));
        assert.match(result.warning, /^schema: /);
      }
    }
  });

  test("a root array returns value null", async () => {
    const { callModel } = scripted(openaiChat("[1,2]"));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, strict: false });
    assert.equal(result.value, null);
    assert.match(result.warning, /^not_object: /);
  });

  test("a valid response has no warning", async () => {
    const { callModel } = scripted(openaiChat(OSLO_TEXT));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, strict: false });
    assert.deepEqual(result.value, OSLO);
    assert.equal(result.warning, undefined);
  });
});

describe("guardedCall: strict defaults to the response-format wrapper's strict", () => {
  test("wrapper strict: false → the lenient path (one call, warning)", async () => {
    const { calls, callModel } = scripted(openaiChat("not json"));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: { name: "city", strict: false, schema: CITY_SCHEMA } });
    assert.equal(calls.length, 1);
    assert.equal(result.value, null);
    assert.match(result.warning, /^unparseable: /);
  });

  test("wrapper strict: true → strict (resample, then reject)", async () => {
    const { calls, callModel } = scripted(openaiChat("not json"), openaiChat("still not json"));
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: { name: "city", strict: true, schema: CITY_SCHEMA } }));
    assert.equal(calls.length, 2);
    assert.equal(error.failure, "unparseable");
  });

  test("a wrapper without strict, and a bare schema, default to strict", async () => {
    for (const schema of [{ name: "city", schema: CITY_SCHEMA }, CITY_SCHEMA]) {
      const { calls, callModel } = scripted(openaiChat("nope"), openaiChat("nope"));
      const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema }));
      assert.equal(calls.length, 2);
      assert.ok(error instanceof guard.StructuredOutputError);
    }
  });

  test("an explicit strict option wins over the wrapper", async () => {
    const { calls, callModel } = scripted(openaiChat("nope"), openaiChat(OSLO_TEXT));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: { name: "city", strict: false, schema: CITY_SCHEMA }, strict: true });
    assert.equal(calls.length, 2);
    assert.deepEqual(result.value, OSLO);
  });

  test("the wrapped schema is what gets checked", async () => {
    const { callModel } = scripted(openaiChat('{"city":"","population":1}'));
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: { name: "city", strict: false, schema: CITY_SCHEMA } });
    assert.match(result.warning, /^schema: .*\/city/);
  });
});

describe("guardedCall: abort", () => {
  test("an AbortController aborted during the first call prevents the resample", async () => {
    const controller = new AbortController();
    const { calls, callModel } = scripted(() => {
      controller.abort();
      return openaiChat('{"city":"Oslo"}');
    });
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, signal: controller.signal }));
    assert.equal(calls.length, 1);
    assert.ok(error instanceof guard.StructuredOutputError);
    assert.equal(error.failure, "schema");
    assert.equal(error.attempts, 1);
    assert.equal(error.stoppedBy, "aborted");
  });

  test("an accepted first response is returned even if the signal fired meanwhile", async () => {
    const controller = new AbortController();
    const { calls, callModel } = scripted(() => {
      controller.abort();
      return openaiChat(OSLO_TEXT);
    });
    const result = await guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, signal: controller.signal });
    assert.equal(calls.length, 1);
    assert.deepEqual(result.value, OSLO);
  });

  test("an already aborted signal makes no call and rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("user navigated away");
    controller.abort(reason);
    const { calls, callModel } = scripted(openaiChat(OSLO_TEXT));
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, signal: controller.signal }));
    assert.equal(calls.length, 0);
    assert.ok(error === reason);
  });
});

describe("guardedCall: errors from callModel", () => {
  test("propagate unchanged (the same object) with no resample", async () => {
    const failure = Object.assign(new Error("429 Too Many Requests"), { status: 429 });
    let n = 0;
    const error = await rejected(
      guard.guardedCall(chatRequest(), async () => {
        n++;
        throw failure;
      }, { schema: CITY_SCHEMA }),
    );
    assert.equal(n, 1);
    assert.ok(error === failure);
    assert.equal(error.status, 429);
  });

  test("a throw during the resample propagates unchanged too", async () => {
    const failure = new TypeError("fetch failed");
    const { calls, callModel } = scripted(openaiChat("nope"), () => {
      throw failure;
    });
    const error = await rejected(guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA }));
    assert.equal(calls.length, 2);
    assert.ok(error === failure);
  });
});

describe("guardedCall: hooks", () => {
  test("onAttempt sees each attempt with its verdict, usage and action", async () => {
    const events = [];
    const { callModel } = scripted(
      openaiChat('{"city":"Os', { finishReason: "length", usage: { prompt_tokens: 100, completion_tokens: 64 } }),
      openaiChat(OSLO_TEXT, { usage: { prompt_tokens: 100, completion_tokens: 12 } }),
    );
    await guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, onAttempt: (event) => events.push(event) });
    assert.equal(events.length, 2);
    assert.deepEqual(events.map((e) => e.attempt), [1, 2]);
    assert.equal(events[0].verdict.ok, false);
    assert.equal(events[0].verdict.failure, "truncated");
    assert.equal(events[0].action, "resample");
    assert.equal(events[0].usage.tokens.output, 64);
    assert.equal(events[1].verdict.ok, true);
    assert.deepEqual(events[1].verdict.value, OSLO);
    assert.equal(events[1].action, "accept");
    assert.equal(events[1].usage.tokens.output, 12);
  });

  test("onAttempt is called for the rejected attempts too", async () => {
    const events = [];
    const { callModel } = scripted(openaiChat("x"), openaiChat("y"));
    await rejected(guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, onAttempt: (e) => events.push([e.attempt, e.verdict.failure, e.action]) }));
    assert.deepEqual(events, [
      [1, "unparseable", "resample"],
      [2, "unparseable", "reject"],
    ]);
  });

  test("a custom read(response) and usage(response) are used", async () => {
    const raw = [
      { output: { body: '{"city":"Oslo","pop', stop: "length" }, meter: { in: 7, out: 300, dollars: 0.25 } },
      { output: { body: OSLO_TEXT, stop: "eos" }, meter: { in: 7, out: 20, dollars: 0.5 } },
    ];
    const seenByRead = [];
    const seenByUsage = [];
    const { calls, callModel } = scripted(...raw);
    const result = await guard.guardedCall({ prompt: "Capital of Norway" }, callModel, {
      schema: CITY_SCHEMA,
      read: (response) => {
        seenByRead.push(response);
        return { content: response.output.body, finishReason: response.output.stop };
      },
      usage: (response) => {
        seenByUsage.push(response);
        return { tokens: { input: response.meter.in, output: response.meter.out }, cost: { total: response.meter.dollars } };
      },
    });
    assert.equal(calls.length, 2);
    assert.ok(seenByRead[0] === raw[0] && seenByRead[1] === raw[1]);
    assert.ok(seenByUsage[0] === raw[0] && seenByUsage[1] === raw[1]);
    assert.deepEqual(result.value, OSLO);
    assert.deepEqual(result.usage, { tokens: { input: 14, output: 320 }, cost: { total: 0.75 } });
  });
});

describe("guardedCall: misuse", () => {
  test('a schema that cannot be compiled, under onInvalidSchema: "throw", throws SchemaError before any call', async () => {
    let n = 0;
    const error = await rejected(guard.guardedCall(chatRequest(), async () => (n++, openaiChat(OSLO_TEXT)), { schema: { type: "objekt" }, onInvalidSchema: "throw" }));
    assert.equal(n, 0);
    assert.ok(error instanceof guard.SchemaError);
    assert.equal(error.code, "invalid_schema");
  });

  test('by default (and under onInvalidSchema: "degrade") it runs with only the parse-level checks, and says so', async () => {
    for (const options of [{}, { onInvalidSchema: "degrade" }]) {
      const { calls, callModel } = scripted(openaiChat('{"anything":true}'));
      const result = await guard.guardedCall(chatRequest(), callModel, { schema: { type: "objekt" }, ...options });
      assert.equal(calls.length, 1);
      assert.deepEqual(result.value, { anything: true });
      assert.equal(result.verdicts[0].degraded, true);
      assert.equal(result.degraded, true);
      assert.equal(result.audit.degraded, true);
    }
  });

  test("wrong arguments are TypeErrors with code invalid_argument, before any call", async () => {
    let n = 0;
    const callModel = async () => (n++, openaiChat(OSLO_TEXT));
    const cases = [
      [() => guard.guardedCall(chatRequest(), "not a function", { schema: CITY_SCHEMA }), /callModel/],
      // A request that gives its provider no schema (see request-schema.test.mjs for those that do).
      [() => guard.guardedCall(chatRequest({ response_format: undefined }), callModel), /options/],
      [() => guard.guardedCall(chatRequest({ response_format: undefined }), callModel, {}), /options\.schema/],
      [() => guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, read: "content" }), /options\.read/],
      [() => guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, usage: 5 }), /options\.usage/],
      [() => guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, onAttempt: {} }), /options\.onAttempt/],
      [() => guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, maxErrors: -1 }), /maxErrors/],
      [() => guard.guardedCall(chatRequest(), callModel, { schema: CITY_SCHEMA, formats: "nope" }), /formats/],
    ];
    for (const [run, message] of cases) {
      assertArgumentError(await rejected(run()), message);
    }
    assert.equal(n, 0);
  });

  test("maxErrors is passed to the check", async () => {
    const { callModel } = scripted(openaiChat('{"city":"","population":-1}'));
    const error = await rejected(guard.guardedCall(chatRequest({ tools: [{ type: "function", function: { name: "f" } }] }), callModel, { schema: CITY_SCHEMA, maxErrors: 1 }));
    assert.equal(error.errors.length, 1);
    assert.equal(error.verdicts[0].moreErrors, true);
  });

  test("check options an options object inherits are passed to the check too", async () => {
    const tools = { tools: [{ type: "function", function: { name: "f" } }] };
    const all = await rejected(guard.guardedCall(chatRequest(tools), scripted(openaiChat('{"city":"","population":-1}')).callModel, { schema: CITY_SCHEMA }));
    assert.equal(all.errors.length, 2);
    const options = Object.assign(Object.create({ maxErrors: 1 }), { schema: CITY_SCHEMA });
    const error = await rejected(guard.guardedCall(chatRequest(tools), scripted(openaiChat('{"city":"","population":-1}')).callModel, options));
    assert.equal(error.errors.length, 1);
    assert.equal(error.verdicts[0].moreErrors, true);
  });

  test("each option is read once, own or inherited, getters included", async () => {
    const tools = { tools: [{ type: "function", function: { name: "f" } }] };
    const reads = {};
    const counted = (target, name, value) =>
      Object.defineProperty(target, name, {
        enumerable: true,
        get() {
          reads[name] = (reads[name] ?? 0) + 1;
          return value;
        },
      });
    const inherited = {};
    counted(inherited, "maxErrors", 1);
    counted(inherited, "retry", "identical");
    const options = Object.create(inherited);
    counted(options, "schema", CITY_SCHEMA);
    counted(options, "strict", true);
    counted(options, "budgets", { total: 2 });
    counted(options, "deadlineMs", 60_000);
    const error = await rejected(guard.guardedCall(chatRequest(tools), scripted(openaiChat('{"city":"","population":-1}')).callModel, options));
    assert.equal(error.errors.length, 1, "the inherited maxErrors counts");
    assert.deepEqual(reads, { schema: 1, strict: 1, budgets: 1, deadlineMs: 1, maxErrors: 1, retry: 1 });
    // A plain object's own options, read once each as well.
    for (const key of Object.keys(reads)) delete reads[key];
    const plain = {};
    counted(plain, "schema", CITY_SCHEMA);
    counted(plain, "maxErrors", 1);
    counted(plain, "hasTools", true);
    await rejected(guard.guardedCall(chatRequest(), scripted(openaiChat('{"city":"","population":-1}')).callModel, plain));
    assert.deepEqual(reads, { schema: 1, maxErrors: 1, hasTools: 1 });
  });
});

describe("retry: the contract's names", () => {
  test('"identical" resamples the identical request, as "resample" does', async () => {
    const schema = { type: "object", required: ["a"] };
    for (const retry of ["identical", "resample"]) {
      const seen = [];
      const request = { q: 1 };
      const result = await guard.guardedCall(request, async (r) => (seen.push(r), seen.length === 1 ? { content: "{", finishReason: "length" } : { content: '{"a":1}' }), { schema, retry });
      assert.equal(result.attempts, 2, retry);
      assert.equal(seen[1], request, `${retry}: the identical request object`);
    }
    await assert.rejects(guard.guardedCall({}, async () => ({ content: "{}" }), { schema, retry: "again" }), (error) => error.code === "invalid_argument");
  });
});

describe("guardedCall: the attempt's signal", () => {
  test("without a caller's signal or deadline, each attempt still hands callModel one live signal of its own", async () => {
    const seen = [];
    const responses = [openaiChat('{"city":"Oslo","popul', { finishReason: "length" }), openaiChat(OSLO_TEXT)];
    const result = await guard.guardedCall(chatRequest(), (request, context) => {
      // Read twice: the same signal both times.
      // A spread copy (as a caller passes it on with options of its own) keeps the same signal.
      seen.push([context.signal, context.signal, context.attempt, Object.keys(context), { ...context }.signal]);
      return responses[seen.length - 1];
    }, { schema: CITY_SCHEMA });
    assert.equal(result.attempts, 2);
    assert.equal(seen.length, 2);
    for (const [first, again, attempt, keys, spread] of seen) {
      assert.ok(first instanceof AbortSignal);
      assert.equal(first, again);
      assert.equal(spread, first);
      assert.equal(first.aborted, false);
      assert.deepEqual(keys, ["signal", "attempt"]);
      assert.equal(typeof attempt, "number");
    }
    assert.notEqual(seen[0][0], seen[1][0], "each attempt has its own signal");
    assert.deepEqual(seen.map((s) => s[2]), [1, 2]);
  });

  test("a signal read with a deadline set is aborted when the deadline passes", async () => {
    let signal;
    const error = await rejected(guard.guardedCall(chatRequest(), (request, context) => {
      signal = context.signal;
      return new Promise(() => {});
    }, { schema: CITY_SCHEMA, deadlineMs: 20 }));
    assert.equal(error.stoppedBy, "deadline");
    assert.equal(signal.aborted, true);
  });
});

test("responses of one shape, attempt after attempt and call after call, are each read as they are", async () => {
  // A session reuses the copy it wrote last for a response that makes the
  // same one: a finish reason, a tool call or a member that differs must
  // still be read, and a text that differs checked.
  const cut = OSLO_TEXT.slice(0, 12);
  const toolCall = (content) => {
    const response = openaiChat(content);
    response.choices[0].message.tool_calls = [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }];
    return response;
  };
  for (let round = 0; round < 3; round++) {
    const truncated = scripted(openaiChat(cut, { finishReason: "length" }), openaiChat(OSLO_TEXT));
    const result = await guard.guardedCall(chatRequest(), truncated.callModel, { schema: CITY_SCHEMA });
    assert.equal(result.attempts, 2);
    assert.deepEqual(result.audit.attempts.map((a) => a.failure), ["truncated", null]);
    assert.deepEqual(result.value, OSLO);

    const accepted = scripted(openaiChat(OSLO_TEXT));
    assert.deepEqual((await guard.guardedCall(chatRequest(), accepted.callModel, { schema: CITY_SCHEMA })).value, OSLO);

    const invalid = scripted(openaiChat('{"city":"Oslo"}'), openaiChat('{"city":"Oslo"}'));
    const error = await rejected(guard.guardedCall(chatRequest(), invalid.callModel, { schema: CITY_SCHEMA }));
    assert.equal(error.failure, "schema");

    const empty = scripted(toolCall(""), toolCall(""));
    const noText = await rejected(guard.guardedCall(chatRequest(), empty.callModel, { schema: CITY_SCHEMA }));
    assert.equal(noText.failure, "empty");
    assert.match(noText.message, /tool calls \("lookup"\)/);
  }
});

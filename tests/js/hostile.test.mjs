// Hostile schemas and instances: each gets a verdict or a typed error, never
// a trap, and the module keeps working afterwards.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { HEX64, rejected, thrown } from "../../support/fixtures.mjs";
import { badPropertyNames, hostileSet, manyRequired, sharedReferenceTree } from "../../support/hostile-schemas.mjs";

function nested(depth, leaf, wrap) {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

function stillWorks() {
  const verdict = guard.checkOutput('{"a":"x"}', { type: "object", properties: { a: { type: "string" } } });
  assert.equal(verdict.ok, true);
}

function throwsTyped(fn, ErrorClass, code, pattern) {
  const caught = thrown(fn);
  assert.ok(caught instanceof ErrorClass, `expected ${ErrorClass.name}, got ${caught}`);
  assert.equal(caught.code, code);
  assert.match(caught.message, pattern);
}

describe("hostile input", { timeout: 20000 }, () => {
  test("a catastrophic pattern against 40 a's and a '!' fails cleanly", () => {
    const v = guard.compileSchema({ type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } });
    const result = v.validate({ s: `${"a".repeat(40)}!` });
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors.map((e) => [e.path, e.code]), [["/s", "pattern"]]);
    assert.equal(v.isValid({ s: "a".repeat(40) }), true);
    stillWorks();
  });

  test("$ref cycles compile and give verdicts", () => {
    for (const schema of [
      { $ref: "#" },
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } },
    ]) {
      const verdict = guard.checkOutput('{"x":1}', schema);
      assert.equal(verdict.ok, true);
    }
    const tree = { type: "object", required: ["name"], properties: { name: { type: "string" }, child: { $ref: "#" } } };
    const deep = nested(60, { name: 1 }, (inner) => ({ name: "n", child: inner }));
    const verdict = guard.checkOutput(JSON.stringify(deep), tree);
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.errors[0].path, `${"/child".repeat(60)}/name`);
    stillWorks();
  });

  test("a 1,000-level nested schema is a SchemaError that names the nesting", () => {
    const schema = nested(1000, { type: "string" }, (inner) => ({ type: "object", properties: { a: inner } }));
    throwsTyped(() => guard.compileSchema(schema), guard.SchemaError, "invalid_schema", /nests deeper than 127 levels/);
    const degraded = guard.checkOutput('{"a":1}', schema);
    assert.equal(degraded.ok, true);
    assert.equal(degraded.degraded, true);
    stillWorks();
  });

  test("127 containers deep is the deepest JSON accepted, in responses and schemas, as the messages say", () => {
    const array = (n) => "[".repeat(n) + "]".repeat(n);
    const object = (n) => '{"a":'.repeat(n - 1) + "{}" + "}".repeat(n - 1);
    assert.equal(guard.checkOutput(array(127), {}, { requireObject: false }).ok, true);
    const refused = guard.checkOutput(array(128), {}, { requireObject: false });
    assert.equal(refused.failure, "unparseable");
    assert.match(refused.message, /nests deeper than 127 levels/);
    guard.compileSchema(object(127));
    throwsTyped(() => guard.compileSchema(object(128)), guard.SchemaError, "invalid_schema", /nests deeper than 127 levels/);
  });

  test("a 100,000-level nested instance gives a verdict or a typed error", () => {
    const text = "[".repeat(100000) + "]".repeat(100000);
    const verdict = guard.checkOutput(text, { type: "array" }, { requireObject: false });
    assert.equal(verdict.failure, "unparseable");
    assert.match(verdict.message, /nests deeper than 127 levels/);
    const value = nested(100000, 1, (inner) => [inner]);
    const v = guard.compileSchema({ type: "array" });
    throwsTyped(() => v.validate(value), TypeError, "invalid_argument", /cannot be serialised/);
    stillWorks();
  });

  test("a value nested 100,000 levels deep is refused in time proportional to the depth limit, by every value check", () => {
    const deep = JSON.parse("[".repeat(1e5) + "]".repeat(1e5));
    const v = guard.compileSchema({ type: "array" });
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const call = { choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: { a: deep } } }] } }] };
    const anthropicCall = { type: "message", role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: { a: deep } }], stop_reason: "tool_use" };
    const checks = {
      validate: () => throwsTyped(() => v.validate(deep), TypeError, "invalid_argument", /nests deeper than 127 levels/),
      isValid: () => throwsTyped(() => v.isValid(deep), TypeError, "invalid_argument", /nests deeper than 127 levels/),
      "~standard.validate": () => assert.match(v["~standard"].validate(deep).issues[0].message, /nests deeper than 127 levels/),
      "checkToolCalls, OpenAI Chat": () => throwsTyped(() => guard.checkToolCalls(call, tools), TypeError, "invalid_argument", /nests too deeply/),
      "checkToolCalls, Anthropic": () => throwsTyped(() => guard.checkToolCalls(anthropicCall, tools), TypeError, "invalid_argument", /nests too deeply/),
      // A hostile server's tool declarations (an MCP tools/list) nest as deep.
      "checkToolCalls, the tools": () =>
        throwsTyped(() => guard.checkToolCalls(call, [{ name: "f", inputSchema: { type: "object", properties: { a: { enum: [deep] } } } }]), TypeError, "invalid_argument", /nests too deeply/),
    };
    for (const [name, check] of Object.entries(checks)) {
      check();
      const started = performance.now();
      for (let i = 0; i < 5; i++) check();
      const ms = (performance.now() - started) / 5;
      assert.ok(ms < 50, `${name}: ${ms.toFixed(1)} ms a call`);
    }
    // The same limit as the text path: 127 levels are read, 128 are not.
    const array = (n) => JSON.parse("[".repeat(n) + "]".repeat(n));
    assert.equal(v.isValid(array(127)), true);
    throwsTyped(() => v.isValid(array(128)), TypeError, "invalid_argument", /nests deeper than 127 levels/);
    stillWorks();
  });

  test("a schema that is not an object or a boolean is a SchemaError naming the problem", () => {
    throwsTyped(() => guard.compileSchema(42), guard.SchemaError, "invalid_schema", /must be an object or a boolean, not a number/);
    throwsTyped(() => guard.compileSchema("[1, 2]"), guard.SchemaError, "invalid_schema", /not an array/);
    throwsTyped(() => guard.compileSchema("{\"type\": "), guard.SchemaError, "invalid_schema", /not valid JSON/);
    throwsTyped(() => guard.compileSchema(undefined), guard.SchemaError, "invalid_schema", /schema is required/);
    throwsTyped(
      () => guard.compileSchema({ $ref: "https://schemas.example/a.json" }),
      guard.SchemaError,
      "invalid_schema",
      /remote references are not fetched/,
    );
    stillWorks();
  });
});

describe("the compiled-schema cache", () => {
  test("memory stays flat while compiling 10,000 distinct schemas", () => {
    // The cache is bounded by the memory its schemas hold (see
    // tests/js/checking/schema-cache.test.mjs for the default bound); here 1 MiB,
    // which the warm-up fills.
    guard.setSchemaCacheCapacity({ maxBytes: 1 << 20 });
    guard.clearSchemaCache();
    const compileMany = (from, to) => {
      for (let i = from; i < to; i++) {
        const v = guard.compileSchema({ type: "object", properties: { [`field${i}`]: { type: "string", maxLength: i } } });
        v.free();
      }
    };
    try {
      compileMany(0, 2000);
      const warmed = guard.wasmMemoryBytes();
      compileMany(2000, 10000);
      const after = guard.wasmMemoryBytes();
      assert.ok(guard.schemaCacheSize() < 2000, `cache holds ${guard.schemaCacheSize()}`);
      assert.ok(after - warmed <= 1 << 20, `wasm memory grew by ${after - warmed} bytes after warm-up`);
    } finally {
      guard.setSchemaCacheCapacity({ maxBytes: 32 << 20 });
    }
    stillWorks();
  });

  test("capacity and clearing are honoured", () => {
    guard.setSchemaCacheCapacity(3);
    try {
      for (let i = 0; i < 10; i++) guard.compileSchema({ maxLength: i });
      assert.equal(guard.schemaCacheSize(), 3);
      guard.clearSchemaCache();
      assert.equal(guard.schemaCacheSize(), 0);
    } finally {
      guard.setSchemaCacheCapacity(128);
    }
  });
});

/** `$defs` d0 .. d(n-1), each a `$ref` to the next; `x` refers to d0. */
function refChain(n) {
  const $defs = {};
  for (let i = 0; i < n; i++) $defs[`d${i}`] = i + 1 < n ? { $ref: `#/$defs/d${i + 1}` } : { type: "string", maxLength: 2 };
  return { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs };
}

/** Checks that must give their normal verdicts, whatever came before. */
function innocentChecksHold() {
  const city = { type: "object", required: ["city"], properties: { city: { type: "string", minLength: 2 } } };
  const validator = guard.compileSchema(city);
  assert.equal(guard.checkOutput('{"city":"Oslo"}', validator).ok, true);
  assert.equal(guard.checkOutput('{"city":"O"}', validator).failure, "schema");
  assert.equal(guard.checkOutput({ content: '{"city":"Bergen"}', finishReason: "stop" }, city).ok, true);
  assert.equal(guard.checkOutput('{"city":1}', city).errors[0].path, "/city");
}

describe("one hostile schema never breaks the calls after it", { timeout: 60000 }, () => {
  test("a 20,000-hop $ref chain is a SchemaError at compile time, and 40 rounds of innocent calls after it hold", () => {
    const hostile = refChain(20000);
    const started = performance.now();
    throwsTyped(() => guard.compileSchema(hostile), guard.SchemaError, "invalid_schema", /references can nest about \d+ subschemas deep, more than the 4000/);
    throwsTyped(() => guard.checkOutput('{"x":"abc"}', hostile, { onInvalidSchema: "throw" }), guard.SchemaError, "invalid_schema", /references/);
    const degraded = guard.checkOutput('{"x":"abc"}', hostile);
    assert.equal(degraded.ok, true);
    assert.equal(degraded.degraded, true);
    const traps = internals.trapCount();
    for (let round = 0; round < 40; round++) {
      assert.equal(guard.checkOutput('{"x":"abc"}', hostile).degraded, true);
      innocentChecksHold();
    }
    assert.equal(internals.trapCount(), traps, "no call trapped");
    assert.ok(performance.now() - started < 30000);
  });

  test("a 3,000-hop chain still compiles and checks", () => {
    const verdict = guard.checkOutput('{"x":"abc"}', refChain(3000));
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.errors[0].code, "maxLength");
  });

  test("a chain across the resources option is refused the same way", () => {
    const resources = {};
    for (let i = 0; i < 6000; i++) resources[`https://schemas.example/r${i}.json`] = { $ref: `https://schemas.example/r${i + 1}.json` };
    resources["https://schemas.example/r6000.json"] = { type: "string" };
    throwsTyped(
      () => guard.compileSchema({ $ref: "https://schemas.example/r0.json" }, { resources }),
      guard.SchemaError,
      "invalid_schema",
      /references can nest/,
    );
    innocentChecksHold();
  });

  test("a stack that runs out during a check replaces the instance: the next calls give their normal verdicts", { timeout: 60000 }, () => {
    // The checks run with less and less stack left (k frames above the
    // point where the stack ran out), so that some run out inside wasm,
    // midway through a check, with the core's state half updated.
    const validator = guard.compileSchema({ type: "object", properties: { city: { type: "string" } } });
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    // A chain the compiler accepts, walked with too little stack left: the
    // stack runs out deep inside validation, with the lane's input held.
    const chain = guard.compileSchema(refChain(3500));
    let outOfStack = 0;
    const RUNS = [
      (k) => guard.checkOutput('{"x":"abcdef"}', chain),
      (k) => guard.checkOutput(`{"city":"${"x".repeat(k)}"}`, validator),
      (k) => guard.checkOutput(`{"n":${k}}`, schema),
      (k) => guard.checkOutput({ content: `{"n":${k}}`, finishReason: "stop" }, validator),
    ];
    // One check with little stack left, then, at full depth, the innocent
    // checks: the first call after a stack ran out must be answered normally.
    const checkAt = (k, run) => {
      try {
        run(k);
      } catch (error) {
        if (error instanceof RangeError || error.code === "internal") outOfStack += 1;
        else throw error;
      }
    };
    const exhaust = (depth, k, run) => {
      let deepest;
      try {
        deepest = exhaust(depth + 1, k, run);
      } catch {
        deepest = depth;
      }
      if (deepest - depth === k) checkAt(k, run);
      return deepest;
    };
    const traps = internals.trapCount();
    for (let k = 0; k < 1200; k += 61) {
      for (const run of RUNS) {
        exhaust(0, k, run);
        innocentChecksHold();
      }
    }
    assert.ok(outOfStack > 0, "some calls ran out of stack");
    assert.ok(internals.trapCount() > traps, "some ran out inside wasm, and the instance was replaced");
  });

  test("a RangeError escaping a call into wasm replaces the instance before the next call", () => {
    const validator = guard.compileSchema({ type: "object", required: ["a"] });
    const traps = internals.trapCount();
    const error = thrown(() => internals.callRaw(() => {
      throw new RangeError("Maximum call stack size exceeded");
    }));
    assert.equal(error.code, "internal");
    assert.equal(internals.trapCount(), traps + 1);
    assert.equal(guard.checkOutput("{}", validator).failure, "schema");
    innocentChecksHold();
  });
});

describe("the cache never hands out another schema's validator", () => {
  test("schemaHash is the SHA-256 of the schema's canonical text, whatever the key order", () => {
    const a = guard.compileSchema({ type: "object", required: ["a"], properties: { a: { enum: [1, 2] } } });
    const b = guard.compileSchema('{"properties":{"a":{"enum":[1,2]}},"required":["a"],"type":"object"}');
    const canonical = '{"properties":{"a":{"enum":[1,2]}},"required":["a"],"type":"object"}';
    assert.match(a.schemaHash, HEX64);
    assert.equal(a.schemaHash, createHash("sha256").update(canonical).digest("hex"));
    assert.equal(b.schemaHash, a.schemaHash);
  });

  test("3 KB enum schemas that differ in one member each accept only their own value", () => {
    const members = Array.from({ length: 300 }, (_, i) => `member-${i}`);
    const a = { enum: [...members, "only-in-a"] };
    const b = { enum: [...members, "only-in-b"] };
    assert.equal(guard.checkOutput('"only-in-a"', a, { requireObject: false }).ok, true);
    assert.equal(guard.checkOutput('"only-in-a"', b, { requireObject: false }).failure, "schema");
    assert.equal(guard.checkOutput('"only-in-b"', b, { requireObject: false }).ok, true);
    assert.notEqual(guard.compileSchema(a).schemaHash, guard.compileSchema(b).schemaHash);
  });
});

describe("a schema that is not a JSON value is refused, never read as {}", () => {
  const CASES = [
    ["an un-awaited Promise of a schema", () => Promise.resolve({ type: "object" }), /a Promise \(was the schema awaited\?\)/],
    ["a Map", () => new Map([["type", "object"]]), /a Map/],
    ["a Set", () => new Set(["object"]), /a Set/],
    ["a class instance", () => new (class Schema { constructor() { this.type = "object"; } })(), /an instance of Schema/],
    ["a Map nested in properties", () => ({ type: "object", properties: new Map() }), /a Map at \/properties/],
    ["a Date as a keyword value", () => ({ type: "string", const: new Date(0) }), /a Date at \/const/],
    ["a function", () => () => ({ type: "object" }), /a function/],
    ["a BigInt keyword", () => ({ maximum: 10n }), /a bigint at \/maximum/],
    ["NaN", () => ({ maximum: NaN }), /the number NaN at \/maximum/],
  ];
  for (const [label, make, pattern] of CASES) {
    test(`${label}: a SchemaError from compileSchema, degraded under "degrade", a SchemaError under "throw"`, async () => {
      throwsTyped(() => guard.compileSchema(make()), guard.SchemaError, "invalid_schema", pattern);
      const verdict = guard.checkOutput('{"a":1}', make());
      assert.equal(verdict.degraded, true, "never a silent accept-all");
      throwsTyped(() => guard.checkOutput('{"a":1}', make(), { onInvalidSchema: "throw" }), guard.SchemaError, "invalid_schema", pattern);
      let calls = 0;
      const callModel = async () => { calls += 1; return '{"a":1}'; };
      const error = await rejected(guard.guardedCall({ messages: [] }, callModel, { schema: make(), onInvalidSchema: "throw" }));
      assert.ok(error instanceof guard.SchemaError, `${error}`);
      assert.equal(calls, 0, "refused before any model call");
      // guardedCall degrades by default, as checkOutput does, and says so.
      const result = await guard.guardedCall({ messages: [] }, callModel, { schema: make() });
      assert.equal(result.degraded, true, "never a silent accept-all");
    });
  }

  test("plain objects of any prototype-less kind and of another realm are JSON", async () => {
    const bare = Object.assign(Object.create(null), { type: "object", required: ["a"] });
    assert.equal(guard.checkOutput("{}", bare).failure, "schema");
    const { runInNewContext } = await import("node:vm");
    const foreign = runInNewContext('({ type: "object", required: ["a"] })');
    assert.equal(guard.checkOutput("{}", foreign).failure, "schema");
  });

  test("a Validator given to compileSchema is that Validator, not an object of unknown keywords", () => {
    const validator = guard.compileSchema({ type: "object", required: ["a"] });
    assert.equal(guard.compileSchema(validator), validator);
    assert.equal(guard.compileSchema(validator, { rejectUnknownFields: true }).isValid({ a: 1 }), true);
    assert.equal(guard.compileSchema(validator, { rejectUnknownFields: true }).isValid({}), false);
  });
});

describe("hostile arguments get typed answers", () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const validator = guard.compileSchema({ type: "object" });
  const CALLS = [
    ["detectTruncation", () => guard.detectTruncation(revoked())],
    ["rescueJson", () => guard.rescueJson(revoked())],
    ["compileSchema's schema", () => guard.compileSchema(revoked())],
    ["compileSchema's options", () => guard.compileSchema({}, revoked())],
    ["checkOutput's output", () => guard.checkOutput(revoked(), {})],
    ["checkOutput's options", () => guard.checkOutput("{}", {}, revoked())],
    ["checkOutput's options, degrading", () => guard.checkOutput("{}", revoked(), revoked())],
    ["checkOutput's options with a Validator", () => guard.checkOutput("{}", validator, revoked())],
    ["normalizeUsage", () => guard.normalizeUsage(revoked())],
    ["mergeUsage", () => guard.mergeUsage(revoked(), {})],
    ["Validator.validate's instance", () => validator.validate(revoked())],
    ["Validator.validate's options", () => validator.validate({}, revoked())],
    ["Validator.isValid", () => validator.isValid(revoked())],
    ["repairFeedback's verdict", () => guard.repairFeedback(revoked(), {})],
    ["repairFeedback's schema", () => guard.repairFeedback({ ok: false, failure: "schema", errors: [], moreErrors: false }, revoked())],
    ["toProviderSchema", () => guard.toProviderSchema(revoked(), "openai")],
    ["setSchemaCacheCapacity", () => guard.setSchemaCacheCapacity(revoked())],
    ["appendOpenAIChatFeedback", () => guard.appendOpenAIChatFeedback(revoked(), "x")],
    ["appendOpenAIResponsesFeedback", () => guard.appendOpenAIResponsesFeedback(revoked(), "x")],
    ["appendAnthropicFeedback", () => guard.appendAnthropicFeedback(revoked(), "x")],
    ["appendGeminiFeedback", () => guard.appendGeminiFeedback(revoked(), "x")],
    ["a getter that throws in options", () => guard.checkOutput("{}", {}, { get maxErrors() { throw new Error("no"); } })],
  ];
  for (const [label, call] of CALLS) {
    test(`a revoked Proxy as ${label}: a verdict or an error with a code`, () => {
      let outcome;
      try {
        outcome = call();
      } catch (error) {
        assert.ok(error instanceof Error, `${label}: threw ${error}`);
        assert.equal(typeof error.code, "string", `${label}: ${error.name}: ${error.message}`);
        assert.doesNotMatch(error.message, /proxy/i, "the engine's message is not passed on");
        return;
      }
      assert.ok(outcome === undefined || typeof outcome === "object", label);
    });
  }

  test("guardedCall with revoked options, request or schema: a typed error before any call", async () => {
    let calls = 0;
    const callModel = async () => {
      calls += 1;
      return '{"a":1}';
    };
    for (const args of [[{}, callModel, revoked()], [{}, callModel, { schema: revoked(), onInvalidSchema: "throw" }], [revoked(), callModel, { schema: {}, retry: "repair" }]]) {
      const error = await rejected(guard.guardedCall(...args));
      assert.equal(typeof error.code, "string", `${error}`);
    }
    assert.equal(calls, 0);
    // A schema that cannot be read degrades by default, as checkOutput's does.
    assert.equal((await guard.guardedCall({}, callModel, { schema: revoked() })).degraded, true);
  });
});

describe("a callback that throws after a paid attempt loses no usage", () => {
  const cut = { content: '{"a":', finishReason: "length", usage: { prompt_tokens: 100, completion_tokens: 50 } };
  const good = { content: '{"a":1}', finishReason: "stop", usage: { prompt_tokens: 110, completion_tokens: 20 } };
  const script = (...responses) => {
    let i = 0;
    return async () => responses[i++];
  };
  const CASES = [
    ["onAttempt on the first attempt", { onAttempt: () => { throw new Error("log sink down"); } }, [cut, good], 1, 150],
    ["onAttempt on the second", { onAttempt: ({ attempt }) => { if (attempt === 2) throw new Error("log sink down"); } }, [cut, good], 2, 280],
    ["read", { read: () => { throw new Error("bad reader"); } }, [cut], 1, 150],
    ["usage", { usage: () => { throw new Error("bad usage reader"); } }, [cut], 1, 150],
    ["appendFeedback", { retry: "repair", appendFeedback: () => { throw new Error("bad appender"); } }, [cut, good], 1, 150],
    ["appendFeedback returning undefined", { retry: "repair", appendFeedback: () => undefined }, [cut, good], 1, 150],
  ];
  for (const [label, extra, responses, attempts, total] of CASES) {
    test(`${label}: the error carries every attempt's usage, and the stats count them`, async () => {
      const stats = guard.createGuardStats();
      const error = await rejected(guard.guardedCall({ messages: [] }, script(...responses), { schema: { type: "object" }, stats, ...extra }));
      assert.equal(error.code, "callback_failed", `${error}`);
      assert.equal(error.attempts, attempts);
      assert.equal(error.usage.tokens.total, total);
      assert.ok(error.cause instanceof Error);
      const snapshot = stats.snapshot();
      assert.equal(snapshot.calls, 1);
      assert.equal(snapshot.attempts, attempts);
      assert.equal(snapshot.tokens.total, total);
    });
  }
});

describe("one budget for all of a check's pattern work", { timeout: 60000 }, () => {
  // Each string costs just under the per-match limit (the first alternative
  // splits the 18 a's every way before the second decides), so only a
  // budget that every match of a check shares bounds many of them.
  const COSTLY = "^(?:(a*)*\\1c|a+!)$";
  const costly = "a".repeat(18) + "!";
  // 19 characters each, all different, none matching the pattern.
  const costlyKeys = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => ["a".repeat(18) + String.fromCharCode(0x100 + i), i]));
  const long = (n) => JSON.stringify({ s: "a".repeat(n) });
  const onS = (pattern) => ({ type: "object", properties: { s: { type: "string", pattern } } });
  const RAN_OUT = /could not be matched against its pattern: the check's budget for pattern matching ran out, so it is rejected/;
  // A check spends well under a second on patterns on an idle machine; the
  // bound leaves room for a loaded one and for Bun.
  const BOUND_MS = 10000;

  function timed(run) {
    const started = performance.now();
    const result = run();
    return [result, performance.now() - started];
  }

  function ranOut(verdict, failure = "schema") {
    assert.equal(verdict.ok, false);
    assert.equal(verdict.failure, failure);
    assert.match(failure === "rule" ? verdict.errors[0].rule : verdict.errors[0].message, failure === "rule" ? /^names$/ : RAN_OUT);
    if (failure === "schema") assert.equal(verdict.errors[0].code, "pattern");
  }

  // [label, schema, hostile output, an output of the same shape that
  // passes, options]. The passing output still goes through the engine
  // that spends steps, so a check that inherited a spent budget would fail.
  const CASES = [
    [
      "10,000 array items",
      { type: "object", properties: { xs: { type: "array", items: { type: "string", pattern: COSTLY } } } },
      JSON.stringify({ xs: Array(10000).fill(costly) }),
      JSON.stringify({ xs: ["aaa!"] }),
    ],
    [
      "200 keys under patternProperties",
      { type: "object", patternProperties: { [COSTLY]: { type: "integer" } } },
      JSON.stringify(costlyKeys(200)),
      JSON.stringify({ "aaa!": 1 }),
    ],
    ["200 keys under propertyNames", { type: "object", propertyNames: { pattern: COSTLY } }, JSON.stringify(costlyKeys(200)), JSON.stringify({ "aaa!": 1 })],
    [
      "200 keys under a business rule",
      { type: "object" },
      JSON.stringify(costlyKeys(200)),
      JSON.stringify({ "aaa!": 1 }),
      { rules: [{ name: "names", then: { patternProperties: { [COSTLY]: { type: "integer" } } }, message: "Each name maps to a count." }] },
    ],
    ["(a+)\\1b on 16,000 characters", onS("(a+)\\1b"), long(16000), JSON.stringify({ s: "xaab" })],
    ["(?<=(a+)+)b on 50,000 characters", onS("(?<=(a+)+)b"), long(50000), JSON.stringify({ s: "xaab" })],
    ["(?!a*!)x on 50,000 characters", onS("(?!a*!)x"), long(50000), JSON.stringify({ s: "aax" })],
  ];

  for (const [label, schema, hostile, innocent, options = {}] of CASES) {
    test(`${label}: refused within one budget, and the next check gives its normal verdict`, () => {
      const [verdict, ms] = timed(() => guard.checkOutput(hostile, schema, options));
      ranOut(verdict, options.rules ? "rule" : "schema");
      assert.ok(ms < BOUND_MS, `${label} took ${ms.toFixed(0)} ms`);
      const next = guard.checkOutput(innocent, schema, options);
      assert.equal(next.ok, true, `${label}: ${next.message}`);
    });
  }

  test("steps are counted, not timed: the same check gives the same verdict", () => {
    const schema = { type: "object", patternProperties: { [COSTLY]: { type: "integer" } }, properties: { n: { type: "integer" } } };
    const output = JSON.stringify({ ...costlyKeys(3), n: "x" });
    const first = guard.checkOutput(output, schema);
    ranOut(first);
    assert.deepEqual(guard.checkOutput(output, schema), first);
  });

  test("the tool calls of one response share one budget, and the next check has a whole one", () => {
    const tool = (name, parameters) => ({ type: "function", function: { name, parameters } });
    const tools = [tool("tag", { type: "object", properties: { s: { type: "string", pattern: COSTLY } } })];
    const response = (calls) => ({
      choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: calls.map((args, i) => ({ id: `call_${i}`, type: "function", function: { name: "tag", arguments: args } })) } }],
    });
    const hostile = response(Array(200).fill(JSON.stringify({ s: costly })));
    const [verdict, ms] = timed(() => guard.checkToolCalls(hostile, tools));
    assert.equal(verdict.ok, false);
    assert.ok(ms < BOUND_MS, `200 tool calls took ${ms.toFixed(0)} ms`);
    assert.equal(verdict.calls[0].ok, true, "the first call fits in the budget");
    assert.match(verdict.calls.at(-1).errors[0].message, RAN_OUT);
    // A check made of calls that throws part way still ends its budget.
    const broken = [...tools, tool("broken", { type: "object", properties: { s: { type: "string", pattern: "(" } } })];
    const throwing = response([JSON.stringify({ s: costly }), JSON.stringify({ s: costly }), "{}"]);
    throwing.choices[0].message.tool_calls[2].function.name = "broken";
    assert.throws(() => guard.checkToolCalls(throwing, broken, { onInvalidSchema: "throw" }), guard.SchemaError);
    assert.equal(guard.checkToolCalls(response([JSON.stringify({ s: costly })]), tools).ok, true);
    assert.equal(guard.checkOutput(JSON.stringify({ s: costly }), tools[0].function.parameters).ok, true);
  });

  test("isValid and validate of a Validator are checks with a budget each", () => {
    const validator = guard.compileSchema({ type: "array", items: { type: "string", pattern: COSTLY } });
    const hostile = Array(10000).fill(costly);
    const [valid, ms] = timed(() => validator.isValid(hostile));
    assert.equal(valid, false);
    assert.ok(ms < BOUND_MS, `isValid took ${ms.toFixed(0)} ms`);
    // A fresh budget, and all of it: one costly match spends half.
    assert.equal(validator.isValid([costly]), true);
    const [result, validateMs] = timed(() => validator.validate(hostile));
    assert.equal(result.valid, false);
    assert.match(result.errors[0].message, RAN_OUT);
    assert.ok(validateMs < BOUND_MS, `validate took ${validateMs.toFixed(0)} ms`);
    assert.deepEqual(validator.validate([costly]), { valid: true, errors: [], moreErrors: false });
  });
});

/** The fastest of `runs` calls of `fn`, in milliseconds, and its last result. */
function fastest(fn, runs = 3) {
  let best = Infinity;
  let result;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = fn();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, result };
}

/** Checks `made.text` against `made.schema`, timing the check and isValid on the same response. */
function measure(made, runs = 3) {
  const validator = guard.compileSchema(made.schema);
  const value = JSON.parse(made.text);
  const isValid = fastest(() => validator.isValid(value), runs);
  assert.equal(isValid.result, false);
  const memoryBefore = guard.wasmMemoryBytes();
  const check = fastest(() => guard.checkOutput(made.text, validator), runs);
  return { isValidMs: isValid.ms, checkMs: check.ms, verdict: check.result, grew: guard.wasmMemoryBytes() - memoryBefore };
}

function boundedIssues(verdict) {
  assert.equal(verdict.failure, "schema");
  assert.ok(verdict.errors.length >= 1 && verdict.errors.length <= 5);
  for (const issue of verdict.errors) assert.ok(issue.message.length <= 1000, `a ${issue.message.length}-character message`);
  assert.ok(JSON.stringify(verdict).length < 20000, `a ${JSON.stringify(verdict).length}-byte verdict`);
}

// Each took seconds to minutes, or never finished, before collection was
// bounded; the bounds are about 10x what they take now on a loaded machine.
describe("collecting the issues of a hostile response costs little", { timeout: 60000 }, () => {
  test("8,000 property names that break propertyNames", () => {
    const { checkMs, verdict, grew } = measure(badPropertyNames(8000), 1);
    boundedIssues(verdict);
    assert.equal(verdict.errors[0].code, "propertyNames");
    assert.ok(verdict.moreErrors);
    assert.ok(checkMs < 2000, `${checkMs} ms`);
    assert.ok(grew < 16 << 20, `wasm memory grew by ${grew} bytes`);
    innocentChecksHold();
  });

  test("an anyOf and a oneOf of two $refs to the next, 16 levels deep", () => {
    for (const applicator of ["anyOf", "oneOf"]) {
      const { isValidMs, checkMs, verdict } = measure(sharedReferenceTree(applicator, 16), 1);
      boundedIssues(verdict);
      assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/x", applicator]]);
      assert.match(verdict.errors[0].message, /^The value at \/x must match (at least|exactly) one alternative/);
      assert.ok(checkMs < 2000 + 10 * isValidMs, `${applicator}: ${checkMs} ms, isValid ${isValidMs} ms`);
    }
    innocentChecksHold();
  });

  test("an allOf of two $refs to the next, 22 and 40 levels deep", () => {
    for (const levels of [22, 40]) {
      const { checkMs, verdict } = measure(sharedReferenceTree("allOf", levels), 1);
      boundedIssues(verdict);
      assert.deepEqual(verdict.errors.map((e) => [e.path, e.schemaPath, e.message]), [["/x", `/$defs/d${levels}/type`, "The value at /x must be a string."]]);
      assert.equal(verdict.moreErrors, false);
      assert.ok(checkMs < 1000, `${levels} levels: ${checkMs} ms`);
    }
    innocentChecksHold();
  });

  test("40 levels of anyOf, oneOf or allOf over two $refs: rejected once the check's references run out, never accepted undecided", () => {
    // 2^40 paths: before the reference budget, isValid alone never finished.
    const ranOut = (verdict) => {
      assert.equal(verdict.ok, false);
      assert.equal(verdict.failure, "schema");
      assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["", "$ref"]]);
      assert.match(verdict.errors[0].message, /references would be followed more than 10000000 times for this response \(the check's budget\)/);
    };
    const cases = [
      sharedReferenceTree("anyOf", 40),
      sharedReferenceTree("oneOf", 40),
      // A valid value walks every path of an allOf tree.
      sharedReferenceTree("allOf", 40, { type: "object" }),
    ];
    // `not` over a walk the budget cut short would read "not false": valid.
    const negated = sharedReferenceTree("anyOf", 40);
    negated.schema.properties.x = { not: { $ref: "#/$defs/d0" } };
    cases.push(negated);
    for (const made of cases) {
      const validator = guard.compileSchema(made.schema);
      const { ms, result } = fastest(() => guard.checkOutput(made.text, validator), 1);
      ranOut(result);
      assert.ok(ms < 20000, `${ms} ms`);
      assert.equal(validator.isValid(JSON.parse(made.text)), false);
      innocentChecksHold();
    }
  });

  test("30,000 required names against 30,000 other members", () => {
    const { checkMs, verdict } = measure(manyRequired(30000), 1);
    boundedIssues(verdict);
    assert.deepEqual(verdict.errors.map((e) => e.message), [0, 1, 2, 3, 4].map((i) => `The response is missing the required property "r${i}".`));
    assert.ok(verdict.moreErrors);
    assert.ok(checkMs < 2000, `${checkMs} ms`);
    innocentChecksHold();
  });

  test("over hostile schemas, a check costs a small multiple of isValid, and the next normal check is normal", () => {
    const slow = [];
    for (const made of hostileSet()) {
      const { isValidMs, checkMs, verdict } = measure(made, 2);
      boundedIssues(verdict);
      // Beyond isValid, which may stop at the first of many failing members:
      // reading the text and visiting every failing member once (linear in
      // the response), then writing at most 5 issues. Before collection was
      // bounded, these took seconds to minutes, or never finished.
      const beyond = checkMs - isValidMs;
      const allowed = 10 * isValidMs + 0.01 * made.text.length + 100;
      if (beyond > allowed) slow.push(`${made.label}: check ${checkMs.toFixed(1)} ms, isValid ${isValidMs.toFixed(1)} ms, allowed ${allowed.toFixed(0)} ms beyond`);
      innocentChecksHold();
    }
    assert.deepEqual(slow, []);
  });
});

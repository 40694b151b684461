// Hostile schemas: catastrophic patterns, $ref cycles and chains, missing and
// remote references, nesting past the limits. Each gets a verdict or a typed
// error, never a trap, and the calls after it give their normal verdicts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { thrown, openaiChat } from "../../support/fixtures.mjs";
import { LONG, nested, stillWorks, innocentChecksHold, throwsTyped, outcome, assertVerdict } from "../../support/robustness.mjs";

function stillAccepts() {
  const verdict = guard.checkOutput('{"a":"x"}', { type: "object", properties: { a: { type: "string" } } });
  assert.equal(verdict.ok, true);
}

function refChain(n) {
  const $defs = {};
  for (let i = 0; i < n; i++) $defs[`d${i}`] = i + 1 < n ? { $ref: `#/$defs/d${i + 1}` } : { type: "string", maxLength: 2 };
  return { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs };
}

describe("hostile input", { timeout: 20000 }, () => {
  test("a catastrophic pattern against 40 a's and a '!' fails cleanly", () => {
    const v = guard.compileSchema({ type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } });
    const result = v.validate({ s: `${"a".repeat(40)}!` });
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors.map((e) => [e.path, e.code]), [["/s", "pattern"]]);
    assert.equal(v.isValid({ s: "a".repeat(40) }), true);
    stillAccepts();
  });

  test("a lookbehind whose count no automaton of bounded size holds is a SchemaError at once, never a trap", () => {
    for (const pattern of ["(?<=\\d{1093852278}|\\P{L})a", "x(?<!a{300000000}|b)"]) {
      const started = performance.now();
      throwsTyped(() => guard.compileSchema({ type: "string", pattern }), guard.SchemaError, "invalid_schema", /pattern/);
      assert.ok(performance.now() - started < 5000, `${pattern}: ${performance.now() - started} ms`);
    }
    stillAccepts();
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
    stillAccepts();
  });

  test("a 1,000-level nested schema is a SchemaError that names the nesting", () => {
    const schema = nested(1000, { type: "string" }, (inner) => ({ type: "object", properties: { a: inner } }));
    throwsTyped(() => guard.compileSchema(schema), guard.SchemaError, "invalid_schema", /nests deeper than 127 levels/);
    const degraded = guard.checkOutput('{"a":1}', schema);
    assert.equal(degraded.ok, true);
    assert.equal(degraded.degraded, true);
    stillAccepts();
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
    stillAccepts();
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
    stillAccepts();
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
    stillAccepts();
  });
});

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

describe("$ref cycles, missing targets and remote references", () => {
  test("cycles compile and give verdicts on deep instances", LONG, () => {
    const deep = nested(100, { v: 1 }, (inner) => ({ a: inner, v: 1 }));
    for (const schema of [
      { $ref: "#" },
      { allOf: [{ $ref: "#" }] },
      { properties: { a: { $ref: "#" } } },
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" },
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/c" }, c: { $ref: "#/$defs/a" } }, properties: { a: { $ref: "#/$defs/a" } } },
      { $defs: { node: { type: "object", properties: { a: { $ref: "#/$defs/node" }, v: { type: "integer" } } } }, $ref: "#/$defs/node" },
      { $dynamicAnchor: "node", type: "object", properties: { a: { $dynamicRef: "#node" } } },
      { $schema: "https://json-schema.org/draft/2019-09/schema", $recursiveAnchor: true, properties: { a: { $recursiveRef: "#" } } },
      { definitions: { a: { $ref: "#/definitions/a" } }, $schema: "http://json-schema.org/draft-07/schema#", properties: { a: { $ref: "#/definitions/a" } } },
    ]) {
      const verdict = guard.checkOutput(JSON.stringify(deep), schema);
      assertVerdict(verdict, JSON.stringify(schema));
    }
    // A cycle that does constrain: every level must have an integer v.
    const tree = { type: "object", required: ["v"], properties: { v: { type: "integer" }, a: { $ref: "#" } } };
    const bad = nested(100, { v: "x" }, (inner) => ({ a: inner, v: 1 }));
    const verdict = guard.checkOutput(JSON.stringify(bad), tree);
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [[`${"/a".repeat(100)}/v`, "type"]]);
    stillWorks();
  });

  test("a $ref to a missing target is a SchemaError; checkOutput degrades", () => {
    for (const schema of [
      { $ref: "#/$defs/nope" },
      { properties: { a: { $ref: "#/definitions/nope" } } },
      { $ref: "#nope" },
      { $dynamicRef: "#nope" },
      { $ref: "#/properties/%ZZ" },
      { $ref: 5 },
    ]) {
      const { error } = outcome(() => guard.compileSchema(schema), JSON.stringify(schema));
      assert.ok(error instanceof guard.SchemaError, JSON.stringify(schema));
      const verdict = guard.checkOutput('{"a":1}', schema);
      assert.equal(verdict.degraded, true);
      assert.ok(outcome(() => guard.checkOutput('{"a":1}', schema, { onInvalidSchema: "throw" })).error instanceof guard.SchemaError);
    }
    stillWorks();
  });

  test("remote references are never fetched: a SchemaError, and the server sees no request", async () => {
    const requests = [];
    const server = http.createServer((request, response) => {
      requests.push(request.url);
      response.setHeader("content-type", "application/schema+json");
      response.end('{"type":"string"}');
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${server.address().port}`;
    try {
      const remote = [
        { $ref: `${base}/a.json` },
        { properties: { a: { $ref: `${base}/b.json#/definitions/x` } } },
        { $id: `${base}/root.json`, $ref: "other.json" },
        { $schema: `${base}/meta.json`, type: "object" },
        { $ref: "other.json" },
        { $ref: "file:///etc/passwd" },
        { $ref: "urn:uuid:00000000-0000-0000-0000-000000000000" },
      ];
      for (const schema of remote) {
        const { error } = outcome(() => guard.compileSchema(schema), JSON.stringify(schema));
        assert.ok(error instanceof guard.SchemaError, `${JSON.stringify(schema)} compiled`);
        assert.equal(guard.checkOutput('{"a":1}', schema).degraded, true);
        await assert.rejects(
          guard.guardedCall({ messages: [] }, async () => openaiChat('{"a":1}'), { schema, onInvalidSchema: "throw" }),
          (e) => e instanceof guard.SchemaError,
        );
        assert.equal((await guard.guardedCall({ messages: [] }, async () => openaiChat('{"a":1}'), { schema })).degraded, true);
      }
      // A reference the caller supplies through options.resources resolves without any fetch.
      const withResource = guard.compileSchema({ $ref: `${base}/a.json` }, { resources: { [`${base}/a.json`]: { type: "string" } } });
      assert.equal(withResource.isValid("x"), true);
      assert.equal(withResource.isValid(1), false);
      // Give any request that was started a chance to arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(requests, []);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    stillWorks();
  });
});

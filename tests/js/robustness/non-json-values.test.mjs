// JS values JSON cannot carry (BigInt, cycles, NaN, functions, symbols) and
// schemas that are not JSON values, in outputs, instances, schemas and
// options: judged as their JSON form, read around, or refused with a typed
// error; never read as {} and never a crash.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { rejected, thrown, CITY_SCHEMA, assertArgumentError, openaiChat } from "../../support/fixtures.mjs";
import { SMALL_SCHEMA, stillWorks, describeThrown, throwsTyped, outcome, assertVerdict, assertNoProblems } from "../../support/robustness.mjs";

class Invoice {
  constructor() {
    this.total = 12;
  }
  get currency() {
    return "EUR";
  }
}

function hostileValues() {
  const cyclic = { a: "x" };
  cyclic.self = cyclic;
  const cyclicArray = [1];
  cyclicArray.push(cyclicArray);
  return [
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
    ["-0", -0],
    ["a BigInt", 10n],
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
    ["undefined", undefined],
    ["a Date", new Date(0)],
    ["an invalid Date", new Date(NaN)],
    ["a Map", new Map([["a", 1]])],
    ["a Set", new Set([1])],
    ["a class instance", new Invoice()],
    ["a typed array", new Uint8Array([1, 2])],
    ["a RegExp", /a+/],
    ["an Error", new Error("e")],
    ["a boxed string", new String("s")],
    ["an object without prototype", Object.assign(Object.create(null), { a: "x" })],
    ["an array with holes", [1, , 3]], // eslint-disable-line no-sparse-arrays
    ["a getter that throws", { get a() { throw new Error("getter refused"); } }],
    ["a toJSON that throws", { toJSON() { throw new Error("toJSON refused"); } }],
    [
      "a Proxy that throws",
      new Proxy({}, {
        get() { throw new Error("proxy get refused"); },
        ownKeys() { throw new Error("proxy keys refused"); },
        getOwnPropertyDescriptor() { throw new Error("proxy descriptor refused"); },
        has() { throw new Error("proxy has refused"); },
      }),
    ],
    ["a cyclic object", cyclic],
    ["a cyclic array", cyclicArray],
  ];
}

function jsonView(value) {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? { fails: true } : { json: JSON.parse(text) };
  } catch {
    return { fails: true };
  }
}

const OSLO_TEXT = '{"city":"Oslo","population":709037}';

function assertStillWorks() {
  const ok = guard.checkOutput(OSLO_TEXT, CITY_SCHEMA);
  assert.equal(ok.ok, true);
  assert.deepEqual(ok.value, { city: "Oslo", population: 709037 });
  const bad = guard.checkOutput('{"city":"","population":1}', CITY_SCHEMA);
  assert.equal(bad.failure, "schema");
  assert.deepEqual(bad.errors.map((e) => [e.path, e.code]), [["/city", "minLength"]]);
  assert.deepEqual(guard.rescueJson("```json\n{}\n```"), { text: "{}", rescue: "code_fence" });
  assert.deepEqual(guard.detectTruncation("length"), { truncated: true, finishReason: "length" });
}

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

describe("JS values JSON cannot carry, inside outputs, instances, schemas and options", () => {
  const validator = guard.compileSchema({ type: "object", properties: { a: { type: "string" } } });

  test("as an instance: judged exactly as its JSON form, or a typed error", () => {
    const problems = [];
    // A value JSON holds as it is is judged; one JSON.stringify would
    // change (NaN to null, a Date to a string, a Map to {}) is a typed error.
    const json = new Set(["-0", "an object without prototype"]);
    for (const [name] of hostileValues()) {
      for (const wrap of [(v) => v, (v) => ({ a: v }), (v) => [v]]) {
        const value = wrap(hostileValues().find(([n]) => n === name)[1]);
        const view = jsonView(value);
        const result = outcome(() => validator.validate(value), `validate(${name})`, problems);
        if (result.error) {
          assert.ok(!json.has(name), `validate(${name}) is JSON, but threw ${result.error?.message}`);
          continue;
        }
        if (view.fails) {
          assert.ok(result.error, `validate(${name}) has no JSON form but returned ${JSON.stringify(result.value)}`);
        } else {
          assert.deepEqual(result.value, validator.validate(view.json), `validate(${name}) judges its JSON form`);
        }
        outcome(() => validator.isValid(wrap(hostileValues().find(([n]) => n === name)[1])), `isValid(${name})`, problems);
      }
      stillWorks();
    }
    assertNoProblems(problems);
  });

  test("as an output, a provider response member or content: a verdict or a typed error", () => {
    const problems = [];
    for (const [name] of hostileValues()) {
      const fresh = () => hostileValues().find(([n]) => n === name)[1];
      for (const [where, fn] of [
        ["output", () => guard.checkOutput(fresh(), SMALL_SCHEMA)],
        ["output, Validator", () => guard.checkOutput(fresh(), validator)],
        ["content", () => guard.checkOutput({ content: fresh(), finishReason: "stop" }, SMALL_SCHEMA)],
        ["response member", () => guard.checkOutput({ ...openaiChat('{"a":"x"}'), extra: fresh() }, SMALL_SCHEMA)],
        ["finishReason", () => guard.checkOutput({ content: '{"a":"x"}', finishReason: fresh() }, SMALL_SCHEMA)],
        ["detectTruncation", () => guard.detectTruncation(fresh())],
        ["detectTruncation member", () => guard.detectTruncation({ finish_reason: fresh() })],
        ["normalizeUsage", () => guard.normalizeUsage({ usage: { prompt_tokens: fresh() } })],
        ["mergeUsage", () => guard.mergeUsage({ tokens: { input: 1 } }, fresh())],
      ]) {
        const result = outcome(fn, `${where}: ${name}`, problems);
        const isCheck = where.startsWith("output") || where === "content" || where === "response member" || where === "finishReason";
        if (isCheck && result.value !== undefined) assertVerdict(result.value, `${where}: ${name}`);
      }
      stillWorks();
    }
    assertNoProblems(problems);
  });

  test("in a schema: compiled as its JSON form, degraded, or a SchemaError", () => {
    const problems = [];
    for (const [name] of hostileValues()) {
      const fresh = () => hostileValues().find(([n]) => n === name)[1];
      for (const [where, fn] of [
        ["schema", () => guard.compileSchema(fresh())],
        ["schema member", () => guard.compileSchema({ type: "object", properties: { a: fresh() } })],
        ["schema keyword value", () => guard.compileSchema({ type: "string", maxLength: fresh() })],
        ["response-format wrapper", () => guard.checkOutput('{"a":"x"}', { name: "w", schema: { properties: { a: fresh() } } })],
        ["toProviderSchema", () => guard.toProviderSchema({ type: "object", properties: { a: fresh() } }, "openai")],
      ]) {
        outcome(fn, `${where}: ${name}`, problems);
      }
      // checkOutput degrades instead of throwing, unless told to throw.
      const degraded = outcome(() => guard.checkOutput('{"a":"x"}', { properties: { a: fresh() } }), `checkOutput schema: ${name}`, problems);
      if (degraded.error) problems.push(`checkOutput with ${name} in the schema threw instead of degrading: ${describeThrown(degraded.error)}`);
      else assertVerdict(degraded.value, name);
      const thrown = outcome(() => guard.checkOutput('{"a":"x"}', { properties: { a: fresh() } }, { onInvalidSchema: "throw" }), name, problems);
      if (thrown.error && !(thrown.error instanceof guard.SchemaError)) problems.push(`onInvalidSchema "throw" with ${name}: ${describeThrown(thrown.error)}`);
      stillWorks();
    }
    assertNoProblems(problems);
  });

  test("in options and rules: honoured as their JSON form or a typed error", () => {
    const problems = [];
    for (const [name] of hostileValues()) {
      const fresh = () => hostileValues().find(([n]) => n === name)[1];
      for (const [where, fn] of [
        ["options", () => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, fresh())],
        ["options.maxErrors", () => guard.checkOutput('{"a":1}', SMALL_SCHEMA, { maxErrors: fresh() })],
        ["options.maxErrors on the Validator path", () => guard.checkOutput('{"a":1}', validator, { maxErrors: fresh() })],
        ["an unknown option", () => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, { extra: fresh() })],
        ["compile options", () => guard.compileSchema(SMALL_SCHEMA, { formats: fresh() })],
        ["customFormats", () => guard.compileSchema(SMALL_SCHEMA, { customFormats: { f: fresh() } })],
        ["resources", () => guard.compileSchema(SMALL_SCHEMA, { resources: { "https://x.example/a": fresh() } })],
        ["validate options", () => validator.validate({ a: 1 }, fresh())],
        ["a rule's then", () => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, { rules: [{ name: "r", then: fresh(), message: "m" }] })],
        ["a rule's message", () => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, { rules: [{ name: "r", then: true, message: fresh() }] })],
        ["repairFeedback's verdict", () => guard.repairFeedback(fresh(), SMALL_SCHEMA)],
        ["repairFeedback's errors", () => guard.repairFeedback({ ok: false, failure: "schema", errors: [fresh()], moreErrors: false }, SMALL_SCHEMA)],
      ]) {
        const result = outcome(fn, `${where}: ${name}`, problems);
        if (result.value !== undefined && where.startsWith("options")) assertVerdict(result.value, `${where}: ${name}`);
      }
      stillWorks();
    }
    assertNoProblems(problems);
  });

  test("maxErrors of NaN or ±Infinity is refused like any other number that is not a whole count; -0 is 0", () => {
    // JSON turns NaN and Infinity into null, which would silently mean "the
    // default of 5": a caller asking for Infinity would get five.
    const MANY = { type: "object", properties: Object.fromEntries(["a", "b", "c"].map((k) => [k, { type: "string" }])) };
    const validator = guard.compileSchema(MANY);
    const accepted = [];
    for (const maxErrors of [NaN, Infinity, -Infinity]) {
      for (const [where, fn] of [
        ["checkOutput", () => guard.checkOutput('{"a":1,"b":1,"c":1}', MANY, { maxErrors })],
        ["checkOutput with a Validator", () => guard.checkOutput('{"a":1,"b":1,"c":1}', validator, { maxErrors })],
        ["validate", () => validator.validate({ a: 1, b: 1, c: 1 }, { maxErrors })],
      ]) {
        const { value, error } = outcome(fn, `${where}, maxErrors ${maxErrors}`);
        if (error) assert.match(error.message, /maxErrors/);
        else accepted.push(`${where} took maxErrors: ${maxErrors} and listed ${value.errors.length} issues`);
      }
    }
    const zero = guard.checkOutput('{"a":1,"b":1,"c":1}', MANY, { maxErrors: -0 });
    assert.equal(zero.failure, "schema");
    assert.equal(zero.errors.length, 0);
    assert.equal(zero.moreErrors, true);
    assert.deepEqual(accepted, [], accepted.join("\n"));
    stillWorks();
  });
});

describe("values JSON cannot carry are TypeErrors, not crashes", () => {
  test("a BigInt inside an instance", () => {
    const validator = guard.compileSchema(CITY_SCHEMA);
    const instance = { city: "Oslo", population: 709037n };
    assertArgumentError(thrown(() => validator.validate(instance)), /^the instance cannot be serialised to JSON: /);
    assertArgumentError(thrown(() => validator.isValid(instance)), /^the instance cannot be serialised to JSON: /);
    assert.equal(validator.isValid({ city: "Oslo", population: 709037 }), true);
    assertStillWorks();
  });

  test("a BigInt or a cycle inside a response, a truncation source or merged usages is read around", () => {
    // SDK response objects may hold a BigInt timestamp or a reference back
    // to their request: the content and usage are still read.
    const verdict = guard.checkOutput({ content: OSLO_TEXT, finishReason: "stop", seed: 42n }, CITY_SCHEMA);
    assert.equal(verdict.ok, true, verdict.message);
    const cyclic = { content: OSLO_TEXT, finishReason: "length" };
    cyclic.request = { response: cyclic };
    assert.equal(guard.checkOutput(cyclic, CITY_SCHEMA).failure, "truncated");
    assert.equal(guard.normalizeUsage({ prompt_tokens: 5n, completion_tokens: 2 }).tokens.input, 5);
    assert.equal(guard.normalizeUsage({ prompt_tokens: 2n ** 60n }).tokens?.input, undefined, "a count past 2^53 is not a number");
    assert.equal(guard.mergeUsage({ tokens: { input: 1 } }, { tokens: { input: 2n } }).tokens.input, 3);
    const cyclicUsage = { prompt_tokens: 4 };
    cyclicUsage.self = cyclicUsage;
    assert.equal(guard.mergeUsage(cyclicUsage, { prompt_tokens: 1 }).tokens.input, 5);
    // Only the members the finish reason can be in are read.
    assert.deepEqual(guard.detectTruncation({ finish_reason: "length", created: 1n }), { truncated: true, finishReason: "length" });
    assertStillWorks();
  });

  test("a BigInt inside a schema is a SchemaError", () => {
    const error = thrown(() => guard.compileSchema({ type: "integer", maximum: 10n }));
    assert.ok(error instanceof guard.SchemaError);
    assert.equal(error.code, "invalid_schema");
    assert.match(error.message, /^the schema must be a JSON value .*, not a bigint at \/maximum$/);
    assertStillWorks();
  });

  test("a cyclic instance", () => {
    const cyclic = { city: "Oslo" };
    cyclic.self = cyclic;
    assertArgumentError(thrown(() => guard.compileSchema(CITY_SCHEMA).validate(cyclic)), /^the instance cannot be serialised to JSON: /);
    assertStillWorks();
  });

  test("an instance nested far deeper than the JS stack", () => {
    const deep = {};
    let cursor = deep;
    for (let i = 0; i < 200000; i++) cursor = cursor.a = {};
    assertArgumentError(thrown(() => guard.compileSchema(CITY_SCHEMA).validate(deep)), /^the instance cannot be serialised to JSON: /);
    assertStillWorks();
  });

  test("hostile nesting in output text is unparseable, not a trap", () => {
    const text = "[".repeat(100000) + "]".repeat(100000);
    const verdict = guard.checkOutput(text, CITY_SCHEMA);
    assert.equal(verdict.ok, false);
    assert.equal(verdict.failure, "unparseable");
    assertStillWorks();
  });

  test("very long output text is handled", () => {
    const long = JSON.stringify({ city: "x".repeat(2_000_000), population: 1 });
    const verdict = guard.checkOutput(long, CITY_SCHEMA);
    assert.equal(verdict.ok, true);
    assert.equal(verdict.value.city.length, 2_000_000);
    assertStillWorks();
  });
});

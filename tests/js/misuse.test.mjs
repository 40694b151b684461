// Misuse throws typed errors, and the module keeps working afterwards.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, assertArgumentError, thrown } from "../../support/fixtures.mjs";

const OSLO_TEXT = '{"city":"Oslo","population":709037}';

/** After any error the module must still answer correctly. */
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

describe("wrong option types are TypeErrors with code invalid_argument", () => {
  const cases = [
    ['checkOutput {formats: "nope"}', () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { formats: "nope" }), ["options.formats", '"nope"']],
    ["checkOutput {maxErrors: -1}", () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { maxErrors: -1 }), ["options.maxErrors", "-1"]],
    ["checkOutput {maxErrors: 1.5}", () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { maxErrors: 1.5 }), ["options.maxErrors", "1.5"]],
    ['checkOutput {maxErrors: "3"}', () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { maxErrors: "3" }), ["options.maxErrors", '"3"']],
    ['checkOutput {requireObject: "yes"}', () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { requireObject: "yes" }), ["options.requireObject", "boolean"]],
    ['checkOutput {onInvalidSchema: "explode"}', () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { onInvalidSchema: "explode" }), ["options.onInvalidSchema", '"explode"']],
    ['checkOutput {draft: "3"}', () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { draft: "3" }), ["options.draft", '"3"']],
    ["checkOutput {rejectUnknownFields: 1}", () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { rejectUnknownFields: 1 }), ["options.rejectUnknownFields", "boolean"]],
    ["checkOutput options as an array", () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, [1]), ["options must be an object", "array"]],
    ["checkOutput options as a string", () => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, "strict"), ["options must be an object", "string"]],
    ['compileSchema {formats: "nope"}', () => guard.compileSchema(CITY_SCHEMA, { formats: "nope" }), ["options.formats", '"nope"']],
    ["compileSchema {draft: 2020}", () => guard.compileSchema(CITY_SCHEMA, { draft: 2020 }), ["options.draft", "2020"]],
    ["validate {maxErrors: -1}", () => guard.compileSchema(CITY_SCHEMA).validate({}, { maxErrors: -1 }), ["options.maxErrors", "-1"]],
    ["setSchemaCacheCapacity(0)", () => guard.setSchemaCacheCapacity(0), ["capacity"]],
  ];
  for (const [name, fn, message] of cases) {
    test(name, () => {
      const error = thrown(fn);
      assertArgumentError(error);
      for (const part of message) assert.ok(error.message.includes(part), `${JSON.stringify(part)} in ${error.message}`);
      assertStillWorks();
    });
  }
});

describe("wrong argument types are TypeErrors with code invalid_argument", () => {
  test("rescueJson(42)", () => {
    const error = thrown(() => guard.rescueJson(42));
    assertArgumentError(error);
    assert.match(error.message, /rescueJson takes a string, not number/);
    assertStillWorks();
  });

  test("rescueJson() and rescueJson({})", () => {
    assertArgumentError(thrown(() => guard.rescueJson()), /not undefined$/);
    assertArgumentError(thrown(() => guard.rescueJson({ text: "{}" })), /not object$/);
    assertStillWorks();
  });

  test("checkOutput with a number or boolean as output", () => {
    assertArgumentError(thrown(() => guard.checkOutput(42, CITY_SCHEMA)), /^output must be a string or an object, not number$/);
    assertArgumentError(thrown(() => guard.checkOutput(true, CITY_SCHEMA)), /^output must be a string or an object, not boolean$/);
    assertStillWorks();
  });

  test("validate(undefined) and isValid(function)", () => {
    const validator = guard.compileSchema(CITY_SCHEMA);
    assertArgumentError(thrown(() => validator.validate(undefined)), /^the instance must be a JSON value, not undefined$/);
    assertArgumentError(thrown(() => validator.isValid(() => 1)), /^the instance must be a JSON value, not function$/);
    assert.equal(validator.isValid({ city: "Oslo", population: 1 }), true);
    assertStillWorks();
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

describe("typed errors survive a long run of misuse", () => {
  test("a hundred alternating errors and checks", () => {
    for (let i = 0; i < 100; i++) {
      assertArgumentError(thrown(() => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { maxErrors: -1 - i })));
      assert.ok(thrown(() => guard.compileSchema({ type: `bogus${i}` })) instanceof guard.SchemaError);
      assert.equal(guard.checkOutput(OSLO_TEXT, CITY_SCHEMA).ok, true);
    }
  });
});

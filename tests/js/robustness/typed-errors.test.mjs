// Misuse through the public API (wrong option and argument types, revoked
// Proxies, wrong receivers, every export given every wrong kind of argument)
// gets a TypeError with code "invalid_argument" or a defined result, and
// the module keeps working afterwards.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { rejected, openaiChat, thrown, CITY_SCHEMA, assertArgumentError } from "../../support/fixtures.mjs";
import { SMALL_SCHEMA, stillWorks, isTyped, describeThrown, assertTyped, outcome, assertNoProblems } from "../../support/robustness.mjs";

async function settledOutcome(fn, context, problems) {
  let result;
  try {
    result = fn();
  } catch (error) {
    if (problems && !isTyped(error)) problems.push(`${context}: threw ${describeThrown(error)}`);
    else assertTyped(error, context);
    return { error };
  }
  if (result === null || (typeof result !== "object" && typeof result !== "function") || typeof result.then !== "function") {
    return { value: result };
  }
  try {
    return { value: await result };
  } catch (error) {
    if (problems && !isTyped(error)) problems.push(`${context}: rejected with ${describeThrown(error)}`);
    else assertTyped(error, context);
    return { error };
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

describe("every export called with wrong argument types", () => {
  const WRONG = () => [
    ["nothing", []],
    ["null", [null]],
    ["a number", [42]],
    ["a string", ["not what was expected"]],
    ["an array", [[1, "two"]]],
    ["a symbol", [Symbol("s")]],
    ["a BigInt", [7n]],
    ["a function", [() => "f"]],
  ];
  // Right arguments for the positions before the wrong one, where an export
  // is known; any other export gets the wrong value in every position.
  const RIGHT = {
    checkOutput: ['{"a":"x"}', SMALL_SCHEMA],
    compileSchema: [SMALL_SCHEMA],
    guardedCall: [{ messages: [] }, async () => openaiChat('{"a":"x"}')],
    repairFeedback: [{ ok: false, failure: "schema", errors: [{ path: "/a", schemaPath: "/properties/a/type", code: "type", message: "m." }], moreErrors: false }],
    toProviderSchema: [SMALL_SCHEMA],
    appendOpenAIChatFeedback: [{ messages: [] }],
    appendOpenAIResponsesFeedback: [{ input: [] }],
    appendAnthropicFeedback: [{ messages: [] }],
    appendGeminiFeedback: [{ contents: [] }],
  };
  const CLASSES = new Set(["Validator", "SchemaError", "StructuredOutputError"]);

  test("the package exports what the tests below cover", () => {
    const keys = Object.keys(guard);
    assert.ok(keys.length >= 20, keys.join(", "));
    for (const name of keys) assert.equal(typeof guard[name], "function", `${name} is a function or a class`);
  });

  for (const name of Object.keys(guard).filter((n) => !CLASSES.has(n))) {
    test(`${name}: a defined result or a typed error for every wrong argument`, async () => {
      const problems = [];
      for (const [kind, [wrong]] of WRONG()) {
        const lists = kind === "nothing" ? [[]] : [[wrong], [wrong, wrong], [wrong, wrong, wrong]];
        const right = RIGHT[name] ?? [];
        for (let i = 1; i <= right.length; i++) lists.push([...right.slice(0, i), ...(kind === "nothing" ? [] : [wrong])]);
        for (const args of lists) {
          await settledOutcome(() => guard[name](...args), `${name}(${args.map((a) => (typeof a === "symbol" ? "symbol" : typeof a === "bigint" ? "bigint" : typeof a === "function" ? "function" : JSON.stringify(a)?.slice(0, 40))).join(", ")}) with ${kind}`, problems);
        }
      }
      // A number is a valid capacity: put the default back for the tests that follow.
      guard.setSchemaCacheCapacity(128);
      stillWorks();
      assertNoProblems(problems);
    });
  }

  test("Validator methods on wrong receivers and with wrong arguments", () => {
    const validator = guard.compileSchema(SMALL_SCHEMA);
    for (const [kind, [wrong]] of WRONG()) {
      for (const method of ["validate", "isValid"]) {
        outcome(() => validator[method](wrong, wrong), `${method} with ${kind}`);
        outcome(() => guard.Validator.prototype[method].call(wrong ?? {}, { a: "x" }), `${method} on ${kind}`);
      }
      outcome(() => guard.Validator.prototype.free.call(typeof wrong === "object" && wrong !== null ? wrong : {}), `free on ${kind}`);
    }
    validator.free();
    validator.free();
    assert.ok(outcome(() => validator.validate({ a: "x" })).error, "a freed Validator refuses to validate");
    stillWorks();
  });

  test("the Validator constructor refuses to run with a typed error", () => {
    for (const [kind, args] of WRONG()) {
      const error = thrown(() => new guard.Validator(...args));
      assertTyped(error, `new Validator(${kind})`);
    }
  });

  test("the error classes construct from a message alone, and otherwise behave as Error does", () => {
    for (const ErrorClass of [guard.SchemaError, guard.StructuredOutputError]) {
      let plain;
      try {
        plain = new ErrorClass("something went wrong");
      } catch (error) {
        assert.fail(`new ${ErrorClass.name}("something went wrong") threw ${describeThrown(error)}`);
      }
      assert.ok(plain instanceof Error);
      assert.equal(plain.message, "something went wrong");
      assert.equal(plain.name, ErrorClass.name);
      for (const [kind, args] of WRONG()) {
        let nativeThrows = false;
        try {
          new Error(...args);
        } catch {
          nativeThrows = true;
        }
        let error;
        let made;
        try {
          made = new ErrorClass(...args);
        } catch (e) {
          error = e;
        }
        if (nativeThrows) assert.ok(error instanceof TypeError, `new ${ErrorClass.name}(${kind})`);
        else assert.ok(made instanceof ErrorClass, `new ${ErrorClass.name}(${kind}) threw ${error?.constructor?.name}: ${error?.message}`);
      }
    }
    stillWorks();
  });

  test("stats collectors tolerate wrong arguments to their methods", () => {
    const stats = guard.createGuardStats();
    for (const [, args] of WRONG()) {
      stats.snapshot(...args);
      stats.reset(...args);
    }
    assert.equal(stats.snapshot().calls, 0);
  });
});

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

describe("typed errors survive a long run of misuse", () => {
  test("a hundred alternating errors and checks", () => {
    for (let i = 0; i < 100; i++) {
      assertArgumentError(thrown(() => guard.checkOutput(OSLO_TEXT, CITY_SCHEMA, { maxErrors: -1 - i })));
      assert.ok(thrown(() => guard.compileSchema({ type: `bogus${i}` })) instanceof guard.SchemaError);
      assert.equal(guard.checkOutput(OSLO_TEXT, CITY_SCHEMA).ok, true);
    }
  });
});

// Nesting past the limit (127 containers) as output text, as a JS value and
// as a schema: unparseable, a typed error or a SchemaError, refused before it
// is serialised, on every path; never a trap or a stack overflow.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { openaiChat } from "../../support/fixtures.mjs";
import { LONG, SMALL_SCHEMA, nested, stillWorks, assertTyped, outcome, assertVerdict } from "../../support/robustness.mjs";

describe("100,000-deep nesting", () => {
  const DEPTH = 100_000;

  test("as output text: unparseable, on every path and in every wrapping", LONG, () => {
    const objects = '{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH);
    const mixed = '[{"a":'.repeat(DEPTH / 2) + "1" + "}]".repeat(DEPTH / 2);
    for (const text of [objects, mixed]) {
      for (const [name, verdict] of [
        ["schema object", guard.checkOutput(text, { type: "object" })],
        ["Validator", guard.checkOutput(text, guard.compileSchema({ type: "object" }))],
        ["no schema", guard.checkOutput(text)],
        ["code fence", guard.checkOutput("```json\n" + text + "\n```", { type: "object" })],
        ["provider response", guard.checkOutput(openaiChat(text), { type: "object" })],
        ["lenient options", guard.checkOutput(text, { type: "object" }, { requireObject: false, maxErrors: 100 })],
      ]) {
        assert.equal(verdict.ok, false, name);
        assert.equal(verdict.failure, "unparseable", name);
        assert.match(verdict.message, /nests deeper than 127 levels/, name);
      }
    }
    stillWorks();
  });

  test("as a JS value given as output or instance: a typed error", LONG, () => {
    const deepObject = nested(DEPTH, 1, (inner) => ({ a: inner }));
    const deepArray = nested(DEPTH, 1, (inner) => [inner]);
    const validator = guard.compileSchema({ type: "object" });
    // A response is read only where its answer, finish reason and usage
    // can be: a deep member anywhere else is never walked.
    const beside = guard.checkOutput({ ...openaiChat('{"a":"x"}'), metadata: deepArray }, SMALL_SCHEMA);
    assert.equal(beside.ok, true, beside.message);
    const noAnswer = guard.checkOutput(deepObject, { type: "object" });
    assert.equal(noAnswer.failure, "empty");
    assert.equal(guard.checkOutput({ content: deepObject }, { type: "object" }).failure, "empty");
    assert.deepEqual(guard.detectTruncation({ choices: [deepObject] }), { truncated: false, finishReason: null });
    // Usage is copied whole only to a fixed depth.
    assert.deepEqual(guard.normalizeUsage({ usage: { prompt_tokens: 3, extra: deepObject } }).tokens.input, 3);
    assert.equal(guard.mergeUsage({ tokens: { input: 1 } }, { tokens: deepObject }).tokens.input, 1);
    for (const [name, fn] of [
      ["validate(object)", () => validator.validate(deepObject)],
      ["isValid(array)", () => validator.isValid(deepArray)],
    ]) {
      const result = outcome(fn, name);
      assert.ok(result.error, `${name} returned ${JSON.stringify(result.value)?.slice(0, 200)}`);
    }
    // Deep, but not deeper than a JS stack: the core's own limit answers.
    const medium = nested(3000, 1, (inner) => ({ a: inner }));
    for (const [name, fn] of [
      ["validate(3,000 levels)", () => validator.validate(medium)],
      ["checkOutput(3,000 levels)", () => guard.checkOutput(medium, { type: "object" })],
      ["normalizeUsage(3,000 levels)", () => guard.normalizeUsage({ usage: medium })],
    ]) {
      const result = outcome(fn, name);
      if (result.value !== undefined && name.startsWith("checkOutput")) assertVerdict(result.value, name);
    }
    stillWorks();
  });

  test("as a schema object: SchemaError, or a degraded verdict when asked to degrade", LONG, () => {
    const deepSchema = nested(DEPTH, { type: "string" }, (inner) => ({ type: "object", properties: { a: inner } }));
    assertTyped(outcome(() => guard.compileSchema(deepSchema)).error, "compileSchema");
    assert.ok(outcome(() => guard.compileSchema(deepSchema)).error instanceof guard.SchemaError);
    const degraded = guard.checkOutput('{"a":1}', deepSchema);
    assert.equal(degraded.ok, true);
    assert.equal(degraded.degraded, true);
    assert.ok(outcome(() => guard.checkOutput('{"a":1}', deepSchema, { onInvalidSchema: "throw" })).error instanceof guard.SchemaError);
    assert.ok(outcome(() => guard.toProviderSchema(deepSchema, "openai")).error);
    assert.ok(outcome(() => guard.repairFeedback({ ok: false, failure: "schema", errors: [], moreErrors: false }, deepSchema)).error);
    assert.ok(outcome(() => guard.checkOutput("{}", { type: "object" }, { rules: [{ name: "deep", then: deepSchema, message: "m" }] })).error);
    stillWorks();
  });

  test("a schema object one level too deep is refused in the core's words, before it is serialised", LONG, () => {
    // The root is level 1: 127 levels of objects compile, 128 do not, as text and as an object.
    const levels = (n) => nested(n - 1, {}, (inner) => ({ not: inner }));
    const textOf = (n) => '{"not":'.repeat(n - 1) + "{}" + "}".repeat(n - 1);
    // (126 nots of {} accept everything.)
    assert.equal(guard.compileSchema(levels(127)).isValid(1), true);
    assert.equal(guard.compileSchema(textOf(127)).isValid(1), true);
    const inArray = (n) => ({ enum: nested(n - 2, [], (inner) => [inner]) });
    assert.equal(guard.compileSchema(inArray(127)).isValid(1), false);
    for (const [name, schema] of [
      ["128 levels of objects", levels(128)],
      ["128 levels through an array", inArray(128)],
      ["100,000 levels", nested(DEPTH, {}, (inner) => ({ not: inner }))],
    ]) {
      const started = performance.now();
      const { error } = outcome(() => guard.compileSchema(schema));
      const ms = performance.now() - started;
      assert.ok(error instanceof guard.SchemaError, `${name}: ${error}`);
      assert.equal(error.message, outcome(() => guard.compileSchema(textOf(128))).error.message, name);
      // JSON.stringify of 100,000 levels took Bun 1.4 s to give up.
      assert.ok(ms < 400, `${name}: refused after ${ms.toFixed(0)} ms`);
    }
    stillWorks();
  });

  test("as schema text: a SchemaError naming the nesting", LONG, () => {
    for (const text of [
      '{"properties":{"a":'.repeat(DEPTH) + "{}" + "}}".repeat(DEPTH),
      '{"allOf":['.repeat(DEPTH) + "true" + "]}".repeat(DEPTH),
      '{"not":'.repeat(DEPTH) + "false" + "}".repeat(DEPTH),
    ]) {
      const { error } = outcome(() => guard.compileSchema(text));
      assert.ok(error instanceof guard.SchemaError, String(error));
      assert.match(error.message, /nests deeper than 127 levels/);
      assert.equal(guard.checkOutput("{}", text).degraded, true);
      assert.ok(outcome(() => guard.toProviderSchema(text, "gemini")).error instanceof guard.SchemaError);
    }
    stillWorks();
  });

  test("a deep schema in guardedCall degrades, or under \"throw\" is refused before the model is called", LONG, async () => {
    let calls = 0;
    const text = '{"properties":{"a":'.repeat(DEPTH) + "{}" + "}}".repeat(DEPTH);
    await assert.rejects(
      guard.guardedCall({ messages: [] }, () => (calls++, openaiChat("{}")), { schema: text, onInvalidSchema: "throw" }),
      (error) => error instanceof guard.SchemaError,
    );
    assert.equal(calls, 0);
    const result = await guard.guardedCall({ messages: [] }, () => (calls++, openaiChat("{}")), { schema: text });
    assert.equal(result.degraded, true);
    assert.equal(calls, 1);
    stillWorks();
  });
});

describe("a deep schema within the limit", () => {
  test(
    "a deeply nested but valid schema object is not reported as \"not valid JSON\"",
    () => {
      let schema = { type: "string" };
      for (let i = 0; i < 70; i++) schema = { type: "object", properties: { a: schema } };
      let message = null;
      try {
        guard.compileSchema(schema);
      } catch (error) {
        message = error.message;
      }
      assert.ok(message === null || !/not valid JSON/.test(message), message);
    },
  );
});

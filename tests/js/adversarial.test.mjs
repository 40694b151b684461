// Adversarial input through the public API. Whatever a model, a caller or a
// schema author hands the package, the answer is a verdict (or a defined
// result) or a typed error — a TypeError with code "invalid_argument", a
// SchemaError with code "invalid_schema", or an Error with code "internal" —
// never a trap, a crash or a hang; and the module keeps answering correctly
// afterwards. Bounded time is expressed as "returns at all" within each
// test's generous timeout, never as a threshold in milliseconds.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import * as guard from "../../../pkg/node.mjs";
import { openaiChat, thrown } from "../../support/fixtures.mjs";

const LONG = { timeout: 180_000 };

const SMALL_SCHEMA = { type: "object", required: ["a"], properties: { a: { type: "string" } } };

/** After anything hostile, a normal check must still give the right answers, on both paths. */
function stillWorks() {
  const ok = guard.checkOutput('{"a":"x"}', SMALL_SCHEMA);
  assert.equal(ok.ok, true, "a valid output is still accepted");
  assert.deepEqual(ok.value, { a: "x" });
  const bad = guard.checkOutput('{"a":1}', guard.compileSchema(SMALL_SCHEMA));
  assert.equal(bad.failure, "schema", "an invalid output is still rejected");
  assert.deepEqual(bad.errors.map((e) => [e.path, e.code]), [["/a", "type"]]);
  assert.equal(guard.compileSchema({ type: "integer", minimum: 2 }).isValid(1), false);
}

function isTyped(error) {
  return (
    (error instanceof TypeError && error.code === "invalid_argument") ||
    (error instanceof guard.SchemaError && error.code === "invalid_schema") ||
    (error instanceof Error && error.code === "internal")
  );
}

function describeThrown(error) {
  return `${error?.constructor?.name ?? typeof error} (code ${error?.code}): ${String(error?.message ?? error)}`;
}

/** A thrown value is one of the package's typed errors. */
function assertTyped(error, context = "") {
  assert.ok(isTyped(error), `${context}: expected a typed error, got ${describeThrown(error)}`);
}

/**
 * Runs `fn`: `{ value }` when it returns, `{ error }` when it throws. An
 * untyped error fails the test at once, or, given a `problems` list, is
 * recorded there so one run reports every case.
 */
function outcome(fn, context, problems) {
  try {
    return { value: fn() };
  } catch (error) {
    if (problems && !isTyped(error)) problems.push(`${context}: ${describeThrown(error)}`);
    else assertTyped(error, context);
    return { error };
  }
}

/** The same for a call that may return a promise. */
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

function assertNoProblems(problems) {
  assert.deepEqual(problems, [], `untyped errors:\n${problems.join("\n")}`);
}

function nested(depth, leaf, wrap) {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

/** A verdict in API shape (ok or failed). */
function assertVerdict(verdict, context) {
  assert.equal(typeof verdict, "object", context);
  assert.equal(typeof verdict.ok, "boolean", context);
  if (!verdict.ok) {
    assert.ok(["truncated", "empty", "unparseable", "not_object", "schema", "rule"].includes(verdict.failure), `${context}: ${verdict.failure}`);
    assert.equal(typeof verdict.message, "string", context);
    assert.ok(Array.isArray(verdict.errors), context);
  }
}

// ---------------------------------------------------------------------------
// Size
// ---------------------------------------------------------------------------

const ROWS_SCHEMA = {
  type: "object",
  required: ["rows"],
  additionalProperties: false,
  properties: {
    rows: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "name", "score"],
        additionalProperties: false,
        properties: {
          id: { type: "integer", minimum: 0 },
          name: { type: "string", maxLength: 64 },
          score: { type: "number", minimum: 0, maximum: 1 },
        },
      },
    },
  },
};

const FIFTY_MB = 50 * 1024 * 1024;

let bigResponse;
/** A rows response of at least 50 MB, built once: `{ text, rows }`. */
function fiftyMegabytes() {
  if (!bigResponse) {
    const parts = [];
    let size = 0;
    for (let i = 0; size < FIFTY_MB; i++) {
      const row = `{"id":${i},"name":"row ${i} of the export, padded to look like real text","score":0.${i % 10}}`;
      parts.push(row);
      size += row.length + 1;
    }
    bigResponse = { text: `{"rows":[${parts.join(",")}]}`, rows: parts.length };
  }
  return bigResponse;
}

describe("a 50 MB response", () => {
  test("a valid one is accepted whole, through a schema object and through a Validator", LONG, () => {
    const { text, rows } = fiftyMegabytes();
    assert.ok(text.length >= FIFTY_MB);
    for (const schema of [ROWS_SCHEMA, guard.compileSchema(ROWS_SCHEMA)]) {
      const verdict = guard.checkOutput(text, schema);
      assert.equal(verdict.ok, true, verdict.message);
      assert.equal(verdict.value.rows.length, rows);
      assert.deepEqual(verdict.value.rows.at(-1), JSON.parse(`{"rows":[${text.slice(text.lastIndexOf('{"id"'), -1)}}`).rows[0]);
    }
    stillWorks();
  });

  test("an invalid one reports the first five problems in path order, and that there are more", LONG, () => {
    const { text } = fiftyMegabytes();
    const bad = text.replace(/"score":0\.5/g, '"score":5');
    for (const schema of [ROWS_SCHEMA, guard.compileSchema(ROWS_SCHEMA)]) {
      const verdict = guard.checkOutput(bad, schema);
      assert.equal(verdict.failure, "schema");
      assert.deepEqual(
        verdict.errors.map((e) => [e.path, e.code]),
        [5, 15, 25, 35, 45].map((i) => [`/rows/${i}/score`, "maximum"]),
      );
      assert.equal(verdict.moreErrors, true);
    }
    stillWorks();
  });

  test("one broken only in its last row is found there", LONG, () => {
    const { text, rows } = fiftyMegabytes();
    const bad = `${text.slice(0, -2)},{"id":-1,"name":"last","score":0}]}`;
    const verdict = guard.checkOutput(bad, guard.compileSchema(ROWS_SCHEMA));
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [[`/rows/${rows}/id`, "minimum"]]);
    assert.equal(verdict.moreErrors, false);
    stillWorks();
  });

  test("a 50 MB string inside one field: accepted, or rejected without being quoted", LONG, () => {
    const text = JSON.stringify({ s: "x".repeat(FIFTY_MB) });
    const plain = guard.checkOutput(text, { type: "object", properties: { s: { type: "string" } } });
    assert.equal(plain.ok, true);
    assert.equal(plain.value.s.length, FIFTY_MB);

    const patterned = guard.checkOutput(text, guard.compileSchema({ type: "object", properties: { s: { type: "string", pattern: "^x+$" } } }));
    assert.equal(patterned.ok, true);

    const tooLong = guard.checkOutput(text, { type: "object", properties: { s: { type: "string", maxLength: 10 } } });
    assert.equal(tooLong.failure, "schema");
    assert.deepEqual(tooLong.errors.map((e) => [e.path, e.code]), [["/s", "maxLength"]]);
    assert.ok(tooLong.message.length < 300, "the message does not quote the value");
    assert.ok(!tooLong.message.includes("xxxxxxxxxx"));

    // The same text as the content of a provider response object.
    const wrapped = guard.checkOutput(openaiChat(text), { type: "object", properties: { s: { type: "string", minLength: FIFTY_MB } } });
    assert.equal(wrapped.ok, true, wrapped.message);
    stillWorks();
  });
});

// ---------------------------------------------------------------------------
// Depth
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Lone surrogates
// ---------------------------------------------------------------------------

describe("strings with lone UTF-16 surrogates", () => {
  const STRING_SCHEMA = { type: "object", properties: { a: { type: "string" } } };

  test("escaped in JSON text (\\ud800): unparseable, as documented, although JSON.parse accepts it", () => {
    // JSON.parse turns an escaped lone surrogate into a lone code unit; the
    // package refuses it, because it is not a Unicode scalar value.
    assert.equal(JSON.parse('"x\\ud800y"'), "x\ud800y");
    for (const text of ['{"a":"x\\ud800y"}', '{"a":"\\udc00"}', '{"a":"\\ud83d"}', '{"\\ud800":1}']) {
      for (const schema of [STRING_SCHEMA, guard.compileSchema(STRING_SCHEMA)]) {
        const verdict = guard.checkOutput(text, schema);
        assert.equal(verdict.failure, "unparseable", text);
      }
    }
    // A well-formed escaped pair is one character.
    const pair = guard.checkOutput('{"a":"\\ud83d\\ude00"}', { type: "object", properties: { a: { maxLength: 1 } } });
    assert.equal(pair.ok, true);
    assert.equal(pair.value.a, "😀");
    stillWorks();
  });

  test("raw in a JS string output: a verdict, never a trap", () => {
    for (const text of ['{"a":"x\ud800y"}', '{"a":"\udfff"}', '{"a":"\ud83d"}', '{"\ud800":"k"}', '{"a":"\ud800\udc00\ud800"}']) {
      for (const schema of [STRING_SCHEMA, guard.compileSchema(STRING_SCHEMA)]) {
        const { value } = outcome(() => guard.checkOutput(text, schema), text);
        if (value !== undefined) assertVerdict(value, text);
        // A lone surrogate is not Unicode: it is checked, and returned, as
        // U+FFFD (what String.prototype.toWellFormed gives).
        if (value?.ok) assert.deepEqual(value.value, JSON.parse(text.toWellFormed()), "an accepted value is the text checked");
      }
    }
    stillWorks();
  });

  test("raw in a JS string output: the string validated is the string returned", () => {
    // The string the model wrote holds U+D800, not U+FFFD. Accepting it
    // against const "\uFFFD" would hand the caller a value that breaks the
    // schema it was checked against.
    const schema = { type: "object", properties: { a: { const: "\ufffd" } } };
    for (const checked of [schema, guard.compileSchema(schema)]) {
      const verdict = guard.checkOutput('{"a":"\ud800"}', checked);
      if (verdict.ok) {
        assert.equal(verdict.value.a, "\ufffd", `accepted ${JSON.stringify(verdict.value)} against const "\\ufffd"`);
      }
    }
    stillWorks();
  });

  test("raw in the content of a provider response object: a verdict, as for the same text given as a string", () => {
    // A response cut inside an emoji ends in half a surrogate pair.
    const cases = [
      [openaiChat('{"a":"x\ud800y"}'), guard.checkOutput('{"a":"x\ud800y"}', STRING_SCHEMA)],
      [openaiChat('{"a":"smile \ud83d', { finishReason: "length" }), { ok: false, failure: "truncated" }],
      [{ content: '{"a":"\udc00"}', finishReason: "stop" }, guard.checkOutput('{"a":"\udc00"}', STRING_SCHEMA)],
    ];
    for (const [response, expected] of cases) {
      let verdict;
      try {
        verdict = guard.checkOutput(response, STRING_SCHEMA);
      } catch (error) {
        assert.fail(`checkOutput threw ${error?.constructor?.name} (${error?.code}) "${error?.message}" for bad output, instead of a verdict like ${JSON.stringify({ ok: expected.ok, failure: expected.failure })}`);
      }
      assertVerdict(verdict, "provider response");
      assert.equal(verdict.ok, expected.ok);
      assert.equal(verdict.failure, expected.failure);
    }
    stillWorks();
  });

  test("raw in a JS value given as an instance or a schema: a verdict or a typed error", () => {
    const validator = guard.compileSchema(STRING_SCHEMA);
    for (const [name, fn] of [
      ["validate", () => validator.validate({ a: "\ud800" })],
      ["isValid", () => validator.isValid({ "\udc00": "x" })],
      ["schema const", () => guard.compileSchema({ const: "\ud800" })],
      ["schema key", () => guard.compileSchema({ properties: { "\ud800": { type: "string" } } })],
      ["schema text", () => guard.compileSchema('{"const":"\ud800"}')],
      ["checkOutput with that schema", () => guard.checkOutput('{"a":"x"}', { properties: { a: { const: "\ud800" } } })],
      ["rescueJson", () => guard.rescueJson("```json\n{\"a\":\"\ud800\"}\n```")],
    ]) {
      outcome(fn, name);
    }
    stillWorks();
  });
});

// ---------------------------------------------------------------------------
// JS values JSON cannot carry
// ---------------------------------------------------------------------------

class Invoice {
  constructor() {
    this.total = 12;
  }
  get currency() {
    return "EUR";
  }
}

/** Fresh hostile values (a Proxy or a getter may only be safe to touch once). */
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

/** What JSON makes of a value: `{ json }`, or `{ fails: true }` when JSON.stringify throws or gives nothing. */
function jsonView(value) {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? { fails: true } : { json: JSON.parse(text) };
  } catch {
    return { fails: true };
  }
}

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

// ---------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------

describe("numbers JSON.parse would round", () => {
  const NUMBER_TEXTS = [
    "9007199254740993", // 2^53 + 1: JSON.parse gives 2^53
    "-9007199254740993",
    "18446744073709551617", // 2^64 + 1
    "123456789012345678901234567890",
    "1e308",
    "1e-400", // underflows to 0
    "-1e-400", // underflows to -0
    "-0",
    "0.30000000000000001",
    "1.0",
    "5e-324",
  ];

  test("an accepted number is returned exactly as JSON.parse gives it", () => {
    const schema = { type: "object", properties: { n: { type: "number" } } };
    for (const n of NUMBER_TEXTS) {
      const text = `{"n":${n}}`;
      for (const checked of [schema, guard.compileSchema(schema)]) {
        const verdict = guard.checkOutput(text, checked);
        assert.equal(verdict.ok, true, `${n}: ${verdict.message}`);
        assert.ok(Object.is(verdict.value.n, JSON.parse(text).n), `${n} came back as ${verdict.value.n}, JSON.parse gives ${JSON.parse(text).n}`);
      }
    }
    stillWorks();
  });

  test("1e400 and -1e400 (Infinity to JSON.parse) are never accepted", () => {
    for (const n of ["1e400", "-1e400", "1E+999", "-123e99999"]) {
      for (const schema of [{ type: "object" }, { type: "object", properties: { n: { type: "number" } } }, { type: "object", properties: { n: { type: "integer", minimum: 0 } } }]) {
        const verdict = guard.checkOutput(`{"n":${n}}`, schema);
        assert.equal(verdict.ok, false, `${n} was accepted as ${verdict.value?.n}`);
        // The core's JSON reader refuses numbers out of the f64 range.
        assert.equal(verdict.failure, "unparseable", n);
      }
    }
    stillWorks();
  });

  test("integer, minimum and maximum judge the number as given; underflow is zero", () => {
    const judge = (n, keywords) => guard.checkOutput(`{"n":${n}}`, { type: "object", properties: { n: keywords } });
    assert.equal(judge("9007199254740993", { type: "integer" }).ok, true);
    assert.equal(judge("123456789012345678901234567890", { type: "integer" }).ok, true);
    assert.equal(judge("1e308", { type: "integer" }).ok, true);
    assert.equal(judge("1.5", { type: "integer" }).ok, false);
    assert.equal(judge("1e-400", { type: "integer" }).ok, true, "1e-400 reads as 0, an integer");
    assert.equal(judge("1e-400", { exclusiveMinimum: 0 }).failure, "schema", "1e-400 reads as 0, not above 0");
    assert.equal(judge("-1e-400", { minimum: 0 }).ok, true);
    assert.equal(judge("9007199254740993", { maximum: 1e300 }).ok, true);
    assert.equal(judge("1e308", { maximum: 1e307 }).failure, "schema");
    assert.equal(judge("-1e308", { minimum: -1e307 }).failure, "schema");
    stillWorks();
  });

  test("an accepted value satisfies the schema it was checked against, as the caller receives it", () => {
    // Beyond 2^53 JSON.parse rounds: 9007199254740993 arrives as
    // 9007199254740992. A check that compares the exact decimal accepts
    // outputs whose returned value breaks the schema.
    const cases = [
      ['{"n":9007199254740993}', { type: "object", properties: { n: { exclusiveMinimum: 9007199254740992 } } }],
      ['{"n":-9007199254740993}', { type: "object", properties: { n: { exclusiveMaximum: -9007199254740992 } } }],
      ['{"n":9007199254740993}', { type: "object", properties: { n: { not: { const: 9007199254740992 } } } }],
      ['{"n":[9007199254740993,9007199254740992]}', { type: "object", properties: { n: { uniqueItems: true } } }],
      ['{"n":9007199254740993}', { type: "object", properties: { n: { not: { enum: [9007199254740992] } } } }],
    ];
    const broken = [];
    for (const [text, schema] of cases) {
      for (const checked of [schema, guard.compileSchema(schema)]) {
        const verdict = guard.checkOutput(text, checked);
        if (verdict.ok && !guard.compileSchema(schema).isValid(verdict.value)) {
          broken.push(`${text} against ${JSON.stringify(schema.properties.n)} accepted as ${JSON.stringify(verdict.value)}`);
        }
      }
    }
    assert.deepEqual(broken, [], `accepted values that break their schema:\n${broken.join("\n")}`);
    stillWorks();
  });
});

// ---------------------------------------------------------------------------
// Duplicate keys
// ---------------------------------------------------------------------------

describe("duplicate keys in output text", () => {
  // Each: text with a repeated key, and a schema whose verdict depends on
  // which occurrence is read.
  const CASES = [
    ['{"a":1,"a":"x"}', { properties: { a: { type: "string" } } }],
    ['{"a":"x","a":1}', { properties: { a: { type: "string" } } }],
    ['{"a":1,"a":2}', { maxProperties: 1 }],
    ['{"a":1,"a":2}', { minProperties: 2 }],
    ['{"a":1,"a":2}', { const: { a: 2 } }],
    ['{"a":1,"a":2}', { const: { a: 1 } }],
    ['{"o":{"a":1,"a":2}}', { properties: { o: { enum: [{ a: 2 }] } } }],
    ['{"l":[{"a":1,"a":2},{"a":2}]}', { properties: { l: { uniqueItems: true } } }],
    ['{"l":[{"a":2,"a":1},{"a":2}]}', { properties: { l: { uniqueItems: true } } }],
    ['{"o":{"b":"x","b":5}}', { properties: { o: { properties: { b: { type: "string" } } } } }],
    ['{"o":{"b":5,"b":"x"}}', { properties: { o: { properties: { b: { type: "string" } } } } }],
    ['{"a":1,"z":1,"a":"s"}', { properties: { a: { type: "string" } }, additionalProperties: { type: "integer" } }],
    ['{"a":"x","b":1,"c":2,"d":3,"e":4,"f":5,"g":6,"a":7}', { properties: { a: { type: "string" } } }],
    ['{"l":[{"k":"bad","k":"good"}]}', { properties: { l: { contains: { properties: { k: { const: "good" } } } } } }],
    ['{"k":1,"k":"s"}', { oneOf: [{ properties: { k: { type: "string" } } }, { properties: { k: { type: "integer" } } }] }],
    ['{"ab":1,"ab":"s"}', { patternProperties: { "^a": { type: "string" } } }],
    ['{"a":1,"a":2}', { properties: { a: { const: 2 } }, unevaluatedProperties: false }],
    ['{"a":1,"a":"s","b":1,"c":1}', { properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } }],
    ['{"a":{"x":1},"a":{"y":1}}', { properties: { a: { required: ["x"] } } }],
    ['{"a":{"x":1},"a":{"y":1}}', { properties: { a: { required: ["y"] } } }],
    ['{"a":"s","a":null,"a":"t"}', { properties: { a: { type: "string" } } }],
  ];

  test("the value returned is JSON.parse's (the last occurrence wins), and the verdict judges that value", () => {
    const mismatches = [];
    for (const [text, raw] of CASES) {
      const schema = { type: "object", ...raw };
      const reference = guard.compileSchema(schema).validate(JSON.parse(text), { maxErrors: 100 });
      const expected = reference.errors.map((e) => [e.path, e.code]);
      for (const [path, checked, options] of [
        ["schema object", schema, undefined],
        ["Validator", guard.compileSchema(schema), undefined],
        ["Validator with maxErrors", guard.compileSchema(schema), { maxErrors: 100 }],
        ["schema object with options", schema, { maxErrors: 100, requireObject: true }],
        ["provider response", schema, undefined, true],
      ]) {
        const output = path === "provider response" ? openaiChat(text) : text;
        const verdict = guard.checkOutput(output, checked, options);
        if (verdict.ok !== reference.valid) {
          mismatches.push(`${path}: ${text} against ${JSON.stringify(raw)}: verdict ok=${verdict.ok}, JSON.parse's value is ${reference.valid ? "valid" : "invalid"}`);
          continue;
        }
        if (verdict.ok) assert.deepEqual(verdict.value, JSON.parse(text), `${path}: ${text}`);
        else if (options?.maxErrors === 100) assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), expected, `${path}: ${text}`);
      }
    }
    assert.deepEqual(mismatches, [], mismatches.join("\n"));
    stillWorks();
  });
});

// ---------------------------------------------------------------------------
// Prototype keys
// ---------------------------------------------------------------------------

describe("__proto__, constructor and prototype keys", () => {
  const PROTO_TEXTS = [
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"a":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}',
    '{"prototype":{"polluted":"yes"},"__proto__":[1,2],"constructor":"x"}',
    '{"l":[{"__proto__":{"isAdmin":true}}]}',
  ];

  function assertNoPollution() {
    assert.equal({}.polluted, undefined);
    assert.equal({}.isAdmin, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "isAdmin"), false);
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
    assert.equal(typeof Object.prototype.constructor, "function");
  }

  test("accepted values have them as own properties, exactly as JSON.parse gives, and nothing is polluted", async () => {
    for (const text of PROTO_TEXTS) {
      for (const schema of [{ type: "object" }, guard.compileSchema({ type: "object" }), undefined]) {
        const verdict = guard.checkOutput(text, schema);
        assert.equal(verdict.ok, true, text);
        assert.deepEqual(verdict.value, JSON.parse(text));
        assert.equal(Object.getPrototypeOf(verdict.value), Object.prototype, "the value's own prototype is untouched");
        if (text.startsWith('{"__proto__"')) {
          assert.ok(Object.prototype.hasOwnProperty.call(verdict.value, "__proto__"), "__proto__ is an own property");
        }
        assertNoPollution();
      }
    }
    const result = await guard.guardedCall({ messages: [] }, async () => openaiChat(PROTO_TEXTS[0]), { schema: { type: "object" } });
    assert.ok(Object.prototype.hasOwnProperty.call(result.value, "__proto__"));
    assertNoPollution();
    stillWorks();
  });

  test("a schema can require and constrain a __proto__ property, given as text or as a parsed object", () => {
    const schemaText = '{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string"}}}';
    for (const schema of [schemaText, JSON.parse(schemaText), guard.compileSchema(schemaText)]) {
      assert.equal(guard.checkOutput('{"__proto__":"s"}', schema).ok, true);
      const wrongType = guard.checkOutput('{"__proto__":{"polluted":"yes"}}', schema);
      assert.equal(wrongType.failure, "schema");
      assert.deepEqual(wrongType.errors.map((e) => [e.path, e.code]), [["/__proto__", "type"]]);
      const missing = guard.checkOutput('{"a":1}', schema);
      assert.deepEqual(missing.errors.map((e) => [e.path, e.code]), [["", "required"]]);
    }
    // An instance with an own __proto__ key is seen as JSON sees it.
    const validator = guard.compileSchema(schemaText);
    assert.equal(validator.isValid(JSON.parse('{"__proto__":"s"}')), true);
    assert.equal(validator.isValid({}), false);
    assertNoPollution();
    stillWorks();
  });

  test("__proto__ in options, rules and usage objects pollutes nothing", () => {
    outcome(() => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, JSON.parse('{"__proto__":{"maxErrors":-1,"polluted":"yes"}}')), "options");
    outcome(() => guard.checkOutput('{"a":"x"}', SMALL_SCHEMA, { rules: [JSON.parse('{"name":"r","then":{"required":["__proto__"]},"message":"m","__proto__":{"polluted":"yes"}}')] }), "rules");
    const merged = guard.mergeUsage(JSON.parse('{"tokens":{"__proto__":{"polluted":1},"input":1}}'), JSON.parse('{"tokens":{"__proto__":{"polluted":2},"input":2}}'));
    assert.equal(merged.tokens.input, 3);
    guard.normalizeUsage(JSON.parse('{"usage":{"__proto__":{"polluted":1},"prompt_tokens":1}}'));
    guard.detectTruncation(JSON.parse('{"__proto__":{"finish_reason":"length"},"choices":[]}'));
    assertNoPollution();
    stillWorks();
  });
});

// ---------------------------------------------------------------------------
// Catastrophic regular expressions
// ---------------------------------------------------------------------------

describe("catastrophic regular expressions", () => {
  const EVIL = `${"a".repeat(50_000)}!`;
  const PATTERNS = ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "^(a*)*b$", "(a+)+(b+)+$", "^(\\w+\\s?)*$", "^(?:a+){1000}$", "(((((((((a*)*)*)*)*)*)*)*)*)*!x", "^(a+)+(?=b)"];

  test("in pattern: a verdict, on both paths", LONG, () => {
    const text = JSON.stringify({ s: EVIL });
    for (const pattern of PATTERNS) {
      const schema = { type: "object", properties: { s: { type: "string", pattern } } };
      for (const checked of [schema, guard.compileSchema(schema)]) {
        const verdict = guard.checkOutput(text, checked);
        assertVerdict(verdict, pattern);
        assert.equal(verdict.ok, false, `${pattern} matched 50,000 a's and a "!"`);
        assert.equal(verdict.failure, "schema", pattern);
        assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/s", "pattern"]], pattern);
      }
    }
    stillWorks();
  });

  test("in patternProperties and propertyNames, against a 50,000-character key", LONG, () => {
    const text = JSON.stringify({ [EVIL]: 1 });
    const open = guard.checkOutput(text, { type: "object", patternProperties: { "^(a+)+$": { type: "string" } } });
    assert.equal(open.ok, true, "the key does not match, so the value is not checked");
    const closed = guard.checkOutput(text, { type: "object", patternProperties: { "^(a+)+$": {} }, additionalProperties: false });
    assert.equal(closed.failure, "schema");
    assert.deepEqual(closed.errors.map((e) => e.code), ["additionalProperties"]);
    const named = guard.checkOutput(text, { type: "object", propertyNames: { pattern: "^(a|aa)+$" } });
    assert.equal(named.failure, "schema");
    assert.deepEqual(named.errors.map((e) => e.code), ["propertyNames"]);
    stillWorks();
  });

  test("in customFormats and in rules", LONG, () => {
    const text = JSON.stringify({ s: EVIL });
    const schema = { type: "object", properties: { s: { type: "string", format: "evil" } } };
    const formatted = guard.checkOutput(text, schema, { customFormats: { evil: "^(a+)+$" } });
    assert.equal(formatted.failure, "schema");
    assert.deepEqual(formatted.errors.map((e) => [e.path, e.code]), [["/s", "format"]]);
    const ruled = guard.checkOutput(text, { type: "object" }, { rules: [{ name: "no-evil", then: { properties: { s: { pattern: "^(a|a)*$" } } }, message: "s must be all a's" }] });
    assert.equal(ruled.failure, "rule");
    stillWorks();
  });

  test("patterns that cannot compile, or compile too large, degrade or throw a SchemaError", LONG, () => {
    for (const pattern of ["(", "[", "a{1000000}", "(?<n>a)\\k<m>", "\\"]) {
      const schema = { type: "object", properties: { s: { type: "string", pattern } } };
      const compiled = outcome(() => guard.compileSchema(schema), pattern);
      if (compiled.error) {
        assert.ok(compiled.error instanceof guard.SchemaError, pattern);
        const verdict = guard.checkOutput('{"s":"a"}', schema);
        assert.equal(verdict.degraded, true, pattern);
      } else {
        assertVerdict(guard.checkOutput('{"s":"a"}', compiled.value), pattern);
      }
    }
    for (const source of ["(", "(a)\\1", "a{100000}{100000}"]) {
      assert.ok(outcome(() => guard.compileSchema({ format: "f" }, { customFormats: { f: source } }), source).error instanceof guard.SchemaError, source);
    }
    stillWorks();
  });
});

// ---------------------------------------------------------------------------
// $ref
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Every export, wrong argument types
// ---------------------------------------------------------------------------

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

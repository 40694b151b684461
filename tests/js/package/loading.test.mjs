// Loading the package the way users do: ESM import and CommonJS require.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA } from "../../support/fixtures.mjs";

const PUBLIC_NAMES = [
  "SchemaError",
  "StructuredOutputError",
  "Validator",
  "appendAnthropicFeedback",
  "appendGeminiFeedback",
  "appendOpenAIChatFeedback",
  "appendOpenAIResponsesFeedback",
  "checkOutput",
  "checkToolCalls",
  "clearSchemaCache",
  "compileSchema",
  "createGuardStats",
  "createStreamCheck",
  "createToolCallStreamCheck",
  "detectTruncation",
  "escapeForDisplay",
  "guardedCall",
  "guardedStream",
  "mergeUsage",
  "normalizeUsage",
  "ready",
  "repairFeedback",
  "rescueJson",
  "schemaCacheSize",
  "setSchemaCacheCapacity",
  "toProviderSchema",
  "wasmMemoryBytes",
];
const FUNCTIONS = PUBLIC_NAMES.filter((name) => !["SchemaError", "StructuredOutputError", "Validator"].includes(name));

describe("ESM (pkg/node.mjs)", () => {
  test("exports exactly the public names", () => {
    assert.deepEqual(Object.keys(guard).sort(), PUBLIC_NAMES);
    for (const name of FUNCTIONS) assert.equal(typeof guard[name], "function", name);
  });

  test("is ready synchronously at import: a check works without awaiting ready()", () => {
    const verdict = guard.checkOutput('{"city":"Oslo","population":709037}', CITY_SCHEMA);
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.value, { city: "Oslo", population: 709037 });
  });

  test("ready() is a promise that resolves (a no-op in Node and Bun)", async () => {
    const promise = guard.ready();
    assert.ok(promise instanceof Promise);
    assert.equal(await promise, undefined);
    assert.equal(guard.checkOutput("[]", CITY_SCHEMA).failure, "not_object");
  });

  test("guardedCall and guardedStream return promises; everything else is synchronous", async () => {
    assert.ok(guard.guardedStream({}, () => ['{"city":"Oslo","population":1}'], { schema: CITY_SCHEMA }) instanceof Promise);
    const pending = guard.guardedCall({}, async () => ({ content: '{"city":"Oslo","population":1}' }), { schema: CITY_SCHEMA });
    assert.ok(pending instanceof Promise);
    assert.equal((await pending).attempts, 1);
    assert.equal(guard.compileSchema(CITY_SCHEMA) instanceof Promise, false);
    assert.equal(guard.mergeUsage() instanceof Promise, false);
  });

  test("the error classes are Errors with their names", () => {
    const schemaError = new guard.SchemaError("bad");
    assert.ok(schemaError instanceof Error);
    assert.equal(schemaError.name, "SchemaError");
    assert.equal(schemaError.code, "invalid_schema");
    const outputError = new guard.StructuredOutputError("rejected", { failure: "schema", errors: [], attempts: 2, usage: {}, response: null, verdicts: [] });
    assert.ok(outputError instanceof Error);
    assert.equal(outputError.name, "StructuredOutputError");
    assert.equal(outputError.failure, "schema");
    assert.equal(outputError.attempts, 2);
  });
});

describe("CommonJS (pkg/node.cjs)", () => {
  const require = createRequire(import.meta.url);
  const cjs = require("../../../pkg/node.cjs");

  test("require() works and exports the same names as the ESM entry", () => {
    assert.deepEqual(Object.keys(cjs).sort(), PUBLIC_NAMES);
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(guard).sort());
    for (const name of FUNCTIONS) assert.equal(typeof cjs[name], "function", name);
  });

  test("is ready synchronously and gives the same verdicts and hashes", () => {
    const text = '{"observations":[{"type":"","text":"","importance":0}]}';
    const schema = {
      type: "object",
      properties: { observations: { type: "array", items: { type: "object", properties: { type: { enum: ["fact", "decision", "question"] } } } } },
    };
    const viaCjs = cjs.checkOutput(text, schema);
    assert.equal(viaCjs.failure, "schema");
    assert.deepEqual(viaCjs.errors.map((e) => [e.path, e.code]), [["/observations/0/type", "enum"]]);
    assert.deepEqual(viaCjs, guard.checkOutput(text, schema));
    assert.equal(cjs.compileSchema(schema).schemaHash, guard.compileSchema(schema).schemaHash);
    assert.deepEqual(cjs.rescueJson("```\n{}\n```"), { text: "{}", rescue: "code_fence" });
  });

  test("throws its own typed errors", () => {
    assert.throws(() => cjs.compileSchema({ type: "objekt" }), (error) => error instanceof cjs.SchemaError && error.code === "invalid_schema");
    assert.throws(() => cjs.rescueJson(42), (error) => error instanceof TypeError && error.code === "invalid_argument");
  });

  test("guardedStream works through require()", async () => {
    let n = 0;
    const result = await cjs.guardedStream({}, () => (++n === 1 ? ['{"city":', "42}"] : ['{"city":"Oslo",', '"population":1}']), { schema: CITY_SCHEMA });
    assert.equal(n, 2);
    assert.equal(result.verdicts[0].failure, "schema");
    assert.deepEqual(result.value, { city: "Oslo", population: 1 });
  });

  test("guardedCall works through require()", async () => {
    let n = 0;
    const result = await cjs.guardedCall({}, async () => (++n === 1 ? { content: "{}", finishReason: "length" } : { content: '{"city":"Oslo","population":1}' }), { schema: CITY_SCHEMA });
    assert.equal(n, 2);
    assert.deepEqual(result.value, { city: "Oslo", population: 1 });
  });
});

describe("a Validator from the other entry", () => {
  test(
    "a Validator from the CommonJS entry is not silently treated as an empty schema by the ESM entry",
    () => {
      const cjs = createRequire(import.meta.url)("../../../pkg/node.cjs");
      const foreign = cjs.compileSchema(CITY_SCHEMA);
      let verdict;
      try {
        verdict = guard.checkOutput('{"city":"","population":-1}', foreign);
      } catch (error) {
        // Refusing the foreign object with a typed error would be fine too.
        assert.equal(error.code, "invalid_argument");
        return;
      }
      assert.equal(verdict.ok, false, `accepted with schemaHash ${verdict.schemaHash}, not ${foreign.schemaHash}`);
      assert.equal(verdict.failure, "schema");
    },
  );
});

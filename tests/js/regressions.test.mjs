// Regressions: each of these was a bug once (non-boolean strict, a wrapper
// given as text, options checked only after the model call, a Validator from
// the other module format, use after free(), deep schemas, capped lists that
// depended on member order). Each asserts the behaviour the contract calls for.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, openaiChat, rejected, thrown } from "../../support/fixtures.mjs";

function counting(response) {
  const calls = [];
  return { calls, callModel: async (request) => (calls.push(request), response) };
}

describe("regressions", () => {
  test(
    'guardedCall rejects a non-boolean strict option (strict: "true" must not run the lenient path)',
    async () => {
      const { calls, callModel } = counting(openaiChat("not json"));
      const error = await rejected(guard.guardedCall({}, callModel, { schema: CITY_SCHEMA, strict: "true" }));
      assert.ok(error instanceof TypeError);
      assert.equal(error.code, "invalid_argument");
      assert.equal(calls.length, 0);
    },
  );

  test(
    "guardedCall reads strict from a response-format wrapper given as JSON text, as checkOutput unwraps it",
    async () => {
      const wrapperText = JSON.stringify({ name: "city", strict: false, schema: CITY_SCHEMA });
      const { calls, callModel } = counting(openaiChat("not json"));
      const result = await guard.guardedCall({}, callModel, { schema: wrapperText });
      assert.equal(calls.length, 1);
      assert.equal(result.value, null);
      assert.match(result.warning, /^unparseable: /);
    },
  );

  test(
    "guardedCall with a Validator schema rejects invalid check options before calling the model",
    async () => {
      const { calls, callModel } = counting(openaiChat('{"city":"Oslo","population":1}'));
      const error = await rejected(guard.guardedCall({}, callModel, { schema: guard.compileSchema(CITY_SCHEMA), maxErrors: -1 }));
      assert.ok(error instanceof TypeError);
      assert.equal(error.code, "invalid_argument");
      assert.equal(calls.length, 0);
    },
  );

  test(
    "guardedCall rejects an invalid onInvalidSchema before calling the model",
    async () => {
      const { calls, callModel } = counting(openaiChat('{"city":"Oslo","population":1}'));
      const error = await rejected(guard.guardedCall({}, callModel, { schema: CITY_SCHEMA, onInvalidSchema: "bogus" }));
      assert.ok(error instanceof TypeError);
      assert.equal(calls.length, 0);
    },
  );

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

  test(
    "validate/isValid on a freed Validator throw the typed invalid_argument error, as checkOutput does",
    () => {
      const validator = guard.compileSchema(CITY_SCHEMA);
      validator.free();
      assert.equal(thrown(() => guard.checkOutput("{}", validator)).code, "invalid_argument");
      assert.equal(thrown(() => validator.validate({})).code, "invalid_argument");
      assert.equal(thrown(() => validator.isValid({})).code, "invalid_argument");
    },
  );

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

  // The two below come from the prefix-view error collection
  // (TapeNode::prefix in crates/engine/src/tape/node.rs, collect_counted in
  // crates/engine/src/schema/issues.rs), which reads the first members of
  // each object in insertion order while the final list is sorted by path.
  const KEYS = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, "0")}`);
  const ALL_INTEGERS = { type: "object", properties: Object.fromEntries(KEYS.map((k) => [k, { type: "integer" }])) };
  const inOrder = Object.fromEntries(KEYS.map((k) => [k, "x"]));
  const reversed = Object.fromEntries([...KEYS].reverse().map((k) => [k, "x"]));

  test(
    "the capped issue list is the first maxErrors of the full ordered list, whatever the member order",
    () => {
      const validator = guard.compileSchema(ALL_INTEGERS);
      const full = validator.validate(reversed, { maxErrors: 100 }).errors.map((e) => e.path);
      assert.deepEqual(full.slice(0, 2), ["/k00", "/k01"]);
      assert.deepEqual(validator.validate(reversed, { maxErrors: 2 }).errors.map((e) => e.path), ["/k00", "/k01"]);
    },
  );

  test(
    "a capped verdict's errorHash does not depend on the order of the output's members",
    () => {
      const a = guard.checkOutput(JSON.stringify(inOrder), ALL_INTEGERS);
      const b = guard.checkOutput(JSON.stringify(reversed), ALL_INTEGERS);
      assert.equal(a.errors.length, 5);
      assert.deepEqual(b.errors.map((e) => e.path), a.errors.map((e) => e.path));
      assert.equal(b.errorHash, a.errorHash);
    },
  );
});

// guardedCall refuses options it cannot honour (a strict flag that is not a
// boolean, check options a Validator cannot take, an unknown onInvalidSchema)
// with a typed error before the model is called, and reads `strict` from a
// response-format wrapper given as JSON text as checkOutput does.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA, openaiChat, rejected } from "../../support/fixtures.mjs";

function counting(response) {
  const calls = [];
  return { calls, callModel: async (request) => (calls.push(request), response) };
}

describe("guardedCall's options are checked before the model is called", () => {
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
});

// A 50 MB response, valid or not: accepted whole, or rejected with its first
// problems in path order, never quoted whole in a message. Bounded time is
// "returns at all" within the test's timeout, never a threshold.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { openaiChat } from "../../support/fixtures.mjs";
import { LONG, stillWorks } from "../../support/robustness.mjs";

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

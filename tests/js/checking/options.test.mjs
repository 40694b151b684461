// Compile options through the public API: resources, customFormats,
// unknownFormats, draft and rejectUnknownFields.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";

const codes = (verdict) => verdict.errors.map((e) => [e.path, e.code]);

test("resources serve $ref from memory, keyed like the URIs they are asked for", () => {
  const resources = { "https://Schemas.example/defs/../ticket.json#": { type: "string", pattern: "^T-[0-9]+$" } };
  const schema = { type: "object", properties: { ticket: { $ref: "https://schemas.example/ticket.json" } } };
  assert.equal(guard.checkOutput('{"ticket":"T-12"}', schema, { resources }).ok, true);
  assert.deepEqual(codes(guard.checkOutput('{"ticket":"12"}', schema, { resources })), [["/ticket", "pattern"]]);
  assert.throws(() => guard.compileSchema(schema), { name: "SchemaError", message: /remote references are not fetched/ });
});

test("customFormats add formats; unknownFormats: 'error' refuses unknown ones", () => {
  const schema = { type: "object", properties: { id: { type: "string", format: "ticket-id" } } };
  assert.equal(guard.checkOutput('{"id":"whatever"}', schema).ok, true, "unknown formats are annotations by default");
  assert.throws(() => guard.compileSchema(schema, { unknownFormats: "error" }), { name: "SchemaError", message: /ticket-id/ });
  const options = { unknownFormats: "error", customFormats: { "ticket-id": "^T-[0-9]{3}$" } };
  assert.equal(guard.checkOutput('{"id":"T-123"}', schema, options).ok, true);
  assert.deepEqual(codes(guard.checkOutput('{"id":"T-1"}', schema, options)), [["/id", "format"]]);
  assert.throws(() => guard.compileSchema(schema, { customFormats: { "ticket-id": "(" } }), { name: "SchemaError", message: /not a valid regular expression/ });
  assert.throws(() => guard.compileSchema(schema, { customFormats: { "ticket-id": 5 } }), { name: "TypeError", code: "invalid_argument" });
});

test("draft changes what a schema means", () => {
  const schema = { type: "object", properties: { n: { maximum: 5, exclusiveMaximum: true } } };
  assert.deepEqual(codes(guard.checkOutput('{"n":5}', schema, { draft: "4" })), [["/n", "exclusiveMaximum"]]);
  assert.equal(guard.checkOutput('{"n":4}', schema, { draft: "4" }).ok, true);
  assert.equal(guard.checkOutput("{}", schema, { onInvalidSchema: "degrade" }).degraded, true, "boolean exclusiveMaximum is invalid in 2020-12");
});

test("rejectUnknownFields closes silent object schemas; an explicit policy wins", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "string" }, open: { type: "object", properties: { x: {} }, additionalProperties: true } },
  };
  const output = '{"a":"x","extra":1,"open":{"x":1,"more":2}}';
  assert.equal(guard.checkOutput(output, schema).ok, true);
  assert.deepEqual(codes(guard.checkOutput(output, schema, { rejectUnknownFields: true })), [["", "additionalProperties"]]);
});

test("an option name no function takes is refused, so a typo never means the default", async () => {
  const schema = { type: "object", properties: { a: { type: "string" } } };
  const validator = guard.compileSchema(schema);
  const refused = (fn, name, of) => {
    assert.throws(fn, (error) => {
      assert.ok(error instanceof TypeError);
      assert.equal(error.code, "invalid_argument");
      assert.match(error.message, new RegExp(`^"${name}" is not an option of ${of}; its options are `));
      return true;
    });
  };
  refused(() => guard.checkOutput('{"a":1}', schema, { maxError: 0 }), "maxError", "checkOutput");
  refused(() => guard.checkOutput('{"a":1}', validator, { maxError: 0 }), "maxError", "checkOutput");
  refused(() => guard.checkOutput({ content: '{"a":1}' }, schema, { requireObjects: false }), "requireObjects", "checkOutput");
  refused(() => guard.compileSchema(schema, { format: "annotate" }), "format", "compileSchema");
  refused(() => guard.compileSchema(schema, { maxErrors: 3 }), "maxErrors", "compileSchema");
  refused(() => validator.validate({ a: 1 }, { maxError: 1 }), "maxError", "Validator.validate");
  let calls = 0;
  await assert.rejects(
    guard.guardedCall({ messages: [] }, async () => { calls += 1; return '{"a":"x"}'; }, { schema, deadline: 1000 }),
    (error) => error.code === "invalid_argument" && /^"deadline" is not an option of guardedCall; its options are .*deadlineMs/.test(error.message),
  );
  assert.equal(calls, 0, "refused before any model call");
  // Every documented option is still taken.
  assert.equal(guard.checkOutput('{"a":"x"}', schema, { maxErrors: 1, requireObject: true, onInvalidSchema: "throw", formats: "assert", rules: [] }).ok, true);
  assert.equal(validator.validate({ a: 1 }, { maxErrors: 1 }).valid, false);
  const result = await guard.guardedCall({ messages: [] }, async () => '{"a":"x"}', { schema, strict: true, hasTools: false, retry: "resample", budgets: { total: 1 }, deadlineMs: 5000, maxErrors: 2 });
  assert.deepEqual(result.value, { a: "x" });
});

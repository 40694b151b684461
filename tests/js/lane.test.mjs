// The hot path (a string output checked against a compiled Validator) takes
// a lean lane through the core; it must give exactly the verdicts of the
// general path, which a plain schema object takes.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../pkg/node.mjs";
import * as internals from "../../pkg/testing.mjs";

const schema = {
  type: "object",
  required: ["rows"],
  properties: {
    rows: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "when"],
        properties: { type: { enum: ["fact", "question"] }, when: { type: "string", format: "date" }, note: { type: "string" } },
      },
    },
  },
};

const outputs = [
  '{"rows":[{"type":"fact","when":"2024-02-29"}]}',
  '  ```json\n{"rows":[{"type":"fact","when":"2024-02-29","note":"héllo 😀 ```x```"}]}\n```  ',
  '😀 before {"rows":[]}',
  '{"rows":[{"type":"other","when":"2026-02-30"},{"type":"fact"}]}',
  JSON.stringify({ rows: Array.from({ length: 40 }, () => ({ type: "x", when: "nope" })) }),
  "[1, 2, 3]",
  "   ",
  "",
  '{"rows": [',
  "```\n```",
];

test("the lean lane and the general path give identical verdicts", () => {
  const validator = guard.compileSchema(schema);
  for (const output of outputs) {
    for (const options of [undefined, { maxErrors: 2 }, { maxErrors: 0 }]) {
      const lane = guard.checkOutput(output, validator, options);
      const general = guard.checkOutput(output, schema, options);
      assert.deepEqual(lane, general, `${JSON.stringify(output).slice(0, 60)} with ${JSON.stringify(options)}`);
    }
  }
});

test("options the lane does not handle take the general path and still apply", () => {
  const validator = guard.compileSchema(schema);
  const verdict = guard.checkOutput("[1]", validator, { requireObject: false });
  assert.equal(verdict.failure, "schema");
  assert.throws(() => guard.checkOutput("{}", validator, { maxErrors: -1 }), { code: "invalid_argument" });
});

test("large responses grow the input buffer and still match the general path", () => {
  const validator = guard.compileSchema(schema);
  const row = (i) => ({ type: i % 97 === 5 ? "other" : "fact", when: "2024-02-29", note: i % 2 ? "ascii" : "non-ascii é 😀" });
  for (const rows of [10, 5000, 40000]) {
    const text = JSON.stringify({ rows: Array.from({ length: rows }, (_, i) => row(i)) });
    const ascii = text.replace(/[^\x00-\x7f]/g, "?");
    for (const output of [text, ascii, `\`\`\`json\n${text}\n\`\`\``]) {
      assert.deepEqual(guard.checkOutput(output, validator), guard.checkOutput(output, schema), `${rows} rows`);
    }
  }
  const valid = JSON.stringify({ rows: Array.from({ length: 30000 }, () => ({ type: "fact", when: "2024-01-01", note: "é" })) });
  const verdict = guard.checkOutput(valid, validator);
  assert.equal(verdict.ok, true);
  assert.equal(verdict.value.rows.length, 30000);
});

test("the lane still reads the right bytes after other calls grow the memory", () => {
  const validator = guard.compileSchema(schema);
  const small = '{"rows":[{"type":"fact","when":"2024-02-29"}]}';
  const smallInvalid = '{"rows":[{"type":"fact","when":"2024-02-30"}]}';
  assert.equal(guard.checkOutput(small, validator).ok, true);
  const before = guard.wasmMemoryBytes();
  // The general path (a schema object, not a Validator) copies this into
  // the module as a string argument, which grows the memory when it is
  // still small; when earlier tests in the process already grew it, the
  // memory is grown directly. Either way the lane's old view is detached.
  const big = JSON.stringify({ rows: Array.from({ length: 60000 }, () => ({ type: "fact", when: "2024-01-01", note: "x".repeat(40) })) });
  assert.equal(guard.checkOutput(big, schema).ok, true);
  if (guard.wasmMemoryBytes() === before) internals.rawGlue().exports().memory.grow(16);
  assert.ok(guard.wasmMemoryBytes() > before, "the memory grew");
  for (const output of [small, smallInvalid, ` ${small} `, small]) {
    assert.deepEqual(guard.checkOutput(output, validator), guard.checkOutput(output, schema), output);
  }
});

test("a response object checked while the check grows the memory still reads its finish reason", () => {
  const validator = guard.compileSchema(schema);
  const rows = (n) => JSON.stringify({ rows: Array.from({ length: n }, () => ({ type: "fact", when: "2024-01-01", note: "x".repeat(40) })) });
  // Each text is larger than any before, so checking it grows the memory
  // after the text was encoded, and the view the text went through is
  // detached by the time the finish reason is read back.
  for (const n of [10, 4000, 40000, 120000]) {
    const before = guard.wasmMemoryBytes();
    const verdict = guard.checkOutput({ content: rows(n), finishReason: "stop" }, validator);
    assert.equal(verdict.ok, true, `${n} rows`);
    assert.equal(verdict.finishReason, "stop", `${n} rows`);
    assert.equal(verdict.value.rows.length, n);
    if (n === 120000) assert.ok(guard.wasmMemoryBytes() > before, "the last check grew the memory");
  }
});

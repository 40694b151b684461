// checkToolCalls on a sample of a public corpus of real tool declarations
// and their calls (tests/corpus/tool-calls, see its SOURCE.md), in every
// provider shape: each verdict must be the one the document was made to
// have, and the one ajv gives the executor's own loop, so that no change
// made for speed can change an answer. bench/tool-calls.mjs checks all of
// it, and times it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as guard from "../../../pkg/node.mjs";
import { SHAPES, ajvVerdict, catalogue, documentsFor, loadCorpus, makeAjv, responseFor } from "../../corpus/tool-calls/corpus.mjs";

/**
 * One accepted call in this many, and every document made from it, each in
 * a response to a request that declares the tools of the sample.
 */
const EVERY = 47;

describe("the public tool-call corpus", () => {
  test("is the pinned selection its SOURCE.md describes, with its licence", () => {
    const here = new URL("../../corpus/tool-calls/", import.meta.url);
    assert.ok(existsSync(new URL("LICENSE", here)));
    assert.match(readFileSync(new URL("LICENSE", here), "utf8"), /Apache License\s+Version 2\.0/);
    const { tools, calls } = loadCorpus();
    assert.equal(tools.length, 5000);
    assert.equal(new Set(tools.map((tool) => tool.name)).size, 5000, "each tool has a name of its own");
    assert.equal(new Set(tools.map((tool) => JSON.stringify(tool.parameters))).size, 5000, "each tool has a schema of its own");
    assert.equal(calls.length, 5681);
    for (const size of [100, 1000]) {
      const part = catalogue(size);
      assert.equal(new Set(part.calls.map((call) => call.tool)).size, size, `every tool of the first ${size} has calls`);
    }
  });

  const corpus = loadCorpus();
  const tools = [];
  const sample = [];
  const index = new Map();
  corpus.calls.forEach((call, i) => {
    if (i % EVERY !== 0) return;
    if (!index.has(call.tool)) index.set(call.tool, tools.push(corpus.tools[call.tool]) - 1);
    sample.push({ tool: index.get(call.tool), arguments: call.arguments });
  });
  const ajv = makeAjv();
  const validators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.parameters)]));

  for (const shape of Object.keys(SHAPES)) {
    test(`${shape}: every verdict is the expected one and ajv's`, () => {
      const request = SHAPES[shape].request(tools);
      const docs = documentsFor(shape, tools, sample);
      const kinds = new Set();
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i];
        kinds.add(doc.kind);
        const id = `call_${i}`;
        const response = responseFor(shape, doc, id);
        const verdict = guard.checkToolCalls(response, request);
        const theirs = ajvVerdict(shape, response, validators);
        const what = `${doc.kind} call of ${doc.name}`;
        assert.deepEqual(theirs, doc.expected.ok ? { ok: true } : { ok: false, failure: doc.expected.failure }, `ajv on the ${what}`);
        assert.equal(verdict.ok, doc.expected.ok, `the ${what}: ${verdict.ok ? "accepted" : verdict.message}`);
        assert.equal(verdict.calls.length, 1);
        const [call] = verdict.calls;
        assert.equal(call.id, id);
        assert.equal(call.name, doc.name);
        if (doc.expected.ok) {
          assert.deepEqual(call.value, typeof doc.arguments === "string" ? JSON.parse(doc.arguments) : doc.arguments);
        } else {
          assert.equal(verdict.failure, doc.expected.failure, `the ${what}`);
          if (doc.expected.code !== undefined) {
            assert.ok(call.errors.some((issue) => issue.code === doc.expected.code), `the ${what} names ${doc.expected.code}: ${JSON.stringify(call.errors)}`);
          }
        }
      }
      // The sample holds every kind of document the shape has.
      const expected = SHAPES[shape].text
        ? ["valid", "required_dropped", "wrong_type", "number_as_string", "outside_enum", "cut_off_stop", "cut_off_limit"]
        : ["valid", "required_dropped", "wrong_type", "number_as_string", "outside_enum", "limit"];
      assert.deepEqual([...kinds].sort(), expected.sort());
    });
  }
});

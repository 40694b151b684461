// The real-world corpus (SchemaStore's schemas with their own valid and
// invalid instances, tests/corpus/schemastore/), a sample of it: every
// fourth schema, each instance judged by the guard, by ajv 8 + ajv-formats
// where ajv compiles the schema, and by the catalog. Every disagreement is
// listed, with the specification's reason, in
// tests/corpus/schemastore/expected-disagreements.json: one that is not
// listed fails, and so does a listed one that no longer happens. The whole
// corpus runs in bench/corpus.mjs. The counts are printed at the end.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { loadCases, loadExpected, runCorpus, summary } from "../../corpus/differential.mjs";

const EVERY = 2;

describe("real-world schemas: SchemaStore, beside ajv and the catalog", () => {
  const cases = loadCases({ every: EVERY });
  const result = runCorpus(guard, cases);
  const expected = loadExpected();
  const names = new Set(cases.map((c) => c.name));

  test(`every disagreement in the sample (${cases.length} schemas) is listed with its reason`, () => {
    const unlisted = result.disagreements.filter((d) => !expected.has(d.key));
    assert.deepEqual(unlisted, [], "disagreements not in expected-disagreements.json");
    for (const found of result.disagreements) {
      const listed = expected.get(found.key);
      assert.equal(listed.guard, found.guard, `${found.key}: the guard's verdict changed`);
      if (listed.ajv !== undefined) assert.equal(listed.ajv, found.ajv, `${found.key}: ajv's verdict changed`);
    }
  });

  test("no listed disagreement of the sample is stale", () => {
    const found = new Set(result.disagreements.map((d) => d.key));
    const stale = [...expected.keys()].filter((key) => names.has(key.split("/")[0]) && !found.has(key));
    assert.deepEqual(stale, [], "listed but no longer disagreeing: remove them");
  });

  test("the sample is judged, and the format oracle agrees with the guard", () => {
    assert.ok(result.counts.instances > 150, `${result.counts.instances} instances`);
    assert.ok(result.counts.bothJudged > 100, `${result.counts.bothJudged} judged by both`);
    const misses = result.oracle.guardMisses.filter((miss) => !expected.has(`format:${miss.format}:${miss.text}`));
    assert.deepEqual(misses, [], "format verdicts the RFC grammars disagree with, not listed");
    console.log(summary(result).join("\n"));
  });
});

// Conformance with the official JSON Schema Test Suite, through the public
// API: compileSchema(schema, { draft, formats: "assert", resources }), then
// isValid() and validate() on every test instance.
//
// The suite is the pinned copy in json-schema-test-suite/ beside this file
// (or $JSON_SCHEMA_TEST_SUITE); see suite.mjs. Remote schemas
// (http://localhost:1234/...) are passed as `resources`; nothing is fetched.
//
// Known failures are listed, each with its reason, in expected-failures.json.
// This file fails when a test fails that is not listed there, and when a
// listed test passes or no longer exists (a stale entry to delete).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as guard from "../../pkg/node.mjs";
import { CATEGORIES, DRAFTS, guardCompiler, loadDraft, loadRemotes, runGroups, suiteRoot } from "./suite.mjs";

const EXPECTED_FILE = new URL("./expected-failures.json", import.meta.url);
const expected = JSON.parse(readFileSync(EXPECTED_FILE, "utf8"));

const root = suiteRoot();
const resources = loadRemotes(root);
/** Every test id the suite produced, to find entries that name no test at all. */
const seen = new Set();
const totals = [];
const started = performance.now();

const SHOWN = 40;

function listing(title, rows) {
  const shown = rows.slice(0, SHOWN).map((row) => `  - ${row}`);
  if (rows.length > SHOWN) shown.push(`  ... and ${rows.length - SHOWN} more`);
  return `${title} (${rows.length}):\n${shown.join("\n")}`;
}

/** Compares results with expected-failures.json: the counts, and what does not match (or null). */
function judge(results, label) {
  const unexpected = [];
  const stale = [];
  let passed = 0;
  let expectedFailures = 0;
  for (const result of results) {
    seen.add(result.id);
    const listed = Object.hasOwn(expected, result.id);
    if (result.passed) {
      passed += 1;
      if (listed) stale.push(`${result.id}  [listed as: ${expected[result.id]}]`);
    } else if (listed) {
      expectedFailures += 1;
    } else {
      unexpected.push(`${result.id}  →  ${result.reason}`);
    }
  }
  console.log(`${label}: ${passed} passed, ${expectedFailures} failed as expected, ${results.length} total`);
  const problems = [];
  if (unexpected.length) problems.push(listing("failures not listed in expected-failures.json", unexpected));
  if (stale.length) problems.push(listing("listed in expected-failures.json but now passing (delete these entries)", stale));
  return { passed, expectedFailures, total: results.length, problem: problems.length ? `${label}\n${problems.join("\n")}` : null };
}

for (const draft of DRAFTS) {
  test(`draft ${draft.option}`, async (t) => {
    const groups = loadDraft(draft, root);
    const compile = guardCompiler(guard, { draft: draft.option, formats: "assert", resources });
    const sum = { passed: 0, expectedFailures: 0, total: 0 };
    for (const category of CATEGORIES) {
      await t.test(category.label, () => {
        const selected = groups.filter((group) => group.category === category.key);
        assert.ok(selected.length > 0, `no ${category.label} tests found for ${draft.dir}`);
        const counts = judge(runGroups(selected, compile), `${draft.dir} ${category.label}`);
        for (const key of Object.keys(sum)) sum[key] += counts[key];
        if (counts.problem) assert.fail(counts.problem);
      });
    }
    // The required format.json tests describe format as an annotation, which is
    // what formats: "annotate" promises; this run takes no exceptions.
    await t.test('required format.json under formats: "annotate"', () => {
      const selected = groups.filter((group) => group.category === "required" && group.file === "format.json");
      const results = runGroups(selected, guardCompiler(guard, { draft: draft.option, formats: "annotate", resources }));
      const failed = results.filter((result) => !result.passed);
      if (failed.length) {
        assert.fail(listing("format.json failures with formats: \"annotate\"", failed.map((r) => `${r.id}  →  ${r.reason}`)));
      }
    });
    totals.push({ draft: draft.option, ...sum });
    console.log(`${draft.dir}: ${sum.passed} passed, ${sum.expectedFailures} failed as expected, ${sum.total} total`);
  });
}

test("expected-failures.json names only tests of the suite, each with a reason", () => {
  const bad = [];
  for (const [id, reason] of Object.entries(expected)) {
    if (typeof reason !== "string" || reason.trim().length < 10) bad.push(`${id}  (no real reason given)`);
    // Only judge ids of drafts whose run completed, so one broken draft does not cascade here.
    const draftDir = id.split("/", 1)[0];
    const ran = totals.some((row) => DRAFTS.find((d) => d.option === row.draft)?.dir === draftDir);
    if (ran && !seen.has(id)) bad.push(`${id}  (no such test in the suite: delete the entry)`);
    if (!DRAFTS.some((d) => d.dir === draftDir)) bad.push(`${id}  (not a draft this runner covers)`);
  }
  if (bad.length) assert.fail(listing("bad entries in expected-failures.json", bad));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const row of totals) {
    console.log(`draft ${row.draft}: ${row.passed}/${row.total} passed, ${row.expectedFailures} failed as expected`);
  }
  console.log(`conformance run took ${seconds}s`);
});

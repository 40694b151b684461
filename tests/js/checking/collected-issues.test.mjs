// The issues of a rejected value collected by its check program (see
// `collector` in js/check-program.mjs) against the core's, differentially:
// for every instance of the JSON Schema Test Suite (every draft the package
// runs), seeded values made from them, the real-world corpus (tests/corpus:
// SchemaStore's schemas with their own instances, and the tool-call
// corpus's declarations with the arguments a model gets wrong), and issue
// caps of 1, 5 and 100, the list the program collects (issues, moreErrors,
// the verdict's message and errorHash) is the core's, byte for byte, on
// what JSON.parse made of the text and on the value itself; and the public
// calls (checkOutput, validate, ~standard.validate, isValid) give the same
// whole results with the programs on as with every check left to the core.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { createHash } from "node:crypto";
import { collectCheckIssues, coreCheckOutput, crossingsDuring, sha256Head, useCheckPrograms } from "../../../pkg/testing.mjs";
import { DRAFTS, compiledGroups, loadRemotes, suiteRoot } from "../../conformance/suite.mjs";
import { STORE, loadCases, resourcesOf } from "../../corpus/differential.mjs";
import { documentsOf, loadCorpus } from "../../corpus/tool-calls/corpus.mjs";
import { prng as rng } from "../../support/random.mjs";

const root = suiteRoot();
const resources = loadRemotes(root);
const CAPS = [1, 5, 100];

/** `fn()` with every check left to the core. */
function coreOnly(fn) {
  useCheckPrograms(false);
  try {
    return fn();
  } finally {
    useCheckPrograms(true);
  }
}

/** A call's result, or the error it threw (its class, code and message). */
function outcome(fn) {
  try {
    return fn();
  } catch (error) {
    return { threw: error?.constructor?.name, code: error?.code, message: error?.message };
  }
}

/**
 * Compares the program's collected issues with the core's for `value` at
 * each cap, on the parsed text and on the value; counts what was collected
 * and what was left to the core. A difference fails the test.
 */
function compareCollected(validator, value, where, counts) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    return;
  }
  for (const cap of CAPS) {
    const options = { maxErrors: cap, requireObject: false };
    let expected;
    for (const asValue of [false, true]) {
      const got = collectCheckIssues(validator, value, asValue, cap);
      if (got === undefined || got === "accepted") return;
      if (got === "bail") {
        counts.bail += 1;
        continue;
      }
      expected ??= coreCheckOutput(text, validator, options);
      const core = { errors: expected.errors, moreErrors: expected.moreErrors, message: expected.message, errorHash: expected.errorHash };
      assert.deepStrictEqual(got, core, `${where} (maxErrors ${cap}${asValue ? ", value" : ""}): ${text.slice(0, 200)}`);
      counts.collected += 1;
    }
  }
}

/** Compares the public calls' whole results with programs on and off, at each cap. */
async function comparePublic(validator, value, where, counts) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    return;
  }
  for (const cap of CAPS) {
    const options = { maxErrors: cap, requireObject: false };
    const calls = () => [outcome(() => guard.checkOutput(text, validator, options)), outcome(() => validator.validate(value, { maxErrors: cap })), outcome(() => validator.isValid(value))];
    // Twice with programs, so a schema's program is made before the second.
    calls();
    const ours = calls();
    const theirs = coreOnly(calls);
    assert.deepStrictEqual(ours, theirs, `${where} (maxErrors ${cap}): ${text.slice(0, 200)}`);
  }
  const standard = validator["~standard"];
  const ours = standard.validate(value);
  const theirs = coreOnly(() => standard.validate(value));
  assert.deepStrictEqual(ours, theirs, `${where} (~standard.validate): ${text.slice(0, 200)}`);
  counts.calls += 1;
}

/** A value like `value`, changed at random the way model output goes wrong. */
function mutate(value, next, depth = 0) {
  const r = next();
  if (value === null || typeof value !== "object") {
    if (r < 0.2) return [null, true, 0, -1, 1.5, "", "abc", "2020-01-01", [], {}][next.below(10)];
    if (typeof value === "number") return r < 0.5 ? value + [1, -1, 0.5, 0.25, 1e-9][next.below(5)] : value * [-1, 2, 0.5][next.below(3)];
    if (typeof value === "string") return r < 0.5 ? value.slice(0, next.below(value.length + 1)) : `${value}${["a", "é", "😀", "0", "~", "/"][next.below(6)]}`;
    return value;
  }
  if (depth > 6) return value;
  if (Array.isArray(value)) {
    const out = value.map((item) => (next() < 0.4 ? mutate(item, next, depth + 1) : item));
    if (r < 0.3) out.push([null, 1, "x", {}, 12][next.below(5)]);
    return out;
  }
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    if (next() < 0.15) continue;
    out[key] = next() < 0.4 ? mutate(item, next, depth + 1) : item;
  }
  if (r < 0.3) out[["foo", "a", "x/y", "t~1", "12", "2", "token_key", "é"][next.below(8)]] = [null, 1, "x", [], { b: 1 }][next.below(5)];
  return out;
}

describe("a rejected value's issues, collected by its program, are the core's", { timeout: 240000 }, () => {
  for (const draft of DRAFTS) {
    test(`every instance of the JSON Schema Test Suite, ${draft.dir}, and seeded values made from them`, async () => {
      const counts = { collected: 0, bail: 0, calls: 0 };
      const next = rng(54);
      for (const { group, validator } of compiledGroups(guard.compileSchema, draft, root, resources)) {
        for (const item of group.tests) {
          const values = [item.data, mutate(item.data, next), mutate(item.data, next)];
          for (const [index, value] of values.entries()) {
            const where = `${item.id}${index === 0 ? "" : ` (seeded ${index})`}`;
            compareCollected(validator, value, where, counts);
            if (index === 0) await comparePublic(validator, value, where, counts);
          }
        }
      }
      console.log(`${draft.dir}: ${counts.collected} issue lists collected equal, ${counts.bail} left to the core; ${counts.calls} values' public calls equal`);
      assert.ok(counts.collected > counts.bail, `${counts.collected} collected, ${counts.bail} left to the core`);
    });
  }

  test("the SchemaStore corpus: every schema, every instance of its own, and seeded values made from them", async () => {
    const counts = { collected: 0, bail: 0, calls: 0 };
    const next = rng(5404);
    for (const testCase of loadCases({ every: 2 })) {
      let validator;
      try {
        validator = guard.compileSchema(testCase.schema, { resources: resourcesOf(testCase), baseUri: `${STORE}${testCase.name}.json` });
      } catch {
        continue;
      }
      for (const { file, data } of [...testCase.valid, ...testCase.invalid]) {
        const values = [data, mutate(data, next), mutate(data, next)];
        for (const [index, value] of values.entries()) {
          const where = `${testCase.name}/${file}${index === 0 ? "" : ` (seeded ${index})`}`;
          compareCollected(validator, value, where, counts);
          if (index === 1) await comparePublic(validator, value, where, counts);
        }
      }
    }
    console.log(`corpus: ${counts.collected} issue lists collected equal, ${counts.bail} left to the core; ${counts.calls} values' public calls equal`);
    assert.ok(counts.collected > 500, `${counts.collected} collected`);
  });

  test("the tool-call corpus: a sample of declarations with the arguments a model gets wrong", async () => {
    const counts = { collected: 0, bail: 0, calls: 0 };
    const { tools, calls } = loadCorpus();
    const validators = new Map();
    for (let i = 0; i < calls.length; i += 23) {
      const call = calls[i];
      const tool = tools[call.tool];
      let validator = validators.get(call.tool);
      if (validator === undefined) {
        try {
          validator = guard.compileSchema(tool.parameters);
        } catch {
          validator = null;
        }
        validators.set(call.tool, validator);
      }
      if (validator === null) continue;
      for (const doc of documentsOf(tool, call.arguments)) {
        if (typeof doc.arguments === "string") continue;
        const where = `${tool.name} (${doc.kind})`;
        compareCollected(validator, doc.arguments, where, counts);
        if (doc.kind !== "valid" && counts.calls < 300) await comparePublic(validator, doc.arguments, where, counts);
      }
    }
    console.log(`tool calls: ${counts.collected} issue lists collected equal, ${counts.bail} left to the core; ${counts.calls} values' public calls equal`);
    assert.ok(counts.collected > 500, `${counts.collected} collected`);
  });
});

describe("what the core alone says is left to it", () => {
  test("a path that may hold a credential and a failing anyOf whose branch applies subschemas are not collected", () => {
    const validator = guard.compileSchema({
      type: "object",
      properties: {
        choice: { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "integer" }] },
      },
      additionalProperties: { type: "integer" },
    });
    assert.equal(collectCheckIssues(validator, { ghp_token: "x" }, false, 5), "bail");
    assert.equal(collectCheckIssues(validator, { choice: { a: 1 } }, false, 5), "bail");
    const collected = collectCheckIssues(validator, { plain: "x", choice: 1 }, false, 5);
    assert.deepStrictEqual(collected.errors.map((issue) => issue.path), ["/plain"]);
  });

  test("more strings than a few that only the core can judge are left to it, in one crossing", () => {
    const validator = guard.compileSchema({ type: "object", properties: { codes: { type: "array", items: { type: "string", pattern: "^(a|b)+\\1$" } } } });
    // Each a string of its own, the core's to match: one in eight fails.
    const value = { codes: Array.from({ length: 60 }, (_, i) => `${"ab".repeat(i + 1)}${i % 8 === 7 ? "a" : "b"}`) };
    assert.equal(collectCheckIssues(validator, value, false, 5), "bail");
    assert.equal(collectCheckIssues(validator, value, true, 5), "bail");
    const text = JSON.stringify(value);
    for (let i = 0; i < 3; i++) guard.checkOutput(text, validator);
    const [crossings, verdict] = crossingsDuring(validator, () => guard.checkOutput(text, validator));
    assert.ok(crossings <= 12, `${crossings} crossings`);
    assert.deepStrictEqual(verdict, coreOnly(() => guard.checkOutput(text, validator)));
  });
});

describe("issues the program lists with the core's help, or through the subschemas it applies", () => {
  /** The program's list for `value` equals the core's at caps 1, 5 and 100, on the parsed text and on the value. */
  function collectedAsTheCore(validator, value) {
    const text = JSON.stringify(value);
    for (const cap of CAPS) {
      const expected = coreCheckOutput(text, validator, { maxErrors: cap, requireObject: false });
      const core = { errors: expected.errors, moreErrors: expected.moreErrors, message: expected.message, errorHash: expected.errorHash };
      for (const asValue of [false, true]) assert.deepStrictEqual(collectCheckIssues(validator, value, asValue, cap), core, `maxErrors ${cap}${asValue ? ", value" : ""}`);
    }
  }

  test("a string only the core judges (a pattern it matches, a format it checks) is asked about alone, and its issue collected", () => {
    const validator = guard.compileSchema({
      type: "object",
      properties: { code: { type: "string", pattern: "^(a|b)+\\1$" }, name: { type: "string", pattern: "^[a-z]+$" }, site: { type: "string", format: "uri" } },
    });
    collectedAsTheCore(validator, { code: "ab", name: "ok" });
    collectedAsTheCore(validator, { code: "aa", name: "nö", site: "not a uri" });
    collectedAsTheCore(validator, { code: "abb", name: "Ünïcode", site: "https://example.com/" });
  });

  test("each string the core judges is asked about once while the issues are listed", () => {
    const validator = guard.compileSchema({ type: "object", properties: { to: { type: "array", items: { type: "string", format: "email" } } } });
    const value = { to: Array.from({ length: 300 }, (_, i) => (i % 50 === 49 ? `user${i}.example.com` : `user${i}@example.com`)) };
    collectedAsTheCore(validator, value);
    const text = JSON.stringify(value);
    for (let i = 0; i < 3; i++) guard.checkOutput(text, validator);
    // The run's batch, then one crossing for each of the six addresses
    // that decide the first five issues and that there are more.
    const [crossings, verdict] = crossingsDuring(validator, () => guard.checkOutput(text, validator, { maxErrors: 5 }));
    assert.equal(crossings, 7);
    assert.deepStrictEqual(verdict, coreOnly(() => guard.checkOutput(text, validator, { maxErrors: 5 })));
  });

  test("a long list keeps the first issues in the core's order, of every container, at each cap", () => {
    // Visited in an order of their own (one allOf branch each, in a
    // scrambled order; numbers as names), listed in the core's.
    const names = Array.from({ length: 30 }, (_, i) => `${(i * 17) % 30}`);
    const validator = guard.compileSchema({
      type: "object",
      allOf: names.map((name) => ({ properties: { [name]: { type: "integer" } } })),
      properties: {
        rows: { type: "array", items: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] } },
      },
    });
    const value = Object.fromEntries(names.map((name) => [name, "x"]));
    value.rows = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? { n: -i } : i % 3 === 1 ? {} : { n: i }));
    collectedAsTheCore(validator, value);
    collectedAsTheCore(validator, { rows: value.rows });
  });

  test("a failing not says its own issue", () => {
    const validator = guard.compileSchema({
      type: "object",
      properties: { status: { type: "string", not: { enum: ["deleted", "banned"] } }, tags: { type: "array", items: { not: { type: "integer" } } } },
      not: { required: ["legacy"] },
    });
    collectedAsTheCore(validator, { status: "deleted", tags: ["a", 3, "b", 4] });
    collectedAsTheCore(validator, { legacy: true, status: 3 });
  });

  test("a failing if / then / else lists the issues of the branch that applies", () => {
    const validator = guard.compileSchema({
      type: "object",
      if: { properties: { kind: { const: "card" } } },
      then: { required: ["number"], properties: { number: { type: "string", minLength: 12 } } },
      else: { required: ["iban"], properties: { iban: { type: "string", maxLength: 34 } } },
      properties: { amount: { type: "number", minimum: 0 } },
    });
    collectedAsTheCore(validator, { kind: "card", number: "123", amount: -1 });
    collectedAsTheCore(validator, { kind: "card" });
    collectedAsTheCore(validator, { kind: "transfer", amount: -5 });
    collectedAsTheCore(validator, { kind: "transfer", iban: "x".repeat(40) });
  });

  test("an anyOf or oneOf whose branches are references names each branch's first problem where it leads", () => {
    const validator = guard.compileSchema({
      $defs: { count: { type: "integer", minimum: 0 }, label: { type: "string", maxLength: 3 }, viaLabel: { $ref: "#/$defs/label" } },
      type: "object",
      properties: {
        either: { anyOf: [{ $ref: "#/$defs/count" }, { $ref: "#/$defs/viaLabel" }] },
        exactly: { oneOf: [{ $ref: "#/$defs/count" }, { $ref: "#/$defs/label" }] },
      },
    });
    collectedAsTheCore(validator, { either: -1, exactly: "long" });
    collectedAsTheCore(validator, { either: "long", exactly: 1.5 });
    collectedAsTheCore(validator, { either: true, exactly: null });
  });

  test("an anyOf or oneOf branch that also checks members or items names a problem of the value itself where only those fail", () => {
    const validator = guard.compileSchema({
      type: "object",
      properties: {
        target: {
          anyOf: [
            { type: "object", required: ["id"], properties: { id: { type: "integer" } }, minProperties: 2 },
            { type: "array", items: { type: "string" }, maxItems: 2 },
            { type: "string", maxLength: 4 },
          ],
        },
        pick: { oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "integer", minimum: 10 }] },
      },
    });
    collectedAsTheCore(validator, { target: true, pick: 3 });
    collectedAsTheCore(validator, { target: { id: 1 }, pick: "x" });
    collectedAsTheCore(validator, { target: ["a", "b", "c"], pick: [] });
    collectedAsTheCore(validator, { target: "longer", pick: 2.5 });
    // A member's problem is the core's to name.
    assert.equal(collectCheckIssues(validator, { target: { id: "x", b: 1 } }, false, 5), "bail");
  });
});

describe("the error hash", () => {
  test("is the first 128 bits of SHA-256 of the text's UTF-8 bytes, at every length around a block and past the buffer kept", () => {
    const next = rng(256);
    const pieces = ["a", "/", "\u001f", "\n", "é", "€", "😀", "~1", "0"];
    for (let length = 0; length < 3000; length += length < 200 ? 1 : 97) {
      let text = "";
      while (text.length < length) text += pieces[next.below(pieces.length)];
      assert.equal(sha256Head(text), createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32), `length ${length}`);
    }
  });
});

describe("a rejected value costs no crossing into wasm where its program lists the issues", () => {
  const schema = {
    type: "object",
    properties: {
      id: { type: "integer", minimum: 1 },
      name: { type: "string", minLength: 2 },
      tags: { type: "array", items: { enum: ["a", "b"] }, maxItems: 3 },
      price: { type: "number", multipleOf: 0.25 },
      when: { type: "string", format: "date" },
    },
    required: ["id", "name"],
    additionalProperties: false,
  };
  const bad = { id: "42", name: "A", tags: ["a", "c", "b", "a"], price: 1.1, when: "2024-02-30", extra: 1 };

  for (const cap of [1, 5, 100]) {
    test(`checkOutput(text, validator), validate, ~standard.validate and isValid, maxErrors ${cap}`, () => {
      const validator = guard.compileSchema(schema);
      const text = JSON.stringify(bad);
      const options = { maxErrors: cap, requireObject: true };
      const calls = () => [guard.checkOutput(text, validator, options), validator.validate(bad, { maxErrors: cap }), validator["~standard"].validate(bad), validator.isValid(bad)];
      // The program is made once the schema has been checked a few times.
      for (let i = 0; i < 3; i++) calls();
      const [crossings, ours] = crossingsDuring(validator, calls);
      assert.equal(crossings, 0);
      assert.deepStrictEqual(ours, coreOnly(calls));
      assert.equal(ours[0].errors.length, Math.min(cap, 7));
    });
  }
});

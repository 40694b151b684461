// All of a check's pattern and issue-collecting work shares one budget,
// counted in steps, not timed: catastrophic regular expressions and hostile
// responses are refused within it, and the next check has a whole one.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { rejected } from "../../support/fixtures.mjs";
import { badPropertyNames, hostileSet, manyRequired, sharedReferenceTree } from "../../support/hostile-schemas.mjs";
import { LONG, stillWorks, innocentChecksHold, outcome, assertVerdict } from "../../support/robustness.mjs";

function fastest(fn, runs = 3) {
  let best = Infinity;
  let result;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = fn();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, result };
}

function measure(made, runs = 3) {
  const validator = guard.compileSchema(made.schema);
  const value = JSON.parse(made.text);
  const isValid = fastest(() => validator.isValid(value), runs);
  assert.equal(isValid.result, false);
  const memoryBefore = guard.wasmMemoryBytes();
  const check = fastest(() => guard.checkOutput(made.text, validator), runs);
  return { isValidMs: isValid.ms, checkMs: check.ms, verdict: check.result, grew: guard.wasmMemoryBytes() - memoryBefore };
}

function boundedIssues(verdict) {
  assert.equal(verdict.failure, "schema");
  assert.ok(verdict.errors.length >= 1 && verdict.errors.length <= 5);
  for (const issue of verdict.errors) assert.ok(issue.message.length <= 1000, `a ${issue.message.length}-character message`);
  assert.ok(JSON.stringify(verdict).length < 20000, `a ${JSON.stringify(verdict).length}-byte verdict`);
}

describe("one budget for all of a check's pattern work", { timeout: 60000 }, () => {
  // Each string costs just under the per-match limit (the first alternative
  // splits the 18 a's every way before the second decides), so only a
  // budget that every match of a check shares bounds many of them.
  const COSTLY = "^(?:(a*)*\\1c|a+!)$";
  const costly = "a".repeat(18) + "!";
  // 19 characters each, all different, none matching the pattern.
  const costlyKeys = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => ["a".repeat(18) + String.fromCharCode(0x100 + i), i]));
  const long = (n) => JSON.stringify({ s: "a".repeat(n) });
  const onS = (pattern) => ({ type: "object", properties: { s: { type: "string", pattern } } });
  const RAN_OUT = /could not be matched against its pattern: the check's budget for pattern matching ran out, so it is rejected/;
  // A check spends well under a second on patterns on an idle machine; the
  // bound leaves room for a loaded one and for Bun.
  const BOUND_MS = 10000;

  function timed(run) {
    const started = performance.now();
    const result = run();
    return [result, performance.now() - started];
  }

  function ranOut(verdict, failure = "schema") {
    assert.equal(verdict.ok, false);
    assert.equal(verdict.failure, failure);
    assert.match(failure === "rule" ? verdict.errors[0].rule : verdict.errors[0].message, failure === "rule" ? /^names$/ : RAN_OUT);
    if (failure === "schema") assert.equal(verdict.errors[0].code, "pattern");
  }

  // [label, schema, hostile output, an output of the same shape that
  // passes, options]. The passing output still goes through the engine
  // that spends steps, so a check that inherited a spent budget would fail.
  const CASES = [
    [
      "10,000 array items",
      { type: "object", properties: { xs: { type: "array", items: { type: "string", pattern: COSTLY } } } },
      JSON.stringify({ xs: Array(10000).fill(costly) }),
      JSON.stringify({ xs: ["aaa!"] }),
    ],
    [
      "200 keys under patternProperties",
      { type: "object", patternProperties: { [COSTLY]: { type: "integer" } } },
      JSON.stringify(costlyKeys(200)),
      JSON.stringify({ "aaa!": 1 }),
    ],
    ["200 keys under propertyNames", { type: "object", propertyNames: { pattern: COSTLY } }, JSON.stringify(costlyKeys(200)), JSON.stringify({ "aaa!": 1 })],
    [
      "200 keys under a business rule",
      { type: "object" },
      JSON.stringify(costlyKeys(200)),
      JSON.stringify({ "aaa!": 1 }),
      { rules: [{ name: "names", then: { patternProperties: { [COSTLY]: { type: "integer" } } }, message: "Each name maps to a count." }] },
    ],
    ["(a+)\\1b on 16,000 characters", onS("(a+)\\1b"), long(16000), JSON.stringify({ s: "xaab" })],
    ["(?<=(a+)+)b on 50,000 characters", onS("(?<=(a+)+)b"), long(50000), JSON.stringify({ s: "xaab" })],
    ["(?!a*!)x on 50,000 characters", onS("(?!a*!)x"), long(50000), JSON.stringify({ s: "aax" })],
  ];

  for (const [label, schema, hostile, innocent, options = {}] of CASES) {
    test(`${label}: refused within one budget, and the next check gives its normal verdict`, () => {
      const [verdict, ms] = timed(() => guard.checkOutput(hostile, schema, options));
      ranOut(verdict, options.rules ? "rule" : "schema");
      assert.ok(ms < BOUND_MS, `${label} took ${ms.toFixed(0)} ms`);
      const next = guard.checkOutput(innocent, schema, options);
      assert.equal(next.ok, true, `${label}: ${next.message}`);
    });
  }

  test("steps are counted, not timed: the same check gives the same verdict", () => {
    const schema = { type: "object", patternProperties: { [COSTLY]: { type: "integer" } }, properties: { n: { type: "integer" } } };
    const output = JSON.stringify({ ...costlyKeys(3), n: "x" });
    const first = guard.checkOutput(output, schema);
    ranOut(first);
    assert.deepEqual(guard.checkOutput(output, schema), first);
  });

  test("the tool calls of one response share one budget, and the next check has a whole one", () => {
    const tool = (name, parameters) => ({ type: "function", function: { name, parameters } });
    const tools = [tool("tag", { type: "object", properties: { s: { type: "string", pattern: COSTLY } } })];
    const response = (calls) => ({
      choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: calls.map((args, i) => ({ id: `call_${i}`, type: "function", function: { name: "tag", arguments: args } })) } }],
    });
    const hostile = response(Array(200).fill(JSON.stringify({ s: costly })));
    const [verdict, ms] = timed(() => guard.checkToolCalls(hostile, tools));
    assert.equal(verdict.ok, false);
    assert.ok(ms < BOUND_MS, `200 tool calls took ${ms.toFixed(0)} ms`);
    assert.equal(verdict.calls[0].ok, true, "the first call fits in the budget");
    assert.match(verdict.calls.at(-1).errors[0].message, RAN_OUT);
    // A check made of calls that throws part way still ends its budget.
    const broken = [...tools, tool("broken", { type: "object", properties: { s: { type: "string", pattern: "(" } } })];
    const throwing = response([JSON.stringify({ s: costly }), JSON.stringify({ s: costly }), "{}"]);
    throwing.choices[0].message.tool_calls[2].function.name = "broken";
    assert.throws(() => guard.checkToolCalls(throwing, broken, { onInvalidSchema: "throw" }), guard.SchemaError);
    assert.equal(guard.checkToolCalls(response([JSON.stringify({ s: costly })]), tools).ok, true);
    assert.equal(guard.checkOutput(JSON.stringify({ s: costly }), tools[0].function.parameters).ok, true);
  });

  test("isValid and validate of a Validator are checks with a budget each", () => {
    const validator = guard.compileSchema({ type: "array", items: { type: "string", pattern: COSTLY } });
    const hostile = Array(10000).fill(costly);
    const [valid, ms] = timed(() => validator.isValid(hostile));
    assert.equal(valid, false);
    assert.ok(ms < BOUND_MS, `isValid took ${ms.toFixed(0)} ms`);
    // A fresh budget, and all of it: one costly match spends half.
    assert.equal(validator.isValid([costly]), true);
    const [result, validateMs] = timed(() => validator.validate(hostile));
    assert.equal(result.valid, false);
    assert.match(result.errors[0].message, RAN_OUT);
    assert.ok(validateMs < BOUND_MS, `validate took ${validateMs.toFixed(0)} ms`);
    assert.deepEqual(validator.validate([costly]), { valid: true, errors: [], moreErrors: false });
  });
});

// Each took seconds to minutes, or never finished, before collection was
// bounded; the bounds are about 10x what they take now on a loaded machine.
describe("collecting the issues of a hostile response costs little", { timeout: 60000 }, () => {
  test("8,000 property names that break propertyNames", () => {
    const { checkMs, verdict, grew } = measure(badPropertyNames(8000), 1);
    boundedIssues(verdict);
    assert.equal(verdict.errors[0].code, "propertyNames");
    assert.ok(verdict.moreErrors);
    assert.ok(checkMs < 2000, `${checkMs} ms`);
    assert.ok(grew < 16 << 20, `wasm memory grew by ${grew} bytes`);
    innocentChecksHold();
  });

  test("an anyOf and a oneOf of two $refs to the next, 16 levels deep", () => {
    for (const applicator of ["anyOf", "oneOf"]) {
      const { isValidMs, checkMs, verdict } = measure(sharedReferenceTree(applicator, 16), 1);
      boundedIssues(verdict);
      assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/x", applicator]]);
      assert.match(verdict.errors[0].message, /^The value at \/x must match (at least|exactly) one alternative/);
      assert.ok(checkMs < 2000 + 10 * isValidMs, `${applicator}: ${checkMs} ms, isValid ${isValidMs} ms`);
    }
    innocentChecksHold();
  });

  test("an allOf of two $refs to the next, 22 and 40 levels deep", () => {
    for (const levels of [22, 40]) {
      const { checkMs, verdict } = measure(sharedReferenceTree("allOf", levels), 1);
      boundedIssues(verdict);
      assert.deepEqual(verdict.errors.map((e) => [e.path, e.schemaPath, e.message]), [["/x", `/$defs/d${levels}/type`, "The value at /x must be a string."]]);
      assert.equal(verdict.moreErrors, false);
      assert.ok(checkMs < 1000, `${levels} levels: ${checkMs} ms`);
    }
    innocentChecksHold();
  });

  test("40 levels of anyOf, oneOf or allOf over two $refs: rejected once the check's references run out, never accepted undecided", () => {
    // 2^40 paths: before the reference budget, isValid alone never finished.
    const ranOut = (verdict) => {
      assert.equal(verdict.ok, false);
      assert.equal(verdict.failure, "schema");
      assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["", "$ref"]]);
      assert.match(verdict.errors[0].message, /references would be followed more than 10000000 times for this response \(the check's budget\)/);
    };
    const cases = [
      sharedReferenceTree("anyOf", 40),
      sharedReferenceTree("oneOf", 40),
      // A valid value walks every path of an allOf tree.
      sharedReferenceTree("allOf", 40, { type: "object" }),
    ];
    // `not` over a walk the budget cut short would read "not false": valid.
    const negated = sharedReferenceTree("anyOf", 40);
    negated.schema.properties.x = { not: { $ref: "#/$defs/d0" } };
    cases.push(negated);
    for (const made of cases) {
      const validator = guard.compileSchema(made.schema);
      const { ms, result } = fastest(() => guard.checkOutput(made.text, validator), 1);
      ranOut(result);
      assert.ok(ms < 20000, `${ms} ms`);
      assert.equal(validator.isValid(JSON.parse(made.text)), false);
      innocentChecksHold();
    }
  });

  test("30,000 required names against 30,000 other members", () => {
    const { checkMs, verdict } = measure(manyRequired(30000), 1);
    boundedIssues(verdict);
    assert.deepEqual(verdict.errors.map((e) => e.message), [0, 1, 2, 3, 4].map((i) => `The response is missing the required property "r${i}".`));
    assert.ok(verdict.moreErrors);
    assert.ok(checkMs < 2000, `${checkMs} ms`);
    innocentChecksHold();
  });

  test("over hostile schemas, a check costs a small multiple of isValid, and the next normal check is normal", () => {
    const slow = [];
    for (const made of hostileSet()) {
      const { isValidMs, checkMs, verdict } = measure(made, 2);
      boundedIssues(verdict);
      // Beyond isValid, which may stop at the first of many failing members:
      // reading the text and visiting every failing member once (linear in
      // the response), then writing at most 5 issues. Before collection was
      // bounded, these took seconds to minutes, or never finished.
      const beyond = checkMs - isValidMs;
      const allowed = 10 * isValidMs + 0.01 * made.text.length + 100;
      if (beyond > allowed) slow.push(`${made.label}: check ${checkMs.toFixed(1)} ms, isValid ${isValidMs.toFixed(1)} ms, allowed ${allowed.toFixed(0)} ms beyond`);
      innocentChecksHold();
    }
    assert.deepEqual(slow, []);
  });
});

describe("catastrophic regular expressions", () => {
  const EVIL = `${"a".repeat(50_000)}!`;
  const PATTERNS = ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "^(a*)*b$", "(a+)+(b+)+$", "^(\\w+\\s?)*$", "^(?:a+){1000}$", "(((((((((a*)*)*)*)*)*)*)*)*)*!x", "^(a+)+(?=b)"];

  test("in pattern: a verdict, on both paths", LONG, () => {
    const text = JSON.stringify({ s: EVIL });
    for (const pattern of PATTERNS) {
      const schema = { type: "object", properties: { s: { type: "string", pattern } } };
      for (const checked of [schema, guard.compileSchema(schema)]) {
        const verdict = guard.checkOutput(text, checked);
        assertVerdict(verdict, pattern);
        assert.equal(verdict.ok, false, `${pattern} matched 50,000 a's and a "!"`);
        assert.equal(verdict.failure, "schema", pattern);
        assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/s", "pattern"]], pattern);
      }
    }
    stillWorks();
  });

  test("in patternProperties and propertyNames, against a 50,000-character key", LONG, () => {
    const text = JSON.stringify({ [EVIL]: 1 });
    const open = guard.checkOutput(text, { type: "object", patternProperties: { "^(a+)+$": { type: "string" } } });
    assert.equal(open.ok, true, "the key does not match, so the value is not checked");
    const closed = guard.checkOutput(text, { type: "object", patternProperties: { "^(a+)+$": {} }, additionalProperties: false });
    assert.equal(closed.failure, "schema");
    assert.deepEqual(closed.errors.map((e) => e.code), ["additionalProperties"]);
    const named = guard.checkOutput(text, { type: "object", propertyNames: { pattern: "^(a|aa)+$" } });
    assert.equal(named.failure, "schema");
    assert.deepEqual(named.errors.map((e) => e.code), ["propertyNames"]);
    stillWorks();
  });

  test("in customFormats and in rules", LONG, () => {
    const text = JSON.stringify({ s: EVIL });
    const schema = { type: "object", properties: { s: { type: "string", format: "evil" } } };
    const formatted = guard.checkOutput(text, schema, { customFormats: { evil: "^(a+)+$" } });
    assert.equal(formatted.failure, "schema");
    assert.deepEqual(formatted.errors.map((e) => [e.path, e.code]), [["/s", "format"]]);
    const ruled = guard.checkOutput(text, { type: "object" }, { rules: [{ name: "no-evil", then: { properties: { s: { pattern: "^(a|a)*$" } } }, message: "s must be all a's" }] });
    assert.equal(ruled.failure, "rule");
    stillWorks();
  });

  test("patterns that cannot compile, or compile too large, degrade or throw a SchemaError", LONG, () => {
    for (const pattern of ["(", "[", "a{1000000}", "(?<n>a)\\k<m>", "\\"]) {
      const schema = { type: "object", properties: { s: { type: "string", pattern } } };
      const compiled = outcome(() => guard.compileSchema(schema), pattern);
      if (compiled.error) {
        assert.ok(compiled.error instanceof guard.SchemaError, pattern);
        const verdict = guard.checkOutput('{"s":"a"}', schema);
        assert.equal(verdict.degraded, true, pattern);
      } else {
        assertVerdict(guard.checkOutput('{"s":"a"}', compiled.value), pattern);
      }
    }
    for (const source of ["(", "(a)\\1", "a{100000}{100000}"]) {
      assert.ok(outcome(() => guard.compileSchema({ format: "f" }, { customFormats: { f: source } }), source).error instanceof guard.SchemaError, source);
    }
    stillWorks();
  });
});

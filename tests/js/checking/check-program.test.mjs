// Check programs (src/check_program.rs, js/check-program.mjs) against the
// core, differentially: every instance of the JSON Schema Test Suite (the
// drafts the package runs) and of the real-world corpus (tests/corpus,
// SchemaStore's schemas with their own instances), and seeded values made
// from them, through every executor (JavaScript written from the program,
// its interpreter, and its closures), must get the core's answer, or be
// left to the core;
// the public calls' results on the corpus and the text path's verdicts must
// be the core's; multipleOf and the formats checked in JavaScript must
// decide as the core does on seeded numbers and strings.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { checkProgramText, checksWithProgram, coreCheckOutput, coreIsValid, runCheckProgram, useCheckPrograms, writtenCheckSource } from "../../../pkg/testing.mjs";
import { DRAFTS, compiledGroups, loadRemotes, suiteRoot } from "../../conformance/suite.mjs";
import { STORE, loadCases, resourcesOf } from "../../corpus/differential.mjs";
// A seeded generator, so every run checks the same values.
import { prng as rng } from "../../support/random.mjs";
import { coreCalls } from "../../support/core-calls.mjs";

/** The executors, as `runCheckProgram` names them: written, interpreted, closures. */
const EXECUTORS = [false, true, "closures"];
const executorName = (interpret) => (interpret === "closures" ? "closures" : interpret ? "interpreted" : "written");


const root = suiteRoot();
const resources = loadRemotes(root);

/** A Validator's check program as the core writes it ("" for none). */
function programText(validator) {
  return checkProgramText(validator) ?? "";
}

/** The core's answer for a value, or undefined when it refuses to read it (a lone surrogate). */
function core(validator, value) {
  try {
    return coreIsValid(validator, JSON.stringify(value));
  } catch {
    return undefined;
  }
}

/**
 * Compares every executor with the core on `value`; returns how each
 * answered ("bail" when left to the core). A disagreement fails the test.
 */
function compare(validator, value, where, counts) {
  const expected = core(validator, value);
  if (expected === undefined) return;
  const parsed = JSON.parse(JSON.stringify(value));
  for (const interpret of EXECUTORS) {
    // As the text path runs it (on what JSON.parse made), and as the value
    // path does (on the caller's value itself).
    for (const [asValue, input] of [[false, parsed], [true, value]]) {
      const got = runCheckProgram(validator, input, interpret, asValue);
      if (got === undefined) {
        counts.core += 1;
        return;
      }
      if (got === "bail") counts.bail += 1;
      else {
        counts.same += 1;
        assert.equal(got, expected, `${where} (${executorName(interpret)}${asValue ? ", value" : ""}): ${JSON.stringify(value).slice(0, 200)}`);
      }
    }
  }
}

/** A value like `value`, changed at random the way model output goes wrong. */
function mutate(value, next, depth = 0) {
  const r = next();
  if (value === null || typeof value !== "object") {
    if (r < 0.15) return scalar(next);
    if (typeof value === "number") {
      const deltas = [0, 1, -1, 0.5, 0.25, 0.1, 1e-9, -0.5];
      return r < 0.5 ? value + deltas[Math.floor(next() * deltas.length)] : value * [1, -1, 2, 0.5][Math.floor(next() * 4)];
    }
    if (typeof value === "string") {
      if (r < 0.4) return value.slice(0, Math.floor(next() * (value.length + 1)));
      if (r < 0.6) return value + ["a", "é", "😀", "0", "-", ":", " "][Math.floor(next() * 7)];
      return value;
    }
    return value;
  }
  if (depth > 6) return value;
  if (Array.isArray(value)) {
    const out = value.map((item) => (next() < 0.3 ? mutate(item, next, depth + 1) : item));
    if (r < 0.2) out.push(scalar(next));
    if (r > 0.85 && out.length > 0) out.splice(Math.floor(next() * out.length), 1);
    return out;
  }
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    if (next() < 0.1) continue;
    out[key] = next() < 0.3 ? mutate(item, next, depth + 1) : item;
  }
  if (r < 0.2) out[["foo", "bar", "a", "x-y", "__proto__", "constructor"][Math.floor(next() * 6)]] = scalar(next);
  return out;
}

function scalar(next) {
  const pick = Math.floor(next() * 10);
  return [null, true, false, 0, -1, 1.5, 2 ** 53 + 2, "", "abc", "2020-01-01"][pick];
}

describe("check programs agree with the core", { timeout: 120000 }, () => {
  for (const draft of DRAFTS) {
    test(`every instance of the JSON Schema Test Suite, ${draft.dir}, and seeded values made from them`, () => {
      const counts = { same: 0, bail: 0, core: 0, schemas: 0, programs: 0 };
      const next = rng(46);
      for (const { group, validator } of compiledGroups(guard.compileSchema, draft, root, resources)) {
        counts.schemas += 1;
        if (runCheckProgram(validator, null) !== undefined) counts.programs += 1;
        for (const item of group.tests) {
          compare(validator, item.data, item.id, counts);
          for (let i = 0; i < 4; i++) compare(validator, mutate(item.data, next), `${item.id} (seeded)`, counts);
        }
      }
      console.log(`${draft.dir}: ${counts.programs} of ${counts.schemas} schemas have a program; ${counts.same} answers compared equal, ${counts.bail} left to the core, ${counts.core} values of schemas without one`);
      // Programs cover most of the suite, and leave little to the core.
      assert.ok(counts.programs > counts.schemas / 2, `${counts.programs} of ${counts.schemas}`);
      assert.ok(counts.bail < counts.same / 50, `${counts.bail} left to the core`);
    });
  }
});

describe("check programs agree with the core on the real-world corpus", { timeout: 240000 }, () => {
  // Every SchemaStore schema of tests/corpus, compiled as its differential
  // run compiles it, with every instance of its own and seeded values made
  // from them: each executor's answer is the core's, and so are the public
  // calls' whole results (checkOutput on the text, validate and isValid on
  // the value), which take the programs.
  test("every schema, every instance of its own, and seeded values made from them", () => {
    const counts = { schemas: 0, programs: 0, same: 0, bail: 0, core: 0, calls: 0 };
    const next = rng(4604);
    for (const testCase of loadCases()) {
      let validator;
      try {
        validator = guard.compileSchema(testCase.schema, { resources: resourcesOf(testCase), baseUri: `${STORE}${testCase.name}.json` });
      } catch {
        continue;
      }
      counts.schemas += 1;
      if (runCheckProgram(validator, null) !== undefined) counts.programs += 1;
      for (const { file, data } of [...testCase.valid, ...testCase.invalid]) {
        const values = [data, mutate(data, next), mutate(data, next), mutate(data, next)];
        for (const [index, value] of values.entries()) {
          const where = `${testCase.name}/${file}${index === 0 ? "" : ` (seeded ${index})`}`;
          compare(validator, value, where, counts);
          if (core(validator, value) === undefined) continue;
          const text = JSON.stringify(value);
          assert.deepEqual(guard.checkOutput(text, validator), coreCheckOutput(text, validator), `${where}: checkOutput`);
          const ours = [validator.validate(value), validator.isValid(value)];
          useCheckPrograms(false);
          let theirs;
          try {
            theirs = [validator.validate(value), validator.isValid(value)];
          } finally {
            useCheckPrograms(true);
          }
          assert.deepEqual(ours, theirs, `${where}: validate and isValid`);
          counts.calls += 1;
        }
      }
    }
    console.log(`corpus: ${counts.programs} of ${counts.schemas} schemas have a program; ${counts.same} answers compared equal, ${counts.bail} left to the core, ${counts.core} values of schemas without one; ${counts.calls} values' public calls equal`);
    assert.ok(counts.schemas > 380, `${counts.schemas} schemas compiled`);
    assert.ok(counts.programs > counts.schemas / 2, `${counts.programs} of ${counts.schemas}`);
    assert.ok(counts.same > 2000, `${counts.same} compared`);
  });
});

describe("a program that would cross once a string is not used", () => {
  // The pattern is one the program cannot match (its optional run is too
  // long for a sequence): the core judges it, at once where a branch must
  // know, so under oneOf every string would cost a crossing.
  const phone = { type: "string", pattern: "^\\+[1-9][0-9 ]{6,18}$" };
  const email = { type: "string", format: "email" };
  test("a core-judged pattern under oneOf, anyOf, not, contains or if's condition: the core checks", () => {
    for (const schema of [
      { oneOf: [phone, email] },
      { anyOf: [{ type: "object", properties: { p: phone } }, { type: "integer" }] },
      { not: phone },
      { type: "array", contains: phone },
      { if: phone, then: { minLength: 3 } },
      { $defs: { p: phone }, type: "array", items: { oneOf: [{ $ref: "#/$defs/p" }, { type: "null" }] } },
    ]) {
      assert.equal(checksWithProgram(guard.compileSchema(schema)), false, JSON.stringify(schema));
    }
  });
  test("the same pattern outside any branch, and a branch the program decides alone: the program checks", () => {
    for (const schema of [
      { type: "object", properties: { p: phone } },
      { allOf: [phone] },
      { if: { type: "string" }, then: phone },
      { oneOf: [email, { type: "string", pattern: "^C-[0-9]{5}$" }] },
    ]) {
      assert.equal(checksWithProgram(guard.compileSchema(schema)), true, JSON.stringify(schema));
    }
  });
});

describe("patternProperties in a program", () => {
  // Member names are matched by the patterns' sequences in JavaScript; a
  // name past ASCII (which a sequence leaves undecided) sends the value to
  // the core, and a pattern that is no sequence leaves the schema there.
  const schemas = [
    { type: "object", patternProperties: { "^x-": { type: "integer" } } },
    { type: "object", properties: { a: { type: "string" } }, patternProperties: { "^[a-z]+$": { minLength: 2 }, "^x-": { type: "integer" } }, additionalProperties: false },
    { type: "object", patternProperties: { "^[0-9]+$": false, "^[a-z]{1,3}$": { type: "number", minimum: 0 } }, additionalProperties: { type: "boolean" } },
    { $schema: "http://json-schema.org/draft-07/schema#", type: "object", patternProperties: { "^x-": { type: "integer" } }, additionalProperties: false },
    { type: "array", items: { type: "object", patternProperties: { "^v[0-9]$": { $ref: "#/$defs/n" } } }, $defs: { n: { type: "integer", multipleOf: 2 } } },
  ];
  test("a schema whose patterns are sequences has a program", () => {
    for (const schema of schemas) assert.equal(checksWithProgram(guard.compileSchema(schema)), true, JSON.stringify(schema));
  });
  test("a pattern that is no sequence leaves the schema to the core", () => {
    assert.equal(checksWithProgram(guard.compileSchema({ type: "object", patternProperties: { "(a|bc)+d": { type: "integer" } } })), false);
  });
  test("on seeded objects, both executors answer as the core does or leave the value to it", () => {
    const next = rng(4648);
    const names = ["x-a", "x-", "X-a", "a", "ab", "abcd", "abc", "0", "12", "v1", "v12", "vv", "", "é", "x-é", "ключ", "constructor", "a b"];
    const values = [0, 1, -1, 2, 3, 1.5, "s", "long", "", true, false, null, [], {}];
    const counts = { same: 0, bail: 0, core: 0 };
    for (const schema of schemas) {
      const validator = guard.compileSchema(schema);
      const array = schema.type === "array";
      for (let i = 0; i < 400; i++) {
        const make = () => {
          const out = {};
          const size = next.below(5);
          for (let k = 0; k < size; k++) out[names[next.below(names.length)]] = values[next.below(values.length)];
          return out;
        };
        const value = array ? Array.from({ length: 1 + next.below(3) }, make) : make();
        compare(validator, value, JSON.stringify(schema), counts);
      }
    }
    assert.ok(counts.same > 2000 && counts.bail > 0, JSON.stringify(counts));
  });
});

describe("unevaluatedProperties and unevaluatedItems in a program", () => {
  // Beside no keyword that applies a subschema to the same value, what is
  // evaluated is what properties, patternProperties, additionalProperties,
  // prefixItems, items and additionalItems read: the program says those;
  // beside one (allOf, $ref, if, contains, ...), the core judges.
  const D2019 = "https://json-schema.org/draft/2019-09/schema";
  const simple = [
    { type: "object", properties: { a: {} }, unevaluatedProperties: false },
    { type: "object", properties: { a: { type: "integer" } }, patternProperties: { "^x-": { type: "string" } }, unevaluatedProperties: { type: "boolean" } },
    { type: "object", properties: { a: {} }, additionalProperties: { type: "integer" }, unevaluatedProperties: false },
    { type: "array", prefixItems: [{ type: "integer" }], unevaluatedItems: false },
    { type: "array", prefixItems: [{}, {}], unevaluatedItems: { type: "string" } },
    { type: "array", items: { type: "integer" }, unevaluatedItems: false },
    { type: "array", unevaluatedItems: { type: "integer" } },
    { $schema: D2019, type: "array", items: [{ type: "integer" }], unevaluatedItems: false },
    { $schema: D2019, type: "array", items: [{}], additionalItems: { type: "integer" }, unevaluatedItems: false },
    { $schema: D2019, type: "object", properties: { a: {} }, unevaluatedProperties: false },
    { type: "object", properties: { list: { type: "array", prefixItems: [{}], unevaluatedItems: false }, o: { properties: { b: {} }, unevaluatedProperties: false } }, unevaluatedProperties: false },
  ];
  const inPlace = [
    { allOf: [{ properties: { a: {} } }], unevaluatedProperties: false },
    { $ref: "#/$defs/a", $defs: { a: { properties: { a: {} } } }, unevaluatedProperties: false },
    { if: { properties: { a: {} } }, then: {}, unevaluatedProperties: false },
    { type: "array", contains: { type: "string" }, unevaluatedItems: false },
    { anyOf: [{ prefixItems: [{}] }], unevaluatedItems: false },
  ];
  test("a schema that evaluates in place only by those keywords has a program", () => {
    for (const schema of simple) assert.equal(checksWithProgram(guard.compileSchema(schema)), true, JSON.stringify(schema));
  });
  test("beside an in-place applicator, the core judges", () => {
    for (const schema of inPlace) assert.equal(checksWithProgram(guard.compileSchema(schema)), false, JSON.stringify(schema));
  });
  test("on seeded values, both executors answer as the core does", () => {
    const next = rng(4649);
    const names = ["a", "b", "x-1", "x-", "list", "o", "constructor", "é"];
    const leaves = [0, 1, -1, 2.5, "s", "", true, false, null];
    const make = (depth) => {
      const r = next();
      if (depth > 2 || r < 0.4) return leaves[next.below(leaves.length)];
      if (r < 0.7) return Array.from({ length: next.below(4) }, () => make(depth + 1));
      const out = {};
      for (let k = next.below(4); k > 0; k--) out[names[next.below(names.length)]] = make(depth + 1);
      return out;
    };
    const counts = { same: 0, bail: 0, core: 0 };
    for (const schema of [...simple, ...inPlace]) {
      const validator = guard.compileSchema(schema);
      for (let i = 0; i < 300; i++) compare(validator, make(0), JSON.stringify(schema), counts);
    }
    assert.ok(counts.same > 8000, JSON.stringify(counts));
  });
});

describe("$dynamicRef and $recursiveRef within one resource", () => {
  // With no identifier below the root and nothing outside the document, the
  // dynamic scope is that one resource: a $dynamicRef lands where $ref
  // does, and a $recursiveRef on the root.
  const tree = {
    $dynamicAnchor: "node",
    type: "object",
    properties: { v: { type: "integer" }, kids: { type: "array", items: { $dynamicRef: "#node" } } },
  };
  const D2019 = "https://json-schema.org/draft/2019-09/schema";
  const schemas = [
    { type: "array", items: { $dynamicRef: "#node" }, $defs: { node: { $dynamicAnchor: "node", type: "integer" } } },
    tree,
    { $schema: D2019, $recursiveAnchor: true, type: "object", properties: { v: { type: "integer" }, kids: { type: "array", items: { $recursiveRef: "#" } } } },
    { $schema: D2019, type: ["object", "integer"], additionalProperties: { $recursiveRef: "#" } },
    { $ref: "#/$defs/t", $defs: { t: { $dynamicAnchor: "t", type: "array", items: { anyOf: [{ type: "string" }, { $dynamicRef: "#t" }] } } } },
    { type: "object", properties: { a: { $dynamicRef: "#/$defs/n" } }, $defs: { n: { type: "number", minimum: 0 } } },
  ];
  test("has a program", () => {
    for (const schema of schemas) assert.equal(checksWithProgram(guard.compileSchema(schema)), true, JSON.stringify(schema));
  });
  test("an identifier below the root leaves it to the core", () => {
    const schema = { $id: "https://example.com/root", $defs: { inner: { $id: "inner", $dynamicAnchor: "node", type: "string" } }, $dynamicRef: "#node", $dynamicAnchor: "node" };
    assert.equal(checksWithProgram(guard.compileSchema(schema)), false);
  });
  test("on seeded values, both executors answer as the core does", () => {
    const next = rng(4650);
    const leaves = [0, 1, -1, 2.5, "s", true, null];
    const make = (depth) => {
      const r = next();
      if (depth > 3 || r < 0.35) return leaves[next.below(leaves.length)];
      if (r < 0.65) return Array.from({ length: next.below(4) }, () => make(depth + 1));
      const out = {};
      for (const name of ["v", "kids", "a"]) if (next() < 0.6) out[name] = name === "kids" && next() < 0.7 ? Array.from({ length: next.below(3) }, () => make(depth + 1)) : make(depth + 1);
      return out;
    };
    const counts = { same: 0, bail: 0, core: 0 };
    for (const schema of schemas) {
      const validator = guard.compileSchema(schema);
      for (let i = 0; i < 400; i++) compare(validator, make(0), JSON.stringify(schema), counts);
    }
    assert.ok(counts.same > 5000, JSON.stringify(counts));
  });
});

describe("the text path's verdicts are the core's", () => {
  const schema = { type: "object", properties: { n: { type: "number" }, s: { type: "string" }, a: { type: "array", items: { type: "integer" } } }, required: ["n"] };
  const validator = guard.compileSchema(schema);
  const deep = (n) => `{"n":1,"a":${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`;
  const texts = [
    '{"n":1}',
    '  {"n":1}\n',
    '{"n":1.0,"a":[1,2.0,3e0]}',
    '{"n":1e400}',
    '{"n":-1e400}',
    '{"n":1,"x":1e999}',
    '{"n":1e-400}',
    '{"n":-0}',
    '{"n":1,"n":"x"}',
    '{"n":"x","n":1}',
    '{"n":1,"s":"\\ud800"}',
    '{"n":1,"s":"\\ud83d\\ude00"}',
    '{"n":1,"x":"\\udc00 alone"}',
    '{"n":1,"__proto__":{"n":"x"}}',
    '{"n":1,"constructor":1}',
    '```json\n{"n":1}\n```',
    '\u00a0{"n":1}',
    '\ufeff{"n":1}',
    '[{"n":1}]',
    '"text"',
    "",
    '{"n":9007199254740993}',
    deep(127),
    deep(128),
    deep(129),
  ];
  for (const text of texts) {
    test(`${JSON.stringify(text).slice(0, 60)}`, () => {
      for (const options of [undefined, { requireObject: false }]) {
        const ours = guard.checkOutput(text, validator, options);
        const theirs = coreCheckOutput(text, validator, options);
        assert.deepEqual(ours, theirs);
      }
    });
  }
});

describe("a parsed text's node probes only what can pass its own checks", () => {
  // What a node's children do not read is probed for what the core refuses
  // (a number JSON.parse made infinite, nesting past the core's depth); a
  // value that passed the node's type, const or enum can only be of those
  // types, so the rest of the probe is dead code on every item.
  const itemOf = (item) => ({ type: "object", required: ["items"], properties: { items: { type: "array", items: item } } });
  /** The written function of node `n` (by default the last one, the items') for the text path. */
  const itemSource = (item, n) => {
    const source = writtenCheckSource(guard.compileSchema({ ...itemOf(item), $defs: { number: { type: "number" } } }));
    const start = n === undefined ? source.lastIndexOf("\nfunction n") : source.indexOf(`\nfunction n${n}(`);
    const end = source.indexOf("\n}", start);
    return source.slice(start, end);
  };
  const finiteCheck = "v - v !== 0";
  test("a type, const or enum that admits no number and no container: nothing is probed", () => {
    for (const item of [{ type: "boolean" }, { type: "null" }, { type: "string" }, { type: ["string", "null"] }, { type: "integer" }, { type: "integer", minimum: 0 }, { enum: ["a", 1, null] }, { const: "fixed" }, { type: "number", const: 2 }]) {
      const source = itemSource(item);
      assert.ok(!source.includes("probe(") && !source.includes(finiteCheck), `${JSON.stringify(item)}: ${source}`);
    }
  });
  test("a number that may be infinite is checked; containers are probed only as the types allow", () => {
    const number = itemSource({ type: "number", minimum: 0 });
    assert.ok(number.includes(finiteCheck) && !number.includes("probe("), number);
    const object = itemSource({ type: "object" });
    assert.ok(object.includes("for (const k in v)") && !object.includes("Array.isArray(v)) { for") && !object.includes(finiteCheck), object);
    const array = itemSource({ type: "array" });
    assert.ok(array.includes("i < v.length; i++) { const x = v[i];") && !array.includes("for (const k in v)"), array);
    // Items all read by the node's own `items`: nothing is left to probe.
    const read = itemSource({ type: "array", items: { type: "integer" } });
    assert.ok(!read.includes("probe("), read);
    // No type to go by: every kind of value is probed.
    const any = itemSource({ minimum: 0 });
    assert.ok(any.includes(finiteCheck) && any.includes("for (const k in v)") && any.includes("i < v.length; i++) { const x = v[i];"), any);
  });
  test("a node that passes only where a node it applies to the same value passed adds no probe of its own", () => {
    // The items' node is n2; the node it applies in place is n3, which covers the value.
    for (const item of [{ $ref: "#/$defs/number" }, { allOf: [{ type: "number" }] }, { anyOf: [{ type: "number" }, { type: "string" }] }, { oneOf: [{ type: "number" }, { type: "object" }] }, { if: { type: "string" }, then: { minLength: 1 }, else: { type: "number" } }]) {
      const source = itemSource(item, 2);
      assert.ok(source.includes("n3(") && !source.includes("probe(") && !source.includes(finiteCheck), `${JSON.stringify(item)}: ${source}`);
    }
    // `not`: the value may pass where no node applied to it did.
    const not = itemSource({ not: { type: "string" } }, 2);
    assert.ok(not.includes("probe(") && not.includes(finiteCheck) && !not.includes("covered"), not);
    // `if` without `else`, a dependency's schema: probed only where the node they apply did not pass.
    for (const item of [{ if: { type: "string" }, then: { minLength: 1 } }, { type: "object", dependentSchemas: { a: { required: ["b"] } } }]) {
      const source = itemSource(item, 2);
      assert.ok(source.includes("covered = true;") && source.includes("if (!covered) {") && source.includes("probe("), `${JSON.stringify(item)}: ${source}`);
    }
  });
  test("verdicts stay the core's where the probe was dropped or kept", () => {
    const cases = [
      [{ type: "integer" }, ['{"items":[1,2,1e400]}', '{"items":[1,-1e400]}', '{"items":[1,2.5]}']],
      [{ type: "number" }, ['{"items":[1,2,1e400]}', '{"items":[0.5]}']],
      [{ enum: [1, "a"] }, ['{"items":[1,1e400]}', '{"items":["a",1]}']],
      [{ type: "object" }, ['{"items":[{"a":1e400}]}', `{"items":[{"a":${"[".repeat(130)}${"]".repeat(130)}}]}`, '{"items":[{"a":[1]}]}']],
      [{ type: "array", items: { type: "integer" } }, ['{"items":[[1,1e400]]}', '{"items":[[1,2]]}']],
      [{ type: ["string", "null"] }, ['{"items":["a",null,1e400]}', '{"items":["a",null]}']],
      [{ $ref: "#/$defs/number" }, ['{"items":[1,1e400]}', '{"items":[1,2]}']],
      [{ anyOf: [{ type: "integer" }, { type: "object" }] }, ['{"items":[1,{"a":1e400}]}', `{"items":[1,{"a":${"[".repeat(130)}${"]".repeat(130)}}]}`, '{"items":[1,{"a":[2]}]}']],
      [{ if: { type: "integer" }, then: { minimum: 0 }, else: { type: "array" } }, ['{"items":[1,[1e400]]}', '{"items":[1,[2.5]]}']],
      [{ if: { type: "object", required: ["a"] }, then: { required: ["b"] } }, ['{"items":[{"a":1,"b":1e400}]}', '{"items":[{"c":1e400}]}', '{"items":[[1e400]]}', '{"items":[{"a":1,"b":[2]},[3]]}']],
      [{ type: "object", dependentSchemas: { a: { required: ["b"] } } }, ['{"items":[{"a":1,"b":1e400}]}', '{"items":[{"b":1e400}]}', `{"items":[{"b":${"[".repeat(130)}${"]".repeat(130)}}]}`, '{"items":[{"a":1,"b":2},{"c":[1]}]}']],
    ];
    for (const [item, texts] of cases) {
      const validator = guard.compileSchema({ ...itemOf(item), $defs: { number: { type: "number" } } });
      assert.equal(checksWithProgram(validator), true);
      for (const text of texts) assert.deepEqual(guard.checkOutput(text, validator), coreCheckOutput(text, validator), `${JSON.stringify(item)}: ${text.slice(0, 80)}`);
      for (const interpret of EXECUTORS) assert.equal(runCheckProgram(validator, { items: [Infinity] }, interpret), item.type === "number" || item.$ref !== undefined || (item.if !== undefined && item.else === undefined) ? "bail" : false, JSON.stringify(item));
    }
  });
});

describe("references in a written program", () => {
  test("a reference to a node that reaches no reference keeps only the count of references, a recursive one its nesting too", () => {
    const leaf = writtenCheckSource(guard.compileSchema({ type: "array", items: { $ref: "#/$defs/n" }, $defs: { n: { type: "number", minimum: 0 } } }));
    assert.ok(leaf.includes("++refs") && !leaf.includes("nesting--") && !leaf.includes("++nesting"), leaf);
    const tree = { $ref: "#/$defs/node", $defs: { node: { type: "object", properties: { v: { $ref: "#/$defs/leaf" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } } }, leaf: { type: "integer" } } };
    const recursive = writtenCheckSource(guard.compileSchema(tree));
    assert.equal(recursive.match(/\+\+nesting/g)?.length, 2, recursive);
    assert.equal(recursive.match(/\+\+refs/g)?.length, 3, recursive);
  });
  test("a loop of references that never reaches a value is still the core's, and a deep tree is checked", () => {
    const loop = guard.compileSchema({ $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } } });
    const tree = guard.compileSchema({ $ref: "#/$defs/node", $defs: { node: { type: "object", properties: { v: { $ref: "#/$defs/leaf" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } } }, leaf: { type: "integer" } } });
    let deep = { v: 1 };
    for (let i = 0; i < 40; i++) deep = { v: i, kids: [deep, { v: 2 }] };
    for (const [validator, value] of [[loop, {}], [tree, deep], [tree, { v: 1, kids: [{ v: "x" }] }], [tree, { v: 1, kids: [{ v: 1e308 * 10 }] }]]) {
      const text = JSON.stringify(value);
      for (let i = 0; i < 3; i++) assert.deepEqual(guard.checkOutput(text, validator), coreCheckOutput(text, validator), text.slice(0, 80));
      for (const interpret of EXECUTORS) {
        let got;
        try {
          got = runCheckProgram(validator, JSON.parse(text), interpret);
        } catch (error) {
          // A stack that ran out: the text path leaves the value to the core (see `programVerdict`).
          if (!(error instanceof RangeError)) throw error;
          continue;
        }
        if (got !== "bail" && got !== undefined) assert.equal(got, coreCheckOutput(text, validator).ok, `${executorName(interpret)}: ${text.slice(0, 80)}`);
      }
    }
  });
});

describe("a number past the double range under multipleOf is the core's to judge", () => {
  // JSON.parse makes 1e400 Infinity, which no multipleOf rule can read.
  for (const divisor of [0.25, 0.1, 3]) {
    test(`multipleOf ${divisor}`, () => {
      const validator = guard.compileSchema({ type: "object", properties: { n: { type: "number", multipleOf: divisor } } });
      for (const text of ['{"n":1e400}', '{"n":-1e400}', '{"n":[1e400]}']) {
        assert.deepEqual(guard.checkOutput(text, validator), coreCheckOutput(text, validator), text);
      }
      // Either executor leaves it to the core (false or "bail"), and throws nothing else.
      for (const interpret of EXECUTORS) {
        for (const n of [Infinity, -Infinity]) assert.notEqual(runCheckProgram(validator, { n }, interpret), true);
      }
    });
  }
});

describe("multipleOf and the formats checked in JavaScript decide as the core does", () => {
  test("multipleOf, on seeded numbers and divisors", () => {
    const next = rng(4646);
    const divisors = [0.25, 0.5, 0.125, 0.01, 0.1, 0.3, 1e-5, 7.5, 3, 1, 2 ** 53, 0.0001, 1.1, 1e-308];
    let compared = 0;
    for (const m of divisors) {
      const validator = guard.compileSchema({ multipleOf: m });
      for (let i = 0; i < 400; i++) {
        const pick = next();
        let v;
        if (pick < 0.3) v = Math.round(next() * 1e6) * m;
        else if (pick < 0.5) v = Math.round(next() * 1e4) / 100;
        else if (pick < 0.6) v = (next() - 0.5) * 10 ** Math.floor(next() * 40 - 10);
        else if (pick < 0.7) v = Math.round((next() - 0.5) * 2 ** 60);
        else if (pick < 0.8) v = Number((next() * 1000).toFixed(Math.floor(next() * 6)));
        else v = Math.round(next() * 1000) * 0.25 + [0, 0.1, 1e-9][Math.floor(next() * 3)];
        const expected = core(validator, v);
        for (const interpret of EXECUTORS) {
          const got = runCheckProgram(validator, v, interpret);
          if (got === "bail") continue;
          compared += 1;
          assert.equal(got, expected, `${v} multipleOf ${m}`);
        }
      }
    }
    assert.ok(compared > 8000, `${compared} compared`);
  });

  test("multipleOf by a decimal fraction, on seeded doubles at, beside and between its multiples", () => {
    // The shortcut for decimal divisors (10^k times the value, rounded)
    // must give the core's answer wherever it answers: on the decimals of k
    // places and their neighbouring doubles, at every magnitude up to where
    // it stops (2^50 / 10^k) and past it, for divisors of few and many digits.
    const next = rng(4647);
    const divisors = [0.01, 0.05, 0.02, 0.1, 0.3, 0.001, 0.07, 2.675, 19.99, 123.456, 1e-7, 1.5e-10, 0.0001, 1e-15, 3.3333333333333335, 1.25e-22, 0.123456789012345];
    const view = new DataView(new ArrayBuffer(8));
    const beside = (x, step) => {
      view.setFloat64(0, x);
      view.setBigInt64(0, view.getBigInt64(0) + BigInt(step));
      return view.getFloat64(0);
    };
    let compared = 0;
    for (const m of divisors) {
      const validator = guard.compileSchema({ multipleOf: m });
      const decimals = Math.max(0, -Math.floor(Math.log10(m)) + 16);
      const scale = 10 ** Math.min(22, String(m).includes("e") ? decimals : String(m).split(".")[1].length);
      for (let i = 0; i < 600; i++) {
        const pick = next();
        const top = 2 ** (1 + next.below(53));
        const whole = Math.floor(next() * top) * (next() < 0.5 ? -1 : 1);
        let v;
        if (pick < 0.25) v = whole / scale;
        else if (pick < 0.45) v = whole * m;
        else if (pick < 0.55) v = (whole * Math.round(m * scale)) / scale;
        else if (pick < 0.7) v = beside(whole / scale, next() < 0.5 ? 1 : -1);
        else if (pick < 0.8) v = (2 ** 50 + next.below(64) - 32) / scale;
        else if (pick < 0.9) v = Number((next() * top).toFixed(next.below(Math.min(20, decimals + 3))));
        else v = (next() - 0.5) * 10 ** (next.below(60) - 30);
        if (!Number.isFinite(v) || Object.is(v, -0)) continue;
        const expected = core(validator, v);
        for (const interpret of EXECUTORS) {
          const got = runCheckProgram(validator, v, interpret);
          if (got === "bail") continue;
          compared += 1;
          assert.equal(got, expected, `${v} multipleOf ${m}`);
        }
      }
    }
    assert.ok(compared > 15000, `${compared} compared`);
  });

  test("the formats checked in JavaScript leave nothing to the core, and a plain host name or address only what is not plain", () => {
    for (const format of ["duration", "json-pointer", "relative-json-pointer", "uri-template"]) {
      const spec = JSON.parse(checkProgramText(guard.compileSchema({ type: "string", format })));
      assert.deepEqual(spec.strings, [], format);
    }
    for (const [format, op] of [["hostname", "hostname"], ["idn-hostname", "hostname"], ["email", "email"], ["idn-email", "email"]]) {
      const spec = JSON.parse(checkProgramText(guard.compileSchema({ type: "string", format })));
      assert.equal(spec.nodes[0].at(-1)[0], op, format);
    }
  });

  const samples = {
    date: ["2026-02-28", "2024-02-29", "2023-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "0000-01-01", "2026-1-01", "2026-01-01T"],
    time: ["12:34:56Z", "23:59:60Z", "22:59:60Z", "23:59:60+00:00", "00:59:60+01:00", "12:34:56.789z", "12:34:56.Z", "12:34:56+05:30", "12:34:56+24:00", "12:34:56", "1:34:56Z"],
    "date-time": ["2026-01-02T03:04:05Z", "2026-01-02t03:04:05.5+01:00", "2026-01-02 03:04:05Z", "2026-02-30T03:04:05Z"],
    uuid: ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "123e4567-e89b-12d3-a456-42661417400g"],
    email: [
      "billing@acme-industrial.example.com",
      "a@b",
      "first.last+tag@sub.example.co",
      "x@xn--bcher-kva.example",
      "x@ab--cd.example",
      "x@ab-cd.example",
      ".a@b.c",
      "a.@b.c",
      "a..b@c.d",
      "a@-b.c",
      "a@b-.c",
      "a@b..c",
      "a@b.",
      "a@b@c",
      `${"l".repeat(64)}@b.c`,
      `${"l".repeat(65)}@b.c`,
      `a@${"d".repeat(63)}.c`,
      `a@${"d".repeat(64)}.c`,
      `a@${"abcdefghi.".repeat(25)}abc`,
      `a@${"abcdefghi.".repeat(25)}abcd`,
      `a@${"abcdefghi.".repeat(25)}abcde`,
      "\"quoted local\"@b.c",
      "a@[127.0.0.1]",
      "a@[IPv6:::1]",
      "John <a@b.c>",
      "é@b.c",
      "a@bé.c",
      "a b@c.d",
      "`{|}~!#$%&'*+-/=?^_@x.y",
    ],
    ipv4: ["192.168.0.1", "0.0.0.0", "255.255.255.255", "256.0.0.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1..2.3", " 1.2.3.4", "1.2.3.04", "0.0.0.00"],
    duration: ["P1D", "P3Y6M4DT12H30M5S", "PT1H", "PT1M", "PT36H", "P4W", "P1Y2W", "P1W1D", "P1WT1H", "P", "PT", "P1DT", "P1YD", "P1Y1D", "PT1H1S", "P1M1Y", "PT1S1M", "P1D1D", "P1.5D", "P-1D", "p1d", "PT1H1M1S", "P0D", "P12345678901234567890Y", "1D", "PD"],
    "json-pointer": ["", "/", "/a/b", "/a~0b/c~1d", "/a~", "/a~2", "a/b", "//", "/~01", "/é/😀", "#/a", "/a b", "~0"],
    "uri-template": ["/items/{id}", "http://example.com/{+path}/x{?q,lang:2}", "{var*}", "{a.b}", "{a..b}", "{.a}", "{%41b}", "{%4}", "{%zz}", "{a:0}", "{a:10000}", "{a:9999}", "{}", "{", "}", "a}b", "{a,}", "{a b}", "%41", "%4", "100%", "a b", "<x>", "é/{é}", "{é}", "{x}é", "'quoted'", "{=a}", "{|a}", "{a|b}", "^", "`", "\\", "{a*:3}"],
    "relative-json-pointer": ["0", "1", "10", "01", "0#", "1#", "0#a", "0/", "0/a~1b", "2/a/b", "1/a~", "-1", "", "#", "/a", "1a", "12#", "120/x", "0##"],
    hostname: [
      "example.com",
      "host1.Example.COM",
      "a",
      "a.b.c",
      "-a.com",
      "a-.com",
      "a..b",
      ".a",
      "a.",
      "ab--cd.example",
      "xn--bcher-kva.example",
      "xn--x.example",
      "a_b.com",
      "a b.com",
      "例子.测试",
      "bücher.example",
      `${"d".repeat(63)}.c`,
      `${"d".repeat(64)}.c`,
      `${"abcdefghi.".repeat(25)}abc`,
      `${"abcdefghi.".repeat(25)}abcd`,
      "1.2.3.4",
      "a-b-c",
    ],
  };
  // The names checked in JavaScript differ by draft in the core (hostname's
  // A-label rules from draft 7 on, idn-hostname's IDNA2008 check); each
  // draft and each name must give the core's answer.
  samples["idn-hostname"] = [...samples.hostname, "例子.测试", "例子。测试", "ÄÖÜ.example", "a\u200db.example", "xn--ls8h.example"];
  samples["idn-email"] = [...samples.email, "用户@例子.广告", "a@例子.广告", "é@b.c"];
  const draftsOf = { "uri-template": ["6", "7", "2020-12"], hostname: ["4", "6", "7", "2019-09", "2020-12"], "json-pointer": ["6", "7", "2020-12"], "relative-json-pointer": ["7", "2020-12"], "idn-hostname": ["7", "2020-12"], "idn-email": ["7", "2020-12"] };
  const alphabet = [..."0123456789-:.TtZz+ abcdefABCDEF/é😀@~#PYMWDHS_x。{}%*,?|"];
  for (const [format, examples] of Object.entries(samples)) {
    test(`format ${format}, on its examples and seeded strings made from them`, () => {
      const validators = (draftsOf[format] ?? ["2020-12"]).map((draft) => guard.compileSchema({ type: "string", format }, { draft }));
      const next = rng(format.length * 7919);
      const strings = [...examples];
      for (let i = 0; i < 3000; i++) {
        const base = examples[Math.floor(next() * examples.length)];
        const chars = [...base];
        const edits = 1 + Math.floor(next() * 3);
        for (let e = 0; e < edits; e++) {
          const at = Math.floor(next() * (chars.length + 1));
          const c = alphabet[Math.floor(next() * alphabet.length)];
          const kind = next();
          if (kind < 0.4) chars.splice(at, 1, c);
          else if (kind < 0.7) chars.splice(at, 0, c);
          else chars.splice(at, 1);
        }
        strings.push(chars.join(""));
      }
      for (const validator of validators) {
        for (const s of strings) {
          const expected = core(validator, s);
          for (const interpret of EXECUTORS) assert.equal(runCheckProgram(validator, s, interpret), expected, `${format}: ${JSON.stringify(s)}`);
        }
      }
    });
  }
});

describe("patterns matched in JavaScript as the core's sequences decide as the core does", () => {
  /** Every `pattern` of the real-world corpus, and of a few shapes of our own. */
  function patterns() {
    const found = new Set([
      "^[A-Z]{3}-[0-9]{4}$",
      "^INV-[0-9]{6}$",
      "^#[0-9a-fA-F]{6}$",
      "^a?b*c$",
      "^[a-z]+",
      "^[^\\n\\r]+$",
      "^.{2,5}$",
      "^\\d{3}-\\d{4}$",
      "^[A-Za-z0-9+/]{4}[A-Za-z0-9._-]*$",
      "^[a-z]{1,2}x?y*$",
      "^$",
      "^.*$",
    ]);
    const walk = (node) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === "object") {
        if (typeof node.pattern === "string") found.add(node.pattern);
        Object.values(node).forEach(walk);
      }
    };
    for (const testCase of loadCases({ every: 1 })) walk(testCase.schema);
    return [...found];
  }

  test("on strings made from each pattern's own characters", () => {
    const next = rng(3046);
    let sequences = 0;
    let compared = 0;
    for (const pattern of patterns()) {
      let validator;
      try {
        validator = guard.compileSchema({ type: "string", pattern });
      } catch {
        continue;
      }
      const spec = programText(validator);
      if (!/\["pattern",\d+,/.test(spec)) continue;
      sequences += 1;
      // Characters the pattern names, and a few others.
      const alphabet = [...new Set([...pattern.replace(/[\\^$[\]{}()*+?|]/g, ""), "a", "Z", "0", "-", " ", "é", "\n"])];
      for (let i = 0; i < 60; i++) {
        const length = Math.floor(next() * 12);
        let s = "";
        for (let k = 0; k < length; k++) s += alphabet[Math.floor(next() * alphabet.length)];
        const expected = core(validator, s);
        for (const interpret of EXECUTORS) {
          const got = runCheckProgram(validator, s, interpret);
          if (got === "bail") continue;
          compared += 1;
          assert.equal(got, expected, `${JSON.stringify(pattern)} on ${JSON.stringify(s)}`);
        }
      }
    }
    assert.ok(sequences > 20, `${sequences} patterns are sequences`);
    assert.ok(compared > 2000, `${compared} compared`);
  });
});

describe("options that leave the work unchanged keep the program's path, with the core's verdicts", { timeout: 120000 }, () => {
  // The defaults spelled out, and options the program honours (maxErrors
  // only shapes a rejection; requireObject the program's path takes).
  const optionSets = [{ maxErrors: 5, requireObject: true, formats: "assert" }, { maxErrors: 5 }, { maxErrors: 0 }, { maxErrors: 20 }, { requireObject: true }, { requireObject: false }, { rules: [] }, { onInvalidSchema: "throw" }];
  const draft = DRAFTS.at(-1);
  test(`every instance of the JSON Schema Test Suite, ${draft.dir}, as text, under each option set`, () => {
    let programAnswers = 0;
    for (const { group, validator } of compiledGroups(guard.compileSchema, draft, root, resources)) {
      if (!checksWithProgram(validator)) continue;
      for (const item of group.tests) {
        const text = JSON.stringify(item.data);
        // What the call without options costs the core: none of its calls where the program accepts.
        const bare = coreChecks(() => guard.checkOutput(text, validator));
        for (const options of optionSets) {
          let ours;
          const calls = coreChecks(() => {
            ours = guard.checkOutput(text, validator, options);
          });
          const where = `${item.id} with ${JSON.stringify(options)}`;
          assert.deepEqual(ours, coreCheckOutput(text, validator, options), where);
          if (ours.ok && bare === 0 && (options.requireObject !== false || typeof item.data === "object")) {
            assert.equal(calls, 0, `${where}: the program's path, as without options`);
            programAnswers += 1;
          }
        }
      }
    }
    assert.ok(programAnswers > 100, `${programAnswers} accepted by the program with options`);
  });
});

/** The core calls a text's check can make. */
const CORE_CHECKS = ["checkInputLane", "checkOutputWith", "checkOutput"];

/** How many calls of the core `fn` made among CORE_CHECKS. */
function coreChecks(fn) {
  return Object.values(coreCalls(CORE_CHECKS, fn)).reduce((a, b) => a + b, 0);
}

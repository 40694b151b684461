// The value path (`isValid`, `validate`) checks a caller's value where it
// lies when the schema's check program reads every location of it once by
// construction (see `inPlacePlan` in js/check-program.mjs), and answers
// anything else by the copy it reads the value into: a getter runs once per
// check, a Proxy answering differently on each read cannot make a value
// pass that no single read of it would, and every answer given in place is
// the copy path's, through each executor (the written function, the
// interpreter and the closures) and the public calls, over the JSON Schema
// Test Suite and seeded values made from it, JSON or not.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { checksWithProgram, coreIsValid, readOnceCopy, runCheckProgram, runInPlace } from "../../../pkg/testing.mjs";
import { DRAFTS, compiledGroups, loadRemotes, suiteRoot } from "../../conformance/suite.mjs";
import { prng as rng } from "../../support/random.mjs";

/** The executors, as `runCheckProgram` names them: written, interpreted, closures. */
const EXECUTORS = [false, true, "closures"];
const executorName = (how) => (how === "closures" ? "closures" : how ? "interpreted" : "written");

/** A compiled schema whose check program is made. */
function programmed(schema) {
  const validator = guard.compileSchema(schema);
  assert.equal(checksWithProgram(validator), true, "the schema has a check program");
  return validator;
}

/** An object whose member `name` is a getter answering `value`, and the count of its reads. */
function counted(base, name, value) {
  const reads = { n: 0 };
  const object = { ...base };
  Object.defineProperty(object, name, {
    get() {
      reads.n += 1;
      return value;
    },
    enumerable: true,
    configurable: true,
  });
  return [object, reads];
}

/** What each public call of the value path answers for `value`. */
function calls(validator, value) {
  return {
    isValid: () => validator.isValid(value),
    validate: () => validator.validate(value).valid,
    standard: () => validator["~standard"].validate(value).issues === undefined,
  };
}

describe("a value checked in place is read once", () => {
  // Schemas in which one object's members are read by several subschemas, or by several keywords of one.
  const SHARED = [
    { type: "object", required: ["a"], properties: { a: { type: "string" } } },
    { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
    { allOf: [{ properties: { a: { type: "string" } } }, { required: ["a"] }] },
    { anyOf: [{ properties: { a: { type: "string" } } }, { properties: { a: { type: "number" } } }] },
    { $ref: "#/$defs/x", $defs: { x: { type: "object", required: ["a"], properties: { a: { type: "string" }, b: { type: "number" } } } } },
    { allOf: [{ $ref: "#/$defs/x" }, { $ref: "#/$defs/x" }], $defs: { x: { properties: { a: { type: "string" } }, required: ["a"] } } },
    { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
    { type: "object", required: ["a"], properties: { b: { type: "number" } } },
    { type: "object", required: ["a"] },
    { type: "object", properties: { list: { type: "array", minItems: 1, items: { type: "object", required: ["a"], properties: { a: { type: "string" } } } } } },
  ];

  test("a getter on a checked member runs exactly once per isValid, validate and ~standard.validate", () => {
    for (const schema of SHARED) {
      const validator = programmed(schema);
      for (const [name, call] of Object.entries(calls(validator, null))) {
        void call;
        const nested = schema.properties?.list !== undefined;
        const [inner, reads] = counted({}, "a", "text");
        const value = nested ? { list: [inner] } : inner;
        assert.equal(calls(validator, value)[name](), true, `${name}: ${JSON.stringify(schema)}`);
        assert.equal(reads.n, 1, `${name} read the getter ${reads.n} times: ${JSON.stringify(schema)}`);
      }
      // Through each executor in place, too (the public calls run the closures first, the written function later).
      for (const how of EXECUTORS) {
        const [inner, reads] = counted({}, "a", "text");
        const value = schema.properties?.list !== undefined ? { list: [inner] } : inner;
        const answer = runInPlace(validator, value, how);
        assert.ok(reads.n <= 1, `${executorName(how)} in place read the getter ${reads.n} times: ${JSON.stringify(schema)}`);
        assert.ok(answer === "none" || (answer === true && reads.n === 1), `${executorName(how)}: ${answer}`);
      }
    }
  });

  test("a member only required names is JSON where it is read: not JSON, the copy path says so", () => {
    const validator = programmed({ type: "object", required: ["a"] });
    assert.equal(validator.isValid({ a: { b: [1] } }), true);
    assert.throws(() => validator.isValid({ a: NaN }), { code: "invalid_argument", message: /NaN is not a JSON value \(at \/a\)/ });
    const self = { a: null };
    self.a = self;
    assert.throws(() => validator.isValid(self), { code: "invalid_argument", message: /contains itself/ });
    for (const how of EXECUTORS) assert.equal(runInPlace(validator, { a: 10n }, how), "copy", executorName(how));
  });

  test("an array's getter item and its length are read once", () => {
    const validator = programmed({ type: "array", minItems: 1, maxItems: 3, items: { type: "string" } });
    for (const how of [...EXECUTORS, "public"]) {
      const list = ["x", "y"];
      let reads = 0;
      Object.defineProperty(list, 1, {
        get() {
          reads += 1;
          return "y";
        },
        enumerable: true,
      });
      const answer = how === "public" ? validator.isValid(list) : runInPlace(validator, list, how);
      assert.equal(answer, true, `${how}`);
      assert.equal(reads, 1, `${how}: ${reads} reads`);
    }
  });

  test("a Proxy answering differently on each read cannot make a value pass that no single read would", () => {
    // A member present on its first read and absent after: `required` sees
    // it, `properties` would not check it; read once, it is a string where
    // a number is required, or absent where it is required.
    const member = () => {
      let reads = 0;
      return new Proxy({ a: "text" }, {
        get(target, key) {
          if (key !== "a") return Reflect.get(target, key);
          reads += 1;
          return reads === 1 ? "text" : undefined;
        },
      });
    };
    const object = programmed({ type: "object", required: ["a"], properties: { a: { type: "number" } } });
    // A length that is 3 on its first read and 0 after: `minItems` sees
    // three items, `items` would check none; read once, either is refused.
    const list = () => {
      let reads = 0;
      return new Proxy(["a", "b", "c"], {
        get(target, key) {
          if (key !== "length") return Reflect.get(target, key);
          reads += 1;
          return reads === 1 ? 3 : 0;
        },
      });
    };
    const array = programmed({ type: "array", minItems: 2, items: { type: "number" } });
    // The same, the length read by two subschemas.
    const shared = programmed({ type: "array", allOf: [{ minItems: 2 }], items: { type: "number" } });
    for (const [validator, make] of [[object, member], [array, list], [shared, list]]) {
      for (const how of EXECUTORS) assert.notEqual(runInPlace(validator, make(), how), true, executorName(how));
      for (const [name, call] of Object.entries(calls(validator, null))) {
        void call;
        let answer;
        try {
          answer = calls(validator, make())[name]();
        } catch (error) {
          answer = error.code;
        }
        assert.notEqual(answer, true, name);
      }
    }
  });
});

/** Values that are not JSON, or read through getters and Proxies, put into `value` at random. */
function hostile(next) {
  const self = {};
  self.self = self;
  const pick = Math.floor(next() * 12);
  return [
    NaN,
    Infinity,
    10n,
    undefined,
    () => 1,
    Symbol("s"),
    new Date(0),
    new Map(),
    { toJSON: () => 1 },
    self,
    new Proxy({ a: 1 }, {}),
    Object.defineProperty({}, "a", { get: () => 1, enumerable: true }),
  ][pick];
}

/** `value` changed at random: a member or an item replaced, added or removed, JSON or not. */
function mutate(value, next, depth = 0) {
  const r = next();
  if (value === null || typeof value !== "object" || depth > 5) return r < 0.3 ? hostile(next) : value;
  if (Array.isArray(value)) {
    const out = value.map((item) => (next() < 0.3 ? mutate(item, next, depth + 1) : item));
    if (r < 0.15) out.push(hostile(next));
    if (r > 0.9) out.length += 1;
    return out;
  }
  const out = {};
  for (const [key, item] of Object.entries(value)) out[key] = next() < 0.3 ? mutate(item, next, depth + 1) : item;
  if (r < 0.2) out[["foo", "a", "bar"][Math.floor(next() * 3)]] = hostile(next);
  return out;
}

/** The copy path's answer: the program on the copy, or what the core says of its JSON text; "throws" where the copy cannot be made. */
function copyAnswer(validator, value, how) {
  try {
    readOnceCopy(validator, value);
  } catch {
    return "throws";
  }
  const got = runCheckProgram(validator, value, how, true);
  if (got === true || got === false) return got;
  try {
    return coreIsValid(validator, JSON.stringify(value));
  } catch {
    return "throws";
  }
}

describe("in place, the answer is the copy path's", { timeout: 240000 }, () => {
  const root = suiteRoot();
  const resources = loadRemotes(root);
  for (const draft of DRAFTS) {
    test(`every instance of the JSON Schema Test Suite, ${draft.dir}, and seeded values made from them, JSON or not`, () => {
      const next = rng(4653);
      const counts = { inPlace: 0, copy: 0, schemas: 0, planned: 0 };
      for (const { group, validator } of compiledGroups(guard.compileSchema, draft, root, resources)) {
        if (runInPlace(validator, null) === undefined) continue;
        counts.schemas += 1;
        if (runInPlace(validator, null) !== "none") counts.planned += 1;
        for (const item of group.tests) {
          const values = [item.data];
          for (let i = 0; i < 3; i++) values.push(mutate(item.data, next));
          for (const value of values) {
            for (const how of EXECUTORS) {
              const answer = runInPlace(validator, value, how);
              if (answer !== true) {
                counts.copy += 1;
                continue;
              }
              counts.inPlace += 1;
              assert.equal(copyAnswer(validator, value, how), true, `${item.id} (${executorName(how)}): accepted in place, not by the copy path`);
            }
            // The public calls: what they accept, the copy path accepts;
            // what they refuse, they refuse alike, as a typed error where
            // the value is not JSON.
            let publicAnswer;
            try {
              publicAnswer = validator.isValid(value);
            } catch (error) {
              assert.equal(error.code, "invalid_argument", `${item.id}: ${error}`);
              publicAnswer = "throws";
            }
            if (publicAnswer === true) assert.equal(copyAnswer(validator, value, false), true, `${item.id}: isValid`);
            let validated;
            try {
              validated = validator.validate(value).valid;
            } catch (error) {
              assert.equal(error.code, "invalid_argument", `${item.id}: ${error}`);
              validated = "throws";
            }
            assert.equal(validated, publicAnswer, `${item.id}: validate`);
          }
        }
      }
      console.log(`${draft.dir}: ${counts.planned} of ${counts.schemas} programs read values in place; ${counts.inPlace} runs accepted in place, ${counts.copy} left to the copy`);
      assert.ok(counts.planned > counts.schemas / 4, `${counts.planned} of ${counts.schemas}`);
      assert.ok(counts.inPlace > 1000, `${counts.inPlace} accepted in place`);
    });
  }
});

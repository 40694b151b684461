// The value path (`isValid`, `validate`, `~standard.validate`) reads a
// caller's value along what the schema's check program reads: a member no
// subschema applies to is neither read inside nor copied, so a check costs
// what the schema reads, not the value's size; what it reads is read once
// and must be JSON; a value it rejects is read whole before the core judges
// it. Each Validator is checked a few times first, as its check program is
// made only after its first checks.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { checksWithProgram } from "../../../pkg/testing.mjs";

const ONE_MEMBER = { type: "object", required: ["id"], properties: { id: { type: "string" } } };

/** A compiled schema whose check program is made. */
function programmed(schema) {
  const validator = guard.compileSchema(schema);
  assert.equal(checksWithProgram(validator), true, "the schema has a check program");
  return validator;
}

/** `target` behind a Proxy that counts every trap, and the count. */
function watched(target) {
  const seen = { traps: 0 };
  const handler = {};
  for (const trap of ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"]) {
    handler[trap] = (...args) => {
      seen.traps += 1;
      return Reflect[trap](...args);
    };
  }
  return [new Proxy(target, handler), seen];
}

/** A list of records, as a large member a schema does not name often is. */
function records(n) {
  return Array.from({ length: n }, (_, i) => ({ seq: i, label: `record ${i}`, tags: ["a", String(i % 7)] }));
}

describe("the value path reads what the schema reads", () => {
  test("a member no subschema applies to is not read: the value handed back holds the caller's own", () => {
    const validator = programmed(ONE_MEMBER);
    const standard = validator["~standard"];
    for (const call of ["isValid", "validate", "standard"]) {
      const [list, seen] = watched(records(300));
      const value = { id: "doc-0042", records: list };
      const result = call === "isValid" ? validator.isValid(value) : call === "validate" ? validator.validate(value) : standard.validate(value);
      assert.equal(seen.traps, 0, `${call} read into a member the schema does not name`);
      if (call === "isValid") assert.equal(result, true);
      else if (call === "validate") assert.deepEqual(result, { valid: true, errors: [], moreErrors: false });
      else {
        assert.notEqual(result.value, value, "the object the schema reads is a copy");
        assert.equal(result.value.id, "doc-0042");
        assert.equal(result.value.records, list, "the member it does not read is the caller's own");
      }
    }
  });

  test("a member the schema does not read may hold what is not JSON when the value is accepted; rejected, the value is read whole", () => {
    const validator = programmed(ONE_MEMBER);
    const date = new Date(0);
    const accepted = validator["~standard"].validate({ id: "x", at: date });
    assert.equal(accepted.issues, undefined);
    assert.equal(accepted.value.at, date);
    assert.equal(validator.isValid({ id: "x", at: { when: new Map() } }), true);
    // Rejected: the core judges the whole value, so all of it must be JSON.
    assert.deepEqual(validator["~standard"].validate({ id: 5, at: date }), {
      issues: [{ message: "The value at /at cannot be read as JSON: a Date is not a JSON value.", path: ["at"] }],
    });
    assert.throws(() => validator.isValid({ id: 5, at: date }), { name: "TypeError", code: "invalid_argument", message: /a Date is not a JSON value \(at \/at\)/ });
    assert.throws(() => validator.validate({ id: 5, at: date }), { name: "TypeError", code: "invalid_argument", message: /a Date is not a JSON value \(at \/at\)/ });
    // A member keyed by a symbol is no JSON member: it comes along unchecked.
    const tag = Symbol("tag");
    assert.equal(validator["~standard"].validate({ id: "x", [tag]: date }).value[tag], date);
    // A member's own value is read, unlike what is inside it: not JSON there, it is an issue.
    assert.deepEqual(validator["~standard"].validate({ id: "x", n: NaN }), {
      issues: [{ message: "The value at /n cannot be read as JSON: the number NaN is not a JSON value.", path: ["n"] }],
    });
  });

  test("what a subschema applies to is read, to its depth: additionalProperties, an enum of objects, array items", () => {
    const cases = [
      { type: "object", properties: { id: { type: "string" } }, additionalProperties: { type: "array" } },
      { type: "object", properties: { id: { type: "string" } }, enum: [{ id: "x", records: [] }, { id: "y" }] },
      { type: "object", properties: { id: { type: "string" }, records: { type: "array" } } },
      { type: "object", properties: { id: { type: "string" } }, allOf: [{ properties: { records: { maxItems: 1000 } } }] },
      { type: "object", $ref: "#/$defs/r", $defs: { r: { properties: { records: {} } } } },
    ];
    for (const schema of cases) {
      const validator = programmed(schema);
      const [list, seen] = watched(records(3));
      validator.isValid({ id: "x", records: list });
      assert.ok(seen.traps > 0, `${JSON.stringify(schema)}: the member a subschema applies to is read`);
      assert.throws(() => validator.isValid({ id: "x", records: [1, new Set()] }), { code: "invalid_argument", message: /a Set is not a JSON value \(at \/records\/1\)/ }, JSON.stringify(schema));
    }
  });

  test("the depth limit counts what is read: deep nesting in an unread member is accepted at once; along what the schema reads, an issue", () => {
    let deep = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const validator = programmed(ONE_MEMBER);
    const started = performance.now();
    assert.equal(validator.isValid({ id: "x", deep }), true);
    assert.ok(performance.now() - started < 50, "an unread member is not walked");
    // A member that is one of the objects it is in is a cycle all the same.
    const selfish = { id: "x" };
    selfish.self = selfish;
    assert.throws(() => validator.isValid(selfish), { code: "invalid_argument", message: /contains itself/ });
    const nested = programmed({ $ref: "#/$defs/n", $defs: { n: { type: "object", properties: { a: { $ref: "#/$defs/n" } } } } });
    let tooDeep = {};
    for (let i = 0; i < 200; i++) tooDeep = { a: tooDeep };
    assert.deepEqual(nested["~standard"].validate(tooDeep).issues.map((issue) => issue.message.replace(/ at .*? cannot/, " cannot")), [
      "The value cannot be read as JSON: it nests deeper than 127 levels.",
    ]);
    const cyclic = { a: {} };
    cyclic.a.a = cyclic;
    assert.throws(() => nested.isValid(cyclic), { code: "invalid_argument", message: /contains itself/ });
  });
});

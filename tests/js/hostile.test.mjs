// Hostile schemas and instances: each gets a verdict or a typed error, never
// a trap, and the module keeps working afterwards.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../pkg/node.mjs";
import { thrown } from "./fixtures.mjs";

function nested(depth, leaf, wrap) {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

function stillWorks() {
  const verdict = guard.checkOutput('{"a":"x"}', { type: "object", properties: { a: { type: "string" } } });
  assert.equal(verdict.ok, true);
}

function throwsTyped(fn, ErrorClass, code, pattern) {
  const caught = thrown(fn);
  assert.ok(caught instanceof ErrorClass, `expected ${ErrorClass.name}, got ${caught}`);
  assert.equal(caught.code, code);
  assert.match(caught.message, pattern);
}

describe("hostile input", { timeout: 20000 }, () => {
  test("a catastrophic pattern against 40 a's and a '!' fails cleanly", () => {
    const v = guard.compileSchema({ type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } });
    const result = v.validate({ s: `${"a".repeat(40)}!` });
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors.map((e) => [e.path, e.code]), [["/s", "pattern"]]);
    assert.equal(v.isValid({ s: "a".repeat(40) }), true);
    stillWorks();
  });

  test("$ref cycles compile and give verdicts", () => {
    for (const schema of [
      { $ref: "#" },
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } },
    ]) {
      const verdict = guard.checkOutput('{"x":1}', schema);
      assert.equal(verdict.ok, true);
    }
    const tree = { type: "object", required: ["name"], properties: { name: { type: "string" }, child: { $ref: "#" } } };
    const deep = nested(60, { name: 1 }, (inner) => ({ name: "n", child: inner }));
    const verdict = guard.checkOutput(JSON.stringify(deep), tree);
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.errors[0].path, `${"/child".repeat(60)}/name`);
    stillWorks();
  });

  test("a 1,000-level nested schema is a SchemaError that names the nesting", () => {
    const schema = nested(1000, { type: "string" }, (inner) => ({ type: "object", properties: { a: inner } }));
    throwsTyped(() => guard.compileSchema(schema), guard.SchemaError, "invalid_schema", /nests deeper than 128 levels/);
    const degraded = guard.checkOutput('{"a":1}', schema);
    assert.equal(degraded.ok, true);
    assert.equal(degraded.degraded, true);
    stillWorks();
  });

  test("a 100,000-level nested instance gives a verdict or a typed error", () => {
    const text = "[".repeat(100000) + "]".repeat(100000);
    const verdict = guard.checkOutput(text, { type: "array" }, { requireObject: false });
    assert.equal(verdict.failure, "unparseable");
    assert.match(verdict.message, /nests deeper than 128 levels/);
    const value = nested(100000, 1, (inner) => [inner]);
    const v = guard.compileSchema({ type: "array" });
    throwsTyped(() => v.validate(value), TypeError, "invalid_argument", /cannot be serialised/);
    stillWorks();
  });

  test("a schema that is not an object or a boolean is a SchemaError naming the problem", () => {
    throwsTyped(() => guard.compileSchema(42), guard.SchemaError, "invalid_schema", /must be an object or a boolean, not a number/);
    throwsTyped(() => guard.compileSchema("[1, 2]"), guard.SchemaError, "invalid_schema", /not an array/);
    throwsTyped(() => guard.compileSchema("{\"type\": "), guard.SchemaError, "invalid_schema", /not valid JSON/);
    throwsTyped(() => guard.compileSchema(undefined), guard.SchemaError, "invalid_schema", /schema is required/);
    throwsTyped(
      () => guard.compileSchema({ $ref: "https://schemas.example/a.json" }),
      guard.SchemaError,
      "invalid_schema",
      /remote references are not fetched/,
    );
    stillWorks();
  });
});

describe("the compiled-schema cache", () => {
  test("memory stays flat while compiling 10,000 distinct schemas", () => {
    guard.clearSchemaCache();
    const compileMany = (from, to) => {
      for (let i = from; i < to; i++) {
        const v = guard.compileSchema({ type: "object", properties: { [`field${i}`]: { type: "string", maxLength: i } } });
        v.free();
      }
    };
    compileMany(0, 2000);
    const warmed = guard.wasmMemoryBytes();
    compileMany(2000, 10000);
    const after = guard.wasmMemoryBytes();
    assert.ok(guard.schemaCacheSize() <= 128, `cache holds ${guard.schemaCacheSize()}`);
    assert.ok(after - warmed <= 1 << 20, `wasm memory grew by ${after - warmed} bytes after warm-up`);
    stillWorks();
  });

  test("capacity and clearing are honoured", () => {
    guard.setSchemaCacheCapacity(3);
    try {
      for (let i = 0; i < 10; i++) guard.compileSchema({ maxLength: i });
      assert.equal(guard.schemaCacheSize(), 3);
      guard.clearSchemaCache();
      assert.equal(guard.schemaCacheSize(), 0);
    } finally {
      guard.setSchemaCacheCapacity(128);
    }
  });
});

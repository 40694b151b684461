// The compiled-schema cache's bounds and identity: memory stays flat over
// many distinct schemas, capacity and clearing are honoured, and a schema
// is never answered with another schema's validator.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as guard from "../../../pkg/node.mjs";
import { HEX64 } from "../../support/fixtures.mjs";

function stillAccepts() {
  const verdict = guard.checkOutput('{"a":"x"}', { type: "object", properties: { a: { type: "string" } } });
  assert.equal(verdict.ok, true);
}

describe("the compiled-schema cache", () => {
  test("memory stays flat while compiling 10,000 distinct schemas", () => {
    // The cache is bounded by the memory its schemas hold (see
    // tests/js/checking/schema-cache.test.mjs for the default bound); here 1 MiB,
    // which the warm-up fills.
    guard.setSchemaCacheCapacity({ maxBytes: 1 << 20 });
    guard.clearSchemaCache();
    const compileMany = (from, to) => {
      for (let i = from; i < to; i++) {
        const v = guard.compileSchema({ type: "object", properties: { [`field${i}`]: { type: "string", maxLength: i } } });
        v.free();
      }
    };
    try {
      compileMany(0, 2000);
      const warmed = guard.wasmMemoryBytes();
      compileMany(2000, 10000);
      const after = guard.wasmMemoryBytes();
      assert.ok(guard.schemaCacheSize() < 2000, `cache holds ${guard.schemaCacheSize()}`);
      assert.ok(after - warmed <= 1 << 20, `wasm memory grew by ${after - warmed} bytes after warm-up`);
    } finally {
      guard.setSchemaCacheCapacity({ maxBytes: 32 << 20 });
    }
    stillAccepts();
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

describe("the cache never hands out another schema's validator", () => {
  test("schemaHash is the SHA-256 of the schema's canonical text, whatever the key order", () => {
    const a = guard.compileSchema({ type: "object", required: ["a"], properties: { a: { enum: [1, 2] } } });
    const b = guard.compileSchema('{"properties":{"a":{"enum":[1,2]}},"required":["a"],"type":"object"}');
    const canonical = '{"properties":{"a":{"enum":[1,2]}},"required":["a"],"type":"object"}';
    assert.match(a.schemaHash, HEX64);
    assert.equal(a.schemaHash, createHash("sha256").update(canonical).digest("hex"));
    assert.equal(b.schemaHash, a.schemaHash);
  });

  test("3 KB enum schemas that differ in one member each accept only their own value", () => {
    const members = Array.from({ length: 300 }, (_, i) => `member-${i}`);
    const a = { enum: [...members, "only-in-a"] };
    const b = { enum: [...members, "only-in-b"] };
    assert.equal(guard.checkOutput('"only-in-a"', a, { requireObject: false }).ok, true);
    assert.equal(guard.checkOutput('"only-in-a"', b, { requireObject: false }).failure, "schema");
    assert.equal(guard.checkOutput('"only-in-b"', b, { requireObject: false }).ok, true);
    assert.notEqual(guard.compileSchema(a).schemaHash, guard.compileSchema(b).schemaHash);
  });
});

// The compiled-schema cache holds an agent's working set: it is bounded by
// the memory its compiled schemas hold (the core weighs each as it compiles
// it), not by a count, so that a catalogue of a thousand real tool schemas
// (tests/corpus/tool-calls) stays compiled; a count bounds it instead when
// a caller gives one, and a memory bound of the caller's own keeps the
// schemas used last.
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { catalogue } from "../../corpus/tool-calls/corpus.mjs";

const { tools } = catalogue(1000);
const schemas = tools.map((tool) => tool.parameters);

/** Checks a call of every tool, as an agent's turns do. */
function useAll(list = schemas) {
  for (const schema of list) assert.equal(guard.checkOutput("{}", schema).degraded, false);
}

describe("the schema cache", () => {
  afterEach(() => {
    internals.defaultCacheBound();
    guard.clearSchemaCache();
  });

  test("holds a thousand tool schemas by default, each weighed by the memory it holds", () => {
    internals.defaultCacheBound();
    guard.clearSchemaCache();
    useAll();
    const state = internals.cacheState();
    assert.equal(guard.schemaCacheSize(), 1000, "every schema stays compiled");
    assert.equal(state.handles, 1000, "and found again by its object");
    assert.equal(state.defaultBytes, 32 * 1024 * 1024);
    // Each weighs what its compilation kept: more than its text, and far
    // less than the bound (about 4 KiB each; see docs/api.md).
    const perSchema = state.coreBytes / 1000;
    assert.ok(perSchema > 1000 && perSchema < 16 * 1024, `${perSchema} bytes a schema`);
    assert.ok(Math.abs(state.handleBytes - state.coreBytes) <= state.coreBytes / 100, "both lookups weigh them alike");
    // Used again, nothing is compiled again.
    const before = guard.schemaCacheSize();
    useAll(schemas.slice(0, 100));
    assert.equal(guard.schemaCacheSize(), before);
  });

  test("{ maxBytes } bounds it by memory, keeping the schemas used last", () => {
    guard.clearSchemaCache();
    guard.setSchemaCacheCapacity({ maxBytes: 400_000 });
    useAll();
    const state = internals.cacheState();
    assert.ok(state.coreBytes <= 400_000, `${state.coreBytes}`);
    assert.ok(state.handleBytes <= 400_000, `${state.handleBytes}`);
    assert.ok(guard.schemaCacheSize() > 20 && guard.schemaCacheSize() < 1000, `${guard.schemaCacheSize()}`);
    assert.ok(state.handles > 20 && state.handles < 1000, `${state.handles}`);
    // The last schema used is still compiled: checking it again compiles nothing.
    const kept = internals.cacheState();
    useAll(schemas.slice(-1));
    assert.deepEqual(internals.cacheState(), kept);
    // JSON text schemas are bounded alike, by their length.
    guard.setSchemaCacheCapacity({ maxBytes: 20_000 });
    for (const schema of schemas) guard.checkOutput("{}", JSON.stringify(schema));
    assert.ok(internals.cacheState().textChars <= 20_000);
  });

  test("a count given by setSchemaCacheCapacity(n) bounds it instead", () => {
    guard.clearSchemaCache();
    guard.setSchemaCacheCapacity(5);
    useAll(schemas.slice(0, 50));
    assert.equal(guard.schemaCacheSize(), 5);
    assert.equal(internals.cacheState().handles, 5);
    guard.setSchemaCacheCapacity({ maxBytes: 32 * 1024 * 1024 });
    useAll(schemas.slice(0, 50));
    assert.equal(guard.schemaCacheSize(), 50);
  });

  test("a bound that is neither a count nor { maxBytes } is a TypeError", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, "3", null, undefined, [], {}, { maxBytes: 0 }, { maxBytes: 2 ** 32 }, { maxBytes: "1" }]) {
      assert.throws(() => guard.setSchemaCacheCapacity(bad), (error) => error instanceof TypeError && error.code === "invalid_argument" && /capacity/.test(error.message), String(bad));
    }
  });
});

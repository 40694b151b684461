// A trap (a panic aborts, and an abort is a trap) must not poison the
// module: the next call runs on a fresh instance. Proved with a copy of the
// package built with the deliberately trapping `debugTrap` export
// (scripts/build-trap.sh), which the package itself never has.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { thrown } from "../../support/fixtures.mjs";

const trapPkg = new URL("../../../target/trap-pkg/", import.meta.url);
if (!existsSync(new URL("node.mjs", trapPkg))) {
  throw new Error("target/trap-pkg is missing: run scripts/build-trap.sh (scripts/test.sh does)");
}
const guard = await import(new URL("node.mjs", trapPkg).href);
const internals = await import(new URL("testing.mjs", trapPkg).href);

const SCHEMA = {
  type: "object",
  required: ["city"],
  properties: { city: { type: "string", minLength: 2 }, when: { type: "string", format: "date" } },
};

function trap() {
  const error = thrown(() => internals.callRaw(() => internals.rawGlue().debugTrap()));
  assert.ok(error instanceof Error, "debugTrap must throw an Error");
  assert.equal(error.code, "internal");
  assert.ok(error.cause instanceof WebAssembly.RuntimeError, String(error.cause));
  return error;
}

describe("trap recovery", () => {
  test("the next call after a trap works, on a fresh instance", () => {
    const before = internals.trapCount();
    assert.equal(guard.checkOutput('{"city":"Oslo"}', SCHEMA).ok, true);
    const error = trap();
    assert.match(error.message, /re-instantiated/);
    assert.equal(internals.trapCount(), before + 1);
    const verdict = guard.checkOutput('{"city":"O"}', SCHEMA);
    assert.equal(verdict.ok, false);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/city", "minLength"]]);
  });

  test("Validators compiled before the trap keep working (recompiled from their source)", () => {
    const validator = guard.compileSchema(SCHEMA);
    const hash = validator.schemaHash;
    assert.equal(validator.isValid({ city: "Rome" }), true);
    trap();
    assert.equal(validator.isValid({ city: "Rome" }), true);
    assert.equal(validator.isValid({ city: "R" }), false);
    assert.equal(validator.validate({ city: "Rome", when: "2026-02-30" }).errors[0].code, "format");
    // The fast lane and the general path both take it.
    assert.equal(guard.checkOutput('{"city":"Rome"}', validator).ok, true);
    assert.equal(guard.checkOutput('{"city":"Rome"}', validator, { requireObject: true }).ok, true);
    assert.equal(guard.compileSchema(SCHEMA).schemaHash, hash);
    validator.free();
    assert.throws(() => validator.isValid({}), /freed/);
  });

  test("a response object's remembered read still answers on the fresh instance", () => {
    // The facade remembers the core's reads of response copies; after a
    // trap they are checked by the new instance, into its own memory.
    const validator = guard.compileSchema(SCHEMA);
    const response = (content, reason) => ({ object: "chat.completion", choices: [{ message: { content }, finish_reason: reason }] });
    assert.equal(guard.checkOutput(response('{"city":"Oslo"}', "stop"), validator).ok, true);
    assert.equal(guard.checkOutput(response('{"city":"Oslo"}', "stop"), validator).ok, true);
    trap();
    const accepted = guard.checkOutput(response('{"city":"Lima"}', "stop"), validator);
    assert.deepEqual([accepted.ok, accepted.value, accepted.finishReason], [true, { city: "Lima" }, "stop"]);
    const failed = guard.checkOutput(response('{"city":"L"}', "stop"), validator);
    assert.deepEqual([failed.failure, failed.finishReason, failed.errors[0].code], ["schema", "stop", "minLength"]);
    assert.equal(guard.checkOutput(response('{"city":"Li', "length"), validator).failure, "truncated");
  });

  test("a stream check begun before a trap says it was lost; a new one works", () => {
    const text = '{"city":"Oslo","when":"2026-01-01"}';
    const lost = guard.createStreamCheck(SCHEMA);
    lost.push(text.slice(0, 10));
    trap();
    for (const call of [() => lost.push(text.slice(10)), () => lost.end()]) {
      const error = thrown(call);
      assert.equal(error.code, "internal");
      assert.match(error.message, /lost/);
    }
    const fresh = guard.createStreamCheck(SCHEMA);
    fresh.push(text);
    assert.deepEqual(fresh.end(), guard.checkOutput(text, SCHEMA));
  });

  test("a stream check fed a character at a time says it was lost after a trap, by its next crossing at the latest", () => {
    const text = `{"city":"Oslo","notes":"${"x".repeat(300)}"}`;
    const lost = guard.createStreamCheck(SCHEMA);
    // Short pieces from the start, so that those after the trap are gathered too.
    for (const c of text.slice(0, 10)) lost.push(c);
    trap();
    let error;
    let pushed = 10;
    for (; pushed < text.length && error === undefined; pushed++) {
      try {
        lost.push(text[pushed]);
      } catch (e) {
        error = e;
      }
    }
    assert.equal(error?.code, "internal", "a push that crosses says so");
    assert.match(error.message, /lost/);
    assert.ok(pushed < 10 + 300, `within a batch of the trap (at ${pushed})`);
    assert.equal(thrown(() => lost.end()).code, "internal");
    // The new instance's memory was not written through the lost check.
    const fresh = guard.createStreamCheck(SCHEMA);
    for (const c of text) fresh.push(c);
    assert.deepEqual(fresh.end("stop"), guard.checkOutput({ content: text, finishReason: "stop" }, SCHEMA));
  });

  test("several traps in a row, each followed by working calls", () => {
    for (let i = 0; i < 5; i++) {
      trap();
      assert.equal(guard.checkOutput(`{"city":"City ${i}"}`, SCHEMA).ok, true);
      assert.equal(guard.rescueJson('```json\n{"a":1}\n```').rescue, "code_fence");
    }
  });

  test("the schema cache capacity set before a trap holds after it", () => {
    guard.setSchemaCacheCapacity(3);
    trap();
    for (let i = 0; i < 10; i++) guard.checkOutput("{}", { type: "object", title: `schema ${i}` });
    assert.equal(guard.schemaCacheSize(), 3);
    guard.setSchemaCacheCapacity(128);
  });

  test("a Validator freed before a trap stays freed, and free() after a trap is harmless", () => {
    const kept = guard.compileSchema(SCHEMA);
    const dropped = guard.compileSchema({ ...SCHEMA, title: "dropped" });
    dropped.free();
    trap();
    assert.throws(() => dropped.isValid({}), /freed/);
    kept.free();
    kept.free();
    assert.equal(guard.checkOutput('{"city":"Oslo"}', SCHEMA).ok, true);
  });

  test("a trap between two attempts stops the guarded call with a typed error, then calls work", async () => {
    let n = 0;
    const callModel = async () => {
      n += 1;
      if (n === 2) trap();
      return { content: n === 1 ? "not json" : '{"city":"Lima"}' };
    };
    let error;
    try {
      await guard.guardedCall({ messages: [] }, callModel, { schema: SCHEMA });
    } catch (e) {
      error = e;
    }
    assert.equal(n, 2, "the resample was made");
    assert.ok(error instanceof Error, "the call must not succeed on a session of the dead instance");
    assert.equal(error.code, "internal");
    assert.match(error.message, /re-instantiated/);
    // The session of the dead instance was let go, and the next call works.
    assert.equal(internals.liveSessions(), 0);
    const result = await guard.guardedCall({ messages: [] }, async () => ({ content: '{"city":"Lima"}' }), { schema: SCHEMA });
    assert.deepEqual(result.value, { city: "Lima" });
    assert.equal(internals.liveSessions(), 0);
  });

  test("a trap during the first attempt stops the call even when the response would pass", async () => {
    const validator = guard.compileSchema(SCHEMA);
    const respond = async () => ({ content: '{"city":"Lima"}', finishReason: "stop", usage: { input_tokens: 3, output_tokens: 2 } });
    // The usage's shape is read once, so the next first attempt may be answered by the lane alone.
    await guard.guardedCall({ messages: [] }, respond, { schema: validator }).catch(() => {});
    const error = await guard
      .guardedCall({ messages: [] }, async () => (trap(), respond()), { schema: SCHEMA })
      .then(() => undefined, (e) => e);
    assert.ok(error instanceof Error, "the call must not succeed on a session of the dead instance");
    assert.equal(error.code, "internal");
    assert.match(error.message, /re-instantiated/);
    assert.equal(internals.liveSessions(), 0);
  });

  test("guardedCall works after a trap", async () => {
    trap();
    const result = await guard.guardedCall({ messages: [] }, async () => ({ content: '{"city":"Lima"}' }), { schema: SCHEMA });
    assert.deepEqual(result.value, { city: "Lima" });
  });
});

describe("trap recovery where synchronous instantiation is refused", () => {
  test("calls ask to await ready(), which waits for an asynchronous re-instantiation", async () => {
    const { createGlue } = await import(new URL("wasm/guard.js", trapPkg).href);
    const current = internals.rawGlue();
    const module = current.module();
    const fresh = () => {
      const glue = createGlue();
      return { glue, exports: glue.initSync({ module }) };
    };
    // As in a browser with a module too large to instantiate on the main thread.
    const refused = () => {
      throw new RangeError("WebAssembly.Instance is disallowed on the main thread");
    };
    internals.markLoaded(current, current.exports(), refused, async () => fresh());
    try {
      const validator = guard.compileSchema(SCHEMA);
      trap();
      assert.throws(() => guard.checkOutput('{"city":"Oslo"}', SCHEMA), /await ready\(\)/);
      await guard.ready();
      assert.equal(guard.checkOutput('{"city":"Oslo"}', SCHEMA).ok, true);
      assert.equal(validator.isValid({ city: "O" }), false);
    } finally {
      const glue = internals.rawGlue();
      internals.markLoaded(glue, glue.exports(), fresh);
    }
    assert.equal(guard.checkOutput('{"city":"Oslo"}', SCHEMA).ok, true);
  });
});

describe("the package build has no trapping export", () => {
  test("pkg/wasm/guard_bg.wasm does not export debugTrap", () => {
    const bytes = readFileSync(new URL("../../../pkg/wasm/guard_bg.wasm", import.meta.url));
    const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
    assert.ok(names.includes("checkOutput"), names.join(", "));
    assert.ok(!names.some((n) => /trap/i.test(n)), names.join(", "));
    const trapBytes = readFileSync(new URL("wasm/guard_bg.wasm", trapPkg));
    const trapNames = WebAssembly.Module.exports(new WebAssembly.Module(trapBytes)).map((e) => e.name);
    assert.ok(trapNames.includes("debugTrap"), "the test build must have it, or this test proves nothing");
  });
});

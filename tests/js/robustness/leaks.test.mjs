// Long-running use must not leak. A wasm instance's memory only grows, so a
// leak shows as growth after a warm-up that never stops; each measurement
// runs in a fresh process of the current runtime (Node or Bun), where no
// earlier test has already grown the memory enough to hide a leak, and with
// garbage collection that can be forced. Budgets are stated next to each
// measurement, in bytes, against what a leak would cost.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { getEventListeners } from "node:events";
import * as guard from "../../../pkg/node.mjs";
import { liveSessions } from "../../../pkg/testing.mjs";

const PACKAGE_URL = new URL("../../../pkg/node.mjs", import.meta.url).href;
const IS_BUN = typeof globalThis.Bun !== "undefined";
const MiB = 1024 * 1024;

/**
 * Runs `measure(guard, gc, input)` — a self-contained async function, sent
 * as source — in a fresh process of this runtime, and returns what it
 * returns. `gc` forces a full collection (Node: --expose-gc, Bun: Bun.gc).
 */
function inFreshProcess(measure, input) {
  const code = `
    const guard = await import(${JSON.stringify(PACKAGE_URL)});
    const gc = typeof Bun !== "undefined" ? () => Bun.gc(true) : globalThis.gc;
    const result = await (${measure.toString()})(guard, gc, ${JSON.stringify(input)});
    console.log("RESULT " + JSON.stringify(result));
  `;
  const args = IS_BUN ? ["-e", code] : ["--expose-gc", "--input-type=module", "-e", code];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
      if (code !== 0 || !line) reject(new Error(`the measuring process exited with ${code}:\n${stderr}\n${stdout}`));
      else resolve(JSON.parse(line.slice("RESULT ".length)));
    });
  });
}

describe("wasm memory stays bounded", () => {
  test("50,000 checkOutput calls over 1,000 distinct schemas", { timeout: 60_000 }, async () => {
    const result = await inFreshProcess(async (guard, gc, { distinct, warmup, calls }) => {
      const schemas = Array.from({ length: distinct }, (_, i) => ({
        type: "object",
        required: ["id"],
        properties: { id: { type: "integer", maximum: i }, [`field${i}`]: { type: "string", maxLength: 1 + (i % 50) } },
      }));
      // The same schemas as JSON text and as response-format wrappers.
      const texts = schemas.map((s) => JSON.stringify(s));
      const wrappers = schemas.map((s, i) => ({ name: `s${i}`, strict: true, schema: s }));
      const run = (from, count) => {
        for (let k = from; k < from + count; k++) {
          const i = k % distinct;
          const schema = [schemas, texts, wrappers][k % 3][i];
          const kind = Math.floor(k / distinct) % 3;
          const output = kind === 0 ? `{"id":${i}}` : kind === 1 ? `{"id":${i + 1},"field${i}":"x"}` : "```json\n" + `{"id":0,"field${i}":""}` + "\n```";
          const verdict = guard.checkOutput(output, schema);
          if (verdict.ok !== (kind !== 1)) throw new Error(`call ${k}: wrong verdict ${JSON.stringify(verdict)}`);
        }
      };
      guard.setSchemaCacheCapacity(128);
      run(0, warmup);
      const warmed = guard.wasmMemoryBytes();
      run(warmup, calls);
      const after = guard.wasmMemoryBytes();
      const cacheSize = guard.schemaCacheSize();
      guard.setSchemaCacheCapacity(16);
      run(0, 200);
      const shrunk = guard.schemaCacheSize();
      return { warmed, after, cacheSize, shrunk };
    }, { distinct: 1000, warmup: 10_000, calls: 50_000 });

    // Each call compiles (the cache holds 128 of the 1,000 schemas): a leak
    // of even 40 bytes a call would be 2 MiB. (Measured: no growth at all.)
    const budget = 2 * MiB;
    assert.ok(result.after - result.warmed <= budget, `wasm memory grew by ${result.after - result.warmed} bytes over 50,000 calls after warm-up (budget ${budget})`);
    assert.equal(result.cacheSize, 128, "the cache is full at its capacity, and no larger");
    assert.ok(result.shrunk <= 16, `after lowering the capacity to 16 the cache holds ${result.shrunk}`);
  });

  test("10,000 distinct Validators compiled, used and freed with free()", { timeout: 60_000 }, async () => {
    const result = await inFreshProcess(async (guard, gc, { warmup, count }) => {
      const schemaFor = (i) => ({
        $defs: { item: { type: "object", required: ["sku"], properties: { sku: { type: "string", pattern: `^S${i}-[0-9]+$` } } } },
        type: "object",
        required: ["items", "placedOn"],
        properties: {
          items: { type: "array", items: { $ref: "#/$defs/item" }, maxItems: 1 + (i % 20) },
          placedOn: { type: "string", format: "date" },
          status: { enum: ["open", "closed", `custom-${i}`] },
        },
      });
      const cycle = (from, to) => {
        for (let i = from; i < to; i++) {
          const validator = guard.compileSchema(schemaFor(i));
          const ok = validator.isValid({ items: [{ sku: `S${i}-1` }], placedOn: "2026-01-31" });
          const bad = validator.validate({ items: [{ sku: "x" }], placedOn: "yesterday" }, { maxErrors: 10 });
          if (!ok || bad.errors.length !== 2) throw new Error(`schema ${i}: wrong answers`);
          validator.free();
          validator.free();
        }
      };
      // A count bound: the cache's own growth up to its default memory
      // bound (see the test after the next) is not what this measures.
      guard.setSchemaCacheCapacity(128);
      guard.clearSchemaCache();
      cycle(0, warmup);
      const warmed = guard.wasmMemoryBytes();
      cycle(warmup, warmup + count);
      return { warmed, after: guard.wasmMemoryBytes(), cacheSize: guard.schemaCacheSize() };
    }, { warmup: 2000, count: 10_000 });

    // Unfreed, each of these compiled validators holds kilobytes: 10,000 of
    // them would be tens of MiB.
    const budget = 1 * MiB;
    assert.ok(result.after - result.warmed <= budget, `wasm memory grew by ${result.after - result.warmed} bytes over 10,000 compile+free after warm-up (budget ${budget})`);
    assert.ok(result.cacheSize <= 128);
  });

  test(
    "Validators dropped without free() are reclaimed once garbage is collected",
    {
      timeout: 60_000,
      skip: typeof FinalizationRegistry === "undefined" && "this runtime has no FinalizationRegistry, so dropped Validators are never reclaimed",
    },
    async () => {
      const result = await inFreshProcess(async (guard, gc, { rounds, perRound }) => {
        if (typeof gc !== "function") return { gc: false };
        const settle = async () => {
          // Finalizers run as tasks after a collection: collect, then yield, a few times.
          for (let i = 0; i < 4; i++) {
            gc();
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        };
        let next = 0;
        const round = () => {
          for (let i = 0; i < perRound; i++, next++) {
            guard.compileSchema({ type: "object", title: `dropped ${next}`, properties: { [`f${next}`]: { type: "string", minLength: next % 7 } } });
          }
        };
        // A count bound, as in the test before.
        guard.setSchemaCacheCapacity(128);
        guard.clearSchemaCache();
        const before = guard.wasmMemoryBytes();
        round();
        const oneRound = guard.wasmMemoryBytes() - before;
        await settle();
        const warmed = guard.wasmMemoryBytes();
        for (let r = 0; r < rounds; r++) {
          round();
          await settle();
        }
        return { gc: true, oneRound, warmed, after: guard.wasmMemoryBytes() };
      }, { rounds: 3, perRound: 20_000 });

      if (!result.gc) {
        // Only reachable if the runtime refused to expose a collector.
        assert.fail("garbage collection could not be forced in the measuring process");
      }
      // Without reclamation, every round would need about as much new
      // memory as the first did; with it, the memory the first round freed
      // is reused.
      const budget = 8 * MiB;
      assert.ok(result.oneRound > budget, `one round of 20,000 live Validators needs ${result.oneRound} bytes, so the budget below can tell`);
      assert.ok(
        result.after - result.warmed <= budget,
        `wasm memory grew by ${result.after - result.warmed} bytes over 60,000 dropped Validators after warm-up (budget ${budget}; one round unreclaimed needs ${result.oneRound})`,
      );
    },
  );

  test("the default cache stays within its memory bound over 20,000 distinct schemas", { timeout: 60_000 }, async () => {
    const result = await inFreshProcess(async (guard, gc, { count }) => {
      const schemaFor = (i) => ({
        type: "object",
        required: ["id"],
        properties: { id: { type: "integer", maximum: i }, [`field${i}`]: { type: "string", pattern: `^v${i}-[a-z]+$` }, kind: { enum: ["a", "b", `k${i}`] } },
      });
      guard.clearSchemaCache();
      const before = guard.wasmMemoryBytes();
      for (let i = 0; i < count; i++) {
        if (!guard.checkOutput(`{"id":${i}}`, schemaFor(i)).ok) throw new Error(`schema ${i}: wrong verdict`);
      }
      return { grown: guard.wasmMemoryBytes() - before, cached: guard.schemaCacheSize() };
    }, { count: 20_000 });

    // Each of these schemas holds several KiB compiled: kept unbounded,
    // 20,000 would grow the memory by about 100 MiB. The default bound is
    // 32 MiB of compiled schemas (the heap's count; the memory grows by a
    // third more, for the allocator's own).
    assert.ok(result.grown <= 48 * MiB, `wasm memory grew by ${result.grown} bytes over 20,000 distinct schemas (budget ${48 * MiB})`);
    assert.ok(result.cached > 1000 && result.cached < 20_000, `the cache holds ${result.cached} schemas`);
  });
});

describe("guardedCall leaves nothing behind", () => {
  const SCHEMA = { type: "object", required: ["n"], properties: { n: { type: "integer" } } };
  const response = (content) => ({ choices: [{ message: { content }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1 } });

  test("2,000 calls sharing one long-lived AbortSignal leave no listeners on it", { timeout: 30_000 }, async () => {
    const controller = new AbortController();
    const baseline = getEventListeners(controller.signal, "abort").length;
    const calls = Array.from({ length: 2000 }, (_, i) =>
      guard
        .guardedCall({ messages: [] }, async () => response(i % 2 ? `{"n":${i}}` : "no"), { schema: SCHEMA, signal: controller.signal, deadlineMs: 60_000 })
        .then(
          (result) => result.value.n,
          (error) => error.failure,
        ),
    );
    const outcomes = await Promise.all(calls);
    assert.equal(outcomes.filter((o) => typeof o === "number").length, 1000);
    assert.equal(getEventListeners(controller.signal, "abort").length, baseline, "every listener a call added is removed");
    assert.equal(controller.signal.aborted, false);
  });

  test(
    "calls with a deadline leave no timers running once settled",
    { timeout: 30_000, skip: IS_BUN && "Bun does not report active timers (process.getActiveResourcesInfo returns nothing)" },
    async () => {
      const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
      const baseline = timers();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 500 }, (_, i) =>
          guard.guardedCall({ messages: [] }, async () => response(i % 3 ? `{"n":${i}}` : "[]"), { schema: SCHEMA, deadlineMs: 600_000, budgets: { total: 2 } }),
        ),
      );
      assert.equal(outcomes.length, 500);
      // A leftover 10-minute deadline timer per call would keep the process alive.
      assert.equal(timers(), baseline, `timers still running: ${timers() - baseline}`);
    },
  );

  test("every way a call ends frees its session in the core", async () => {
    const baseline = liveSessions();
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const ok = () => response('{"n":1}');
    const endings = [
      ["accepted", async () => ok(), {}],
      ["rejected", async () => response("no"), {}],
      ["lenient", async () => response("no"), { strict: false }],
      ["callModel throws", async () => { throw new Error("503"); }, {}],
      ["onAttempt throws", async () => ok(), { onAttempt: () => { throw new Error("sink down"); } }],
      ["usage throws", async () => ok(), { usage: () => { throw new Error("meter down"); } }],
      ["read throws", async () => ok(), { read: () => { throw new Error("reader down"); } }],
      ["the output cannot be read", async () => ok(), { read: () => revoked }],
      ["appendFeedback throws", async () => response("no"), { retry: "repair", appendFeedback: () => { throw new Error("no"); } }],
      ["the deadline passes", () => new Promise((resolve) => setTimeout(() => resolve(ok()), 200)), { deadlineMs: 5 }],
      ["aborted", async () => response("no"), { signal: AbortSignal.abort() }],
    ];
    for (const [name, callModel, options] of endings) {
      for (let i = 0; i < 20; i++) {
        await guard.guardedCall({ messages: [] }, callModel, { schema: SCHEMA, ...options }).catch(() => undefined);
      }
      assert.equal(liveSessions(), baseline, `${name}: sessions left alive`);
    }
    // A mistake in the options makes no session, or frees it.
    await guard.guardedCall({ messages: [] }, async () => ok(), { schema: SCHEMA, budgets: { total: -1 } }).catch(() => undefined);
    await guard.guardedCall({}, async () => ok(), { schema: SCHEMA, retry: "repair" }).catch(() => undefined);
    assert.equal(liveSessions(), baseline);
  });
});

// What OpenTelemetry costs a guarded call: the same guardedCall (and a
// guardedStream of the same text in 64-byte pieces) without `telemetry`;
// with a stats collector and an onAttempt callback instead (what any
// observer of each attempt costs); and with `telemetry: { tracer, meter }`
// from the real SDKs (@opentelemetry/sdk-trace-base with a span processor
// that drops what it is given, so export costs nothing;
// @opentelemetry/sdk-metrics with a reader that is never collected; the
// AsyncLocalStorage context manager a Node service registers), interleaved
// round by round in one process.
//   node bench/telemetry.mjs [PKG_DIR] [--rounds N]   (also under bun)
// Whether telemetry off costs anything is the question of
// bench/side-by-side.mjs --call guarded, between a build without the
// option and one with it (bench/RESULTS.md, "Telemetry").
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { chatCompletion, workloads } from "./workloads.mjs";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 15;
const dir = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--rounds") ?? "pkg";
const api = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
const SLICE_MS = 60;
// A second of warm-up per case: the SDKs' code, met first here, is still being compiled after less.
const WARMUP_MS = 1000;

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracer = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }).getTracer("bench");
class IdleReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}
const meter = new MeterProvider({ readers: [new IdleReader()] }).getMeter("bench");
/**
 * The three cases: without telemetry; with a stats collector and an
 * onAttempt callback instead (what any observer of each attempt costs: the
 * core then writes each attempt's usage and the call's record, which
 * telemetry reads too); with telemetry.
 */
const MODES = {
  off: () => ({}),
  observed: () => ({ stats: api.createGuardStats(), onAttempt() {} }),
  on: () => ({ telemetry: { tracer, meter } }),
};

let sink = 0;
const settle = (promise) =>
  promise.then(
    () => true,
    (error) => {
      if (!(error instanceof api.StructuredOutputError)) throw error;
      return false;
    },
  );

/** A guarded call whose callModel returns a chat completion of the text at once (bench/side-by-side.mjs's `guarded`). */
function guarded(w, extra) {
  const wrapper = { type: "json_schema", json_schema: { name: "bench", schema: w.schema, strict: true } };
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "extract" }], response_format: wrapper };
  const ready = Promise.resolve(chatCompletion(w.text));
  const callModel = () => ready;
  const options = { schema: wrapper, ...extra };
  return async () => {
    const ok = await settle(api.guardedCall(request, callModel, options));
    if (ok !== w.valid) throw new Error(`wrong outcome on ${w.id}`);
    sink ^= ok ? 1 : 2;
  };
}

/** A guarded stream of the text in 64-byte pieces, plain strings, the last with the finish reason. */
function streamed(w, extra) {
  const pieces = [];
  for (let i = 0; i < w.text.length; i += 64) pieces.push(w.text.slice(i, i + 64));
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "extract" }] };
  const read = (chunk) => chunk;
  const events = pieces.map((text, i) => ({ text, finishReason: i === pieces.length - 1 ? "stop" : undefined }));
  const streamModel = () => events;
  const options = { schema: w.schema, read, ...extra };
  return async () => {
    const ok = await settle(api.guardedStream(request, streamModel, options));
    if (ok !== w.valid) throw new Error(`wrong outcome on ${w.id}`);
    sink ^= ok ? 1 : 2;
  };
}

/** µs per call of `fn`, called `batch` times a step for at least `ms`. */
async function runFor(fn, ms, batch) {
  let calls = 0;
  const start = performance.now();
  let now = start;
  do {
    for (let i = 0; i < batch; i++) await fn();
    calls += batch;
    now = performance.now();
  } while (now - start < ms);
  return ((now - start) * 1000) / calls;
}

const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;
console.log(`### Telemetry off and on (${runtime})\n`);
console.log(
  `\`${process.versions.bun ? "bun" : "node"} bench/telemetry.mjs\`: ${ROUNDS} rounds of ${SLICE_MS} ms each, the three cases interleaved in a rotating order. ` +
    "off: no telemetry; observed: a stats collector and an onAttempt callback instead; on: telemetry with a tracer and a meter of the real SDKs, spans dropped unexported. " +
    "Medians per call, and the median of each round's own on/off ratio (its three runs back to back, the figure a busy machine moves least).\n",
);
console.log("| call | workload | off µs | observed µs | on µs | on − off µs | on/off (round pairs) | on/observed (round pairs) |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|");
for (const [name, make] of [["guardedCall", guarded], ["guardedStream", streamed]]) {
  for (const w of workloads()) {
    // The constant cost of telemetry shows on small calls; the invalid rows
    // add two attempts with issues to name (the valid 2,000 rows add only time).
    if (w.id === "rows2000" || w.id === "refs" || (name === "guardedStream" && w.id === "invalid2000")) continue;
    const cases = Object.entries(MODES).map(([mode, extra]) => ({ mode, fn: make(w, extra()), means: [] }));
    for (const c of cases) {
      const perCall = await runFor(c.fn, WARMUP_MS, 1);
      c.batch = Math.max(1, Math.floor(500 / perCall));
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...cases.slice(round % 3), ...cases.slice(0, round % 3)];
      for (const c of order) c.means.push(await runFor(c.fn, SLICE_MS, c.batch));
    }
    const [off, observed, on] = cases.map((c) => median(c.means));
    const pairs = (a, b) => median(cases[a].means.map((m, i) => m / cases[b].means[i]));
    console.log(
      `| ${name} | ${w.label} | ${off.toFixed(2)} | ${observed.toFixed(2)} | ${on.toFixed(2)} | ${(on - off).toFixed(2)} | ` +
        `${pairs(2, 0).toFixed(2)}x | ${pairs(2, 1).toFixed(2)}x |`,
    );
  }
}
if (sink < 0) console.log(sink);

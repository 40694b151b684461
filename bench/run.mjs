// The per-runtime measurement: runs under `node` and under `bun`, compares
// structured-output-guard with ajv + ajv-formats (allErrors true and false)
// and @cfworker/json-schema in this one process, and writes the raw numbers
// as JSON for bench/report.mjs. Normally started by bench/bench.sh.
//   node bench/run.mjs --out FILE      (also: bun bench/run.mjs --out FILE)
//   --quick                            shorter budgets, for trying the harness
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { CONTENDERS, LABELS, makeContender, sinkValue } from "./contenders.mjs";
import { workloads } from "./workloads.mjs";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const outFile = outIndex >= 0 ? args[outIndex + 1] : null;
const quick = args.includes("--quick");

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const runtime = process.versions.bun ? { name: "bun", version: process.versions.bun } : { name: "node", version: process.versions.node };

// Budgets. Every case is warmed up, then run in ROUNDS slices of SLICE_MS,
// interleaved with the other contenders of the same workload and in a
// rotating order, so drift (GC, frequency, another process) hits all alike.
const HOT = { warmupMs: quick ? 30 : 80, rounds: quick ? 2 : 6, sliceMs: quick ? 25 : 55 };
const COLD = { warmupMs: quick ? 30 : 80, rounds: quick ? 2 : 6, sliceMs: quick ? 25 : 55 };
const LOAD_REPEATS = quick ? 3 : 11;
const MEMORY_ITERATIONS = quick ? 5 : 20;

const log = (...parts) => process.stderr.write(`[bench ${runtime.name}] ${parts.join(" ")}\n`);

/** Runs fn for about ms milliseconds in batches of `batch` calls; returns [elapsedMs, calls]. */
function runFor(fn, expected, ms, batch, what) {
  let calls = 0;
  const start = performance.now();
  let now = start;
  do {
    for (let i = 0; i < batch; i++) {
      if (fn() !== expected) throw new Error(`${what}: wrong verdict (expected ${expected ? "valid" : "invalid"})`);
    }
    calls += batch;
    now = performance.now();
  } while (now - start < ms);
  return [now - start, calls];
}

/** Mean per call (µs) of each case, interleaved. cases: [{ key, fn, expected }]. */
function measureHot(cases, what) {
  for (const c of cases) {
    // Warm-up, then a batch size that makes one batch about 0.5 ms, so the
    // clock is read far less often than the code under test runs.
    const [ms, calls] = runFor(c.fn, c.expected, HOT.warmupMs, 1, `${what} ${c.key}`);
    c.batch = Math.max(1, Math.floor((calls / ms) * 0.5));
    c.ms = 0;
    c.calls = 0;
    c.roundMeans = [];
  }
  for (let round = 0; round < HOT.rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(k + round) % cases.length];
      const [ms, calls] = runFor(c.fn, c.expected, HOT.sliceMs, c.batch, `${what} ${c.key}`);
      c.ms += ms;
      c.calls += calls;
      c.roundMeans.push((ms * 1000) / calls);
    }
  }
  return summarise(cases);
}

let unique = 0;
/** The schema with a never-seen `$comment`, so no cache anywhere can hit. */
const distinct = (schema) => ({ $comment: `bench cold ${runtime.name} ${process.pid} #${++unique}`, ...schema });

/** Mean per cold call (µs): each call times compile + first verdict of a fresh schema. */
function measureCold(cases, what) {
  const once = (c) => {
    const schema = distinct(c.schema);
    const start = performance.now();
    const verdict = c.fn(schema);
    const elapsed = performance.now() - start;
    c.forget?.(schema);
    if (verdict !== c.expected) throw new Error(`${what} ${c.key}: wrong verdict on a cold schema`);
    return elapsed;
  };
  for (const c of cases) {
    const start = performance.now();
    while (performance.now() - start < COLD.warmupMs) once(c);
    c.ms = 0;
    c.calls = 0;
    c.roundMeans = [];
  }
  for (let round = 0; round < COLD.rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(k + round) % cases.length];
      let ms = 0;
      let calls = 0;
      const start = performance.now();
      while (performance.now() - start < COLD.sliceMs) {
        ms += once(c);
        calls++;
      }
      c.ms += ms;
      c.calls += calls;
      c.roundMeans.push((ms * 1000) / calls);
    }
  }
  return summarise(cases);
}

/** Spawns this runtime on a helper script and reads its one JSON line. */
function child(script, childArgs) {
  const r = spawnSync(process.execPath, [here(script), ...childArgs], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${script} ${childArgs.join(" ")} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

// --- main ---------------------------------------------------------------------

const all = workloads();
const contenders = {};
for (const name of [...CONTENDERS, "parse"]) contenders[name] = await makeContender(name);

// Every contender must reach the expected verdict on every workload before
// anything is timed (runFor checks it again on every call).
for (const w of all) {
  for (const name of [...CONTENDERS, "parse"]) {
    const verdict = contenders[name].hot(w)();
    if (verdict !== w.valid) throw new Error(`${name} says ${verdict ? "valid" : "invalid"} on ${w.id}`);
  }
}

const results = {
  runtime,
  platform: { os: `${os.type()} ${os.release()}`, arch: process.arch },
  budgets: { hot: HOT, cold: COLD, loadRepeats: LOAD_REPEATS, memoryIterations: MEMORY_ITERATIONS },
  labels: LABELS,
  workloads: all.map((w) => ({ id: w.id, label: w.label, bytes: Buffer.byteLength(w.text), valid: w.valid })),
  hot: {},
  floor: {},
  cold: {},
  load: {},
  memory: {},
};

// One pass over everything first: V8 and JavaScriptCore tier wasm and JS up
// while it runs hot, and the first workload measured should not pay for it.
log("warming up");
for (const w of all) {
  for (const name of [...CONTENDERS, "parse"]) runFor(contenders[name].hot(w), w.valid, HOT.warmupMs, 1, `warm-up ${name} ${w.id}`);
}

log("hot path");
for (const w of all) {
  const cases = [...CONTENDERS, "parse"].map((key) => ({ key, fn: contenders[key].hot(w), expected: w.valid }));
  results.hot[w.id] = measureHot(cases, `hot ${w.id}`);
  log(`  ${w.id}:`, Object.entries(results.hot[w.id]).map(([k, v]) => `${k} ${v.meanUs.toFixed(1)}µs`).join(", "));
}

log("where the time goes (floors)");
// Ours split into what each call pays before any keyword runs, beside ajv's
// validate function on an already parsed value: when ours without keywords
// is already slower than ajv's whole call, no faster validator inside the
// wasm can bring the ratio under 1.
for (const w of all) {
  const cases = [
    { key: "ours", fn: contenders.ours.hot(w), expected: w.valid },
    { key: "oursNoKeywords", fn: contenders.ours.noKeywords(w), expected: true },
    { key: "oursEmptyCall", fn: contenders.ours.emptyCall(), expected: true },
    { key: "ajvAll", fn: contenders.ajvAll.hot(w), expected: w.valid },
    { key: "ajvAllValidateOnly", fn: contenders.ajvAll.validateOnly(w), expected: w.valid },
    { key: "parse", fn: contenders.parse.hot(w), expected: w.valid },
  ];
  results.floor[w.id] = measureHot(cases, `floor ${w.id}`);
  log(`  ${w.id}:`, Object.entries(results.floor[w.id]).map(([k, v]) => `${k} ${v.meanUs.toFixed(2)}µs`).join(", "));
}

log("cold path");
// One schema per shape: the small extraction, the rows (first verdict on the
// 50-row document) and the $ref/$defs/oneOf schema.
for (const id of ["small", "rows50", "refs"]) {
  const w = all.find((x) => x.id === id);
  const cases = CONTENDERS.map((key) => ({
    key,
    fn: contenders[key].cold(w),
    forget: contenders[key].forget,
    schema: w.schema,
    expected: w.valid,
  }));
  results.cold[id] = measureCold(cases, `cold ${id}`);
  log(`  ${id}:`, Object.entries(results.cold[id]).map(([k, v]) => `${k} ${v.meanUs.toFixed(1)}µs`).join(", "));
}

log("module load to first verdict (fresh processes)");
const loadSamples = Object.fromEntries(CONTENDERS.map((k) => [k, []]));
for (let i = 0; i < LOAD_REPEATS; i++) {
  for (const lib of CONTENDERS) {
    const r = child("load-first-verdict.mjs", [lib]);
    if (r.valid !== true) throw new Error(`load ${lib}: wrong first verdict`);
    loadSamples[lib].push(r.ms);
  }
}
for (const lib of CONTENDERS) results.load[lib] = { medianMs: median(loadSamples[lib]), samplesMs: loadSamples[lib] };
log(" ", CONTENDERS.map((k) => `${k} ${results.load[k].medianMs.toFixed(1)}ms`).join(", "));

log("peak memory (fresh processes)");
for (const lib of ["parse", ...CONTENDERS]) {
  results.memory[lib] = child("memory.mjs", [lib, String(MEMORY_ITERATIONS)]);
}
log(" ", ["parse", ...CONTENDERS].map((k) => `${k} ${(results.memory[k].peakRss / 2 ** 20).toFixed(1)}MiB`).join(", "));

const wasm = readFileSync(here("../pkg/wasm/guard_bg.wasm"));
results.wasm = {
  rawBytes: wasm.length,
  gzipBytes: gzipSync(wasm, { level: 9 }).length,
  sha256: createHash("sha256").update(wasm).digest("hex"),
};
results.sink = sinkValue();

const json = `${JSON.stringify(results, null, 2)}\n`;
if (outFile) writeFileSync(outFile, json);
else process.stdout.write(json);

/** Mean microseconds per call for each case, with the per-round means. */
function summarise(cases) {
  const result = {};
  for (const c of cases) {
    result[c.key] = { meanUs: (c.ms * 1000) / c.calls, calls: c.calls, roundMeansUs: c.roundMeans };
  }
  return result;
}

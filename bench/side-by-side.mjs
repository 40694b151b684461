// Two builds of the package in one process, for a change that should not
// move the hot path (a profile, a crate split, a dependency bump), or one
// meant to speed a call up: a call of each build on bench/workloads.mjs,
// interleaved round by round in a rotating order so drift hits both alike.
// Reports each build's median per call, their ratio, and the median of the
// rounds' own after/before ratios (each round's pair runs back to back, so
// it is the figure least moved by a busy machine).
//   node bench/side-by-side.mjs BEFORE_PKG_DIR AFTER_PKG_DIR [--rounds N] [--call C]
// (also under bun). Each directory is a built pkg/ (scripts/build.sh). The
// call C is one of:
//   lane      checkOutput(text, validator) (the default);
//   guarded   a guardedCall whose callModel returns a chat completion of the
//             text at once, the schema in a response-format wrapper: its
//             attempt's whole overhead, awaited as a caller awaits it;
//   stream64  createStreamCheck(schema), the text pushed in 64-byte pieces,
//             then end("stop").
// Both builds' calls share this file's code, so a call site here sees two
// classes: the absolute times run above a single build's, the ratio holds.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chatCompletion, workloads } from "./workloads.mjs";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 15;
const callAt = args.indexOf("--call");
const CALL = callAt >= 0 ? args[callAt + 1] : "lane";
const dirs = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--rounds" && args[i - 1] !== "--call");
if (dirs.length !== 2 || !["lane", "guarded", "stream64"].includes(CALL)) {
  console.error("usage: node bench/side-by-side.mjs BEFORE_PKG_DIR AFTER_PKG_DIR [--rounds N] [--call lane|guarded|stream64]");
  process.exit(2);
}
const SLICE_MS = 60;
const WARMUP_MS = 150;

const builds = [];
for (const [name, dir] of [["before", dirs[0]], ["after", dirs[1]]]) {
  const api = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
  builds.push({ name, dir, api });
}

let sink = 0;
function lane(api, w) {
  const validator = api.compileSchema(w.schema);
  return () => {
    const verdict = api.checkOutput(w.text, validator, { maxErrors: 5 });
    if (verdict.ok !== w.valid) throw new Error(`wrong verdict on ${w.id}`);
    sink ^= verdict.ok ? 1 : 2;
  };
}

/** A guarded call of the workload's text, as `--call guarded` describes it. */
function guarded(api, w) {
  const wrapper = { type: "json_schema", json_schema: { name: "bench", schema: w.schema, strict: true } };
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "extract" }], response_format: wrapper };
  const ready = Promise.resolve(chatCompletion(w.text));
  const callModel = () => ready;
  return async () => {
    const ok = await api.guardedCall(request, callModel, { schema: wrapper }).then(
      () => true,
      (error) => {
        if (!(error instanceof api.StructuredOutputError)) throw error;
        return false;
      },
    );
    if (ok !== w.valid) throw new Error(`wrong outcome on ${w.id}`);
    sink ^= ok ? 1 : 2;
  };
}

/** A stream check of the workload's text in 64-byte pieces, as `--call stream64` describes it. */
function stream64(api, w) {
  const pieces = [];
  for (let i = 0; i < w.text.length; i += 64) pieces.push(w.text.slice(i, i + 64));
  return () => {
    const check = api.createStreamCheck(w.schema);
    for (let i = 0; i < pieces.length; i++) check.push(pieces[i]);
    const verdict = check.end("stop");
    if (verdict.ok !== w.valid) throw new Error(`wrong verdict on ${w.id}`);
    sink ^= verdict.ok ? 1 : 2;
  };
}

const CALLS = { lane, guarded, stream64 };

/** µs per call of `fn`, called `batch` times a step for at least `ms`; an async call is awaited. */
async function runFor(fn, ms, batch) {
  let calls = 0;
  const start = performance.now();
  let now = start;
  do {
    for (let i = 0; i < batch; i++) {
      const pending = fn();
      if (pending !== undefined) await pending;
    }
    calls += batch;
    now = performance.now();
  } while (now - start < ms);
  return (now - start) * 1000 / calls;
}

const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`;
console.log(`${runtime}; before = ${dirs[0]}, after = ${dirs[1]}; ${CALL}; ${ROUNDS} rounds of ${SLICE_MS} ms each`);
console.log("workload              before µs   after µs   after/before  median of round pairs (min..max)");
for (const w of workloads()) {
  const cases = builds.map((b) => ({ b, fn: CALLS[CALL](b.api, w), means: [] }));
  for (const c of cases) {
    const perCall = await runFor(c.fn, WARMUP_MS, 1);
    c.batch = Math.max(1, Math.floor(500 / perCall));
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...cases].reverse() : cases;
    for (const c of order) c.means.push(await runFor(c.fn, SLICE_MS, c.batch));
  }
  const [before, after] = cases.map((c) => median(c.means));
  const pairs = cases[1].means.map((m, i) => m / cases[0].means[i]);
  const lo = Math.min(...pairs);
  const hi = Math.max(...pairs);
  console.log(
    `${w.label.padEnd(20)} ${before.toFixed(2).padStart(10)} ${after.toFixed(2).padStart(10)} ` +
      `${(after / before).toFixed(3).padStart(13)}  ${median(pairs).toFixed(3)} (${lo.toFixed(3)}..${hi.toFixed(3)})`,
  );
}
if (sink < 0) console.log(sink);

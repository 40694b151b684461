// Two builds of the package in one process, for a change that should not
// move the hot path (a profile, a crate split, a dependency bump): the
// string + Validator lane (`checkOutput(text, validator)`) of each build on
// bench/workloads.mjs, interleaved round by round in a rotating order so
// drift hits both alike. Reports each build's median per call, their ratio,
// and the median of the rounds' own after/before ratios (each round's pair
// runs back to back, so it is the figure least moved by a busy machine).
//   node bench/side-by-side.mjs BEFORE_PKG_DIR AFTER_PKG_DIR [--rounds N]
// (also under bun). Each directory is a built pkg/ (scripts/build.sh).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { workloads } from "./workloads.mjs";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 15;
const dirs = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--rounds");
if (dirs.length !== 2) {
  console.error("usage: node bench/side-by-side.mjs BEFORE_PKG_DIR AFTER_PKG_DIR [--rounds N]");
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

function runFor(fn, ms, batch) {
  let calls = 0;
  const start = performance.now();
  let now = start;
  do {
    for (let i = 0; i < batch; i++) fn();
    calls += batch;
    now = performance.now();
  } while (now - start < ms);
  return (now - start) * 1000 / calls;
}

const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`;
console.log(`${runtime}; before = ${dirs[0]}, after = ${dirs[1]}; ${ROUNDS} rounds of ${SLICE_MS} ms each`);
console.log("workload              before µs   after µs   after/before  median of round pairs (min..max)");
for (const w of workloads()) {
  const cases = builds.map((b) => ({ b, fn: lane(b.api, w), means: [] }));
  for (const c of cases) {
    const perCall = runFor(c.fn, WARMUP_MS, 1);
    c.batch = Math.max(1, Math.floor(500 / perCall));
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...cases].reverse() : cases;
    for (const c of order) c.means.push(runFor(c.fn, SLICE_MS, c.batch));
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

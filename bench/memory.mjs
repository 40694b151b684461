// Peak memory of one library, in the fresh process that run.mjs spawns for
// it: the 2,000-row workloads (valid and invalid), a fixed number of
// iterations each, sampling process.memoryUsage().rss after every call.
// Prints one JSON line.
//   node bench/memory.mjs parse|ours|ajvAll|ajvFirst|cfworker ITERATIONS
import { makeContender } from "./contenders.mjs";
import { largeWorkloads } from "./workloads.mjs";

const lib = process.argv[2];
const iterations = Number(process.argv[3] ?? 20);

const cases = largeWorkloads();
const rss = () => process.memoryUsage().rss;
const beforeImportRss = rss();
const contender = await makeContender(lib);
const calls = cases.map((w) => ({ w, fn: contender.hot(w) }));

const baselineRss = rss();
let peakRss = baselineRss;
for (let i = 0; i < iterations; i++) {
  for (const { w, fn } of calls) {
    if (fn() !== w.valid) throw new Error(`${lib}: wrong verdict on ${w.id}`);
    const now = rss();
    if (now > peakRss) peakRss = now;
  }
}
const wasmBytes = contender.wasmMemoryBytes ? contender.wasmMemoryBytes() : null;
process.stdout.write(`${JSON.stringify({ lib, iterations, beforeImportRss, baselineRss, peakRss, wasmBytes })}\n`);

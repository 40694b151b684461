// Writes bench/RESULTS.md from the JSON that bench/run.mjs wrote under each
// runtime: the machine, the runtime and package versions, the tables, and
// every target marked met or missed. Normally started by bench/bench.sh.
//   node bench/report.mjs node.json bun.json
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const runs = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, "utf8")));
if (runs.length === 0) throw new Error("usage: node bench/report.mjs RUN.json...");

const CONTENDERS = ["ours", "ajvAll", "ajvFirst", "cfworker"];
const RUNTIME = { node: "Node", bun: "Bun" };
const rtName = (run) => `${RUNTIME[run.runtime.name] ?? run.runtime.name} ${run.runtime.version}`;

// --- targets (each a ratio against ajv in the same run) ------------------------
const HOT_MAX = 1.0;
const COLD_MAX = 0.2;
const INVALID_MAX = 0.5;
const WASM_GZIP_MAX = 600 * 1000; // 600 KB, read strictly as 600,000 bytes

// --- formatting ------------------------------------------------------------------
const group = (n) => n.toLocaleString("en-US");
function us(x) {
  if (x < 10) return x.toFixed(2);
  if (x < 1000) return x.toFixed(1);
  return group(Math.round(x));
}
const ms = (x) => x.toFixed(1);
const ratio = (x) => `${x < 0.1 ? x.toFixed(3) : x.toFixed(2)}x`;
const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
const kb = (bytes) => `${group(bytes)} B (${(bytes / 1000).toFixed(0)} KB)`;
const mark = (ok) => (ok ? "met" : "**missed**");
const row = (cells) => `| ${cells.join(" | ")} |`;
const table = (head, rows) => [row(head), row(head.map(() => "---")), ...rows.map(row)].join("\n");

// --- machine and versions ----------------------------------------------------------
function machine() {
  let cpu = os.cpus()[0]?.model ?? "unknown";
  let logical = os.cpus().length;
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    cpu = info.match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? cpu;
    logical = (info.match(/^processor\s*:/gm) ?? []).length || logical;
  } catch {}
  return { cpu, logical, memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`, os: `${os.type()} ${os.release()} ${process.arch}` };
}
const version = (pkg) => JSON.parse(readFileSync(here(`../node_modules/${pkg}/package.json`), "utf8")).version;
const oursVersion = JSON.parse(readFileSync(here("../pkg/package.json"), "utf8")).version;

// --- verdicts ---------------------------------------------------------------------------
const targets = []; // { name, per runtime: text }
const targetRow = (name, cell) => targets.push([name, ...runs.map(cell)]);
const ok = { all: true };
const judge = (pass) => {
  if (!pass) ok.all = false;
  return pass;
};

const workloadIds = runs[0].workloads.map((w) => w.id);
const workloadLabel = Object.fromEntries(runs[0].workloads.map((w) => [w.id, w.label]));
const workloadBytes = Object.fromEntries(runs[0].workloads.map((w) => [w.id, w.bytes]));

for (const id of workloadIds) {
  targetRow(`hot path ≤ ${HOT_MAX}x ajv: ${workloadLabel[id]}`, (run) => {
    const h = run.hot[id];
    const rAll = h.ours.meanUs / h.ajvAll.meanUs;
    const rFirst = h.ours.meanUs / h.ajvFirst.meanUs;
    return `${mark(judge(rAll <= HOT_MAX && rFirst <= HOT_MAX))} (${ratio(rAll)} of allErrors:true, ${ratio(rFirst)} of allErrors:false)`;
  });
}
for (const id of Object.keys(runs[0].cold)) {
  targetRow(`cold path ≤ ${COLD_MAX}x ajv: ${workloadLabel[id]} schema`, (run) => {
    const c = run.cold[id];
    const rAll = c.ours.meanUs / c.ajvAll.meanUs;
    const rFirst = c.ours.meanUs / c.ajvFirst.meanUs;
    return `${mark(judge(rAll <= COLD_MAX && rFirst <= COLD_MAX))} (${ratio(rAll)} / ${ratio(rFirst)})`;
  });
}
targetRow(`2,000 invalid rows ≤ ${INVALID_MAX}x ajv allErrors:true`, (run) => {
  const h = run.hot.invalid2000;
  const r = h.ours.meanUs / h.ajvAll.meanUs;
  return `${mark(judge(r <= INVALID_MAX))} (${ratio(r)})`;
});
targetRow("wasm ≤ 600 KB gzip", (run) => `${mark(judge(run.wasm.gzipBytes <= WASM_GZIP_MAX))} (${group(run.wasm.gzipBytes)} B)`);
targetRow("load to first verdict ≤ ajv import + compile", (run) => {
  const l = run.load;
  const rAll = l.ours.medianMs / l.ajvAll.medianMs;
  const rFirst = l.ours.medianMs / l.ajvFirst.medianMs;
  return `${mark(judge(rAll <= 1 && rFirst <= 1))} (${ratio(rAll)} / ${ratio(rFirst)})`;
});

// --- tables ----------------------------------------------------------------------------------
const ratioHead = ["ours/ajv(all)", "ours/ajv(first)", "ours/cfworker"];
const ratios = (get) => [ratio(get("ours") / get("ajvAll")), ratio(get("ours") / get("ajvFirst")), ratio(get("ours") / get("cfworker"))];

const hotRows = [];
for (const id of workloadIds) {
  for (const run of runs) {
    const h = run.hot[id];
    const get = (k) => h[k].meanUs;
    hotRows.push([workloadLabel[id], group(workloadBytes[id]), rtName(run), ...CONTENDERS.map((k) => us(get(k))), us(get("parse")), ...ratios(get)]);
  }
}

const coldRows = [];
for (const id of Object.keys(runs[0].cold)) {
  for (const run of runs) {
    const c = run.cold[id];
    const get = (k) => c[k].meanUs;
    coldRows.push([workloadLabel[id], rtName(run), ...CONTENDERS.map((k) => us(get(k))), ...ratios(get)]);
  }
}

const loadRows = runs.map((run) => {
  const get = (k) => run.load[k].medianMs;
  return [rtName(run), ...CONTENDERS.map((k) => ms(get(k))), ...ratios(get)];
});

// Where ours' time goes, beside ajv's: "floor ratio" is ours without any
// keyword against ajv's whole call. Above 1x, no validator inside the wasm,
// however fast, reaches the hot target on that workload.
const floorRows = [];
const floorRatio = (f) => f.oursNoKeywords.meanUs / f.ajvAll.meanUs;
for (const id of workloadIds) {
  for (const run of runs) {
    const f = run.floor[id];
    const get = (k) => f[k].meanUs;
    floorRows.push([
      workloadLabel[id],
      rtName(run),
      us(get("ours")),
      us(get("oursNoKeywords")),
      us(get("oursEmptyCall")),
      // A rejected text is not handed to JSON.parse, so there the
      // difference says nothing about the keywords.
      run.workloads.find((w) => w.id === id).valid ? us(Math.max(0, get("ours") - get("oursNoKeywords"))) : "—",
      us(get("ajvAll")),
      us(get("ajvAllValidateOnly")),
      us(get("parse")),
      ratio(floorRatio(f)),
    ]);
  }
}
const outOfReach = [];
for (const id of workloadIds) {
  for (const run of runs) {
    const r = floorRatio(run.floor[id]);
    if (r > HOT_MAX) outOfReach.push(`${workloadLabel[id]} on ${rtName(run)} (${ratio(r)})`);
  }
}

const memoryRows = [];
for (const run of runs) {
  const floor = run.memory.parse.peakRss;
  for (const k of ["parse", ...CONTENDERS]) {
    const m = run.memory[k];
    memoryRows.push([
      rtName(run),
      k === "parse" ? "JSON.parse only (floor)" : run.labels[k],
      mib(m.peakRss),
      k === "parse" ? "—" : `${m.peakRss >= floor ? "+" : ""}${mib(m.peakRss - floor)}`,
      m.wasmBytes === null ? "—" : mib(m.wasmBytes),
    ]);
  }
}

const m = machine();
const first = runs[0];
const L = first.labels;
const date = new Date().toISOString().replace(/\.\d+Z$/, "Z");

const md = `# Benchmark results

Written by \`bash bench/bench.sh\` on ${date}. Every ratio compares numbers
taken in the same process (one run per runtime), so the machine cancels out;
the absolute times are this machine's only.

## Machine and versions

- CPU: ${m.cpu}, ${m.logical} logical cores; memory ${m.memory}; ${m.os}
- Runtimes: ${runs.map(rtName).join(", ")}
- structured-output-guard ${oursVersion} (pkg/, built by this run)
- ajv ${version("ajv")} (\`ajv/dist/2020\`, \`strict: false\`) + ajv-formats ${version("ajv-formats")};
  @cfworker/json-schema ${version("@cfworker/json-schema")} (\`new Validator(schema, "2020-12", true)\`)

## Targets

Each target is a ratio against ajv in the same run, on every runtime. Where
the target says only "ajv", both configurations are checked and both ratios
are shown (allErrors:true / allErrors:false); the target is met only when
both are within it.

${table(["target", ...runs.map(rtName)], targets)}

**${ok.all ? "Every target met." : "Not every target is met."}**

## Hot path

Mean µs per call. The schema is compiled once; each call takes the model's
JSON text and ends with a checked JS value: ours is
\`checkOutput(text, validator, { maxErrors: 5 })\` reading \`.value\`; the peers
are \`JSON.parse(text)\` and then their validate function. Every call's verdict
is checked against the expected one. "JSON.parse" is the floor every peer pays
on top of validation. ${first.budgets.hot.rounds} interleaved rounds of
${first.budgets.hot.sliceMs} ms per case after warm-up.

${table(["workload", "bytes", "runtime", L.ours, L.ajvAll, L.ajvFirst, L.cfworker, "JSON.parse", ...ratioHead], hotRows)}

## Where the time goes

Mean µs per call, measured again side by side (so the "ours" and ajv columns
can differ a little from the table above). "ours, no keywords" is the same
text against \`{ type: "object" }\`: the boundary, the parse in wasm and
\`JSON.parse\` of the value, before any keyword runs. "ours on {}" is the text
\`{}\` against \`{}\`: the boundary and the facade alone. "ours' keywords" is
the difference between ours and ours without keywords (not shown for the
invalid rows: a rejected text never reaches \`JSON.parse\`). "ajv validate only" is
ajv's validate function on a value parsed beforehand. "floor ratio" is ours
without keywords against ajv's whole call: above ${HOT_MAX}x, even a validator
that cost nothing could not meet the hot target there.

${table(["workload", "runtime", L.ours, "ours, no keywords", "ours on {}", "ours' keywords", L.ajvAll, "ajv validate only", "JSON.parse", "floor ratio"], floorRows)}

${
  outOfReach.length
    ? `Floor ratio above ${HOT_MAX}x: ${outOfReach.join("; ")}.`
    : `The floor ratio is under ${HOT_MAX}x everywhere: a faster validator could meet every hot target.`
}

## Cold path

Mean µs from a schema never seen before (a unique \`$comment\` each time) to
its first verdict: ours \`compileSchema\` + \`checkOutput\`; ajv \`compile\` +
validate on one Ajv instance per configuration (each schema removed again
outside the timed part); cfworker \`new Validator\` + \`validate\`. The rows
schema's first verdict is on the 50-row document.

${table(["schema", "runtime", L.ours, L.ajvAll, L.ajvFirst, L.cfworker, ...ratioHead], coldRows)}

## Module load to first verdict

Median ms over ${first.budgets.loadRepeats} fresh processes per library and
runtime, from just before the import to the first verdict on the small
workload (ajv: import ajv + ajv-formats, addFormats, compile, validate).
Runtime start-up itself is not counted.

${table(["runtime", L.ours, L.ajvAll, L.ajvFirst, L.cfworker, ...ratioHead], loadRows)}

## Peak memory

One fresh process per library and runtime runs the 2,000-row workloads (valid
and invalid) ${first.budgets.memoryIterations} times each, sampling
\`process.memoryUsage().rss\` after every call. "over floor" is against the
process that only runs \`JSON.parse\` on the same documents; "wasm memory"
is \`wasmMemoryBytes()\` at the end (linear memory only grows, so this is its
peak).

${table(["runtime", "library", "peak RSS MiB", "over floor MiB", "wasm memory MiB"], memoryRows)}

## wasm size

\`pkg/wasm/guard_bg.wasm\`: ${kb(first.wasm.rawBytes)} raw; with \`zlib.gzipSync(bytes, { level: 9 })\`
${runs.map((r) => `${kb(r.wasm.gzipBytes)} under ${rtName(r)}`).join(", ")} (the runtimes'
zlib builds compress the same bytes differently); sha256 \`${first.wasm.sha256.slice(0, 16)}…\`.${
  runs.some((r) => r.wasm.sha256 !== first.wasm.sha256)
    ? `

**Warning:** pkg/ changed between the runtimes' runs (the wasm differs: ${runs
        .map((r) => `${rtName(r)} measured ${r.wasm.sha256.slice(0, 16)}…`)
        .join(", ")}), so the Node and Bun rows measured different builds. Run again.`
    : ""
}

## Workloads

${table(
  ["workload", "bytes", "expected"],
  first.workloads.map((w) => [w.label, group(w.bytes), w.valid ? "valid" : "invalid"]),
)}

Documents and schemas are in \`bench/workloads.mjs\` (seeded, identical on
every run): a single invoice extraction with date and email formats; rows of
\`{ type: enum, text, importance: 1-5, observedOn: date }\`; the same rows all
invalid (one or two faults each: label outside the enum, importance 0 or
"3", impossible or free-text date, missing date, empty text, unknown field);
and contacts with \`oneOf\` email/phone channels through \`$defs\`, \`pattern\`
ids and phone numbers, date, date-time and uri formats.
`;

writeFileSync(here("RESULTS.md"), md);
process.stderr.write(`[bench] wrote bench/RESULTS.md (${ok.all ? "every target met" : "some targets missed"})\n`);

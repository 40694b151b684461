// Writes the cost table (bench/cost-table.mjs, one JSON file per runtime)
// into bench/RESULTS.md: every row with both runtimes side by side and its
// ratio, and the rows above their target listed at the top of the file as
// missed, never averaged away.
//   node bench/cost-report.mjs node.json bun.json [--results bench/RESULTS.md]
import { readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const at = args.indexOf("--results");
const RESULTS = at >= 0 ? args[at + 1] : new URL("./RESULTS.md", import.meta.url).pathname;
const files = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--results");
const runs = files.map((file) => JSON.parse(readFileSync(file, "utf8")));

const SECTIONS = [
  ["text path", "`checkOutput(text, validator)` (or a schema object) against `JSON.parse(text)` + ajv's validate, on documents of the shapes users check; the invalid ones have one line in ten wrong."],
  ["value path", "`isValid` / `validate` / `~standard.validate` of a value already parsed against ajv's validate of the same value."],
  ["executor path", "`checkOutput(chat completion, response-format wrapper)` against the executor design (bench/executor-design.mjs) on the same objects."],
  ["tool calls", "`checkToolCalls(response, tools)` against the executor's own loop over the same calls."],
  ["options", "`checkOutput(text, validator, options)` against the same call without the options: options that leave the work unchanged must cost at most 5% more."],
  ["keywords", "Every keyword alone, as the schema of each item of a 1,000-item array (in an object's `items` member); the invalid document has every hundredth item wrong (ten issues). Text rows: `checkOutput` against `JSON.parse` + ajv; value rows: `isValid` (valid) and `validate` (invalid) against ajv's validate."],
  ["formats", "Every format alone, as `{ type: \"string\", format }` for each item of a 1,000-item array, measured as the keywords are."],
];

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const ratio = (r) => (r === undefined ? "—" : `${r.ratio.toFixed(2)}x${r.met ? "" : " **missed**"}`);
const key = (r) => `${r.section}\u0000${r.name}`;

const byKey = new Map();
const order = [];
for (const run of runs) {
  for (const r of run.rows) {
    if (!byKey.has(key(r))) {
      byKey.set(key(r), []);
      order.push(key(r));
    }
    byKey.get(key(r)).push(r);
  }
}
const runtimes = runs.map((run) => run.runtime);
const cell = (rs, runtime) => rs.find((r) => r.runtime === runtime);
const targetOf = (r) => (r.note?.includes("2 x ajv") ? "≤ 2x ajv + 1 µs" : r.note?.includes("the floor") ? "none (a floor)" : `≤ ${r.target}x`);

const lines = [];
lines.push("## Cost table", "");
lines.push(
  `Written by \`bash bench/bench.sh\` on ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} (bench/cost-table.mjs under each runtime, bench/cost-report.mjs). ` +
    "µs per call, the median of interleaved rounds; each ratio is the median of the rounds' own ratios of ours to the peer named in the row " +
    `(${runs.map((run) => `${run.runtime}: ${run.rounds} rounds of ${run.sliceMs} ms slices`).join("; ")}). A ratio above the row's target is marked **missed** and listed at the top of this file.`,
  "",
);
for (const [section, words] of SECTIONS) {
  const keys = order.filter((k) => k.startsWith(`${section}\u0000`));
  if (keys.length === 0) continue;
  lines.push(`### ${section[0].toUpperCase()}${section.slice(1)}`, "", words, "");
  const head = ["row", "peer"];
  for (const runtime of runtimes) head.push(`${runtime} ours`, `${runtime} peer`, `${runtime} ratio`);
  head.push("target", "note");
  lines.push(`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i < 2 || i >= head.length - 2 ? "---" : "---:")).join("|")}|`);
  for (const k of keys) {
    const rs = byKey.get(k);
    const cells = [rs[0].name, rs[0].peerName];
    for (const runtime of runtimes) {
      const r = cell(rs, runtime);
      cells.push(r ? fmt(r.ours) : "—", r ? fmt(r.peer) : "—", ratio(r));
    }
    const notes = [...new Set(rs.map((r) => r.note).filter(Boolean))];
    cells.push(targetOf(rs[0]), notes.join("; "));
    lines.push(`| ${cells.join(" | ")} |`);
  }
  lines.push("");
}

const missed = [];
for (const k of order) {
  for (const r of byKey.get(k)) if (!r.met) missed.push(r);
}
const top = ["## Missed rows of the cost table", ""];
if (missed.length === 0) {
  top.push("Every row of the cost table (below) is within its target on every runtime.", "");
} else {
  top.push(`${missed.length} of ${[...byKey.values()].flat().length} rows (each runtime counted) are above their target; the cost table below has them all.`, "");
  top.push("| section | row | runtime | ratio | target |", "|---|---|---|---:|---|");
  for (const r of missed) top.push(`| ${r.section} | ${r.name} | ${r.runtime} | ${r.ratio.toFixed(2)}x | ${targetOf(r)} |`);
  top.push("");
}

/** Drops a `## heading` section (up to the next `## `) from the text, if present. */
function dropSection(text, heading) {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return text;
  const next = text.indexOf("\n## ", start + heading.length + 2);
  return next < 0 ? text.slice(0, start + 1) : text.slice(0, start + 1) + text.slice(next + 1);
}

let results = readFileSync(RESULTS, "utf8");
results = dropSection(results, "## Missed rows of the cost table");
results = dropSection(results, "## Cost table");
// The missed rows go first, right after the title's paragraph.
const firstSection = results.indexOf("\n## ");
const head = firstSection < 0 ? results : results.slice(0, firstSection + 1);
const rest = firstSection < 0 ? "" : results.slice(firstSection + 1);
results = `${head}${top.join("\n")}\n${rest.replace(/\n*$/, "\n")}\n${lines.join("\n")}`;
writeFileSync(RESULTS, results);
console.log(`bench/RESULTS.md: ${missed.length} missed row(s) of the cost table`);

// The stream check's cost beside "wait for the end, then checkOutput", and
// what stopping early saves, in one process:
//   node bench/stream.mjs        (also: bun bench/stream.mjs)
// Ours: createStreamCheck(schema), push every chunk, end("stop"). The peer
// keeps the chunks and, at the end, runs checkOutput on the joined text.
// Ratios are against one checkOutput of the whole text (the cost target:
// 64-byte chunks at most 1.5x, 1-byte chunks at most 5x), each the median
// of the rounds' ratios (see `roundRatio`); the chunks are cut beforehand,
// as a stream delivers them.
import * as guard from "../pkg/node.mjs";
import { rowsSchema, workloads } from "./workloads.mjs";
import { interleavedRounds, median } from "./median.mjs";
import { pieces as chunks } from "../tests/support/fixtures.mjs";

const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;
const ROUNDS = 9;
const ROUND_MS = Number(process.env.STREAM_BENCH_MS ?? 150);

function streamed(pieces, schema) {
  const check = guard.createStreamCheck(schema);
  for (let i = 0; i < pieces.length; i++) check.push(pieces[i]);
  return check.end("stop");
}

function waitedFor(pieces, schema) {
  const parts = [];
  for (let i = 0; i < pieces.length; i++) parts.push(pieces[i]);
  return guard.checkOutput({ content: parts.join(""), finishReason: "stop" }, schema);
}

/**
 * Ms per call of each case: the median of the rounds' means, rounds
 * interleaved (in alternating order) so that drift hits all alike, and a
 * round with a collection or a slow spell of the machine does not move it.
 * `rounds` keeps each case's means by round, for `roundRatio`.
 */
function measure(cases) {
  const perRound = interleavedRounds(cases, ROUNDS, ROUND_MS);
  const medians = Object.fromEntries(Object.entries(perRound).map(([k, v]) => [k, median(v)]));
  return { ...medians, rounds: perRound };
}

/**
 * Case `a` against case `b` of one `measure`: the median of the rounds'
 * ratios, each of two means taken back to back in one round. This
 * machine has slow and fast spells of a second or more, up to 1.7x apart;
 * a ratio of the cases' medians could take its two sides from different
 * spells, a round's ratio cannot.
 */
function roundRatio(t, a, b) {
  return median(t.rounds[a].map((x, i) => x / t.rounds[b][i]));
}

const fmt = (ms) => (ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const times = (x) => `${x.toFixed(2)}x`;

console.log(`# Stream check cost (${runtime})\n`);
console.log(`Ms per call: the median of ${ROUNDS} interleaved rounds. A ratio is the median of the rounds' ratios, the cases of a round measured back to back.\n`);
console.log("| workload | bytes | chunk | checkOutput ms | wait, then checkOutput ms | stream check ms | stream / checkOutput | stream / wait-then-check |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
const targets = [];
for (const w of workloads().filter((w) => ["rows2000", "rows50", "refs", "small"].includes(w.id))) {
  const expected = guard.checkOutput({ content: w.text, finishReason: "stop" }, w.schema);
  // The last size is the whole text pushed at once.
  for (const size of w.id === "rows2000" ? [1, 16, 64, 1024, w.text.length] : [1, 64]) {
    const pieces = chunks(w.text, size);
    const verdict = streamed(pieces, w.schema);
    if (JSON.stringify(verdict) !== JSON.stringify(expected)) throw new Error(`${w.label}: the stream's verdict differs from checkOutput's`);
    const t = measure({
      check: () => guard.checkOutput(w.text, w.schema),
      wait: () => waitedFor(pieces, w.schema),
      stream: () => streamed(pieces, w.schema),
    });
    const chunk = size === w.text.length ? "all at once" : size;
    const toCheck = roundRatio(t, "stream", "check");
    console.log(`| ${w.label} | ${w.text.length.toLocaleString("en")} | ${chunk} | ${fmt(t.check)} | ${fmt(t.wait)} | ${fmt(t.stream)} | ${times(toCheck)} | ${times(roundRatio(t, "stream", "wait"))} |`);
    if (w.id === "rows2000" && (size === 64 || size === 1)) {
      const limit = size === 64 ? 1.5 : 5;
      targets.push(`2,000 rows in ${size}-byte chunks ≤ ${limit}x checkOutput: ${toCheck <= limit ? "met" : "**missed**"} (${times(toCheck)})`);
    }
  }
}
console.log(`\nTargets: ${targets.join("; ")}.`);

// What stopping saves: bytes received before the rejection, of the whole.
function stopAt(text, schema, size) {
  const check = guard.createStreamCheck(schema);
  let received = 0;
  for (const piece of chunks(text, size)) {
    received += Buffer.byteLength(piece);
    const state = check.push(piece);
    if (state.status === "rejected") return { received, state };
  }
  return { received, state: undefined };
}

const rows = JSON.parse(workloads().find((w) => w.id === "rows2000").text).observations;
const broken = structuredClone(rows);
broken[3].type = "observation";
const enumText = JSON.stringify({ observations: broken });
const capped = { ...rowsSchema, properties: { observations: { ...rowsSchema.properties.observations, maxItems: 50 } } };
const repeated = JSON.stringify({ observations: Array.from({ length: 2000 }, () => rows[0]) });
console.log("\n| stream | chunk | bytes received before the stop | whole response | share | first issue |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const [label, text, schema] of [
  ["2,000 rows, row 3 breaks an enum", enumText, rowsSchema],
  ["degenerate repetition past maxItems 50", repeated, capped],
]) {
  const whole = Buffer.byteLength(text);
  const { received, state } = stopAt(text, schema, 64);
  const issue = state ? `${state.errors[0].path} ${state.errors[0].code} (atByte ${state.atByte})` : "not stopped";
  console.log(`| ${label} | 64 | ${received.toLocaleString("en")} | ${whole.toLocaleString("en")} | ${((100 * received) / whole).toFixed(2)}% | ${issue} |`);
}

// The cost of a stream check's validated partial values (`partial: true`)
// beside the same stream without them and beside checkOutput of the whole
// text, in one process:
//   node bench/stream-partial.mjs        (also: bun bench/stream-partial.mjs)
// Cases, each the whole stream (create, push every chunk, end("stop")):
// - stream: createStreamCheck(schema), no partial values;
// - partial, unread: with partial: true, `partial` never read (the option's
//   own cost: a state object per push);
// - partial, every push: `partial` read after every push, as a preview
//   that redraws on every token would read it (the worst case: a read of
//   a piece that completes a member or item, or opens one, crosses the
//   waiting pieces, and the core judges what completed and says where
//   the new text is);
// - partial, every 1 KB: read once per kilobyte pushed, as a preview that
//   redraws on a timer would (and after the last push).
// Ratios are medians of the rounds' ratios (see bench/median.mjs), against
// the stream without partial (the target: at most 2x) and against one
// checkOutput of the whole text.
import * as guard from "../pkg/node.mjs";
import { workloads } from "./workloads.mjs";
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

/** With partial: true, `partial` read every `every` bytes pushed (0: never). */
function previewed(pieces, schema, every) {
  const check = guard.createStreamCheck(schema, { partial: true });
  let due = every;
  let pushed = 0;
  let shown;
  for (let i = 0; i < pieces.length; i++) {
    const state = check.push(pieces[i]);
    pushed += pieces[i].length;
    // The last push is shown too, as a preview shows the whole text.
    if (every > 0 && (pushed >= due || i === pieces.length - 1)) {
      shown = state.partial;
      due = pushed + every;
    }
  }
  if (every > 0 && shown === undefined) throw new Error("no preview was read");
  return check.end("stop");
}

const fmt = (ms) => (ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const times = (x) => `${x.toFixed(2)}x`;

console.log(`# Stream check with partial values (${runtime})\n`);
console.log(`Ms per call: the median of ${ROUNDS} interleaved rounds. A ratio is the median of the rounds' ratios, the cases of a round measured back to back.\n`);
console.log("| workload | bytes | chunk | checkOutput ms | stream ms | partial unread ms | partial every push ms | partial every 1 KB ms | unread / stream | every push / stream | every 1 KB / stream | every push / checkOutput |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const targets = [];
for (const w of workloads().filter((w) => ["rows2000", "rows50", "small"].includes(w.id))) {
  const expected = JSON.stringify(guard.checkOutput({ content: w.text, finishReason: "stop" }, w.schema));
  for (const size of [16, 64]) {
    const pieces = chunks(w.text, size);
    for (const every of [0, 1, 1024]) {
      if (JSON.stringify(previewed(pieces, w.schema, every)) !== expected) throw new Error(`${w.label}: the verdict differs from checkOutput's`);
    }
    const perRound = interleavedRounds(
      {
        check: () => guard.checkOutput(w.text, w.schema),
        stream: () => streamed(pieces, w.schema),
        unread: () => previewed(pieces, w.schema, 0),
        each: () => previewed(pieces, w.schema, 1),
        kb: () => previewed(pieces, w.schema, 1024),
      },
      ROUNDS,
      ROUND_MS,
    );
    const t = Object.fromEntries(Object.entries(perRound).map(([k, v]) => [k, median(v)]));
    const ratio = (a, b) => median(perRound[a].map((x, i) => x / perRound[b][i]));
    const each = ratio("each", "stream");
    console.log(`| ${w.label} | ${w.text.length.toLocaleString("en")} | ${size} | ${fmt(t.check)} | ${fmt(t.stream)} | ${fmt(t.unread)} | ${fmt(t.each)} | ${fmt(t.kb)} | ${times(ratio("unread", "stream"))} | ${times(each)} | ${times(ratio("kb", "stream"))} | ${times(ratio("each", "check"))} |`);
    targets.push(`${w.label} in ${size}-byte chunks, read every push ≤ 2x the stream: ${each <= 2 ? "met" : "**missed**"} (${times(each)})`);
  }
}
console.log(`\nTargets: ${targets.join("; ")}.`);

// What guardedStream saves on a doomed stream, in one process:
//   node bench/guarded-stream.mjs        (also: bun bench/guarded-stream.mjs)
// Scripted streams (64-byte pieces, each handed over on its own turn of the
// event loop, as a network stream delivers them) of the 2,000-row document
// (bench/workloads.mjs): one whose row 3 (0-based, as the issue path
// /observations/3 names it) breaks an enum, and one that degenerates into
// repeating a row past `maxItems: 50`. For each: how much of the stream was
// received before guardedStream stopped it, and where the problem was; then
// the resample (no tools in the request) that accepts a valid second
// stream (the 2,000 valid rows; for the capped schema, 50 of them), with
// both attempts' usage merged. The events are Anthropic message
// stream events, which report the input tokens at `message_start` and the
// output tokens at the end: the stopped attempt's usage is what it reported
// before the stop, never an estimate of what it would have cost.
import * as guard from "../pkg/node.mjs";
import { rowsSchema, workloads } from "./workloads.mjs";

const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;
const PIECE = 64;
const INPUT_TOKENS = 1200;

const utf8 = (text) => new TextEncoder().encode(text).length;

function pieces(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * An Anthropic-shaped event stream of `text`, recording how many of its
 * pieces were taken and whether it was left before its end. The final
 * `message_delta` reports one output token per 4 bytes, a stand-in for the
 * provider's count.
 */
function stream(text, log) {
  return async function* events() {
    log.pieces = 0;
    log.total = 0;
    const all = pieces(text, PIECE);
    log.total = all.length;
    yield { type: "message_start", message: { usage: { input_tokens: INPUT_TOKENS, output_tokens: 1 } } };
    yield { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } };
    for (const piece of all) {
      await new Promise((resolve) => setImmediate(resolve));
      log.pieces += 1;
      yield { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } };
    }
    yield { type: "content_block_stop", index: 0 };
    yield { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: Math.ceil(utf8(text) / 4) } };
    yield { type: "message_stop" };
  };
}

const rows = JSON.parse(workloads().find((w) => w.id === "rows2000").text).observations;
const valid = JSON.stringify({ observations: rows });
const broken = structuredClone(rows);
broken[3].type = "observation";
const enumText = JSON.stringify({ observations: broken });
const capped = { ...rowsSchema, properties: { observations: { ...rowsSchema.properties.observations, maxItems: 50 } } };
const repeated = JSON.stringify({ observations: Array.from({ length: 2000 }, () => rows[0]) });

/** Where item `i` (0-based) of the list ends in the document's text, in bytes. */
const itemEnd = (items, i) => utf8(`{"observations":[${items.slice(0, i + 1).map((r) => JSON.stringify(r)).join(",")}`);

const cases = [
  {
    label: "2,000 rows, row 3 breaks an enum",
    text: enumText,
    schema: rowsSchema,
    valid,
    bound: { what: "row 4 ends", at: itemEnd(broken, 4) },
  },
  {
    label: "degenerate repetition past maxItems 50",
    text: repeated,
    schema: capped,
    valid: JSON.stringify({ observations: rows.slice(0, 50) }),
    bound: { what: "item 51 ends", at: itemEnd(Array.from({ length: 52 }, () => rows[0]), 51) },
  },
];

console.log(`# guardedStream on a doomed stream (${runtime})\n`);
console.log(`Scripted Anthropic message stream events, ${PIECE}-byte text pieces; the second attempt streams a valid document (2,000 rows; 50 for the capped schema).\n`);
console.log("| first stream | bytes received before the stop | whole response | share | stopped before | pieces taken | first issue | attempts | accepted |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const usageLines = [];
for (const c of cases) {
  const logs = [{}, {}];
  const signals = [];
  const perAttempt = [];
  const started = performance.now();
  const result = await guard.guardedStream(
    { model: "claude-sonnet-5-5", max_tokens: 64000, messages: [{ role: "user", content: "the observations" }] },
    (request, { signal, attempt }) => {
      signals.push(signal);
      return stream(attempt === 1 ? c.text : c.valid, logs[attempt - 1])();
    },
    { schema: c.schema, onAttempt: (event) => perAttempt.push(event.usage.tokens ?? {}) },
  );
  const ms = performance.now() - started;
  const [stopped, accepted] = result.audit.attempts;
  if (!stopped.stoppedEarly || !signals[0].aborted) throw new Error(`${c.label}: the first stream was not stopped`);
  if (result.attempts !== 2 || accepted.failure !== null) throw new Error(`${c.label}: the second stream was not accepted`);
  if (stopped.bytes > c.bound.at) throw new Error(`${c.label}: stopped at ${stopped.bytes} bytes, after ${c.bound.what} (${c.bound.at})`);
  const whole = utf8(c.text);
  const issue = result.verdicts[0].errors[0];
  console.log(
    `| ${c.label} | ${stopped.bytes.toLocaleString("en")} | ${whole.toLocaleString("en")} | ${((100 * stopped.bytes) / whole).toFixed(2)}% | ` +
      `${c.bound.what} at ${c.bound.at.toLocaleString("en")} | ${logs[0].pieces} of ${logs[0].total} | ${issue.path} ${issue.code} | ${result.attempts} | yes (${ms.toFixed(0)} ms in all) |`,
  );
  const tokens = (t) => (t.input === undefined && t.output === undefined ? "none" : `input ${(t.input ?? 0).toLocaleString("en")}, output ${(t.output ?? 0).toLocaleString("en")}`);
  usageLines.push(
    `| ${c.label} | ${stopped.usageReported ? tokens(perAttempt[0]) : "none reported"} | ${tokens(perAttempt[1])} | ${tokens(result.usage.tokens)} | ` +
      `${Math.ceil(whole / 4).toLocaleString("en")} output tokens |`,
  );
}
console.log("\n| first stream | stopped attempt's reported usage | accepted attempt's usage | merged (result.usage.tokens) | the stopped stream would have reported at its end |");
console.log("| --- | --- | --- | --- | --- |");
for (const line of usageLines) console.log(line);

// The main job: guards a scripted model over the sample responses in
// samples.json, then a scripted stream, and prints, per scenario, each
// attempt's verdict, what the guard decided, and the usage merged over
// every attempt.
import { readFileSync } from "node:fs";
import { StructuredOutputError, checkOutput, guardedCall, guardedStream } from "../pkg/node.mjs";

const samples = JSON.parse(readFileSync(new URL("./samples.json", import.meta.url), "utf8"));
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const green = (t) => paint(32, t);
const red = (t) => paint(31, t);
const dim = (t) => paint(2, t);

function scriptedModel(responses) {
  let next = 0;
  const seen = [];
  const call = async (request) => {
    seen.push(request);
    if (next >= responses.length) throw new Error("the scripted model has no more responses");
    return responses[next++];
  };
  return { call, seen };
}

function describeVerdict(verdict) {
  if (verdict.ok) {
    return `${green("accepted")}${verdict.rescue === "code_fence" ? " (rescued from a code fence)" : ""}`;
  }
  const lines = [`${red(verdict.failure)}: ${verdict.message}`];
  for (const issue of verdict.errors) lines.push(`      ${issue.path || "(root)"}  ${issue.code}  ${dim(issue.message)}`);
  if (verdict.moreErrors) lines.push(dim("      ... more problems not listed"));
  return lines.join("\n");
}

function describeUsage(usage) {
  const t = usage.tokens ?? {};
  const parts = ["input", "output", "total", "cacheRead"].filter((k) => t[k] !== undefined).map((k) => `${k} ${t[k]}`);
  return parts.join(", ") || "none reported";
}

let accepted = 0;
let rejected = 0;
for (const [index, scenario] of samples.scenarios.entries()) {
  console.log(`\n${index + 1}. ${scenario.title}`);
  const model = scriptedModel(scenario.responses);
  try {
    const result = await guardedCall(scenario.request, model.call, {
      schema: samples.schema,
      onAttempt: ({ attempt, verdict, action, stoppedBy }) => {
        console.log(`   attempt ${attempt}: ${describeVerdict(verdict)}`);
        const decision = action === "resample" ? "resample once with the identical request" : `${action}${stoppedBy && stoppedBy !== "accepted" ? ` (stopped by: ${stoppedBy})` : ""}`;
        console.log(`   decision: ${decision}`);
      },
    });
    accepted += 1;
    console.log(`   ${green("result")}: ${JSON.stringify(result.value)}`);
    console.log(`   model calls: ${model.seen.length}, same request object every time: ${model.seen.every((r) => r === scenario.request)}`);
    console.log(`   usage over all attempts: ${describeUsage(result.usage)}`);
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
    rejected += 1;
    console.log(`   ${red("rejected")}: ${error.failure} after ${error.attempts} attempt(s), stopped by ${error.stoppedBy}`);
    console.log(`   model calls: ${model.seen.length}`);
    console.log(`   usage over all attempts: ${describeUsage(error.usage)}`);
  }
}

// A streamed answer: OpenAI chat completion chunks of 64 characters. The
// first stream's row 3 breaks the enum; the guard stops it there instead of
// paying for the other 197 rows, resamples, and accepts the second stream.
const rows = (bad) => Array.from({ length: 200 }, (_, i) => ({
  type: bad && i === 3 ? "opinion" : ["fact", "decision", "question"][i % 3],
  text: `observation ${i} of the weekly planning meeting`,
  importance: 1 + (i % 5),
  observedOn: "2026-11-30",
}));
function chatChunks(document, outputTokens) {
  const text = JSON.stringify({ observations: document });
  const chunks = [];
  for (let at = 0; at < text.length; at += 64) chunks.push({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: text.slice(at, at + 64) }, finish_reason: null }] });
  chunks.push({ object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
  chunks.push({ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 610, completion_tokens: outputTokens, total_tokens: 610 + outputTokens } });
  return { chunks, bytes: text.length };
}
console.log(`\n${samples.scenarios.length + 1}. a streamed answer stopped at its first definite violation (OpenAI chat completion chunks)`);
const streams = [chatChunks(rows(true), 5_400), chatChunks(rows(false), 5_400)];
let streamed = 0;
const streamRequest = { model: "gpt-4o-mini", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "List the observations." }] };
const result = await guardedStream(streamRequest, async function* (_request, { signal }) {
  for (const chunk of streams[streamed++].chunks) {
    if (signal.aborted) return;
    yield chunk;
  }
}, {
  schema: samples.schema,
  onAttempt: ({ attempt, verdict, action, bytes, stoppedEarly, usageReported }) => {
    const whole = streams[attempt - 1].bytes;
    console.log(`   attempt ${attempt}: ${describeVerdict(verdict)}`);
    console.log(`   received ${bytes.toLocaleString("en")} of ${whole.toLocaleString("en")} bytes${stoppedEarly ? ", stopped early" : ""}; usage ${usageReported ? "reported" : "not reported (the stream was stopped before its usage chunk)"}`);
    console.log(`   decision: ${action === "resample" ? "resample once with the identical request" : action}`);
  },
});
accepted += 1;
console.log(`   ${green("result")}: ${result.value.observations.length} rows; model calls: ${result.attempts}`);
console.log(`   usage over all attempts: ${describeUsage(result.usage)}`);

// The same check without the wrapper, as an executor would run it inline.
const inline = checkOutput('Sure! Here is the JSON: {"observations": []}', samples.schema);
console.log(`\ninline checkOutput on prose around JSON: ${inline.ok ? "accepted" : inline.failure}`);
console.log(`\n${samples.scenarios.length + 1} scenarios: ${accepted} accepted, ${rejected} rejected`);

// The cost of checking tool calls as they stream, beside checking the
// assembled response once, in one process:
//   node bench/stream-tools.mjs        (also: bun bench/stream-tools.mjs)
// - forced-tool output: createStreamCheck(schema, { toolName }) pushed every
//   Anthropic `input_json_delta` event of a call whose arguments are the
//   workload's document, against checkOutput(finalMessage, schema,
//   { toolName }) of the assembled message;
// - every call: createToolCallStreamCheck(tools) pushed every OpenAI Chat
//   chunk of three parallel calls, interleaved, against
//   checkToolCalls(completion, tools).
// The events are the providers' wire objects, as the SDKs hand them over
// (plain objects parsed from each server-sent event); each ratio is the
// median of the rounds' ratios, the cases of a round measured back to back.
import * as guard from "../pkg/node.mjs";
import { workloads } from "./workloads.mjs";
import { interleavedRounds, median } from "./median.mjs";
import { pieces as chunks } from "../tests/support/fixtures.mjs";

const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;
const ROUNDS = 9;
const ROUND_MS = Number(process.env.STREAM_BENCH_MS ?? 150);

const measure = (cases) => interleavedRounds(cases, ROUNDS, ROUND_MS);

const ratio = (rounds, a, b) => median(rounds[a].map((x, i) => x / rounds[b][i]));
const ms = (rounds, a) => median(rounds[a]);
const fmt = (x) => (x >= 1 ? x.toFixed(2) : x.toFixed(3));

console.log(`# Tool calls checked as they stream (${runtime})\n`);
console.log("| workload | bytes | chunk | whole-response check ms | streamed ms | streamed / whole |");
console.log("| --- | --- | --- | --- | --- | --- |");

const TOOL = "record";
for (const w of workloads().filter((w) => ["rows2000", "rows50", "small"].includes(w.id))) {
  const input = JSON.parse(w.text);
  const message = { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "toolu_1", name: TOOL, input }], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
  for (const size of [16, 64]) {
    const events = [
      { type: "message_start", message: { ...message, content: [], stop_reason: null } },
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: TOOL, input: {} } },
      ...chunks(w.text, size).map((partial_json) => ({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json } })),
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 1 } },
      { type: "message_stop" },
    ];
    const streamed = () => {
      const check = guard.createStreamCheck(w.schema, { toolName: TOOL });
      for (let i = 0; i < events.length; i++) check.push(events[i]);
      return check.end();
    };
    const whole = () => guard.checkOutput(message, w.schema, { toolName: TOOL });
    if (JSON.stringify(streamed().value) !== JSON.stringify(whole().value)) throw new Error(`${w.label}: the verdicts differ`);
    const rounds = measure({ whole, streamed });
    console.log(`| forced tool (Anthropic): ${w.label} | ${w.text.length.toLocaleString("en")} | ${size} | ${fmt(ms(rounds, "whole"))} | ${fmt(ms(rounds, "streamed"))} | ${ratio(rounds, "streamed", "whole").toFixed(2)}x |`);
  }
}

// Three parallel calls of the small workload's rows, interleaved by index.
const small = workloads().find((w) => w.id === "rows50");
const tools = [0, 1, 2].map((i) => ({ type: "function", function: { name: `record_${i}`, parameters: small.schema } }));
for (const size of [16, 64]) {
  const args = [0, 1, 2].map(() => small.text);
  const chunk = (delta, finish = null) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }] });
  const events = [0, 1, 2].map((index) => chunk({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name: `record_${index}`, arguments: "" } }] }));
  const pieces = args.map((a) => chunks(a, size));
  for (let k = 0; k < pieces[0].length; k++) for (let index = 0; index < 3; index++) events.push(chunk({ tool_calls: [{ index, function: { arguments: pieces[index][k] } }] }));
  events.push(chunk({}, "tool_calls"));
  const completion = { id: "c1", object: "chat.completion", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: args.map((a, i) => ({ id: `call_${i}`, type: "function", function: { name: `record_${i}`, arguments: a } })) }, finish_reason: "tool_calls" }] };
  const streamed = () => {
    const check = guard.createToolCallStreamCheck(tools);
    for (let i = 0; i < events.length; i++) check.push(events[i]);
    return check.end();
  };
  const whole = () => guard.checkToolCalls(completion, tools);
  if (JSON.stringify(streamed()) !== JSON.stringify(whole())) throw new Error("the tool-call verdicts differ");
  const rounds = measure({ whole, streamed });
  console.log(`| every call (OpenAI Chat), 3 interleaved: ${small.label} | ${(3 * small.text.length).toLocaleString("en")} | ${size} | ${fmt(ms(rounds, "whole"))} | ${fmt(ms(rounds, "streamed"))} | ${ratio(rounds, "streamed", "whole").toFixed(2)}x |`);
}

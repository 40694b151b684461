// The calls users make, side by side in one process, as ratios.
//
// For each workload of bench/workloads.mjs, every checkOutput call shape the
// docs/api.md shows (a string, `{ content, finishReason }` or an OpenAI chat
// completion; a Validator, a schema object or a response-format wrapper;
// with and without options besides maxErrors), beside:
// - the executor design this package replaces, written from its
//   description: the finish reason of the last model segment, JSON.parse
//   with a code-fence fallback, an LRU of ajv validators keyed by
//   JSON.stringify(schema), ajv with allErrors and ajv-formats, on the same
//   chat completion + wrapper;
// - plain JSON.parse + a precompiled ajv validator on the text.
// And guardedCall's overhead per attempt (everything but the model call: a
// callModel that returns a ready response) beside one checkOutput of the
// same response; what the frameworks call, a Validator's Standard Schema
// `validate` of a value already parsed, beside ajv's validate function on
// the same value; and checkToolCalls of a chat completion whose one tool
// call carries the workload as its arguments, against a request with three
// tools and a conversation (the same response again and again, and 64
// responses in turn, each with its own call id and arguments string, as an
// agent's responses come), beside an agent loop's own check (JSON.parse of
// the arguments, the named tool's ajv validator compiled beforehand).
//   node bench/user-path.mjs [--only small,rows50] [--ms 40] [--rounds 15]
//   bun bench/user-path.mjs  (the same)
// Prints a markdown table: µs per call (median over rounds) and each shape's
// ratio to the lane, to the executor design and to JSON.parse + ajv (the
// median of the rounds' ratios, each round measuring every shape once).
import { chatCompletion, workloads } from "./workloads.mjs";
import * as guard from "../pkg/node.mjs";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const ONLY = option("only", "small,rows50,refs,rows2000").split(",");
const SLICE_MS = Number(option("ms", "40"));
// On this 2-core machine, 7 rounds left shapes that run the same code up to
// a quarter apart on a small response (the lane against the lane with
// { rules: [] }); the median of 15 holds them within a few percent.
const ROUNDS = Number(option("rounds", "15"));
const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`;

const { default: Ajv2020 } = await import("ajv/dist/2020.js");
const { default: addFormats } = await import("ajv-formats");

let sink = 0;

/** A chat request with a conversation and three tools, the first taking `schema`. */
function toolRequestFor(schema) {
  const tool = (name, parameters) => ({ type: "function", function: { name, description: `${name} the input`, parameters } });
  const messages = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i}: ${"words of the conversation ".repeat(12)}` }));
  return {
    model: "gpt-4o-mini",
    messages,
    tools: [
      tool("record", schema),
      tool("search", { type: "object", required: ["q"], properties: { q: { type: "string" }, limit: { type: "integer", minimum: 1 } } }),
      tool("notify", { type: "object", required: ["to"], properties: { to: { type: "string", format: "email" } } }),
    ],
  };
}

/** The chat completion of a model that calls `record` with `text` as its arguments. */
function toolCallCompletion(text) {
  const completion = chatCompletion(null);
  completion.choices[0].message.tool_calls = [{ id: "call_bench", type: "function", function: { name: "record", arguments: text } }];
  completion.choices[0].finish_reason = "tool_calls";
  return completion;
}

const wrapperOf = (schema) => ({ type: "json_schema", json_schema: { name: "extraction", schema, strict: true } });

/**
 * The executor design: an agent handler's own check, as such handlers are
 * written before a guard replaces them.
 */
function executorDesign() {
  const cache = new Map();
  const LIMIT = 64;
  const validatorFor = (schema) => {
    const key = JSON.stringify(schema);
    let validate = cache.get(key);
    if (validate !== undefined) {
      cache.delete(key);
      cache.set(key, validate);
      return validate;
    }
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validate = ajv.compile(schema);
    cache.set(key, validate);
    if (cache.size > LIMIT) cache.delete(cache.keys().next().value);
    return validate;
  };
  const FENCE = /```(?:json)?\s*\n([\s\S]*?)\n\s*```/;
  return (response, wrapper) => {
    const choice = response.choices?.[0];
    const segments = response.timing?.timeSegments;
    const lastModel = Array.isArray(segments) ? segments.filter((s) => s.type === "model").at(-1) : undefined;
    const finishReason = lastModel?.finishReason ?? choice?.finish_reason;
    if (finishReason === "length") return { ok: false, failure: "truncated" };
    const content = choice?.message?.content;
    if (typeof content !== "string") return { ok: false, failure: "empty" };
    let value;
    try {
      value = JSON.parse(content);
    } catch {
      const fenced = FENCE.exec(content);
      if (fenced === null) return { ok: false, failure: "unparseable" };
      try {
        value = JSON.parse(fenced[1]);
      } catch {
        return { ok: false, failure: "unparseable" };
      }
    }
    const validate = validatorFor(wrapper.json_schema?.schema ?? wrapper);
    return validate(value) ? { ok: true, value } : { ok: false, failure: "schema", errors: validate.errors.slice(0, 5) };
  };
}

function shapesFor(w) {
  const validator = guard.compileSchema(w.schema);
  const schema = w.schema;
  const wrapper = wrapperOf(w.schema);
  const pair = { content: w.text, finishReason: "stop" };
  const completion = chatCompletion(w.text);
  const check = (verdict) => {
    if (verdict.ok !== w.valid) throw new Error(`wrong verdict on ${w.id}: ${verdict.message}`);
    sink ^= verdict.ok ? 1 : 2;
  };
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const ajvValidate = ajv.compile(w.schema);
  const executor = executorDesign();
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "extract" }], response_format: wrapper };
  const standard = validator["~standard"];
  const value = JSON.parse(w.text);
  const toolRequest = toolRequestFor(w.schema);
  const toolResponse = toolCallCompletion(w.text);
  // An agent's responses, call after call: each its own object, with its
  // own call id and arguments string.
  const toolResponses = Array.from({ length: 64 }, (_, i) => {
    const response = toolCallCompletion(`${w.text}${" ".repeat(i % 3)}`);
    response.id = `chatcmpl-${i}`;
    response.choices[0].message.tool_calls[0].id = `call_${i.toString(36)}_${i * 7919}`;
    return response;
  });
  let nextResponse = 0;
  const toolValidators = new Map(toolRequest.tools.map((t) => [t.function.name, ajv.compile(t.function.parameters)]));
  const ready = Promise.resolve(completion);
  return [
    ["string + Validator (the lane)", () => check(guard.checkOutput(w.text, validator, { maxErrors: 5 }))],
    ["string + Validator + { rules: [] }", () => check(guard.checkOutput(w.text, validator, { maxErrors: 5, rules: [] }))],
    ["{ content, finishReason } + Validator", () => check(guard.checkOutput(pair, validator))],
    ["chat completion + Validator", () => check(guard.checkOutput(completion, validator))],
    ["string + schema object", () => check(guard.checkOutput(w.text, schema))],
    ["chat completion + schema object", () => check(guard.checkOutput(completion, schema))],
    ["chat completion + wrapper", () => check(guard.checkOutput(completion, wrapper))],
    ["executor design (chat completion + wrapper)", () => check(executor(completion, wrapper))],
    ["JSON.parse + ajv (string)", () => {
      const ok = ajvValidate(JSON.parse(w.text));
      if (ok !== w.valid) throw new Error("ajv disagrees");
      sink ^= ok ? 1 : 2;
    }],
    ["Standard Schema validate(value)", () => {
      const ok = standard.validate(value).issues === undefined;
      if (ok !== w.valid) throw new Error(`wrong Standard Schema result on ${w.id}`);
      sink ^= ok ? 1 : 2;
    }],
    ["ajv validate(value)", () => {
      const ok = ajvValidate(value);
      if (ok !== w.valid) throw new Error("ajv disagrees");
      sink ^= ok ? 1 : 2;
    }],
    ["checkToolCalls (tool call + request with tools)", () => {
      const verdict = guard.checkToolCalls(toolResponse, toolRequest);
      if (verdict.ok !== w.valid) throw new Error(`wrong tool-call verdict on ${w.id}`);
      sink ^= verdict.ok ? 1 : 2;
    }],
    ["checkToolCalls, a new response each call", () => {
      const verdict = guard.checkToolCalls(toolResponses[nextResponse++ & 63], toolRequest);
      if (verdict.ok !== w.valid) throw new Error(`wrong tool-call verdict on ${w.id}`);
      sink ^= verdict.ok ? 1 : 2;
    }],
    ["agent loop's tool-call check (JSON.parse + ajv)", () => {
      let ok = true;
      for (const call of toolResponse.choices[0].message.tool_calls) {
        const validate = toolValidators.get(call.function.name);
        ok &&= validate !== undefined && validate(JSON.parse(call.function.arguments));
      }
      if (ok !== w.valid) throw new Error("ajv disagrees on the tool call");
      sink ^= ok ? 1 : 2;
    }],
    ["guardedCall attempt (chat completion + wrapper)", async () => {
      try {
        const result = await guard.guardedCall(request, () => ready, { schema: wrapper });
        sink ^= result.attempts;
      } catch (error) {
        if (w.valid || !(error instanceof guard.StructuredOutputError)) throw error;
        sink ^= error.attempts;
      }
    }],
  ];
}

/** Calls per slice measured in µs per call; async shapes are awaited. */
async function slice(fn) {
  const start = performance.now();
  let calls = 0;
  let now = start;
  while (now - start < SLICE_MS) {
    for (let i = 0; i < 8; i++) {
      const r = fn();
      if (r !== undefined) await r;
    }
    calls += 8;
    now = performance.now();
  }
  return ((now - start) * 1000) / calls;
}


console.log(`${runtime}, ${ROUNDS} rounds of ${SLICE_MS} ms slices per shape, interleaved; µs per call (median); each ratio the median of the rounds' ratios`);
for (const w of workloads().filter((x) => ONLY.includes(x.id))) {
  const shapes = shapesFor(w);
  for (const [, fn] of shapes) await slice(fn); // warm-up
  const times = shapes.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // A rotating order, so drift hits every shape alike.
    for (let k = 0; k < shapes.length; k++) {
      const i = (k + round) % shapes.length;
      times[i].push(await slice(shapes[i][1]));
    }
  }
  const med = times.map(median);
  const index = (name) => shapes.findIndex(([n]) => n === name);
  const lane = 0;
  const executor = shapes.findIndex(([name]) => name.startsWith("executor"));
  const ajv = shapes.findIndex(([name]) => name.startsWith("JSON.parse"));
  const check = index("chat completion + wrapper");
  // Shape i against shape j: the median of the rounds' ratios. The machine
  // has slow and fast spells of a second or more; a round's two slices
  // fall in one spell far more often than two medians do.
  const ratio = (i, j) => `${median(times[i].map((t, round) => t / times[j][round])).toFixed(2)}x`;
  console.log(`\n### ${w.label} (${w.text.length.toLocaleString("en")} B, ${w.valid ? "valid" : "invalid"})`);
  console.log("| call | µs | / lane | / executor design | / JSON.parse + ajv |");
  console.log("|---|---:|---:|---:|---:|");
  shapes.forEach(([name], i) => {
    const cells = [med[i].toFixed(2), ratio(i, lane), ratio(i, executor), ratio(i, ajv)];
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  });
  console.log(`\nguardedCall per attempt / one checkOutput of the same response: ${ratio(shapes.length - 1, check)}`);
  console.log(`Standard Schema validate(value) / ajv validate(value): ${ratio(index("Standard Schema validate(value)"), index("ajv validate(value)"))}`);
  console.log(`checkToolCalls / the agent loop's tool-call check: ${ratio(index("checkToolCalls (tool call + request with tools)"), index("agent loop's tool-call check (JSON.parse + ajv)"))}`);
}
if (sink === 0.5) console.log(sink);

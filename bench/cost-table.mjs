// The cost table, in one runtime: every keyword and every format alone (in
// 1,000-item arrays, valid and invalid), the realistic mixes (the invoice
// shape at 1, 40 and 1,500 lines, the small extraction), the value path,
// the executor path, tool calls and the options, each call of ours beside
// the call a user would write instead, interleaved round by round; a row's
// ratio is the median of its rounds' ratios (a round's two slices fall in
// the same spell of a busy machine far more often than two medians do).
//   node bench/cost-table.mjs [--out rows.json] [--ms 10] [--rounds 5] [--only text] [--quick]
//   bun bench/cost-table.mjs  (the same)
// `bash bench/bench.sh` runs it under both runtimes and writes the table
// into bench/RESULTS.md with bench/cost-report.mjs.
import { writeFileSync } from "node:fs";
import * as guard from "../pkg/node.mjs";
import { readOnceCopy } from "../pkg/testing.mjs";
import { chatCompletion, smallDocument, smallSchema } from "./workloads.mjs";
import { executorDesign } from "./executor-design.mjs";
import { median } from "./median.mjs";
import {
  FORMAT_CASES,
  KEYWORD_CASES,
  formatCase,
  invalidInvoice,
  invoice,
  invoiceSchema,
  keywordWorkload,
  oneMemberSchema,
  oneMemberValue,
  smallObject,
  smallObjectSchema,
} from "./cost-cases.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const QUICK = args.includes("--quick");
const SLICE_MS = Number(option("ms", QUICK ? "3" : "10"));
const ROUNDS = Number(option("rounds", QUICK ? "2" : "5"));
const ONLY = option("only", "");
const OUT = option("out", "");
const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;

const { default: Ajv2020 } = await import("ajv/dist/2020.js");
const { default: Ajv2019 } = await import("ajv/dist/2019.js");
const { default: Ajv7 } = await import("ajv");
const { default: addFormats } = await import("ajv-formats");

/** One Ajv per draft, as a user configures it: allErrors, ajv-formats, not strict. */
const ajvs = {};
function ajvFor(draft) {
  if (ajvs[draft] === undefined) {
    const Ajv = draft === "7" ? Ajv7 : draft === "2019" ? Ajv2019 : Ajv2020;
    const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
    addFormats(ajv);
    ajvs[draft] = ajv;
  }
  return ajvs[draft];
}

let sink = 0;

/** µs per call over one slice. */
function slice(fn) {
  const start = performance.now();
  let calls = 0;
  let now = start;
  while (now - start < SLICE_MS) {
    for (let i = 0; i < 4; i++) fn();
    calls += 4;
    now = performance.now();
  }
  return ((now - start) * 1000) / calls;
}

const rows = [];

/**
 * Measures `ours` beside `peer` (each returns the verdict as a boolean,
 * compared with `expected` on every call) and records the row. `peerBound`
 * turns the peer's time into the bound the row is held to (the target is
 * then `ours <= bound * target`).
 */
function row(section, name, ours, peer, { expected, target = 1, peerName = "ajv", note, peerBound } = {}) {
  if (ONLY !== "" && !`${section} ${name}`.includes(ONLY)) return;
  let disagrees = false;
  const oursChecked = () => {
    if (ours() !== expected) throw new Error(`${section} / ${name}: ours gave the wrong verdict`);
  };
  const peerChecked = () => {
    if (peer() !== expected) disagrees = true;
  };
  slice(oursChecked);
  slice(peerChecked);
  const ratios = [];
  const oursTimes = [];
  const peerTimes = [];
  for (let round = 0; round < ROUNDS; round++) {
    let a;
    let b;
    if (round % 2 === 0) {
      a = slice(oursChecked);
      b = slice(peerChecked);
    } else {
      b = slice(peerChecked);
      a = slice(oursChecked);
    }
    const bound = peerBound === undefined ? b : peerBound(b);
    oursTimes.push(a);
    peerTimes.push(b);
    ratios.push(a / bound);
  }
  const ratio = median(ratios);
  const notes = [note, disagrees ? `${peerName} disagrees with the expected verdict` : undefined].filter(Boolean);
  rows.push({ section, name, runtime, ours: median(oursTimes), peer: median(peerTimes), peerName, ratio, target, met: ratio <= target, note: notes.join("; ") || undefined });
  process.stderr.write(`${section} | ${name} | ${ratio.toFixed(2)}x\n`);
}

const verdictOk = (verdict) => {
  sink ^= verdict.ok ? 1 : 2;
  return verdict.ok;
};

/**
 * The value path's floor beside a row: the read-once copy of the value
 * alone (see `readOnceCopy` in js/testing.mjs), which `~standard.validate`
 * makes before any check, and `isValid` and `validate` where the schema's
 * program cannot read the value where it lies, against the same peer. No
 * target: no call that copies a caller's value, reading it once, as
 * docs/api.md says, costs less.
 */
function floorRow(section, label, validator, value, peer) {
  // Past the checks made before the schema's program, so the copy follows its reach.
  for (let i = 0; i < 3; i++) validator.isValid(value);
  row(section, `${label}: the floor, the read-once copy alone`, () => readOnceCopy(validator, value) !== undefined, peer, { expected: true, target: Infinity, note: FLOOR_NOTE });
}
const FLOOR_NOTE = "the floor: the read-once copy ~standard.validate makes (and isValid where the value cannot be read in place), no check";

// --- every keyword and every format, alone ------------------------------------

for (const kase of [...KEYWORD_CASES, ...FORMAT_CASES.map(formatCase)]) {
  const w = keywordWorkload(kase);
  const section = kase.id.startsWith("format:") ? "formats" : "keywords";
  const validator = guard.compileSchema(w.schema);
  const validate = ajvFor(w.ajvDraft).compile(w.ajvSchema);
  const note = kase.note;
  for (const [state, value] of [["valid", w.valid], ["invalid", w.invalid]]) {
    const text = JSON.stringify(value);
    const expected = state === "valid" || w.invalidIsValid;
    row(section, `${kase.id}, text, ${state}`, () => verdictOk(guard.checkOutput(text, validator)), () => {
      const ok = validate(JSON.parse(text));
      sink ^= ok ? 1 : validate.errors.length;
      return ok;
    }, { expected, note, peerName: "JSON.parse + ajv" });
    if (state === "valid") {
      row(section, `${kase.id}, value, valid: isValid`, () => validator.isValid(value), () => validate(value), { expected, note });
      floorRow(section, `${kase.id}, value, valid`, validator, value, () => validate(value));
    } else {
      row(section, `${kase.id}, value, invalid: validate`, () => {
        const result = validator.validate(value);
        sink ^= result.errors.length;
        return result.valid;
      }, () => {
        const ok = validate(value);
        sink ^= ok ? 1 : validate.errors.length;
        return ok;
      }, { expected, note });
    }
  }
}

// --- realistic mixes: the text path and the value path ------------------------

const mixes = [
  { id: "small extraction", schema: smallSchema, valid: smallDocument },
  { id: "invoice, 1 line", schema: invoiceSchema, valid: invoice(1), invalid: invalidInvoice(1) },
  { id: "invoice, 40 lines", schema: invoiceSchema, valid: invoice(40), invalid: invalidInvoice(40) },
  { id: "invoice, 1,500 lines", schema: invoiceSchema, valid: invoice(1500), invalid: invalidInvoice(1500) },
];

for (const mix of mixes) {
  const validator = guard.compileSchema(mix.schema);
  const validate = ajvFor("2020").compile(mix.schema);
  const standard = validator["~standard"];
  for (const state of ["valid", "invalid"]) {
    const value = mix[state];
    if (value === undefined) continue;
    const text = JSON.stringify(value);
    const expected = state === "valid";
    const label = `${mix.id} (${text.length.toLocaleString("en")} B), ${state}`;
    const ajvText = () => {
      const ok = validate(JSON.parse(text));
      sink ^= ok ? 1 : validate.errors.length;
      return ok;
    };
    const ajvValue = () => {
      const ok = validate(value);
      sink ^= ok ? 1 : validate.errors.length;
      return ok;
    };
    row("text path", `${label}: checkOutput(text, validator)`, () => verdictOk(guard.checkOutput(text, validator)), ajvText, { expected, peerName: "JSON.parse + ajv" });
    row("text path", `${label}: checkOutput(text, schema object)`, () => verdictOk(guard.checkOutput(text, mix.schema)), ajvText, { expected, peerName: "JSON.parse + ajv" });
    row("value path", `${label}: isValid(value)`, () => validator.isValid(value), ajvValue, { expected });
    row("value path", `${label}: validate(value)`, () => validator.validate(value).valid, ajvValue, { expected });
    row("value path", `${label}: ~standard.validate(value)`, () => standard.validate(value).issues === undefined, ajvValue, { expected });
    if (expected) floorRow("value path", label, validator, value, ajvValue);
    // The executor path: a chat completion and a response-format wrapper.
    const wrapper = { type: "json_schema", json_schema: { name: "extraction", schema: mix.schema, strict: true } };
    const completion = chatCompletion(text);
    const executor = executorDesign();
    row("executor path", `${label}: checkOutput(chat completion, wrapper)`, () => verdictOk(guard.checkOutput(completion, wrapper)), () => executor(completion, wrapper).ok, { expected, peerName: "executor design" });
  }
}

// --- the value path's two shapes -----------------------------------------------

{
  const validator = guard.compileSchema(smallObjectSchema);
  const validate = ajvFor("2020").compile(smallObjectSchema);
  const standard = validator["~standard"];
  const value = smallObject;
  row("value path", "3-member object: isValid(value)", () => validator.isValid(value), () => validate(value), { expected: true });
  row("value path", "3-member object: validate(value)", () => validator.validate(value).valid, () => validate(value), { expected: true });
  row("value path", "3-member object: ~standard.validate(value)", () => standard.validate(value).issues === undefined, () => validate(value), { expected: true });
  floorRow("value path", "3-member object", validator, value, () => validate(value));
  const bad = { id: "42", name: "Ada Lovelace", active: true };
  row("value path", "3-member object, invalid: validate(value)", () => validator.validate(bad).valid, () => {
    const ok = validate(bad);
    sink ^= ok ? 1 : validate.errors.length;
    return ok;
  }, { expected: false });
  row("value path", "3-member object, invalid: ~standard.validate(value)", () => standard.validate(bad).issues === undefined, () => {
    const ok = validate(bad);
    sink ^= ok ? 1 : validate.errors.length;
    return ok;
  }, { expected: false });
}
{
  const validator = guard.compileSchema(oneMemberSchema);
  const validate = ajvFor("2020").compile(oneMemberSchema);
  const standard = validator["~standard"];
  const value = oneMemberValue();
  const size = `${(JSON.stringify(value).length / 1000).toFixed(1)} KB`;
  // Within 2x ajv's time + 1 µs.
  const peerBound = (ajv) => 2 * ajv + 1;
  const note = "target: ours <= 2 x ajv + 1 µs";
  row("value path", `${size} value, schema reads one member: isValid(value)`, () => validator.isValid(value), () => validate(value), { expected: true, peerBound, note });
  row("value path", `${size} value, schema reads one member: ~standard.validate(value)`, () => standard.validate(value).issues === undefined, () => validate(value), { expected: true, peerBound, note });
}

// --- tool calls -------------------------------------------------------------------

{
  const schema = invoiceSchema;
  const args = invoice(40);
  const text = JSON.stringify(args);
  const tools = [
    { type: "function", function: { name: "record_invoice", description: "Record an invoice", parameters: schema } },
    { type: "function", function: { name: "search", parameters: { type: "object", required: ["q"], properties: { q: { type: "string" } } } } },
  ];
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "record it" }], tools };
  const openai = chatCompletion(null);
  openai.choices[0].message.tool_calls = [{ id: "call_1", type: "function", function: { name: "record_invoice", arguments: text } }];
  openai.choices[0].finish_reason = "tool_calls";
  const anthropicTools = tools.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters }));
  const anthropic = { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [{ type: "tool_use", id: "toolu_1", name: "record_invoice", input: args }], stop_reason: "tool_use", usage: { input_tokens: 10, output_tokens: 10 } };
  const validators = new Map(tools.map((t) => [t.function.name, ajvFor("2020").compile(t.function.parameters)]));
  row("tool calls", "OpenAI Chat, text arguments, invoice 40 lines: checkToolCalls", () => verdictOk(guard.checkToolCalls(openai, request)), () => {
    let ok = true;
    for (const call of openai.choices[0].message.tool_calls) ok &&= validators.get(call.function.name)(JSON.parse(call.function.arguments));
    return ok;
  }, { expected: true, peerName: "JSON.parse + ajv per call" });
  row("tool calls", "Anthropic, object input, invoice 40 lines: checkToolCalls", () => verdictOk(guard.checkToolCalls(anthropic, anthropicTools)), () => {
    let ok = true;
    for (const block of anthropic.content) if (block.type === "tool_use") ok &&= validators.get(block.name)(block.input);
    return ok;
  }, { expected: true, peerName: "ajv per call" });
}

// --- options that leave the work unchanged, against the call without them --------

{
  const validator = guard.compileSchema(invoiceSchema);
  for (const [lines, text] of [[1, JSON.stringify(invoice(1))], [40, JSON.stringify(invoice(40))]]) {
    const bare = () => verdictOk(guard.checkOutput(text, validator));
    const opts = (name, options) =>
      row("options", `invoice, ${lines} line${lines === 1 ? "" : "s"}: ${name}`, () => verdictOk(guard.checkOutput(text, validator, options)), bare, { expected: true, target: 1.05, peerName: "the call without options" });
    opts("{ maxErrors: 5, requireObject: true, formats: \"assert\" } (the defaults)", { maxErrors: 5, requireObject: true, formats: "assert" });
    opts("{ maxErrors: 5 }", { maxErrors: 5 });
    opts("{ maxErrors: 20 }", { maxErrors: 20 });
    opts("{ formats: \"assert\" }", { formats: "assert" });
    opts("{ requireObject: true }", { requireObject: true });
    opts("{ rules: [] }", { rules: [] });
    const forced = chatCompletion(null);
    forced.choices[0].message.tool_calls = [{ id: "call_1", type: "function", function: { name: "record_invoice", arguments: text } }];
    forced.choices[0].finish_reason = "stop";
    const plain = chatCompletion(text);
    row("options", `invoice, ${lines} line${lines === 1 ? "" : "s"}: { toolName } on a forced tool call`, () => verdictOk(guard.checkOutput(forced, validator, { toolName: "record_invoice" })), () => verdictOk(guard.checkOutput(plain, validator)), { expected: true, target: 1.05, peerName: "the same JSON as content" });
  }
}

if (sink === 0.5) console.log(sink);
const json = JSON.stringify({ runtime, sliceMs: SLICE_MS, rounds: ROUNDS, rows }, null, 1);
if (OUT !== "") writeFileSync(OUT, json);
else console.log(json);

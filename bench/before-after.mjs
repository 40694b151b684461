// The rows of the speed targets (multipleOf, integer, many rows, rejected
// documents and values against ajv allErrors, the value
// path on small and large values, the defaults spelled out, the invoice
// shape on the text, value and executor paths), measured for two builds of
// the package and the peer in ONE process: every call of a row runs in
// the same round, in a rotating order, so a busy machine slows them alike,
// and a row's ratio is the median of its rounds' own ratios.
//   node bench/before-after.mjs BEFORE_PKG_DIR AFTER_PKG_DIR [--rounds N] [--ms M] [--only TEXT]
// (also under bun). Each directory is a built pkg/ (scripts/build.sh), e.g.
// the main branch's and this one's. Prints a Markdown table: each build's
// median time per call (per item for the 1,000-item rows), the peer's, and
// each build's ratio to the peer; for the options rows the peer is the same
// build's call without options.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chatCompletion, smallDocument, smallSchema } from "./workloads.mjs";
import { executorDesign } from "./executor-design.mjs";
import { median } from "./median.mjs";
import { FORMAT_CASES, INVALID_EVERY, ITEMS, KEYWORD_CASES, formatCase, invalidInvoice, invoice, invoiceSchema, keywordWorkload, oneMemberSchema, oneMemberValue, smallObject, smallObjectSchema } from "./cost-cases.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const ROUNDS = option("rounds", 9);
const SLICE_MS = option("ms", 25);
// `--only TEXT`: only the sections whose title holds TEXT.
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1] : "";
const dirs = args.filter((a, i) => !a.startsWith("--") && !["--rounds", "--ms", "--only"].includes(args[i - 1]));
if (dirs.length !== 2) {
  console.error("usage: node bench/before-after.mjs BEFORE_PKG_DIR AFTER_PKG_DIR [--rounds N] [--ms M] [--only TEXT]");
  process.exit(2);
}
const [before, after] = await Promise.all(dirs.map((dir) => import(pathToFileURL(resolve(dir, "node.mjs")).href)));
const builds = [["before", before], ["after", after]];

const { default: Ajv2020 } = await import("ajv/dist/2020.js");
const { default: addFormats } = await import("ajv-formats");
const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
addFormats(ajv);

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

const lines = [];
/** The after build's rows above their target, and the section being measured. */
const missed = [];
let section = "";

/**
 * One row: `calls` maps a name to a call returning its verdict (checked
 * against `expected` on every call); `ratios` maps a column to the pair of
 * call names it divides. `per` divides the times (items per document).
 */
function row(name, calls, ratios, { expected = true, per = 1, target = 1, bound } = {}) {
  if (!section.includes(ONLY)) return;
  const entries = Object.entries(calls).map(([label, fn]) => [label, () => {
    if (fn() !== expected) throw new Error(`${name}: ${label} gave the wrong verdict`);
  }]);
  for (const [, fn] of entries) slice(fn);
  const times = Object.fromEntries(entries.map(([label]) => [label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const shift = round % entries.length;
    const order = [...entries.slice(shift), ...entries.slice(0, shift)];
    if (round % 2 === 1) order.reverse();
    for (const [label, fn] of order) times[label].push(slice(fn));
  }
  const cells = entries.map(([label]) => median(times[label]) / per);
  const ratioCells = Object.values(ratios).map(([a, b]) => median(times[a].map((t, i) => t / times[b][i])));
  lines.push(`| ${name} | ${cells.map(format).join(" | ")} | ${ratioCells.map((r) => `${r.toFixed(2)}×`).join(" | ")} |`);
  // The after build against its target: the last ratio column, or the
  // bound the peer's time gives (µs).
  const afterTimes = times[Object.values(ratios).at(-1)[0]];
  const peerTimes = times[Object.values(ratios).at(-1)[1]];
  const measured = bound === undefined ? ratioCells.at(-1) : median(afterTimes.map((t, i) => t / bound(peerTimes[i])));
  if (measured > target) missed.push(`${section}: ${name}: ${measured.toFixed(2)}× ${bound === undefined ? `(target ≤ ${target}×)` : "of the bound (target ≤ 1×)"}`);
  process.stderr.write(`${lines[lines.length - 1]}\n`);
}

/** A time in µs, or in ns below 1 µs. */
function format(us) {
  return us < 1 ? `${(us * 1000).toFixed(0)} ns` : `${us.toFixed(us < 10 ? 2 : us < 100 ? 1 : 0)} µs`;
}

const ok = (verdict) => {
  sink ^= verdict.ok ? 1 : 2;
  return verdict.ok;
};
const peerRatios = { "before / peer": ["before", "peer"], "after / peer": ["after", "peer"] };
const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;

function header(title, peer) {
  section = title;
  lines.push("", `#### ${title}`, "", `| row | before | after | ${peer} | before / ${peer} | after / ${peer} |`, "|---|---|---|---|---|---|");
}

// --- one keyword per array item, on the text ------------------------------------

header(`${runtime}: one keyword, per array item (1,000 items), checkOutput(text, validator)`, "JSON.parse + ajv");
for (const id of ["multipleOf: 0.25", "multipleOf: 3 (integer)", "type: integer", "pattern"]) {
  const w = keywordWorkload(KEYWORD_CASES.find((kase) => kase.id === id));
  const text = JSON.stringify(w.valid);
  const validate = ajv.compile(w.ajvSchema);
  const calls = Object.fromEntries(builds.map(([label, api]) => {
    const validator = api.compileSchema(w.schema);
    return [label, () => ok(api.checkOutput(text, validator))];
  }));
  calls.peer = () => validate(JSON.parse(text));
  row(`\`${JSON.stringify(w.schema.properties.items.items)}\``, calls, peerRatios, { per: ITEMS });
}

// --- documents on the text path, and the executor path --------------------------

/** 1,500 rows of a two-property schema (about 85 KB). */
const rowsSchema = {
  type: "object",
  required: ["rows"],
  properties: { rows: { type: "array", items: { type: "object", required: ["name", "count"], properties: { name: { type: "string" }, count: { type: "integer" } } } } },
};
const rowsDocument = { rows: Array.from({ length: 1500 }, (_, i) => ({ name: `observation ${i} of the quarterly log`, count: i })) };
const documents = [
  ["small extraction", smallSchema, smallDocument],
  ["two-property rows, 1,500", rowsSchema, rowsDocument],
  ["invoice, 1 line", invoiceSchema, invoice(1)],
  ["invoice, 40 lines", invoiceSchema, invoice(40)],
  ["invoice, 1,500 lines", invoiceSchema, invoice(1500)],
];
const size = (text) => `${(text.length / 1000).toFixed(1)} KB`;

header(`${runtime}: documents, checkOutput(text, validator)`, "JSON.parse + ajv");
for (const [name, schema, document] of documents) {
  const text = JSON.stringify(document);
  const validate = ajv.compile(schema);
  const calls = Object.fromEntries(builds.map(([label, api]) => {
    const validator = api.compileSchema(schema);
    return [label, () => ok(api.checkOutput(text, validator))];
  }));
  calls.peer = () => validate(JSON.parse(text));
  row(`${name} (${size(text)})`, calls, peerRatios);
}

header(`${runtime}: the executor path, checkOutput(chat completion, response-format wrapper)`, "executor design");
for (const [name, schema, document] of documents.filter(([name]) => name.startsWith("invoice"))) {
  const text = JSON.stringify(document);
  const wrapper = { type: "json_schema", json_schema: { name: "extraction", schema, strict: true } };
  const completion = chatCompletion(text);
  const executor = executorDesign();
  const calls = Object.fromEntries(builds.map(([label, api]) => [label, () => ok(api.checkOutput(completion, wrapper))]));
  calls.peer = () => executor(completion, wrapper).ok;
  row(`${name} (${size(text)})`, calls, peerRatios);
}

// --- the value path ------------------------------------------------------------

header(`${runtime}: the value path`, "ajv validate");
const values = [
  ["3-member object", smallObjectSchema, smallObject],
  [`${size(JSON.stringify(oneMemberValue()))} value, schema reads one member (target: 2 × ajv + 1 µs)`, oneMemberSchema, oneMemberValue()],
  ["invoice, 40 lines", invoiceSchema, invoice(40)],
];
for (const [name, schema, value] of values) {
  const validate = ajv.compile(schema);
  for (const call of ["isValid", "~standard.validate"]) {
    const calls = Object.fromEntries(builds.map(([label, api]) => {
      const validator = api.compileSchema(schema);
      const standard = validator["~standard"];
      return [label, call === "isValid" ? () => validator.isValid(value) : () => standard.validate(value).issues === undefined];
    }));
    calls.peer = () => validate(value);
    // The large value whose schema reads one member: within 2 × ajv + 1 µs.
    const bound = schema === oneMemberSchema ? (peer) => 2 * peer + 1 : undefined;
    row(`${name}: ${call}(value)`, calls, peerRatios, { bound });
  }
}

// The floor of the value path on the small object: the copy that reading a
// caller's value once takes (one object spread, the engines' fastest copy)
// and a look at each member, which every call makes before any check; no
// target, as no check can cost less.
{
  const validate = ajv.compile(smallObjectSchema);
  const floor = (value) => {
    const copy = { ...value };
    for (const key in copy) if (typeof copy[key] === "object") return false;
    return true;
  };
  const calls = { before: () => floor(smallObject), after: () => floor(smallObject), peer: () => validate(smallObject) };
  row("3-member object: the floor, a read-once copy alone ({ ...value } and a look at each member)", calls, peerRatios, { target: Infinity });
}

// --- rejected documents and values: the issue list against ajv allErrors -----------

/** ajv's verdict, its errors read as a caller reads them. */
const ajvErrors = (validate, value) => {
  const valid = validate(value);
  sink ^= valid ? 1 : validate.errors.length;
  return valid;
};
/** A rejected verdict's issues read as a caller reads them: its verdict (false). */
const rejected = (verdict) => {
  sink ^= verdict.errors.length;
  return verdict.ok ?? verdict.valid;
};
const rejections = [
  ...["type: number", "type: integer", "enum", "multipleOf: 0.25", "pattern", "minimum", "required", "additionalProperties: false", "oneOf of three consts", "$ref to $defs"].map((id) => KEYWORD_CASES.find((kase) => kase.id === id)),
  ...FORMAT_CASES.filter((f) => ["date", "email", "uuid"].includes(f.format)).map(formatCase),
].map((kase) => {
  const w = keywordWorkload(kase);
  return [`${kase.id} (${ITEMS.toLocaleString("en")} items, 1 in ${INVALID_EVERY} invalid)`, w.schema, w.invalid, w.ajvSchema];
});
rejections.push(
  ["invoice, 1 line", invoiceSchema, invalidInvoice(1)],
  ["invoice, 40 lines", invoiceSchema, invalidInvoice(40)],
  ["invoice, 1,500 lines", invoiceSchema, invalidInvoice(1500)],
  ["3-member object", smallObjectSchema, { id: "42", name: "Ada Lovelace", active: true }],
);

header(`${runtime}: rejected, checkOutput(text, validator)`, "JSON.parse + ajv allErrors");
for (const [name, schema, value, ajvSchema] of rejections) {
  const text = JSON.stringify(value);
  const validate = ajv.compile(ajvSchema ?? schema);
  const calls = Object.fromEntries(builds.map(([label, api]) => {
    const validator = api.compileSchema(schema);
    return [label, () => rejected(api.checkOutput(text, validator, { requireObject: false }))];
  }));
  calls.peer = () => ajvErrors(validate, JSON.parse(text));
  row(name, calls, peerRatios, { expected: false });
}

header(`${runtime}: rejected, validate(value)`, "ajv allErrors");
for (const [name, schema, value, ajvSchema] of rejections) {
  const validate = ajv.compile(ajvSchema ?? schema);
  const calls = Object.fromEntries(builds.map(([label, api]) => {
    const validator = api.compileSchema(schema);
    return [label, () => rejected(validator.validate(value))];
  }));
  calls.peer = () => ajvErrors(validate, value);
  row(name, calls, peerRatios, { expected: false });
}

// --- options that leave the work unchanged ----------------------------------------

section = `${runtime}: the defaults spelled out`;
lines.push("", `#### ${runtime}: the defaults spelled out, against the same build's call without options`, "", "| row | before, options | before, none | after, options | after, none | before: options / none | after: options / none |", "|---|---|---|---|---|---|---|");
const defaults = { maxErrors: 5, requireObject: true, formats: "assert" };
for (const [name, schema, document] of documents.filter(([name]) => name === "small extraction" || name === "invoice, 40 lines")) {
  const text = JSON.stringify(document);
  const calls = {};
  for (const [label, api] of builds) {
    const validator = api.compileSchema(schema);
    calls[`${label} options`] = () => ok(api.checkOutput(text, validator, defaults));
    calls[`${label} none`] = () => ok(api.checkOutput(text, validator));
  }
  row(`${name}: checkOutput(text, validator, { maxErrors: 5, requireObject: true, formats: "assert" })`, calls, {
    before: ["before options", "before none"],
    after: ["after options", "after none"],
  }, { target: 1.05 });
}

if (sink === 0.5) console.log(sink);
console.log(`${runtime}; before = ${dirs[0]}, after = ${dirs[1]}; ${ROUNDS} rounds of ${SLICE_MS} ms slices, each row's calls interleaved`);
lines.push("", `#### ${runtime}: the after build's rows above their target`, "");
if (missed.length === 0) lines.push("None: every row of the after build is within its target.");
else for (const m of missed) lines.push(`- ${m}`);
console.log(lines.join("\n"));

// Accepted and rejected documents on real schemas: the SchemaStore corpus
// (tests/corpus/schemastore, see its SOURCE.md), each schema with the
// catalog's own valid and invalid instances, against ajv 8 with
// `allErrors: true` (+ ajv-formats), the configuration that gives a
// rejected document its whole error list, as the guard's issues do.
//
// Per schema, its documents grouped by the verdict (ajv's, which the
// guard's must equal: a document they disagree on is left out, and so is a
// schema either cannot compile), and per group two paths:
// - value: `validator.validate(value)` (the issues, capped as by default)
//   against ajv's validate;
// - text: `checkOutput(text, validator)` against `JSON.parse` + ajv.
// Each schema's ratio is the median over interleaved rounds of the
// round's ratio; the table gives the median, the quartiles and the worst
// tenth over the schemas, so one schema cannot hide the rest.
//
//   node bench/real-schemas.mjs [--ms 4] [--rounds 5] [--every 1] [--pkg path/to/node.mjs] [--before path/to/node.mjs] [--only rejected]
//   bun bench/real-schemas.mjs  (the same)
// `--pkg` measures another build of the package (an earlier one, say) the
// same way; `--before` measures a second build in the same rounds, each of
// its rows beside the first's (the rows' ratios are then each build's to
// ajv, and "after / before" the median over the schemas of the two builds'
// ratio); `--only` measures one group of documents.
import { median } from "./median.mjs";
import { ajvFor, loadCases, resourcesOf } from "../tests/corpus/differential.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const SLICE_MS = Number(option("ms", "4"));
const ROUNDS = Number(option("rounds", "5"));
const EVERY = Number(option("every", "1"));
const guard = await import(option("pkg", "../pkg/node.mjs"));
const beforeGuard = option("before", undefined) === undefined ? undefined : await import(option("before", undefined));
const ONLY = option("only", "");
const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;
const STORE = "https://json.schemastore.org/";
let sink = 0;

/** µs per call of `fn` over the documents, for one slice. */
function slice(fn, count) {
  const start = performance.now();
  let calls = 0;
  let now = start;
  while (now - start < SLICE_MS) {
    for (let i = 0; i < count; i++) fn(i);
    calls += count;
    now = performance.now();
  }
  return ((now - start) * 1000) / calls;
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const rows = { accepted: { value: [], text: [], valueBefore: [], textBefore: [], valueGain: [], textGain: [] }, rejected: { value: [], text: [], valueBefore: [], textBefore: [], valueGain: [], textGain: [] } };
const times = { accepted: { value: [], text: [], ajv: [], valueBefore: [], textBefore: [] }, rejected: { value: [], text: [], ajv: [], valueBefore: [], textBefore: [] } };
let schemas = 0;
let documents = { accepted: 0, rejected: 0 };
let left = 0;
for (const testCase of loadCases({ every: EVERY })) {
  const resources = resourcesOf(testCase);
  const baseUri = `${STORE}${testCase.name}.json`;
  let ours;
  let before;
  let validate;
  try {
    ours = guard.compileSchema(testCase.schema, { resources, baseUri });
    before = beforeGuard?.compileSchema(testCase.schema, { resources, baseUri });
    const ajv = ajvFor(testCase.schema, { allErrors: true });
    if (ajv === undefined) continue;
    for (const [uri, resource] of Object.entries(resources)) ajv.addSchema(resource, uri);
    if (typeof testCase.schema?.$id === "string") validate = ajv.compile(testCase.schema);
    else {
      ajv.addSchema(testCase.schema, baseUri);
      validate = ajv.getSchema(baseUri);
    }
  } catch {
    ours?.free();
    before?.free();
    continue;
  }
  const groups = { accepted: [], rejected: [] };
  for (const { data } of [...testCase.valid, ...testCase.invalid]) {
    let verdict;
    try {
      verdict = validate(data);
    } catch {
      continue;
    }
    const text = JSON.stringify(data);
    if (ours.isValid(data) !== verdict || ours.validate(data).valid !== verdict || guard.checkOutput(text, ours).ok !== verdict) {
      left++;
      continue;
    }
    groups[verdict ? "accepted" : "rejected"].push({ data, text });
  }
  schemas++;
  for (const [group, docs] of Object.entries(groups)) {
    const n = docs.length;
    if (n === 0 || !group.includes(ONLY)) continue;
    documents[group] += n;
    const variants = {
      value: (i) => {
        sink ^= ours.validate(docs[i].data).errors.length;
      },
      ajv: (i) => {
        sink ^= validate(docs[i].data) ? 1 : validate.errors.length;
      },
      text: (i) => {
        sink ^= guard.checkOutput(docs[i].text, ours).ok ? 1 : 2;
      },
      parsed: (i) => {
        sink ^= validate(JSON.parse(docs[i].text)) ? 1 : validate.errors.length;
      },
    };
    if (before !== undefined) {
      variants.valueBefore = (i) => {
        sink ^= before.validate(docs[i].data).errors.length;
      };
      variants.textBefore = (i) => {
        sink ^= beforeGuard.checkOutput(docs[i].text, before).ok ? 1 : 2;
      };
    }
    const names = Object.keys(variants);
    for (const name of names) for (let i = 0; i < n; i++) variants[name](i);
    const measured = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round) % names.length];
        measured[name].push(slice(variants[name], n));
      }
    }
    const ratio = (a, b) => median(measured[a].map((t, round) => t / measured[b][round]));
    rows[group].value.push(ratio("value", "ajv"));
    rows[group].text.push(ratio("text", "parsed"));
    times[group].value.push(median(measured.value));
    times[group].text.push(median(measured.text));
    times[group].ajv.push(median(measured.ajv));
    if (before !== undefined) {
      rows[group].valueBefore.push(ratio("valueBefore", "ajv"));
      rows[group].textBefore.push(ratio("textBefore", "parsed"));
      rows[group].valueGain.push(ratio("value", "valueBefore"));
      rows[group].textGain.push(ratio("text", "textBefore"));
      times[group].valueBefore.push(median(measured.valueBefore));
      times[group].textBefore.push(median(measured.textBefore));
    }
  }
  ours.free();
  before?.free();
}

const fx = (x) => `${x.toFixed(2)}x`;
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
console.log(`${runtime}; ${schemas} schemas (${documents.accepted} accepted and ${documents.rejected} rejected documents; ${left} on which the guard and ajv disagree left out); ${ROUNDS} interleaved rounds of ${SLICE_MS} ms slices per schema and variant.\n`);
console.log("| documents | ours | against (ajv allErrors) | schemas | ours, median µs | ratio, median | 25th–75th percentile | 90th percentile |");
console.log("|---|---|---|---:|---:|---:|---|---:|");
for (const group of ["accepted", "rejected"]) {
  for (const [path, call, peer] of [
    ["value", "`validate(value)`", "validate"],
    ["text", "`checkOutput(text, validator)`", "`JSON.parse` + validate"],
  ]) {
    const list = rows[group][path];
    if (list.length === 0) continue;
    console.log(`| ${group} | ${call} | ${peer} | ${list.length} | ${fmt(median(times[group][path]))} | ${fx(median(list))} | ${fx(quantile(list, 0.25))}–${fx(quantile(list, 0.75))} | ${fx(quantile(list, 0.9))} |`);
    const earlier = rows[group][`${path}Before`];
    if (earlier.length === 0) continue;
    console.log(`| ${group} | ${call}, before | ${peer} | ${earlier.length} | ${fmt(median(times[group][`${path}Before`]))} | ${fx(median(earlier))} | ${fx(quantile(earlier, 0.25))}–${fx(quantile(earlier, 0.75))} | ${fx(quantile(earlier, 0.9))} |`);
    const gain = rows[group][`${path}Gain`];
    console.log(`| ${group} | ${call}, after / before | | ${gain.length} | | ${fx(median(gain))} | ${fx(quantile(gain, 0.25))}–${fx(quantile(gain, 0.75))} | ${fx(quantile(gain, 0.9))} |`);
  }
}
if (sink === 0.5) console.log(sink);

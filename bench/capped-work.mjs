// Capped work, side by side: checking 2,000 rows that are all invalid must
// cost about what 2,000 valid rows cost (maxErrors: 5), while ajv with
// allErrors: true pays for every error. Reports ratios from one process.
//   node bench/capped-work.mjs         (also: bun bench/capped-work.mjs)
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { checkOutput, compileSchema } from "../pkg/node.mjs";
import { rowsSchema as schema } from "./workloads.mjs";


const row = (i) => ({ type: "fact", text: `Observation number ${i} about the rollout plan`, importance: 1 + (i % 5), observedOn: "2026-11-27" });
const badRow = () => ({ type: "", text: "", importance: 0, observedOn: "2026-02-30" });
const validText = JSON.stringify({ observations: Array.from({ length: 2000 }, (_, i) => row(i)) });
const invalidText = JSON.stringify({ observations: Array.from({ length: 2000 }, badRow) });

const validator = compileSchema(schema);
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const ajvValidate = ajv.compile(schema);

function time(label, fn, minMs = 400) {
  for (let i = 0; i < 5; i++) fn();
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    fn();
    runs++;
  }
  const perCall = (performance.now() - start) / runs;
  return { label, perCall };
}

const ours = (text) => () => {
  const verdict = checkOutput(text, validator, { maxErrors: 5 });
  if (verdict.ok !== (text === validText)) throw new Error("wrong verdict");
};
const theirs = (text) => () => {
  const value = JSON.parse(text);
  const ok = ajvValidate(value);
  if (ok !== (text === validText)) throw new Error("wrong verdict");
};

const results = {
  oursValid: time("ours, 2,000 valid rows", ours(validText)),
  oursInvalid: time("ours, 2,000 invalid rows (maxErrors 5)", ours(invalidText)),
  ajvValid: time("JSON.parse + ajv allErrors, 2,000 valid rows", theirs(validText)),
  ajvInvalid: time("JSON.parse + ajv allErrors, 2,000 invalid rows", theirs(invalidText)),
};
const heapBefore = process.memoryUsage().heapUsed;
for (const r of Object.values(results)) console.log(`${r.label.padEnd(52)} ${(r.perCall * 1000).toFixed(0).padStart(8)} µs/call`);
const ratio = (a, b) => (results[a].perCall / results[b].perCall).toFixed(2);
console.log("");
console.log(`ours: invalid / valid                      ${ratio("oursInvalid", "oursValid")}x  (target <= 1.5x)`);
console.log(`ours invalid / ajv allErrors invalid      ${ratio("oursInvalid", "ajvInvalid")}x  (target <= 0.5x)`);
console.log(`ajv: invalid / valid                       ${ratio("ajvInvalid", "ajvValid")}x`);
console.log(`runtime: ${typeof Bun !== "undefined" ? `bun ${Bun.version}` : `node ${process.version}`}; heap ${(heapBefore / 1e6).toFixed(1)} MB`);

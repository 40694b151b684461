// The calls users make, before and after schemas were found by identity
// (issue 12, point 1), side by side in one process: two copies of the
// package that differ only in their JavaScript (the wasm is the same file).
//   node bench/user-path-quick.mjs [--before-ref REF]     (also: bun bench/user-path-quick.mjs)
// REF is the commit whose js/ is "before" (default: e988ecc, the last one
// without the identity caches); "after" is pkg/ as built from this tree.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./median.mjs";

const args = process.argv.slice(2);
const refAt = args.indexOf("--before-ref");
const beforeRef = refAt >= 0 ? args[refAt + 1] : "e988ecc";
const root = fileURLToPath(new URL("..", import.meta.url));
const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`;

const scratch = mkdtempSync(path.join(os.tmpdir(), "sog-user-path-"));
function copyOfPackage(name, overrideFrom) {
  const dir = path.join(scratch, name);
  cpSync(path.join(root, "pkg"), dir, { recursive: true });
  if (overrideFrom) {
    // Every module as it was at that commit (the layout of js/ has changed since).
    const listed = execFileSync("git", ["-C", root, "ls-tree", "--name-only", `${overrideFrom}:js/`], { encoding: "utf8" });
    for (const file of listed.split("\n").filter((name) => name.endsWith(".mjs"))) {
      const text = execFileSync("git", ["-C", root, "show", `${overrideFrom}:js/${file}`], { encoding: "utf8" });
      writeFileSync(path.join(dir, file), text);
    }
  }
  return dir;
}
// Each copy has its own module instances, hence its own wasm instance and caches.
const builds = {
  before: await import(pathToFileURL(path.join(copyOfPackage("before", beforeRef), "node.mjs")).href),
  after: await import(pathToFileURL(path.join(copyOfPackage("after"), "node.mjs")).href),
};
rmSync(scratch, { recursive: true, force: true });

const schema = {
  type: "object",
  required: ["name", "email", "company", "extractedAt", "confidence"],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1, maxLength: 200 },
    email: { type: "string", format: "email" },
    company: { type: "string" },
    role: { type: "string" },
    phone: { type: "string", pattern: "^\\+?[0-9 ()-]{6,20}$" },
    extractedAt: { type: "string", format: "date-time" },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    tags: { type: "array", items: { type: "string" }, maxItems: 10 },
  },
};
const document = {
  name: "Ada Lovelace",
  email: "ada.lovelace@analytical-engines.example.com",
  company: "Analytical Engines Ltd",
  role: "Head of Computation",
  phone: "+44 20 7946 0958",
  extractedAt: "2026-01-31T10:15:00Z",
  confidence: 0.93,
  tags: ["lead", "engineering", "uk"],
};
const text = JSON.stringify(document);
const wrapper = { name: "contact", strict: true, schema };
const completion = {
  id: "chatcmpl-abc123",
  object: "chat.completion",
  created: 1767225600,
  model: "gpt-4.1-mini-2025-04-14",
  choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" }],
  usage: { prompt_tokens: 412, completion_tokens: 71, total_tokens: 483, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
  system_fingerprint: "fp_0123456789",
};

function cases(guard) {
  const validator = guard.compileSchema(schema);
  return {
    "(a) string + Validator": () => guard.checkOutput(text, validator),
    "(b) string + schema object": () => guard.checkOutput(text, schema),
    "(c) OpenAI completion + wrapper": () => guard.checkOutput(completion, wrapper),
    "(d) {content, finishReason} + Validator": () => guard.checkOutput({ content: text, finishReason: "stop" }, validator),
  };
}

const ROUNDS = 7;
const SLICE_MS = 60;
let sink = 0;
function slice(fn) {
  let calls = 0;
  const start = performance.now();
  let now = start;
  do {
    for (let i = 0; i < 200; i++) sink ^= fn().ok ? 1 : 0;
    calls += 200;
    now = performance.now();
  } while (now - start < SLICE_MS);
  return ((now - start) * 1000) / calls;
}

const all = Object.fromEntries(Object.entries(builds).map(([name, guard]) => [name, cases(guard)]));
const names = Object.keys(all.before);
for (const name of names) {
  for (const build of Object.keys(all)) {
    if (all[build][name]().ok !== true) throw new Error(`${build} ${name}: not accepted`);
  }
}
const samples = Object.fromEntries(names.map((name) => [name, { before: [], after: [] }]));
for (const name of names) for (const build of ["before", "after"]) slice(all[build][name]); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which build goes first, so drift falls on both alike.
  const order = round % 2 ? ["after", "before"] : ["before", "after"];
  for (const name of names) for (const build of order) samples[name][build].push(slice(all[build][name]));
}

console.log(`${runtime}, ${text.length} B document, median of ${ROUNDS} slices of ${SLICE_MS} ms (µs per call)`);
console.log("| case | before | after | before / after |");
console.log("|---|---:|---:|---:|");
for (const name of names) {
  const before = median(samples[name].before);
  const after = median(samples[name].after);
  console.log(`| ${name} | ${before.toFixed(2)} | ${after.toFixed(2)} | ${(before / after).toFixed(2)}x |`);
}
if (sink === 2) console.log("");

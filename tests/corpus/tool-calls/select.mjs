// Makes tools.json, the pinned selection of public tool declarations and
// their calls, from checkouts of the two datasets SOURCE.md names:
//   node tests/corpus/tool-calls/select.mjs /path/to/gorilla /path/to/Seal-Tools
// The tests and the benchmark only read tools.json; they never run this.
//
// Each declaration becomes `{ name, description, parameters }`, its
// parameters a JSON Schema as the datasets' own conversion for OpenAI
// writes them (see `schemaOf`), and each accepted call `{ tool, arguments }`
// (`tool` an index into `tools`). What is kept, and why, is in SOURCE.md.
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const [gorilla, seal] = process.argv.slice(2);
if (!gorilla || !seal) {
  console.error("usage: node tests/corpus/tool-calls/select.mjs /path/to/gorilla /path/to/Seal-Tools");
  process.exit(2);
}

/** How many tools the selection holds: the largest catalogue the benchmark declares. */
const TOOLS = 5000;
/** At most this many accepted calls of one tool, so that no tool's calls dominate a run. */
const CALLS_PER_TOOL = 3;

// BFCL's type names and the JSON Schema type each becomes
// (bfcl_eval/constants/type_mappings.py, GORILLA_TO_OPENAPI); any other
// name becomes "string", as BFCL's conversion makes it. Seal-Tools writes
// Python's names (str, int, float, bool), added here.
const TYPES = {
  integer: "integer", number: "number", float: "number", string: "string", boolean: "boolean", bool: "boolean",
  array: "array", list: "array", dict: "object", object: "object", tuple: "array", any: "string", byte: "integer",
  short: "integer", long: "integer", double: "number", char: "string", ArrayList: "array", Array: "array",
  HashMap: "object", Hashtable: "object", Queue: "array", Stack: "array", Any: "string", String: "string",
  Bigint: "integer", str: "string", int: "integer",
};

/**
 * A declaration's parameter schema with the dataset's type names replaced
 * by JSON Schema's, at every level (BFCL's own conversion,
 * `_cast_to_openai_type`, goes two levels deep; the rest of a declaration,
 * descriptions, enums, defaults and all, is kept as the dataset wrote it).
 * BFCL marks floats with `format: "float"` for OpenAI, a format no JSON
 * Schema vocabulary defines: left out.
 */
function schemaOf(node) {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "type") out.type = typeof value === "string" ? TYPES[value] ?? "string" : value;
    else if (key === "properties" && value !== null && typeof value === "object") {
      out.properties = {};
      for (const [name, member] of Object.entries(value)) out.properties[name] = schemaOf({ type: "string", ...member });
    } else if (key === "items") out.items = Array.isArray(value) ? value.map(schemaOf) : schemaOf({ type: "string", ...value });
    else if (key === "additionalProperties" && value !== null && typeof value === "object") out.additionalProperties = schemaOf(value);
    else out[key] = value;
  }
  return out;
}

/** A tool name as OpenAI takes it (`^[a-zA-Z0-9_-]{1,64}$`): BFCL's own "." → "_", and any other character too. */
const toolName = (name) => name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);

const readLines = (file) => readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));

// Every declaration, by name: { name, description, parameters, source, calls: [arguments] }.
const byName = new Map();
const counts = { bfclQuestions: 0, bfclDeclarations: 0, bfclAnswers: 0, sealTools: 0, sealCalls: 0, dropped: {} };
const drop = (why) => (counts.dropped[why] = (counts.dropped[why] ?? 0) + 1);

function declare(name, description, parameters, source) {
  const key = JSON.stringify([name, description, parameters]);
  let named = byName.get(name);
  if (named === undefined) byName.set(name, (named = []));
  let found = named.find((entry) => entry.key === key);
  if (found === undefined) named.push((found = { key, name, description, parameters, source, calls: [] }));
  return found;
}

/** BFCL: a possible answer's parameter values (each a list of acceptable ones, "" for "may be left out"), as one call's arguments. */
function argumentsOf(answer) {
  const out = {};
  for (const [name, options] of Object.entries(answer)) {
    if (!Array.isArray(options)) return undefined;
    const chosen = options.find((option) => option !== "");
    if (chosen === undefined) continue;
    out[name] = valueOf(chosen);
  }
  return out;
}

/** A chosen value; a nested object in an answer lists acceptable values per member, as the answer does. */
function valueOf(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const lists = Object.values(value).every((member) => Array.isArray(member));
  return lists ? argumentsOf(value) : value;
}

const bfcl = join(gorilla, "berkeley-function-call-leaderboard/bfcl_eval/data");
const questionFiles = [
  ...readdirSync(bfcl).filter((file) => file.endsWith(".json")).map((file) => [join(bfcl, file), join(bfcl, "possible_answer", file)]),
  ...readdirSync(join(bfcl, "unused_datasets/question")).map((file) => [join(bfcl, "unused_datasets/question", file), join(bfcl, "unused_datasets/possible_answer", file)]),
].sort(([a], [b]) => (a < b ? -1 : 1));
for (const [questions, answers] of questionFiles) {
  let rows;
  try {
    rows = readLines(questions);
  } catch {
    // BFCL_v4_format_sensitivity.json lists ids, not questions.
    continue;
  }
  const category = questions.split("/").pop().replace(/^BFCL_v\d+_|\.json$/g, "");
  const answered = existsSync(answers) ? new Map(readLines(answers).map((row) => [row.id, row.ground_truth])) : new Map();
  for (const row of rows) {
    if (!Array.isArray(row.function) || row.function.length === 0) continue;
    counts.bfclQuestions += 1;
    const declared = new Map();
    for (const fn of row.function) {
      counts.bfclDeclarations += 1;
      if (fn?.parameters === null || typeof fn?.parameters !== "object") {
        drop("a BFCL declaration without parameters");
        continue;
      }
      const parameters = schemaOf({ ...fn.parameters, type: "object" });
      declared.set(fn.name, declare(toolName(fn.name), fn.description ?? "", parameters, `bfcl:${category}`));
    }
    const truth = answered.get(row.id);
    // Multi-turn answers are Python call strings, not arguments.
    if (!Array.isArray(truth)) continue;
    for (const call of truth) {
      if (call === null || typeof call !== "object" || Array.isArray(call)) continue;
      for (const [name, answer] of Object.entries(call)) {
        counts.bfclAnswers += 1;
        const tool = declared.get(name);
        const args = answer !== null && typeof answer === "object" ? argumentsOf(answer) : undefined;
        if (tool === undefined || args === undefined) drop("a BFCL answer naming no declaration of its question, or not a set of arguments");
        else tool.calls.push(args);
      }
    }
  }
}

const sealData = join(seal, "Seal-Tools_Dataset");
const sealTools = new Map();
for (const tool of readLines(join(sealData, "tool.jsonl"))) {
  counts.sealTools += 1;
  const properties = {};
  for (const [name, member] of Object.entries(tool.parameters ?? {})) properties[name] = member;
  const parameters = schemaOf({ type: "object", properties, ...(Array.isArray(tool.required) ? { required: tool.required } : {}) });
  sealTools.set(tool.api_name, declare(toolName(tool.api_name), tool.api_description ?? "", parameters, "seal-tools"));
}
for (const file of ["dev.jsonl", "test_in_domain.jsonl", "test_out_domain.jsonl"]) {
  for (const row of readLines(join(sealData, file))) {
    for (const call of row.calling ?? []) {
      counts.sealCalls += 1;
      const tool = sealTools.get(call.api);
      if (tool === undefined || call.parameters === null || typeof call.parameters !== "object" || Array.isArray(call.parameters)) drop("a Seal-Tools call naming no tool, or not a set of arguments");
      else tool.calls.push(call.parameters);
    }
  }
}

// Each name once: the declaration of that name with the most calls ajv
// accepts (then the first read). A schema ajv cannot compile is left out.
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats");
const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
addFormats(ajv);
const chosen = [];
let distinctDeclarations = 0;
for (const [name, declarations] of byName) {
  let best;
  for (const entry of declarations) {
    distinctDeclarations += 1;
    let validate;
    try {
      validate = ajv.compile(entry.parameters);
    } catch {
      drop("a declaration whose parameters ajv cannot compile");
      continue;
    }
    const seen = new Set();
    const accepted = [];
    for (const args of entry.calls) {
      const text = JSON.stringify(args);
      if (seen.has(text)) continue;
      seen.add(text);
      if (validate(args)) accepted.push(args);
      else drop("a call its tool's schema refuses (its arguments as the dataset gives them)");
    }
    if (best === undefined || accepted.length > best.accepted.length) best = { entry, accepted };
  }
  ajv.removeSchema();
  if (best !== undefined) chosen.push({ name, ...best });
}

/** FNV-1a of a string: the selection's order, the same on every run. */
function fnv(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
// Tools with calls first, in an order mixing the two datasets, then those
// without; a tool whose parameters an earlier one has is left out, so that
// every tool selected has a schema of its own (a catalogue of N tools is N
// schemas to compile).
chosen.sort((a, b) => (b.accepted.length > 0) - (a.accepted.length > 0) || fnv(a.name) - fnv(b.name) || (a.name < b.name ? -1 : 1));
const selected = [];
const schemasSelected = new Set();
for (const tool of chosen) {
  if (selected.length === TOOLS) break;
  const text = JSON.stringify(tool.entry.parameters);
  if (schemasSelected.has(text)) {
    drop("a tool whose parameters an earlier tool of the selection has");
    continue;
  }
  schemasSelected.add(text);
  selected.push(tool);
}

const tools = [];
const calls = [];
for (const { entry, accepted } of selected) {
  const index = tools.length;
  tools.push({ name: entry.name, description: entry.description, parameters: entry.parameters, source: entry.source });
  for (const args of accepted.slice(0, CALLS_PER_TOOL)) calls.push({ tool: index, arguments: args });
}

const bySource = {};
for (const tool of tools) {
  const source = tool.source.split(":")[0];
  bySource[source] ??= { tools: 0, calls: 0 };
  bySource[source].tools += 1;
}
for (const call of calls) bySource[tools[call.tool].source.split(":")[0]].calls += 1;
const schemas = new Set(tools.map((tool) => JSON.stringify(tool.parameters)));
const summary = {
  ...counts,
  distinctDeclarations,
  names: byName.size,
  namesWithCompilableSchemas: chosen.length,
  tools: tools.length,
  toolsWithCalls: new Set(calls.map((call) => call.tool)).size,
  distinctSchemas: schemas.size,
  calls: calls.length,
  bySource,
};
writeFileSync(join(here, "tools.json"), `${JSON.stringify({ tools, calls })}\n`);
console.log(JSON.stringify(summary, null, 2));

// Tool calls as agents check them, on a public corpus of real tool
// declarations and their calls (tests/corpus/tool-calls, see its
// SOURCE.md): catalogues of 100, 1,000 and 5,000 distinct tools, each
// declared in one request in every provider shape, and each response
// making one call of one of them (the documents of the corpus, shuffled, so
// that consecutive calls name different tools, as an agent's do).
//
// Rows:
// - `checkToolCalls(response, request)`, the request the same object on
//   every call ("same") or built again before every call from the same
//   schema objects ("rebuilt": what an executor does when it maps its
//   registry into the request per turn), against the executor's own loop:
//   each call's arguments `JSON.parse`d (text shapes) and validated by the
//   ajv function compiled for its tool beforehand, looked up by name
//   (ajv 8 `ajv/dist/2020` + ajv-formats, allErrors false, as written by
//   hand). "rebuilt, net" takes away the time of building the request
//   alone (measured beside it). "floor": the same responses against the
//   same tools declared with parameters that hold no keyword, what a call
//   costs before any keyword runs. Valid calls only, and mixed (every
//   document of the corpus: accepted calls and the ways models get them
//   wrong). The schema cache as it comes (bounded by memory), and, for the
//   large catalogues, one bounded by a count of 128 schemas.
// - A Validator's `validate(args)` and `isValid(args)` against ajv's
//   validate (allErrors false, and true where the issues are wanted) on the
//   corpus's arguments, valid and rejected; `checkOutput(text, validator)`
//   against `JSON.parse` + ajv, the same documents as text.
//
// Every verdict is checked against the expected one before it is timed.
//   node bench/tool-calls.mjs [--sizes 100,1000,5000] [--shapes openai-chat,...] [--ms 40] [--rounds 7] [--clock cpu|wall] [--json out.json] [--pkg dir]
//   bun bench/tool-calls.mjs  (the same)
// Slices are timed by this process's CPU time (`--clock cpu`, the
// default: other processes on a busy machine take no time from them) or
// by the wall clock (`--clock wall`).
// Prints markdown: µs per call (median over rounds) and ratios (the median
// of the rounds' ratios, each round measuring every variant once).
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./median.mjs";
import { SHAPES, catalogue, documentsFor, makeAjv, responseFor } from "../tests/corpus/tool-calls/corpus.mjs";
import { prng } from "../tests/support/random.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const SIZES = option("sizes", "100,1000,5000").split(",").map(Number);
const SHAPE_NAMES = option("shapes", Object.keys(SHAPES).join(",")).split(",");
const SLICE_MS = Number(option("ms", "40"));
const CLOCK = option("clock", "cpu");
if (CLOCK !== "cpu" && CLOCK !== "wall") throw new Error("--clock is cpu or wall");
/** Milliseconds on the chosen clock: this process's CPU time (user and system), or the wall clock. */
function now() {
  if (CLOCK === "wall") return performance.now();
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}
const ROUNDS = Number(option("rounds", "7"));
const JSON_OUT = option("json", undefined);
// `--pkg dir` measures another build of the package (an earlier one, say) the same way.
const PKG = resolve(option("pkg", resolve(dirname(fileURLToPath(import.meta.url)), "../pkg")));
const guard = await import(pathToFileURL(resolve(PKG, "node.mjs")).href);
const { defaultCacheBound } = await import(pathToFileURL(resolve(PKG, "testing.mjs")).href);
const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;
let sink = 0;
const results = { runtime, calls: [], values: [] };

/** A seeded shuffle, the same order on every run. */
function shuffled(items, seed) {
  const out = items.slice();
  const random = prng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The executor's own check of a response, written by hand for each shape
 * as an agent loop writes it: whether every call may run (a response cut
 * at the token limit may not; a call of an unknown tool, arguments that do
 * not parse or that the tool's ajv function refuses, may not), with each
 * call's parsed arguments kept to run it with.
 */
const HAND = {
  "openai-chat": (response, validators, parsed) => {
    const choice = response.choices[0];
    let ok = choice.finish_reason !== "length";
    for (const call of choice.message.tool_calls) {
      const validate = validators.get(call.function.name);
      let value;
      try {
        value = JSON.parse(call.function.arguments);
      } catch {
        ok = false;
        continue;
      }
      parsed.push(value);
      if (validate === undefined || !validate(value)) ok = false;
    }
    return ok;
  },
  "openai-responses": (response, validators, parsed) => {
    let ok = !(response.status === "incomplete" && response.incomplete_details?.reason === "max_output_tokens");
    for (const item of response.output) {
      if (item.type !== "function_call") continue;
      const validate = validators.get(item.name);
      let value;
      try {
        value = JSON.parse(item.arguments);
      } catch {
        ok = false;
        continue;
      }
      parsed.push(value);
      if (validate === undefined || !validate(value)) ok = false;
    }
    return ok;
  },
  anthropic: (response, validators, parsed) => {
    let ok = response.stop_reason !== "max_tokens";
    for (const block of response.content) {
      if (block.type !== "tool_use") continue;
      const validate = validators.get(block.name);
      parsed.push(block.input);
      if (validate === undefined || !validate(block.input)) ok = false;
    }
    return ok;
  },
  gemini: (response, validators, parsed) => {
    const candidate = response.candidates[0];
    let ok = candidate.finishReason !== "MAX_TOKENS";
    for (const part of candidate.content.parts) {
      const call = part.functionCall;
      if (call === undefined) continue;
      const validate = validators.get(call.name);
      parsed.push(call.args);
      if (validate === undefined || !validate(call.args)) ok = false;
    }
    return ok;
  },
  bedrock: (response, validators, parsed) => {
    let ok = response.stopReason !== "max_tokens";
    for (const block of response.output.message.content) {
      const call = block.toolUse;
      if (call === undefined) continue;
      const validate = validators.get(call.name);
      parsed.push(call.input);
      if (validate === undefined || !validate(call.input)) ok = false;
    }
    return ok;
  },
};
HAND.mcp = HAND.anthropic;

/** µs per call of `fn(i)` over one slice, `i` counting on from `state.next`. */
function slice(fn, state) {
  const start = now();
  let calls = 0;
  let end = start;
  while (end - start < SLICE_MS) {
    for (let k = 0; k < 8; k++) fn(state.next++);
    calls += 8;
    end = now();
  }
  return ((end - start) * 1000) / calls;
}

/**
 * Interleaved rounds of every variant: { name: [µs per round] }. Each
 * variant first runs through its `warm` documents once (or for `warmMs`,
 * if that is less), so that the rounds see the steady state: compiled
 * code, and the schema cache as full as it gets.
 */
function measure(variants, warm, warmMs = 1000) {
  const names = Object.keys(variants);
  const states = names.map(() => ({ next: 0 }));
  names.forEach((name, i) => {
    const start = now();
    while (states[i].next < warm && now() - start < warmMs) variants[name](states[i].next++);
  });
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < names.length; k++) {
      const i = (k + round) % names.length;
      times[names[i]].push(slice(variants[names[i]], states[i]));
    }
  }
  return times;
}

const FLOOR_SCHEMA = { type: "object" };
const ratio = (a, b) => median(a.map((t, round) => t / b[round]));
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const fx = (x) => `${x.toFixed(2)}x`;

console.log(`${runtime}; ${ROUNDS} rounds of ${SLICE_MS} ms slices per variant (${CLOCK === "cpu" ? "this process's CPU time" : "wall clock"}), interleaved; µs per call (median of the rounds); each ratio the median of the rounds' ratios.\n`);

// ---- checkToolCalls against the executor's loop ----
console.log("### checkToolCalls against the executor's own loop\n");
console.log("| tools | shape | calls | ours, same request | ours, rebuilt request (net) | executor's loop (JSON.parse + ajv) | floor: ours, no keywords | same / loop | rebuilt net / loop | rebuilt net / same | floor / loop |");
console.log("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
const cacheRows = [];
for (const size of SIZES) {
  const { tools, calls } = catalogue(size);
  const ajv = makeAjv();
  const validators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.parameters)]));
  for (const shape of SHAPE_NAMES) {
    const spec = SHAPES[shape];
    const all = documentsFor(shape, tools, calls);
    for (const mix of ["valid", "mixed"]) {
      const docs = shuffled(mix === "valid" ? all.filter((doc) => doc.kind === "valid") : all, 0x5eed + size);
      const responses = docs.map((doc, i) => responseFor(shape, doc, `call_${i.toString(36)}`));
      const request = spec.request(tools);
      // The floor: the same responses against tools whose parameters hold
      // no keyword (one shared `{ type: "object" }`), so that a call costs
      // only reading the response and the declarations, crossing into
      // wasm with the arguments, and parsing them on both sides.
      const floorRequest = spec.request(tools.map((tool) => ({ ...tool, parameters: FLOOR_SCHEMA })));
      const n = responses.length;
      // Every verdict right before anything is timed, after two passes
      // over the calls: the schemas compiled stay in the cache (as an
      // agent's working set does), and whatever a schema's first checks
      // make once is made before the rounds, so that they time an agent's
      // steady state.
      guard.setSchemaCacheCapacity(2 * size);
      for (let pass = 0; pass < 2; pass++) for (const response of responses) guard.checkToolCalls(response, request);
      for (let i = 0; i < n; i++) {
        const expected = docs[i].expected.ok;
        if (guard.checkToolCalls(responses[i], request).ok !== expected) throw new Error(`${shape}: checkToolCalls is wrong on a ${docs[i].kind} call of ${docs[i].name}`);
        if (HAND[shape](responses[i], validators, []) !== expected) throw new Error(`${shape}: the executor's loop is wrong on a ${docs[i].kind} call of ${docs[i].name}`);
      }
      defaultCacheBound();
      const parsed = [];
      const variants = {
        same: (i) => {
          sink ^= guard.checkToolCalls(responses[i % n], request).calls.length;
        },
        rebuilt: (i) => {
          sink ^= guard.checkToolCalls(responses[i % n], spec.request(tools)).calls.length;
        },
        floor: (i) => {
          sink ^= guard.checkToolCalls(responses[i % n], floorRequest).calls.length;
        },
        build: (i) => {
          sink ^= spec.request(tools).tools?.length ?? 1;
          sink ^= i;
        },
        loop: (i) => {
          parsed.length = 0;
          sink ^= HAND[shape](responses[i % n], validators, parsed) ? 1 : 2;
        },
      };
      const times = measure(variants, n);
      const net = times.rebuilt.map((t, round) => Math.max(t - times.build[round], 0.001));
      const row = {
        size,
        shape,
        mix,
        documents: n,
        same: median(times.same),
        rebuiltNet: median(net),
        rebuilt: median(times.rebuilt),
        build: median(times.build),
        loop: median(times.loop),
        floor: median(times.floor),
        floorRatio: ratio(times.floor, times.loop),
        sameRatio: ratio(times.same, times.loop),
        rebuiltRatio: ratio(net, times.loop),
        rebuiltSame: ratio(net, times.same),
      };
      results.calls.push(row);
      console.log(`| ${size.toLocaleString("en")} | ${shape} | ${mix} (${n.toLocaleString("en")}) | ${fmt(row.same)} | ${fmt(row.rebuiltNet)} | ${fmt(row.loop)} | ${fmt(row.floor)} | ${fx(row.sameRatio)} | ${fx(row.rebuiltRatio)} | ${fx(row.rebuiltSame)} | ${fx(row.floorRatio)} |`);
      // The large catalogues again with a cache of 128 schemas (a count
      // bound, as a caller may still set it), against the default.
      if (size >= 1000 && shape === SHAPE_NAMES[0]) {
        guard.setSchemaCacheCapacity(128);
        guard.clearSchemaCache();
        const counted = measure({ same: variants.same, loop: variants.loop }, n);
        defaultCacheBound();
        guard.clearSchemaCache();
        cacheRows.push({ size, shape, mix, defaultCache: row.same, countedCache: median(counted.same), loop: median(counted.loop), ratio: ratio(times.same, times.loop) });
      }
    }
  }
  guard.clearSchemaCache();
}

if (cacheRows.length > 0) {
  console.log("\n### The schema cache on large catalogues\n");
  console.log(`checkToolCalls, same request, first shape above (${SHAPE_NAMES[0]}): the cache as it comes (bounded by memory, 32 MiB) against one bounded by a count of 128 schemas (\`setSchemaCacheCapacity(128)\`).\n`);
  console.log("| tools | calls | default cache | 128 schemas | 128 / default | default / loop |");
  console.log("|---:|---|---:|---:|---:|---:|");
  for (const row of cacheRows) {
    console.log(`| ${row.size.toLocaleString("en")} | ${row.mix} | ${fmt(row.defaultCache)} | ${fmt(row.countedCache)} | ${fx(row.countedCache / row.defaultCache)} | ${fx(row.ratio)} |`);
  }
  results.cache = cacheRows;
}

// ---- Validators on the corpus's arguments ----
{
  const size = Math.min(1000, SIZES[SIZES.length - 1]);
  const { tools, calls } = catalogue(size);
  const fast = makeAjv();
  const all = makeAjv({ allErrors: true });
  const byTool = tools.map((tool) => ({ fast: fast.compile(tool.parameters), all: all.compile(tool.parameters), ours: guard.compileSchema(tool.parameters) }));
  const docs = shuffled(documentsFor("anthropic", tools, calls).filter((doc) => doc.kind !== "limit"), 0xa11);
  const groups = { valid: docs.filter((doc) => doc.expected.ok), rejected: docs.filter((doc) => !doc.expected.ok) };
  console.log(`\n### Validators on the corpus's arguments (${size.toLocaleString("en")} tools)\n`);
  console.log("Each document is the arguments of one call, checked against its tool's schema compiled beforehand. Rejected: a required parameter dropped, a wrong type, a number sent as a string, a value outside an enum.\n");
  console.log("| documents | call | µs | ajv | / ajv (allErrors false) | / ajv (allErrors true) |");
  console.log("|---|---|---:|---|---:|---:|");
  for (const [group, list] of Object.entries(groups)) {
    const n = list.length;
    const texts = list.map((doc) => JSON.stringify(doc.arguments));
    for (let i = 0; i < n; i++) {
      const v = byTool[list[i].tool];
      const expected = list[i].expected.ok;
      if (v.ours.validate(list[i].arguments).valid !== expected || v.ours.isValid(list[i].arguments) !== expected || v.fast(list[i].arguments) !== expected || guard.checkOutput(texts[i], v.ours).ok !== expected) {
        throw new Error(`a validator is wrong on a ${list[i].kind} call of ${list[i].name}`);
      }
    }
    const times = measure({
      "validate(args)": (i) => {
        const r = byTool[list[i % n].tool].ours.validate(list[i % n].arguments);
        sink ^= r.errors.length;
      },
      "isValid(args)": (i) => {
        sink ^= byTool[list[i % n].tool].ours.isValid(list[i % n].arguments) ? 1 : 2;
      },
      "checkOutput(text, validator)": (i) => {
        sink ^= guard.checkOutput(texts[i % n], byTool[list[i % n].tool].ours).ok ? 1 : 2;
      },
      "ajv validate": (i) => {
        const validate = byTool[list[i % n].tool].fast;
        sink ^= validate(list[i % n].arguments) ? 1 : validate.errors.length;
      },
      "ajv validate, allErrors": (i) => {
        const validate = byTool[list[i % n].tool].all;
        sink ^= validate(list[i % n].arguments) ? 1 : validate.errors.length;
      },
      "JSON.parse + ajv": (i) => {
        const validate = byTool[list[i % n].tool].fast;
        sink ^= validate(JSON.parse(texts[i % n])) ? 1 : validate.errors.length;
      },
      "JSON.parse + ajv, allErrors": (i) => {
        const validate = byTool[list[i % n].tool].all;
        sink ^= validate(JSON.parse(texts[i % n])) ? 1 : validate.errors.length;
      },
    }, n);
    const rows = [
      ["validate(args)", "ajv validate", "ajv validate, allErrors"],
      ["isValid(args)", "ajv validate", "ajv validate, allErrors"],
      ["checkOutput(text, validator)", "JSON.parse + ajv", "JSON.parse + ajv, allErrors"],
    ];
    for (const [ours, first, every] of rows) {
      const row = { group, documents: n, call: ours, us: median(times[ours]), ajv: median(times[first]), ajvAll: median(times[every]), ratio: ratio(times[ours], times[first]), ratioAll: ratio(times[ours], times[every]) };
      results.values.push(row);
      console.log(`| ${group} (${n.toLocaleString("en")}) | ${ours} | ${fmt(row.us)} | ${fmt(row.ajv)} / ${fmt(row.ajvAll)} | ${fx(row.ratio)} | ${fx(row.ratioAll)} |`);
    }
  }
  for (const v of byTool) v.ours.free();
}

if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
if (sink === 0.5) console.log(sink);

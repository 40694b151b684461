// The hot path (a string or a response object checked against a compiled
// schema, with any check options) takes a lean lane through the core: one
// call that answers with a status. It must give exactly the verdicts of the
// core's text path.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { coreCalls, textPathVerdict } from "../../support/core-calls.mjs";

const schema = {
  type: "object",
  required: ["rows"],
  properties: {
    rows: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "when"],
        properties: { type: { enum: ["fact", "question"] }, when: { type: "string", format: "date" }, note: { type: "string" } },
      },
    },
  },
};

const outputs = [
  '{"rows":[{"type":"fact","when":"2024-02-29"}]}',
  '  ```json\n{"rows":[{"type":"fact","when":"2024-02-29","note":"héllo 😀 ```x```"}]}\n```  ',
  '😀 before {"rows":[]}',
  '{"rows":[{"type":"other","when":"2026-02-30"},{"type":"fact"}]}',
  JSON.stringify({ rows: Array.from({ length: 40 }, () => ({ type: "x", when: "nope" })) }),
  "[1, 2, 3]",
  "   ",
  "",
  '{"rows": [',
  "```\n```",
];

test("the lean lane and the general path give identical verdicts", () => {
  const validator = guard.compileSchema(schema);
  for (const output of outputs) {
    for (const options of [undefined, { maxErrors: 2 }, { maxErrors: 0 }]) {
      const lane = guard.checkOutput(output, validator, options);
      const general = guard.checkOutput(output, schema, options);
      assert.deepEqual(lane, general, `${JSON.stringify(output).slice(0, 60)} with ${JSON.stringify(options)}`);
    }
  }
});

/**
 * The core's general path for a `{ content, finishReason }` object, its
 * verdict shaped as checkOutput shapes it (see `textPathVerdict`).
 */
function objectPathVerdict(output, options) {
  const opts = options === undefined ? "null" : JSON.stringify(options);
  const result = JSON.parse(internals.rawGlue().checkOutput(JSON.stringify(output), false, JSON.stringify(schema), opts));
  const { textStart, textEnd, text, ...shaped } = result;
  if (shaped.ok) shaped.value = JSON.parse(text ?? output.content.slice(textStart, textEnd));
  return shaped;
}

test("the lanes accept and refuse, with default options, exactly as the core's general path", () => {
  const validator = guard.compileSchema(schema);
  // Braces at both ends are taken as they are, untrimmed; anything else is trimmed first.
  const more = [
    '{"rows":[]} }',
    '{ "rows" : [ ] }',
    '{"rows":[]}\n',
    "\u3000{\"rows\":[]}\u3000",
    '{"rows":[{"type":"fact","when":"2024-02-29"}]}  {"rows":[]}',
    "{}",
  ];
  for (const output of [...outputs, ...more]) {
    for (const options of [undefined, { maxErrors: 2 }, { maxErrors: 0 }, { requireObject: false }]) {
      const label = `${JSON.stringify(output).slice(0, 60)} with ${JSON.stringify(options)}`;
      assert.deepEqual(guard.checkOutput(output, validator, options), textPathVerdict(output, schema, options), label);
      // A response object: its finish reason read along, a token limit checked the general way.
      for (const finishReason of ["stop", "length"]) {
        const response = { content: output, finishReason };
        assert.deepEqual(guard.checkOutput(response, validator, options), objectPathVerdict(response, options), `${label}, ${finishReason}`);
        // Checked again: the remembered read's lane.
        assert.deepEqual(guard.checkOutput(response, validator, options), objectPathVerdict(response, options), `${label}, ${finishReason}, again`);
      }
    }
  }
});

const ruleOptions = [
  { requireObject: false },
  { maxErrors: 1, requireObject: true },
  { rules: [] },
  { rules: [{ name: "facts-dated", if: { required: ["rows"] }, then: { properties: { rows: { items: { properties: { type: { const: "fact" } } } } } }, message: "Only facts." }] },
  { rules: [{ name: "has-rows", then: { properties: { rows: { minItems: 1 } } }, message: "At least one row." }], maxErrors: 0 },
  { toolName: "extract" },
];

test("check options take the lane too, in one call at most, with the text path's verdicts", () => {
  const validator = guard.compileSchema(schema);
  for (const output of outputs) {
    for (const options of ruleOptions) {
      let lane;
      const calls = coreCalls(["checkInputLane", "checkOutputWith", "checkOutput"], () => {
        lane = guard.checkOutput(output, validator, options);
      });
      // A text the schema's check program accepts makes no call at all.
      assert.ok(calls.checkInputLane <= 1 && calls.checkOutputWith === 0 && calls.checkOutput === 0, `${JSON.stringify(options)}: ${JSON.stringify(calls)}`);
      assert.deepEqual(lane, textPathVerdict(output, schema, options), `${JSON.stringify(output).slice(0, 60)} with ${JSON.stringify(options)}`);
    }
  }
  // The options do apply: an array passes only without requireObject, a broken rule fails as a rule.
  assert.equal(guard.checkOutput("[1]", validator, { requireObject: false }).failure, "schema");
  assert.equal(guard.checkOutput("[1]", validator).failure, "not_object");
  const broken = guard.checkOutput('{"rows":[]}', validator, ruleOptions[4]);
  assert.equal(broken.failure, "rule");
  assert.equal(broken.errors.length, 0, "maxErrors: 0 holds on the lane");
});

test("requireObject and an empty rules list cross as a boolean and as nothing, not as options text", () => {
  const validator = guard.compileSchema(schema);
  const glue = internals.rawGlue();
  const seen = [];
  const originals = { checkInputLane: glue.checkInputLane, checkReadLane: glue.checkReadLane };
  for (const name of Object.keys(originals)) glue[name] = (...args) => (seen.push(args.at(-1)), originals[name](...args));
  try {
    for (const options of [{ requireObject: false }, { requireObject: true, maxErrors: 1 }, { rules: [] }, { rules: [], requireObject: false }]) {
      for (const output of ["[1]", '{"rows":[]}', { content: "[1]", finishReason: "stop" }]) {
        seen.length = 0;
        const verdict = guard.checkOutput(output, validator, options);
        // No call at all where the check program accepts the text.
        assert.ok(seen.length <= 1 && seen[0] === undefined, JSON.stringify(options));
        const text = typeof output === "string" ? output : output.content;
        assert.deepEqual(verdict, guard.checkOutput(typeof output === "string" ? text : output, schema, options), JSON.stringify(options));
      }
    }
    // Rules to check still cross as text.
    seen.length = 0;
    guard.checkOutput("{}", validator, ruleOptions[4]);
    assert.equal(typeof seen[0], "string");
  } finally {
    Object.assign(glue, originals);
  }
  assert.equal(guard.checkOutput("[1]", validator, { rules: [], requireObject: false }).failure, "schema");
  assert.equal(guard.checkOutput("[1]", validator, { rules: [] }).failure, "not_object");
});

test("options that leave the work unchanged are read without a new lane each call, as their own members", () => {
  // Two calls' options objects alike: the lane the second reads is the first's.
  for (const make of [() => ({ maxErrors: 20 }), () => ({ maxErrors: 5, requireObject: true, formats: "assert" }), () => ({ requireObject: false, rules: [] }), () => ({ maxErrors: 0, onInvalidSchema: "throw" })]) {
    assert.equal(internals.laneOptions(make()), internals.laneOptions(make()), JSON.stringify(make()));
  }
  // Members an options object inherits are no options (JSON.stringify reads own ones only), nor a
  // member Object.prototype was given; an own member a prototype's shadows is read.
  const validator = guard.compileSchema(schema);
  const inherited = Object.create({ maxErrors: 0, requireObject: false, rules: [{ path: "/rows", rule: "nonEmpty" }] });
  const shadowing = Object.assign(Object.create({ maxErrors: 0 }), { maxErrors: 1 });
  for (const output of ["[1]", '{"rows":[{"type":"other"}]}', '{"rows":[{"type":"fact","when":"2024-02-29"}]}']) {
    assert.deepEqual(guard.checkOutput(output, validator, inherited), textPathVerdict(output, schema, undefined), output);
    assert.deepEqual(guard.checkOutput(output, validator, shadowing), textPathVerdict(output, schema, { maxErrors: 1 }), output);
    Object.prototype.maxErrors = 0;
    try {
      assert.deepEqual(guard.checkOutput(output, validator, { requireObject: true }), textPathVerdict(output, schema, undefined), output);
    } finally {
      delete Object.prototype.maxErrors;
    }
  }
});

/**
 * The core's calls a response object's check can make: the read lane (a
 * copy the core reads), the lanes with a remembered read (the answer's text
 * and finish reason, if any, only) and the general path.
 */
const READ_LANE_CALLS = ["checkReadLane", "checkInputLane", "checkOutputWith", "checkOutput"];

/** How many lane calls a check made; 0 when it went (also) the general way. */
function readLaneCalls(calls) {
  if (calls.checkOutputWith + calls.checkOutput > 0) return 0;
  return calls.checkReadLane + calls.checkInputLane;
}

test("a response object with check options takes the read lane; with toolName its call's arguments take the lanes too", () => {
  const validator = guard.compileSchema(schema);
  const response = { content: '{"rows":[]}', finishReason: "stop" };
  const options = ruleOptions[4];
  let verdict;
  const calls = coreCalls(READ_LANE_CALLS, () => {
    verdict = guard.checkOutput(response, validator, options);
  });
  assert.equal(readLaneCalls(calls), 1);
  assert.equal(verdict.failure, "rule");
  assert.equal(verdict.finishReason, "stop");
  const toolCall = {
    choices: [{ message: { content: null, tool_calls: [{ type: "function", function: { name: "extract", arguments: '{"rows":[]}' } }] }, finish_reason: "tool_calls" }],
  };
  let viaTool;
  const toolCalls = coreCalls(["checkReadLane", "checkOutputWith"], () => {
    viaTool = guard.checkOutput(toolCall, validator, { toolName: "extract" });
  });
  assert.equal(toolCalls.checkOutputWith, 0, "toolName reads a tool call's arguments without the general path");
  assert.equal(viaTool.ok, true);
});

test("options the core refuses still get their typed error", () => {
  const validator = guard.compileSchema(schema);
  assert.throws(() => guard.checkOutput("{}", validator, { maxErrors: -1 }), { code: "invalid_argument" });
  assert.throws(() => guard.checkOutput("{}", validator, { rules: "none" }), { code: "invalid_argument" });
  assert.throws(() => guard.checkOutput("{}", validator, { requireObject: "yes" }), { code: "invalid_argument" });
  assert.throws(() => guard.checkOutput("{}", validator, { nonsense: 1 }), { code: "invalid_argument" });
  assert.throws(() => guard.checkOutput("{}", validator, { maxErrors: 2, rules: [{ name: "x", then: { type: 5 }, message: "m" }] }), /rule|schema/i);
});

test("large responses grow the input buffer and still match the general path", () => {
  const validator = guard.compileSchema(schema);
  const row = (i) => ({ type: i % 97 === 5 ? "other" : "fact", when: "2024-02-29", note: i % 2 ? "ascii" : "non-ascii é 😀" });
  for (const rows of [10, 5000, 40000]) {
    const text = JSON.stringify({ rows: Array.from({ length: rows }, (_, i) => row(i)) });
    const ascii = text.replace(/[^\x00-\x7f]/g, "?");
    for (const output of [text, ascii, `\`\`\`json\n${text}\n\`\`\``]) {
      assert.deepEqual(guard.checkOutput(output, validator), guard.checkOutput(output, schema), `${rows} rows`);
    }
  }
  const valid = JSON.stringify({ rows: Array.from({ length: 30000 }, () => ({ type: "fact", when: "2024-01-01", note: "é" })) });
  const verdict = guard.checkOutput(valid, validator);
  assert.equal(verdict.ok, true);
  assert.equal(verdict.value.rows.length, 30000);
});

test("the lane still reads the right bytes after other calls grow the memory", () => {
  const validator = guard.compileSchema(schema);
  const small = '{"rows":[{"type":"fact","when":"2024-02-29"}]}';
  const smallInvalid = '{"rows":[{"type":"fact","when":"2024-02-30"}]}';
  assert.equal(guard.checkOutput(small, validator).ok, true);
  const before = guard.wasmMemoryBytes();
  // The general path (a schema object, not a Validator) copies this into
  // the module as a string argument, which grows the memory when it is
  // still small; when earlier tests in the process already grew it, the
  // memory is grown directly. Either way the lane's old view is detached.
  const big = JSON.stringify({ rows: Array.from({ length: 60000 }, () => ({ type: "fact", when: "2024-01-01", note: "x".repeat(40) })) });
  assert.equal(guard.checkOutput(big, schema).ok, true);
  if (guard.wasmMemoryBytes() === before) internals.rawGlue().exports().memory.grow(16);
  assert.ok(guard.wasmMemoryBytes() > before, "the memory grew");
  for (const output of [small, smallInvalid, ` ${small} `, small]) {
    assert.deepEqual(guard.checkOutput(output, validator), guard.checkOutput(output, schema), output);
  }
});

test("a response object checked while the check grows the memory still reads its finish reason", () => {
  const validator = guard.compileSchema(schema);
  const rows = (n) => JSON.stringify({ rows: Array.from({ length: n }, () => ({ type: "fact", when: "2024-01-01", note: "x".repeat(40) })) });
  // Each text is larger than any before, so checking it grows the memory
  // after the text was encoded, and the view the text went through is
  // detached by the time the finish reason is read back.
  for (const n of [10, 4000, 40000, 120000]) {
    const before = guard.wasmMemoryBytes();
    // Through the core's lane (a check program would read nothing back).
    const verdict = internals.coreCheckOutput({ content: rows(n), finishReason: "stop" }, validator);
    assert.equal(verdict.ok, true, `${n} rows`);
    assert.equal(verdict.finishReason, "stop", `${n} rows`);
    assert.equal(verdict.value.rows.length, n);
    if (n === 120000) assert.ok(guard.wasmMemoryBytes() > before, "the last check grew the memory");
  }
});

/** The verdict of the core's general path for a response object: the whole object as JSON text, no lane. */
function generalObjectVerdict(response, schemaValue) {
  const result = JSON.parse(internals.rawGlue().checkOutput(JSON.stringify(response), false, JSON.stringify(schemaValue), "null"));
  const { textStart, textEnd, text, ...shaped } = result;
  if (shaped.ok) shaped.value = JSON.parse(text ?? response.content);
  return shaped;
}

test("the read lane remembers the copies it read, and each reads as the general path reads it", () => {
  // The lane keeps its last 16 reads of a response's copy (its members
  // without the texts). More shapes and finish reasons than that, in
  // changing order, with texts of changing lengths: each verdict must be the
  // general path's, in one lane call at most.
  const validator = guard.compileSchema(schema);
  const texts = [outputs[0], outputs[1], outputs[3], '{"rows": [', "[1, 2, 3]"];
  const reasons = ["stop", "length", "tool_calls", "content_filter", "end_turn", "max_tokens", null, ...Array.from({ length: 14 }, (_, i) => `reason_${i}`)];
  const shapes = [
    (content, reason) => ({ content, finishReason: reason }),
    (content, reason) => ({ object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: reason }] }),
    (content, reason) => ({ type: "message", role: "assistant", content: [{ type: "text", text: content }], stop_reason: reason }),
  ];
  const cases = [];
  for (const shape of shapes) for (const reason of reasons) cases.push(shape, reason);
  let checked = 0;
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < cases.length; i += 2) {
      const at = round === 1 ? cases.length - 2 - i : i;
      const response = cases[at](texts[(at / 2 + round) % texts.length], cases[at + 1]);
      let verdict;
      const calls = coreCalls(READ_LANE_CALLS, () => {
        verdict = guard.checkOutput(response, validator);
      });
      // One call, or none where the schema's check program accepts a copy the core read before.
      assert.ok(readLaneCalls(calls) <= 1, JSON.stringify(response).slice(0, 80));
      const expected = generalObjectVerdict(response, schema);
      expected.schemaHash = verdict.schemaHash;
      assert.deepEqual(verdict, expected, `round ${round}: ${JSON.stringify(response).slice(0, 120)}`);
      checked += 1;
    }
  }
  assert.equal(checked, 3 * shapes.length * reasons.length);
});

test("a run of distinct response copies only displaces remembered reads: memory stays flat", () => {
  const validator = guard.compileSchema(schema);
  const check = (i) => guard.checkOutput({ content: outputs[0], finishReason: `${"r".repeat(900)}${i}` }, validator);
  for (let i = 0; i < 200; i++) check(i);
  const before = guard.wasmMemoryBytes();
  for (let i = 200; i < 5200; i++) {
    const verdict = check(i);
    assert.equal(verdict.finishReason, `${"r".repeat(900)}${i}`);
  }
  // 5,000 copies of about 1 KiB each would be about 5 MB if all were kept.
  assert.ok(guard.wasmMemoryBytes() - before < 1 << 20, `grew by ${guard.wasmMemoryBytes() - before} bytes`);
});

test("a remembered read answers a copy the same as one read before, and only such a copy", () => {
  // A few shapes again and again, in changing order, so that most checks
  // find their copy remembered: each verdict must still be the general
  // path's, and a repeated copy must not be read by the core again.
  const validator = guard.compileSchema(schema);
  const texts = [outputs[0], outputs[1], outputs[3], '{"rows": [', "[1, 2, 3]", ""];
  const live = { rows: [] };
  const shapes = [
    (content) => ({ content, finishReason: "stop" }),
    (content) => ({ content, finishReason: "length" }),
    (content) => ({ content, finishReason: "stöp 😀" }),
    (content) => ({ content }),
    (content) => ({ object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }),
    // The same, but for a tool call whose arguments are a live object (a
    // `whole` node), changed in place between checks.
    (content) => ({
      object: "chat.completion",
      choices: [{ message: { content, tool_calls: [{ id: "c1", function: { name: "f", arguments: live } }] }, finish_reason: "stop" }],
    }),
    (content) => ({ type: "message", role: "assistant", content: [{ type: "text", text: content }], stop_reason: "end_turn" }),
    (content) => ({ object: live, content, finishReason: "stop" }),
    // Members in another order, or of other names, make another copy.
    (content) => ({ finishReason: "stop", content }),
    (content) => ({ content, stop_reason: "stop" }),
  ];
  const reads = new Set();
  let remembered = 0;
  for (let i = 0; i < 200; i++) {
    const at = (i * 7 + (i >> 3)) % shapes.length;
    if (i % 5 === 0) live.rows.push({ type: "fact", when: "2024-01-01" });
    if (i % 11 === 0) live.rows = [];
    const response = shapes[at](texts[i % texts.length]);
    let verdict;
    const calls = coreCalls(READ_LANE_CALLS, () => {
      verdict = guard.checkOutput(response, validator);
    });
    const expected = generalObjectVerdict(response, schema);
    expected.schemaHash = verdict.schemaHash;
    assert.deepEqual(verdict, expected, `check ${i}: ${JSON.stringify(response).slice(0, 120)}`);
    if (readLaneCalls(calls) === 0) continue;
    assert.equal(readLaneCalls(calls), 1);
    // The copy without its texts: what the core read, if it read it before.
    const copy = JSON.stringify(response, (key, value) => (typeof value === "string" && texts.includes(value) ? "<text>" : value));
    if (calls.checkReadLane === 0) {
      remembered += 1;
      assert.ok(reads.has(copy), `check ${i} used a read the core never made: ${copy}`);
    } else {
      reads.add(copy);
    }
  }
  assert.ok(remembered > 100, `only ${remembered} of 200 checks used a remembered read`);
});

test("an empty answer beside tool calls is worded as the general path words it", () => {
  // The message of an empty answer names the response's tool calls, which
  // the lane does not read: such a response takes the general path.
  const validator = guard.compileSchema(schema);
  const toolCalls = [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{}" } }];
  const responses = [
    { object: "chat.completion", choices: [{ message: { content: "", tool_calls: toolCalls }, finish_reason: "tool_calls" }] },
    { object: "chat.completion", choices: [{ message: { content: "  ", tool_calls: toolCalls }, finish_reason: "stop" }] },
    { type: "message", role: "assistant", content: [{ type: "text", text: "" }, { type: "tool_use", id: "t1", name: "lookup", input: {} }], stop_reason: "tool_use" },
    { content: "", finishReason: "stop" },
  ];
  for (let round = 0; round < 2; round++) {
    for (const response of responses) {
      const verdict = guard.checkOutput(response, validator);
      const expected = generalObjectVerdict(response, schema);
      expected.schemaHash = verdict.schemaHash;
      assert.deepEqual(verdict, expected, JSON.stringify(response));
      assert.equal(verdict.failure, "empty");
    }
  }
  assert.match(guard.checkOutput(responses[0], validator).message, /tool calls \("lookup"\)/);
});

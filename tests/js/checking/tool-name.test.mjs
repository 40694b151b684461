// `checkOutput(response, schema, { toolName })`: the named tool call's
// arguments are the answer. Read as the tool-call reader reads a response,
// they take the same lanes as an answer's content (the schema's check
// program, then the core's lane with the response's finish reason), and
// the verdict must be exactly the core's general path's.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { coreCalls } from "../../support/core-calls.mjs";

const schema = {
  type: "object",
  required: ["total"],
  properties: { total: { type: "number", minimum: 0 }, when: { type: "string", format: "date" }, code: { type: "string", pattern: "^[A-Z]{3}$" } },
};

const GOOD = '{"total":12.5,"when":"2024-02-29","code":"ABC"}';
const BAD = '{"total":-1,"when":"2024-02-30"}';

/** An OpenAI Chat completion carrying `calls` ([name, arguments]) and no content. */
function chat(calls, finishReason = "tool_calls") {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: null, tool_calls: calls.map(([name, args], i) => ({ id: `call_${i}`, type: "function", function: { name, arguments: args } })) },
        finish_reason: finishReason,
      },
    ],
  };
}

/** The core's general path for a response object, its verdict shaped as checkOutput shapes it. */
function generalVerdict(response, options) {
  const opts = options === undefined ? "null" : JSON.stringify(options);
  // A lone surrogate is read as U+FFFD, as the package reads every string it hands the core.
  const text = JSON.stringify(response, (_, v) => (typeof v === "string" ? v.toWellFormed() : v));
  const result = JSON.parse(internals.rawGlue().checkOutput(text, false, JSON.stringify(schema), opts));
  const { textStart, textEnd, text: json, ...shaped } = result;
  if (shaped.ok) shaped.value = JSON.parse(json);
  return shaped;
}

const responses = [
  ["a forced call", chat([["extract", GOOD]])],
  ["a forced call, fenced", chat([["extract", `\`\`\`json\n${GOOD}\n\`\`\``]])],
  ["rejected arguments", chat([["extract", BAD]])],
  ["arguments cut off", chat([["extract", '{"total":1']], "length")],
  ["a token limit on whole arguments", chat([["extract", GOOD]], "length")],
  ["empty arguments", chat([["extract", ""]])],
  ["not an object", chat([["extract", "[1]"]])],
  ["another tool only", chat([["lookup", GOOD]])],
  ["the first of two calls of the name", chat([["extract", BAD], ["extract", GOOD]])],
  ["the second name of two", chat([["lookup", BAD], ["extract", GOOD]])],
  ["the same shape, the names swapped", chat([["extract", BAD], ["lookup", GOOD]])],
  ["non-ASCII arguments", chat([["extract", '{"total":1,"note":"héllo 😀"}']])],
  ["a lone surrogate in the arguments", chat([["extract", '{"total":1,"note":"\ud800"}']])],
  ["content beside the call", { ...chat([["extract", GOOD]]), choices: [{ message: { content: "{}", tool_calls: [{ id: "c", type: "function", function: { name: "extract", arguments: GOOD } }] }, finish_reason: "stop" }] }],
  ["Anthropic tool_use input", { type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "extract", input: JSON.parse(GOOD) }], stop_reason: "tool_use" }],
  ["Anthropic tool_use, rejected input", { type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "extract", input: JSON.parse(BAD) }], stop_reason: "tool_use" }],
  ["a Responses function_call", { object: "response", status: "completed", output: [{ type: "function_call", call_id: "c1", name: "extract", arguments: GOOD }] }],
  ["an AI SDK tool-call part", { content: [{ type: "tool-call", toolCallId: "t1", toolName: "extract", input: GOOD }], finishReason: "tool-calls" }],
  ["Gemini functionCall", { candidates: [{ content: { parts: [{ functionCall: { name: "extract", args: JSON.parse(GOOD) } }] }, finishReason: "STOP" }] }],
];

const optionSets = [{ toolName: "extract" }, { toolName: "extract", maxErrors: 1 }, { toolName: "extract", requireObject: false }, { toolName: "extract", rules: [] }, { toolName: "extract", rules: [{ name: "small", then: { properties: { total: { maximum: 10 } } }, message: "Too large." }] }];

test("toolName: every response and option set gives the core's general verdict, read again too", () => {
  const validator = guard.compileSchema(schema);
  // Past the checks made before the schema's program exists.
  for (let i = 0; i < 3; i++) validator.isValid({ total: 1 });
  for (const [label, response] of responses) {
    for (const options of optionSets) {
      const expected = generalVerdict(response, options);
      for (const round of ["first", "again"]) {
        assert.deepEqual(guard.checkOutput(response, validator, options), expected, `${label} with ${JSON.stringify(options)} (${round})`);
        assert.deepEqual(guard.checkOutput(response, schema, options), expected, `${label} with ${JSON.stringify(options)}, the schema object (${round})`);
      }
    }
  }
});

test("toolName: responses of one shape with their calls' names in another order each read their own call", () => {
  const validator = guard.compileSchema(schema);
  for (let i = 0; i < 3; i++) validator.isValid({ total: 1 });
  const first = chat([["extract", GOOD], ["lookup", BAD]]);
  const swapped = chat([["lookup", GOOD], ["extract", BAD]]);
  for (let round = 0; round < 3; round++) {
    assert.equal(guard.checkOutput(first, validator, { toolName: "extract" }).ok, true);
    assert.equal(guard.checkOutput(swapped, validator, { toolName: "extract" }).ok, false);
    assert.equal(guard.checkOutput(first, validator, { toolName: "lookup" }).ok, false);
    assert.equal(guard.checkOutput(swapped, validator, { toolName: "lookup" }).ok, true);
  }
});

test("toolName: a forced call's accepted arguments take the answer's lanes, not the general path", () => {
  const validator = guard.compileSchema(schema);
  for (let i = 0; i < 3; i++) validator.isValid({ total: 1 });
  const response = chat([["extract", GOOD]], "stop");
  guard.checkOutput(response, validator, { toolName: "extract" });
  let verdict;
  const calls = coreCalls(["checkOutputWith", "checkOutput", "checkInputLane", "checkReadLane", "readToolCallsAt"], () => {
    verdict = guard.checkOutput(response, validator, { toolName: "extract" });
  });
  assert.equal(verdict.ok, true);
  assert.deepEqual(calls, { checkOutputWith: 0, checkOutput: 0, checkInputLane: 0, checkReadLane: 0, readToolCallsAt: 0 }, "read once, then checked by the schema's program");
  // Rules to check: the core's lane, one call.
  const ruled = coreCalls(["checkOutputWith", "checkOutput", "checkInputLane"], () => {
    guard.checkOutput(response, validator, optionSets[4]);
  });
  assert.deepEqual(ruled, { checkOutputWith: 0, checkOutput: 0, checkInputLane: 1 });
});

test("toolName of the wrong kind is still the core's typed error", () => {
  const validator = guard.compileSchema(schema);
  const response = chat([["extract", GOOD]]);
  for (const toolName of ["", 5, true]) {
    assert.throws(() => guard.checkOutput(response, validator, { toolName }), { code: "invalid_argument" }, JSON.stringify(toolName));
  }
});

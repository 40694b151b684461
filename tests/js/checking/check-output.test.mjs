// checkOutput: the whole post-generation check of one model response.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import {
  CITY_SCHEMA,
  GOOD_OBSERVATIONS,
  HEX32,
  HEX64,
  OBSERVATIONS_SCHEMA,
  anthropicMessage,
  assertFailure,
  bedrockConverse,
  geminiResponse,
  mistralChat,
  openaiChat,
  openaiResponses,
  thrown,
} from "../../support/fixtures.mjs";

const GOOD_TEXT = JSON.stringify(GOOD_OBSERVATIONS);
const OBS_HASH = guard.compileSchema(OBSERVATIONS_SCHEMA).schemaHash;

describe("checkOutput: a conforming response", () => {
  test("is accepted with the parsed value, no rescue, a schema hash and no degradation", () => {
    const verdict = guard.checkOutput(GOOD_TEXT, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
    assert.equal(verdict.rescue, "none");
    assert.match(verdict.schemaHash, HEX64);
    assert.equal(verdict.schemaHash, OBS_HASH);
    assert.equal(verdict.degraded, false);
    assert.equal("failure" in verdict, false);
    assert.equal("errors" in verdict, false);
  });

  test("surrounding white space is not a rescue", () => {
    const verdict = guard.checkOutput(`\n\n  ${GOOD_TEXT}  \n`, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true);
    assert.equal(verdict.rescue, "none");
    assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
  });

  test("is read out of {content, finishReason}", () => {
    const verdict = guard.checkOutput({ content: GOOD_TEXT, finishReason: "stop" }, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
  });

  const providers = [
    ["OpenAI chat completion", openaiChat(GOOD_TEXT)],
    ["Anthropic message", anthropicMessage(GOOD_TEXT)],
    ["Gemini response", geminiResponse(GOOD_TEXT)],
    ["Mistral chat completion", mistralChat(GOOD_TEXT)],
    ["Bedrock Converse response", bedrockConverse(GOOD_TEXT)],
    ["OpenAI Responses response", openaiResponses(GOOD_TEXT)],
  ];
  for (const [name, response] of providers) {
    test(`is read out of a whole ${name}`, () => {
      const verdict = guard.checkOutput(response, OBSERVATIONS_SCHEMA);
      assert.equal(verdict.ok, true, verdict.message);
      assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
      assert.equal(verdict.rescue, "none");
      assert.equal(verdict.schemaHash, OBS_HASH);
    });
  }

  test("Gemini text split across parts is joined without a separator", () => {
    const response = geminiResponse("");
    response.candidates[0].content.parts = [{ text: '{"observations":[{"type":"fa' }, { text: 'ct","text":"x","importance":1}]}' }];
    const verdict = guard.checkOutput(response, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, { observations: [{ type: "fact", text: "x", importance: 1 }] });
  });

  test("without a schema only the parse-level checks run (schemaHash null, not degraded)", () => {
    const verdict = guard.checkOutput('{"anything":[1,2,3]}');
    assert.deepEqual(verdict.value, { anything: [1, 2, 3] });
    assert.equal(verdict.ok, true);
    assert.equal(verdict.schemaHash, null);
    assert.equal(verdict.degraded, false);
  });
});

describe("checkOutput: code-fence rescue", () => {
  test("a ```json fence is accepted with rescue code_fence", () => {
    const verdict = guard.checkOutput("```json\n" + GOOD_TEXT + "\n```", OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true);
    assert.equal(verdict.rescue, "code_fence");
    assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
    assert.equal(verdict.schemaHash, OBS_HASH);
  });

  test("a fence without a language tag, and a tilde fence, are rescued too", () => {
    for (const text of ["```\n" + GOOD_TEXT + "\n```", "~~~json\n" + GOOD_TEXT + "\n~~~", "\n  ```JSON\r\n" + GOOD_TEXT + "\r\n```  \n"]) {
      const verdict = guard.checkOutput(text, OBSERVATIONS_SCHEMA);
      assert.equal(verdict.ok, true, JSON.stringify(text));
      assert.equal(verdict.rescue, "code_fence");
      assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
    }
  });

  test("a ``` fence marker inside a string value does not end the fence", () => {
    const value = {
      observations: [{ type: "decision", text: "Use this snippet:\n```python\nprint(1)\n```\nthen stop.", importance: 2 }],
    };
    // The body holds "```python" and a "```" right after an escaped newline:
    // inside the JSON string, so neither may end the outer fence.
    const text = "```json\n" + JSON.stringify(value, null, 2) + "\n```";
    const verdict = guard.checkOutput(text, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true, verdict.message);
    assert.equal(verdict.rescue, "code_fence");
    assert.deepEqual(verdict.value, value);
    assert.equal(verdict.value.observations[0].text.includes("```python"), true);
  });

  test("non-ASCII text before and inside the JSON comes back intact (UTF-16 offsets)", () => {
    const schema = { type: "object", required: ["city"], properties: { city: { type: "string", maxLength: 12 } } };
    const cases = [
      ['{"city":"Zürich"}', "Zürich", "none"],
      ["\u00a0\u3000" + '{"city":"東京"}', "東京", "none"],
      ["```json 🚀\n" + '{"city":"🚀 São Paulo"}' + "\n```", "🚀 São Paulo", "code_fence"],
      // A lone surrogate is not Unicode: checked, and returned, as U+FFFD.
      ["```\n" + '{"city":"a\ud800b"}' + "\n```", "a\ufffdb", "code_fence"],
    ];
    for (const [text, city, rescue] of cases) {
      const verdict = guard.checkOutput(text, schema);
      assert.equal(verdict.ok, true, `${JSON.stringify(text)}: ${verdict.message}`);
      assert.deepEqual(verdict.value, { city });
      assert.equal(verdict.rescue, rescue);
    }
    // maxLength counts code points, not UTF-16 units: 4 emoji are 4 characters.
    assert.equal(guard.checkOutput('{"city":"😀😀😀😀"}', { ...schema, properties: { city: { type: "string", maxLength: 4 } } }).ok, true);
    assert.equal(guard.checkOutput('{"city":"😀😀😀😀"}', { ...schema, properties: { city: { type: "string", maxLength: 3 } } }).failure, "schema");
  });

  test("a fenced response inside a provider object is rescued", () => {
    const verdict = guard.checkOutput(anthropicMessage("```json\n" + GOOD_TEXT + "\n```"), OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true);
    assert.equal(verdict.rescue, "code_fence");
    assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
  });

  test("a fenced body that fails the schema still reports rescue code_fence", () => {
    const verdict = guard.checkOutput('```json\n{"observations":"none"}\n```', OBSERVATIONS_SCHEMA);
    assertFailure(verdict, "schema", { issues: [["/observations", "/properties/observations/type", "type", /array/]] });
    assert.equal(verdict.rescue, "code_fence");
  });
});

describe("checkOutput: unparseable output is never repaired", () => {
  const cases = [
    ["prose before the JSON", `Here is the JSON you asked for: ${GOOD_TEXT}`],
    ["prose after the JSON", `${GOOD_TEXT}\nLet me know if you need anything else!`],
    ["trailing characters", `${GOOD_TEXT} }`],
    ["cut-off JSON", GOOD_TEXT.slice(0, 40)],
    ["a fence with prose around it", "Sure:\n```json\n" + GOOD_TEXT + "\n```"],
    ["a fence followed by prose", "```json\n" + GOOD_TEXT + "\n```\nHope this helps."],
    ["two fences", "```json\n{}\n```\n```json\n" + GOOD_TEXT + "\n```"],
    ["an unclosed fence", "```json\n" + GOOD_TEXT],
    ["single quotes", "{'observations': []}"],
    ["a trailing comma", '{"observations": [],}'],
  ];
  for (const [name, text] of cases) {
    test(`${name} is unparseable`, () => {
      const verdict = guard.checkOutput(text, OBSERVATIONS_SCHEMA);
      assertFailure(verdict, "unparseable");
      assert.equal(verdict.rescue, "none");
      assert.equal(verdict.schemaHash, OBS_HASH);
      assert.match(verdict.message, /^The response is not valid JSON \(/);
    });
  }

  test("cut-off JSON names where it ends", () => {
    const verdict = guard.checkOutput('{"observations":[{"type":"fa', OBSERVATIONS_SCHEMA);
    assertFailure(verdict, "unparseable");
    assert.match(verdict.message, /line 1 column 28/);
  });
});

describe("checkOutput: empty output", () => {
  for (const [name, output] of [
    ["an empty string", ""],
    ["white space", " \n\t "],
    ["null", null],
    ["an empty fence", "```json\n```"],
    ["an OpenAI refusal (content null)", openaiChat(null)],
  ]) {
    test(`${name} is empty`, () => {
      const verdict = guard.checkOutput(output, OBSERVATIONS_SCHEMA);
      assertFailure(verdict, "empty");
      assert.match(verdict.message, /no content/);
    });
  }
});

describe("checkOutput: truncation", () => {
  const TOKEN_LIMITS = ["MAX_TOKENS", "length", "max_tokens", "model_length"];

  for (const reason of TOKEN_LIMITS) {
    test(`valid JSON with finishReason ${reason} is truncated`, () => {
      const verdict = guard.checkOutput({ content: GOOD_TEXT, finishReason: reason }, OBSERVATIONS_SCHEMA);
      assertFailure(verdict, "truncated");
      assert.match(verdict.message, /token limit/);
      assert.ok(verdict.message.includes(`"${reason}"`), verdict.message);
      assert.equal(verdict.schemaHash, OBS_HASH);
    });
  }

  test("finish reasons compare case-insensitively", () => {
    for (const reason of ["Length", "LENGTH", "max_TOKENS", "Max_Tokens"]) {
      assert.equal(guard.checkOutput({ content: GOOD_TEXT, finishReason: reason }, OBSERVATIONS_SCHEMA).failure, "truncated", reason);
    }
  });

  for (const reason of ["end_turn", "stop", "STOP", "stop_sequence", "tool_calls", "content_filter"]) {
    test(`valid JSON with finishReason ${reason} passes`, () => {
      const verdict = guard.checkOutput({ content: GOOD_TEXT, finishReason: reason }, OBSERVATIONS_SCHEMA);
      assert.equal(verdict.ok, true, verdict.message);
      assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
    });
  }

  const truncatedResponses = [
    ["Gemini candidates[0].finishReason MAX_TOKENS", geminiResponse(GOOD_TEXT, { finishReason: "MAX_TOKENS" }), "MAX_TOKENS"],
    ["OpenAI choices[0].finish_reason length", openaiChat(GOOD_TEXT, { finishReason: "length" }), "length"],
    ["Anthropic stop_reason max_tokens", anthropicMessage(GOOD_TEXT, { stopReason: "max_tokens" }), "max_tokens"],
    ["Anthropic stop_reason model_context_window_exceeded", anthropicMessage(GOOD_TEXT, { stopReason: "model_context_window_exceeded" }), "model_context_window_exceeded"],
    ["Mistral finish_reason model_length", mistralChat(GOOD_TEXT, "model_length"), "model_length"],
    ["Mistral finish_reason length", mistralChat(GOOD_TEXT, "length"), "length"],
    ["Bedrock stopReason max_tokens", bedrockConverse(GOOD_TEXT, "max_tokens"), "max_tokens"],
    ["OpenAI Responses incomplete at max_output_tokens", openaiResponses(GOOD_TEXT, { status: "incomplete", reason: "max_output_tokens" }), "max_output_tokens"],
  ];
  for (const [name, response, reason] of truncatedResponses) {
    test(`a whole response with ${name} is truncated even though its JSON is valid`, () => {
      const verdict = guard.checkOutput(response, OBSERVATIONS_SCHEMA);
      assertFailure(verdict, "truncated");
      assert.match(verdict.message, new RegExp(`finish reason "${reason}"`));
    });
  }

  const passingResponses = [
    ["Gemini STOP", geminiResponse(GOOD_TEXT, { finishReason: "STOP" })],
    ["OpenAI stop", openaiChat(GOOD_TEXT, { finishReason: "stop" })],
    ["Anthropic end_turn", anthropicMessage(GOOD_TEXT, { stopReason: "end_turn" })],
    ["Mistral stop", mistralChat(GOOD_TEXT, "stop")],
    ["Bedrock end_turn", bedrockConverse(GOOD_TEXT, "end_turn")],
    ["OpenAI Responses incomplete by content_filter", openaiResponses(GOOD_TEXT, { status: "incomplete", reason: "content_filter" })],
  ];
  for (const [name, response] of passingResponses) {
    test(`a whole response with ${name} passes`, () => {
      const verdict = guard.checkOutput(response, OBSERVATIONS_SCHEMA);
      assert.equal(verdict.ok, true, verdict.message);
      assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
    });
  }

  test("truncation wins over every later stage (empty, unparseable, schema)", () => {
    assert.equal(guard.checkOutput({ content: "", finishReason: "length" }, OBSERVATIONS_SCHEMA).failure, "truncated");
    assert.equal(guard.checkOutput({ content: '{"observations":[{"ty', finishReason: "length" }, OBSERVATIONS_SCHEMA).failure, "truncated");
    assert.equal(guard.checkOutput({ content: "[]", finishReason: "max_tokens" }, OBSERVATIONS_SCHEMA).failure, "truncated");
    assert.equal(guard.checkOutput({ content: '{"observations":7}', finishReason: "MAX_TOKENS" }, OBSERVATIONS_SCHEMA).failure, "truncated");
  });

  test("an executor trace: the last model segment counts, tool segments after it do not", () => {
    const truncated = {
      content: GOOD_TEXT,
      timing: {
        timeSegments: [
          { type: "model", finishReason: "stop" },
          { type: "model", finishReason: "length" },
          { type: "tool", finishReason: "stop" },
        ],
      },
    };
    assert.equal(guard.checkOutput(truncated, OBSERVATIONS_SCHEMA).failure, "truncated");
    const recovered = {
      content: GOOD_TEXT,
      timing: { timeSegments: [{ type: "model", finishReason: "length" }, { type: "tool" }, { type: "model", finishReason: "stop" }] },
    };
    const verdict = guard.checkOutput(recovered, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, GOOD_OBSERVATIONS);
  });

  test("a plain string is content, never a finish reason", () => {
    const verdict = guard.checkOutput("length", OBSERVATIONS_SCHEMA);
    assertFailure(verdict, "unparseable");
  });
});

describe("checkOutput: schema failures", () => {
  test("the hollow row fails `schema` naming /observations/0/type with code enum", () => {
    const verdict = guard.checkOutput('{"observations":[{"type":"","text":"","importance":0}]}', OBSERVATIONS_SCHEMA);
    assertFailure(verdict, "schema", {
      issues: [["/observations/0/type", "/properties/observations/items/properties/type/enum", "enum", /"fact", "decision", "question"/]],
    });
    assert.equal(verdict.schemaHash, OBS_HASH);
    assert.equal(verdict.rescue, "none");
    assert.match(verdict.message, /\/observations\/0\/type/);
    assert.match(verdict.message, /\(1 problem\)/);
  });

  test("the hollow row in the second position is named by index", () => {
    const text = JSON.stringify({ observations: [GOOD_OBSERVATIONS.observations[0], { type: "", text: "", importance: 0 }] });
    const verdict = guard.checkOutput(text, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(
      verdict.errors.map((e) => [e.path, e.code]),
      [["/observations/1/type", "enum"]],
    );
  });

  test("several problems are listed in path order with their keywords", () => {
    const text = JSON.stringify({ observations: [{ type: "fact", text: 5, importance: 2.5, extra: true }] });
    const verdict = guard.checkOutput(text, OBSERVATIONS_SCHEMA);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(
      verdict.errors.map((e) => [e.path, e.schemaPath, e.code]),
      [
        ["/observations/0", "/properties/observations/items/additionalProperties", "additionalProperties"],
        ["/observations/0/importance", "/properties/observations/items/properties/importance/type", "type"],
        ["/observations/0/text", "/properties/observations/items/properties/text/type", "type"],
      ],
    );
    assert.equal(verdict.moreErrors, false);
    assert.match(verdict.message, /\(3 problems\)/);
  });

  test("a missing required property is code `required` at its parent", () => {
    const verdict = guard.checkOutput('{"observations":[{"type":"fact","text":"x"}]}', OBSERVATIONS_SCHEMA);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(
      verdict.errors.map((e) => [e.path, e.schemaPath, e.code]),
      [["/observations/0", "/properties/observations/items/required", "required"]],
    );
  });

  test("rejectUnknownFields closes objects that do not say additionalProperties", () => {
    const open = { type: "object", properties: { a: { type: "integer" } } };
    assert.equal(guard.checkOutput('{"a":1,"b":2}', open).ok, true);
    const verdict = guard.checkOutput('{"a":1,"b":2}', open, { rejectUnknownFields: true });
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(
      verdict.errors.map((e) => [e.path, e.code]),
      [["", "additionalProperties"]],
    );
  });
});

describe("checkOutput: root type", () => {
  test("a root array is not_object", () => {
    const verdict = guard.checkOutput('[{"type":"fact","text":"x","importance":1}]', OBSERVATIONS_SCHEMA);
    assertFailure(verdict, "not_object");
    assert.match(verdict.message, /not an object \(it is an array\)/);
  });

  test("root scalars are not_object, named by type", () => {
    for (const [text, kind] of [["42", "a number"], ['"text"', "a string"], ["true", "a boolean"], ["null", "null"]]) {
      const verdict = guard.checkOutput(text, OBSERVATIONS_SCHEMA);
      assertFailure(verdict, "not_object");
      assert.ok(verdict.message.includes(`not an object (it is ${kind})`), verdict.message);
    }
  });

  test("with requireObject: false an array schema accepts a root array", () => {
    const arraySchema = { type: "array", items: { type: "integer" }, minItems: 1 };
    const verdict = guard.checkOutput("[1, 2, 3]", arraySchema, { requireObject: false });
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, [1, 2, 3]);
    assert.equal(verdict.schemaHash, guard.compileSchema(arraySchema).schemaHash);
    // ...and the schema still runs: an empty array fails minItems.
    const empty = guard.checkOutput("[]", arraySchema, { requireObject: false });
    assert.equal(empty.failure, "schema");
    assert.deepEqual(empty.errors.map((e) => [e.path, e.code]), [["", "minItems"]]);
  });

  test("with requireObject: false an object schema still rejects an array, as `schema`", () => {
    const verdict = guard.checkOutput("[]", OBSERVATIONS_SCHEMA, { requireObject: false });
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["", "type"]]);
  });
});

describe("checkOutput: uncompilable schemas", () => {
  const BROKEN = { type: "object", properties: { a: { type: "integr" } } };

  test("degrade by default: parse-level checks only, degraded: true, schemaHash null", () => {
    const verdict = guard.checkOutput('{"a":"not checked"}', BROKEN);
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.value, { a: "not checked" });
    assert.equal(verdict.degraded, true);
    assert.equal(verdict.schemaHash, null);
    assert.equal(verdict.rescue, "none");
  });

  test("a degraded check still reports parse-level failures", () => {
    assertFailure(guard.checkOutput("not json", BROKEN), "unparseable", { degraded: true });
    assertFailure(guard.checkOutput("[]", BROKEN), "not_object", { degraded: true });
    assertFailure(guard.checkOutput({ content: "{}", finishReason: "length" }, BROKEN), "truncated", { degraded: true });
  });

  test("schema text that is not JSON degrades too", () => {
    const verdict = guard.checkOutput("{}", "{type: object}");
    assert.equal(verdict.ok, true);
    assert.equal(verdict.degraded, true);
    assert.equal(verdict.schemaHash, null);
  });

  test('onInvalidSchema: "throw" throws a SchemaError naming the problem', () => {
    const error = thrown(() => guard.checkOutput("{}", BROKEN, { onInvalidSchema: "throw" }));
    assert.ok(error instanceof Error);
    assert.ok(error instanceof guard.SchemaError);
    assert.equal(error.name, "SchemaError");
    assert.equal(error.code, "invalid_schema");
    assert.match(error.message, /\/properties\/a\/type/);
  });

  test('onInvalidSchema: "throw" with schema text that is not JSON', () => {
    const error = thrown(() => guard.checkOutput("{}", "{type: object}", { onInvalidSchema: "throw" }));
    assert.ok(error instanceof guard.SchemaError);
    assert.equal(error.code, "invalid_schema");
    assert.match(error.message, /^the schema is not valid JSON/);
  });

  test("a schema that is neither an object nor a boolean cannot be compiled", () => {
    const error = thrown(() => guard.checkOutput("{}", 42, { onInvalidSchema: "throw" }));
    assert.ok(error instanceof guard.SchemaError);
    assert.match(error.message, /must be an object or a boolean, not a number/);
    assert.equal(guard.checkOutput("{}", 42).degraded, true);
  });
});

describe("checkOutput: formats are asserted", () => {
  const FORMATS = {
    type: "object",
    properties: {
      day: { type: "string", format: "date" },
      at: { type: "string", format: "date-time" },
      email: { type: "string", format: "email" },
      id: { type: "string", format: "uuid" },
    },
  };
  const VALID = {
    day: "2026-02-28",
    at: "2026-03-01T09:30:00Z",
    email: "ada.lovelace@example.com",
    id: "123e4567-e89b-12d3-a456-426614174000",
  };

  test("valid values of every format are accepted", () => {
    const verdict = guard.checkOutput(JSON.stringify(VALID), FORMATS);
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, VALID);
    assert.equal(guard.checkOutput(JSON.stringify({ ...VALID, day: "2024-02-29", at: "2026-03-01T09:30:00.250+02:00" }), FORMATS).ok, true);
  });

  const violations = [
    ["day", "2026-02-30", "date"],
    ["day", "2026-13-01", "date"],
    ["at", "2026-03-01T09:30:00", "date-time"],
    ["at", "2026-03-01 09:30:00Z", "date-time"],
    ["email", "ada.lovelace.example.com", "email"],
    ["email", "ada lovelace@example.com", "email"],
    ["id", "123e4567-e89b-12d3-a456-42661417400", "uuid"],
    ["id", "123e4567-e89b-12d3-a456-42661417400g", "uuid"],
  ];
  for (const [key, bad, format] of violations) {
    test(`${JSON.stringify(bad)} is not a valid ${format}`, () => {
      const verdict = guard.checkOutput(JSON.stringify({ ...VALID, [key]: bad }), FORMATS);
      assertFailure(verdict, "schema", { issues: [[`/${key}`, `/properties/${key}/format`, "format", new RegExp(`"${format}"`)]] });
    });
  }

  test("all four violations at once are four format issues", () => {
    const verdict = guard.checkOutput(JSON.stringify({ day: "2026-02-30", at: "2026-03-01T09:30:00", email: "nope", id: "1234" }), FORMATS);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(
      verdict.errors.map((e) => [e.path, e.code]),
      [["/at", "format"], ["/day", "format"], ["/email", "format"], ["/id", "format"]],
    );
  });

  test('formats: "annotate" lets a bad date through', () => {
    const verdict = guard.checkOutput(JSON.stringify({ ...VALID, day: "2026-02-30" }), FORMATS, { formats: "annotate" });
    assert.equal(verdict.ok, true);
    assert.equal(verdict.value.day, "2026-02-30");
  });
});

describe("checkOutput: errorHash and maxErrors", () => {
  const ALL_TYPES = {
    type: "object",
    properties: {
      a: { type: "integer" },
      b: { type: "string" },
      c: { type: "boolean" },
      d: { type: "number" },
      e: { type: "null" },
      f: { type: "array" },
      g: { type: "object" },
    },
  };
  const SEVEN_WRONG = JSON.stringify({ a: "x", b: 1, c: 1, d: "x", e: 1, f: 1, g: 1 });

  test("equal for the same failure class and the same (path, code) set", () => {
    const a = guard.checkOutput('{"observations":[{"type":"","text":"","importance":0}]}', OBSERVATIONS_SCHEMA);
    const b = guard.checkOutput('{"observations":[{"type":"opinion","text":"other","importance":9}]}', OBSERVATIONS_SCHEMA);
    assert.equal(a.failure, "schema");
    assert.equal(b.failure, "schema");
    assert.deepEqual(a.errors.map((e) => [e.path, e.code]), [["/observations/0/type", "enum"]]);
    assert.deepEqual(b.errors.map((e) => [e.path, e.code]), [["/observations/0/type", "enum"]]);
    assert.equal(a.errorHash, b.errorHash);
    // Two unparseable texts share a hash, whatever the parse error says.
    const u1 = guard.checkOutput("Sure! {}", OBSERVATIONS_SCHEMA);
    const u2 = guard.checkOutput('{"observations": [', OBSERVATIONS_SCHEMA);
    assert.notEqual(u1.message, u2.message);
    assert.equal(u1.errorHash, u2.errorHash);
  });

  test("equal whatever order the same problems appear in", () => {
    const schema = { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } } };
    const x = guard.checkOutput('{"a":"x","b":2}', schema);
    const y = guard.checkOutput('{"b":3,"a":"z"}', schema);
    assert.equal(x.errors.length, 2);
    assert.equal(x.errorHash, y.errorHash);
  });

  test("different for a different path, code, set or class", () => {
    const hollow = guard.checkOutput('{"observations":[{"type":"","text":"","importance":0}]}', OBSERVATIONS_SCHEMA).errorHash;
    const otherIndex = guard.checkOutput(
      JSON.stringify({ observations: [GOOD_OBSERVATIONS.observations[0], { type: "", text: "", importance: 0 }] }),
      OBSERVATIONS_SCHEMA,
    ).errorHash;
    const otherCode = guard.checkOutput('{"observations":[{"type":"fact","text":"","importance":0.5}]}', OBSERVATIONS_SCHEMA).errorHash;
    const twoProblems = guard.checkOutput('{"observations":[{"type":"","text":"","importance":0.5}]}', OBSERVATIONS_SCHEMA).errorHash;
    const unparseable = guard.checkOutput("nope", OBSERVATIONS_SCHEMA).errorHash;
    const notObject = guard.checkOutput("[]", OBSERVATIONS_SCHEMA).errorHash;
    const truncated = guard.checkOutput({ content: "{}", finishReason: "length" }, OBSERVATIONS_SCHEMA).errorHash;
    const empty = guard.checkOutput("", OBSERVATIONS_SCHEMA).errorHash;
    const all = [hollow, otherIndex, otherCode, twoProblems, unparseable, notObject, truncated, empty];
    for (const hash of all) assert.match(hash, HEX32);
    assert.equal(new Set(all).size, all.length, `hashes must all differ: ${all.join(" ")}`);
  });

  test("maxErrors defaults to 5 and sets moreErrors when there are more", () => {
    const verdict = guard.checkOutput(SEVEN_WRONG, ALL_TYPES);
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.errors.length, 5);
    assert.equal(verdict.moreErrors, true);
    assert.deepEqual(
      verdict.errors.map((e) => e.path),
      ["/a", "/b", "/c", "/d", "/e"],
    );
    assert.match(verdict.message, /\(more than 5 problems\)/);
  });

  test("maxErrors caps the list", () => {
    const two = guard.checkOutput(SEVEN_WRONG, ALL_TYPES, { maxErrors: 2 });
    assert.deepEqual(two.errors.map((e) => [e.path, e.code]), [["/a", "type"], ["/b", "type"]]);
    assert.equal(two.moreErrors, true);
    const one = guard.checkOutput(SEVEN_WRONG, ALL_TYPES, { maxErrors: 1 });
    assert.equal(one.errors.length, 1);
    assert.equal(one.moreErrors, true);
    const zero = guard.checkOutput(SEVEN_WRONG, ALL_TYPES, { maxErrors: 0 });
    assert.equal(zero.failure, "schema");
    assert.deepEqual(zero.errors, []);
    assert.equal(zero.moreErrors, true);
  });

  test("a cap at or above the count lists everything and moreErrors is false", () => {
    for (const maxErrors of [7, 50]) {
      const verdict = guard.checkOutput(SEVEN_WRONG, ALL_TYPES, { maxErrors });
      assert.equal(verdict.errors.length, 7);
      assert.equal(verdict.moreErrors, false);
      assert.deepEqual(
        verdict.errors.map((e) => e.path),
        ["/a", "/b", "/c", "/d", "/e", "/f", "/g"],
      );
    }
  });
});

describe("checkOutput: response-format wrapper", () => {
  const WRAPPER = { name: "observations", strict: true, schema: OBSERVATIONS_SCHEMA };

  test("the wrapped schema is used", () => {
    const ok = guard.checkOutput(GOOD_TEXT, WRAPPER);
    assert.equal(ok.ok, true);
    assert.deepEqual(ok.value, GOOD_OBSERVATIONS);
    assert.equal(ok.schemaHash, OBS_HASH);
    const bad = guard.checkOutput('{"observations":[{"type":"","text":"","importance":0}]}', WRAPPER);
    assert.equal(bad.failure, "schema");
    assert.deepEqual(bad.errors.map((e) => [e.path, e.code]), [["/observations/0/type", "enum"]]);
  });

  test("a wrapper with only name and schema, and one with a description, unwrap too", () => {
    for (const wrapper of [{ schema: OBSERVATIONS_SCHEMA }, { name: "x", description: "Observations", schema: OBSERVATIONS_SCHEMA }]) {
      const verdict = guard.checkOutput("[]", wrapper, { requireObject: false });
      assert.equal(verdict.failure, "schema");
      assert.equal(verdict.schemaHash, OBS_HASH);
    }
  });

  test("a wrapper given as JSON text unwraps too", () => {
    const verdict = guard.checkOutput('{"observations":[{"type":"","text":"","importance":0}]}', JSON.stringify(WRAPPER));
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.schemaHash, OBS_HASH);
  });

  test("a schema that has a `schema` property next to JSON Schema keywords is not a wrapper", () => {
    const schema = { type: "object", required: ["schema"], properties: { schema: { type: "object" } } };
    assert.equal(guard.checkOutput('{"schema":{}}', schema).ok, true);
    const verdict = guard.checkOutput('{"schema":5}', schema);
    assert.equal(verdict.failure, "schema");
    assert.deepEqual(verdict.errors.map((e) => [e.path, e.code]), [["/schema", "type"]]);
    assert.equal(verdict.schemaHash, guard.compileSchema(schema).schemaHash);
  });
});

describe("checkOutput: schema forms", () => {
  test("a schema object and its JSON text give the same verdict and hash", () => {
    const bad = '{"city":"","population":-1}';
    const fromObject = guard.checkOutput(bad, CITY_SCHEMA);
    const fromText = guard.checkOutput(bad, JSON.stringify(CITY_SCHEMA));
    assert.deepEqual(fromText, fromObject);
    assert.deepEqual(
      fromObject.errors.map((e) => [e.path, e.code]),
      [["/city", "minLength"], ["/population", "minimum"]],
    );
  });

  test("a boolean schema: true accepts anything, false rejects everything", () => {
    assert.equal(guard.checkOutput('{"x":1}', true).ok, true);
    const verdict = guard.checkOutput('{"x":1}', false);
    assert.equal(verdict.failure, "schema");
    assert.equal(verdict.errors.length, 1);
    assert.equal(verdict.errors[0].path, "");
  });
});

describe("checkOutput: the providers' response-format request members", () => {
  const schema = { type: "object", required: ["a"], properties: { a: { type: "string" } } };
  const chat = { type: "json_schema", json_schema: { name: "x", schema, strict: false } };
  const responses = { type: "json_schema", name: "x", schema, strict: true };

  test("OpenAI Chat's response_format and the Responses API's text.format check against the schema they carry", async () => {
    for (const format of [chat, responses, JSON.stringify(chat)]) {
      const bad = guard.checkOutput('{"a":5}', format);
      assert.equal(bad.ok, false, `accepted against ${JSON.stringify(format)}`);
      assert.equal(bad.failure, "schema");
      assert.equal(bad.degraded, false);
      assert.equal(guard.checkOutput('{"a":"x"}', format).ok, true);
    }
    assert.equal(guard.compileSchema(chat).isValid({ a: 5 }), false);
    // Their strict flag is the wrapper's: strict: false makes guardedCall lenient.
    const lenient = await guard.guardedCall({}, async () => ({ content: '{"a":5}' }), { schema: chat });
    assert.equal(lenient.attempts, 1);
    assert.ok(lenient.warning);
    await assert.rejects(guard.guardedCall({}, async () => ({ content: '{"a":5}' }), { schema: responses }), guard.StructuredOutputError);
  });
});

describe("issue parameters", () => {
  const schema = {
    type: "object",
    required: ["id"],
    properties: { name: { type: "string", maxLength: 3 }, age: { minimum: 18 }, kind: { enum: ["a", "b"] } },
  };
  const text = '{"name":"ABCDE","age":17,"kind":"c"}';

  test("each issue carries its keyword's parameters from the schema", () => {
    const verdict = guard.checkOutput(text, schema, { maxErrors: 10 });
    assert.equal(verdict.ok, false);
    const byCode = Object.fromEntries(verdict.errors.map((issue) => [issue.code, issue.params]));
    assert.deepEqual(byCode, {
      required: { missingProperty: "id" },
      maxLength: { limit: 3 },
      minimum: { limit: 18 },
      enum: undefined,
    });
    assert.ok(!("params" in verdict.errors.find((issue) => issue.code === "enum")), "no member at all where there are none");
  });

  test("a stream's early rejection and a guarded stream's errors carry the same parameters", async () => {
    // Every push checked at once, not gathered into larger batches first.
    const batch = internals.setStreamBatch(0);
    const stream = guard.createStreamCheck(schema, { maxErrors: 10 });
    let state;
    try {
      for (const chunk of ['{"name":"ABC', 'DE"', ',"age":17}']) state = stream.push(chunk);
    } finally {
      internals.setStreamBatch(batch);
    }
    assert.equal(state.status, "rejected");
    assert.deepEqual(state.errors[0].params, { limit: 3 });
    // The end is the rejection, its parameters included.
    const verdict = stream.end("stop");
    assert.deepEqual(verdict.errors, state.errors);
    const error = await guard
      .guardedStream({}, async function* () {
        yield '{"name":"ABCDEF"}';
      }, { schema, budgets: { total: 0 } })
      .catch((e) => e);
    assert.ok(error instanceof guard.StructuredOutputError, String(error));
    assert.deepEqual(error.verdicts.at(-1).errors.map((issue) => issue.params), [{ missingProperty: "id" }, { limit: 3 }]);
  });
});

// detectTruncation over every source shape, and rescueJson.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { anthropicMessage, bedrockConverse, geminiResponse, mistralChat, openaiChat, openaiResponses } from "../../support/fixtures.mjs";

const yes = (finishReason) => ({ truncated: true, finishReason });
const no = (finishReason) => ({ truncated: false, finishReason });

describe("detectTruncation: strings and nothing", () => {
  test("a finish-reason string", () => {
    for (const reason of ["length", "MAX_TOKENS", "max_tokens", "model_length", "model_context_window_exceeded", "max_output_tokens"]) {
      assert.deepEqual(guard.detectTruncation(reason), yes(reason));
    }
    for (const reason of ["stop", "end_turn", "STOP", "stop_sequence", "tool_use", "tool_calls", "content_filter", "SAFETY", "refusal", "pause_turn", "malformed_model_output"]) {
      assert.deepEqual(guard.detectTruncation(reason), no(reason));
    }
  });

  test("compares case-insensitively and echoes the value as read", () => {
    assert.deepEqual(guard.detectTruncation("LENGTH"), yes("LENGTH"));
    assert.deepEqual(guard.detectTruncation("Max_Tokens"), yes("Max_Tokens"));
    assert.deepEqual(guard.detectTruncation("max_TOKENS"), yes("max_TOKENS"));
  });

  test("null and undefined have no reason", () => {
    assert.deepEqual(guard.detectTruncation(null), no(null));
    assert.deepEqual(guard.detectTruncation(undefined), no(null));
    assert.deepEqual(guard.detectTruncation(), no(null));
  });

  test("values that carry no reason", () => {
    for (const source of [42, true, {}, [], [1, 2], { choices: [] }, { finishReason: 12 }, { stop_reason: null }]) {
      assert.deepEqual(guard.detectTruncation(source), no(null), JSON.stringify(source));
    }
  });
});

describe("detectTruncation: provider responses", () => {
  const cases = [
    ["OpenAI chat length", openaiChat("{}", { finishReason: "length" }), yes("length")],
    ["OpenAI chat stop", openaiChat("{}", { finishReason: "stop" }), no("stop")],
    ["OpenAI chat tool_calls", openaiChat(null, { finishReason: "tool_calls" }), no("tool_calls")],
    ["Anthropic max_tokens", anthropicMessage("{", { stopReason: "max_tokens" }), yes("max_tokens")],
    ["Anthropic end_turn", anthropicMessage("{}", { stopReason: "end_turn" }), no("end_turn")],
    ["Gemini MAX_TOKENS", geminiResponse("{", { finishReason: "MAX_TOKENS" }), yes("MAX_TOKENS")],
    ["Gemini STOP", geminiResponse("{}"), no("STOP")],
    ["Gemini SAFETY", geminiResponse("", { finishReason: "SAFETY" }), no("SAFETY")],
    ["Mistral model_length", mistralChat("{", "model_length"), yes("model_length")],
    ["Bedrock max_tokens", bedrockConverse("{", "max_tokens"), yes("max_tokens")],
    ["Bedrock malformed_model_output", bedrockConverse("{", "malformed_model_output"), no("malformed_model_output")],
    ["Cohere v2 MAX_TOKENS", { id: "c1", finish_reason: "MAX_TOKENS", message: { role: "assistant", content: [] } }, yes("MAX_TOKENS")],
    ["Ollama done_reason length", { model: "llama3.2", message: { role: "assistant", content: "{" }, done: true, done_reason: "length" }, yes("length")],
  ];
  for (const [name, response, expected] of cases) {
    test(name, () => {
      assert.deepEqual(guard.detectTruncation(response), expected);
    });
  }

  test("OpenAI Responses: incomplete at max_output_tokens is truncated", () => {
    assert.deepEqual(guard.detectTruncation(openaiResponses('{"a":', { status: "incomplete", reason: "max_output_tokens" })), yes("max_output_tokens"));
  });

  test("OpenAI Responses: incomplete by content_filter is not", () => {
    assert.deepEqual(guard.detectTruncation(openaiResponses('{"a":', { status: "incomplete", reason: "content_filter" })), no("content_filter"));
  });

  test("OpenAI Responses: completed", () => {
    assert.deepEqual(guard.detectTruncation(openaiResponses("{}")), no("completed"));
  });
});

describe("detectTruncation: executor traces", () => {
  test("{timing:{timeSegments}}: the last model segment counts, tool segments after it do not", () => {
    const trace = {
      content: '{"a":1}',
      tokens: { input: 100, output: 50 },
      timing: {
        startTime: 1000,
        endTime: 4000,
        timeSegments: [
          { type: "model", name: "call 1", finishReason: "tool_calls" },
          { type: "tool", name: "lookup" },
          { type: "model", name: "call 2", finishReason: "length" },
          { type: "tool", name: "store", finishReason: "stop" },
        ],
      },
    };
    assert.deepEqual(guard.detectTruncation(trace), yes("length"));
  });

  test("an earlier truncated model segment does not count", () => {
    const trace = {
      timing: {
        timeSegments: [
          { type: "model", finishReason: "length" },
          { type: "tool" },
          { type: "model", finishReason: "stop" },
        ],
      },
    };
    assert.deepEqual(guard.detectTruncation(trace), no("stop"));
  });

  test("the trace wins over a finishReason on the response itself", () => {
    assert.deepEqual(guard.detectTruncation({ finishReason: "stop", timing: { timeSegments: [{ type: "model", finishReason: "length" }] } }), yes("length"));
    assert.deepEqual(guard.detectTruncation({ finishReason: "length", timing: { timeSegments: [{ type: "model", finishReason: "stop" }] } }), no("stop"));
  });

  test("the bare segment array", () => {
    assert.deepEqual(guard.detectTruncation([{ type: "model", finishReason: "stop" }, { type: "model", finishReason: "max_tokens" }, { type: "tool" }]), yes("max_tokens"));
    assert.deepEqual(guard.detectTruncation([{ type: "model", finishReason: "length" }, { type: "model", finishReason: "end_turn" }]), no("end_turn"));
    assert.deepEqual(guard.detectTruncation([{ type: "tool", finishReason: "length" }]), no(null));
  });
});

describe("detectTruncation: Vercel AI SDK results", () => {
  test("finishReason as a string", () => {
    assert.deepEqual(guard.detectTruncation({ text: '{"a":', finishReason: "length", usage: { inputTokens: 5, outputTokens: 64 } }), yes("length"));
    assert.deepEqual(guard.detectTruncation({ text: "{}", finishReason: "stop" }), no("stop"));
  });

  test("{unified, raw}: unified wins, raw is the fallback", () => {
    assert.deepEqual(guard.detectTruncation({ text: "{", finishReason: { unified: "length", raw: "max_tokens" } }), yes("length"));
    assert.deepEqual(guard.detectTruncation({ text: "{}", finishReason: { unified: "stop", raw: "max_tokens" } }), no("stop"));
    assert.deepEqual(guard.detectTruncation({ finishReason: { raw: "MAX_TOKENS" } }), yes("MAX_TOKENS"));
  });
});

describe("rescueJson", () => {
  const cases = [
    ["a ```json fence", "```json\n{\"a\": 1}\n```", "{\"a\": 1}", "code_fence"],
    ["a fence without a tag", "```\n{\"a\": 1}\n```", "{\"a\": 1}", "code_fence"],
    ["a tilde fence", "~~~json\n{}\n~~~", "{}", "code_fence"],
    ["a longer closing fence", "```\n{}\n`````", "{}", "code_fence"],
    ["CRLF and surrounding space", "\n  ```json\r\n{\"a\": [1, 2]}\r\n```  \n", "{\"a\": [1, 2]}", "code_fence"],
    ["a fence marker inside a JSON string", '```json\n{"code": "```python\\nprint(1)\\n```"}\n```', '{"code": "```python\\nprint(1)\\n```"}', "code_fence"],
    ["an empty fence", "```json\n```", "", "code_fence"],
    ["plain JSON, trimmed", "  {\"a\":1}\n", "{\"a\":1}", "none"],
    ["prose before a fence", "Here you go:\n```json\n{}\n```", "Here you go:\n```json\n{}\n```", "none"],
    ["prose after a fence", "```json\n{}\n```\nHope this helps!", "```json\n{}\n```\nHope this helps!", "none"],
    ["two fences", "```json\n{\"a\":1}\n```\n\n```json\n{\"b\":2}\n```", "```json\n{\"a\":1}\n```\n\n```json\n{\"b\":2}\n```", "none"],
    ["an unclosed fence", "```json\n{\"a\": 1}", "```json\n{\"a\": 1}", "none"],
    ["a shorter closing fence", "````json\n{}\n```", "````json\n{}\n```", "none"],
    ["inline code on one line", "```{\"a\":1}```", "```{\"a\":1}```", "none"],
    ["prose around JSON (never dropped)", "The answer is {\"a\":1}.", "The answer is {\"a\":1}.", "none"],
    ["cut-off JSON (never repaired)", "{\"a\": [1, 2", "{\"a\": [1, 2", "none"],
    ["the empty string", "", "", "none"],
    ["white space", " \n ", "", "none"],
  ];
  for (const [name, input, text, rescue] of cases) {
    test(name, () => {
      assert.deepEqual(guard.rescueJson(input), { text, rescue });
    });
  }
});

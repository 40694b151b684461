// Structured output delivered as a forced tool call: `toolName` names the
// tool whose call carries the output, and its arguments go through the same
// stages as text content. The real clients are driven against a local
// server in each provider's wire format; the AI SDK by its own mock model.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { generateText, jsonSchema, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import * as guard from "../../../pkg/node.mjs";
import { CITY_SCHEMA } from "../../support/fixtures.mjs";
import { withWireServer } from "../../support/wire-server.mjs";

const GOOD = { city: "Oslo", population: 709000 };
const BAD = { city: "Oslo", population: "many" };

const anthropicToolUse = (input, stop = "tool_use") => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "tool_use", id: "toolu_1", name: "record_city", input }],
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 20, output_tokens: 9 },
});

const chatToolCall = (args, finish = "tool_calls") => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o-mini",
  choices: [{
    index: 0,
    message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "record_city", arguments: args } }] },
    finish_reason: finish,
  }],
  usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
});

describe("toolName: the output is a tool call's arguments", () => {
  test("Anthropic tool_use (a value the SDK parsed), from the real client", async () => {
    await withWireServer([anthropicToolUse(GOOD), anthropicToolUse(BAD)], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url });
      const request = {
        model: "claude-sonnet-4-5",
        max_tokens: 256,
        messages: [{ role: "user", content: "Oslo?" }],
        tools: [{ name: "record_city", input_schema: CITY_SCHEMA }],
        tool_choice: { type: "tool", name: "record_city" },
      };
      const good = await client.messages.create(request);
      const accepted = guard.checkOutput(good, CITY_SCHEMA, { toolName: "record_city" });
      assert.equal(accepted.ok, true, accepted.message);
      assert.deepEqual(accepted.value, GOOD);
      const bad = guard.checkOutput(await client.messages.create(request), CITY_SCHEMA, { toolName: "record_city" });
      assert.equal(bad.failure, "schema");
      assert.equal(bad.errors[0].path, "/population");
      // Without toolName there is no output, and the message says what to pass.
      const empty = guard.checkOutput(good, CITY_SCHEMA);
      assert.equal(empty.failure, "empty");
      assert.match(empty.message, /"record_city".*toolName/);
    });
  });

  test("OpenAI Chat tool_calls (argument text): every stage, and a token limit still wins", async () => {
    await withWireServer([chatToolCall(JSON.stringify(GOOD)), chatToolCall('{"city":"Os', "length"), chatToolCall('{"city":')], async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1` });
      const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Oslo?" }] };
      const options = { toolName: "record_city" };
      assert.deepEqual(guard.checkOutput(await client.chat.completions.create(request), CITY_SCHEMA, options).value, GOOD);
      assert.equal(guard.checkOutput(await client.chat.completions.create(request), CITY_SCHEMA, options).failure, "truncated");
      assert.equal(guard.checkOutput(await client.chat.completions.create(request), CITY_SCHEMA, options).failure, "unparseable");
    });
  });

  test("Gemini functionCall, from the real @google/genai client", async () => {
    const body = {
      candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "record_city", args: BAD } }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
    };
    await withWireServer([body], async (server) => {
      const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
      const response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "Oslo?" });
      const verdict = guard.checkOutput(response, CITY_SCHEMA, { toolName: "record_city" });
      assert.equal(verdict.failure, "schema");
    });
  });

  test("Responses function_call items, Bedrock toolUse and the AI SDK's tool calls", async () => {
    const responses = {
      object: "response",
      status: "completed",
      output: [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "record_city", arguments: JSON.stringify(GOOD), status: "completed" }],
    };
    assert.deepEqual(guard.checkOutput(responses, CITY_SCHEMA, { toolName: "record_city" }).value, GOOD);
    const bedrock = {
      output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "structured_output", input: BAD } }] } },
      stopReason: "tool_use",
    };
    assert.equal(guard.checkOutput(bedrock, CITY_SCHEMA, { toolName: "structured_output" }).failure, "schema");

    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "record_city", input: JSON.stringify(GOOD) }],
        finishReason: { unified: "tool-calls", raw: "tool_use" },
        usage: { inputTokens: { total: 3 }, outputTokens: { total: 4 } },
        warnings: [],
      }),
    });
    const result = await generateText({
      model,
      prompt: "Oslo?",
      tools: { record_city: tool({ inputSchema: jsonSchema(CITY_SCHEMA) }) },
      toolChoice: { type: "tool", toolName: "record_city" },
    });
    const verdict = guard.checkOutput(result, CITY_SCHEMA, { toolName: "record_city" });
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.value, GOOD);
  });

  test("guardedCall takes toolName, and a bad toolName is a typed error", async () => {
    const result = await guard.guardedCall({}, async () => anthropicToolUse(GOOD), { schema: CITY_SCHEMA, toolName: "record_city" });
    assert.deepEqual(result.value, GOOD);
    assert.throws(() => guard.checkOutput(anthropicToolUse(GOOD), CITY_SCHEMA, { toolName: 5 }), (error) => error.code === "invalid_argument");
  });

  test("the audit's --tool-name", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "sog-tool-audit-"));
    const schemaFile = path.join(dir, "schema.json");
    const log = path.join(dir, "log.jsonl");
    writeFileSync(schemaFile, JSON.stringify(CITY_SCHEMA));
    writeFileSync(log, [anthropicToolUse(GOOD), anthropicToolUse(BAD)].map((r) => JSON.stringify(r)).join("\n") + "\n");
    const cli = fileURLToPath(new URL("../../../pkg/cli.mjs", import.meta.url));
    const run = (...args) => JSON.parse(spawnSync(process.execPath, [cli, "audit", "--schema", schemaFile, "--json", ...args, log], { encoding: "utf8" }).stdout);
    const withTool = run("--tool-name", "record_city");
    assert.equal(withTool.options.toolName, "record_city");
    assert.equal(withTool.responses.accepted, 1);
    assert.equal(withTool.responses.checked, 2);
    const without = run();
    assert.equal(without.responses.checked, 2);
    assert.equal(without.responses.accepted, 0);
  });
});

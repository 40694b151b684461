// checkToolCalls: an agent loop checks every tool call against its tool's
// declared input schema before running it. The real clients are driven
// against a local server in each provider's wire format.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { jsonSchema, tool } from "ai";
import * as guard from "../../../pkg/node.mjs";
import * as internals from "../../../pkg/testing.mjs";
import { thrown } from "../../support/fixtures.mjs";
import { withWireServer } from "../../support/wire-server.mjs";

const WEATHER = { type: "object", required: ["city"], additionalProperties: false, properties: { city: { type: "string", minLength: 1 }, unit: { enum: ["C", "F"] } } };
const SEND = { type: "object", required: ["to"], properties: { to: { type: "string", format: "email" } } };

/** Runs `fn` with the glue function `name` counted: [what fn gave, the calls]. */
function counted(name, fn) {
  const glue = internals.rawGlue();
  const saved = glue[name];
  let calls = 0;
  glue[name] = (...args) => {
    calls += 1;
    return saved.apply(glue, args);
  };
  try {
    return [fn(), calls];
  } finally {
    glue[name] = saved;
  }
}

const chatWithCalls = (calls, finish = "tool_calls") => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o-mini",
  choices: [{
    index: 0,
    message: { role: "assistant", content: null, tool_calls: calls.map(([name, args], i) => ({ id: `call_${i}`, type: "function", function: { name, arguments: args } })) },
    finish_reason: finish,
  }],
});

describe("checkToolCalls", () => {
  test("OpenAI Chat: each call against its own tool, every failure class, from the real client", async () => {
    const replies = [
      chatWithCalls([["get_weather", '{"city":"Oslo","unit":"C"}'], ["send_mail", '{"to":"a@example.com"}']]),
      chatWithCalls([["get_weather", '{"city":"Oslo","unit":"K"}'], ["send_mail", '{"to":"not an address"}'], ["delete_all", "{}"], ["get_weather", '{"city":'], ["get_weather", "[]"]]),
      chatWithCalls([["get_weather", '{"city":"Os']], "length"),
    ];
    await withWireServer(replies, async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1` });
      const request = {
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "weather, then mail it" }],
        tools: [
          { type: "function", function: { name: "get_weather", parameters: WEATHER } },
          { type: "function", function: { name: "send_mail", parameters: SEND } },
        ],
      };
      const good = guard.checkToolCalls(await client.chat.completions.create(request), request);
      assert.equal(good.ok, true, good.message);
      assert.deepEqual(good.calls.map((c) => [c.id, c.name, c.ok]), [["call_0", "get_weather", true], ["call_1", "send_mail", true]]);
      assert.deepEqual(good.calls[0].value, { city: "Oslo", unit: "C" });

      const bad = guard.checkToolCalls(await client.chat.completions.create(request), request.tools, { maxErrors: 1 });
      assert.equal(bad.ok, false);
      assert.deepEqual(bad.calls.map((c) => c.failure), ["schema", "schema", "unknown_tool", "unparseable", "not_object"]);
      assert.equal(bad.calls[0].errors[0].path, "/unit");
      assert.equal(bad.calls[1].errors[0].code, "format");
      assert.equal(bad.failure, "schema");
      for (const call of bad.calls) assert.equal(typeof call.errorHash, "string");
      // Messages never quote the arguments.
      assert.equal(JSON.stringify(bad).includes("not an address"), false);

      const cut = guard.checkToolCalls(await client.chat.completions.create(request), request);
      assert.equal(cut.calls[0].failure, "truncated");
    });
  });

  test("Anthropic tool_use with input_schema, from the real client", async () => {
    const message = {
      id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5",
      content: [{ type: "text", text: "Checking." }, { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "" } }],
      stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 5, output_tokens: 5 },
    };
    await withWireServer([message], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url });
      const request = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "?" }], tools: [{ name: "get_weather", input_schema: WEATHER }] };
      const verdict = guard.checkToolCalls(await client.messages.create(request), request);
      assert.equal(verdict.ok, false);
      assert.equal(verdict.calls[0].id, "toolu_1");
      assert.equal(verdict.calls[0].errors[0].code, "minLength");
    });
  });

  test("Gemini functionCall against functionDeclarations, from the real @google/genai client", async () => {
    const body = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] }, finishReason: "STOP" }] };
    await withWireServer([body], async (server) => {
      const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
      const request = { model: "gemini-2.5-flash", contents: "?", config: { tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: WEATHER }] }] } };
      const verdict = guard.checkToolCalls(await ai.models.generateContent(request), request);
      assert.equal(verdict.ok, true, verdict.message);
    });
  });

  test("Responses function_call items, Bedrock toolUse, AI SDK and MCP declarations", () => {
    const responses = { object: "response", output: [{ type: "function_call", call_id: "call_9", name: "get_weather", arguments: '{"city":"Oslo","extra":1}' }] };
    const verdict = guard.checkToolCalls(responses, [{ type: "function", name: "get_weather", parameters: WEATHER }]);
    assert.equal(verdict.calls[0].id, "call_9");
    assert.equal(verdict.calls[0].errors[0].code, "additionalProperties");
    const bedrock = { output: { message: { content: [{ toolUse: { toolUseId: "t1", name: "get_weather", input: { city: "Oslo" } } }] } }, stopReason: "tool_use" };
    assert.equal(guard.checkToolCalls(bedrock, { toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: WEATHER } } }] } }).ok, true);
    const aiSdkTools = { get_weather: tool({ inputSchema: jsonSchema(WEATHER), execute: async () => "sunny" }) };
    const aiSdkResult = { content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_weather", input: { unit: "C" } }] };
    assert.equal(guard.checkToolCalls(aiSdkResult, aiSdkTools).calls[0].errors[0].code, "required");
    const mcp = [{ name: "get_weather", inputSchema: WEATHER }];
    assert.equal(guard.checkToolCalls(aiSdkResult, mcp).ok, false);
  });

  test("a tool whose schema cannot be compiled: its calls are checked for parse and shape only, and say so", async () => {
    // `required` must be an array: the schema is refused.
    const REFUSED = { type: "object", properties: { a: { type: "string", required: true } }, required: ["a"] };
    const request = {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "?" }],
      tools: [
        { type: "function", function: { name: "refused", parameters: REFUSED } },
        { type: "function", function: { name: "get_weather", parameters: WEATHER } },
      ],
    };
    const replies = [
      chatWithCalls([["refused", '{"a":5}']]),
      chatWithCalls([["refused", '{"a":5}'], ["get_weather", '{"city":"Oslo"}'], ["refused", "[1]"]]),
      chatWithCalls([["get_weather", '{"city":"Oslo"}']]),
    ];
    await withWireServer(replies, async (server) => {
      const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1` });
      const only = await client.chat.completions.create(request);
      const verdict = guard.checkToolCalls(only, request);
      assert.equal(verdict.ok, true);
      assert.equal(verdict.degraded, true);
      assert.equal(verdict.calls[0].degraded, true);
      assert.deepEqual(verdict.calls[0].value, { a: 5 });
      assert.match(verdict.calls[0].message, /schema could not be compiled/);
      assert.doesNotMatch(verdict.calls[0].message, /match/);
      assert.match(verdict.message, /1 of them .*not checked against its tool's schema/);
      assert.deepEqual(guard.checkToolCalls(only, request, { onInvalidSchema: "degrade" }), verdict);
      const error = thrown(() => guard.checkToolCalls(only, request, { onInvalidSchema: "throw" }));
      assert.ok(error instanceof guard.SchemaError, String(error));
      assert.match(error.message, /\/properties\/a\/required/);

      const mixed = guard.checkToolCalls(await client.chat.completions.create(request), request);
      assert.deepEqual(mixed.calls.map((c) => [c.name, c.ok, c.degraded, c.failure ?? null]), [
        ["refused", true, true, null],
        ["get_weather", true, false, null],
        ["refused", false, true, "not_object"],
      ]);
      assert.equal(mixed.degraded, true);
      assert.match(mixed.calls[2].message, /schema could not be compiled/);

      const whole = guard.checkToolCalls(await client.chat.completions.create(request), request);
      assert.equal(whole.degraded, false);
      assert.equal(whole.calls[0].degraded, false);
      assert.equal(whole.message, "All 1 tool call(s) match their tools' schemas.");

      // The stats collector counts the calls checked without their schema.
      const stats = guard.createGuardStats();
      assert.deepEqual(guard.checkToolCalls(only, request, { stats }), verdict);
      assert.deepEqual(stats.snapshot().toolCalls, { checks: 1, calls: 1, refused: 0, degraded: 1 });
    });
  });

  test("options.stats counts each verdict's calls, those refused and those checked without their schema", () => {
    const REFUSED = { type: "object", properties: { a: { type: "string", required: true } } };
    const tools = [
      { type: "function", function: { name: "refused", parameters: REFUSED } },
      { type: "function", function: { name: "get_weather", parameters: WEATHER } },
    ];
    const response = (calls) => ({
      choices: [{ message: { role: "assistant", content: null, tool_calls: calls.map(([name, args], i) => ({ id: `c${i}`, type: "function", function: { name, arguments: args } })) }, finish_reason: "tool_calls" }],
    });
    const stats = guard.createGuardStats();
    guard.checkToolCalls(response([["refused", '{"a":5}'], ["get_weather", '{"city":"Oslo"}']]), tools, { stats });
    guard.checkToolCalls(response([["refused", "[1]"], ["get_weather", "{}"], ["nowhere", "{}"]]), tools, { stats, maxErrors: 1 });
    assert.deepEqual(stats.snapshot().toolCalls, { checks: 2, calls: 5, refused: 3, degraded: 2 });
    // Guarded calls are counted apart.
    assert.equal(stats.snapshot().calls, 0);
    // The same options without stats give the same verdict.
    const plain = guard.checkToolCalls(response([["get_weather", "{}"]]), tools, { maxErrors: 1 });
    assert.deepEqual(guard.checkToolCalls(response([["get_weather", "{}"]]), tools, { maxErrors: 1, stats }), plain);
    stats.reset();
    assert.deepEqual(stats.snapshot().toolCalls, { checks: 0, calls: 0, refused: 0, degraded: 0 });
    for (const bad of [{}, null, 1, { snapshot() {} }]) {
      assert.throws(() => guard.checkToolCalls(response([]), tools, { stats: bad }), (error) => error instanceof TypeError && error.code === "invalid_argument");
    }
  });

  test("no tool calls is ok; bad arguments are typed errors", () => {
    const verdict = guard.checkToolCalls({ choices: [{ message: { content: "hi" }, finish_reason: "stop" }] }, []);
    assert.deepEqual(verdict, { ok: true, degraded: false, message: "The response makes no tool calls.", calls: [] });
    for (const bad of [() => guard.checkToolCalls("x", []), () => guard.checkToolCalls({}, null), () => guard.checkToolCalls({}, [], { toolName: "a" })]) {
      assert.throws(bad, (error) => error instanceof TypeError && error.code === "invalid_argument");
    }
  });
});

describe("the declarations, read once per list", () => {
  const weather = () => ({ type: "function", function: { name: "get_weather", parameters: WEATHER } });
  const send = () => ({ type: "function", function: { name: "send_mail", parameters: SEND } });
  const calls = chatWithCalls([["get_weather", '{"city":"Oslo"}'], ["send_mail", '{"to":"a@example.com"}']]);

  /** How many times the core read declarations while `fn` ran. */
  function coreReads(fn) {
    const glue = internals.rawGlue();
    const saved = [glue.declaredTools, glue.declaredToolsIn];
    let reads = 0;
    glue.declaredTools = (...args) => (reads++, saved[0].apply(glue, args));
    glue.declaredToolsIn = (...args) => (reads++, saved[1].apply(glue, args));
    try {
      return { result: fn(), reads };
    } finally {
      [glue.declaredTools, glue.declaredToolsIn] = saved;
    }
  }

  /** `list` behind a Proxy that counts the reads of its items. */
  function counting(list) {
    const counted = { items: 0 };
    const proxy = new Proxy(list, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) counted.items += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    return { proxy, counted };
  }

  test("a request's messages are never serialised: only its declaration lists are read", () => {
    // A BigInt and a throwing getter among the messages would fail any JSON.stringify of the request.
    const messages = [{ role: "user", content: 10n }];
    Object.defineProperty(messages, "1", { get() { throw new Error("not to be read"); }, enumerable: true });
    const request = { model: "gpt-4o-mini", messages, tools: [weather(), send()] };
    const verdict = guard.checkToolCalls(calls, request);
    assert.equal(verdict.ok, true, verdict.message);
    assert.deepEqual(verdict.calls.map((c) => c.value), [{ city: "Oslo" }, { to: "a@example.com" }]);
    // Bedrock's and @google/genai's places too, and the first declaration of a name wins across them.
    const both = { toolConfig: { tools: [{ toolSpec: { name: "send_mail", inputSchema: { json: { type: "object", required: ["cc"] } } } }] }, config: { tools: [{ functionDeclarations: [{ name: "get_weather", parameters: WEATHER }] }] }, messages };
    const mixed = guard.checkToolCalls(calls, both);
    assert.deepEqual(mixed.calls.map((c) => [c.name, c.ok, c.errors[0]?.code]), [["get_weather", true, undefined], ["send_mail", false, "required"]]);
  });

  test("a list is read by property access, once; a tool added, removed or replaced is seen at once", () => {
    const tools = [weather(), ...Array.from({ length: 50 }, (_, i) => ({ type: "function", function: { name: `other_${i}`, parameters: SEND } }))];
    const { proxy, counted } = counting(tools);
    const request = () => ({ model: "gpt-4o-mini", messages: [], tools: proxy });
    const first = coreReads(() => guard.checkToolCalls(calls, request()));
    assert.deepEqual(first.result.calls.map((c) => c.failure ?? "ok"), ["ok", "unknown_tool"]);
    assert.equal(first.reads, 0, "no list is handed to the core as JSON");
    const readOnce = counted.items;
    assert.ok(readOnce >= 51, `each declaration read: ${readOnce} items`);

    const calledOnly = chatWithCalls([["get_weather", '{"city":"Oslo"}'], ["other_49", '{"to":"a@example.com"}']]);
    assert.equal(guard.checkToolCalls(calledOnly, request()).ok, true);
    counted.items = 0;
    const again = guard.checkToolCalls(calledOnly, request());
    assert.equal(again.ok, true);
    assert.ok(counted.items <= 2, `the same list: only the called declarations looked at again (${counted.items} items)`);

    tools.push(send());
    const added = guard.checkToolCalls(calls, request());
    assert.equal(added.ok, true, "the tool added is known");

    tools[tools.length - 1] = { type: "function", function: { name: "send_mail", parameters: { type: "object", required: ["subject"] } } };
    assert.equal(guard.checkToolCalls(calls, request()).calls[1].errors[0].code, "required", "the replaced declaration's schema is used");

    tools.pop();
    assert.equal(guard.checkToolCalls(calls, request()).calls[1].failure, "unknown_tool", "the tool removed is unknown");

    // Replaced in place by one of the same length with another name.
    tools.push(send());
    assert.equal(guard.checkToolCalls(calls, request()).ok, true);
    tools[tools.length - 1] = { type: "function", function: { name: "send_email", parameters: SEND } };
    assert.equal(guard.checkToolCalls(calls, request()).calls[1].failure, "unknown_tool", "a called tool replaced by another is unknown");

    // A record (the AI SDK's tools) given alone, with a member added.
    const record = { get_weather: tool({ inputSchema: jsonSchema(WEATHER), execute: async () => "sunny" }) };
    const aiCalls = { content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_weather", input: { city: "Oslo" } }, { type: "tool-call", toolCallId: "c2", toolName: "send_mail", input: { to: "x" } }] };
    assert.deepEqual(guard.checkToolCalls(aiCalls, record).calls.map((c) => c.failure ?? "ok"), ["ok", "unknown_tool"]);
    record.send_mail = tool({ inputSchema: jsonSchema(SEND), execute: async () => "sent" });
    assert.deepEqual(guard.checkToolCalls(aiCalls, record).calls.map((c) => c.failure ?? "ok"), ["ok", "schema"]);
    // And in a request.
    const inRequest = { tools: { get_weather: tool({ inputSchema: jsonSchema(WEATHER), execute: async () => "sunny" }) } };
    assert.deepEqual(guard.checkToolCalls(aiCalls, inRequest).calls.map((c) => c.failure ?? "ok"), ["ok", "unknown_tool"]);
    inRequest.tools.send_mail = tool({ inputSchema: jsonSchema(SEND), execute: async () => "sent" });
    assert.deepEqual(guard.checkToolCalls(aiCalls, inRequest).calls.map((c) => c.failure ?? "ok"), ["ok", "schema"]);
  });

  test("a list rebuilt for every request from the same schema objects compiles nothing again", () => {
    const registry = [{ name: "get_weather", parameters: WEATHER }, { name: "send_mail", parameters: SEND }];
    const build = () => ({ model: "gpt-4o-mini", messages: [], tools: registry.map((fn) => ({ type: "function", function: { ...fn } })) });
    guard.checkToolCalls(calls, build());
    const [verdict, compiled] = counted("compileSchema", () => guard.checkToolCalls(calls, build()));
    assert.equal(verdict.ok, true);
    assert.equal(compiled, 0, "each schema found again by its object");
    // A changed schema, in a rebuilt request, is never the cached one.
    const changed = build();
    changed.tools[1].function.parameters = { ...SEND, required: ["to", "subject"] };
    assert.equal(guard.checkToolCalls(calls, changed).calls[1].errors[0].code, "required");
  });

  test("declarations that cannot be read are a typed error", () => {
    const request = { messages: [] };
    Object.defineProperty(request, "tools", { get() { throw new Error("no"); }, enumerable: true });
    assert.throws(() => guard.checkToolCalls(calls, request), (error) => error instanceof TypeError && error.code === "invalid_argument" && /tools could not be read/.test(error.message));
    assert.throws(() => guard.checkToolCalls(calls, { tools: [{ type: "function", function: { name: "get_weather", parameters: { n: 1n } } }] }), (error) => error.code === "invalid_argument" && /BigInt/.test(error.message));
  });
});

describe("the calls, read without their arguments crossing twice", () => {
  // checkToolCalls hands the core the strings at the calls' arguments and
  // ids by reference (readToolCallsAt, or the answer it gave for the same
  // copy before); when it cannot, the response goes as text
  // (readToolCalls). Both must give the same verdicts.
  function bothWays(response, tools) {
    const [fast, asText] = counted("readToolCalls", () => guard.checkToolCalls(response, tools));
    const glue = internals.rawGlue();
    const savedAt = glue.readToolCallsAt;
    glue.readToolCallsAt = () => undefined;
    internals.forgetToolCallsRead();
    try {
      return { fast, slow: guard.checkToolCalls(response, tools), taken: asText === 0 ? 1 : 0 };
    } finally {
      glue.readToolCallsAt = savedAt;
    }
  }
  const tools = [
    { type: "function", function: { name: "get_weather", parameters: WEATHER } },
    { type: "function", name: "send_mail", parameters: SEND },
  ];

  test("every provider's calls give the same verdicts both ways", () => {
    const responses = [
      chatWithCalls([["get_weather", '{"city":"Ås\\u00e5 \\"q\\" ☃"}'], ["send_mail", '{"to":"not mail"}'], ["get_weather", "{\"city\":\"x\ud800\"}"], ["nope", "{}"]]),
      chatWithCalls([["get_weather", '{"city":"Os']], "length"),
      { object: "response", status: "completed", output: [{ type: "function_call", call_id: "c1", name: "send_mail", arguments: '{"to":"a@example.com"}' }, { type: "function_call", call_id: "c2", name: "get_weather", arguments: '{"unit":"K"}' }] },
      { role: "assistant", content: [{ type: "text", text: "calling" }, { type: "tool_use", id: "t1", name: "get_weather", input: { city: "Oslo", unit: "F" } }], stop_reason: "tool_use" },
      { output: { message: { content: [{ toolUse: { toolUseId: "b1", name: "get_weather", input: { city: "" } } }] } }, stopReason: "tool_use" },
      { candidates: [{ content: { parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] }, finishReason: "STOP" }] },
      { content: [{ type: "tool-call", toolCallId: "a1", toolName: "send_mail", input: '{"to":"a@example.com"}' }], finishReason: "tool-calls" },
    ];
    let taken = 0;
    for (const response of responses) {
      const both = bothWays(response, tools);
      assert.deepEqual(both.fast, both.slow, JSON.stringify(response).slice(0, 80));
      taken += both.taken;
    }
    assert.equal(taken, responses.length, "each response was read by reference");
  });

  test("arguments shaped like a reference are never taken for one", () => {
    // An SDK-parsed input that is the array ["\u0000", 0]: read by
    // reference, it would stand for the text part, which passes.
    // An object or array input is itself handed by reference, so the copy
    // never holds a value that looks like one.
    const response = { role: "assistant", content: [{ type: "text", text: '{"city":"Oslo"}' }, { type: "tool_use", id: "t1", name: "get_weather", input: ["\u0000", 0] }], stop_reason: "tool_use" };
    const both = bothWays(response, tools);
    assert.equal(both.taken, 1, "read by reference");
    assert.equal(both.fast.calls[0].failure, "not_object");
    assert.deepEqual(both.fast, both.slow);
  });

  test("nor when the copy before had a reference in their place", () => {
    // The first response's input is a string, which its copy writes as
    // ["\u0000", 2]; the second's is that very array, which its copy refers
    // to the same way: both make the same copy, and the second's input must
    // be read as the array it is.
    const withInput = (input) => ({ role: "assistant", content: [{ type: "text", text: '{"city":"Oslo"}' }, { type: "tool_use", id: "t1", name: "get_weather", input }], stop_reason: "tool_use" });
    internals.forgetToolCallsRead();
    const first = guard.checkToolCalls(withInput('{"city":"Bergen"}'), tools);
    assert.equal(first.ok, true);
    const [second, asText] = counted("readToolCalls", () => guard.checkToolCalls(withInput(["\u0000", 2]), tools));
    assert.equal(asText, 0, "read by reference, the array among the values");
    assert.equal(second.calls[0].failure, "not_object");
  });
});

describe("responses alike but for their calls", () => {
  const tools = [{ type: "function", function: { name: "get_weather", parameters: WEATHER } }];

  test("calling different tools, in every shape, are read by the core once per shape", () => {
    const both = [
      { type: "function", function: { name: "get_weather", parameters: WEATHER } },
      { type: "function", function: { name: "send_mail", parameters: SEND } },
    ];
    const shapes = [
      (name, args) => chatWithCalls([[name, args]]),
      (name, args) => ({ object: "response", status: "completed", output: [{ type: "function_call", call_id: `c_${name}`, name, arguments: args }] }),
      (name, args) => ({ role: "assistant", content: [{ type: "tool_use", id: `t_${name}`, name, input: JSON.parse(args) }], stop_reason: "tool_use" }),
      (name, args) => ({ candidates: [{ content: { parts: [{ functionCall: { name, args: JSON.parse(args) } }] }, finishReason: "STOP" }] }),
      (name, args) => ({ output: { message: { content: [{ toolUse: { toolUseId: `b_${name}`, name, input: JSON.parse(args) } }] } }, stopReason: "tool_use" }),
    ];
    for (const shape of shapes) {
      internals.forgetToolCallsRead();
      const [verdicts, crossings] = counted("readToolCallsAt", () => [
        guard.checkToolCalls(shape("get_weather", '{"city":"Oslo"}'), both),
        guard.checkToolCalls(shape("send_mail", '{"to":"a@example.com"}'), both),
        guard.checkToolCalls(shape("send_mail", '{"to":"not an address"}'), both),
        guard.checkToolCalls(shape("get_weather", '{"city":""}'), both),
      ]);
      assert.equal(crossings, 1, "one copy for every call of the shape");
      assert.deepEqual(verdicts.map((v) => [v.calls[0].name, v.ok]), [["get_weather", true], ["send_mail", true], ["send_mail", false], ["get_weather", false]]);
    }
  });
  const withIds = (ids, args) => {
    const response = chatWithCalls(args.map((text) => ["get_weather", text]));
    response.choices[0].message.tool_calls.forEach((call, i) => { call.id = ids[i]; });
    return response;
  };

  test("are read by the core once, each with its own ids and arguments", () => {
    internals.forgetToolCallsRead();
    const [verdicts, crossings] = counted("readToolCallsAt", () => [
      guard.checkToolCalls(withIds(["call_a", "call_b"], ['{"city":"Oslo"}', '{"city":"Bergen","unit":"C"}']), tools),
      guard.checkToolCalls(withIds(["call_c", "\u0000" + "1"], ['{"city":"Rome","unit":"X"}', '{"city":"Lima"}']), tools),
      // A lone surrogate in an id is U+FFFD, as when the copy was text.
      guard.checkToolCalls(withIds(["id\ud800", "call_e"], ['{}', '{"city":"Nuuk"}']), tools),
    ]);
    assert.equal(crossings, 1, "the second and third responses make the first one's copy");
    assert.deepEqual(verdicts.map((v) => v.calls.map((c) => [c.id, c.ok, c.value?.city ?? null])), [
      [["call_a", true, "Oslo"], ["call_b", true, "Bergen"]],
      [["call_c", false, null], ["\u00001", true, "Lima"]],
      [["id\ufffd", false, null], ["call_e", true, "Nuuk"]],
    ]);
    // Read as text, it gives the same verdict.
    internals.forgetToolCallsRead();
    const glue = internals.rawGlue();
    const saved = glue.readToolCallsAt;
    glue.readToolCallsAt = () => undefined;
    try {
      const again = guard.checkToolCalls(withIds(["call_c", "\u0000" + "1"], ['{"city":"Rome","unit":"X"}', '{"city":"Lima"}']), tools);
      assert.deepEqual(again, verdicts[1]);
    } finally {
      glue.readToolCallsAt = saved;
    }
  });
});

describe("telling the model its tool call was refused", () => {
  const request = {
    model: "claude-sonnet-4-5",
    max_tokens: 100,
    messages: [{ role: "user", content: "weather, then mail it" }],
    tools: [{ name: "get_weather", input_schema: WEATHER }, { name: "send_mail", input_schema: SEND }],
  };
  const refusedTurn = {
    id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5",
    content: [
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo", unit: "K" } },
      { type: "tool_use", id: "toolu_2", name: "send_mail", input: { to: "a@example.com" } },
    ],
    stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 5, output_tokens: 5 },
  };

  test("repairFeedback names tool, path, code and constraint, never the values", () => {
    const verdict = guard.checkToolCalls(refusedTurn, request);
    const text = guard.repairFeedback(verdict, request);
    assert.match(text, /"get_weather"/);
    assert.match(text, /\/unit \(enum\): must be one of: C, F/);
    assert.equal(text.includes('"K"') || text.includes("Oslo"), false, text);
  });

  test("Anthropic: tool_result blocks with is_error, sent by the real client", async () => {
    const done = { ...refusedTurn, content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" };
    await withWireServer([refusedTurn, done], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url });
      const response = await client.messages.create(request);
      const toolCalls = guard.checkToolCalls(response, request);
      assert.equal(toolCalls.ok, false);
      const next = guard.appendAnthropicFeedback(request, { response, toolCalls, tools: request });
      await client.messages.create(next);
      const sent = server.requests[1].body.messages;
      assert.equal(sent.length, 3);
      assert.equal(sent[1].role, "assistant");
      const results = sent[2].content;
      assert.deepEqual(results.map((r) => [r.type, r.tool_use_id, r.is_error]), [["tool_result", "toolu_1", true], ["tool_result", "toolu_2", true]]);
      assert.match(results[0].content, /\/unit \(enum\)/);
      assert.match(results[1].content, /^Not run/);
      assert.equal(request.messages.length, 1, "the original request is not changed");
    });
  });

  test("OpenAI Chat, Responses and Gemini tool-result shapes", () => {
    const chatRequest = { model: "m", messages: [{ role: "user", content: "?" }], tools: [{ type: "function", function: { name: "get_weather", parameters: WEATHER } }] };
    const chat = chatWithCalls([["get_weather", '{"city":"Oslo","unit":"K"}']]);
    const chatNext = guard.appendOpenAIChatFeedback(chatRequest, { response: chat, toolCalls: guard.checkToolCalls(chat, chatRequest), tools: chatRequest });
    assert.deepEqual(chatNext.messages.slice(1).map((m) => [m.role, m.tool_call_id ?? null]), [["assistant", null], ["tool", "call_0"]]);
    assert.equal(chatNext.messages[1].tool_calls[0].id, "call_0");

    const responsesRequest = { model: "m", input: "?", tools: [{ type: "function", name: "get_weather", parameters: WEATHER }] };
    const responses = { object: "response", output: [{ type: "function_call", call_id: "call_7", name: "get_weather", arguments: "{}" }] };
    const responsesNext = guard.appendOpenAIResponsesFeedback(responsesRequest, { response: responses, toolCalls: guard.checkToolCalls(responses, responsesRequest), tools: responsesRequest });
    assert.deepEqual(responsesNext.input.map((i) => i.type ?? i.role), ["user", "function_call", "function_call_output"]);
    assert.equal(responsesNext.input[2].call_id, "call_7");
    assert.match(responsesNext.input[2].output, /\(required\)/);

    const geminiRequest = { model: "g", contents: "?", config: { tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: WEATHER }] }] } };
    const gemini = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "" } } }] }, finishReason: "STOP" }] };
    const geminiNext = guard.appendGeminiFeedback(geminiRequest, { response: gemini, toolCalls: guard.checkToolCalls(gemini, geminiRequest), tools: geminiRequest });
    assert.equal(geminiNext.contents.length, 3);
    assert.equal(geminiNext.contents[2].parts[0].functionResponse.name, "get_weather");
    assert.match(geminiNext.contents[2].parts[0].functionResponse.response.error, /minLength/);
  });

  test("the calls that ran are answered with their results, so the model never asks for them again (Anthropic, the real client)", async () => {
    // docs/tool-calls.md's loop: the calls that pass run, the refused ones are told
    // the model; then the model answers with only the corrected call.
    const corrected = {
      ...refusedTurn,
      id: "msg_2",
      content: [{ type: "tool_use", id: "toolu_3", name: "get_weather", input: { city: "Oslo", unit: "C" } }],
    };
    const sideEffects = [];
    await withWireServer([refusedTurn, corrected], async (server) => {
      const client = new Anthropic({ apiKey: "test", baseURL: server.url });
      const response = await client.messages.create(request);
      const toolCalls = guard.checkToolCalls(response, request);
      const ran = [];
      for (const call of toolCalls.calls) {
        if (call.ok) {
          sideEffects.push(call.id);
          ran.push({ id: call.id, result: { sent: true, to: call.value.to } });
        }
      }
      assert.deepEqual(sideEffects, ["toolu_2"]);
      const next = guard.appendAnthropicFeedback(request, { response, toolCalls, tools: request, ran });
      const again = await client.messages.create(next);
      const results = server.requests[1].body.messages[2].content;
      assert.deepEqual(results.map((r) => [r.tool_use_id, r.is_error ?? false]), [["toolu_1", true], ["toolu_2", false]]);
      assert.match(results[0].content, /\/unit \(enum\)/);
      assert.equal(results[1].content, '{"sent":true,"to":"a@example.com"}', "the call that ran is answered with its result");
      assert.equal(JSON.stringify(next).includes("Not run"), false, "no call that ran is asked for again");
      // The next turn is checked the same way: only the corrected call runs.
      const second = guard.checkToolCalls(again, request);
      for (const call of second.calls) if (call.ok) sideEffects.push(call.id);
      assert.deepEqual(sideEffects, ["toolu_2", "toolu_3"], "each side effect happened once");
    });
  });

  test("a call that passed but did not run is still answered as not run", () => {
    const verdict = guard.checkToolCalls(refusedTurn, request);
    const next = guard.appendAnthropicFeedback(request, { response: refusedTurn, toolCalls: verdict, tools: request, ran: [] });
    assert.match(next.messages[2].content[1].content, /^Not run/);
  });

  test("the results of the calls that ran in OpenAI Chat, Responses and Gemini shapes", () => {
    const tools = [{ type: "function", function: { name: "get_weather", parameters: WEATHER } }, { type: "function", function: { name: "send_mail", parameters: SEND } }];
    const chatRequest = { model: "m", messages: [{ role: "user", content: "?" }], tools };
    const chat = chatWithCalls([["get_weather", '{"city":"Oslo","unit":"K"}'], ["send_mail", '{"to":"a@example.com"}']]);
    const chatNext = guard.appendOpenAIChatFeedback(chatRequest, {
      response: chat,
      toolCalls: guard.checkToolCalls(chat, chatRequest),
      tools: chatRequest,
      ran: [{ id: "call_1", result: "queued as #12" }],
    });
    assert.deepEqual(chatNext.messages.slice(2).map((m) => [m.role, m.tool_call_id]), [["tool", "call_0"], ["tool", "call_1"]]);
    assert.match(chatNext.messages[2].content, /\/unit \(enum\)/);
    assert.equal(chatNext.messages[3].content, "queued as #12", "a string result is sent as it is");

    const responsesRequest = { model: "m", input: "?", tools: [{ type: "function", name: "get_weather", parameters: WEATHER }, { type: "function", name: "send_mail", parameters: SEND }] };
    const responses = {
      object: "response",
      output: [
        { type: "function_call", call_id: "call_7", name: "get_weather", arguments: "{}" },
        { type: "function_call", call_id: "call_8", name: "send_mail", arguments: '{"to":"a@example.com"}' },
      ],
    };
    const responsesNext = guard.appendOpenAIResponsesFeedback(responsesRequest, {
      response: responses,
      toolCalls: guard.checkToolCalls(responses, responsesRequest),
      tools: responsesRequest,
      ran: [{ id: "call_8", result: [1, 2] }],
    });
    const outputs = responsesNext.input.filter((i) => i.type === "function_call_output");
    assert.deepEqual(outputs.map((o) => o.call_id), ["call_7", "call_8"]);
    assert.equal(outputs[1].output, "[1,2]", "anything else is sent as its JSON text");

    // Gemini gives no ids: the results are matched in order among the
    // accepted calls without one.
    const geminiRequest = { model: "g", contents: "?", config: { tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: WEATHER }, { name: "send_mail", parametersJsonSchema: SEND }] }] } };
    const gemini = {
      candidates: [{
        content: {
          role: "model",
          parts: [
            { functionCall: { name: "send_mail", args: { to: "a@example.com" } } },
            { functionCall: { name: "get_weather", args: { city: "" } } },
            { functionCall: { name: "send_mail", args: { to: "b@example.com" } } },
          ],
        },
        finishReason: "STOP",
      }],
    };
    const geminiCalls = guard.checkToolCalls(gemini, geminiRequest);
    assert.deepEqual(geminiCalls.calls.map((c) => [c.id, c.ok]), [[null, true], [null, false], [null, true]]);
    const geminiNext = guard.appendGeminiFeedback(geminiRequest, {
      response: gemini,
      toolCalls: geminiCalls,
      tools: geminiRequest,
      ran: [{ id: null, result: { sent: "a" } }, { id: null, result: "sent b" }],
    });
    const answers = geminiNext.contents[2].parts.map((p) => p.functionResponse);
    assert.deepEqual(answers.map((a) => a.name), ["send_mail", "get_weather", "send_mail"]);
    assert.deepEqual(answers[0].response, { sent: "a" }, "a plain object is the function response itself");
    assert.match(answers[1].response.error, /minLength/);
    assert.deepEqual(answers[2].response, { output: "sent b" });
  });

  test("refused calls without ids each get their own feedback (Gemini)", () => {
    const geminiRequest = { model: "g", contents: "?", config: { tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: WEATHER }, { name: "send_mail", parametersJsonSchema: SEND }] }] } };
    const gemini = {
      candidates: [{
        content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "" } } }, { functionCall: { name: "send_mail", args: { to: "nobody" } } }] },
        finishReason: "STOP",
      }],
    };
    const toolCalls = guard.checkToolCalls(gemini, geminiRequest);
    assert.deepEqual(toolCalls.calls.map((c) => [c.id, c.failure]), [[null, "schema"], [null, "schema"]]);
    const next = guard.appendGeminiFeedback(geminiRequest, { response: gemini, toolCalls, tools: geminiRequest });
    const errors = next.contents[2].parts.map((p) => p.functionResponse.response.error);
    assert.match(errors[0], /"get_weather"[\s\S]*minLength/);
    assert.match(errors[1], /"send_mail"[\s\S]*format/);
  });

  test("`ran` that does not fit the verdict is a TypeError with a code", () => {
    const verdict = guard.checkToolCalls(refusedTurn, request);
    const append = (ran) => guard.appendAnthropicFeedback(request, { response: refusedTurn, toolCalls: verdict, tools: request, ran });
    const invalid = (pattern) => (error) => error instanceof TypeError && error.code === "invalid_argument" && pattern.test(error.message);
    assert.throws(() => append({ id: "toolu_2", result: 1 }), invalid(/list/));
    assert.throws(() => append([{ id: "toolu_9", result: 1 }]), invalid(/toolu_9/));
    assert.throws(() => append([{ id: "toolu_1", result: 1 }]), invalid(/refused/));
    assert.throws(() => append([{ id: "toolu_2", result: 1 }, { id: "toolu_2", result: 2 }]), invalid(/twice/));
    assert.throws(() => append([{ id: null, result: 1 }]), invalid(/without an id/));
    assert.throws(() => append([{ id: "toolu_2", result: 1n }]), invalid(/JSON/));
    assert.throws(() => append([null]), invalid(/\{ id, result \}/));
  });
});

describe("a tool's arguments checked often, the check programs on", () => {
  // Checked often, a schema gets a check program (js/check-program.mjs),
  // which outputs checked against it use; whichever way a call's
  // arguments are checked, every verdict must stay the core's own, for
  // texts around and beside a JSON object, under every finish reason, and
  // for objects an SDK parsed.
  test("every verdict is the one the core gives alone", () => {
    const request = { tools: [{ type: "function", function: { name: "weather", parameters: WEATHER } }] };
    const texts = [
      '{"city":"Oslo"}',
      '  {"city":"Oslo","unit":"C"}\n\t ',
      '{"city":""}',
      '{"city":"Oslo","wind":3}',
      '{"city":"Oslo"',
      '{"city":"Oslo"} and more',
      '```json\n{"city":"Oslo"}\n```',
      '[{"city":"Oslo"}]',
      '"Oslo"',
      "",
      "   ",
      '{"city":"\\ud800"}',
      '{"city":"Oslo","unit":1e400}',
      '{"city":"Oslo","city":"Bergen"}',
      "{",
      "}",
    ];
    const responses = [];
    for (const finish of ["tool_calls", "stop", "length", null]) {
      for (const text of texts) {
        responses.push({ choices: [{ finish_reason: finish, message: { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: text } }] } }] });
      }
    }
    for (const input of [{ city: "Oslo" }, { city: "" }, { city: "Oslo", unit: NaN }, { city: "Oslo", when: new Date(0) }, [{ city: "Oslo" }]]) {
      for (const stop of ["tool_use", "max_tokens"]) responses.push({ stop_reason: stop, content: [{ type: "tool_use", id: "t1", name: "weather", input }] });
    }
    const anthropicRequest = { tools: [{ name: "weather", input_schema: WEATHER }] };
    const requestOf = (response) => (response.choices === undefined ? anthropicRequest : request);
    internals.useCheckPrograms(false);
    let expected;
    try {
      expected = responses.map((response) => guard.checkToolCalls(response, requestOf(response)));
    } finally {
      internals.useCheckPrograms(true);
    }
    for (let round = 0; round < 4; round++) {
      responses.forEach((response, i) => assert.deepEqual(guard.checkToolCalls(response, requestOf(response)), expected[i], `round ${round}: ${JSON.stringify(response)}`));
    }
  });
});

describe("a call its tool's check program answers", () => {
  // Once a tool's schema has its check program (js/check-program.mjs), an
  // accepted call with object arguments, and one the program lists the
  // issues of, are answered without the core: the arguments are never
  // written out as JSON. Text arguments take the core's lane (one
  // crossing); at the token limit every call, text or object, has the
  // verdict the core gave for that finish reason before.
  const TOOLS = [{ name: "weather", input_schema: WEATHER }];
  const anthropic = (input, limit) => ({ stop_reason: limit ? "max_tokens" : "tool_use", content: [{ type: "tool_use", id: "t1", name: "weather", input }] });
  const gemini = (args, limit) => ({ candidates: [{ content: { parts: [{ functionCall: { name: "weather", args } }] }, finishReason: limit ? "MAX_TOKENS" : "STOP" }] });
  const chat = (args, limit) => chatWithCalls([["weather", JSON.stringify(args)]], limit ? "length" : "tool_calls");
  const geminiTools = { tools: [{ functionDeclarations: [{ name: "weather", parameters: WEATHER }] }] };
  const chatTools = [{ type: "function", function: { name: "weather", parameters: WEATHER } }];

  test("crosses into the core for nothing, accepted, refused or stopped at the token limit", () => {
    const probe = guard.compileSchema({});
    for (const [shape, tools] of [[anthropic, TOOLS], [gemini, geminiTools]]) {
      // Checked often enough to have its program, and the response's shape read once.
      for (let i = 0; i < 4; i++) guard.checkToolCalls(shape({ city: `Oslo ${i}` }, i === 3), tools);
      const [crossings, verdicts] = internals.crossingsDuring(probe, () => [
        guard.checkToolCalls(shape({ city: "Bergen", unit: "C" }), tools),
        guard.checkToolCalls(shape({ city: "Bergen", unit: "K" }), tools),
        guard.checkToolCalls(shape({ city: "" }), tools),
        // At the token limit, truncated whatever the arguments, as the core said before.
        guard.checkToolCalls(shape({ city: "Bergen" }, true), tools),
      ]);
      assert.deepEqual(verdicts.map((v) => v.ok), [true, false, false, false]);
      assert.deepEqual(verdicts[0].calls[0].value, { city: "Bergen", unit: "C" });
      assert.deepEqual(verdicts[1].calls[0].errors.map((issue) => [issue.path, issue.code]), [["/unit", "enum"]]);
      assert.equal(verdicts[3].failure, "truncated");
      assert.match(verdicts[3].calls[0].message, /token limit/);
      assert.equal(crossings, 0, "object arguments, checked by the program");
    }
    for (let i = 0; i < 4; i++) guard.checkToolCalls(chat({ city: `Oslo ${i}` }, i === 3), chatTools);
    const [crossings, verdict] = internals.crossingsDuring(probe, () => guard.checkToolCalls(chat({ city: "Bergen" }, true), chatTools));
    assert.equal(verdict.failure, "truncated");
    assert.equal(crossings, 0, "text arguments at the token limit");
    probe.free();
  });

  test("hands back what JSON would have written of object arguments, and refuses what the core refuses", () => {
    const SCHEMA = { type: "object", required: ["n"], properties: { n: { type: "number", minimum: 0 }, list: { type: "array" } } };
    const tools = [{ name: "numbers", input_schema: SCHEMA }];
    const call = (input) => ({ stop_reason: "tool_use", content: [{ type: "tool_use", id: "t1", name: "numbers", input }] });
    let deep = { n: 1 };
    for (let i = 0; i < 200; i++) deep = { n: 1, deep };
    const inputs = [
      { n: -0 },
      { n: 1, gone: undefined, fn() {}, [Symbol("s")]: 1 },
      { n: 1, list: [1, undefined, () => 1, Symbol("s"), -0] },
      { n: NaN },
      { n: Infinity, list: [NaN] },
      { n: 1, text: "x\ud800y", ["k\udc00"]: 1 },
      { n: 1, when: new Date(0) },
      { n: 1, o: { toJSON: () => ({ n: -1 }) } },
      { toJSON: () => ({ n: -1 }) },
      JSON.parse('{"n":1,"__proto__":{"a":1}}'),
      { n: 1, m: new Map([[1, 2]]), s: new Set([1]) },
      { n: 1, boxed: new String("s"), count: new Number(2) },
      Object.assign(Object.create(null), { n: 2 }),
      Object.assign(Object.create({ inherited: 1 }), { n: 2 }),
      deep,
      [{ n: 1 }],
      { n: 1, "10": 1, "2": 2, b: 3, a: 4 },
      // JSON.stringify writes a raw JSON value's text (Bun has them; Node 20 does not).
      ...(typeof JSON.rawJSON === "function" ? [{ n: JSON.rawJSON("1") }, { n: 1, list: [JSON.rawJSON("2")] }] : []),
    ];
    const responses = inputs.map(call);
    const outcome = (response) => {
      try {
        return guard.checkToolCalls(response, tools);
      } catch (error) {
        return { threw: error.name, code: error.code, message: error.message };
      }
    };
    internals.useCheckPrograms(false);
    let expected;
    try {
      expected = responses.map(outcome);
    } finally {
      internals.useCheckPrograms(true);
    }
    for (let round = 0; round < 4; round++) {
      responses.forEach((response, i) => assert.deepStrictEqual(outcome(response), expected[i], `round ${round}: input ${i}`));
    }
    // What throws throws the same.
    const bigint = call({ n: 1, big: 1n });
    const getter = call({ n: 1, get bad() { throw new Error("no"); } });
    for (const response of [bigint, getter]) {
      internals.useCheckPrograms(false);
      let before;
      try {
        before = outcome(response);
      } finally {
        internals.useCheckPrograms(true);
      }
      assert.equal(before.threw, "TypeError");
      assert.deepStrictEqual(outcome(response), before);
    }
  });
});

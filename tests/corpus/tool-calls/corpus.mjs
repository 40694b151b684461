// The public tool-call corpus (tools.json, see SOURCE.md) in the shapes
// executors send and providers answer, with the documents a model gets
// wrong: each accepted call as the dataset gives it, and changed the ways
// models get calls wrong (a required parameter dropped, a value of the wrong
// type, a number sent as a string, a value outside an enum, the arguments
// cut off). Each document's expected verdict follows from how it was made,
// and ajv 8 (`ajv/dist/2020` + ajv-formats) is asked too: see `ajvVerdict`.
// Used by tests/js/tools/tool-corpus.test.mjs (a sample) and bench/tool-calls.mjs
// (all of it).
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** `{ tools: [{ name, description, parameters, source }], calls: [{ tool, arguments }] }`, read once. */
let corpus;
export function loadCorpus() {
  corpus ??= JSON.parse(readFileSync(join(here, "tools.json"), "utf8"));
  return corpus;
}

/**
 * The first `size` tools and the calls of them: an agent's catalogue of
 * that many distinct tools (every tool's schema differs from the others').
 */
export function catalogue(size) {
  const { tools, calls } = loadCorpus();
  if (size > tools.length) throw new Error(`the corpus holds ${tools.length} tools, not ${size}`);
  return { tools: tools.slice(0, size), calls: calls.filter((call) => call.tool < size) };
}

/**
 * The provider shapes: how a request declares `tools` (built anew on
 * every call of `request`, each declaration's schema the corpus's own
 * object, as an executor maps its registry into the request per turn), and
 * how a response carries one call. `text`: the arguments are JSON text
 * (and can be cut off); otherwise an object. `limit` is the finish reason
 * of a response stopped at the token limit, `stop` the one of a response
 * that ends with its tool calls.
 */
export const SHAPES = {
  "openai-chat": {
    text: true,
    stop: "tool_calls",
    limit: "length",
    request: (tools) => ({
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: "Help me." }],
      tools: tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    }),
    response: (call, id, finish) => ({
      id: "chatcmpl-corpus",
      object: "chat.completion",
      created: 1765000000,
      model: "gpt-4.1-mini",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, refusal: null, tool_calls: [{ id, type: "function", function: { name: call.name, arguments: call.arguments } }] },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage: { prompt_tokens: 812, completion_tokens: 41, total_tokens: 853 },
    }),
    calls: (response) => response.choices[0].message.tool_calls.map((call) => ({ name: call.function.name, arguments: call.function.arguments })),
    truncated: (response) => response.choices[0].finish_reason === "length",
  },
  "openai-responses": {
    text: true,
    stop: "completed",
    limit: "max_output_tokens",
    request: (tools) => ({
      model: "gpt-4.1-mini",
      input: "Help me.",
      tools: tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: tool.parameters, strict: false })),
    }),
    response: (call, id, finish) => ({
      id: "resp_corpus",
      object: "response",
      created_at: 1765000000,
      status: finish === "completed" ? "completed" : "incomplete",
      incomplete_details: finish === "completed" ? null : { reason: finish },
      model: "gpt-4.1-mini",
      output: [{ type: "function_call", id: `fc_${id}`, call_id: id, name: call.name, arguments: call.arguments, status: finish === "completed" ? "completed" : "incomplete" }],
      usage: { input_tokens: 812, output_tokens: 41, total_tokens: 853 },
    }),
    calls: (response) => response.output.filter((item) => item.type === "function_call").map((item) => ({ name: item.name, arguments: item.arguments })),
    truncated: (response) => response.status === "incomplete" && response.incomplete_details?.reason === "max_output_tokens",
  },
  anthropic: {
    text: false,
    stop: "tool_use",
    limit: "max_tokens",
    request: (tools) => ({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "Help me." }],
      tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
    }),
    response: (call, id, finish) => ({
      id: "msg_corpus",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "tool_use", id, name: call.name, input: call.arguments }],
      stop_reason: finish,
      stop_sequence: null,
      usage: { input_tokens: 812, output_tokens: 41 },
    }),
    calls: (response) => response.content.filter((block) => block.type === "tool_use").map((block) => ({ name: block.name, arguments: block.input })),
    truncated: (response) => response.stop_reason === "max_tokens",
  },
  gemini: {
    text: false,
    stop: "STOP",
    limit: "MAX_TOKENS",
    request: (tools) => ({
      contents: [{ role: "user", parts: [{ text: "Help me." }] }],
      tools: [{ functionDeclarations: tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }],
    }),
    response: (call, id, finish) => ({
      candidates: [{ content: { role: "model", parts: [{ functionCall: { id, name: call.name, args: call.arguments } }] }, finishReason: finish, index: 0 }],
      usageMetadata: { promptTokenCount: 812, candidatesTokenCount: 41, totalTokenCount: 853 },
      modelVersion: "gemini-2.5-flash",
    }),
    calls: (response) => response.candidates[0].content.parts.filter((part) => part.functionCall).map((part) => ({ name: part.functionCall.name, arguments: part.functionCall.args })),
    truncated: (response) => response.candidates[0].finishReason === "MAX_TOKENS",
  },
  bedrock: {
    text: false,
    stop: "tool_use",
    limit: "max_tokens",
    request: (tools) => ({
      modelId: "anthropic.claude-sonnet-4-5",
      messages: [{ role: "user", content: [{ text: "Help me." }] }],
      toolConfig: { tools: tools.map((tool) => ({ toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.parameters } } })) },
    }),
    response: (call, id, finish) => ({
      output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: id, name: call.name, input: call.arguments } }] } },
      stopReason: finish,
      usage: { inputTokens: 812, outputTokens: 41, totalTokens: 853 },
      metrics: { latencyMs: 900 },
    }),
    calls: (response) => response.output.message.content.filter((block) => block.toolUse).map((block) => ({ name: block.toolUse.name, arguments: block.toolUse.input })),
    truncated: (response) => response.stopReason === "max_tokens",
  },
  // An MCP client's `tools/list` result, handed to a model as it is; the
  // model (here Anthropic's) answers with a tool_use block.
  mcp: {
    text: false,
    stop: "tool_use",
    limit: "max_tokens",
    request: (tools) => ({ tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters })) }),
    response: (call, id, finish) => SHAPES.anthropic.response(call, id, finish),
    calls: (response) => SHAPES.anthropic.calls(response),
    truncated: (response) => SHAPES.anthropic.truncated(response),
  },
};

/**
 * The documents made from one accepted call of `tool`:
 * `[{ kind, arguments, finish, expected }]`, `arguments` an object (or, for
 * the cut-off kinds, JSON text), `finish` "stop" or "limit" (the shape's
 * finish reason for each), `expected` `{ ok, failure?, code? }`: the verdict
 * the way it was made implies (`code` an issue code the refusal must
 * include). Kinds that do not apply to the tool (no required parameter
 * given, no enum, ...) are left out.
 */
export function documentsOf(tool, args) {
  const schema = tool.parameters;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const given = Object.keys(args).filter((name) => isObject(properties[name]));
  const docs = [{ kind: "valid", arguments: args, finish: "stop", expected: { ok: true } }];

  const required = Array.isArray(schema.required) ? schema.required.find((name) => name in args) : undefined;
  if (required !== undefined) {
    const { [required]: _, ...rest } = args;
    docs.push({ kind: "required_dropped", arguments: rest, finish: "stop", expected: { ok: false, failure: "schema", code: "required" } });
  }

  const typed = given.find((name) => typeof properties[name].type === "string" && properties[name].enum === undefined && properties[name].const === undefined);
  if (typed !== undefined) {
    const wrong = WRONG[properties[typed].type];
    if (wrong !== undefined) docs.push({ kind: "wrong_type", arguments: { ...args, [typed]: wrong }, finish: "stop", expected: { ok: false, failure: "schema", code: "type" } });
  }

  const numeric = given.find((name) => (properties[name].type === "number" || properties[name].type === "integer") && typeof args[name] === "number");
  if (numeric !== undefined) {
    docs.push({ kind: "number_as_string", arguments: { ...args, [numeric]: String(args[numeric]) }, finish: "stop", expected: { ok: false, failure: "schema", code: "type" } });
  }

  const enumerated = given.find((name) => Array.isArray(properties[name].enum) && properties[name].enum.every((value) => typeof value === "string") && typeof args[name] === "string");
  if (enumerated !== undefined) {
    const outside = outsideOf(properties[enumerated].enum, args[enumerated]);
    docs.push({ kind: "outside_enum", arguments: { ...args, [enumerated]: outside }, finish: "stop", expected: { ok: false, failure: "schema", code: "enum" } });
  }

  const text = JSON.stringify(args);
  if (text.length > 2) {
    const cut = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    docs.push({ kind: "cut_off_stop", arguments: cut, finish: "stop", expected: { ok: false, failure: "unparseable" } });
    docs.push({ kind: "cut_off_limit", arguments: cut, finish: "limit", expected: { ok: false, failure: "truncated" } });
  }
  return docs;
}

/** A value of another JSON type for each declared type: what a model sends when it gets the type wrong. */
const WRONG = { string: 42, number: "many", integer: "3 or 4", boolean: "yes", array: "a, b", object: "none", null: 0 };

/** A string near the enum's values but not among them (a model's paraphrase of one). */
function outsideOf(values, given) {
  let candidate = `${given} (other)`;
  while (values.includes(candidate)) candidate += "!";
  return candidate;
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Every document of the calls of `tools`, for one shape: `{ tool, kind,
 * name, arguments, finish, expected }`, the `arguments` as the shape
 * carries them (JSON text for text shapes; objects otherwise, and the
 * cut-off kinds, which only text can be, replaced by the accepted call at
 * the token limit, which is truncated however whole its arguments).
 */
export function documentsFor(shape, tools, calls) {
  const text = SHAPES[shape].text;
  const out = [];
  for (const call of calls) {
    const tool = tools[call.tool];
    for (const doc of documentsOf(tool, call.arguments)) {
      if (!text && doc.kind === "cut_off_stop") continue;
      if (!text && doc.kind === "cut_off_limit") {
        out.push({ tool: call.tool, name: tool.name, kind: "limit", arguments: call.arguments, finish: "limit", expected: { ok: false, failure: "truncated" } });
        continue;
      }
      const args = text && typeof doc.arguments !== "string" ? JSON.stringify(doc.arguments) : doc.arguments;
      out.push({ tool: call.tool, name: tool.name, kind: doc.kind, arguments: args, finish: doc.finish, expected: doc.expected });
    }
  }
  return out;
}

/** The response of `shape` that makes the document's one call, with call id `id`. */
export function responseFor(shape, doc, id) {
  const { response, stop, limit } = SHAPES[shape];
  return response({ name: doc.name, arguments: doc.arguments }, id, doc.finish === "limit" ? limit : stop);
}

/** An ajv 8 for the corpus's schemas (2020-12, formats asserted, as the guard asserts them). */
export function makeAjv({ allErrors = false } = {}) {
  const Ajv2020 = require("ajv/dist/2020").default;
  const addFormats = require("ajv-formats");
  const ajv = new Ajv2020({ strict: false, allErrors, logger: false });
  addFormats(ajv);
  return ajv;
}

/**
 * The hand-written executor's check of one response: each call's
 * arguments parsed (text shapes) and validated by the ajv function
 * compiled for its tool beforehand (`validators`, by name); a response
 * stopped at the token limit, a call of an unknown tool, arguments that do
 * not parse or that ajv refuses, each a refusal. `{ ok, failure? }`.
 */
export function ajvVerdict(shape, response, validators) {
  const spec = SHAPES[shape];
  let failure;
  for (const call of spec.calls(response)) {
    const validate = validators.get(call.name);
    let args = call.arguments;
    if (spec.text) {
      try {
        args = JSON.parse(args);
      } catch {
        failure ??= spec.truncated(response) ? "truncated" : "unparseable";
        continue;
      }
    }
    if (spec.truncated(response)) failure ??= "truncated";
    else if (validate === undefined) failure ??= "unknown_tool";
    else if (!validate(args)) failure ??= "schema";
  }
  return failure === undefined ? { ok: true } : { ok: false, failure };
}

// Adding repair feedback to a request. A repair retry sends the original
// request plus exactly one user message; the original is never changed (the
// caller may reuse it, and its tools, if any, never reach a retry anyway).
import { argumentError } from "./errors.mjs";
import { toolCallFeedback } from "./tool-calls.mjs";

/** What a tool result says of a call that passed, in a turn where another was refused. */
const NOT_RUN = "Not run: another tool call in this turn was refused. Call it again together with the corrected call.";

/**
 * A rejection of the response's tool calls (`{ response, toolCalls, tools }`:
 * the response, its checkToolCalls verdict and the declarations), as one
 * result per call: the feedback for a refused call, NOT_RUN for the rest.
 * Undefined when the feedback is plain text.
 */
function toolResults(feedback) {
  if (typeof feedback === "string" || feedback === null || typeof feedback !== "object") return undefined;
  const { response, toolCalls, tools } = feedback;
  if (response === null || typeof response !== "object") throw argumentError("a tool-call rejection needs the response whose calls were refused");
  const texts = new Map(toolCallFeedback(toolCalls, tools).map((entry) => [entry.id, entry.text]));
  if (texts.size === 0) throw argumentError("a tool-call rejection needs a refused verdict; every tool call here passed");
  return toolCalls.calls.map((call) => ({ id: call.id, name: call.name, text: texts.get(call.id) ?? NOT_RUN, refused: !call.ok }));
}

function objectRequest(request, what) {
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    throw argumentError(`${what} needs the request object, not ${request === null ? "null" : typeof request}`);
  }
  return request;
}

function textArgument(text) {
  if (typeof text !== "string" || text.length === 0) throw argumentError("the feedback must be a non-empty string");
  return text;
}

/** OpenAI Chat Completions (and compatible APIs: Mistral, Ollama, OpenRouter...): a user message. */
export function appendOpenAIChatFeedback(request, text) {
  const r = objectRequest(request, "appendOpenAIChatFeedback");
  if (!Array.isArray(r.messages)) throw argumentError("appendOpenAIChatFeedback needs a request with a messages array");
  const results = toolResults(text);
  if (results !== undefined) {
    // The assistant turn that made the calls, then one tool message per call.
    const message = text.response.choices?.[0]?.message;
    if (!Array.isArray(message?.tool_calls)) throw argumentError("appendOpenAIChatFeedback: the response has no tool_calls to answer");
    const assistant = { role: "assistant", content: message.content ?? null, tool_calls: message.tool_calls };
    return { ...r, messages: [...r.messages, assistant, ...results.map((c) => ({ role: "tool", tool_call_id: c.id, content: c.text }))] };
  }
  return { ...r, messages: [...r.messages, { role: "user", content: textArgument(text) }] };
}

/** Anthropic Messages: a user turn (merged with a trailing user turn by the API). */
export function appendAnthropicFeedback(request, text) {
  const r = objectRequest(request, "appendAnthropicFeedback");
  if (!Array.isArray(r.messages)) throw argumentError("appendAnthropicFeedback needs a request with a messages array");
  const results = toolResults(text);
  if (results !== undefined) {
    if (!Array.isArray(text.response.content)) throw argumentError("appendAnthropicFeedback: the response has no content to answer");
    const content = results.map((c) => ({ type: "tool_result", tool_use_id: c.id, is_error: true, content: c.text }));
    return { ...r, messages: [...r.messages, { role: "assistant", content: text.response.content }, { role: "user", content }] };
  }
  return { ...r, messages: [...r.messages, { role: "user", content: [{ type: "text", text: textArgument(text) }] }] };
}

/**
 * `contents` as a list of Content entries. @google/genai also takes a plain
 * string, one Part, a list of Parts and strings (one user turn), or one
 * Content; they are written out as the SDK itself sends them.
 */
function geminiContents(contents) {
  const part = (p) => (typeof p === "string" ? { text: p } : p);
  const isContent = (c) => c !== null && typeof c === "object" && Array.isArray(c.parts);
  if (typeof contents === "string") return [{ role: "user", parts: [{ text: contents }] }];
  if (Array.isArray(contents)) {
    if (contents.length > 0 && !contents.some(isContent)) return [{ role: "user", parts: contents.map(part) }];
    return contents;
  }
  if (isContent(contents)) return [contents];
  if (contents !== null && typeof contents === "object") return [{ role: "user", parts: [contents] }];
  return undefined;
}

/** Gemini generateContent (REST and @google/genai): a user content entry. */
export function appendGeminiFeedback(request, text) {
  const r = objectRequest(request, "appendGeminiFeedback");
  const contents = geminiContents(r.contents);
  if (contents === undefined) throw argumentError("appendGeminiFeedback needs a request with contents (a string, a part, or a list)");
  const results = toolResults(text);
  if (results !== undefined) {
    const turn = text.response.candidates?.[0]?.content;
    if (!Array.isArray(turn?.parts)) throw argumentError("appendGeminiFeedback: the response has no candidate content to answer");
    const parts = results.map((c) => ({ functionResponse: { ...(c.id === null ? {} : { id: c.id }), name: c.name, response: { error: c.text } } }));
    return { ...r, contents: [...contents, { role: turn.role ?? "model", parts: turn.parts }, { role: "user", parts }] };
  }
  return { ...r, contents: [...contents, { role: "user", parts: [{ text: textArgument(text) }] }] };
}

/** OpenAI Responses: a user input item (a string input becomes a list). */
export function appendOpenAIResponsesFeedback(request, text) {
  const r = objectRequest(request, "appendOpenAIResponsesFeedback");
  const input = typeof r.input === "string" ? [{ role: "user", content: r.input }] : r.input;
  if (!Array.isArray(input)) throw argumentError("appendOpenAIResponsesFeedback needs a request with an input string or array");
  const results = toolResults(text);
  if (results !== undefined) {
    // The response's output items (reasoning included, which some models
    // need back beside their calls), then one function_call_output per call.
    if (!Array.isArray(text.response.output)) throw argumentError("appendOpenAIResponsesFeedback: the response has no output to answer");
    const outputs = results.map((c) => ({ type: "function_call_output", call_id: c.id, output: c.text }));
    return { ...r, input: [...input, ...text.response.output, ...outputs] };
  }
  return { ...r, input: [...input, { role: "user", content: textArgument(text) }] };
}

/**
 * The built-in appender the core picked for a request's shape
 * (`feedback_shape_for` in src/session.rs), by the name it gives it.
 */
const APPENDERS = {
  openai_chat: appendOpenAIChatFeedback,
  openai_responses: appendOpenAIResponsesFeedback,
  anthropic: appendAnthropicFeedback,
  gemini: appendGeminiFeedback,
};

export function appenderNamed(name) {
  return Object.hasOwn(APPENDERS, name) ? APPENDERS[name] : undefined;
}

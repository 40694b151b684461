// Adding repair feedback to a request. A repair retry sends the original
// request plus exactly one user message; the original is never changed (the
// caller may reuse it, and its tools, if any, never reach a retry anyway).
import { argumentError } from "./errors.mjs";
import { toolCallFeedback } from "./tool-calls.mjs";

/** What a tool result says of a call that passed but did not run, in a turn where another was refused. */
const NOT_RUN = "Not run: another tool call in this turn was refused. Call it again together with the corrected call.";

/**
 * A rejection of the response's tool calls (`{ response, toolCalls, tools,
 * ran? }`: the response, its checkToolCalls verdict, the declarations, and
 * the calls that passed and ran with their results), as one result per
 * call: `{ id, name, text, refused }` with the feedback for a refused call
 * and NOT_RUN for one that passed but did not run, or `{ id, name, ran:
 * true, result }` for one that ran. Undefined when the feedback is plain
 * text.
 */
function toolResults(feedback) {
  if (typeof feedback === "string" || feedback === null || typeof feedback !== "object") return undefined;
  const { response, toolCalls, tools, ran } = feedback;
  if (response === null || typeof response !== "object") throw argumentError("a tool-call rejection needs the response whose calls were refused");
  // One text per refused call, in the calls' order (so calls without an id
  // are told apart too).
  const texts = toolCallFeedback(toolCalls, tools).map((entry) => entry.text);
  if (texts.length === 0) throw argumentError("a tool-call rejection needs a refused verdict; every tool call here passed");
  const results = ranResults(toolCalls.calls, ran);
  let refused = 0;
  return toolCalls.calls.map((call, i) => {
    if (results.has(i)) return { id: call.id, name: call.name, ran: true, result: results.get(i) };
    return { id: call.id, name: call.name, text: call.ok ? NOT_RUN : (texts[refused++] ?? NOT_RUN), refused: !call.ok };
  });
}

/**
 * The results of the calls that ran (`ran`: `[{ id, result }]`), by the
 * index of each call in `calls`. A call is named by its id; entries whose id
 * is null answer, in order, the accepted calls that have none (Gemini may
 * give no ids). An entry that names no call, a refused call, or a call
 * already answered is refused: answering the wrong call would tell the
 * model a side effect happened that did not.
 */
function ranResults(calls, ran) {
  const results = new Map();
  if (ran === undefined) return results;
  if (!Array.isArray(ran)) throw argumentError("ran must be a list of { id, result }, one for each call that ran");
  for (const entry of ran) {
    if (entry === null || typeof entry !== "object" || !(typeof entry.id === "string" || entry.id === null)) {
      throw argumentError("each entry of ran must be { id, result }, id a call's id (or null for a call without one)");
    }
    const index = entry.id === null
      ? calls.findIndex((call, i) => call.id === null && call.ok && !results.has(i))
      : calls.findIndex((call) => call.id === entry.id);
    const named = entry.id === null ? "a call without an id" : `the call ${JSON.stringify(entry.id.slice(0, 64))}`;
    if (index < 0) {
      throw argumentError(entry.id === null ? "ran has more results without an id than the response has accepted calls without an id" : `ran names ${named}, which the response does not make`);
    }
    if (!calls[index].ok) throw argumentError(`ran names ${named}, which was refused: a refused call cannot have run`);
    if (results.has(index)) throw argumentError(`ran names ${named} twice`);
    results.set(index, entry.result);
  }
  return results;
}

/** A result as tool-result text: a string as it is, anything else its JSON text. */
function resultText(call) {
  if (typeof call.result === "string") return call.result;
  let text;
  try {
    text = JSON.stringify(call.result === undefined ? null : call.result);
  } catch (error) {
    throw argumentError(`the result of the call ${JSON.stringify(call.id)} cannot be written as JSON: ${error?.message ?? error}`);
  }
  if (text === undefined) throw argumentError(`the result of the call ${JSON.stringify(call.id)} cannot be written as JSON: it is a ${typeof call.result}`);
  return text;
}

/** A result as a Gemini function response, which is an object: a plain object as it is, anything else `{ output }`. */
function functionResponse(call) {
  if (!call.ran) return { error: call.text };
  const result = call.result;
  const plain = result !== null && typeof result === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(result));
  // Written out once, so that what cannot be sent fails here, with a code.
  resultText(call);
  return plain ? result : { output: result === undefined ? null : result };
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
    return { ...r, messages: [...r.messages, assistant, ...results.map((c) => ({ role: "tool", tool_call_id: c.id, content: c.ran ? resultText(c) : c.text }))] };
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
    const content = results.map((c) =>
      c.ran ? { type: "tool_result", tool_use_id: c.id, content: resultText(c) } : { type: "tool_result", tool_use_id: c.id, is_error: true, content: c.text },
    );
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
    const parts = results.map((c) => ({ functionResponse: { ...(c.id === null ? {} : { id: c.id }), name: c.name, response: functionResponse(c) } }));
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
    const outputs = results.map((c) => ({ type: "function_call_output", call_id: c.id, output: c.ran ? resultText(c) : c.text }));
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

// Adding repair feedback to a request. A repair retry sends the original
// request plus exactly one user message; the original is never changed (the
// caller may reuse it, and its tools, if any, never reach a retry anyway).
import { argumentError } from "./errors.mjs";

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
  return { ...r, messages: [...r.messages, { role: "user", content: textArgument(text) }] };
}

/** Anthropic Messages: a user turn (merged with a trailing user turn by the API). */
export function appendAnthropicFeedback(request, text) {
  const r = objectRequest(request, "appendAnthropicFeedback");
  if (!Array.isArray(r.messages)) throw argumentError("appendAnthropicFeedback needs a request with a messages array");
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
  return { ...r, contents: [...contents, { role: "user", parts: [{ text: textArgument(text) }] }] };
}

/** OpenAI Responses: a user input item (a string input becomes a list). */
export function appendOpenAIResponsesFeedback(request, text) {
  const r = objectRequest(request, "appendOpenAIResponsesFeedback");
  const input = typeof r.input === "string" ? [{ role: "user", content: r.input }] : r.input;
  if (!Array.isArray(input)) throw argumentError("appendOpenAIResponsesFeedback needs a request with an input string or array");
  return { ...r, input: [...input, { role: "user", content: textArgument(text) }] };
}

/**
 * The appender for a request of a known shape, or undefined: `contents`
 * (a list, or @google/genai's string or part) is Gemini, `input` is OpenAI Responses, `messages` with a top-level `system`
 * or `max_tokens` and a Claude model (or `anthropic_version`) is Anthropic,
 * any other `messages` is the OpenAI-compatible chat shape.
 */
export function feedbackAppenderFor(request) {
  if (request === null || typeof request !== "object") return undefined;
  if (request.contents !== undefined && request.contents !== null) return appendGeminiFeedback;
  if (Array.isArray(request.input) || typeof request.input === "string") return appendOpenAIResponsesFeedback;
  if (Array.isArray(request.messages)) {
    const anthropic =
      request.anthropic_version !== undefined ||
      (typeof request.model === "string" && /claude/i.test(request.model)) ||
      (typeof request.system !== "undefined" && request.max_tokens !== undefined);
    return anthropic ? appendAnthropicFeedback : appendOpenAIChatFeedback;
  }
  return undefined;
}

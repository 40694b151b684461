//! Reading the text a model produced out of whatever the caller hands to
//! checkOutput: the text itself, a `{ content, finishReason }` pair, or a whole
//! provider response.
//!
//! Only the answer text counts. Reasoning ("thinking", Gemini's `thought`
//! parts), tool calls and refusals are not the structured output, and gluing
//! them in would make a valid answer look unparseable.

use serde_json::Value;

use std::borrow::Cow;

use crate::finish::finish_reason_of;
use crate::view::JsonRef;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModelOutput {
    pub content: Option<String>,
    pub finish_reason: Option<String>,
}

/// Reads the text content and finish reason from what checkOutput receives.
pub fn read_output(output: &Value) -> ModelOutput {
    match output {
        // Here a bare string is the model's text; treating it as a finish
        // reason would make the content "length" look truncated.
        Value::String(content) => ModelOutput {
            content: Some(content.clone()),
            finish_reason: None,
        },
        _ => ModelOutput {
            content: content_of(output),
            finish_reason: finish_reason_of(output),
        },
    }
}

fn content_of(output: &Value) -> Option<String> {
    match output {
        Value::Array(parts) => join_text_parts(parts),
        Value::Object(_) => object_content(output),
        _ => None,
    }
}

fn object_content(object: &Value) -> Option<String> {
    // `{ content }` (the checkOutput form), Anthropic Messages and Vercel's
    // `content` parts all keep the answer in a top-level `content`.
    if let Some(read) = object.get("content").and_then(content_field) {
        return read;
    }

    if let Some(choice) = object.get("choices").and_then(|choices| choices.get(0)) {
        // A null message content is how a refusal or a pure tool call looks;
        // it must stay None rather than fall through to some other field.
        if let Some(read) = choice.pointer("/message/content").and_then(content_field) {
            return read;
        }
        // Legacy completions, still served by many compatible servers.
        if let Some(text) = choice.get("text").and_then(Value::as_str) {
            return Some(text.to_owned());
        }
        return None;
    }

    // The SDKs add `output_text` as a convenience; the raw API only has `output`.
    if let Some(text) = object.get("output_text").and_then(Value::as_str) {
        return Some(text.to_owned());
    }
    if let Some(items) = object.get("output").and_then(Value::as_array) {
        return responses_output_text(items);
    }

    // Bedrock Converse.
    if let Some(read) = object
        .pointer("/output/message/content")
        .and_then(content_field)
    {
        return read;
    }

    if let Some(candidate) = object
        .get("candidates")
        .and_then(|candidates| candidates.get(0))
    {
        return candidate
            .pointer("/content/parts")
            .and_then(Value::as_array)
            .and_then(join_text_parts);
    }

    // Cohere v2 (parts) and Ollama chat (a string).
    if let Some(read) = object.pointer("/message/content").and_then(content_field) {
        return read;
    }

    // Ollama generate, then the Vercel AI SDK's generateText result.
    if let Some(text) = ["response", "text"]
        .iter()
        .find_map(|key| object.get(*key).and_then(Value::as_str))
    {
        return Some(text.to_owned());
    }

    // The Vercel AI SDK's generateObject result: the value it parsed, which
    // its own `jsonSchema()` does not validate.
    match object.get("object") {
        None | Some(Value::Null) => None,
        Some(value) => Some(value.to_string()),
    }
}

/// `Some(read)` when the field has a recognisable shape (so the search stops
/// here, even when it reads as no content); `None` to keep looking elsewhere.
fn content_field(content: &Value) -> Option<Option<String>> {
    match content {
        Value::String(text) => Some(Some(text.clone())),
        Value::Null => Some(None),
        Value::Array(parts) => Some(join_text_parts(parts)),
        _ => None,
    }
}

fn responses_output_text(items: &[Value]) -> Option<String> {
    // Reasoning and tool-call items sit beside the message in `output`.
    let parts: Vec<&Value> = items
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("message"))
        .filter_map(|item| item.get("content").and_then(Value::as_array))
        .flatten()
        .collect();
    join_text_parts(parts)
}

/// Joins text parts with no separator, because providers split one answer
/// across parts at arbitrary points (even inside a JSON token). `None` when no
/// part is text, so "no text at all" stays distinct from "empty text".
fn join_text_parts<'a>(parts: impl IntoIterator<Item = &'a Value>) -> Option<String> {
    parts
        .into_iter()
        .filter_map(part_text)
        .fold(None, |joined: Option<String>, text| {
            let mut joined = joined.unwrap_or_default();
            joined.push_str(text);
            Some(joined)
        })
}

fn part_text(part: &Value) -> Option<&str> {
    // Gemini marks its reasoning with `thought: true` on an otherwise
    // ordinary text part.
    if part.get("thought").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    // Gemini and Bedrock parts carry no `type`; where one is present, only
    // text types count (Vercel's "reasoning" parts also have a `text`).
    match part.get("type") {
        None => {}
        Some(kind) => match kind.as_str() {
            Some("text") | Some("output_text") => {}
            _ => return None,
        },
    }
    part.get("text")?.as_str()
}

/// A tool call a response carries, in any provider's or SDK's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: Option<String>,
    pub name: String,
    pub arguments: ToolArguments,
}

/// A tool call's arguments: JSON text the model wrote (OpenAI Chat and
/// Responses), or a value the SDK already parsed (Anthropic, Bedrock,
/// Gemini, the AI SDK).
#[derive(Debug, Clone, PartialEq)]
pub enum ToolArguments {
    Text(String),
    Value(Value),
    Missing,
}

impl ToolArguments {
    fn of(value: Option<JsonRef<'_>>) -> Self {
        match value {
            None => ToolArguments::Missing,
            Some(value) if value.is_null() => ToolArguments::Missing,
            Some(value) => match value.string() {
                Some(text) => ToolArguments::Text(text.into_owned()),
                None => ToolArguments::Value(value.to_value()),
            },
        }
    }

    /// The arguments as the text the check stages read.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        match self {
            ToolArguments::Text(text) => Some(text.clone()),
            ToolArguments::Value(value) => Some(value.to_string()),
            ToolArguments::Missing => None,
        }
    }
}

/// Every tool call in a response, in order: OpenAI Chat `tool_calls` (and
/// Ollama's), Responses `function_call` items, Anthropic `tool_use` blocks,
/// Bedrock Converse `toolUse`, Gemini `functionCall` parts, and the AI SDK's
/// `tool-call` content parts. Reasoning and text are not tool calls.
#[must_use]
pub fn read_tool_calls<'a>(output: impl Into<JsonRef<'a>>) -> Vec<ToolCall> {
    calls_in(output.into())
}

fn calls_in(output: JsonRef<'_>) -> Vec<ToolCall> {
    let mut calls = Vec::new();
    if !output.is_object() {
        return calls;
    }
    let str_at = |value: JsonRef<'_>, key: &str| {
        value
            .member(key)
            .and_then(JsonRef::string)
            .map(Cow::into_owned)
    };
    let from_parts = |parts: Option<JsonRef<'_>>, calls: &mut Vec<ToolCall>| {
        for part in parts.and_then(JsonRef::items).into_iter().flatten() {
            let kind = part.member("type").and_then(JsonRef::string);
            let kind = kind.as_deref();
            if kind == Some("tool_use") || kind == Some("function_call") {
                // Anthropic (and Anthropic bodies through Bedrock InvokeModel).
                if let Some(name) = str_at(part, "name") {
                    let arguments = part.member("input").or_else(|| part.member("arguments"));
                    // A Responses item answers to its call_id.
                    let id = str_at(part, "call_id").or_else(|| str_at(part, "id"));
                    calls.push(ToolCall {
                        id,
                        name,
                        arguments: ToolArguments::of(arguments),
                    });
                }
            } else if kind == Some("tool-call") {
                // The Vercel AI SDK's content parts.
                if let Some(name) = str_at(part, "toolName") {
                    let id = str_at(part, "toolCallId");
                    calls.push(ToolCall {
                        id,
                        name,
                        arguments: ToolArguments::of(part.member("input")),
                    });
                }
            } else if let Some(call) = part.member("toolUse") {
                // Bedrock Converse.
                if let Some(name) = str_at(call, "name") {
                    let id = str_at(call, "toolUseId");
                    calls.push(ToolCall {
                        id,
                        name,
                        arguments: ToolArguments::of(call.member("input")),
                    });
                }
            } else if let Some(call) = part.member("functionCall") {
                // Gemini.
                if let Some(name) = str_at(call, "name") {
                    let id = str_at(call, "id");
                    calls.push(ToolCall {
                        id,
                        name,
                        arguments: ToolArguments::of(call.member("args")),
                    });
                }
            }
        }
    };
    from_parts(output.member("content"), &mut calls);
    from_parts(output.at_path(&["output", "message", "content"]), &mut calls);
    from_parts(output.at_path(&["candidates", "0", "content", "parts"]), &mut calls);
    // Responses: function_call items sit in `output` beside the message.
    from_parts(output.member("output").filter(|o| o.is_array()), &mut calls);
    for message in [output.at_path(&["choices", "0", "message"]), output.member("message")]
        .into_iter()
        .flatten()
    {
        for call in message
            .member("tool_calls")
            .and_then(JsonRef::items)
            .into_iter()
            .flatten()
        {
            let function = call.member("function");
            if let Some(name) = function.and_then(|f| str_at(f, "name")) {
                let id = str_at(call, "id");
                let arguments = ToolArguments::of(function.and_then(|f| f.member("arguments")));
                calls.push(ToolCall {
                    id,
                    name,
                    arguments,
                });
            }
        }
    }
    calls
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    fn output(content: Option<&str>, finish_reason: Option<&str>) -> ModelOutput {
        ModelOutput {
            content: content.map(str::to_owned),
            finish_reason: finish_reason.map(str::to_owned),
        }
    }

    // ---- plain strings and the checkOutput form ----

    #[test]
    fn plain_string_is_content_not_a_reason() {
        assert_eq!(
            read_output(&json!("{\"a\":1}")),
            output(Some("{\"a\":1}"), None)
        );
        assert_eq!(read_output(&json!("length")), output(Some("length"), None));
        assert_eq!(read_output(&json!("")), output(Some(""), None));
    }

    #[test]
    fn an_ai_sdk_object_result_is_its_value() {
        let given = json!({ "object": { "colour": "red" }, "finishReason": "stop" });
        assert_eq!(
            read_output(&given),
            output(Some("{\"colour\":\"red\"}"), Some("stop"))
        );
        let text_first = json!({ "text": "{}", "object": { "a": 1 } });
        assert_eq!(read_output(&text_first).content.as_deref(), Some("{}"));
        assert_eq!(read_output(&json!({ "object": null })).content, None);
    }

    #[test]
    fn content_with_finish_reason() {
        let given = json!({ "content": "{\"a\":", "finishReason": "length" });
        assert_eq!(read_output(&given), output(Some("{\"a\":"), Some("length")));
    }

    #[test]
    fn content_without_finish_reason() {
        let given = json!({ "content": "{\"a\":1}" });
        assert_eq!(read_output(&given), output(Some("{\"a\":1}"), None));
    }

    #[test]
    fn null_content_is_none() {
        let given = json!({ "content": null, "finishReason": "tool_calls" });
        assert_eq!(read_output(&given), output(None, Some("tool_calls")));
    }

    #[test]
    fn explicit_null_content_is_not_replaced_by_another_field() {
        let given = json!({ "content": null, "text": "{\"stale\":true}", "finishReason": "stop" });
        assert_eq!(read_output(&given), output(None, Some("stop")));
    }

    #[test]
    fn content_parts_are_joined_in_order_without_separator() {
        let given = json!({
            "content": [
                { "type": "text", "text": "{\"a\":" },
                { "type": "image", "image": "data:..." },
                { "type": "text", "text": "1}" }
            ],
            "finishReason": { "unified": "stop", "raw": "end_turn" }
        });
        assert_eq!(read_output(&given), output(Some("{\"a\":1}"), Some("stop")));
    }

    #[test]
    fn content_parts_without_text_read_as_none() {
        let given = json!({ "content": [{ "type": "tool-call", "toolName": "x" }] });
        assert_eq!(read_output(&given).content, None);
        assert_eq!(read_output(&json!({ "content": [] })).content, None);
    }

    #[test]
    fn empty_text_part_is_empty_content_not_none() {
        let given = json!({ "content": [{ "type": "text", "text": "" }] });
        assert_eq!(read_output(&given).content.as_deref(), Some(""));
    }

    #[test]
    fn bare_part_array() {
        let given = json!([{ "type": "text", "text": "{" }, { "type": "text", "text": "}" }]);
        assert_eq!(read_output(&given).content.as_deref(), Some("{}"));
    }

    // ---- OpenAI Chat Completions and compatible ----

    #[test]
    fn openai_chat_string_content() {
        let response = json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": "gpt-4.1-mini",
            "choices": [{
                "index": 0,
                "message": { "role": "assistant", "content": "{\"city\":\"Oslo\"}", "refusal": null },
                "finish_reason": "stop"
            }],
            "usage": { "prompt_tokens": 9, "completion_tokens": 7, "total_tokens": 16 }
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"city\":\"Oslo\"}"), Some("stop"))
        );
    }

    #[test]
    fn openai_chat_truncated_content() {
        let response = json!({
            "choices": [{ "index": 0, "message": { "role": "assistant", "content": "{\"city\":\"Os" }, "finish_reason": "length" }]
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"city\":\"Os"), Some("length"))
        );
    }

    #[test]
    fn openai_chat_refusal_is_none() {
        let response = json!({
            "object": "chat.completion",
            "choices": [{
                "index": 0,
                "message": { "role": "assistant", "content": null, "refusal": "I can't help with that." },
                "finish_reason": "stop"
            }]
        });
        assert_eq!(read_output(&response), output(None, Some("stop")));
    }

    #[test]
    fn openai_chat_tool_call_is_none() {
        let response = json!({
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": null,
                    "tool_calls": [{ "id": "call_1", "type": "function", "function": { "name": "f", "arguments": "{}" } }]
                },
                "finish_reason": "tool_calls"
            }],
            "text": "must not be read"
        });
        assert_eq!(read_output(&response), output(None, Some("tool_calls")));
    }

    #[test]
    fn openai_chat_content_parts() {
        let response = json!({
            "choices": [{
                "message": {
                    "role": "assistant",
                    "content": [
                        { "type": "text", "text": "{\"a\":" },
                        { "type": "refusal", "refusal": "no" },
                        { "type": "text", "text": "2}" }
                    ]
                },
                "finish_reason": "stop"
            }]
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\":2}"), Some("stop"))
        );
    }

    #[test]
    fn mistral_thinking_chunks_are_skipped() {
        let response = json!({
            "object": "chat.completion",
            "model": "magistral-medium-latest",
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": [
                        { "type": "thinking", "thinking": [{ "type": "text", "text": "let me think" }] },
                        { "type": "text", "text": "{\"ok\":true}" }
                    ]
                },
                "finish_reason": "model_length"
            }]
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"ok\":true}"), Some("model_length"))
        );
    }

    #[test]
    fn legacy_completion_text() {
        let response = json!({ "object": "text_completion", "choices": [{ "index": 0, "text": "{\"a\":1}", "finish_reason": "length" }] });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\":1}"), Some("length"))
        );
    }

    // ---- OpenAI Responses ----

    #[test]
    fn responses_output_text_is_preferred() {
        let response = json!({
            "object": "response",
            "status": "completed",
            "output_text": "{\"from\":\"output_text\"}",
            "output": [{
                "type": "message",
                "role": "assistant",
                "content": [{ "type": "output_text", "text": "{\"from\":\"output\"}" }]
            }]
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"from\":\"output_text\"}"), Some("completed"))
        );
    }

    #[test]
    fn responses_output_items_are_concatenated() {
        let response = json!({
            "id": "resp_1",
            "object": "response",
            "status": "incomplete",
            "incomplete_details": { "reason": "max_output_tokens" },
            "output": [
                { "type": "reasoning", "id": "rs_1", "summary": [{ "type": "summary_text", "text": "thinking" }] },
                {
                    "type": "message",
                    "id": "msg_1",
                    "role": "assistant",
                    "content": [
                        { "type": "output_text", "text": "{\"a\":", "annotations": [] },
                        { "type": "output_text", "text": "[1,", "annotations": [] }
                    ]
                },
                { "type": "function_call", "name": "f", "arguments": "{}", "call_id": "c1" }
            ]
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\":[1,"), Some("max_output_tokens"))
        );
    }

    #[test]
    fn responses_refusal_is_none() {
        let response = json!({
            "object": "response",
            "status": "completed",
            "output": [{
                "type": "message",
                "role": "assistant",
                "content": [{ "type": "refusal", "refusal": "I can't help with that." }]
            }]
        });
        assert_eq!(read_output(&response), output(None, Some("completed")));
    }

    #[test]
    fn responses_content_filter() {
        let response = json!({
            "object": "response",
            "status": "incomplete",
            "incomplete_details": { "reason": "content_filter" },
            "output": []
        });
        assert_eq!(read_output(&response), output(None, Some("content_filter")));
    }

    // ---- Anthropic Messages ----

    #[test]
    fn anthropic_text_blocks_only() {
        let response = json!({
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [
                { "type": "thinking", "thinking": "The user wants JSON.", "signature": "sig" },
                { "type": "redacted_thinking", "data": "xyz" },
                { "type": "text", "text": "{\"name\":" },
                { "type": "tool_use", "id": "toolu_1", "name": "lookup", "input": { "text": "no" } },
                { "type": "text", "text": "\"Ada\"}" }
            ],
            "stop_reason": "end_turn",
            "stop_sequence": null,
            "usage": { "input_tokens": 10, "output_tokens": 20 }
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"name\":\"Ada\"}"), Some("end_turn"))
        );
    }

    #[test]
    fn anthropic_tool_use_only_is_none() {
        let response = json!({
            "type": "message",
            "content": [{ "type": "tool_use", "id": "toolu_1", "name": "f", "input": {} }],
            "stop_reason": "tool_use"
        });
        assert_eq!(read_output(&response), output(None, Some("tool_use")));
    }

    #[test]
    fn anthropic_max_tokens() {
        let response = json!({
            "type": "message",
            "content": [{ "type": "text", "text": "{\"a\":[1,2" }],
            "stop_reason": "max_tokens"
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\":[1,2"), Some("max_tokens"))
        );
    }

    // ---- Gemini ----

    #[test]
    fn gemini_thought_parts_are_skipped() {
        let response = json!({
            "candidates": [{
                "content": {
                    "role": "model",
                    "parts": [
                        { "text": "Planning the answer", "thought": true },
                        { "text": "{\"a\":" },
                        { "text": "1}", "thought": false }
                    ]
                },
                "finishReason": "STOP",
                "index": 0
            }],
            "usageMetadata": { "promptTokenCount": 4, "candidatesTokenCount": 5, "thoughtsTokenCount": 30 }
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\":1}"), Some("STOP"))
        );
    }

    #[test]
    fn gemini_max_tokens() {
        let response = json!({
            "candidates": [{ "content": { "role": "model", "parts": [{ "text": "{\"a\":" }] }, "finishReason": "MAX_TOKENS" }]
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\":"), Some("MAX_TOKENS"))
        );
    }

    #[test]
    fn gemini_blocked_candidate_has_no_content() {
        let response = json!({
            "candidates": [{ "finishReason": "SAFETY", "safetyRatings": [], "index": 0 }]
        });
        assert_eq!(read_output(&response), output(None, Some("SAFETY")));
    }

    #[test]
    fn gemini_only_thoughts_is_none() {
        let response = json!({
            "candidates": [{ "content": { "parts": [{ "text": "hmm", "thought": true }] }, "finishReason": "MAX_TOKENS" }]
        });
        assert_eq!(read_output(&response), output(None, Some("MAX_TOKENS")));
    }

    // ---- Bedrock Converse ----

    #[test]
    fn bedrock_text_blocks() {
        let response = json!({
            "output": {
                "message": {
                    "role": "assistant",
                    "content": [
                        { "reasoningContent": { "reasoningText": { "text": "thinking", "signature": "s" } } },
                        { "text": "{\"a\":" },
                        { "toolUse": { "toolUseId": "t1", "name": "f", "input": {} } },
                        { "text": "true}" }
                    ]
                }
            },
            "stopReason": "end_turn",
            "usage": { "inputTokens": 3, "outputTokens": 4, "totalTokens": 7 },
            "metrics": { "latencyMs": 120 }
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\":true}"), Some("end_turn"))
        );
    }

    #[test]
    fn bedrock_max_tokens() {
        let response = json!({
            "output": { "message": { "role": "assistant", "content": [{ "text": "{\"a\"" }] } },
            "stopReason": "max_tokens"
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"a\""), Some("max_tokens"))
        );
    }

    // ---- Cohere v2 ----

    #[test]
    fn cohere_text_parts() {
        let response = json!({
            "id": "c14c80c3",
            "finish_reason": "COMPLETE",
            "message": {
                "role": "assistant",
                "content": [
                    { "type": "thinking", "thinking": "first" },
                    { "type": "text", "text": "{\"x\":1}" }
                ]
            },
            "usage": { "billed_units": { "input_tokens": 5, "output_tokens": 5 } }
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"x\":1}"), Some("COMPLETE"))
        );
    }

    #[test]
    fn cohere_max_tokens() {
        let response = json!({
            "finish_reason": "MAX_TOKENS",
            "message": { "role": "assistant", "content": [{ "type": "text", "text": "{\"x\":" }] }
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"x\":"), Some("MAX_TOKENS"))
        );
    }

    // ---- Ollama ----

    #[test]
    fn ollama_chat() {
        let response = json!({
            "model": "llama3.2",
            "created_at": "2026-01-01T00:00:00Z",
            "message": { "role": "assistant", "content": "{\"y\":2}", "thinking": "hmm" },
            "done": true,
            "done_reason": "stop",
            "eval_count": 7
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"y\":2}"), Some("stop"))
        );
    }

    #[test]
    fn ollama_generate() {
        let response = json!({
            "model": "llama3.2",
            "response": "{\"y\":",
            "thinking": "hmm",
            "done": true,
            "done_reason": "length"
        });
        assert_eq!(
            read_output(&response),
            output(Some("{\"y\":"), Some("length"))
        );
    }

    // ---- Vercel AI SDK ----

    #[test]
    fn vercel_text_result() {
        let result = json!({
            "text": "{\"z\":3}",
            "finishReason": "stop",
            "usage": { "inputTokens": 5, "outputTokens": 5, "totalTokens": 10 },
            "response": { "id": "r1", "modelId": "gpt-4.1", "messages": [] }
        });
        assert_eq!(
            read_output(&result),
            output(Some("{\"z\":3}"), Some("stop"))
        );
    }

    #[test]
    fn vercel_content_parts_skip_reasoning() {
        let result = json!({
            "content": [
                { "type": "reasoning", "text": "thinking it over" },
                { "type": "text", "text": "{\"z\":" },
                { "type": "tool-call", "toolCallId": "t", "toolName": "f", "input": {} }
            ],
            "text": "{\"z\":",
            "reasoningText": "thinking it over",
            "finishReason": { "unified": "length", "raw": "max_tokens" }
        });
        assert_eq!(
            read_output(&result),
            output(Some("{\"z\":"), Some("length"))
        );
    }

    // ---- executor traces ----

    #[test]
    fn trace_reason_with_content() {
        let given = json!({
            "content": "{\"a\":1}",
            "finishReason": "stop",
            "timing": { "timeSegments": [
                { "type": "model", "finishReason": "length" },
                { "type": "tool" }
            ] }
        });
        assert_eq!(
            read_output(&given),
            output(Some("{\"a\":1}"), Some("length"))
        );
    }

    // ---- nothing readable ----

    #[test]
    fn unreadable_outputs_are_empty() {
        for given in [
            Value::Null,
            json!(42),
            json!(false),
            json!({}),
            json!([]),
            json!([1, 2, 3]),
            json!({ "content": 5 }),
            json!({ "content": { "text": "x" } }),
            json!({ "choices": [] }),
            json!({ "choices": [{ "message": { "content": 5 } }] }),
            json!({ "choices": [{ "message": {} }] }),
            json!({ "choices": "x" }),
            json!({ "output": "x" }),
            json!({ "output": [1, { "type": "message", "content": "x" }] }),
            json!({ "candidates": [{ "content": { "parts": "x" } }] }),
            json!({ "candidates": [] }),
            json!({ "message": { "content": 5 } }),
            json!({ "response": 5, "text": ["a"] }),
            json!({ "content": [{ "type": "text", "text": 5 }, { "type": 5, "text": "x" }, "plain"] }),
        ] {
            assert_eq!(read_output(&given), ModelOutput::default(), "{given}");
        }
    }

    #[test]
    fn finish_reason_without_content() {
        let given = json!({ "finishReason": "length" });
        assert_eq!(read_output(&given), output(None, Some("length")));
    }
}

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
use crate::json_view::JsonRef;

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
    from_parts(
        output.at_path(&["output", "message", "content"]),
        &mut calls,
    );
    from_parts(
        output.at_path(&["candidates", "0", "content", "parts"]),
        &mut calls,
    );
    // Responses: function_call items sit in `output` beside the message.
    from_parts(output.member("output").filter(|o| o.is_array()), &mut calls);
    for message in [
        output.at_path(&["choices", "0", "message"]),
        output.member("message"),
    ]
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

/// The tool calls of a response as the facade reads them, with the finish
/// reason: each call's arguments as text, or, when they are a reference to
/// one of `texts` strings the facade holds, its index (`text`).
pub struct CallsRead {
    finish_reason: Option<String>,
    calls: Vec<CallRead>,
}

struct CallRead {
    id: Option<String>,
    name: String,
    text: Option<usize>,
    arguments: Option<String>,
}

impl CallsRead {
    /// The calls of `response`, a response or a reader's copy of one whose
    /// references stand for `texts` strings.
    pub fn of(response: JsonRef<'_>, texts: usize) -> CallsRead {
        let calls = read_tool_calls(response)
            .into_iter()
            .map(|call| {
                let text = text_reference(&call.arguments, texts);
                let arguments = match text {
                    Some(_) => None,
                    None => Some(call.arguments.text().unwrap_or_default()),
                };
                CallRead {
                    id: call.id,
                    name: call.name,
                    text,
                    arguments,
                }
            })
            .collect();
        CallsRead {
            finish_reason: finish_reason_of(response),
            calls,
        }
    }

    /// The calls of a response the facade read as the lane for a response
    /// object reads one: `whole` holds the strings, then at `copy_start`
    /// the copy (see `crate::providers::read::split_texts`). `None` when it
    /// cannot be read so.
    pub fn of_copy(whole: &str, copy_start: usize) -> Option<CallsRead> {
        let (texts, copy_text) = crate::providers::read::split_texts(whole, copy_start)?;
        // Read in place: a `Value` of the copy cost several times the reading.
        let copy = hot_path::tape::parse(copy_text).ok()?;
        let root = hot_path::tape::TapeNode::full(&copy);
        Some(CallsRead::of(root.into(), texts.len()))
    }

    /// As JSON text: `{ finishReason, calls: [{ id, name, text | arguments }] }`,
    /// written by hand (serde_json's writer cost more than reading the calls).
    pub fn to_json(&self) -> String {
        use hot_path::json_text::{push_json_opt, push_json_str, push_usize};
        let mut out = String::with_capacity(64 + 48 * self.calls.len());
        out.push_str("{\"finishReason\":");
        push_json_opt(&mut out, self.finish_reason.as_deref());
        out.push_str(",\"calls\":[");
        for (i, call) in self.calls.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"id\":");
            push_json_opt(&mut out, call.id.as_deref());
            out.push_str(",\"name\":");
            push_json_str(&mut out, &call.name);
            if let Some(index) = call.text {
                out.push_str(",\"text\":");
                push_usize(&mut out, index);
            }
            if let Some(arguments) = &call.arguments {
                out.push_str(",\"arguments\":");
                push_json_str(&mut out, arguments);
            }
            out.push('}');
        }
        out.push_str("]}");
        out
    }
}

/// The string a call's arguments refer to, where the facade put a
/// reference (it never sends a value of that form as it is, see
/// js/tool-calls.mjs).
fn text_reference(arguments: &ToolArguments, count: usize) -> Option<usize> {
    match arguments {
        ToolArguments::Value(value) => crate::providers::read::reference_index(value, count),
        _ => None,
    }
}

/// What was last read of a response copy that refers to a number of texts:
/// that number, the index of the answer's text and the finish reason.
type Answer = (usize, usize, Option<std::rc::Rc<str>>);

thread_local! {
    /// The recent reads of response copies (up to 16, of up to 1 KiB). A
    /// copy holds no text, only references to it, so one provider's
    /// responses make the same few copies (one per finish reason) call after
    /// call, and their read is not parsed again.
    static ANSWERS: std::cell::RefCell<crate::read_memo::ReadMemo<Answer>> =
        const { std::cell::RefCell::new(crate::read_memo::ReadMemo::new(16, 1024)) };
}

/// The index of the answer's text and the finish reason in the copy
/// `copy_text` that refers to `texts` texts, as `read_output` reads them;
/// `None` when the answer is not one of the texts, or the copy cannot be
/// read. The lane and a guarded call's step read responses through it.
pub fn answer_of(copy_text: &str, texts: usize) -> Option<(usize, Option<std::rc::Rc<str>>)> {
    let read = || {
        let mut copy = serde_json::from_slice(copy_text.as_bytes()).ok()?;
        crate::providers::read::stand_in(&mut copy, texts)?;
        let read = read_output(&copy);
        let index = read
            .content
            .as_deref()
            .and_then(crate::providers::read::text_index)?;
        (index < texts).then(|| (texts, index, read.finish_reason.map(Into::into)))
    };
    let answer = crate::read_memo::remembered(
        &ANSWERS,
        copy_text,
        |answer| answer.0 == texts,
        || read().ok_or(()),
    );
    answer.ok().map(|(_, index, reason)| (index, reason))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests;

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{json, Value};

use super::*;

/// What the walk of the module documentation reads of one event, done
/// here over JSON values: `(reader, text, finish, usage, error)`.
#[derive(Debug, PartialEq)]
struct Read {
    reader: &'static str,
    text: Option<String>,
    finish: Option<String>,
    usage: Option<Value>,
    error: Option<Value>,
}

fn walk<'a>(value: &'a Value, path: Path, out: &mut Vec<&'a Value>) {
    let Some((step, rest)) = path.split_first() else {
        out.push(value);
        return;
    };
    match step {
        Member(name) => {
            if let Some(v) = value.get(name) {
                walk(v, rest, out);
            }
        }
        First => {
            if let Some(v) = value.as_array().and_then(|a| a.first()) {
                walk(v, rest, out);
            }
        }
        EachUnless(flag) => {
            for v in value.as_array().into_iter().flatten() {
                if v.get(flag) != Some(&Value::Bool(true)) {
                    walk(v, rest, out);
                }
            }
        }
    }
}

fn string_at(event: &Value, paths: &[Path]) -> Option<String> {
    paths.iter().find_map(|path| {
        let mut found = Vec::new();
        walk(event, path, &mut found);
        let texts: Vec<&str> = found.iter().filter_map(|v| v.as_str()).collect();
        let joined = texts.concat();
        (!joined.is_empty()).then_some(joined)
    })
}

fn read(event: &Value) -> Option<Read> {
    let r = READERS.iter().find(|r| {
        r.when.iter().all(|(path, expect)| {
            let mut found = Vec::new();
            walk(event, path, &mut found);
            found.first().is_some_and(|v| match expect {
                Expect::Is(word) => v.as_str() == Some(*word),
                Expect::OneOf(words) => v.as_str().is_some_and(|s| words.contains(&s)),
                Expect::Array => v.is_array(),
                Expect::Object => v.is_object(),
            })
        })
    })?;
    let usage = r.usage.iter().find_map(|path| {
        let mut found = Vec::new();
        walk(event, path, &mut found);
        found
            .first()
            .filter(|v| v.is_object())
            .map(|v| (*v).clone())
    });
    let error = r.error.map(|path| {
        let mut found = Vec::new();
        walk(event, path, &mut found);
        found
            .first()
            .map_or_else(|| event.clone(), |v| (*v).clone())
    });
    Some(Read {
        reader: r.name,
        text: string_at(event, r.text),
        finish: string_at(event, r.finish),
        usage,
        error,
    })
}

fn text(event: Value) -> Option<String> {
    read(&event).and_then(|r| r.text)
}

#[test]
fn openai_chat_chunks() {
    let delta = json!({ "id": "c", "object": "chat.completion.chunk", "choices": [{ "index": 0, "delta": { "content": "{\"a\"" }, "finish_reason": null }] });
    assert_eq!(text(delta), Some("{\"a\"".into()));
    let last = json!({ "object": "chat.completion.chunk", "choices": [{ "index": 0, "delta": {}, "finish_reason": "length" }] });
    assert_eq!(read(&last).unwrap().finish.as_deref(), Some("length"));
    let usage = json!({ "object": "chat.completion.chunk", "choices": [], "usage": { "prompt_tokens": 3 } });
    let r = read(&usage).unwrap();
    assert_eq!(
        (r.text, r.usage),
        (None, Some(json!({ "prompt_tokens": 3 })))
    );
    // Usage is null on every chunk but the last: no report.
    let plain = json!({ "choices": [{ "delta": { "content": "x" } }], "usage": null });
    assert_eq!(read(&plain).unwrap().usage, None);
}

#[test]
fn openai_responses_events() {
    assert_eq!(
        text(json!({ "type": "response.output_text.delta", "delta": "{}", "item_id": "m" })),
        Some("{}".into())
    );
    // Other deltas (a refusal, a function call's arguments) are not the answer.
    assert_eq!(
        read(&json!({ "type": "response.refusal.delta", "delta": "no" })),
        None
    );
    let incomplete = json!({ "type": "response.incomplete", "response": { "status": "incomplete", "incomplete_details": { "reason": "max_output_tokens" }, "usage": { "output_tokens": 9 } } });
    let r = read(&incomplete).unwrap();
    assert_eq!(r.finish.as_deref(), Some("max_output_tokens"));
    assert_eq!(r.usage, Some(json!({ "output_tokens": 9 })));
    let done = json!({ "type": "response.completed", "response": { "status": "completed", "incomplete_details": null, "usage": {} } });
    assert_eq!(read(&done).unwrap().finish.as_deref(), Some("completed"));
}

#[test]
fn anthropic_message_stream_events() {
    let start = json!({ "type": "message_start", "message": { "usage": { "input_tokens": 25, "output_tokens": 1 } } });
    assert_eq!(
        read(&start).unwrap().usage,
        Some(json!({ "input_tokens": 25, "output_tokens": 1 }))
    );
    assert_eq!(
        text(
            json!({ "type": "content_block_delta", "index": 0, "delta": { "type": "text_delta", "text": "{" } })
        ),
        Some("{".into())
    );
    // Thinking and a tool's JSON are not the answer's text.
    assert_eq!(
        read(
            &json!({ "type": "content_block_delta", "delta": { "type": "thinking_delta", "thinking": "hm" } })
        ),
        None
    );
    assert_eq!(
        read(
            &json!({ "type": "content_block_delta", "delta": { "type": "input_json_delta", "partial_json": "{" } })
        )
        .and_then(|r| r.text),
        None
    );
    let delta = json!({ "type": "message_delta", "delta": { "stop_reason": "max_tokens" }, "usage": { "output_tokens": 15 } });
    let r = read(&delta).unwrap();
    assert_eq!(
        (r.finish.as_deref(), r.usage),
        (Some("max_tokens"), Some(json!({ "output_tokens": 15 })))
    );
    assert_eq!(read(&json!({ "type": "ping" })), None);
}

#[test]
fn gemini_chunks_skip_thoughts() {
    let chunk = json!({
        "candidates": [{ "content": { "parts": [{ "text": "plan", "thought": true }, { "text": "{\"a\"" }, { "text": ":1" }] }, "finishReason": "MAX_TOKENS" }],
        "usageMetadata": { "promptTokenCount": 4 }
    });
    let r = read(&chunk).unwrap();
    assert_eq!(r.text.as_deref(), Some("{\"a\":1"));
    assert_eq!(r.finish.as_deref(), Some("MAX_TOKENS"));
    assert_eq!(r.usage, Some(json!({ "promptTokenCount": 4 })));
}

#[test]
fn ai_sdk_full_stream_parts() {
    assert_eq!(
        text(json!({ "type": "text-delta", "id": "0", "text": "{" })),
        Some("{".into())
    );
    assert_eq!(
        text(json!({ "type": "text-delta", "textDelta": "}" })),
        Some("}".into())
    );
    assert_eq!(
        read(&json!({ "type": "reasoning-delta", "id": "r", "text": "hm" })),
        None
    );
    let finish = json!({ "type": "finish", "finishReason": "length", "rawFinishReason": "length", "totalUsage": { "inputTokens": 3 } });
    let r = read(&finish).unwrap();
    assert_eq!(
        (r.finish.as_deref(), r.usage),
        (Some("length"), Some(json!({ "inputTokens": 3 })))
    );
    let unified = json!({ "type": "finish", "finishReason": { "unified": "stop", "raw": "end_turn" }, "usage": { "inputTokens": 1 } });
    assert_eq!(read(&unified).unwrap().finish.as_deref(), Some("stop"));
    let error = json!({ "type": "error", "error": { "message": "overloaded" } });
    assert_eq!(
        read(&error).unwrap().error,
        Some(json!({ "message": "overloaded" }))
    );
}

#[test]
fn the_table_as_the_reader_loads_it() {
    let table: Value = serde_json::from_str(&stream_readers_json()).unwrap();
    let readers = table.as_array().unwrap();
    assert_eq!(readers.len(), READERS.len());
    assert_eq!(readers[0]["when"], json!([[["choices"], true]]));
    assert_eq!(
        readers[0]["text"],
        json!([["choices", 0, "delta", "content"]])
    );
    let gemini = readers
        .iter()
        .find(|r| r["name"] == "gemini_chunk")
        .unwrap();
    assert_eq!(
        gemini["text"],
        json!([["candidates", 0, "content", "parts", { "each": "thought" }, "text"]])
    );
    assert_eq!(gemini["calls"]["whole"], json!([["functionCall", "args"]]));
    assert_eq!(
        readers
            .iter()
            .find(|r| r["name"] == "openai_responses_done")
            .unwrap()["when"][0][1],
        json!([
            "response.completed",
            "response.incomplete",
            "response.failed"
        ])
    );
    let error = readers
        .iter()
        .find(|r| r["name"] == "ai_sdk_error")
        .unwrap();
    assert_eq!(error["error"], json!(["error"]));
    assert!(readers[1].get("error").is_none());
}

/// The tool-call pieces an event carries, as the wrapper's walk reads them:
/// `(reader, [(key, name, arguments, whole)])`.
type Piece = (Option<Value>, Option<String>, Option<String>, Option<Value>);

fn calls_of(event: &Value) -> (&'static str, Vec<Piece>) {
    let Some(r) = READERS.iter().find(|r| {
        r.when.iter().all(|(path, expect)| {
            let mut found = Vec::new();
            walk(event, path, &mut found);
            found.first().is_some_and(|v| match expect {
                Expect::Is(word) => v.as_str() == Some(*word),
                Expect::OneOf(words) => v.as_str().is_some_and(|s| words.contains(&s)),
                Expect::Array => v.is_array(),
                Expect::Object => v.is_object(),
            })
        })
    }) else {
        return ("", Vec::new());
    };
    let Some(c) = r.calls else {
        return (r.name, Vec::new());
    };
    let mut lists = Vec::new();
    walk(event, c.list, &mut lists);
    let elements: Vec<&Value> = match (c.list.is_empty(), lists.first()) {
        (true, _) => vec![event],
        (false, Some(Value::Array(items))) => items.iter().collect(),
        (false, Some(one)) => vec![*one],
        (false, None) => Vec::new(),
    };
    let first = |v: &Value, paths: &[Path]| {
        paths.iter().find_map(|path| {
            let mut found = Vec::new();
            walk(v, path, &mut found);
            found.first().map(|v| (*v).clone())
        })
    };
    let pieces = elements
        .into_iter()
        .map(|e| {
            let key = if c.key.is_empty() {
                None
            } else {
                first(e, &[c.key])
            };
            (
                key,
                first(e, c.name).and_then(|v| v.as_str().map(str::to_owned)),
                first(e, c.arguments).and_then(|v| v.as_str().map(str::to_owned)),
                first(e, c.whole),
            )
        })
        .filter(|(key, name, arguments, whole)| {
            key.is_some() || name.is_some() || arguments.is_some() || whole.is_some()
        })
        .collect();
    (r.name, pieces)
}

#[test]
fn tool_call_pieces_of_every_provider() {
    let s = |t: &str| Some(t.to_owned());
    // OpenAI Chat: interleaved by index, the name in the first delta.
    let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "a", "arguments": ""}},
        {"index": 1, "function": {"arguments": "{\"x\""}}
    ]}, "finish_reason": null}]});
    assert_eq!(
        calls_of(&chunk),
        (
            "openai_chat_chunk",
            vec![
                (Some(json!(0)), s("a"), s(""), None),
                (Some(json!(1)), None, s("{\"x\""), None)
            ]
        )
    );
    assert_eq!(
        read(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))
            .unwrap()
            .finish,
        s("tool_calls")
    );
    // Responses: the item, then its arguments by output_index.
    let added = json!({"type": "response.output_item.added", "output_index": 1, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "a", "arguments": ""}});
    assert_eq!(
        calls_of(&added).1,
        vec![(Some(json!(1)), s("a"), s(""), None)]
    );
    let delta = json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": "{\"x\":"});
    assert_eq!(
        calls_of(&delta).1,
        vec![(Some(json!(1)), None, s("{\"x\":"), None)]
    );
    // A message item is no call.
    let message = json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "message"}});
    assert!(calls_of(&message).1.is_empty());
    // Anthropic: tool_use blocks by index.
    let start = json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "a", "input": {}}});
    assert_eq!(
        calls_of(&start),
        (
            "anthropic_tool_use_start",
            vec![(Some(json!(1)), s("a"), None, None)]
        )
    );
    let input = json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"x"}});
    assert_eq!(
        calls_of(&input).1,
        vec![(Some(json!(1)), None, s("{\"x"), None)]
    );
    // Bedrock ConverseStream.
    let start = json!({"contentBlockStart": {"start": {"toolUse": {"toolUseId": "t1", "name": "a"}}, "contentBlockIndex": 0}});
    assert_eq!(
        calls_of(&start),
        (
            "bedrock_content_block_start",
            vec![(Some(json!(0)), s("a"), None, None)]
        )
    );
    let delta = json!({"contentBlockDelta": {"delta": {"toolUse": {"input": "{\"x\":1}"}}, "contentBlockIndex": 0}});
    assert_eq!(
        calls_of(&delta).1,
        vec![(Some(json!(0)), None, s("{\"x\":1}"), None)]
    );
    assert_eq!(
        read(&json!({"contentBlockDelta": {"delta": {"text": "hi"}, "contentBlockIndex": 0}}))
            .unwrap()
            .text,
        s("hi")
    );
    assert_eq!(
        read(&json!({"messageStop": {"stopReason": "tool_use"}}))
            .unwrap()
            .finish,
        s("tool_use")
    );
    assert_eq!(
        read(&json!({"metadata": {"usage": {"inputTokens": 3, "outputTokens": 4}}}))
            .unwrap()
            .usage,
        Some(json!({"inputTokens": 3, "outputTokens": 4}))
    );
    // Gemini: whole calls, no key.
    let chunk = json!({"candidates": [{"content": {"parts": [{"text": "x"}, {"functionCall": {"name": "a", "args": {"x": 1}}}]}, "finishReason": "STOP"}]});
    assert_eq!(
        calls_of(&chunk).1,
        vec![(None, s("a"), None, Some(json!({"x": 1})))]
    );
    // The AI SDK.
    assert_eq!(
        calls_of(&json!({"type": "tool-input-start", "id": "c1", "toolName": "a"})).1,
        vec![(Some(json!("c1")), s("a"), None, None)]
    );
    assert_eq!(
        calls_of(&json!({"type": "tool-input-delta", "id": "c1", "delta": "{"})).1,
        vec![(Some(json!("c1")), None, s("{"), None)]
    );
    assert_eq!(
        calls_of(&json!({"type": "tool-input-end", "id": "c1"})),
        (
            "ai_sdk_tool_input_end",
            vec![(Some(json!("c1")), None, None, None)]
        )
    );
    assert_eq!(
        calls_of(&json!({"type": "content_block_stop", "index": 1})),
        (
            "anthropic_content_block_stop",
            vec![(Some(json!(1)), None, None, None)]
        )
    );
    assert!(
        READERS
            .iter()
            .filter_map(|r| r.calls)
            .filter(|c| c.ends)
            .count()
            >= 5
    );
    assert_eq!(
        calls_of(
            &json!({"type": "tool-call", "toolCallId": "c1", "toolName": "a", "input": {"x": 1}})
        )
        .1,
        vec![(Some(json!("c1")), s("a"), None, Some(json!({"x": 1})))]
    );
}

#[test]
fn a_tool_block_that_ends_with_no_argument_text_has_an_empty_object() {
    // Anthropic's `tool_use` and Bedrock's `toolUse` blocks of a tool called
    // without arguments stream no input (or an empty piece); the whole
    // response gives them `{}`.
    let empty_of = |event: Value| {
        let name = calls_of(&event).0;
        READERS
            .iter()
            .find(|r| r.name == name)
            .and_then(|r| r.calls)
            .and_then(|c| c.empty)
    };
    assert_eq!(
        empty_of(json!({"type": "content_block_stop", "index": 1})),
        Some("{}")
    );
    assert_eq!(
        empty_of(json!({"contentBlockStop": {"contentBlockIndex": 0}})),
        Some("{}")
    );
    // A call whose arguments stream as text says so itself: "" is none.
    for event in [
        json!({"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": ""}),
        json!({"type": "tool-input-end", "id": "c1"}),
        json!({"contentBlockStart": {"start": {"toolUse": {"toolUseId": "t1", "name": "a"}}, "contentBlockIndex": 0}}),
    ] {
        assert_eq!(empty_of(event), None);
    }
    let table: Value = serde_json::from_str(&stream_readers_json()).unwrap();
    let calls_of_reader = |name: &str| {
        table
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap()["calls"]
            .clone()
    };
    assert_eq!(
        calls_of_reader("bedrock_content_block_stop")["empty"],
        json!("{}")
    );
    assert_eq!(
        calls_of_reader("anthropic_content_block_stop")["empty"],
        json!("{}")
    );
    assert!(calls_of_reader("ai_sdk_tool_input_end")
        .get("empty")
        .is_none());
}

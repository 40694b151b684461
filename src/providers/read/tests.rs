//! The plans cover what the readers read: for every response shape the core
//! reads, reading the copy a plan makes gives exactly what reading the whole
//! response gives. `prune` is the copy the JavaScript reader makes, written
//! over JSON values.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use crate::finish::finish_reason_of;
use crate::response::{answer_of, read_output, read_tool_calls};
use hot_path::usage::normalize_usage;
use serde_json::{json, Map, Value};

fn prune(value: &Value, node: &Node) -> Value {
    prune_as(value, node, true)
}

/// The copy as the reader makes it of a class instance (`lazy`: members in
/// plan order, `unless` observed) or of a plain object (every listed member
/// that is there).
fn prune_as(value: &Value, node: &Node, lazy: bool) -> Value {
    if node.whole {
        return value.clone();
    }
    match value {
        Value::Array(items) => {
            if node.deep {
                return deep(value, 0);
            }
            if let Some(each) = node.each {
                Value::Array(
                    items
                        .iter()
                        .map(|item| prune_as(item, each, lazy))
                        .collect(),
                )
            } else if let Some(first) = node.first {
                Value::Array(
                    items
                        .first()
                        .map(|item| prune_as(item, first, lazy))
                        .into_iter()
                        .collect(),
                )
            } else {
                Value::Array(Vec::new())
            }
        }
        Value::Object(map) => {
            if node.deep {
                return deep(value, 0);
            }
            if node
                .members_alone_with
                .iter()
                .any(|name| map.get(*name).is_some_and(Value::is_object))
            {
                let mut out = Map::new();
                members_into(&mut out, map, node, lazy);
                return Value::Object(out);
            }
            let present: Vec<&str> = node
                .deep_unless
                .iter()
                .copied()
                .filter(|marker| map.contains_key(*marker))
                .collect();
            if !node.deep_unless.is_empty() && present.is_empty() {
                return deep(value, 0);
            }
            let mut out = Map::new();
            if node.primitives {
                for (key, member) in map {
                    if !member.is_object() && !member.is_array() {
                        out.insert(key.clone(), member.clone());
                    }
                }
            }
            for marker in present {
                out.entry(marker.to_owned()).or_insert(Value::Null);
            }
            members_into(&mut out, map, node, lazy);
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// The node's `members` of `map`, copied into `out`.
fn members_into(out: &mut Map<String, Value>, map: &Map<String, Value>, node: &Node, lazy: bool) {
    for (key, child) in node.members {
        let skipped = lazy
            && node.unless.iter().any(|(name, others)| {
                name == key
                    && others.iter().any(|other| {
                        out.get(*other).is_some_and(|copied| match copied {
                            Value::Array(items) => !items.is_empty(),
                            Value::String(_) => node
                                .members
                                .iter()
                                .any(|(name, child)| name == other && child.text),
                            _ => true,
                        })
                    })
            });
        if skipped {
            continue;
        }
        if let Some(member) = map.get(*key) {
            out.insert((*key).to_owned(), prune_as(member, child, lazy));
        }
    }
}

fn deep(value: &Value, depth: usize) -> Value {
    match value {
        Value::Array(items) if depth < DEEP_LIMIT => {
            Value::Array(items.iter().map(|item| deep(item, depth + 1)).collect())
        }
        Value::Object(map) if depth < DEEP_LIMIT => Value::Object(
            map.iter()
                .map(|(key, member)| (key.clone(), deep(member, depth + 1)))
                .collect(),
        ),
        Value::Array(_) | Value::Object(_) => Value::Null,
        other => other.clone(),
    }
}

/// A member no plan lists, which a reader must never need.
fn with_decoys(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        map.insert(
            "request".into(),
            json!({ "body": { "messages": [{ "content": "secret prompt" }] } }),
        );
        map.insert("headers".into(), json!({ "x-request-id": "abc" }));
        map.insert(
            "providerExtension".into(),
            json!({ "a": { "b": { "c": [1, 2, 3] } } }),
        );
    }
    value
}

fn responses() -> Vec<Value> {
    let part = |text: &str| json!({ "type": "text", "text": text });
    vec![
        json!("{\"a\":1}"),
        json!({ "content": "{\"a\":1}", "finishReason": "stop" }),
        json!({ "content": null, "finishReason": "tool_calls" }),
        json!({ "content": null, "text": "{\"stale\":true}", "finishReason": "stop" }),
        json!([part("{\"a\":"), part("1}")]),
        json!([{ "type": "model", "finishReason": "length" }, { "type": "tool" }]),
        // OpenAI Chat, with a refusal and with a tool call.
        json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt",
            "choices": [{ "index": 0, "message": { "role": "assistant", "content": "{\"a\":1}", "refusal": null },
                          "finish_reason": "stop", "logprobs": null }],
            "usage": { "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                       "prompt_tokens_details": { "cached_tokens": 2, "audio_tokens": 0 },
                       "completion_tokens_details": { "reasoning_tokens": 1 } },
            "system_fingerprint": "fp"
        }),
        json!({ "choices": [{ "message": { "content": null, "tool_calls": [{ "id": "t" }] }, "finish_reason": "tool_calls" },
                            { "message": { "content": "second" } }] }),
        json!({ "choices": [{ "text": "{\"a\":1}", "finish_reason": "length" }] }),
        json!({ "choices": [{ "message": { "content": [part("{\"a\":1}")] }, "finish_reason": null, "native_finish_reason": "MAX_TOKENS" }] }),
        json!({ "choices": [] , "text": "x" }),
        // OpenAI Responses.
        json!({
            "id": "resp_1", "object": "response", "status": "incomplete",
            "incomplete_details": { "reason": "max_output_tokens" },
            "output": [
                { "type": "reasoning", "summary": [{ "type": "summary_text", "text": "thinking" }] },
                { "type": "message", "role": "assistant", "content": [{ "type": "output_text", "text": "{\"a\":", "annotations": [] }] }
            ],
            "usage": { "input_tokens": 3, "output_tokens": 4, "total_tokens": 7,
                       "input_tokens_details": { "cached_tokens": 1 }, "output_tokens_details": { "reasoning_tokens": 2 } }
        }),
        json!({ "object": "response", "status": "completed", "output_text": "{\"a\":1}", "output": [] }),
        // Anthropic Messages, with thinking.
        json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
            "content": [{ "type": "thinking", "thinking": "hm", "signature": "s" }, part("{\"a\":1}")],
            "stop_reason": "max_tokens", "stop_sequence": null,
            "usage": { "input_tokens": 5, "output_tokens": 6, "cache_read_input_tokens": 1,
                       "cache_creation_input_tokens": 2, "server_tool_use": { "web_search_requests": 1 } }
        }),
        // Gemini, with a thought part.
        json!({
            "candidates": [{ "content": { "role": "model", "parts": [{ "text": "plan", "thought": true }, { "text": "{\"a\":1}" }] },
                             "finishReason": "MAX_TOKENS", "safetyRatings": [] }],
            "usageMetadata": { "promptTokenCount": 4, "candidatesTokenCount": 5, "totalTokenCount": 9,
                               "thoughtsTokenCount": 2, "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 4 }] },
            "modelVersion": "gemini"
        }),
        // Bedrock Converse.
        json!({
            "output": { "message": { "role": "assistant", "content": [{ "text": "{\"a\":1}" }] } },
            "stopReason": "max_tokens",
            "usage": { "inputTokens": 3, "outputTokens": 4, "totalTokens": 7, "cacheReadInputTokens": 1 },
            "metrics": { "latencyMs": 10 }
        }),
        // Cohere v2.
        json!({
            "id": "c", "finish_reason": "MAX_TOKENS",
            "message": { "role": "assistant", "content": [part("{\"a\":1}")] },
            "usage": { "billed_units": { "input_tokens": 3, "output_tokens": 4 }, "tokens": { "input_tokens": 5, "output_tokens": 6 } }
        }),
        json!({ "meta": { "billed_units": { "input_tokens": 1 } }, "text": "{}" }),
        // Ollama chat and generate.
        json!({ "model": "llama", "message": { "role": "assistant", "content": "{\"a\":1}" }, "done": true,
                "done_reason": "length", "prompt_eval_count": 3, "eval_count": 4, "total_duration": 100 }),
        json!({ "model": "llama", "response": "{\"a\":1}", "done": true, "done_reason": "stop", "eval_count": 2 }),
        // The Vercel AI SDK result, as its getters read.
        json!({
            "text": "{\"a\":1}", "content": [{ "type": "reasoning", "text": "why" }, part("{\"a\":1}")],
            "finishReason": { "unified": "length", "raw": "max_tokens" },
            "usage": { "inputTokens": { "total": 3, "cacheRead": 1 }, "outputTokens": { "total": 4, "reasoning": 1 }, "totalTokens": 7 }
        }),
        json!({ "text": "{}", "finishReason": "stop", "usage": { "promptTokens": 1, "completionTokens": 2, "totalTokens": 3 } }),
        // The AI SDK's generateObject result.
        json!({ "object": { "colour": "red", "deep": [[[{ "a": 1 }]]] }, "finishReason": "stop",
                "response": { "id": "r", "headers": { "h": "v" } }, "usage": { "inputTokens": 1 } }),
        json!({ "object": "red", "finishReason": "length" }),
        // The AI SDK's NoObjectGeneratedError (generateObject, streamObject,
        // Output.object): the text it could not parse or validate, with the
        // call's response metadata, usage and finish reason.
        json!({
            "name": "AI_NoObjectGeneratedError", "message": "No object generated: could not parse the response.",
            "cause": { "name": "AI_JSONParseError", "text": "Here you go: {}" },
            "text": "Here you go: {\"a\":1}",
            "response": { "id": "r", "timestamp": "2026-01-01T00:00:00.000Z", "modelId": "m", "headers": { "h": "v" } },
            "usage": { "inputTokens": 3, "outputTokens": 4, "totalTokens": 7, "inputTokenDetails": { "cacheReadTokens": 1 } },
            "finishReason": "stop"
        }),
        json!({ "text": "{}", "usage": { "inputTokens": 1, "outputTokens": 2 }, "totalUsage": { "inputTokens": 3, "outputTokens": 5 },
                "steps": [{ "text": "prompt and answer", "usage": { "inputTokens": 2 } }] }),
        // An executor's record.
        json!({
            "content": "{\"a\":1}",
            "timing": { "startTime": 1, "timeSegments": [{ "type": "model", "finishReason": "length" }, { "type": "tool", "finishReason": "stop" }] },
            "tokens": { "input": 1, "output": 2 }, "cost": { "total": 0.1 },
            "usage": { "prompt_tokens": 1 }
        }),
        json!({ "timeSegments": [{ "type": "model", "finishReason": { "unified": "stop" } }], "content": "{}" }),
        // A usage member that holds no object: the response's own numbers count.
        json!({ "model": "llama", "usage": null, "prompt_eval_count": 3, "eval_count": 4, "done": true }),
        json!({ "id": "r", "object": "chat.completion", "usage": [1], "usageMetadata": 5, "prompt_tokens": 2 }),
        // One that does: nothing beside it but the executor members.
        json!({ "usage": { "prompt_tokens": 1 }, "prompt_tokens": 5, "completion_tokens": 6, "model": "m" }),
        json!({ "usageMetadata": { "promptTokenCount": 2 }, "timing": { "startTime": 1 }, "eval_count": 9 }),
        json!({ "totalUsage": { "inputTokens": 3 }, "usage": 7, "tokens": { "input": 1 }, "id": "x" }),
        // Bare usage objects, read whole.
        json!({ "prompt_tokens": 1, "completion_tokens": 2, "prompt_tokens_details": { "cached_tokens": 1 }, "new_counter": { "x": 3 } }),
        json!({ "input_tokens": 1, "output_tokens": 2, "server_tool_use": { "web_search_requests": 2 } }),
        json!({ "promptTokenCount": 1, "candidatesTokenCount": 2, "cacheTokensDetails": [{ "modality": "TEXT", "tokenCount": 1 }] }),
        json!({ "tokens": { "input": 1 }, "cost": { "total": 2 }, "timing": { "timeSegments": [] } }),
        json!({ "status": "incomplete", "incomplete_details": { "reason": "content_filter" } }),
        // Tool calls in every shape.
        json!({ "choices": [{ "message": { "content": null, "tool_calls": [
            { "id": "call_1", "type": "function", "function": { "name": "extract", "arguments": "{\"a\":1}" } },
            { "id": "call_2", "type": "function", "function": { "name": "other", "arguments": "{}" } }] },
            "finish_reason": "tool_calls" }] }),
        json!({ "output": [
            { "type": "reasoning", "id": "rs_1", "summary": [] },
            { "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "extract", "arguments": "{\"a\":1}", "status": "completed" }] }),
        json!({ "content": [{ "type": "text", "text": "Sure." },
            { "type": "tool_use", "id": "toolu_1", "name": "extract", "input": { "a": [1, { "b": 2 }] } }], "stop_reason": "tool_use" }),
        // Arguments an SDK parsed, with numbers and strings that a reading
        // could write differently.
        json!({ "content": [{ "type": "tool_use", "id": "toolu_2", "name": "extract",
            "input": { "n": [12_345_678_901_234_567_890_u64, 1.5e300, -0.0, 0.1, 1e-7, 9_007_199_254_740_993_u64, -17],
                       "s": "a\"b\\c\n\u{1}\u{e9}\u{1f600}", "e": {}, "l": [] } }], "stop_reason": "tool_use" }),
        json!({ "output": { "message": { "content": [{ "toolUse": { "toolUseId": "t1", "name": "structured_output", "input": { "a": 1 } } }] } },
                "stopReason": "tool_use" }),
        json!({ "candidates": [{ "content": { "parts": [{ "functionCall": { "id": "g1", "name": "extract", "args": { "a": 1 } } }] },
                                 "finishReason": "STOP" }] }),
        json!({ "content": [{ "type": "tool-call", "toolCallId": "c1", "toolName": "extract", "input": { "a": 1 } }],
                "finishReason": "tool-calls" }),
        json!({ "model": "llama", "message": { "role": "assistant", "content": "",
                "tool_calls": [{ "function": { "name": "extract", "arguments": { "a": 1 } } }] }, "done": true }),
        json!({ "status": "  " }),
        json!(null),
        json!(7),
        json!({}),
    ]
}

#[test]
fn the_output_plan_reads_what_the_readers_read() {
    for response in responses() {
        for given in [response.clone(), with_decoys(response.clone())] {
            for lazy in [true, false] {
                let copy = prune_as(&given, &OUTPUT_PLAN, lazy);
                assert_eq!(
                    read_output(&copy),
                    read_output(&given),
                    "content of {given}"
                );
                assert_eq!(
                    finish_reason_of(&copy),
                    finish_reason_of(&given),
                    "finish reason of {given}"
                );
                assert_eq!(
                    read_tool_calls(&copy),
                    read_tool_calls(&given),
                    "tool calls of {given}"
                );
            }
        }
    }
}

/// `readToolCallsAt` reads the copy in place, as a tape: it must find the
/// calls and the finish reason that reading it as a `Value` finds.
#[test]
fn a_tape_reads_what_a_value_reads() {
    for response in responses() {
        for given in [response.clone(), with_decoys(response.clone())] {
            for value in [prune_as(&given, &OUTPUT_PLAN, false), given.clone()] {
                let text = value.to_string();
                let tape = hot_path::tape::parse(&text).unwrap();
                let node = hot_path::tape::TapeNode::full(&tape);
                assert_eq!(
                    finish_reason_of(node),
                    finish_reason_of(&value),
                    "finish reason of {text}"
                );
                assert_eq!(
                    read_tool_calls(node),
                    read_tool_calls(&value),
                    "tool calls of {text}"
                );
            }
        }
    }
}

#[test]
fn the_usage_plan_reads_what_normalize_usage_reads() {
    for response in responses() {
        let copy = prune(&response, &USAGE_PLAN);
        assert_eq!(
            normalize_usage(&copy),
            normalize_usage(&response),
            "usage of {response}"
        );
    }
}

#[test]
fn a_response_gives_no_content_request_or_headers_to_the_usage() {
    let response = with_decoys(json!({
        "choices": [{ "message": { "content": "the answer" } }],
        "usage": { "prompt_tokens": 1, "completion_tokens": 2 }
    }));
    let copy = prune(&response, &USAGE_PLAN);
    let text = copy.to_string();
    assert!(
        !text.contains("the answer")
            && !text.contains("secret prompt")
            && !text.contains("x-request-id"),
        "{text}"
    );
    assert_eq!(normalize_usage(&copy), normalize_usage(&response));
}

#[test]
fn a_class_instance_is_read_no_further_than_its_answer() {
    // @google/genai's `text` getter warns about non-text parts; it is not read.
    let response =
        json!({ "candidates": [{ "content": { "parts": [{ "text": "{}" }] } }], "text": "{}" });
    let copy = prune(&response, &OUTPUT_PLAN);
    assert!(copy.get("text").is_none(), "{copy}");
    assert!(prune(&json!({ "text": "{}" }), &OUTPUT_PLAN)
        .get("text")
        .is_some());
}

/// The AI SDK's NoObjectGeneratedError keeps its call's metadata in
/// `response`, an object, where Ollama keeps its answer text: its own `text`
/// is the answer.
#[test]
fn an_ai_sdk_error_is_read_for_its_text() {
    let error = json!({
        "name": "AI_NoObjectGeneratedError",
        "text": "Here you go: {}",
        "response": { "id": "r", "modelId": "m", "headers": { "h": "v" } },
        "finishReason": "stop"
    });
    let copy = prune(&error, &OUTPUT_PLAN);
    assert_eq!(
        read_output(&copy).content.as_deref(),
        Some("Here you go: {}"),
        "{copy}"
    );
    assert_eq!(read_output(&copy).finish_reason.as_deref(), Some("stop"));
}

#[test]
fn the_output_plan_leaves_unread_members_out() {
    let copy = prune(&with_decoys(json!({ "content": "x" })), &OUTPUT_PLAN);
    assert_eq!(copy, json!({ "content": "x" }));
}

#[test]
fn the_plans_serialise_for_the_reader() {
    let plans: Value = serde_json::from_str(&plans_json()).unwrap();
    assert_eq!(plans["deep_limit"], json!(DEEP_LIMIT));
    assert_eq!(plans["output"]["members"][0][0], json!("content"));
    assert_eq!(plans["output"]["members"][0][1]["text"], json!(true));
    assert_eq!(plans["usage"]["primitives"], json!(true));
    assert_eq!(plans["usage"]["deep_unless"][0], json!("id"));
    assert_eq!(
        plans["output"]["members"][1][1]["first"]["members"][0][0],
        json!("message")
    );
    assert!(plans["output"]["members"][0][1].get("deep").is_none());
}

#[test]
fn the_copy_refers_to_texts_in_the_buffer() {
    let texts = "{\"a\":1}é";
    let copy = r#"[[7,2],{"choices":[{"message":{"content":["\u0000",0]},"finish_reason":"stop"}],"text":["\u0000",1]}]"#;
    let whole = format!("{texts}{copy}");
    let (found, copy_text) = split_texts(&whole, texts.len()).unwrap();
    assert_eq!(found, vec!["{\"a\":1}", "é"]);
    let (index, reason) = answer_of(copy_text, found.len()).unwrap();
    assert_eq!(index, 0);
    assert_eq!(reason.as_deref(), Some("stop"));
    // Read again, from what was kept: the same.
    let (again, reason) = answer_of(copy_text, found.len()).unwrap();
    assert_eq!((again, reason.as_deref()), (0, Some("stop")));
    // The same copy with fewer texts than it refers to has no answer.
    assert_eq!(answer_of(copy_text, 1), None);
}

#[test]
fn joined_parts_are_not_one_text() {
    let texts = "{\"a\":1}";
    let copy = r#"[[4,3],{"content":[{"type":"text","text":["\u0000",0]},{"type":"text","text":["\u0000",1]}]}]"#;
    let whole = format!("{texts}{copy}");
    let (found, copy_text) = split_texts(&whole, texts.len()).unwrap();
    assert_eq!(found, vec!["{\"a\"", ":1}"]);
    assert_eq!(answer_of(copy_text, found.len()), None);
}

#[test]
fn a_bad_copy_is_refused() {
    // A length past the copy, a reference to no string, a copy that is not JSON.
    assert!(split_texts(r#"ab[[3],{"text":["\u0000",0]}]"#, 2).is_none());
    let (found, copy_text) = split_texts(r#"ab[[2],{"content":["\u0000",1]}]"#, 2).unwrap();
    assert_eq!(answer_of(copy_text, found.len()), None);
    assert!(split_texts(r#"ab[[2],{"text""#, 2).is_none());
    assert!(split_texts(r#"ab[[2x],{}]"#, 2).is_none());
    assert_eq!(text_index("\u{0}"), None);
    assert_eq!(text_index("\u{0}1x"), None);
    assert_eq!(text_index("1"), None);
}

#[test]
fn a_reference_is_a_pair_and_nothing_else_is_one() {
    let texts = ["the answer", "{\"a\":1}"];
    let copy: Value = serde_json::from_str(
        r#"{"content":["\u0000",0],"tool":{"input":{"\u0000":1,"list":["\u0000",1,2],"pair":["x",1]}},"args":["\u0000",1]}"#,
    )
    .unwrap();
    assert_eq!(
        with_texts(&copy, &texts).unwrap(),
        json!({ "content": "the answer", "tool": { "input": { "\u{0}": 1, "list": ["\u{0}", 1, 2], "pair": ["x", 1] } }, "args": "{\"a\":1}" })
    );
    assert_eq!(
        with_stand_ins(&copy, 2).unwrap()["content"],
        json!("\u{0}0")
    );
    // A pair naming no string, or not by a whole number, refuses the copy.
    for bad in [
        r#"["\u0000",2]"#,
        r#"["\u0000",-1]"#,
        r#"["\u0000",0.5]"#,
        r#"["\u0000","0"]"#,
    ] {
        assert!(
            with_texts(&serde_json::from_str(bad).unwrap(), &texts).is_none(),
            "{bad}"
        );
    }
}

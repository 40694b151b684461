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

#[test]
fn tool_calls_are_written_with_their_arguments_or_the_text_they_refer_to() {
    let response = json!({
        "choices": [{ "finish_reason": "tool_calls", "message": { "tool_calls": [
            { "id": "a", "type": "function", "function": { "name": "f", "arguments": "{\"x\":1}" } },
            { "type": "function", "function": { "name": "g", "arguments": ["\u{0}", 0] } }
        ] } }]
    });
    let read: Value =
        serde_json::from_str(&CallsRead::of((&response).into(), 1).to_json()).unwrap();
    assert_eq!(read["finishReason"], json!("tool_calls"));
    assert_eq!(
        read["calls"][0],
        json!({ "id": "a", "name": "f", "arguments": "{\"x\":1}" })
    );
    assert_eq!(
        read["calls"][1],
        json!({ "id": null, "name": "g", "text": 0 })
    );
    // Read from the facade's copy, the same.
    let texts = "{\"y\":2}";
    let copy = format!("[[7],{}]", response);
    let whole = format!("{texts}{copy}");
    let again = CallsRead::of_copy(&whole, texts.len()).unwrap().to_json();
    assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), read);
    assert!(CallsRead::of_copy("ab[[3]", 2).is_none());
}

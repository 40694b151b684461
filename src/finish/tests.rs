use super::*;
use serde_json::json;

fn truncated(reason: &str) -> Truncation {
    Truncation {
        truncated: true,
        finish_reason: Some(reason.to_owned()),
    }
}

fn not_truncated(reason: &str) -> Truncation {
    Truncation {
        truncated: false,
        finish_reason: Some(reason.to_owned()),
    }
}

const NONE: Truncation = Truncation {
    truncated: false,
    finish_reason: None,
};

const NOT_LIMITS: [&str; 18] = [
    "stop",
    "end_turn",
    "STOP",
    "stop_sequence",
    "tool_use",
    "tool_calls",
    "function_call",
    "content_filter",
    "SAFETY",
    "RECITATION",
    "refusal",
    "pause_turn",
    "error",
    "malformed_model_output",
    "incomplete",
    "completed",
    "COMPLETE",
    "other",
];

// ---- is_token_limit ----

#[test]
fn every_token_limit_value_is_a_limit() {
    for reason in [
        "length",
        "max_tokens",
        "max_output_tokens",
        "model_context_window_exceeded",
        "model_length",
        "MAX_TOKENS",
    ] {
        assert!(is_token_limit(reason), "{reason} should be a token limit");
    }
}

#[test]
fn token_limit_ignores_case_and_surrounding_space() {
    for reason in [
        "LENGTH",
        "Length",
        "Max_Tokens",
        "MAX_OUTPUT_TOKENS",
        "Model_Length",
        " length ",
        "\tmax_tokens\n",
    ] {
        assert!(is_token_limit(reason), "{reason:?} should be a token limit");
    }
}

#[test]
fn non_limit_values_are_not_limits() {
    for reason in NOT_LIMITS {
        assert!(!is_token_limit(reason), "{reason} is not a token limit");
    }
}

#[test]
fn near_misses_are_not_limits() {
    for reason in [
        "",
        "   ",
        "lengthy",
        "max_token",
        "max tokens",
        "len",
        "tokens",
    ] {
        assert!(!is_token_limit(reason), "{reason:?} is not a token limit");
    }
}

// ---- bare reasons ----

#[test]
fn string_source_is_the_reason() {
    assert_eq!(detect_truncation(&json!("length")), truncated("length"));
    assert_eq!(
        detect_truncation(&json!("MAX_TOKENS")),
        truncated("MAX_TOKENS")
    );
    assert_eq!(
        detect_truncation(&json!("Max_Tokens")),
        truncated("Max_Tokens")
    );
    assert_eq!(detect_truncation(&json!("stop")), not_truncated("stop"));
}

#[test]
fn every_non_limit_string_is_echoed_and_not_truncated() {
    for reason in NOT_LIMITS {
        assert_eq!(detect_truncation(&json!(reason)), not_truncated(reason));
    }
}

#[test]
fn reason_is_echoed_exactly_as_read() {
    assert_eq!(
        finish_reason_of(&json!(" LENGTH ")).as_deref(),
        Some(" LENGTH ")
    );
    assert_eq!(detect_truncation(&json!(" LENGTH ")), truncated(" LENGTH "));
}

#[test]
fn null_and_blank_have_no_reason() {
    assert_eq!(detect_truncation(&Value::Null), NONE);
    assert_eq!(detect_truncation(&json!("")), NONE);
    assert_eq!(detect_truncation(&json!("  ")), NONE);
}

// ---- OpenAI Chat Completions and compatible ----

fn openai_chat(finish_reason: Value) -> Value {
    json!({
        "id": "chatcmpl-abc123",
        "object": "chat.completion",
        "created": 1_767_000_000,
        "model": "gpt-4.1-mini",
        "choices": [{
            "index": 0,
            "message": { "role": "assistant", "content": "{\"name\":\"Ad", "refusal": null },
            "logprobs": null,
            "finish_reason": finish_reason
        }],
        "usage": { "prompt_tokens": 50, "completion_tokens": 16, "total_tokens": 66 }
    })
}

#[test]
fn openai_chat_length_is_truncated() {
    assert_eq!(
        detect_truncation(&openai_chat(json!("length"))),
        truncated("length")
    );
}

#[test]
fn openai_chat_other_reasons_are_not_truncated() {
    for reason in ["stop", "tool_calls", "function_call", "content_filter"] {
        assert_eq!(
            detect_truncation(&openai_chat(json!(reason))),
            not_truncated(reason)
        );
    }
}

#[test]
fn openai_chat_only_first_choice_counts() {
    let mut response = openai_chat(json!("stop"));
    response["choices"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "index": 1, "message": { "content": "x" }, "finish_reason": "length" }));
    assert_eq!(detect_truncation(&response), not_truncated("stop"));
}

#[test]
fn openai_compatible_length_is_truncated() {
    let groq = json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "llama-3.3-70b-versatile",
        "choices": [{ "index": 0, "message": { "role": "assistant", "content": "{" }, "finish_reason": "length" }],
        "x_groq": { "id": "req_1" }
    });
    assert_eq!(detect_truncation(&groq), truncated("length"));
}

#[test]
fn mistral_length_and_model_length_are_truncated() {
    for reason in ["length", "model_length"] {
        let mistral = json!({
            "id": "cmpl-1",
            "object": "chat.completion",
            "model": "mistral-large-latest",
            "choices": [{ "index": 0, "message": { "role": "assistant", "content": "{", "tool_calls": null }, "finish_reason": reason }],
            "usage": { "prompt_tokens": 10, "completion_tokens": 4096, "total_tokens": 4106 }
        });
        assert_eq!(detect_truncation(&mistral), truncated(reason));
    }
}

#[test]
fn mistral_stop_is_not_truncated() {
    let mistral = json!({
        "object": "chat.completion",
        "choices": [{ "index": 0, "message": { "content": "{}" }, "finish_reason": "stop" }]
    });
    assert_eq!(detect_truncation(&mistral), not_truncated("stop"));
}

#[test]
fn openrouter_choice_prefers_normalised_reason() {
    let response = json!({
        "id": "gen-1",
        "provider": "Google",
        "model": "google/gemini-2.5-flash",
        "choices": [{
            "index": 0,
            "finish_reason": "length",
            "native_finish_reason": "MAX_TOKENS",
            "message": { "role": "assistant", "content": "{" }
        }]
    });
    assert_eq!(detect_truncation(&response), truncated("length"));
}

#[test]
fn openrouter_native_reason_is_used_when_normalised_one_is_missing() {
    let response = json!({
        "choices": [{ "finish_reason": null, "native_finish_reason": "MAX_TOKENS", "message": { "content": "{" } }]
    });
    assert_eq!(detect_truncation(&response), truncated("MAX_TOKENS"));
}

#[test]
fn openrouter_top_level_finish_reason() {
    let top_level =
        json!({ "id": "gen-2", "finish_reason": "length", "native_finish_reason": "max_tokens" });
    assert_eq!(detect_truncation(&top_level), truncated("length"));
    let native_only = json!({ "id": "gen-3", "native_finish_reason": "end_turn" });
    assert_eq!(detect_truncation(&native_only), not_truncated("end_turn"));
}

// ---- OpenAI Responses ----

fn responses(status: &str, incomplete_details: Value) -> Value {
    json!({
        "id": "resp_123",
        "object": "response",
        "created_at": 1_767_000_000,
        "status": status,
        "incomplete_details": incomplete_details,
        "model": "gpt-4.1",
        "output": [{
            "type": "message",
            "id": "msg_1",
            "status": status,
            "role": "assistant",
            "content": [{ "type": "output_text", "text": "{\"a\":", "annotations": [] }]
        }],
        "usage": { "input_tokens": 20, "output_tokens": 100, "total_tokens": 120 }
    })
}

#[test]
fn responses_incomplete_at_max_output_tokens_is_truncated() {
    let response = responses("incomplete", json!({ "reason": "max_output_tokens" }));
    assert_eq!(detect_truncation(&response), truncated("max_output_tokens"));
}

#[test]
fn responses_incomplete_by_content_filter_is_not_truncated() {
    let response = responses("incomplete", json!({ "reason": "content_filter" }));
    assert_eq!(
        detect_truncation(&response),
        not_truncated("content_filter")
    );
}

#[test]
fn responses_completed_reads_the_status() {
    let response = responses("completed", Value::Null);
    assert_eq!(detect_truncation(&response), not_truncated("completed"));
}

#[test]
fn responses_incomplete_without_details_reads_the_status() {
    assert_eq!(
        detect_truncation(&responses("incomplete", Value::Null)),
        not_truncated("incomplete")
    );
    assert_eq!(
        detect_truncation(&responses("incomplete", json!({ "reason": 3 }))),
        not_truncated("incomplete")
    );
}

#[test]
fn responses_status_is_compared_case_insensitively() {
    let response =
        json!({ "status": "INCOMPLETE", "incomplete_details": { "reason": "max_output_tokens" } });
    assert_eq!(detect_truncation(&response), truncated("max_output_tokens"));
}

#[test]
fn provider_keys_outrank_a_generic_status() {
    let response = json!({ "status": "completed", "choices": [{ "finish_reason": "length" }] });
    assert_eq!(detect_truncation(&response), truncated("length"));
}

// ---- Anthropic Messages ----

fn anthropic(stop_reason: Value) -> Value {
    json!({
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{ "type": "text", "text": "{\"a\":" }],
        "stop_reason": stop_reason,
        "stop_sequence": null,
        "usage": { "input_tokens": 12, "output_tokens": 1024 }
    })
}

#[test]
fn anthropic_token_limits_are_truncated() {
    for reason in ["max_tokens", "model_context_window_exceeded"] {
        assert_eq!(
            detect_truncation(&anthropic(json!(reason))),
            truncated(reason)
        );
    }
}

#[test]
fn anthropic_other_reasons_are_not_truncated() {
    for reason in [
        "end_turn",
        "stop_sequence",
        "tool_use",
        "pause_turn",
        "refusal",
    ] {
        assert_eq!(
            detect_truncation(&anthropic(json!(reason))),
            not_truncated(reason)
        );
    }
}

#[test]
fn anthropic_null_stop_reason_has_no_reason() {
    assert_eq!(detect_truncation(&anthropic(Value::Null)), NONE);
}

// ---- Gemini ----

fn gemini(finish_reason: &str) -> Value {
    json!({
        "candidates": [{
            "content": { "role": "model", "parts": [{ "text": "{\"a\":" }] },
            "finishReason": finish_reason,
            "index": 0
        }],
        "usageMetadata": { "promptTokenCount": 8, "candidatesTokenCount": 256, "totalTokenCount": 264 },
        "modelVersion": "gemini-2.5-flash"
    })
}

#[test]
fn gemini_max_tokens_is_truncated() {
    assert_eq!(
        detect_truncation(&gemini("MAX_TOKENS")),
        truncated("MAX_TOKENS")
    );
}

#[test]
fn gemini_other_reasons_are_not_truncated() {
    for reason in [
        "STOP",
        "SAFETY",
        "RECITATION",
        "MALFORMED_FUNCTION_CALL",
        "OTHER",
    ] {
        assert_eq!(detect_truncation(&gemini(reason)), not_truncated(reason));
    }
}

// ---- Bedrock Converse ----

fn bedrock(stop_reason: &str) -> Value {
    json!({
        "output": { "message": { "role": "assistant", "content": [{ "text": "{\"a\":" }] } },
        "stopReason": stop_reason,
        "usage": { "inputTokens": 30, "outputTokens": 512, "totalTokens": 542 },
        "metrics": { "latencyMs": 900 }
    })
}

#[test]
fn bedrock_token_limits_are_truncated() {
    for reason in ["max_tokens", "model_context_window_exceeded"] {
        assert_eq!(detect_truncation(&bedrock(reason)), truncated(reason));
    }
}

#[test]
fn bedrock_other_reasons_are_not_truncated() {
    for reason in [
        "end_turn",
        "tool_use",
        "stop_sequence",
        "guardrail_intervened",
        "content_filtered",
        "malformed_model_output",
    ] {
        assert_eq!(detect_truncation(&bedrock(reason)), not_truncated(reason));
    }
}

// ---- Cohere v2 ----

fn cohere(finish_reason: &str) -> Value {
    json!({
        "id": "c14c80c3",
        "finish_reason": finish_reason,
        "message": { "role": "assistant", "content": [{ "type": "text", "text": "{\"a\":" }] },
        "usage": { "billed_units": { "input_tokens": 5, "output_tokens": 200 }, "tokens": { "input_tokens": 70, "output_tokens": 200 } }
    })
}

#[test]
fn cohere_max_tokens_is_truncated() {
    assert_eq!(
        detect_truncation(&cohere("MAX_TOKENS")),
        truncated("MAX_TOKENS")
    );
}

#[test]
fn cohere_other_reasons_are_not_truncated() {
    for reason in ["COMPLETE", "STOP_SEQUENCE", "TOOL_CALL", "ERROR", "TIMEOUT"] {
        assert_eq!(detect_truncation(&cohere(reason)), not_truncated(reason));
    }
}

// ---- Ollama ----

#[test]
fn ollama_chat_length_is_truncated() {
    let chat = json!({
        "model": "llama3.2",
        "created_at": "2026-01-01T00:00:00Z",
        "message": { "role": "assistant", "content": "{\"a\":" },
        "done": true,
        "done_reason": "length",
        "eval_count": 128
    });
    assert_eq!(detect_truncation(&chat), truncated("length"));
}

#[test]
fn ollama_generate_stop_is_not_truncated() {
    let generate = json!({
        "model": "llama3.2",
        "response": "{}",
        "done": true,
        "done_reason": "stop"
    });
    assert_eq!(detect_truncation(&generate), not_truncated("stop"));
}

// ---- Vercel AI SDK and the checkOutput input form ----

#[test]
fn vercel_string_reason() {
    let result = json!({ "text": "{\"a\":", "finishReason": "length", "usage": { "inputTokens": 1, "outputTokens": 2 } });
    assert_eq!(detect_truncation(&result), truncated("length"));
    let result = json!({ "text": "{}", "finishReason": "stop" });
    assert_eq!(detect_truncation(&result), not_truncated("stop"));
}

#[test]
fn vercel_unified_wins_over_raw() {
    let result =
        json!({ "text": "{", "finishReason": { "unified": "length", "raw": "max_tokens" } });
    assert_eq!(detect_truncation(&result), truncated("length"));
    let result =
        json!({ "text": "{}", "finishReason": { "unified": "stop", "raw": "max_tokens" } });
    assert_eq!(detect_truncation(&result), not_truncated("stop"));
}

#[test]
fn vercel_raw_is_the_fallback() {
    let result = json!({ "finishReason": { "raw": "MAX_TOKENS" } });
    assert_eq!(detect_truncation(&result), truncated("MAX_TOKENS"));
    let result = json!({ "finishReason": { "unified": 7, "raw": "end_turn" } });
    assert_eq!(detect_truncation(&result), not_truncated("end_turn"));
    let result = json!({ "finishReason": { "unified": null, "raw": null } });
    assert_eq!(detect_truncation(&result), NONE);
}

#[test]
fn check_output_input_form() {
    let output = json!({ "content": "{\"a\":1}", "finishReason": "length" });
    assert_eq!(detect_truncation(&output), truncated("length"));
    let output = json!({ "content": "{\"a\":1}", "finishReason": "stop" });
    assert_eq!(detect_truncation(&output), not_truncated("stop"));
    let output = json!({ "content": "{\"a\":1}" });
    assert_eq!(detect_truncation(&output), NONE);
}

// ---- executor traces ----

fn trace(segments: Value) -> Value {
    json!({
        "content": "{\"a\":1}",
        "tokens": { "input": 100, "output": 50 },
        "timing": { "startTime": 1000, "endTime": 4000, "duration": 3000, "timeSegments": segments }
    })
}

#[test]
fn trace_last_model_segment_counts_even_with_tool_segments_after() {
    let segments = json!([
        { "type": "model", "name": "call 1", "startTime": 1000, "endTime": 2000, "finishReason": "tool_calls" },
        { "type": "tool", "name": "lookup", "startTime": 2000, "endTime": 2500 },
        { "type": "model", "name": "call 2", "startTime": 2500, "endTime": 3500, "finishReason": "length" },
        { "type": "tool", "name": "store", "startTime": 3500, "endTime": 4000, "finishReason": "stop" }
    ]);
    assert_eq!(detect_truncation(&trace(segments)), truncated("length"));
}

#[test]
fn trace_earlier_truncation_does_not_count() {
    let segments = json!([
        { "type": "model", "startTime": 1000, "endTime": 2000, "finishReason": "length" },
        { "type": "tool", "startTime": 2000, "endTime": 2500 },
        { "type": "model", "startTime": 2500, "endTime": 3500, "finishReason": "stop" }
    ]);
    assert_eq!(detect_truncation(&trace(segments)), not_truncated("stop"));
}

#[test]
fn bare_segment_array() {
    let segments = json!([
        { "type": "model", "finishReason": "stop" },
        { "type": "model", "finishReason": "max_tokens" },
        { "type": "tool" }
    ]);
    assert_eq!(detect_truncation(&segments), truncated("max_tokens"));
    let segments = json!([
        { "type": "model", "finishReason": "length" },
        { "type": "model", "finishReason": "end_turn" }
    ]);
    assert_eq!(detect_truncation(&segments), not_truncated("end_turn"));
}

#[test]
fn bare_segment_array_without_model_segments_has_no_reason() {
    let segments = json!([{ "type": "tool", "finishReason": "length" }]);
    assert_eq!(detect_truncation(&segments), NONE);
    assert_eq!(detect_truncation(&json!([])), NONE);
}

#[test]
fn trace_wins_over_direct_keys() {
    let mut response = trace(json!([{ "type": "model", "finishReason": "length" }]));
    response["finishReason"] = json!("stop");
    response["stop_reason"] = json!("end_turn");
    assert_eq!(detect_truncation(&response), truncated("length"));

    let mut response = trace(json!([{ "type": "model", "finishReason": "stop" }]));
    response["finishReason"] = json!("length");
    assert_eq!(detect_truncation(&response), not_truncated("stop"));
}

#[test]
fn trace_without_a_model_reason_falls_back_to_direct_keys() {
    let mut response = trace(json!([
        { "type": "model", "finishReason": "stop" },
        { "type": "model" },
        { "type": "tool" }
    ]));
    response["finishReason"] = json!("length");
    assert_eq!(detect_truncation(&response), truncated("length"));

    let mut response = trace(json!([{ "type": "tool" }]));
    response["stop_reason"] = json!("max_tokens");
    assert_eq!(detect_truncation(&response), truncated("max_tokens"));
}

#[test]
fn trace_segment_may_carry_unified_and_raw() {
    let segments =
        json!([{ "type": "model", "finishReason": { "unified": "length", "raw": "MAX_TOKENS" } }]);
    assert_eq!(detect_truncation(&trace(segments)), truncated("length"));
}

#[test]
fn timing_object_on_its_own() {
    let timing =
        json!({ "duration": 10, "timeSegments": [{ "type": "model", "finishReason": "length" }] });
    assert_eq!(detect_truncation(&timing), truncated("length"));
}

// ---- wrong types ----

#[test]
fn scalars_and_empty_values_have_no_reason() {
    for source in [
        json!(42),
        json!(1.5),
        json!(true),
        json!({}),
        json!([]),
        json!([1, 2, 3]),
        json!(["length", "stop"]),
        json!([null, {}, []]),
    ] {
        assert_eq!(detect_truncation(&source), NONE, "{source}");
    }
}

#[test]
fn non_string_reasons_are_ignored() {
    for source in [
        json!({ "choices": [{ "finish_reason": 5 }] }),
        json!({ "choices": [{ "finish_reason": { "reason": "length" } }] }),
        json!({ "choices": {} }),
        json!({ "choices": "length" }),
        json!({ "choices": [] }),
        json!({ "choices": [7] }),
        json!({ "candidates": "MAX_TOKENS" }),
        json!({ "candidates": [{ "finishReason": ["MAX_TOKENS"] }] }),
        json!({ "stop_reason": 1 }),
        json!({ "stopReason": false }),
        json!({ "finish_reason": 3.5 }),
        json!({ "done_reason": {} }),
        json!({ "finishReason": 12 }),
        json!({ "finishReason": ["length"] }),
        json!({ "finishReason": {} }),
        json!({ "status": 200 }),
        json!({ "incomplete_details": { "reason": "max_output_tokens" } }),
        json!({ "timing": { "timeSegments": "length" } }),
        json!({ "timing": [1, 2] }),
        json!({ "timing": { "timeSegments": [1, "model", null] } }),
        json!({ "timing": { "timeSegments": [{ "type": 5, "finishReason": "length" }] } }),
        json!({ "timing": { "timeSegments": [{ "type": "model", "finishReason": 9 }] } }),
    ] {
        assert_eq!(detect_truncation(&source), NONE, "{source}");
    }
}

#[test]
fn a_wrongly_typed_key_does_not_hide_a_valid_one() {
    let source = json!({ "choices": [{ "finish_reason": 7 }], "stop_reason": "max_tokens" });
    assert_eq!(detect_truncation(&source), truncated("max_tokens"));
}

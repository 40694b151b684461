use super::*;
use serde_json::json;

fn norm(v: Value) -> Value {
    normalize_usage(&v)
}

fn f(v: &Value, path: &[&str]) -> f64 {
    let mut cur = v;
    for key in path {
        cur = &cur[*key];
    }
    cur.as_f64()
        .unwrap_or_else(|| panic!("no number at {path:?} in {v}"))
}

// ---- normalize_usage: provider shapes ----

#[test]
fn openai_chat_usage() {
    let got = norm(json!({
        "prompt_tokens": 100,
        "completion_tokens": 50,
        "total_tokens": 150,
        "prompt_tokens_details": { "cached_tokens": 40, "audio_tokens": 0 },
        "completion_tokens_details": {
            "reasoning_tokens": 20,
            "audio_tokens": 3,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 1
        }
    }));
    assert_eq!(
        got,
        json!({ "tokens": {
            "input": 100, "output": 50, "total": 150, "cacheRead": 40, "reasoning": 20,
            "prompt_tokens_details": { "audio_tokens": 0 },
            "completion_tokens_details": {
                "audio_tokens": 3, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 1
            }
        }})
    );
}

#[test]
fn openai_chat_minimal_has_no_invented_members() {
    let got = norm(json!({ "prompt_tokens": 7, "completion_tokens": 3 }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 7, "output": 3, "total": 10 } })
    );
}

#[test]
fn openai_responses_usage() {
    let got = norm(json!({
        "input_tokens": 300,
        "input_tokens_details": { "cached_tokens": 128 },
        "output_tokens": 90,
        "output_tokens_details": { "reasoning_tokens": 64 },
        "total_tokens": 390
    }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 300, "output": 90, "total": 390, "cacheRead": 128, "reasoning": 64 } })
    );
}

#[test]
fn anthropic_usage_counts_cache_as_input() {
    let got = norm(json!({
        "input_tokens": 10,
        "cache_creation_input_tokens": 200,
        "cache_read_input_tokens": 1000,
        "output_tokens": 55,
        "service_tier": "standard",
        "server_tool_use": { "web_search_requests": 2 },
        "cache_creation": { "ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 0 }
    }));
    assert_eq!(
        got,
        json!({ "tokens": {
            "input": 1210, "output": 55, "total": 1265, "cacheRead": 1000, "cacheWrite": 200,
            "server_tool_use": { "web_search_requests": 2 },
            "cache_creation": { "ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 0 }
        }})
    );
}

#[test]
fn anthropic_without_cache_fields() {
    let got = norm(json!({ "input_tokens": 12, "output_tokens": 8 }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 12, "output": 8, "total": 20 } })
    );
}

#[test]
fn anthropic_streaming_delta_with_output_only() {
    let got = norm(json!({ "output_tokens": 42 }));
    assert_eq!(got, json!({ "tokens": { "output": 42, "total": 42 } }));
}

#[test]
fn gemini_usage_metadata() {
    let got = norm(json!({
        "promptTokenCount": 500,
        "cachedContentTokenCount": 300,
        "candidatesTokenCount": 80,
        "thoughtsTokenCount": 120,
        "totalTokenCount": 700,
        "toolUsePromptTokenCount": 9,
        "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 500 }],
        "trafficType": "ON_DEMAND"
    }));
    assert_eq!(
        got,
        json!({ "tokens": {
            "input": 500, "output": 200, "total": 700, "cacheRead": 300, "reasoning": 120,
            "toolUsePromptTokenCount": 9,
            "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 500 }]
        }})
    );
}

#[test]
fn bedrock_converse_usage() {
    let got = norm(json!({
        "inputTokens": 20,
        "outputTokens": 30,
        "totalTokens": 350,
        "cacheReadInputTokens": 250,
        "cacheWriteInputTokens": 50
    }));
    assert_eq!(
        got,
        json!({ "tokens": {
            "input": 320, "output": 30, "total": 350, "cacheRead": 250, "cacheWrite": 50
        }})
    );
}

#[test]
fn cohere_v2_usage() {
    let got = norm(json!({
        "billed_units": { "input_tokens": 5, "output_tokens": 7, "search_units": 1 },
        "tokens": { "input_tokens": 70, "output_tokens": 7 }
    }));
    assert_eq!(
        got,
        json!({ "tokens": {
            "input": 70, "output": 7, "total": 77,
            "billed_units": { "input_tokens": 5, "output_tokens": 7, "search_units": 1 }
        }})
    );
}

#[test]
fn an_ai_sdk_result_counts_every_step() {
    // `usage` is the last step's; `totalUsage` what the call cost.
    let result = json!({
        "text": "{}",
        "usage": { "inputTokens": 4, "outputTokens": 2 },
        "totalUsage": { "inputTokens": 10, "outputTokens": 6 }
    });
    let usage = normalize_usage(&result);
    assert_eq!(usage["tokens"]["input"], json!(10));
    assert_eq!(usage["tokens"]["output"], json!(6));
}

#[test]
fn ai_sdk_usage_shapes() {
    let v4 = norm(json!({ "promptTokens": 4, "completionTokens": 6, "totalTokens": 10 }));
    assert_eq!(
        v4,
        json!({ "tokens": { "input": 4, "output": 6, "total": 10 } })
    );

    let v6 = norm(json!({
        "inputTokens": 100,
        "inputTokenDetails": { "noCacheTokens": 60, "cacheReadTokens": 40, "cacheWriteTokens": 0 },
        "outputTokens": 30,
        "outputTokenDetails": { "textTokens": 20, "reasoningTokens": 10 },
        "totalTokens": 130,
        "cachedInputTokens": 40,
        "reasoningTokens": 10
    }));
    assert_eq!(
        v6,
        // The uncached input and the text output are parts of what
        // input and output count: not kept a second time.
        json!({ "tokens": {
            "input": 100, "output": 30, "total": 130, "cacheRead": 40, "cacheWrite": 0, "reasoning": 10
        }})
    );
}

#[test]
fn an_ai_sdk_usage_holds_the_providers_tokens_once() {
    // The provider's own usage, under `raw`, is the same tokens the SDK
    // mapped: what its own mapping adds (a count of requests, a
    // charge) is kept, its token counts are not.
    let openai = norm(json!({
        "inputTokens": 6,
        "inputTokenDetails": { "noCacheTokens": 4, "cacheReadTokens": 2 },
        "outputTokens": 21,
        "outputTokenDetails": { "textTokens": 18, "reasoningTokens": 3 },
        "totalTokens": 27,
        "raw": {
            "prompt_tokens": 6, "completion_tokens": 21, "total_tokens": 27,
            "prompt_tokens_details": { "cached_tokens": 2 },
            "completion_tokens_details": { "reasoning_tokens": 3 },
            "cost": 0.5
        }
    }));
    assert_eq!(
        openai,
        json!({
            "tokens": { "input": 6, "output": 21, "total": 27, "cacheRead": 2, "reasoning": 3 },
            "cost": { "total": 0.5 }
        })
    );
    let anthropic = norm(json!({
        "inputTokens": 17,
        "inputTokenDetails": { "noCacheTokens": 5, "cacheReadTokens": 8, "cacheWriteTokens": 4 },
        "outputTokens": 9,
        "totalTokens": 26,
        "raw": {
            "input_tokens": 5, "cache_read_input_tokens": 8, "cache_creation_input_tokens": 4,
            "output_tokens": 9,
            "server_tool_use": { "web_search_requests": 1 },
            "service_tier": "standard"
        }
    }));
    assert_eq!(
        anthropic,
        json!({ "tokens": {
            "input": 17, "output": 9, "total": 26, "cacheRead": 8, "cacheWrite": 4,
            "server_tool_use": { "web_search_requests": 1 }
        }})
    );
    // Two attempts merged: each count once per attempt.
    let merged = merge_usage(&[openai.clone(), openai]);
    assert_eq!(
        merged["tokens"],
        json!({ "input": 12, "output": 42, "total": 54, "cacheRead": 4, "reasoning": 6 })
    );
}

#[test]
fn ollama_native_response() {
    let got = norm(json!({
        "model": "llama3",
        "created_at": "2026-01-01T00:00:00Z",
        "message": { "role": "assistant", "content": "{}" },
        "done": true,
        "done_reason": "stop",
        "total_duration": 123456789,
        "prompt_eval_count": 26,
        "eval_count": 290
    }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 26, "output": 290, "total": 316 } })
    );
}

#[test]
fn unknown_provider_fields_are_kept_at_any_depth() {
    let got = norm(json!({
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "total_tokens": 15,
        "brand_new_tokens": 3,
        "completion_tokens_details": { "reasoning_tokens": 2, "audio_tokens": 1 },
        "cost_details": { "upstream": { "image_units": 4, "label": "x" }, "note": "n" },
        "is_byok": false
    }));
    assert_eq!(
        got,
        json!({ "tokens": {
            "input": 10, "output": 5, "total": 15, "reasoning": 2,
            "brand_new_tokens": 3,
            "completion_tokens_details": { "audio_tokens": 1 }
        },
        "cost": { "details": { "upstream": { "image_units": 4 } } }
        })
    );
}

#[test]
fn unknown_shape_keeps_its_numbers() {
    let got = norm(json!({ "foo_tokens": 9, "bar": { "baz": 1.5 }, "name": "x" }));
    assert_eq!(
        got,
        json!({ "tokens": { "foo_tokens": 9, "bar": { "baz": 1.5 } } })
    );
}

// ---- normalize_usage: whole responses and executor form ----

#[test]
fn openai_chat_whole_response() {
    let got = norm(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000u64,
        "model": "gpt-4o",
        "choices": [{ "index": 0, "message": { "role": "assistant", "content": "{}" }, "finish_reason": "stop" }],
        "usage": { "prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15 }
    }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 11, "output": 4, "total": 15 } })
    );
}

#[test]
fn gemini_whole_response() {
    let got = norm(json!({
        "candidates": [{ "content": { "parts": [{ "text": "{}" }] }, "finishReason": "STOP", "index": 0 }],
        "usageMetadata": { "promptTokenCount": 8, "candidatesTokenCount": 2, "totalTokenCount": 10 },
        "modelVersion": "gemini-2.5-flash"
    }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 8, "output": 2, "total": 10 } })
    );
}

#[test]
fn anthropic_and_bedrock_whole_responses() {
    let anthropic = norm(json!({
        "id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "end_turn",
        "content": [{ "type": "text", "text": "{}" }],
        "usage": { "input_tokens": 3, "cache_read_input_tokens": 7, "output_tokens": 2 }
    }));
    assert_eq!(
        anthropic,
        json!({ "tokens": { "input": 10, "output": 2, "total": 12, "cacheRead": 7 } })
    );

    let bedrock = norm(json!({
        "output": { "message": { "role": "assistant", "content": [{ "text": "{}" }] } },
        "stopReason": "end_turn",
        "usage": { "inputTokens": 5, "outputTokens": 6, "totalTokens": 11 },
        "metrics": { "latencyMs": 300 }
    }));
    assert_eq!(
        bedrock,
        json!({ "tokens": { "input": 5, "output": 6, "total": 11 } })
    );
}

#[test]
fn response_without_usage_counts_nothing() {
    let got = norm(json!({
        "id": "chatcmpl-2", "created": 1_700_000_000u64,
        "choices": [{ "index": 0, "finish_reason": "stop" }]
    }));
    assert_eq!(got, json!({}));
}

#[test]
fn executor_usage_is_returned_as_is() {
    let usage = json!({
        "tokens": { "input": 1, "output": 2, "total": 3 },
        "cost": { "total": 0.5, "pricing": { "input": 0.000001 } },
        "timing": { "startTime": 1, "endTime": 2, "duration": 1, "timeSegments": [{ "type": "model" }] }
    });
    assert_eq!(norm(usage.clone()), usage);
    let only_cost = json!({ "cost": { "total": 0.25 } });
    assert_eq!(norm(only_cost.clone()), only_cost);
}

#[test]
fn executor_response_keeps_only_usage_members() {
    let got = norm(json!({
        "content": "{}",
        "finishReason": "stop",
        "created": 1_700_000_000u64,
        "tokens": { "input": 4, "output": 1 },
        "timing": { "duration": 12 }
    }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 4, "output": 1 }, "timing": { "duration": 12 } })
    );
}

#[test]
fn response_whose_usage_is_executor_form() {
    let got = norm(json!({
        "content": "{}",
        "usage": { "tokens": { "input": 9 }, "cost": { "total": 0.01 } }
    }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 9 }, "cost": { "total": 0.01 } })
    );
}

#[test]
fn executor_trace_takes_missing_tokens_from_raw_usage() {
    let got = norm(json!({
        "timing": { "timeSegments": [{ "type": "model", "finishReason": "stop" }] },
        "usage": { "prompt_tokens": 2, "completion_tokens": 3 }
    }));
    assert_eq!(
        got,
        json!({
            "timing": { "timeSegments": [{ "type": "model", "finishReason": "stop" }] },
            "tokens": { "input": 2, "output": 3, "total": 5 }
        })
    );
    // Tokens recorded by the executor win over the raw copy: no double count.
    let got = norm(json!({
        "tokens": { "input": 2, "output": 3, "total": 5 },
        "usage": { "prompt_tokens": 20, "completion_tokens": 30 }
    }));
    assert_eq!(
        got,
        json!({ "tokens": { "input": 2, "output": 3, "total": 5 } })
    );
}

#[test]
fn non_objects_normalise_to_empty() {
    for v in [
        json!(null),
        json!(3),
        json!(-1.5),
        json!("usage"),
        json!(true),
        json!([1, 2]),
        json!({}),
    ] {
        assert_eq!(normalize_usage(&v), json!({}), "input {v}");
    }
}

#[test]
fn mapped_fields_with_wrong_types_are_ignored() {
    let got = norm(json!({ "prompt_tokens": "12", "completion_tokens": null, "total_tokens": 4 }));
    assert_eq!(got, json!({ "tokens": { "total": 4 } }));
}

// ---- merge_usage ----

#[test]
fn merge_of_nothing_is_empty() {
    assert_eq!(merge_usage(&[]), json!({}));
    assert_eq!(merge_usage(&[Value::Null, Value::Null]), json!({}));
}

#[test]
fn merge_two_openai_usages() {
    let a = json!({
        "prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110,
        "prompt_tokens_details": { "cached_tokens": 0 },
        "completion_tokens_details": { "reasoning_tokens": 4, "audio_tokens": 1 }
    });
    let b = json!({
        "id": "x", "choices": [],
        "usage": {
            "prompt_tokens": 120, "completion_tokens": 20, "total_tokens": 140,
            "prompt_tokens_details": { "cached_tokens": 100 },
            "completion_tokens_details": { "reasoning_tokens": 6 }
        }
    });
    assert_eq!(
        merge_usage(&[a, b]),
        json!({ "tokens": {
            "input": 220, "output": 30, "total": 250, "cacheRead": 100, "reasoning": 10,
            "completion_tokens_details": { "audio_tokens": 1 }
        }})
    );
}

#[test]
fn merge_executor_usages() {
    let a = json!({
        "tokens": { "input": 10, "output": 5, "total": 15 },
        "cost": { "input": 0.1, "output": 0.2, "total": 0.1, "pricing": { "input": 0.01, "output": 0.04 } },
        "timing": { "startTime": 1000, "endTime": 2000, "duration": 1000, "timeSegments": [{ "type": "model", "n": 1 }] }
    });
    let b = json!({
        "tokens": { "input": 12, "output": 6, "total": 18, "audio": 3 },
        "cost": { "input": 0.2, "output": 0.1, "total": 0.2, "toolCost": 0.05, "pricing": { "input": 0.02 } },
        "timing": {
            "startTime": 2500, "endTime": 3000, "duration": 500,
            "timeSegments": [{ "type": "tool", "n": 2 }, { "type": "model", "n": 3 }]
        }
    });
    let merged = merge_usage(&[a, b]);
    assert_eq!(
        merged["tokens"],
        json!({ "input": 22, "output": 11, "total": 33, "audio": 3 })
    );
    assert!((f(&merged, &["cost", "total"]) - 0.3).abs() < 1e-12);
    assert!((f(&merged, &["cost", "input"]) - 0.3).abs() < 1e-12);
    assert!((f(&merged, &["cost", "output"]) - 0.3).abs() < 1e-12);
    assert!((f(&merged, &["cost", "toolCost"]) - 0.05).abs() < 1e-12);
    assert_eq!(merged["cost"]["pricing"], json!({ "input": 0.02 }));
    assert_eq!(merged["timing"]["startTime"], json!(1000));
    assert_eq!(merged["timing"]["endTime"], json!(3000));
    assert_eq!(merged["timing"]["duration"], json!(1500));
    assert_eq!(
        merged["timing"]["timeSegments"],
        json!([{ "type": "model", "n": 1 }, { "type": "tool", "n": 2 }, { "type": "model", "n": 3 }])
    );
}

#[test]
fn integer_sums_stay_integers() {
    let merged = merge_usage(&[
        json!({ "tokens": { "input": 2 } }),
        json!({ "tokens": { "input": 3 } }),
    ]);
    assert!(merged["tokens"]["input"].is_u64());
    assert_eq!(merged["tokens"]["input"], json!(5));
    let mixed = merge_usage(&[
        json!({ "tokens": { "x": 2 } }),
        json!({ "tokens": { "x": 0.5 } }),
    ]);
    assert!(mixed["tokens"]["x"].is_f64());
    assert_eq!(mixed["tokens"]["x"], json!(2.5));
    let signed = merge_usage(&[
        json!({ "cost": { "adj": -5 } }),
        json!({ "cost": { "adj": 3 } }),
    ]);
    assert_eq!(signed["cost"]["adj"], json!(-2));
    assert!(signed["cost"]["adj"].is_i64());
}

#[test]
fn integer_overflow_falls_back_to_float_and_never_nan() {
    let merged = merge_usage(&[
        json!({ "tokens": { "x": u64::MAX } }),
        json!({ "tokens": { "x": 1 } }),
    ]);
    let x = &merged["tokens"]["x"];
    assert!(x.is_f64());
    assert!((x.as_f64().unwrap() - 18_446_744_073_709_551_616.0).abs() < 1e4);

    let merged = merge_usage(&[
        json!({ "cost": { "x": f64::MAX } }),
        json!({ "cost": { "x": f64::MAX } }),
    ]);
    let x = merged["cost"]["x"].as_f64().unwrap();
    assert!(x.is_finite());
    assert_eq!(x, f64::MAX);
}

#[test]
fn pricing_is_replaced_not_summed_even_when_missing_later() {
    let merged = merge_usage(&[
        json!({ "cost": { "total": 1, "pricing": { "input": 0.5, "output": 1.5 } } }),
        json!({ "cost": { "total": 2 } }),
        json!({ "cost": { "pricing": { "input": 0.5, "output": 1.5 } } }),
    ]);
    assert_eq!(
        merged,
        json!({ "cost": { "total": 3, "pricing": { "input": 0.5, "output": 1.5 } } })
    );
}

#[test]
fn field_on_one_side_only_is_kept() {
    let merged = merge_usage(&[
        json!({ "tokens": { "input": 1 }, "cost": { "toolCost": 0.7 } }),
        json!({ "tokens": { "input": 1, "cacheWrite": 8, "deep": { "a": { "b": 2 } } } }),
    ]);
    assert_eq!(
        merged,
        json!({
            "tokens": { "input": 2, "cacheWrite": 8, "deep": { "a": { "b": 2 } } },
            "cost": { "toolCost": 0.7 }
        })
    );
}

#[test]
fn start_and_end_times_as_numbers() {
    let merged = merge_usage(&[
        json!({ "timing": { "startTime": 5000, "endTime": 6000 } }),
        json!({ "timing": { "startTime": 4000, "endTime": 5500 } }),
        json!({ "timing": { "startTime": 4500.5, "endTime": 7000 } }),
    ]);
    assert_eq!(merged["timing"]["startTime"], json!(4000));
    assert_eq!(merged["timing"]["endTime"], json!(7000));
}

#[test]
fn start_and_end_times_as_iso_strings() {
    let merged = merge_usage(&[
        json!({ "timing": { "startTime": "2026-03-01T10:00:05Z", "endTime": "2026-03-01T10:00:09Z" } }),
        json!({ "timing": { "startTime": "2026-03-01T10:00:01Z", "endTime": "2026-03-01T10:00:20Z" } }),
        json!({ "timing": { "startTime": "2026-03-01T10:00:03Z", "endTime": "2026-03-01T10:00:10Z" } }),
    ]);
    assert_eq!(merged["timing"]["startTime"], json!("2026-03-01T10:00:01Z"));
    assert_eq!(merged["timing"]["endTime"], json!("2026-03-01T10:00:20Z"));
}

#[test]
fn number_vs_string_time_keeps_the_existing_one() {
    let merged = merge_usage(&[
        json!({ "timing": { "startTime": 9_999_999_999_999u64, "endTime": "2026-01-01T00:00:00Z" } }),
        json!({ "timing": { "startTime": "1970-01-01T00:00:00Z", "endTime": 1 } }),
    ]);
    assert_eq!(merged["timing"]["startTime"], json!(9_999_999_999_999u64));
    assert_eq!(merged["timing"]["endTime"], json!("2026-01-01T00:00:00Z"));
}

#[test]
fn missing_or_null_times_do_not_erase_recorded_ones() {
    let merged = merge_usage(&[
        json!({ "timing": { "startTime": null, "duration": 10 } }),
        json!({ "timing": { "startTime": 300, "endTime": 400, "duration": 20 } }),
        json!({ "timing": { "endTime": null, "duration": 30 } }),
    ]);
    assert_eq!(
        merged,
        json!({ "timing": { "startTime": 300, "duration": 60, "endTime": 400 } })
    );
}

#[test]
fn time_segments_concatenate_in_attempt_order() {
    let merged = merge_usage(&[
        json!({ "timing": { "timeSegments": [1, 2] } }),
        json!({ "timing": { "duration": 1 } }),
        json!({ "timing": { "timeSegments": [] } }),
        json!({ "timing": { "timeSegments": [3] } }),
        json!({ "timing": { "timeSegments": "garbage" } }),
    ]);
    assert_eq!(merged["timing"]["timeSegments"], json!([1, 2, 3]));
}

#[test]
fn null_members_are_not_reported() {
    let merged = merge_usage(&[
        json!({ "tokens": { "input": 1, "output": null }, "cost": { "currency": null, "extra": { "a": null, "b": 2 } } }),
        json!({ "tokens": { "reasoning": null } }),
    ]);
    assert_eq!(
        merged,
        json!({ "tokens": { "input": 1 }, "cost": { "extra": { "b": 2 } } })
    );
}

#[test]
fn a_replacing_value_brings_no_null_members() {
    // Pricing is replaced, not merged; its null members still say nothing.
    let merged = merge_usage(&[
        json!({ "cost": { "pricing": { "input": 1 } } }),
        json!({ "cost": { "pricing": { "input": null, "output": 2 } } }),
    ]);
    assert_eq!(merged, json!({ "cost": { "pricing": { "output": 2 } } }));
    // Shapes disagree and the later object wins.
    let merged = merge_usage(&[
        json!({ "tokens": { "x": "n/a" } }),
        json!({ "tokens": { "x": { "a": null, "b": 1 } } }),
    ]);
    assert_eq!(merged, json!({ "tokens": { "x": { "b": 1 } } }));
    // Segments that were not an array are replaced by the later value.
    let merged = merge_usage(&[
        json!({ "timing": { "timeSegments": "none" } }),
        json!({ "timing": { "timeSegments": { "first": null, "n": 1 } } }),
    ]);
    assert_eq!(merged, json!({ "timing": { "timeSegments": { "n": 1 } } }));
}

#[test]
fn non_numeric_fields_take_the_latest_non_null() {
    let merged = merge_usage(&[
        json!({ "cost": { "currency": "USD", "model": "a", "flag": true }, "tokens": { "arr": [1, 2] } }),
        json!({ "cost": { "currency": "EUR", "model": null, "flag": false }, "tokens": { "arr": [3] } }),
    ]);
    assert_eq!(
        merged,
        json!({ "cost": { "currency": "EUR", "model": "a", "flag": false }, "tokens": { "arr": [3] } })
    );
}

#[test]
fn a_number_is_not_replaced_by_a_non_numeric_value() {
    let merged = merge_usage(&[
        json!({ "tokens": { "input": 5, "x": "old" } }),
        json!({ "tokens": { "input": "n/a", "x": 2 } }),
    ]);
    assert_eq!(merged, json!({ "tokens": { "input": 5, "x": 2 } }));
}

#[test]
fn null_and_garbage_inputs_are_ignored() {
    let merged = merge_usage(&[
        Value::Null,
        json!(42),
        json!("hello"),
        json!([1, 2, 3]),
        json!(true),
        json!({ "prompt_tokens": 1, "completion_tokens": 1 }),
        json!([{ "tokens": { "input": 100 } }]),
        Value::Null,
    ]);
    assert_eq!(
        merged,
        json!({ "tokens": { "input": 1, "output": 1, "total": 2 } })
    );
}

#[test]
fn merge_raw_anthropic_with_executor_usage() {
    let anthropic = json!({
        "input_tokens": 5,
        "cache_read_input_tokens": 95,
        "output_tokens": 20,
        "server_tool_use": { "web_search_requests": 1 }
    });
    let executor = json!({
        "tokens": { "input": 50, "output": 10, "total": 60, "cacheWrite": 50, "server_tool_use": { "web_search_requests": 2 } },
        "cost": { "total": 0.004 },
        "timing": { "startTime": 10, "endTime": 20, "duration": 10, "timeSegments": [{ "type": "model" }] }
    });
    assert_eq!(
        merge_usage(&[anthropic, executor]),
        json!({
            "tokens": {
                "input": 150, "output": 30, "total": 180, "cacheRead": 95, "cacheWrite": 50,
                "server_tool_use": { "web_search_requests": 3 }
            },
            "cost": { "total": 0.004 },
            "timing": { "startTime": 10, "endTime": 20, "duration": 10, "timeSegments": [{ "type": "model" }] }
        })
    );
}

#[test]
fn merge_mixed_providers_uses_one_meaning_of_input() {
    let merged = merge_usage(&[
        json!({ "usageMetadata": { "promptTokenCount": 100, "cachedContentTokenCount": 60, "candidatesTokenCount": 10, "totalTokenCount": 110 } }),
        json!({ "usage": { "inputTokens": 40, "cacheReadInputTokens": 60, "outputTokens": 10, "totalTokens": 110 } }),
        json!({ "input_tokens": 40, "cache_read_input_tokens": 60, "output_tokens": 10 }),
    ]);
    assert_eq!(
        merged,
        json!({ "tokens": { "input": 300, "output": 30, "total": 330, "cacheRead": 180 } })
    );
}

#[test]
fn merge_is_stable_when_reapplied() {
    let a = json!({ "prompt_tokens": 3, "completion_tokens": 4, "completion_tokens_details": { "audio_tokens": 1 } });
    let b =
        json!({ "tokens": { "input": 1 }, "timing": { "startTime": 5, "timeSegments": ["s1"] } });
    let c = json!({ "timing": { "startTime": 2, "timeSegments": ["s2"] }, "cost": { "total": 1 } });
    let all_at_once = merge_usage(&[a.clone(), b.clone(), c.clone()]);
    let stepwise = merge_usage(&[merge_usage(&[a, b]), c]);
    assert_eq!(all_at_once, stepwise);
    assert_eq!(
        all_at_once["timing"],
        json!({ "startTime": 2, "timeSegments": ["s1", "s2"] })
    );
}

#[test]
fn merging_normalised_usages_is_merging_the_usages() {
    // Every provider's shape, whole responses, executor forms, nulls and
    // garbage: the ledger's sum (of usages normalised as they were
    // recorded) is the sum of the usages themselves.
    let usages = [
        json!({ "prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7, "prompt_tokens_details": { "cached_tokens": 1 }, "completion_tokens_details": { "reasoning_tokens": 2, "audio_tokens": null } }),
        json!({ "input_tokens": 5, "output_tokens": 6, "input_tokens_details": { "cached_tokens": 2 }, "output_tokens_details": { "reasoning_tokens": 1 } }),
        json!({ "input_tokens": 10, "output_tokens": 2, "cache_creation_input_tokens": 3, "cache_read_input_tokens": 4, "service_tier": "standard" }),
        json!({ "promptTokenCount": 8, "candidatesTokenCount": 9, "totalTokenCount": 20, "thoughtsTokenCount": 3, "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 8 }] }),
        json!({ "inputTokens": 4, "outputTokens": 5, "totalTokens": 9 }),
        json!({ "billed_units": { "input_tokens": 2, "output_tokens": 3 }, "tokens": { "input_tokens": 4, "output_tokens": 5 } }),
        json!({ "id": "r", "object": "chat.completion", "model": "m", "choices": null, "usage": { "prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3 } }),
        json!({ "model": "llama", "prompt_eval_count": 3, "eval_count": 4, "total_duration": 100 }),
        json!({ "candidates": null, "usageMetadata": { "promptTokenCount": 1, "candidatesTokenCount": 1 } }),
        json!({ "totalUsage": { "inputTokens": 7, "outputTokens": 1 }, "usage": { "inputTokens": 1 } }),
        json!({ "tokens": { "input": 1, "output": 2 }, "cost": { "total": 0.5, "pricing": { "input": 1 } }, "timing": { "startTime": 5, "endTime": "2026-01-01T00:00:00Z", "timeSegments": ["a"] } }),
        json!({ "tokens": { "input": 1.5, "extra": { "deep": 2, "none": null } }, "model": "x" }),
        json!({ "timing": { "startTime": null }, "tokens": null }),
        json!(null),
        json!("garbage"),
        json!([1, 2]),
        json!({}),
    ];
    for a in &usages {
        for b in &usages {
            for c in [None, Some(&usages[0]), Some(&usages[10])] {
                let raw: Vec<Value> = [Some(a), Some(b), c]
                    .into_iter()
                    .flatten()
                    .cloned()
                    .collect();
                let recorded: Vec<Usage> = raw.iter().map(Usage::of).collect();
                assert_eq!(merge_normalized(&recorded), merge_usage(&raw), "{raw:?}");
            }
        }
        let recorded = Usage::of(a);
        assert_eq!(
            recorded.merges_to_itself(),
            merges_to_itself(&recorded.to_value()),
            "{a:?}"
        );
        if recorded.merges_to_itself() {
            assert_eq!(
                merge_usage(std::slice::from_ref(a)),
                recorded.to_value(),
                "{a:?}"
            );
        }
    }
    assert!(!merges_to_itself(
        &json!({ "tokens": { "input": 1, "cached": null } })
    ));
    assert!(merges_to_itself(
        &json!({ "timing": { "timeSegments": [null] } })
    ));
    assert!(!merges_to_itself(&json!(null)));
}

/// Usage-like JSON texts: members named as providers name them (some
/// with an escape in the name, some repeated), numbers, nulls, strings,
/// nested objects and arrays.
fn usage_like_texts(seed: u64, count: usize) -> Vec<String> {
    const NAMES: [&str; 24] = [
        "prompt_tokens",
        "completion_tokens",
        "total_tokens",
        "prompt_tokens_details",
        "completion_tokens_details",
        "cached_tokens",
        "reasoning_tokens",
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "promptTokenCount",
        "candidatesTokenCount",
        "thoughtsTokenCount",
        "inputTokens",
        "outputTokens",
        "tokens",
        "cost",
        "cost_details",
        "billed_units",
        "usage",
        "usageMetadata",
        "timing",
        "model",
    ];
    let mut state = seed;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    fn value(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> String {
        match next(if depth > 2 { 4 } else { 7 }) {
            0 | 1 => format!("{}", next(1000)),
            2 => "null".into(),
            3 => ["\"x\"", "true", "1.5", "-0", "1e3", "18446744073709551616"][next(6) as usize]
                .into(),
            4 | 5 => {
                let members: Vec<String> = (0..next(6))
                    .map(|_| {
                        let name = NAMES[next(NAMES.len() as u64) as usize];
                        // An escaped underscore names the same member.
                        let name = if next(8) == 0 {
                            name.replacen('_', "\\u005f", 1)
                        } else {
                            name.to_owned()
                        };
                        format!("\"{name}\":{}", value(next, depth + 1))
                    })
                    .collect();
                format!("{{{}}}", members.join(","))
            }
            _ => {
                let items: Vec<String> = (0..next(3)).map(|_| value(next, depth + 1)).collect();
                format!("[{}]", items.join(","))
            }
        }
    }
    (0..count)
        .map(|_| {
            let v = value(&mut next, 0);
            if next(3) == 0 {
                format!("{{\"usage\":{v}}}")
            } else {
                v
            }
        })
        .collect()
}

/// A usage's text is read as serde_json reads it: a repeated name, an
/// escaped one, numbers of every kind give the usage that the Value
/// serde_json parses from the text does (written back as serde_json
/// writes it, without repeats or escapes, and read again). The usage is
/// written as serde_json writes its Value, and says whether it merges
/// to itself as that Value does.
#[test]
fn a_usage_read_over_its_text_is_the_usage_of_its_value() {
    let mut texts = usage_like_texts(0x9e37_79b9_7f4a_7c15, 4000);
    // Objects of many members.
    let many: Vec<String> = (0..200).map(|i| format!("\"m{i}\":{i}")).collect();
    texts.push(format!("{{\"prompt_tokens\":1,{}}}", many.join(",")));
    texts.push(format!(
        "{{\"usage\":{{\"input_tokens\":2,{}}}}}",
        many.join(",")
    ));
    texts.push(r#"{"usage":{"prompt_tokens":512,"completion_tokens":180,"total_tokens":692,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}"#.into());
    let mut objects = 0;
    for text in &texts {
        let value: Value = serde_json::from_str(text).unwrap();
        let expected = normalize_usage(&value);
        let usage = normalize_usage_text(text).unwrap();
        let got = usage.to_value();
        // Equal, with members in the same order, and written as
        // serde_json writes them.
        assert_eq!(got, expected, "{text}");
        assert_eq!(got.to_string(), expected.to_string(), "{text}");
        let mut written = String::new();
        usage.write_json(&mut written);
        assert_eq!(written, expected.to_string(), "{text}");
        assert_eq!(
            usage.merges_to_itself(),
            merges_to_itself(&expected),
            "{text}"
        );
        objects += usize::from(expected.as_object().is_some_and(|map| !map.is_empty()));
    }
    // The texts reach the mapping, not only its empty answers.
    assert!(objects > 1000, "{objects}");
    assert_eq!(normalize_usage_text("{\"prompt_tokens\":"), None);
    assert_eq!(
        normalize_usage_text("null").map(|u| u.to_value()),
        Some(json!({}))
    );
}

#[test]
fn merge_does_not_mutate_or_alias_inputs() {
    let a = json!({ "timing": { "timeSegments": [1] } });
    let inputs = [a.clone(), a.clone()];
    let merged = merge_usage(&inputs);
    assert_eq!(merged["timing"]["timeSegments"], json!([1, 1]));
    assert_eq!(inputs[0], a);
}

#[test]
fn gateway_dollar_cost_is_cost_not_tokens() {
    let usage = json!({
        "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
        "cost": 0.00012, "cost_details": { "upstream_inference_cost": 0.0001 }
    });
    let n = normalize_usage(&usage);
    assert_eq!(
        n["tokens"],
        json!({ "input": 10, "output": 5, "total": 15 })
    );
    assert_eq!(
        n["cost"],
        json!({ "total": 0.00012, "details": { "upstream_inference_cost": 0.0001 } })
    );
    let merged = merge_usage(&[usage.clone(), usage]);
    assert!((merged["cost"]["total"].as_f64().unwrap() - 0.00024).abs() < 1e-12);
}

#[test]
fn responses_cache_writes_and_anthropic_thinking_tokens() {
    let responses = json!({
        "input_tokens": 100, "output_tokens": 40, "total_tokens": 140,
        "input_tokens_details": { "cached_tokens": 30, "cache_write_tokens": 50 },
        "output_tokens_details": { "reasoning_tokens": 12 }
    });
    let t = &normalize_usage(&responses)["tokens"];
    assert_eq!(t["cacheWrite"], 50);
    assert_eq!(t["cacheRead"], 30);
    assert_eq!(t["reasoning"], 12);
    let anthropic = json!({
        "input_tokens": 10, "cache_read_input_tokens": 5, "cache_creation_input_tokens": 0,
        "output_tokens": 80, "output_tokens_details": { "thinking_tokens": 60 }
    });
    let t = &normalize_usage(&anthropic)["tokens"];
    assert_eq!(t["reasoning"], 60);
    assert_eq!(t["input"], 15);
    let plain = json!({ "input_tokens": 10, "output_tokens": 80, "output_tokens_details": { "thinking_tokens": 60 } });
    assert_eq!(normalize_usage(&plain)["tokens"]["reasoning"], 60);
}

#[test]
fn per_modality_counts_are_summed_by_modality() {
    let first = json!({ "usageMetadata": {
        "promptTokenCount": 12, "candidatesTokenCount": 4, "totalTokenCount": 16,
        "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 10 }, { "modality": "IMAGE", "tokenCount": 2 }]
    }});
    let second = json!({ "usageMetadata": {
        "promptTokenCount": 8, "candidatesTokenCount": 3, "totalTokenCount": 11,
        "promptTokensDetails": [{ "modality": "TEXT", "tokenCount": 7 }, { "modality": "AUDIO", "tokenCount": 1 }]
    }});
    let merged = merge_usage(&[normalize_usage(&first), normalize_usage(&second)]);
    assert_eq!(merged["tokens"]["input"], 20);
    assert_eq!(
        merged["tokens"]["promptTokensDetails"],
        json!([
            { "modality": "TEXT", "tokenCount": 17 },
            { "modality": "IMAGE", "tokenCount": 2 },
            { "modality": "AUDIO", "tokenCount": 1 }
        ]),
        "{merged}"
    );
}

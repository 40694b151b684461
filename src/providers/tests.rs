//! Each provider's facts hold, and the shared tables are exactly what the
//! providers' modules give.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::collections::BTreeSet;

use super::*;
use crate::finish::detect_truncation;

/// Every provider's truncated responses are read as truncated, where its
/// module says its finish reason is, and each of its words for a token
/// limit is the finish reason of one of them.
#[test]
fn every_provider_s_truncated_examples_read_as_truncated() {
    for provider in PROVIDERS {
        assert!(!provider.truncated_examples.is_empty(), "{}", provider.name);
        let mut reasons = Vec::new();
        for example in provider.truncated_examples {
            let response: serde_json::Value = serde_json::from_str(example).unwrap();
            let read = detect_truncation(&response);
            assert!(
                read.truncated,
                "{}: {example} reads {read:?}",
                provider.name
            );
            reasons.push(read.finish_reason.unwrap());
        }
        for word in provider.token_limit_reasons {
            assert!(
                reasons.iter().any(|reason| reason == word),
                "{}: no example ends with {word}",
                provider.name
            );
        }
    }
}

#[test]
fn a_word_no_provider_has_is_no_token_limit() {
    for word in [
        "stop",
        "end_turn",
        "tool_use",
        "STOP",
        "content_filter",
        "",
        "length2",
    ] {
        assert!(!is_token_limit(word), "{word}");
    }
    assert!(is_token_limit(" Max_Tokens "));
}

/// The output plan's root reads exactly the members the providers name.
#[test]
fn the_output_plan_reads_the_members_the_providers_name() {
    let named: BTreeSet<&str> = PROVIDERS
        .iter()
        .flat_map(|provider| provider.response_members.iter().copied())
        .collect();
    let read: BTreeSet<&str> = read::OUTPUT_PLAN
        .members
        .iter()
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(named, read);
}

/// Every usage-key table of the hot-path crate is some provider's, and
/// every table a provider names is one of them.
#[test]
fn every_usage_key_table_is_a_provider_s() {
    let named: Vec<&[&str]> = PROVIDERS
        .iter()
        .flat_map(|provider| provider.usage_keys.iter().copied())
        .collect();
    for table in hot_path::usage::keys::ALL {
        assert!(named.contains(&table), "{table:?} is no provider's");
    }
    for table in &named {
        assert!(hot_path::usage::keys::ALL.contains(table), "{table:?}");
    }
}

/// The stream-event table is every provider's readers, in the order of
/// the provider list; its names say whose each is.
#[test]
fn the_stream_table_is_every_provider_s_readers_in_turn() {
    let expected: Vec<&str> = PROVIDERS
        .iter()
        .flat_map(|provider| provider.stream_readers.iter().map(|r| r.name))
        .collect();
    let table: Vec<&str> = stream_events::READERS.iter().map(|r| r.name).collect();
    assert_eq!(table, expected);
    for provider in PROVIDERS {
        for reader in provider.stream_readers {
            assert!(reader.name.starts_with(provider.name), "{}", reader.name);
        }
    }
    assert_eq!(
        table,
        [
            "openai_chat_chunk",
            "openai_responses_text_delta",
            "openai_responses_function_call_added",
            "openai_responses_arguments_delta",
            "openai_responses_arguments_done",
            "openai_responses_done",
            "anthropic_text_delta",
            "anthropic_tool_use_start",
            "anthropic_input_json_delta",
            "anthropic_content_block_stop",
            "anthropic_message_start",
            "anthropic_message_delta",
            "gemini_chunk",
            "ai_sdk_text_delta",
            "ai_sdk_tool_input_start",
            "ai_sdk_tool_input_delta",
            "ai_sdk_tool_input_end",
            "ai_sdk_tool_call",
            "ai_sdk_finish",
            "ai_sdk_error",
            "bedrock_content_block_start",
            "bedrock_content_block_delta",
            "bedrock_content_block_stop",
            "bedrock_message_stop",
            "bedrock_metadata",
        ]
    );
}

/// The tool paths, declaration paths and schema sources: each provider's,
/// each place once, and nothing else.
#[test]
fn the_request_tables_are_the_providers_places() {
    let tool_paths: Vec<(Vec<&str>, tools::Leaf)> = tools::TOOL_PATHS
        .iter()
        .map(|p| (p.path.to_vec(), p.leaf))
        .collect();
    assert_eq!(
        tool_paths,
        [
            (vec!["tools"], tools::Leaf::Collection),
            (vec!["functions"], tools::Leaf::Collection),
            (vec!["web_search_options"], tools::Leaf::Presence),
            (vec!["mcp_servers"], tools::Leaf::Collection),
            (vec!["config", "tools"], tools::Leaf::Collection),
            (vec!["toolConfig", "tools"], tools::Leaf::Collection),
            (vec!["body"], tools::Leaf::RequestText),
            (vec!["input", "body"], tools::Leaf::RequestText),
        ]
    );
    for provider in PROVIDERS {
        for place in provider.tool_paths {
            assert!(tools::TOOL_PATHS.contains(place), "{}", provider.name);
        }
        for path in provider.declaration_paths {
            assert!(
                declarations::DECLARATION_PATHS.contains(path),
                "{}",
                provider.name
            );
        }
    }
    assert_eq!(
        declarations::DECLARATION_PATHS,
        [
            &["tools"][..],
            &["functions"],
            &["config", "tools"],
            &["toolConfig", "tools"]
        ]
    );
    let sources: Vec<&str> = request_schema::SCHEMA_SOURCES
        .iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(
        sources,
        [
            "tool_choice (OpenAI Chat's forced function's parameters)",
            "tool_choice (OpenAI Responses' forced function's parameters)",
            "tool_choice (Anthropic's forced tool's input_schema)",
            "response_format.json_schema.schema",
            "text.format.schema",
            "config.responseJsonSchema",
            "config.responseSchema",
            "generationConfig.responseJsonSchema",
            "generationConfig.responseSchema",
            "format",
        ]
    );
}

/// Each provider is listed once, under the name of its module.
#[test]
fn each_provider_is_listed_once() {
    let names: BTreeSet<&str> = PROVIDERS.iter().map(|provider| provider.name).collect();
    assert_eq!(names.len(), PROVIDERS.len());
}

/// The token-limit words, each once, as the first provider spells it.
#[test]
fn the_token_limit_words_are_the_providers() {
    assert_eq!(
        TOKEN_LIMIT_REASONS,
        [
            "length",
            "max_output_tokens",
            "max_tokens",
            "model_context_window_exceeded",
            "model_length"
        ]
    );
}

//! Anthropic Messages: the answer in the `text` blocks of `content` (beside
//! `thinking` and `tool_use` blocks), the finish reason in `stop_reason`
//! (`max_tokens` at the token limit, `model_context_window_exceeded` when
//! the context ran out), usage in `usage` with `input_tokens` that leave the
//! cache out, typed stream events (`content_block_delta`, ...), tools in
//! `tools` and MCP servers in `mcp_servers`, the schema in a forced tool's
//! `input_schema`.

use super::request_schema::{Forced, SchemaSource};
use super::stream_events::{call_end, calls, reader, Calls, Expect, Reader, Step::Member, TYPE};
use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::schema::Dialect;
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["content", "stop_reason"],
    truncated_examples: &[
        r#"{"type":"message","content":[{"type":"text","text":"{"}],"stop_reason":"max_tokens"}"#,
        r#"{"type":"message","content":[],"stop_reason":"model_context_window_exceeded"}"#,
    ],
    token_limit_reasons: &["max_tokens", "model_context_window_exceeded"],
    usage_keys: &[&keys::SNAKE_KEYS, &keys::ANTHROPIC_CACHE_KEYS],
    stream_readers: &STREAM_READERS,
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"]],
    schema_sources: &SCHEMA_SOURCES,
    ..provider("anthropic")
};

/// Its stream events, in the order they are tried (see
/// `super::stream_events`).
const STREAM_READERS: [Reader; 6] = [
    Reader {
        text: &[&[Member("delta"), Member("text")]],
        ..reader(
            "anthropic_text_delta",
            &[
                (TYPE, Expect::Is("content_block_delta")),
                (&[Member("delta"), Member("type")], Expect::Is("text_delta")),
            ],
        )
    },
    // A `tool_use` block names the call; its input streams as JSON text by
    // the block's `index`.
    Reader {
        calls: Some(Calls {
            id: &[&[Member("content_block"), Member("id")]],
            name: &[&[Member("content_block"), Member("name")]],
            ..calls(&[], &[Member("index")])
        }),
        ..reader(
            "anthropic_tool_use_start",
            &[
                (TYPE, Expect::Is("content_block_start")),
                (
                    &[Member("content_block"), Member("type")],
                    Expect::Is("tool_use"),
                ),
            ],
        )
    },
    Reader {
        calls: Some(Calls {
            arguments: &[&[Member("delta"), Member("partial_json")]],
            ..calls(&[], &[Member("index")])
        }),
        ..reader(
            "anthropic_input_json_delta",
            &[
                (TYPE, Expect::Is("content_block_delta")),
                (
                    &[Member("delta"), Member("type")],
                    Expect::Is("input_json_delta"),
                ),
            ],
        )
    },
    Reader {
        calls: Some(call_end(&[], &[Member("index")])),
        ..reader(
            "anthropic_content_block_stop",
            &[(TYPE, Expect::Is("content_block_stop"))],
        )
    },
    // The input tokens are reported at the start, the output tokens (so
    // far) at each `message_delta`.
    Reader {
        usage: &[&[Member("message"), Member("usage")]],
        ..reader(
            "anthropic_message_start",
            &[(TYPE, Expect::Is("message_start"))],
        )
    },
    Reader {
        finish: &[&[Member("delta"), Member("stop_reason")]],
        usage: &[&[Member("usage")]],
        ..reader(
            "anthropic_message_delta",
            &[(TYPE, Expect::Is("message_delta"))],
        )
    },
];

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 2] = [
    // `tools` (client and server tools).
    at(&["tools"], Leaf::Collection),
    // `mcp_servers`: the MCP connector.
    at(&["mcp_servers"], Leaf::Collection),
];

/// Where its requests keep the schema (see `super::request_schema`).
const SCHEMA_SOURCES: [SchemaSource; 1] = [
    // `tool_choice: { type: "tool", name }`.
    SchemaSource {
        name: "tool_choice (Anthropic's forced tool's input_schema)",
        schema: &["input_schema"],
        strict: Some(&["strict"]),
        forced: Some(Forced {
            choice: &["tool_choice"],
            choice_type: "tool",
            choice_name: &["name"],
            tools: &["tools"],
            tool_name: &["name"],
        }),
        dialect: Dialect::JsonSchema,
        json_schema_with: None,
    },
];

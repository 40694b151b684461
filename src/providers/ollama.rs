//! Ollama's native API: the answer in `message.content` (/api/chat) or
//! `response` (/api/generate), the finish reason in `done_reason` (`length`
//! at the token limit), counts as top-level members (`prompt_eval_count`,
//! `eval_count`), tools in `tools`, the schema in `format` ("json" or a
//! schema).

use super::request_schema::{member, SchemaSource};
use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::schema::Dialect;
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["message", "response", "done_reason"],
    truncated_examples: &[
        r#"{"model":"llama3.2","message":{"role":"assistant","content":"{"},"done":true,"done_reason":"length"}"#,
        r#"{"model":"llama3.2","response":"{","done":true,"done_reason":"length"}"#,
    ],
    token_limit_reasons: &["length"],
    usage_keys: &[&keys::OLLAMA_KEYS],
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"]],
    schema_sources: &SCHEMA_SOURCES,
    ..provider("ollama")
};

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 1] = [at(&["tools"], Leaf::Collection)];

/// Where its requests keep the schema (see `super::request_schema`).
const SCHEMA_SOURCES: [SchemaSource; 1] = [
    // /api/chat and /api/generate: `format` is "json" or a schema.
    member("format", &["format"], None, Dialect::JsonSchema),
];

//! OpenAI Chat Completions, and the APIs that answer in its shape (OpenRouter,
//! vLLM, LiteLLM, Groq, ... and Ollama's and Mistral's compatible
//! endpoints): the answer in `choices[0].message.content`, the finish reason
//! beside it (`length` at the token limit; OpenRouter keeps the upstream's
//! own word in `native_finish_reason`, there and at the root of its
//! generation records), tool calls in `message.tool_calls`, usage in
//! `usage` with `prompt_tokens` and `completion_tokens`, completion chunks
//! when streamed, tools in `tools` (and the legacy `functions`, and
//! `web_search_options`), the schema in `response_format.json_schema` or a
//! forced function's `parameters`.

use super::read::{node, Node, ARGUMENTS, CALL_ID, CALL_NAME, LEAF, MESSAGE, TEXT};
use super::request_schema::{member, Forced, SchemaSource};
use super::stream_events::{
    calls, reader, Calls, Expect, Reader,
    Step::{First, Member},
};
use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::schema::Dialect;
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["choices", "native_finish_reason"],
    truncated_examples: &[
        r#"{"choices":[{"finish_reason":"length","message":{"content":"{\"a\":"}}]}"#,
        r#"{"choices":[{"finish_reason":null,"native_finish_reason":"MAX_TOKENS","message":{"content":"{"}}]}"#,
        r#"{"id":"gen-2","native_finish_reason":"max_tokens"}"#,
    ],
    token_limit_reasons: &["length"],
    usage_keys: &[&keys::OPENAI_CHAT_KEYS],
    stream_readers: &STREAM_READERS,
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"], &["functions"]],
    schema_sources: &SCHEMA_SOURCES,
    ..provider("openai_chat")
};

// The read plan's nodes for its own shapes (see `super::read`).

/// OpenAI Chat's (and Ollama's) tool calls.
pub static TOOL_CALLS: Node = Node {
    each: Some(&TOOL_CALL),
    ..node()
};

pub static TOOL_CALL: Node = Node {
    members: &[("id", &CALL_ID), ("function", &FUNCTION)],
    ..node()
};

pub static FUNCTION: Node = Node {
    members: &[("name", &CALL_NAME), ("arguments", &ARGUMENTS)],
    ..node()
};

pub static CHOICE: Node = Node {
    members: &[
        ("message", &MESSAGE),
        ("text", &TEXT),
        ("finish_reason", &LEAF),
        ("native_finish_reason", &LEAF),
    ],
    ..node()
};

pub static CHOICES: Node = Node {
    first: Some(&CHOICE),
    ..node()
};

/// Its stream events, in the order they are tried (see
/// `super::stream_events`).
const STREAM_READERS: [Reader; 1] = [
    // OpenAI Chat Completions (and the compatible APIs): the last chunk,
    // with `stream_options.include_usage`, has no choices and the usage.
    Reader {
        text: &[&[Member("choices"), First, Member("delta"), Member("content")]],
        finish: &[&[Member("choices"), First, Member("finish_reason")]],
        usage: &[&[Member("usage")]],
        // Each delta of `tool_calls` continues the call at its `index`: the
        // first carries the id and the name, the rest argument text.
        calls: Some(Calls {
            id: &[&[Member("id")]],
            name: &[&[Member("function"), Member("name")]],
            arguments: &[&[Member("function"), Member("arguments")]],
            ..calls(
                &[
                    Member("choices"),
                    First,
                    Member("delta"),
                    Member("tool_calls"),
                ],
                &[Member("index")],
            )
        }),
        ..reader(
            "openai_chat_chunk",
            &[(&[Member("choices")], Expect::Array)],
        )
    },
];

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 3] = [
    // `tools` (function, mcp, web_search, code_interpreter, file_search tools).
    at(&["tools"], Leaf::Collection),
    // `functions`: the legacy functions.
    at(&["functions"], Leaf::Collection),
    // `web_search_options`: the built-in web search, switched on by its mere presence (even `{}`).
    at(&["web_search_options"], Leaf::Presence),
];

/// Where its requests keep the schema (see `super::request_schema`).
const SCHEMA_SOURCES: [SchemaSource; 2] = [
    // `tool_choice: { type: "function", function: { name } }`.
    SchemaSource {
        name: "tool_choice (OpenAI Chat's forced function's parameters)",
        schema: &["function", "parameters"],
        strict: Some(&["function", "strict"]),
        forced: Some(Forced {
            choice: &["tool_choice"],
            choice_type: "function",
            choice_name: &["function", "name"],
            tools: &["tools"],
            tool_name: &["function", "name"],
        }),
        dialect: Dialect::JsonSchema,
        json_schema_with: None,
    },
    // `response_format: { type: "json_schema", json_schema: { name, schema,
    // strict } }` (and the compatible APIs').
    member(
        "response_format.json_schema.schema",
        &["response_format", "json_schema", "schema"],
        Some(&["response_format", "json_schema", "strict"]),
        Dialect::JsonSchema,
    ),
];

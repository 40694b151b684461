//! Gemini (the REST API and @google/genai): the answer in the parts of
//! `candidates[0].content` that are not `thought` parts, the finish reason
//! in `candidates[0].finishReason` (`MAX_TOKENS` at the token limit), tool
//! calls as `functionCall` parts, usage in `usageMetadata`, every stream
//! chunk a response of its own, tools in `tools` (REST) or `config.tools`
//! (@google/genai), the schema in `config` (@google/genai) or
//! `generationConfig` (REST), as JSON Schema or as Gemini's `Schema`.

use super::read::{node, Node, ARGUMENTS, CALL_ID, CALL_NAME, LEAF, PART};
use super::request_schema::{member, SchemaSource};
use super::stream_events::{
    calls, reader, Calls, Expect, Reader,
    Step::{EachUnless, First, Member},
};
use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::schema::Dialect;
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["candidates"],
    truncated_examples: &[
        r#"{"candidates":[{"content":{"parts":[{"text":"{"}]},"finishReason":"MAX_TOKENS"}]}"#,
    ],
    token_limit_reasons: &["MAX_TOKENS"],
    usage_keys: &[&keys::GEMINI_KEYS],
    stream_readers: &STREAM_READERS,
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"], &["config", "tools"]],
    schema_sources: &SCHEMA_SOURCES,
    ..provider("gemini")
};

// The read plan's nodes for its own shapes (see `super::read`).

pub static GEMINI_CONTENT: Node = Node {
    members: &[("parts", &PARTS)],
    ..node()
};

pub static PARTS: Node = Node {
    each: Some(&PART),
    ..node()
};

pub static CANDIDATE: Node = Node {
    members: &[("content", &GEMINI_CONTENT), ("finishReason", &LEAF)],
    ..node()
};

pub static CANDIDATES: Node = Node {
    first: Some(&CANDIDATE),
    ..node()
};

pub static GEMINI_CALL: Node = Node {
    members: &[("id", &CALL_ID), ("name", &CALL_NAME), ("args", &ARGUMENTS)],
    ..node()
};

/// Its stream events, in the order they are tried (see
/// `super::stream_events`).
const STREAM_READERS: [Reader; 1] = [
    // Every Gemini chunk carries the usage so far.
    Reader {
        text: &[&[
            Member("candidates"),
            First,
            Member("content"),
            Member("parts"),
            EachUnless("thought"),
            Member("text"),
        ]],
        finish: &[&[Member("candidates"), First, Member("finishReason")]],
        usage: &[&[Member("usageMetadata")]],
        // A `functionCall` part is a whole call, its `args` an object.
        calls: Some(Calls {
            id: &[&[Member("functionCall"), Member("id")]],
            name: &[&[Member("functionCall"), Member("name")]],
            whole: &[&[Member("functionCall"), Member("args")]],
            ..calls(
                &[
                    Member("candidates"),
                    First,
                    Member("content"),
                    Member("parts"),
                ],
                &[],
            )
        }),
        ..reader("gemini_chunk", &[(&[Member("candidates")], Expect::Array)])
    },
];

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 2] = [
    // `tools`: the REST API's.
    at(&["tools"], Leaf::Collection),
    // `config.tools`: @google/genai's (function declarations, googleSearch, codeExecution, urlContext, MCP tools).
    at(&["config", "tools"], Leaf::Collection),
];

/// Where its requests keep the schema (see `super::request_schema`).
const SCHEMA_SOURCES: [SchemaSource; 4] = [
    // @google/genai generateContent.
    member(
        "config.responseJsonSchema",
        &["config", "responseJsonSchema"],
        None,
        Dialect::JsonSchema,
    ),
    SchemaSource {
        json_schema_with: Some("$schema"),
        ..member(
            "config.responseSchema",
            &["config", "responseSchema"],
            None,
            Dialect::Gemini,
        )
    },
    // The Gemini REST API's request body.
    member(
        "generationConfig.responseJsonSchema",
        &["generationConfig", "responseJsonSchema"],
        None,
        Dialect::JsonSchema,
    ),
    member(
        "generationConfig.responseSchema",
        &["generationConfig", "responseSchema"],
        None,
        Dialect::Gemini,
    ),
];

//! OpenAI Responses: the answer in `output_text` (the SDKs' convenience) or
//! the `message` items of `output`, beside reasoning items and
//! `function_call` items; `status` says how it ended, and an `incomplete`
//! one says why in `incomplete_details.reason` (`max_output_tokens` at the
//! token limit); usage in `usage` with `input_tokens` and `output_tokens`,
//! typed stream events (`response.output_text.delta`, ...), tools in
//! `tools`, the schema in `text.format` or a forced function's
//! `parameters`.

use super::read::{node, Node, ARGUMENTS, CALL_ID, CALL_NAME, CONTENT, LEAF, MESSAGE};
use super::request_schema::{member, Forced, SchemaSource};
use super::stream_events::{call_end, calls, reader, Calls, Expect, Reader, Step::Member, TYPE};
use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::schema::Dialect;
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["output_text", "output", "status", "incomplete_details"],
    truncated_examples: &[
        r#"{"object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}"#,
    ],
    token_limit_reasons: &["max_output_tokens"],
    usage_keys: &[&keys::SNAKE_KEYS],
    stream_readers: &STREAM_READERS,
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"]],
    schema_sources: &SCHEMA_SOURCES,
    ..provider("openai_responses")
};

// The read plan's nodes for its own shapes (see `super::read`).

/// A Responses output item (messages beside reasoning and tool calls).
pub static OUTPUT_ITEM: Node = Node {
    members: &[
        ("type", &LEAF),
        ("content", &CONTENT),
        ("id", &CALL_ID),
        ("call_id", &CALL_ID),
        ("name", &CALL_NAME),
        ("arguments", &ARGUMENTS),
    ],
    ..node()
};

/// `output`: the Responses item list, or Bedrock Converse's `{ message }`.
pub static OUTPUT: Node = Node {
    members: &[("message", &MESSAGE)],
    each: Some(&OUTPUT_ITEM),
    ..node()
};

pub static INCOMPLETE: Node = Node {
    members: &[("reason", &LEAF)],
    ..node()
};

/// Its stream events, in the order they are tried (see
/// `super::stream_events`).
const STREAM_READERS: [Reader; 5] = [
    Reader {
        text: &[&[Member("delta")]],
        ..reader(
            "openai_responses_text_delta",
            &[(TYPE, Expect::Is("response.output_text.delta"))],
        )
    },
    // A function call begins as an output item, its arguments follow by
    // the item's `output_index`.
    Reader {
        calls: Some(Calls {
            id: &[
                &[Member("item"), Member("call_id")],
                &[Member("item"), Member("id")],
            ],
            name: &[&[Member("item"), Member("name")]],
            arguments: &[&[Member("item"), Member("arguments")]],
            ..calls(&[], &[Member("output_index")])
        }),
        ..reader(
            "openai_responses_function_call_added",
            &[
                (TYPE, Expect::Is("response.output_item.added")),
                (
                    &[Member("item"), Member("type")],
                    Expect::Is("function_call"),
                ),
            ],
        )
    },
    Reader {
        calls: Some(Calls {
            arguments: &[&[Member("delta")]],
            ..calls(&[], &[Member("output_index")])
        }),
        ..reader(
            "openai_responses_arguments_delta",
            &[(TYPE, Expect::Is("response.function_call_arguments.delta"))],
        )
    },
    Reader {
        calls: Some(call_end(&[], &[Member("output_index")])),
        ..reader(
            "openai_responses_arguments_done",
            &[(TYPE, Expect::Is("response.function_call_arguments.done"))],
        )
    },
    // A response that ended: `incomplete_details.reason` says why an
    // incomplete one stopped (`max_output_tokens` is the token limit),
    // `status` how any other ended.
    Reader {
        finish: &[
            &[
                Member("response"),
                Member("incomplete_details"),
                Member("reason"),
            ],
            &[Member("response"), Member("status")],
        ],
        usage: &[&[Member("response"), Member("usage")]],
        ..reader(
            "openai_responses_done",
            &[(
                TYPE,
                Expect::OneOf(&[
                    "response.completed",
                    "response.incomplete",
                    "response.failed",
                ]),
            )],
        )
    },
];

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 1] = [at(&["tools"], Leaf::Collection)];

/// Where its requests keep the schema (see `super::request_schema`).
const SCHEMA_SOURCES: [SchemaSource; 2] = [
    // `tool_choice: { type: "function", name }`.
    SchemaSource {
        name: "tool_choice (OpenAI Responses' forced function's parameters)",
        schema: &["parameters"],
        strict: Some(&["strict"]),
        forced: Some(Forced {
            choice: &["tool_choice"],
            choice_type: "function",
            choice_name: &["name"],
            tools: &["tools"],
            tool_name: &["name"],
        }),
        dialect: Dialect::JsonSchema,
        json_schema_with: None,
    },
    // `text: { format: { type: "json_schema", name, schema, strict } }`.
    member(
        "text.format.schema",
        &["text", "format", "schema"],
        Some(&["text", "format", "strict"]),
        Dialect::JsonSchema,
    ),
];

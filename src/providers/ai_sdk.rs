//! The Vercel AI SDK's results (`generateText`, `generateObject`, their
//! errors) and stream parts: the answer in `text` (or the parsed `object`,
//! or `content` parts), the finish reason in `finishReason`, a word
//! (`length` at the token limit) or `{ unified, raw }`, usage in `usage` and
//! `totalUsage` (`inputTokens`/`outputTokens`, `promptTokens` before v5),
//! `streamText(...).fullStream` parts, tools in a `tools` record keyed by
//! name.

use super::read::{node, Node, LEAF};
use super::stream_events::{call_end, calls, reader, Calls, Expect, Reader, Step::Member, TYPE};
use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["content", "text", "finishReason", "object"],
    truncated_examples: &[
        r#"{"text":"{","finishReason":"length"}"#,
        r#"{"text":"{","finishReason":{"unified":"length","raw":"max_tokens"}}"#,
    ],
    token_limit_reasons: &["length"],
    usage_keys: &[&keys::AI_SDK_V4_KEYS, &keys::CAMEL_KEYS],
    stream_readers: &STREAM_READERS,
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"]],
    ..provider("ai_sdk")
};

// The read plan's nodes for its own shapes (see `super::read`).

/// The AI SDK's finish reason: a word, or `{ unified, raw }`.
pub static SDK_REASON: Node = Node {
    members: &[("unified", &LEAF), ("raw", &LEAF)],
    ..node()
};

/// Its stream events, in the order they are tried (see
/// `super::stream_events`).
const STREAM_READERS: [Reader; 7] = [
    // The AI SDK: `text` since v5, `textDelta` before.
    Reader {
        text: &[&[Member("text")], &[Member("textDelta")]],
        ..reader("ai_sdk_text_delta", &[(TYPE, Expect::Is("text-delta"))])
    },
    // Tool input streams as `tool-input-start` (the name), deltas, then
    // the `tool-call` with the input whole (parsed), by the call's id.
    Reader {
        calls: Some(Calls {
            id: &[&[Member("id")]],
            name: &[&[Member("toolName")]],
            ..calls(&[], &[Member("id")])
        }),
        ..reader(
            "ai_sdk_tool_input_start",
            &[(TYPE, Expect::Is("tool-input-start"))],
        )
    },
    Reader {
        calls: Some(Calls {
            arguments: &[&[Member("delta")]],
            ..calls(&[], &[Member("id")])
        }),
        ..reader(
            "ai_sdk_tool_input_delta",
            &[(TYPE, Expect::Is("tool-input-delta"))],
        )
    },
    Reader {
        calls: Some(call_end(&[], &[Member("id")])),
        ..reader(
            "ai_sdk_tool_input_end",
            &[(TYPE, Expect::Is("tool-input-end"))],
        )
    },
    Reader {
        calls: Some(Calls {
            id: &[&[Member("toolCallId")]],
            name: &[&[Member("toolName")]],
            whole: &[&[Member("input")], &[Member("args")]],
            ..call_end(&[], &[Member("toolCallId")])
        }),
        ..reader("ai_sdk_tool_call", &[(TYPE, Expect::Is("tool-call"))])
    },
    // `finish-step` reports each step's usage, `finish` the call's total
    // (`totalUsage` since v5, `usage` before) and its finish reason (a
    // word, or `{ unified, raw }`).
    Reader {
        finish: &[
            &[Member("finishReason"), Member("unified")],
            &[Member("finishReason")],
        ],
        usage: &[&[Member("totalUsage")], &[Member("usage")]],
        ..reader(
            "ai_sdk_finish",
            &[(TYPE, Expect::OneOf(&["finish", "finish-step"]))],
        )
    },
    Reader {
        error: Some(&[Member("error")]),
        ..reader("ai_sdk_error", &[(TYPE, Expect::Is("error"))])
    },
];

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 1] = [
    // `tools`: a record keyed by tool name.
    at(&["tools"], Leaf::Collection),
];

//! Amazon Bedrock: Converse's answer in `output.message.content` (its
//! `text` blocks, `toolUse` blocks for tool calls), the finish reason in
//! `stopReason` (`max_tokens` at the token limit), usage in `usage` with
//! `inputTokens` that leave the cache out, ConverseStream's events (each an
//! object with one member naming its kind), tools in `toolConfig.tools`;
//! and InvokeModel, whose `body` is the model's own request (Anthropic's,
//! Cohere's, Amazon Nova's) as JSON text or bytes.

use super::read::{node, Node, ARGUMENTS, CALL_ID, CALL_NAME};
use super::stream_events::{call_end, calls, reader, Calls, Expect, Reader, Step::Member};
use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};
use hot_path::usage::keys;

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["output", "stopReason"],
    truncated_examples: &[
        r#"{"output":{"message":{"role":"assistant","content":[{"text":"{"}]}},"stopReason":"max_tokens"}"#,
    ],
    token_limit_reasons: &["max_tokens"],
    usage_keys: &[&keys::CAMEL_KEYS],
    stream_readers: &STREAM_READERS,
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["toolConfig", "tools"]],
    ..provider("bedrock")
};

// The read plan's nodes for its own shapes (see `super::read`).

pub static BEDROCK_TOOL_USE: Node = Node {
    members: &[
        ("toolUseId", &CALL_ID),
        ("name", &CALL_NAME),
        ("input", &ARGUMENTS),
    ],
    ..node()
};

/// Its stream events, in the order they are tried (see
/// `super::stream_events`).
const STREAM_READERS: [Reader; 5] = [
    // Bedrock ConverseStream: each event is an object with one member that
    // names its kind. A `toolUse` block starts with its id and name and
    // streams its input as JSON text, by `contentBlockIndex`.
    Reader {
        calls: Some(Calls {
            id: &[&[Member("start"), Member("toolUse"), Member("toolUseId")]],
            name: &[&[Member("start"), Member("toolUse"), Member("name")]],
            ..calls(
                &[Member("contentBlockStart")],
                &[Member("contentBlockIndex")],
            )
        }),
        ..reader(
            "bedrock_content_block_start",
            &[(&[Member("contentBlockStart")], Expect::Object)],
        )
    },
    Reader {
        text: &[&[Member("contentBlockDelta"), Member("delta"), Member("text")]],
        calls: Some(Calls {
            arguments: &[&[Member("delta"), Member("toolUse"), Member("input")]],
            ..calls(
                &[Member("contentBlockDelta")],
                &[Member("contentBlockIndex")],
            )
        }),
        ..reader(
            "bedrock_content_block_delta",
            &[(&[Member("contentBlockDelta")], Expect::Object)],
        )
    },
    Reader {
        calls: Some(call_end(
            &[Member("contentBlockStop")],
            &[Member("contentBlockIndex")],
        )),
        ..reader(
            "bedrock_content_block_stop",
            &[(&[Member("contentBlockStop")], Expect::Object)],
        )
    },
    Reader {
        finish: &[&[Member("messageStop"), Member("stopReason")]],
        ..reader(
            "bedrock_message_stop",
            &[(&[Member("messageStop")], Expect::Object)],
        )
    },
    Reader {
        usage: &[&[Member("metadata"), Member("usage")]],
        ..reader(
            "bedrock_metadata",
            &[(&[Member("metadata")], Expect::Object)],
        )
    },
];

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 3] = [
    // `toolConfig.tools`: Converse's (and Amazon Nova bodies').
    at(&["toolConfig", "tools"], Leaf::Collection),
    // `body`: InvokeModel's, the model's own request as JSON text or bytes, read with the same table.
    at(&["body"], Leaf::RequestText),
    // `input.body`: an InvokeModelCommand of the AWS SDK, whose request sits in `input`.
    at(&["input", "body"], Leaf::RequestText),
];

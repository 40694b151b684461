//! Cohere v2 Chat: the answer in the `text` parts of `message.content`,
//! the finish reason in `finish_reason` (`MAX_TOKENS` at the token limit),
//! usage in `usage` as `tokens` beside `billed_units` (recognised by that
//! shape in `hot_path::usage`, not by a table of keys), tools in `tools`.

use super::tools::{at, Leaf, ToolPath};
use super::{provider, Provider};

/// What the guard reads of this provider's responses and requests;
/// see the module documentation.
pub const PROVIDER: Provider = Provider {
    response_members: &["message", "finish_reason"],
    truncated_examples: &[
        r#"{"id":"c1","message":{"role":"assistant","content":[{"type":"text","text":"{"}]},"finish_reason":"MAX_TOKENS"}"#,
    ],
    token_limit_reasons: &["MAX_TOKENS"],
    tool_paths: &TOOL_PATHS,
    declaration_paths: &[&["tools"]],
    ..provider("cohere")
};

/// Where its requests declare tools (see `super::tools`).
const TOOL_PATHS: [ToolPath; 1] = [at(&["tools"], Leaf::Collection)];
